package currency_test

import (
	"context"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The cached store: writes through it are seen at once, writes by another
// process (straight to the store) within the TTL; fixed prices likewise.
func TestCachedStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		usd, _ := money.Lookup("USD")
		cached := &currency.CachedStore{Store: db, TTL: 30 * time.Second, Now: func() time.Time { return clock }}
		shop := &currency.Service{Store: cached, Base: usd, Now: func() time.Time { return clock }}
		other := &currency.Service{Store: db, Base: usd, Now: func() time.Time { return clock }} // another process
		codes := func() []string {
			t.Helper()
			list, err := shop.Currencies(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, c := range list {
				out = append(out, c.Code)
			}
			return out
		}
		if got := codes(); len(got) != 1 || got[0] != "USD" {
			t.Fatalf("empty shop: %v", got)
		}
		if err := shop.SaveCurrency(ctx, newCurrency(t, "EUR", "0.92")); err != nil {
			t.Fatal(err)
		}
		if got := codes(); len(got) != 2 {
			t.Fatalf("a write through the cache is seen at once: %v", got)
		}
		if err := other.SaveCurrency(ctx, newCurrency(t, "JPY", "157")); err != nil {
			t.Fatal(err)
		}
		if got := codes(); len(got) != 2 {
			t.Errorf("another process's write seen before the TTL: %v", got)
		}
		clock = clock.Add(31 * time.Second)
		if got := codes(); len(got) != 3 {
			t.Errorf("another process's write not seen after the TTL: %v", got)
		}

		// Fixed prices: cached by ids, dropped by a write through the cache.
		base := int64(1000)
		p := &catalog.Product{Type: catalog.TypeSimple, Name: "Cap", Slug: "cap", Status: "publish", RegularPrice: &base, Purchasable: true}
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		price := func() int64 {
			t.Helper()
			v, err := shop.Price(ctx, p.ID, 1000, false, "EUR")
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		if v := price(); v != 920 {
			t.Fatalf("converted: %d", v)
		}
		if err := other.SetFixedPrice(ctx, currency.FixedPrice{ProductID: p.ID, Code: "EUR", Regular: 999}); err != nil {
			t.Fatal(err)
		}
		if v := price(); v != 920 {
			t.Errorf("another process's fixed price seen before the TTL: %d", v)
		}
		if err := shop.SetFixedPrice(ctx, currency.FixedPrice{ProductID: p.ID, Code: "EUR", Regular: 950}); err != nil {
			t.Fatal(err)
		}
		if v := price(); v != 950 {
			t.Errorf("a fixed price set through the cache: %d", v)
		}
	})
}
