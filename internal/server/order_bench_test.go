package server_test

// Placing orders: POST /wp-json/wc/store/v1/checkout (bank transfer) in
// process, on each engine the environment offers, at 1 and 16 concurrent
// shoppers, with durable commits (SQLite synchronous=FULL, PostgreSQL's
// default synchronous_commit=on). Each iteration is one shopper's order:
// the carts (one line each, a product without managed stock, so shoppers do
// not run out) are filled before the timer starts, and each order is one
// transaction that re-checks the cart, writes the order, its lines, meta
// and idempotency record, queues two mails and empties the cart.
//
//	go test -run '^$' -bench PlaceOrder -benchtime 2000x ./internal/server/
//	VITRINE_TEST_POSTGRES=postgres://… go test -run '^$' -bench PlaceOrder -benchtime 2000x ./internal/server/

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/storage/storetest"
)

func BenchmarkPlaceOrder(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		for _, conc := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/c=%d", engine, conc), func(b *testing.B) {
				db := storetest.OpenDurable(b, engine)
				srv := newServer(b, db, "", 2, server.Config{BaseURL: "http://localhost", CacheBytes: 16 << 20, CacheMaxAge: time.Hour})
				p, err := db.ProductBySlug(context.Background(), "cotton-tank-top")
				if err != nil {
					b.Fatal(err)
				}
				if p.ManageStock {
					b.Fatal("the benchmark product must not manage stock")
				}
				body := []byte(checkoutBody(goodBilling(), ""))
				// One cart per order, each selected by its Cart-Token (headless
				// mode: no cookie, no nonce).
				tokens := make([]string, b.N)
				for i := range tokens {
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, httptest.NewRequest("GET", cartAPI, nil))
					tokens[i] = w.Header().Get("Cart-Token")
					w = serveByToken(srv, "POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, p.ID), tokens[i])
					if tokens[i] == "" || w.Code != http.StatusCreated {
						b.Fatalf("cart %d: %d %s", i, w.Code, w.Body)
					}
				}
				var next, fails atomic.Int64
				lat := make([]time.Duration, b.N)
				place := func() {
					i := next.Add(1) - 1
					t0 := time.Now()
					req := httptest.NewRequest("POST", checkoutAPI, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Cart-Token", tokens[i])
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, req)
					lat[i] = time.Since(t0)
					if w.Code != http.StatusOK && fails.Add(1) == 1 {
						b.Errorf("checkout %d: %d %s", i, w.Code, w.Body)
					}
				}
				b.ResetTimer()
				start := time.Now()
				if conc == 1 {
					for range b.N {
						place()
					}
				} else {
					// RunParallel starts parallelism × GOMAXPROCS goroutines.
					b.SetParallelism(max(1, conc/runtime.GOMAXPROCS(0)))
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							place()
						}
					})
				}
				elapsed := time.Since(start)
				b.StopTimer()
				slices.Sort(lat)
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "orders/s")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			})
		}
	}
}
