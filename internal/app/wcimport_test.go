package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/oldlinks"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/standin"
)

// The command moves a stand-in shop on loopback into a store, on each
// engine: the flags work before and after the subcommand, progress comes
// as JSON lines (stdout is not a terminal), the report file holds the
// counts, a second run finds everything unchanged, a third after changes
// in the old shop brings exactly those, and old links resolve to the new
// pages.
func TestImportWooCommerceStore(t *testing.T) {
	storetest.EachDSN(t, testImportWooCommerceStore)
}

func testImportWooCommerceStore(t *testing.T, dsn string) {
	const key, secret = "ck_1111111111111111111111111111111111111111", "cs_2222222222222222222222222222222222222222"
	shop := standin.Catalogue(9)
	// The history too, ordering the catalogue's products.
	var bought []standin.HistoryProduct
	for _, p := range shop.Products {
		if p["type"] == "simple" || p["type"] == "variable" {
			hp := standin.HistoryProduct{ID: p["id"].(int64), Name: p["name"].(string), SKU: p["sku"].(string), Price: 2000}
			for _, v := range shop.Variations[hp.ID] {
				hp.Variations = append(hp.Variations, v["id"].(int64))
			}
			bought = append(bought, hp)
		}
	}
	shop.Comments = standin.GenerateHistory(shop, standin.HistoryOptions{Customers: 4, Coupons: 2, Orders: 12, Reviews: 5,
		Products: bought, Start: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), Origin: standin.Origin})
	srv := httptest.NewServer(standin.Server(shop, key, secret))
	defer srv.Close()
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")

	// The old shop's wp_users export: the first customer's WordPress
	// (phpass) hash of "test12345".
	users := filepath.Join(dir, "users.csv")
	first := shop.Customers[0]["email"].(string)
	if err := os.WriteFile(users, []byte("user_email,user_pass\n"+first+",$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args := []string{"--db", dsn, "import", "--concurrency", "2", "woocommerce-store", "--url", srv.URL,
		"--consumer-key", key, "--report", report, "--log-level", "warn", "--wordpress-users", users}
	err := Run(context.Background(), args, env(map[string]string{"VITRINE_WC_CONSUMER_SECRET": secret}), &out, &errb)
	if err != nil {
		t.Fatalf("import: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var rep wcimport.Report
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if c := rep.Counts["products"]; c.Read != 9 || c.Created != 9 || rep.DryRun || rep.Source != srv.URL {
		t.Errorf("report: %+v", rep)
	}
	if c := rep.Counts["categories"]; c.Created != len(shop.Categories) {
		t.Errorf("categories: %+v", c)
	}
	if rep.Counts["products"].Refused != 0 || rep.Counts["customers"].Created != 4 || rep.Counts["orders"].Read != 12 ||
		rep.Counts["orders"].Created == 0 || rep.Counts["reviews"].Created == 0 {
		t.Errorf("the history's counts: %+v", rep.Counts)
	}
	created, trashed := rep.Counts["orders"].Created, rep.Counts["orders"].Refused
	var sawProgress bool
	for _, line := range strings.Split(out.String(), "\n") {
		var ev wcimport.Progress
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Resource == "products" && ev.Done && ev.Count.Created == 9 {
			sawProgress = true
		}
	}
	if !sawProgress || !strings.Contains(out.String(), "Report written to "+report) {
		t.Errorf("output:\n%s", out.String())
	}

	db, err := sqlstore.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !strings.Contains(out.String(), "1 WordPress passwords stored") {
		t.Errorf("the passwords' summary:\n%s", out.String())
	}
	// The customer logs in with their old password, rehashed here.
	accounts := &account.Service{Store: db, Now: time.Now}
	if _, err := accounts.Authenticate(context.Background(), first, "test12345", "192.0.2.1"); err != nil {
		t.Errorf("the old password: %v", err)
	}
	n, err := db.CountProducts(context.Background())
	if err != nil || n != 9+3+9+3 {
		t.Errorf("%d products and variations in the store (%v), want 24", n, err)
	}

	// Again, flags after the subcommand: nothing changes.
	out.Reset()
	args = []string{"import", "woocommerce-store", "--url", srv.URL, "--consumer-key", key, "--consumer-secret", secret,
		"--report", report, "--db", dsn}
	if err := Run(context.Background(), args, env(nil), &out, &errb); err != nil {
		t.Fatalf("second import: %v", err)
	}
	b, _ = os.ReadFile(report)
	rep = wcimport.Report{}
	_ = json.Unmarshal(b, &rep)
	if c := rep.Counts["products"]; c.Unchanged != 9 || c.Created+c.Updated != 0 {
		t.Errorf("second run: %+v", c)
	}
	if c := rep.Counts["orders"]; c.Unchanged != created || c.Created+c.Updated != 0 {
		t.Errorf("second run: orders %+v, want the %d made first unchanged", c, created)
	}

	// The old shop changes: a price, an order's status, a new order. A
	// third run brings exactly those.
	var repriced standin.Object
	for _, p := range shop.Products {
		if p["type"] == "simple" && p["sale_price"] == "" {
			repriced = p
			break
		}
	}
	if repriced == nil {
		t.Fatal("the stand-in has no simple product without a sale")
	}
	repriced["regular_price"], repriced["price"] = "99.00", "99.00"
	var moved standin.Object
	for _, o := range shop.Orders {
		if o["status"] == "processing" {
			moved = o
			break
		}
	}
	if moved == nil {
		t.Fatal("the stand-in has no processing order")
	}
	moved["status"] = "completed"
	var added standin.Object
	raw, _ := json.Marshal(moved)
	_ = json.Unmarshal(raw, &added)
	added["id"], added["number"] = int64(990001), "990001"
	shop.Orders = append(shop.Orders, added)
	out.Reset()
	if err := Run(context.Background(), args, env(nil), &out, &errb); err != nil {
		t.Fatalf("third import: %v", err)
	}
	b, _ = os.ReadFile(report)
	rep = wcimport.Report{}
	_ = json.Unmarshal(b, &rep)
	if c := rep.Counts["products"]; c.Updated != 1 || c.Created != 0 || c.Unchanged != 8 {
		t.Errorf("third run: products %+v, want the repriced one updated", c)
	}
	// The new order was copied with the changed one's key: it is refused
	// for that, by name, and the run goes on.
	if c := rep.Counts["orders"]; c.Created != 0 || c.Updated != 1 || c.Refused != trashed+1 || c.Unchanged != created-1 {
		t.Errorf("third run: orders %+v, want one changed and the copy refused, of %d", c, created)
	}
	if !slices.ContainsFunc(rep.Refusals, func(r wcimport.Refusal) bool { return r.OldID == 990001 && strings.Contains(r.Reason, "order key") }) {
		t.Errorf("third run's refusals: %+v", rep.Refusals)
	}
	// With a key of its own, the next run brings it.
	added["order_key"] = "wc_order_moved990001"
	out.Reset()
	if err := Run(context.Background(), args, env(nil), &out, &errb); err != nil {
		t.Fatalf("fourth import: %v", err)
	}
	b, _ = os.ReadFile(report)
	rep = wcimport.Report{}
	_ = json.Unmarshal(b, &rep)
	if c := rep.Counts["orders"]; c.Created != 1 || c.Updated != 0 || c.Refused != trashed {
		t.Errorf("fourth run: orders %+v, want the new order", c)
	}
	if c := rep.Counts["products"]; c.Unchanged != 9 {
		t.Errorf("fourth run: products %+v", c)
	}
	newID, ok, err := db.LegacyByOldID(context.Background(), "product", repriced["id"].(int64))
	if err != nil || !ok {
		t.Fatalf("the repriced product's old id: %v %v", ok, err)
	}
	if p, err := db.Product(context.Background(), newID.NewID); err != nil || p.RegularPrice == nil || *p.RegularPrice != 9900 {
		t.Errorf("the repriced product: %+v %v", p, err)
	}

	// Old links answer the new pages: WordPress's ?p= of a product, and
	// its old permalink once its slug changed here.
	links := &oldlinks.Service{Store: db, Catalog: db}
	if r, err := links.Resolve(context.Background(), "/", fmt.Sprintf("p=%d&utm_source=mail", repriced["id"].(int64))); err != nil ||
		r.Answer != oldlinks.Moved || r.Target != "/product/"+repriced["slug"].(string)+"/?utm_source=mail" {
		t.Errorf("?p= of a product: %+v %v", r, err)
	}
	if r, err := links.Resolve(context.Background(), "/", fmt.Sprintf("page_id=%d", standin.FirstPageID+1)); err != nil ||
		r.Answer != oldlinks.Moved || r.Target != "/shipping-returns/" {
		t.Errorf("?page_id= of a page: %+v %v", r, err)
	}
	if r, err := links.Resolve(context.Background(), "/about-us/shipping-returns/", ""); err != nil ||
		r.Answer != oldlinks.Moved || r.Target != "/shipping-returns/" {
		t.Errorf("a child page's old path: %+v %v", r, err)
	}

	// A wrong secret stops at once with what to check; no report counts.
	out.Reset()
	args = []string{"import", "woocommerce-store", "--url", srv.URL, "--consumer-key", key, "--consumer-secret", "cs_wrong",
		"--report", filepath.Join(dir, "bad.json"), "--db", dsn}
	err = Run(context.Background(), args, env(nil), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "refused the REST API key") {
		t.Errorf("wrong secret: %v", err)
	}
	// Bad flags are refused before anything is read.
	for _, bad := range [][]string{
		{"import", "woocommerce-store", "--url", "ftp://x", "--consumer-key", key, "--consumer-secret", secret},
		{"import", "woocommerce-store", "--url", srv.URL},
		{"import", "woocommerce-store", "--url", srv.URL, "--consumer-key", key, "--consumer-secret", secret, "--concurrency", "0"},
	} {
		if err := Run(context.Background(), append(bad, "--db", dsn), env(nil), &out, &errb); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
