package sqlstore_test

import (
	"context"
	"testing"

	"vitrine/internal/storage/storetest"
)

// Migration 00029 fills the kept counts from the rows already there (a
// shop upgrading with products in place) and its Down removes them; the
// tree reads the same counts as the definition either way (the definition
// is tested against random writes in catalog's TestCategoryCountsKeptExact).
func TestCategoryCountsMigration(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		raw := storetest.OpenRaw(t, dsn)
		_, _, mug := fixture(t, db)
		counts := func() map[string]int {
			cats, err := db.Categories(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]int{}
			for _, c := range cats {
				out[c.Slug] = c.Count
			}
			return out
		}
		if got := counts(); got["clothing"] != 2 || got["tees"] != 1 {
			t.Fatalf("counts after the fixture = %v, want clothing 2, tees 1", got)
		}
		if err := db.MigrateDownToForTest(ctx, 28); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := raw.Get(&n, `SELECT COUNT(*) FROM categories`); err != nil || n != 2 {
			t.Fatalf("categories after Down: %d, %v", n, err)
		}
		for _, table := range []string{"category_counts", "category_closure"} {
			if _, err := raw.Exec(`SELECT 1 FROM ` + table); err == nil {
				t.Errorf("%s still there after Down", table)
			}
		}
		// Written while no trigger keeps the counts: the mug joins Tees
		// (still once in Clothing), a third category under Tees holds it.
		if _, err := raw.Exec(raw.Rebind(`INSERT INTO categories (parent_id, name, slug) SELECT id, 'V-neck', 'v-neck' FROM categories WHERE slug = 'tees'`)); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(raw.Rebind(`INSERT INTO product_categories (product_id, category_id) SELECT ?, id FROM categories WHERE slug IN ('tees', 'v-neck')`), mug.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if got := counts(); got["clothing"] != 2 || got["tees"] != 2 || got["v-neck"] != 1 {
			t.Errorf("counts after migrating = %v, want clothing 2, tees 2, v-neck 1", got)
		}
		// And kept from there: the mug goes to the trash.
		if _, err := raw.Exec(raw.Rebind(`UPDATE products SET status = 'trash' WHERE id = ?`), mug.ID); err != nil {
			t.Fatal(err)
		}
		if got := counts(); got["clothing"] != 1 || got["tees"] != 1 || got["v-neck"] != 0 {
			t.Errorf("counts after trashing the mug = %v, want clothing 1, tees 1, v-neck 0", got)
		}
	})
}
