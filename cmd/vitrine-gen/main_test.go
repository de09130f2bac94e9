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
	})
}

func containsError(s string) bool { return strings.Contains(s, "error:") }
