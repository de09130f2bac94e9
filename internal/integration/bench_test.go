package integration_test

import (
	"context"
	"strconv"
	"testing"

	"vitrine/internal/integration"
	"vitrine/internal/storage/storetest"
)

// What authenticating one request with a key costs, on each engine: Basic
// (the rate-limit read, the key, its user) and OAuth (the same, the
// signature and the nonce's insert). Figures in docs/benchmarks.md.
func BenchmarkKeyAuth(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		db := storetest.Open(b, engine)
		s := newKeyShop(b, db)
		c, err := s.svc.Create(context.Background(), s.manager, "bench", integration.ReadWrite)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(engine+"/basic", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.svc.Basic(context.Background(), c.ConsumerKey, c.ConsumerSecret, "192.0.2.1"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(engine+"/oauth", func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				if _, err := s.svc.OAuth(context.Background(), s.signed(c, "GET", "http://shop.example/wp-json/wc/v3/products", "bench-"+strconv.Itoa(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
