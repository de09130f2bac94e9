package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"vitrine/internal/catalog"
)

// Migrate indexes existing products when the index is empty (as after the
// search migration on a store that already has products).
func TestMigrateBuildsEmptySearchIndex(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "v.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	p := &catalog.Product{Type: catalog.TypeSimple, Name: "Crème Lamp"}
	if _, err := db.SaveProduct(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.ExecContext(ctx, `DELETE FROM products_fts`); err != nil {
		t.Fatal(err)
	}
	find := func() int {
		_, n, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: "creme", Visibility: "search"})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if find() != 0 {
		t.Fatal("index not emptied")
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if find() != 1 {
		t.Error("Migrate did not rebuild the empty index")
	}
}
