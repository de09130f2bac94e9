package wishlist_test

import (
	"context"
	"testing"

	"vitrine/internal/seed"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wishlist"
)

// BenchmarkToggle is a heart pressed on and off again (Set add, Set
// remove: two write transactions per iteration) by one guest, on each
// configured engine, with the demo catalogue in the product cache.
func BenchmarkToggle(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			db := storetest.OpenDurable(b, engine)
			ctx := context.Background()
			if _, err := seed.Demo(ctx, db, seedTime); err != nil {
				b.Fatal(err)
			}
			svc := &wishlist.Service{Store: db, Catalog: storetest.Cache(db)}
			p, err := db.ProductBySlug(ctx, "cotton-tank-top")
			if err != nil {
				b.Fatal(err)
			}
			o := wishlist.Guest("w_000000000000000000000000000001")
			b.ResetTimer()
			for b.Loop() {
				if _, _, _, err := svc.Set(ctx, o, p.ID, true); err != nil {
					b.Fatal(err)
				}
				if _, _, _, err := svc.Set(ctx, o, p.ID, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
