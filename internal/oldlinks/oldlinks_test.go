package oldlinks_test

import (
	"context"
	"testing"
	"time"

	"vitrine/internal/oldlinks"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Resolve on the demo catalogue, both engines, without HTTP: the answers
// the storefront cannot show on its own (an old link to a path the object
// still answers on is no redirect to itself; a renamed category's tree),
// and a store error is returned, never taken for "no link".
func TestResolve(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		if _, err := seed.Demo(ctx, db, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		tee, err := db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		cats, err := db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var hoodies int64
		for _, c := range cats {
			if c.Slug == "hoodies" {
				hoodies = c.ID
			}
		}
		for _, l := range []sqlstore.Legacy{
			{Kind: "product", OldID: 1, NewID: tee.ID, OldPath: "/product/classic-tee/"},
			{Kind: "product", OldID: 2, NewID: tee.ID, OldPath: "/shop/clothing/tee/"},
			{Kind: "category", OldID: 3, NewID: hoodies, OldPath: "/product-category/hoodies/"},
		} {
			if err := db.PutLegacy(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		svc := &oldlinks.Service{Store: db, Catalog: db}
		for _, c := range []struct {
			path, query string
			want        oldlinks.Result
		}{
			{"/product/classic-tee/", "", oldlinks.Result{}},            // its own page: no loop
			{"/product/classic-tee", "utm_source=a", oldlinks.Result{}}, // likewise without the slash
			{"/shop/clothing/tee/", "", oldlinks.Result{Answer: oldlinks.Moved, Target: "/product/classic-tee/"}},
			{"/shop/clothing/tee", "a=1&b=2", oldlinks.Result{Answer: oldlinks.Moved, Target: "/product/classic-tee/?a=1&b=2"}},
			{"/product-category/hoodies/", "", oldlinks.Result{Answer: oldlinks.Moved, Target: "/product-category/clothing/hoodies/"}},
			{"/", "p=2", oldlinks.Result{Answer: oldlinks.Moved, Target: "/product/classic-tee/"}},
			{"/", "product_cat=hoodies", oldlinks.Result{Answer: oldlinks.Moved, Target: "/product-category/clothing/hoodies/"}},
			{"/", "p=3", oldlinks.Result{}}, // a term's id is not a post's
			{"/", "utm_source=a", oldlinks.Result{}},
			{"/", "post_type=product&%zz&a=1", oldlinks.Result{Answer: oldlinks.Moved, Target: "/shop/?%zz&a=1"}}, // a pair that does not parse is carried as sent
			{"/nothing/here/", "", oldlinks.Result{}},
		} {
			got, err := svc.Resolve(ctx, c.path, c.query)
			if err != nil || got != c.want {
				t.Errorf("Resolve(%q, %q) = %+v %v, want %+v", c.path, c.query, got, err, c.want)
			}
		}

		db.Close()
		if got, err := svc.Resolve(ctx, "/shop/clothing/tee/", ""); err == nil || got.Answer != oldlinks.None {
			t.Errorf("a closed store: %+v %v", got, err)
		}
	})
}
