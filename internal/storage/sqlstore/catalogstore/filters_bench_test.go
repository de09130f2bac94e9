package catalogstore_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// benchFilterCatalog fills db with n listed products in bulk SQL: half in
// one category, each with two of eight terms of three attributes, prices,
// ratings and stock spread. It returns the category and the attributes'
// first term ids.
func benchFilterCatalog(b *testing.B, db *sqlstore.DB, n int) (int64, []catalog.Attribute, [][]int64) {
	ctx := context.Background()
	var attrs []catalog.Attribute
	var terms [][]int64
	for _, name := range []string{"Color", "Size", "Material"} {
		a, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: name})
		if err != nil {
			b.Fatal(err)
		}
		var ids []int64
		for i := range 8 {
			t, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: a.ID, Name: fmt.Sprintf("%s %d", name, i)})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, t.ID)
		}
		attrs, terms = append(attrs, a), append(terms, ids)
	}
	big, _, err := db.EnsureCategoryPath(ctx, []string{"Big"})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	exec := func(q string, args ...any) {
		if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(q), args...); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO products (type, name, slug, status, catalog_visibility, regular_price, sort_price, stock_status, average_rating, review_count, created_at, updated_at)
		WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
		SELECT 'simple', 'P' || i, 'p-' || i, 'publish', 'visible', 100 + (i * 37) % 9000, 100 + (i * 37) % 9000,
			CASE i % 10 WHEN 0 THEN 'outofstock' WHEN 1 THEN 'onbackorder' ELSE 'instock' END, (i % 11) / 2.0, i % 7, ?, ? FROM seq`, n, now, now)
	exec(`INSERT INTO product_categories (product_id, category_id) SELECT id, ? FROM products WHERE id % 2 = 0`, big)
	for k, a := range attrs {
		exec(`INSERT INTO product_attributes (product_id, position, attribute_id, name) SELECT id, ?, ?, ? FROM products`, k, a.ID, a.Name)
		t0 := terms[k][0]
		// Two distinct terms each: (id + k) % 8 and the next one along.
		exec(`INSERT INTO product_attribute_values (product_id, position, value_pos, term_id, value)
			SELECT id, ?, 0, ? + (id + ?) % 8, '' FROM products`, k, t0, k)
		exec(`INSERT INTO product_attribute_values (product_id, position, value_pos, term_id, value)
			SELECT id, ?, 1, ? + (id / 8 + ? + 1) % 8, '' FROM products WHERE (id / 8 + 1) % 8 <> id % 8`, k, t0, k)
	}
	exec(`ANALYZE`)
	return big, attrs, terms
}

// BenchmarkFacets100k times what a category of half the catalogue costs
// uncached: collection-data with three attribute counts, the price range
// and the rating counts, without and with filters chosen, and the
// filtered listing's page (its products and total) beside its counts,
// asked apart and in one call (QueryFaceted, as the listing pages ask).
// VITRINE_BENCH_PRODUCTS sets the catalogue's size (100,000).
func BenchmarkFacets100k(b *testing.B) {
	n := 100000
	if v, err := strconv.Atoi(os.Getenv("VITRINE_BENCH_PRODUCTS")); err == nil && v > 0 {
		n = v
	}
	for _, engine := range storetest.Engines(b) {
		db := storetest.Open(b, engine)
		start := time.Now()
		big, attrs, terms := benchFilterCatalog(b, db, n)
		b.Logf("%s: %d products generated in %s", engine, n, time.Since(start).Round(time.Second))
		ctx := context.Background()
		want := catalog.FacetRequest{PriceRange: true, Ratings: true}
		for _, a := range attrs {
			want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: "or"})
		}
		cat := catalog.ProductQuery{CategoryIDs: []int64{big}, Descendants: true}
		filtered := cat
		filtered.Attributes = []catalog.AttributeFilter{{AttributeID: attrs[0].ID, TermIDs: terms[0][:2], Operator: catalog.AttrIn},
			{AttributeID: attrs[1].ID, TermIDs: terms[1][3:4], Operator: catalog.AttrIn}}
		filtered.MinPrice, filtered.MaxPrice = i64(1000), i64(6000)
		filtered.Ratings = []int{4, 5}
		// The kept index is built on first use (and after a taxonomy
		// change): timed once here, apart from the uncached requests.
		start = time.Now()
		if _, err := catalog.CountFacets(ctx, db, cat, want); err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: facet index built and first count in %s", engine, time.Since(start).Round(time.Millisecond))
		for _, c := range []struct {
			name string
			run  func() error
		}{
			{"collection-data category", func() error { _, err := catalog.CountFacets(ctx, db, cat, want); return err }},
			{"collection-data category filtered", func() error { _, err := catalog.CountFacets(ctx, db, filtered, want); return err }},
			{"listing page filtered", func() error {
				q := filtered
				q.Page, q.PerPage, q.OrderBy, q.Order = 1, 24, "menu_order", "asc"
				if _, _, err := db.QueryProducts(ctx, q); err != nil {
					return err
				}
				w := want
				w.StockStatus, w.OnSale = true, true
				_, err := catalog.CountFacets(ctx, db, filtered, w)
				return err
			}},
			{"listing page filtered, one call", func() error {
				// As the listing pages ask: QueryProductsFaceted.
				q := filtered
				q.Page, q.PerPage, q.OrderBy, q.Order = 1, 24, "menu_order", "asc"
				w := want
				w.StockStatus, w.OnSale = true, true
				_, _, _, _, err := catalog.QueryFaceted(ctx, db, q, w, 250000)
				return err
			}},
		} {
			b.Run(engine+"/"+c.name, func(b *testing.B) {
				var times []time.Duration
				cpu0 := processCPU()
				for b.Loop() {
					t := time.Now()
					if err := c.run(); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(t))
				}
				// This process's CPU time per request (user and system):
				// what the request costs here however loaded the machine
				// is (PostgreSQL's own work is in its server, not here).
				b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(len(times)), "cpu-ms")
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
