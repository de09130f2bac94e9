package catalogstore_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/storetest"
)

func i64(v int64) *int64 { return &v }

// listedTotals returns the unfiltered listing's total (the kept count) and
// the same listing counted row by row (an Exclude of no product makes
// QueryProducts count), and checks both against the table.
func listedTotals(t *testing.T, db *sqlstore.DB) int {
	t.Helper()
	ctx := context.Background()
	_, kept, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, counted, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 1, Exclude: []int64{-1}})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.Write.GetContext(ctx, &n, `SELECT COUNT(*) FROM products WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility IN ('visible', 'catalog')`); err != nil {
		t.Fatal(err)
	}
	if kept != counted || int64(kept) != n {
		t.Fatalf("kept listing count %d, counted %d, rows %d", kept, counted, n)
	}
	return kept
}

// TestListedCountKept: the shop's total is a count kept by triggers; it
// follows every way a product enters or leaves the listing.
func TestListedCountKept(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		want := func(n int, after string) {
			t.Helper()
			if got := listedTotals(t, db); got != n {
				t.Fatalf("after %s: listing total %d, want %d", after, got, n)
			}
		}
		want(0, "nothing")
		save := func(p *catalog.Product, vars []*catalog.Product) *catalog.Product {
			t.Helper()
			if _, err := db.SaveProduct(ctx, p, vars); err != nil {
				t.Fatal(err)
			}
			return p
		}
		a := save(&catalog.Product{Type: catalog.TypeSimple, Name: "A", RegularPrice: i64(100), Purchasable: true}, nil)
		want(1, "creating a published product")
		v := save(&catalog.Product{Type: catalog.TypeVariable, Name: "V"}, []*catalog.Product{
			{SKU: "V-1", RegularPrice: i64(100), Variation: []catalog.VariationAttr{{Name: "size", Value: "s"}}, Purchasable: true, Active: true, Visible: true},
			{SKU: "V-2", RegularPrice: i64(100), Variation: []catalog.VariationAttr{{Name: "size", Value: "l"}}, Purchasable: true, Active: true, Visible: true},
		})
		want(2, "a variable product (its variations are not listed)")
		save(&catalog.Product{Type: catalog.TypeSimple, Name: "Draft", Status: catalog.StatusDraft}, nil)
		save(&catalog.Product{Type: catalog.TypeSimple, Name: "Hidden", CatalogVisibility: catalog.VisibilityHidden}, nil)
		save(&catalog.Product{Type: catalog.TypeSimple, Name: "Search only", CatalogVisibility: catalog.VisibilitySearch}, nil)
		c := save(&catalog.Product{Type: catalog.TypeSimple, Name: "Catalog only", CatalogVisibility: catalog.VisibilityCatalog}, nil)
		want(3, "a draft, a hidden, a search-only and a catalogue-only product")

		a.CatalogVisibility = catalog.VisibilityHidden
		save(a, nil)
		want(2, "hiding a product")
		a.Name = "A, renamed"
		save(a, nil)
		want(2, "saving a hidden product")
		a.CatalogVisibility = catalog.VisibilityVisible
		save(a, nil)
		want(3, "showing it again")
		if n, err := db.SetProductStatus(ctx, []int64{a.ID, c.ID}, catalog.StatusTrash, nil); err != nil || n != 2 {
			t.Fatalf("trash: %d %v", n, err)
		}
		want(1, "trashing two")
		if n, err := db.SetProductStatus(ctx, []int64{a.ID}, catalog.StatusPublish, nil); err != nil || n != 1 {
			t.Fatalf("restore: %d %v", n, err)
		}
		want(2, "restoring one")
		due := time.Now().Add(-time.Minute)
		if _, err := db.SetProductStatus(ctx, []int64{a.ID}, catalog.StatusFuture, &due); err != nil {
			t.Fatal(err)
		}
		want(1, "scheduling one")
		if n, err := db.PublishDue(ctx, time.Now()); err != nil || n != 1 {
			t.Fatalf("PublishDue: %d %v", n, err)
		}
		want(2, "publishing the scheduled one")
		if n, err := db.DeleteProducts(ctx, []int64{v.ID}); err != nil || n != 1 {
			t.Fatalf("delete: %d %v", n, err)
		}
		want(1, "deleting the variable product and its variations")
		if n, err := db.DeleteProducts(ctx, []int64{c.ID}); err != nil || n != 1 {
			t.Fatalf("delete trashed: %d %v", n, err)
		}
		want(1, "deleting a trashed product")
	})
}

// TestListingOrdersAndCategories: every listing order, with and without a
// category, in both category plans (driven by a small category; a large
// one probed while the ordered index is read), gives the products in the
// order the sort keys say, page after page, with the right totals.
func TestListingOrdersAndCategories(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		parent, _, err := db.EnsureCategoryPath(ctx, []string{"Parent"})
		if err != nil {
			t.Fatal(err)
		}
		child, _, err := db.EnsureCategoryPath(ctx, []string{"Parent", "Child"})
		if err != nil {
			t.Fatal(err)
		}
		other, _, err := db.EnsureCategoryPath(ctx, []string{"Other"})
		if err != nil {
			t.Fatal(err)
		}
		base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		var all []*catalog.Product
		for i := range 40 {
			p := &catalog.Product{Type: catalog.TypeSimple, Name: fmt.Sprintf("item %c%02d", 'a'+rune(i*7%5), i*13%40),
				RegularPrice: i64(int64(100 + i*37%11*10)), Purchasable: true,
				MenuOrder: i % 3, TotalSales: int64(i * 5 % 4), AverageRating: float64(i%5) / 2, ReviewCount: i % 4,
				CreatedAt: base.Add(time.Duration(i%9) * time.Hour)}
			switch {
			case i%4 == 0:
				p.Categories = []catalog.Term{{ID: parent}}
			case i%4 == 1:
				p.Categories = []catalog.Term{{ID: child}}
			case i%4 == 2:
				p.Categories = []catalog.Term{{ID: other}}
			default:
				p.Categories = []catalog.Term{{ID: parent}, {ID: child}} // counted once
			}
			if i%10 == 9 {
				p.CatalogVisibility = catalog.VisibilityHidden
			}
			if i%13 == 12 {
				p.Status = catalog.StatusDraft
			}
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
			all = append(all, p)
		}
		in := func(p *catalog.Product, cats ...int64) bool {
			for _, c := range p.Categories {
				if slices.Contains(cats, c.ID) {
					return true
				}
			}
			return false
		}
		type order struct {
			by, dir string
			cmp     func(a, b *catalog.Product) int
		}
		byID := func(a, b *catalog.Product) int { return cmp.Compare(a.ID, b.ID) }
		orders := []order{
			{"menu_order", "asc", func(a, b *catalog.Product) int {
				return cmp.Or(cmp.Compare(a.MenuOrder, b.MenuOrder), strings.Compare(a.Name, b.Name), byID(a, b))
			}},
			{"menu_order", "desc", func(a, b *catalog.Product) int {
				return -cmp.Or(cmp.Compare(a.MenuOrder, b.MenuOrder), strings.Compare(a.Name, b.Name), byID(a, b))
			}},
			{"date", "desc", func(a, b *catalog.Product) int {
				return -cmp.Or(a.CreatedAt.Compare(b.CreatedAt), byID(a, b))
			}},
			{"date", "asc", func(a, b *catalog.Product) int { return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), byID(a, b)) }},
			{"popularity", "desc", func(a, b *catalog.Product) int {
				return -cmp.Or(cmp.Compare(a.TotalSales, b.TotalSales), byID(a, b))
			}},
			{"rating", "desc", func(a, b *catalog.Product) int {
				return -cmp.Or(cmp.Compare(a.AverageRating, b.AverageRating), cmp.Compare(a.ReviewCount, b.ReviewCount), byID(a, b))
			}},
			{"price", "asc", func(a, b *catalog.Product) int {
				return cmp.Or(cmp.Compare(*a.RegularPrice, *b.RegularPrice), byID(a, b))
			}},
		}
		filters := []struct {
			name string
			cats []int64 // nil: the whole shop
			want func(*catalog.Product) bool
		}{
			{"shop", nil, func(*catalog.Product) bool { return true }},
			{"parent with descendants", []int64{parent}, func(p *catalog.Product) bool { return in(p, parent, child) }},
			{"other", []int64{other}, func(p *catalog.Product) bool { return in(p, other) }},
		}
		for _, small := range []int{2000, 1} {
			restore := catalogstore.SetSmallCategoryRowsForTest(small)
			for _, f := range filters {
				var want []*catalog.Product
				for _, p := range all {
					if p.Status != catalog.StatusDraft && p.CatalogVisibility != catalog.VisibilityHidden && f.want(p) {
						want = append(want, p)
					}
				}
				for _, o := range orders {
					slices.SortStableFunc(want, o.cmp)
					var got []int64
					for page := 1; page <= 5; page++ {
						ps, total, err := db.QueryProducts(ctx, catalog.ProductQuery{CategoryIDs: f.cats, Descendants: true, OrderBy: o.by, Order: o.dir, Page: page, PerPage: 7})
						if err != nil {
							t.Fatal(err)
						}
						if total != len(want) {
							t.Fatalf("small=%d %s by %s %s: total %d, want %d", small, f.name, o.by, o.dir, total, len(want))
						}
						for _, p := range ps {
							got = append(got, p.ID)
						}
						// The related products' query: no count, an exclusion.
						if page == 1 {
							ps, total, err := db.QueryProducts(ctx, catalog.ProductQuery{CategoryIDs: f.cats, Descendants: true, OrderBy: o.by, Order: o.dir, PerPage: 4,
								Exclude: []int64{want[0].ID}, NoCount: true})
							if err != nil || total != -1 || len(ps) != 4 || ps[0].ID != want[1].ID || ps[3].ID != want[4].ID {
								t.Fatalf("small=%d %s by %s %s, excluding the first: total %d, %d products, err %v", small, f.name, o.by, o.dir, total, len(ps), err)
							}
						}
					}
					wantIDs := make([]int64, len(want))
					for i, p := range want {
						wantIDs[i] = p.ID
					}
					if !slices.Equal(got, wantIDs) {
						t.Errorf("small=%d %s by %s %s:\n got %v\nwant %v", small, f.name, o.by, o.dir, got, wantIDs)
					}
				}
			}
			restore()
		}
	})
}

// TestSitemapPages: the product sitemap's pages list the published,
// not hidden products in id order, each once, and the index's lastmods are
// each page's newest update.
func TestSitemapPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		db.SetClock(func() time.Time { return clock })
		var want []string
		for i := range 7 {
			clock = clock.Add(time.Duration(24-i*3) * time.Hour) // updates not in id order
			p := &catalog.Product{Type: catalog.TypeSimple, Name: fmt.Sprintf("Sitemap %d", i), Slug: fmt.Sprintf("sitemap-%d", i)}
			switch i {
			case 2:
				p.Status = catalog.StatusDraft
			case 4:
				p.CatalogVisibility = catalog.VisibilityHidden
			case 5:
				p.CatalogVisibility = catalog.VisibilitySearch // reachable from search: listed
			default:
			}
			if _, err := db.SaveProduct(ctx, p, []*catalog.Product(nil)); err != nil {
				t.Fatal(err)
			}
			if i != 2 && i != 4 {
				want = append(want, p.Slug)
			}
		}
		var got []string
		var lastmods []time.Time
		for n := 1; n <= 4; n++ {
			var newest time.Time
			err := db.SitemapProducts(ctx, n, 2, func(e sqlstore.SitemapEntry) error {
				got = append(got, e.Slug)
				if e.UpdatedAt.After(newest) {
					newest = e.UpdatedAt
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !newest.IsZero() {
				lastmods = append(lastmods, newest)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("sitemap pages list %v, want %v", got, want)
		}
		pages, err := db.SitemapPages(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) != 3 || !slices.EqualFunc(pages, lastmods, time.Time.Equal) {
			t.Fatalf("SitemapPages = %v, want %v", pages, lastmods)
		}
		if err := db.SitemapProducts(ctx, 0, 2, func(sqlstore.SitemapEntry) error { return nil }); err == nil {
			t.Error("page 0 accepted")
		}
		if _, err := db.SitemapPages(ctx, 0); err == nil {
			t.Error("page size 0 accepted")
		}
	})
}
