package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestLegacyIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		if _, ok, err := db.LegacyByOldID(ctx, "product", 16); ok || err != nil {
			t.Fatalf("nothing imported yet: %v %v", ok, err)
		}
		p := sqlstore.Legacy{Kind: "product", OldID: 16, NewID: 3, OldPath: "/product/hoodie/", Digest: "a", ImportedAt: 100}
		if err := db.PutLegacy(ctx, p); err != nil {
			t.Fatal(err)
		}
		// The same old id in another kind is another object.
		if err := db.PutLegacy(ctx, sqlstore.Legacy{Kind: "category", OldID: 16, NewID: 9, OldPath: "/product-category/clothing/", ImportedAt: 100}); err != nil {
			t.Fatal(err)
		}
		if got, ok, err := db.LegacyByOldID(ctx, "product", 16); !ok || err != nil || got != p {
			t.Fatalf("by old id: %+v %v %v", got, ok, err)
		}
		// A re-run updates in place.
		p.NewID, p.Digest, p.OldPath, p.ImportedAt = 4, "b", "/product/hoodie-2/", 200
		if err := db.PutLegacy(ctx, p); err != nil {
			t.Fatal(err)
		}
		if got, ok, _ := db.LegacyByPath(ctx, "/product/hoodie-2/"); !ok || got != p {
			t.Fatalf("by path: %+v %v", got, ok)
		}
		if _, ok, _ := db.LegacyByPath(ctx, "/product/hoodie/"); ok {
			t.Fatal("the old path was replaced, yet it still resolves")
		}
		if _, ok, _ := db.LegacyByPath(ctx, ""); ok {
			t.Fatal("the empty path resolves")
		}
		m, err := db.LegacyIDs(ctx, "product")
		if err != nil || len(m) != 1 || m[16] != 4 {
			t.Fatalf("map: %v %v", m, err)
		}
		if err := db.PutLegacy(ctx, sqlstore.Legacy{Kind: "planet", OldID: 1, NewID: 1}); err == nil {
			t.Fatal("an unknown kind was accepted")
		}

		// Progress: recorded, read, and cleared when the resource completes.
		at := time.Unix(1000, 0)
		if n, err := db.ImportPagesDone(ctx, "https://old.example", "orders"); n != 0 || err != nil {
			t.Fatalf("fresh: %d %v", n, err)
		}
		for _, pages := range []int{1, 2} {
			if err := db.SetImportPagesDone(ctx, "https://old.example", "orders", pages, at); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := db.ImportPagesDone(ctx, "https://old.example", "orders"); n != 2 {
			t.Fatalf("pages done: %d", n)
		}
		if n, _ := db.ImportPagesDone(ctx, "https://other.example", "orders"); n != 0 {
			t.Fatalf("another source's progress: %d", n)
		}
		if err := db.SetImportPagesDone(ctx, "https://old.example", "orders", 0, at); err != nil {
			t.Fatal(err)
		}
		if n, _ := db.ImportPagesDone(ctx, "https://old.example", "orders"); n != 0 {
			t.Fatalf("after completion: %d", n)
		}
	})
}
