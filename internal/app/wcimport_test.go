package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/standin"
)

// The command moves a stand-in shop on loopback into a SQLite store: the
// flags work before and after the subcommand, progress comes as JSON
// lines (stdout is not a terminal), the report file holds the counts, and
// a second run finds everything unchanged.
func TestImportWooCommerceStore(t *testing.T) {
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
	dbPath := filepath.Join(dir, "shop.db")
	report := filepath.Join(dir, "report.json")

	var out, errb bytes.Buffer
	args := []string{"--db", "sqlite:" + dbPath, "import", "--concurrency", "2", "woocommerce-store", "--url", srv.URL,
		"--consumer-key", key, "--report", report, "--log-level", "warn"}
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
	created := rep.Counts["orders"].Created
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

	db, err := sqlstore.Open(context.Background(), "sqlite:"+dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.CountProducts(context.Background())
	db.Close()
	if err != nil || n != 9+3+9+3 {
		t.Errorf("%d products and variations in the store (%v), want 24", n, err)
	}

	// Again, flags after the subcommand: nothing changes.
	out.Reset()
	args = []string{"import", "woocommerce-store", "--url", srv.URL, "--consumer-key", key, "--consumer-secret", secret,
		"--report", report, "--db", "sqlite:" + dbPath}
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

	// A wrong secret stops at once with what to check; no report counts.
	out.Reset()
	args = []string{"import", "woocommerce-store", "--url", srv.URL, "--consumer-key", key, "--consumer-secret", "cs_wrong",
		"--report", filepath.Join(dir, "bad.json"), "--db", "sqlite:" + dbPath}
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
		if err := Run(context.Background(), append(bad, "--db", "sqlite:"+dbPath), env(nil), &out, &errb); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
