package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Product pages read their product, variations and linked products through
// the product cache (pageStore), yet a page the page cache does not hold
// shows every change committed before it was asked for, as a direct read
// did: a rename, a new slug, a variation's price, an unpublished product.
// The server is not started (no poller): only the page's own catch-up with
// the change log can make the changes visible.
func TestProductPagesSeeChangesAtOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", CacheMaxAge: time.Hour})
		s := &shop{t: t, db: db, srv: srv}
		page := func(path string, status int) string {
			t.Helper()
			r := s.get(path)
			b := body(t, r)
			if r.StatusCode != status {
				t.Fatalf("%s: %d, want %d", path, r.StatusCode, status)
			}
			return b
		}
		save := func(p *catalog.Product, vs []*catalog.Product) {
			t.Helper()
			if _, err := db.SaveProduct(ctx, p, vs); err != nil {
				t.Fatal(err)
			}
		}
		if b := page("/product/classic-tee/", http.StatusOK); !strings.Contains(b, "Classic Tee") {
			t.Fatal("the tee's page lacks its name")
		}
		page("/product/classic-tee/", http.StatusOK) // from the product cache now

		tee, err := db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := db.Variations(ctx, tee.ID)
		if err != nil || len(vars) == 0 {
			t.Fatalf("variations: %d %v", len(vars), err)
		}
		tee.Name = "Classic Tee Renewed"
		price := int64(123456)
		vars[0].RegularPrice, vars[0].SalePrice = &price, nil
		save(tee, vars)
		b := page("/product/classic-tee/", http.StatusOK)
		if !strings.Contains(b, "Classic Tee Renewed") {
			t.Error("the page after a rename shows the old name")
		}
		if !strings.Contains(b, "1,234.56") { // the price range's top
			t.Error("the page after a variation's price change lacks the new price")
		}

		tee.Slug = "classic-tee-2"
		save(tee, vars)
		if b := page("/product/classic-tee-2/", http.StatusOK); !strings.Contains(b, "Classic Tee Renewed") {
			t.Error("the new slug's page lacks the product")
		}
		if r := s.get("/product/classic-tee/"); r.StatusCode == http.StatusOK {
			t.Errorf("the old slug still answers 200 with the product")
		}

		tee.Status = catalog.StatusDraft
		save(tee, vars)
		page("/product/classic-tee-2/", http.StatusNotFound)
	})
}
