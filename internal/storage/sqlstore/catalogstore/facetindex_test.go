package catalogstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func ids(ps []*catalog.Product) string {
	var out []int64
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return fmt.Sprint(out)
}

// facetsString prints facets for comparison (maps print sorted).
func facetsString(f catalog.Facets) string {
	return fmt.Sprint(deref(f.PriceRange), f.Terms, f.Ratings, f.StockStatus, f.OnSale)
}

// TestFacetIndexFollowsWrites: after each kind of write — a product edit,
// a stock change, a sale starting and ending at its boundaries, a product
// unpublished, a delete, a category deleted — the kept facet index's
// counts and listing totals equal SQL's, counted facet by facet (which
// TestFacetCountsMatchBruteForce holds to the definition), over random
// queries; and the written product's own counts say what the write did.
func TestFacetIndexFollowsWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		db.SetClock(storetest.FrozenClock(t0).Now)
		rnd := rand.New(rand.NewPCG(7, 46))
		fc := genFilterCatalog(t, db, rnd, 60)
		index := db.Facets
		defer func() { db.Facets = index }()
		request := func() catalog.FacetRequest {
			want := catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true, OnSale: true}
			for _, a := range fc.attrs {
				want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: []string{"or", "and"}[rnd.IntN(2)]})
			}
			return want
		}
		// both counts q with the index and in SQL and fails when they differ.
		both := func(step string, q catalog.ProductQuery, want catalog.FacetRequest) catalog.Facets {
			t.Helper()
			db.Facets = index
			got, ok, err := db.CountAllFacets(ctx, q, want)
			if err != nil || !ok {
				t.Fatalf("%s: the index did not count %+v: %v", step, q, err)
			}
			q.PerPage, q.Page = 5, 1+rnd.IntN(2)
			q.OrderBy = []string{"menu_order", "price", "date", "popularity", "title", "rating"}[rnd.IntN(6)]
			q.Order = []string{"asc", "desc"}[rnd.IntN(2)]
			gotPage, gotTotal, err := db.QueryProducts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			db.Facets = nil
			exp, err := catalog.CountFacets(ctx, db, q, want)
			if err != nil {
				t.Fatal(err)
			}
			expPage, expTotal, err := db.QueryProducts(ctx, q)
			db.Facets = index
			if err != nil {
				t.Fatal(err)
			}
			if ids(gotPage) != ids(expPage) {
				t.Fatalf("%s: %+v: page %s by the index's matches, %s in SQL", step, q, ids(gotPage), ids(expPage))
			}
			if facetsString(got) != facetsString(exp) || gotTotal != expTotal {
				t.Fatalf("%s: %+v\nindex %s total %d\nSQL   %s total %d", step, q, facetsString(got), gotTotal, facetsString(exp), expTotal)
			}
			return got
		}
		agree := func(step string) {
			t.Helper()
			for range 25 {
				q := fc.randomQuery(rnd)
				if rnd.IntN(4) == 0 {
					q.OnSale = ptrTo(rnd.IntN(2) == 0)
				}
				both(step, q, request())
			}
		}
		// one counts the product p alone.
		one := func(step string, id int64) catalog.Facets {
			t.Helper()
			return both(step, catalog.ProductQuery{Include: []int64{id}}, request())
		}
		agree("generated")
		for _, p := range fc.products[:6] {
			p.Status, p.CatalogVisibility = catalog.StatusPublish, catalog.VisibilityVisible
		}

		// A product edit: its price, categories and terms change.
		p := fc.products[0]
		p.RegularPrice = i64(12345)
		p.Categories = []catalog.Term{{ID: fc.cats[1]}}
		p.Attributes = p.Attributes[:0]
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		if f := one("edit", p.ID); f.PriceRange.Min == nil || *f.PriceRange.Min != 12345 || len(f.Terms[fc.attrs[0].ID]) != 0 {
			t.Fatalf("after the edit: %s", facetsString(f))
		}
		agree("edit")

		// A stock change.
		p = fc.products[1]
		p.StockStatus = catalog.StockOnBackorder
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		if f := one("stock", p.ID); f.StockStatus[catalog.StockOnBackorder] != 1 || len(f.StockStatus) != 1 {
			t.Fatalf("after the stock change: %s", facetsString(f))
		}
		agree("stock")

		// A sale scheduled from t0+1h to t0+5h: counted from its first
		// second to before its last, once the schedule pass has run.
		p = fc.products[2]
		from, to := t0.Add(time.Hour), t0.Add(5*time.Hour)
		p.RegularPrice, p.SalePrice, p.SaleFrom, p.SaleTo = i64(1000), i64(500), &from, &to
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			at     time.Time
			onSale int
			price  int64
		}{{from.Add(-time.Second), 0, 1000}, {from, 1, 500}, {to.Add(-time.Second), 1, 500}, {to, 0, 1000}} {
			if _, err := db.ApplySchedules(ctx, c.at); err != nil {
				t.Fatal(err)
			}
			step := "sale at " + c.at.Format(time.TimeOnly)
			if f := one(step, p.ID); f.OnSale != c.onSale || f.PriceRange.Min == nil || *f.PriceRange.Min != c.price {
				t.Fatalf("%s: %s, want on sale %d at %d", step, facetsString(f), c.onSale, c.price)
			}
			agree(step)
		}

		// Unpublished, then deleted: gone from every count.
		p = fc.products[4]
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		if f := one("published", p.ID); len(f.StockStatus) != 1 {
			t.Fatalf("a published product is not counted: %s", facetsString(f))
		}
		if _, err := db.SetProductStatus(ctx, []int64{p.ID}, catalog.StatusDraft, nil); err != nil {
			t.Fatal(err)
		}
		if f := one("draft", p.ID); f.PriceRange.Min != nil || len(f.StockStatus) != 0 {
			t.Fatalf("a draft is counted: %s", facetsString(f))
		}
		agree("draft")
		p = fc.products[5]
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.DeleteProducts(ctx, []int64{p.ID}); err != nil {
			t.Fatal(err)
		}
		if f := one("delete", p.ID); len(f.StockStatus) != 0 {
			t.Fatalf("a deleted product is counted: %s", facetsString(f))
		}
		agree("delete")

		// A category deleted (a taxonomy change: the index is rebuilt).
		if err := db.DeleteCategory(ctx, fc.cats[0]); err != nil {
			t.Fatal(err)
		}
		f := both("category deleted", catalog.ProductQuery{CategoryIDs: fc.cats[:1], Descendants: true}, request())
		if len(f.StockStatus) != 0 {
			t.Fatalf("a deleted category still has products: %s", facetsString(f))
		}
		agree("category deleted")
	})
}

// TestFacetIndexConcurrentUse: counts read while products are written
// (the index refreshing under readers) end equal to SQL's.
func TestFacetIndexConcurrentUse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		rnd := rand.New(rand.NewPCG(9, 12))
		fc := genFilterCatalog(t, db, rnd, 30)
		want := catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true, OnSale: true}
		for _, a := range fc.attrs {
			want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: "or"})
		}
		done := make(chan error, 3)
		for range 3 {
			go func() {
				for range 20 {
					if _, _, err := db.CountAllFacets(ctx, catalog.ProductQuery{}, want); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
		}
		for i, p := range fc.products[:10] {
			p.RegularPrice = i64(int64(100 + i))
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		for range 3 {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		got, ok, err := db.CountAllFacets(ctx, catalog.ProductQuery{}, want)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		index := db.Facets
		db.Facets = nil
		exp, err := catalog.CountFacets(ctx, db, catalog.ProductQuery{}, want)
		db.Facets = index
		if err != nil {
			t.Fatal(err)
		}
		if facetsString(got) != facetsString(exp) {
			t.Fatalf("index %s\nSQL   %s", facetsString(got), facetsString(exp))
		}
	})
}
