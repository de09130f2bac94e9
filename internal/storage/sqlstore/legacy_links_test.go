package sqlstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
	"vitrine/internal/oldlinks"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The old links' reads: by path a product before a variation recorded
// with its path, other kinds (customers) never; by old id only the kinds
// asked for; pages by id whatever their status; tags by id and slug.
func TestOldLinkReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		for _, l := range []sqlstore.Legacy{
			{Kind: "variation", OldID: 21, NewID: 8, OldPath: "/product/hoodie/", ImportedAt: 300},
			{Kind: "product", OldID: 20, NewID: 7, OldPath: "/product/hoodie/", ImportedAt: 100},
			{Kind: "page", OldID: 22, NewID: 3, OldPath: "/about/team/", ImportedAt: 100},
			{Kind: "customer", OldID: 23, NewID: 4, OldPath: "/author/ann/", ImportedAt: 100},
			{Kind: "category", OldID: 20, NewID: 9, OldPath: "/product-category/a/", ImportedAt: 100},
		} {
			if err := db.PutLegacy(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		want := oldlinks.Old{Kind: "product", NewID: 7, OldPath: "/product/hoodie/"}
		if o, ok, err := db.OldLinkByPath(ctx, "/product/hoodie/"); !ok || err != nil || o != want {
			t.Errorf("by path: %+v %v %v", o, ok, err)
		}
		for _, p := range []string{"/author/ann/", "/product/nope/", ""} {
			if o, ok, err := db.OldLinkByPath(ctx, p); ok || err != nil {
				t.Errorf("%q: %+v %v", p, o, err)
			}
		}
		if o, ok, err := db.OldLinkByID(ctx, []string{"product", "variation", "page"}, 21); !ok || err != nil || o.Kind != "variation" || o.NewID != 8 {
			t.Errorf("variation by id: %+v %v %v", o, ok, err)
		}
		if o, ok, err := db.OldLinkByID(ctx, []string{"category"}, 20); !ok || err != nil || o.NewID != 9 {
			t.Errorf("category by id: %+v %v %v", o, ok, err)
		}
		if o, ok, err := db.OldLinkByID(ctx, []string{"page"}, 21); ok || err != nil {
			t.Errorf("a variation's id as a page: %+v %v", o, err)
		}
		if _, ok, err := db.OldLinkByID(ctx, nil, 20); ok || err != nil {
			t.Errorf("no kinds: %v %v", ok, err)
		}

		svc := &contentpage.Service{Store: db, Now: db.Now}
		p, err := svc.Set(ctx, contentpage.Input{Slug: "team", Title: "Team", Body: "<p>Us.</p>", Status: contentpage.Draft})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := db.ContentPageByID(ctx, p.ID); err != nil || got.Slug != "team" || got.Status != contentpage.Draft {
			t.Errorf("page by id: %+v %v", got, err)
		}
		if _, err := db.ContentPageByID(ctx, p.ID+100); err != contentpage.ErrNotFound {
			t.Errorf("no page: %v", err)
		}

		id, err := db.EnsureTag(ctx, "Best sellers")
		if err != nil {
			t.Fatal(err)
		}
		if slug, ok, err := db.TagSlugByID(ctx, id); !ok || err != nil || slug != "best-sellers" {
			t.Errorf("tag by id: %q %v %v", slug, ok, err)
		}
		if _, ok, err := db.TagSlugByID(ctx, id+100); ok || err != nil {
			t.Errorf("no tag: %v %v", ok, err)
		}
		if ok, err := db.TagExists(ctx, "best-sellers"); !ok || err != nil {
			t.Errorf("tag exists: %v %v", ok, err)
		}
		if ok, err := db.TagExists(ctx, "nope"); ok || err != nil {
			t.Errorf("no tag by slug: %v %v", ok, err)
		}

		// A product and a variation as a link needs them.
		if _, err := seed.Demo(ctx, db, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		tee, err := db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := db.Variations(ctx, tee.ID)
		if err != nil || len(vars) == 0 {
			t.Fatalf("variations: %d %v", len(vars), err)
		}
		if p, err := db.OldLinkProduct(ctx, tee.ID); err != nil || p.ID != tee.ID || p.ParentID != 0 || p.Slug != "classic-tee" ||
			!p.Published() || len(p.Attributes) != 0 {
			t.Errorf("the tee: %+v %v", p, err)
		}
		v := vars[0]
		vp, err := db.OldLinkProduct(ctx, v.ID)
		if err != nil || vp.ParentID != tee.ID || vp.Status != v.Status || vp.Active != v.Active || len(vp.Attributes) == 0 ||
			!reflect.DeepEqual(vp.Attributes, v.Variation) {
			t.Errorf("a variation: %+v %v, want the attributes %+v", vp, err, v.Variation)
		}
		if _, err := db.OldLinkProduct(ctx, 987654); err != catalog.ErrNotFound {
			t.Errorf("no product: %v", err)
		}
	})
}
