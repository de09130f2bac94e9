package pages_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/review"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func loader(t *testing.T, db *sqlstore.DB, threshold int) *pages.Loader {
	t.Helper()
	usd, _ := money.Lookup("USD")
	return &pages.Loader{Store: db, Currency: usd, SiteName: "Vitrine", BaseURL: "https://shop.example",
		Now: func() time.Time { return seedTime }, VariationThreshold: threshold,
		Reviews: &review.Service{Store: db}, ReviewSettings: review.DefaultSettings()}
}

func productPage(t *testing.T, l *pages.Loader, slug string) (pages.ProductPage, []string, string) {
	t.Helper()
	res, err := l.Product(context.Background(), "/product/"+slug+"/", slug)
	if err != nil {
		t.Fatalf("%s: %v", slug, err)
	}
	page := res.Data.(pages.ProductPage)
	b, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}
	return page, res.Tags, string(b)
}

// Above the variation threshold the page carries each variation's stock
// status (never a count), and tags for the stock it shows.
func TestProductVariationAvailability(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		db.SetClock(func() time.Time { return seedTime })
		if _, err := seed.Demo(ctx, db, seedTime); err != nil {
			t.Fatal(err)
		}
		page, tags, raw := productPage(t, loader(t, db, 30), "classic-tee")
		if len(page.Variations) != 0 || page.VariationsTotal != 36 {
			t.Fatalf("classic-tee: %d embedded of %d, want 0 of 36", len(page.Variations), page.VariationsTotal)
		}
		if len(page.Availability) != 36 {
			t.Fatalf("availability: %d entries, want 36", len(page.Availability))
		}
		vars, err := db.Variations(ctx, page.Product.ID)
		if err != nil {
			t.Fatal(err)
		}
		out := 0
		for i, a := range page.Availability {
			v := vars[i] // same menu order
			if a.ID != v.ID || a.Attributes["pa_color"] != v.Variation[0].Value || a.Attributes["pa_size"] != v.Variation[1].Value {
				t.Errorf("entry %d: %+v, want variation %d %v", i, a, v.ID, v.Variation)
			}
			if !a.Purchasable {
				t.Errorf("%v: not purchasable", a.Attributes)
			}
			if !a.InStock {
				out++
				if a.Attributes["pa_color"] != "navy" || a.Attributes["pa_size"] != "xs" {
					t.Errorf("%v out of stock, only navy/xs is", a.Attributes)
				}
			}
			if !slices.Contains(tags, "product:"+strconv.FormatInt(v.ID, 10)) {
				t.Errorf("tags %v lack the tag of managed variation %d", tags, v.ID)
			}
		}
		if out != 1 {
			t.Errorf("%d variations out of stock, want 1 (navy/xs)", out)
		}
		if !slices.Contains(tags, "product:"+strconv.FormatInt(page.Product.ID, 10)) {
			t.Errorf("tags %v lack the product tag", tags)
		}
		// Status only: no count of any variation in the page (rust/xxl has 3 left).
		for _, bad := range []string{`"variation_stock_left":3`, `"low_stock_remaining":3`, `"stock_quantity"`} {
			if strings.Contains(raw, bad) {
				t.Errorf("the page data carries %s", bad)
			}
		}
		if !strings.Contains(raw, `"variation_availability":[{"id":`) {
			t.Errorf("variation_availability missing from the JSON")
		}

		// At or under the threshold the variation objects are embedded and
		// the list is empty (the objects carry the same flags).
		page, _, raw = productPage(t, loader(t, db, 36), "classic-tee")
		if len(page.Variations) != 36 || len(page.Availability) != 0 || !strings.Contains(raw, `"variation_availability":[]`) {
			t.Errorf("threshold 36: %d embedded, %d availability entries", len(page.Variations), len(page.Availability))
		}
		// A simple product has neither.
		page, tags, _ = productPage(t, loader(t, db, 30), "cotton-tank-top")
		if len(page.Availability) != 0 || len(page.Variations) != 0 || len(tags) != 1+len(page.Related)+len(page.Upsells) {
			t.Errorf("simple product: %d availability entries, tags %v", len(page.Availability), tags)
		}
	})
}
