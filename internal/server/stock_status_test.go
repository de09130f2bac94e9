package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// teeAvailability reads the availability list of the Classic Tee's page
// (36 variations: above the threshold) by "color/size", and the X-Cache
// header of the answer.
func teeAvailability(t *testing.T, s *shop) (map[string]bool, string) {
	t.Helper()
	r := s.get("/product/classic-tee/")
	var data struct {
		Availability []struct {
			Attributes map[string]string `json:"attributes"`
			InStock    bool              `json:"in_stock"`
		} `json:"variation_availability"`
	}
	pageData(t, body(t, r), &data)
	out := map[string]bool{}
	for _, a := range data.Availability {
		out[a.Attributes["pa_color"]+"/"+a.Attributes["pa_size"]] = a.InStock
	}
	return out, r.Header.Get("X-Cache")
}

// A product page above the variation threshold shows each variation's
// stock status, so a sale that takes a variation's count across zero must
// reach it. The checkout's stock writer (sqlstore/orders.go) records that as
// a "product" change under the variation's id, and a count that moves
// without changing the status as a "stock" change: the page carries
// product:<variation id> tags, so the first drops it and the second keeps it
// cached, and listings stay cached either way.
func TestProductPageFollowsVariationStockStatus(t *testing.T) {
	t.Parallel()
	for _, engine := range storetest.Engines(t) {
		t.Run(strings.ToLower(engine), func(t *testing.T) {
			ctx := context.Background()
			dsn := storetest.DSN(t, engine)
			db := storetest.OpenDSN(t, dsn)
			// A second, raw connection writes as a stock writer would: the
			// count and its change-log row in one transaction.
			raw := storetest.OpenRaw(t, dsn)
			rebind := func(q string) string {
				if engine == sqlstore.SQLite {
					return q
				}
				return strings.NewReplacer("?1", "$1", "?2", "$2", "?3", "$3").Replace(q)
			}
			s := newShop(t, db, "")

			tee, err := db.ProductBySlug(ctx, "classic-tee")
			if err != nil {
				t.Fatal(err)
			}
			vars, err := db.Variations(ctx, tee.ID)
			if err != nil {
				t.Fatal(err)
			}
			var rustXXL int64
			for _, v := range vars {
				if v.Variation[0].Value == "rust" && v.Variation[1].Value == "xxl" {
					rustXXL = v.ID
				}
			}
			if rustXXL == 0 {
				t.Fatal("no rust/xxl variation")
			}

			before, _ := teeAvailability(t, s)
			if before["navy/xs"] || !before["rust/xxl"] || len(before) != 36 {
				t.Fatalf("before: navy/xs %v, rust/xxl %v, %d entries", before["navy/xs"], before["rust/xxl"], len(before))
			}
			if _, cache := teeAvailability(t, s); cache != "hit" {
				t.Fatalf("second GET: X-Cache %q, want hit", cache)
			}
			if r := s.get("/shop/"); r.Header.Get("X-Cache") != "miss" {
				t.Fatalf("/shop/ first GET: X-Cache %q", r.Header.Get("X-Cache"))
			}

			// The marker: a status change of one of the Everyday Hoodie's
			// variations (embedded in its page, which carries the same tags).
			hoodie, err := db.ProductBySlug(ctx, "everyday-hoodie")
			if err != nil {
				t.Fatal(err)
			}
			hoodieVars, err := db.Variations(ctx, hoodie.ID)
			if err != nil || len(hoodieVars) == 0 {
				t.Fatalf("hoodie variations: %v", err)
			}
			marker := hoodieVars[0].ID
			// write sets rust/xxl's count and logs the change, then a
			// "product" change of the marker: once the hoodie's page is
			// marked stale, the poller has applied the tee's change too (it
			// reads the log in order).
			write := func(stock int, kind string) {
				t.Helper()
				// Cached and fresh (after an earlier write it is stale
				// until its re-render lands).
				eventually(t, "the hoodie page cached", func() bool {
					return s.get("/product/everyday-hoodie/").Header.Get("X-Cache") == "hit"
				})
				marked := metricValue(t, s, "vitrine_page_cache_staled")
				tx, err := raw.BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tx.ExecContext(ctx, rebind(`UPDATE products SET stock_quantity = ?1 WHERE id = ?2`), stock, rustXXL); err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					id   int64
					kind string
				}{{rustXXL, kind}, {marker, "product"}} {
					if _, err := tx.ExecContext(ctx, rebind(`INSERT INTO catalog_changes (product_id, kind, at) VALUES (?1, ?2, ?3)`), c.id, c.kind, time.Now().UTC()); err != nil {
						t.Fatal(err)
					}
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				// A "product" change marks the hoodie's page stale (it is
				// re-rendered in the background, never dropped).
				eventually(t, "the change log applied", func() bool {
					return metricValue(t, s, "vitrine_page_cache_staled") > marked
				})
			}

			// One of the three rust/xxl is sold: the status stays, the page stays cached.
			write(2, "stock")
			if still, cache := teeAvailability(t, s); cache != "hit" || !still["rust/xxl"] {
				t.Errorf("after a count change: X-Cache %q, rust/xxl in stock %v; want a cached page showing it in stock", cache, still["rust/xxl"])
			}

			// The last two are sold: the status changes, the page is dropped.
			write(0, "product")
			deadline := time.Now().Add(5 * time.Second)
			for {
				after, _ := teeAvailability(t, s)
				if !after["rust/xxl"] {
					if after["navy/xs"] || !after["rust/xl"] {
						t.Errorf("after: navy/xs %v, rust/xl %v", after["navy/xs"], after["rust/xl"])
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the tee's page still shows rust/xxl in stock after it sold out")
				}
				time.Sleep(20 * time.Millisecond)
			}
			// Listings show no variation's status: a count change keeps them.
			if r := s.get("/shop/"); r.Header.Get("X-Cache") != "hit" {
				t.Errorf("/shop/ after the stock change: X-Cache %q, want hit", r.Header.Get("X-Cache"))
			}
		})
	}
}
