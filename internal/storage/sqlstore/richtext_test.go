package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/storetest"
)

// TestRichTextSanitizedOnWriteAndMigrate: every product writer stores
// descriptions sanitized, and the migration that starts sanitizing on write
// sanitizes the rows stored before it (products, variations, categories),
// on both engines.
func TestRichTextSanitizedOnWriteAndMigrate(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		const evil = `<p>Keep <strong>this</strong></p><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>`
		p := &catalog.Product{Type: catalog.TypeVariable, Name: "Lamp", ShortDescription: evil, Description: evil}
		v := &catalog.Product{SKU: "LAMP-1", Description: evil, Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "red"}}}
		if _, err := db.SaveProduct(ctx, p, []*catalog.Product{v}); err != nil {
			t.Fatal(err)
		}
		catID, _, err := db.EnsureCategoryPath(ctx, []string{"Lighting"})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetCategoryDetails(ctx, catID, evil, 0, 0); err != nil {
			t.Fatal(err)
		}
		raw := storetest.OpenRaw(t, dsn)
		type texts struct {
			Short string `db:"short_description"`
			Desc  string `db:"description"`
		}
		read := func(id int64) texts {
			var x texts
			if err := raw.Get(&x, raw.Rebind(`SELECT short_description, description FROM products WHERE id = ?`), id); err != nil {
				t.Fatal(err)
			}
			return x
		}
		readCat := func() string {
			var d string
			if err := raw.Get(&d, raw.Rebind(`SELECT description FROM categories WHERE id = ?`), catID); err != nil {
				t.Fatal(err)
			}
			return d
		}
		clean := func(where, s string) {
			t.Helper()
			for _, b := range []string{"<script", "alert(", "onerror", "javascript:"} {
				if strings.Contains(s, b) {
					t.Errorf("%s contains %q: %s", where, b, s)
				}
			}
			if !strings.Contains(s, "<p>Keep <strong>this</strong></p>") {
				t.Errorf("%s lost its formatting: %s", where, s)
			}
		}
		for _, id := range []int64{p.ID, v.ID} {
			x := read(id)
			if id == p.ID {
				clean("saved short description", x.Short)
			}
			clean("saved description", x.Desc)
		}
		clean("saved category description", readCat())

		// Rows stored before sanitizing on write: the migration's pass cleans them.
		for _, id := range []int64{p.ID, v.ID} {
			if _, err := raw.Exec(raw.Rebind(`UPDATE products SET short_description = ?, description = ? WHERE id = ?`), evil, evil, id); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := raw.Exec(raw.Rebind(`UPDATE categories SET description = ? WHERE id = ?`), evil, catID); err != nil {
			t.Fatal(err)
		}
		// Back to before version 8 (later migrations roll back with it), so
		// the next start applies it and runs its pass.
		if err := db.MigrateDownToForTest(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{p.ID, v.ID} {
			x := read(id)
			clean("migrated short description", x.Short)
			clean("migrated description", x.Desc)
		}
		clean("migrated category description", readCat())
		// A second start finds nothing to do and changes nothing.
		before := read(p.ID)
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if read(p.ID) != before {
			t.Error("a second Migrate changed the description")
		}
	})
}
