package main

import (
	"context"
	"os"
	"testing"

	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// A small catalogue: deterministic, searchable, and measurable.
func TestGenerateAndMeasure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		if err := Generate(ctx, db, 60, 7, 25, nil); err != nil {
			t.Fatal(err)
		}
		n, err := db.CountProducts(ctx)
		if err != nil || n < 60 {
			t.Fatalf("CountProducts = %d, %v", n, err)
		}
		ps, total, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: "cotton", Visibility: "search", PerPage: 5})
		if err != nil || total == 0 || len(ps) == 0 {
			t.Fatalf("search cotton: %d %v", total, err)
		}
		f, err := os.CreateTemp(t.TempDir(), "measure")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := Measure(ctx, db, 1, f); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(f.Name())
		if len(b) == 0 || containsError(string(b)) {
			t.Errorf("measure output:\n%s", b)
		}
		// The page loaders, and the category tree after a listing change
		// (which checks the largest category's count after each change).
		g, err := os.CreateTemp(t.TempDir(), "pages")
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		if err := MeasurePages(ctx, db, 1, g); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(g.Name())
		if containsError(string(b)) || !strings.Contains(string(b), "category tree after a listing change") {
			t.Errorf("measure -pages output:\n%s", b)
		}
	})
}

func containsError(s string) bool { return strings.Contains(s, "error:") }
