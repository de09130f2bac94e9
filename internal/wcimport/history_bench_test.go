package wcimport

import (
	"context"
	"testing"

	"vitrine/internal/storage/storetest"
)

// Timings of the history's two big resources, a record at a time as a run
// imports them: b.N customers, or b.N orders (with their notes and
// refunds) over 50 customers, on each configured engine.
func BenchmarkHistory(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		for _, name := range []string{"customers", "orders"} {
			b.Run(name+"/"+engine, func(b *testing.B) {
				h := newHistoryShop(b, storetest.Open(b, engine))
				customers, orders := b.N, 0
				if name == "orders" {
					customers, orders = 50, b.N
				}
				_, src := generatedShop(b, h, customers, orders)
				ctx := context.Background()
				r := &Run{deps: h.deps, src: src}
				for _, rs := range r.historyResources() {
					if rs.name == "customers" && name == "orders" {
						importAll(ctx, b, r, rs, src) // the orders' customers first
					}
					if rs.name == name {
						b.ResetTimer()
						importAll(ctx, b, r, rs, src)
						b.StopTimer()
					}
				}
			})
		}
	}
}

// importAll imports every record of a resource; a refusal is counted, not
// an error (the trashed orders).
func importAll(ctx context.Context, b *testing.B, r *Run, rs resource, src *memSource) {
	for _, raw := range src.lists[rs.path] {
		if _, err := rs.one(ctx, r, raw); err != nil {
			if _, ok := err.(*refusal); !ok {
				b.Fatal(err)
			}
		}
	}
}
