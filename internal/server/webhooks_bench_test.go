package server_test

// Webhook latency through a started server: shoppers place orders at 100
// a second (POST /wp-json/wc/store/v1/checkout, bank transfer), an
// order.created webhook points at a local listener, and each order's
// delivery is timed from the checkout's answer to the listener's receipt.
// The instance that took the order wakes its worker at once (kickMail);
// the 1 s poll is the fallback.
//
//	go test -run '^$' -bench WebhookOrderCreated -benchtime 1x ./internal/server/
//	VITRINE_TEST_POSTGRES=postgres://… go test -run '^$' -bench WebhookOrderCreated -benchtime 1x ./internal/server/

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/server"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/webhook"
)

func BenchmarkWebhookOrderCreated(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			var mu sync.Mutex
			got := map[int64]time.Time{}
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				var o struct {
					ID int64 `json:"id"`
				}
				if json.Unmarshal(body, &o) == nil && o.ID > 0 {
					mu.Lock()
					got[o.ID] = time.Now()
					mu.Unlock()
				}
			}))
			defer hs.Close()
			usd, _ := money.Lookup("USD")
			ck := checkout.DefaultConfig(usd)
			ck.RateLimit, ck.RateLimitPerAddress = 1<<20, 1<<20
			db := storetest.Open(b, engine)
			srv := newServer(b, db, "", 2, server.Config{BaseURL: "http://localhost", Checkout: ck, WebhooksAllowPrivate: true})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if err := srv.Start(ctx); err != nil {
				b.Fatal(err)
			}
			if _, err := srv.Webhooks().Create(ctx, 0, webhook.Input{Topic: ptr("order.created"), DeliveryURL: ptr(hs.URL), Secret: ptr("s")}); err != nil {
				b.Fatal(err)
			}
			p, err := db.ProductBySlug(ctx, "cotton-tank-top")
			if err != nil {
				b.Fatal(err)
			}
			const n = 500 // 5 s at 100 a second
			body := []byte(checkoutBody(goodBilling(), ""))
			var lat []time.Duration
			placedPerSecond := 0.0
			for b.Loop() {
				b.StopTimer()
				tokens := make([]string, n)
				for i := range tokens {
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, httptest.NewRequest("GET", cartAPI, nil))
					tokens[i] = w.Header().Get("Cart-Token")
					if w := serveByToken(srv, "POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, p.ID), tokens[i]); w.Code != http.StatusCreated {
						b.Fatalf("cart %d: %d %s", i, w.Code, w.Body)
					}
				}
				b.StartTimer()
				placed := make(map[int64]time.Time, n)
				tick := time.NewTicker(10 * time.Millisecond)
				start := time.Now()
				for i := range n {
					<-tick.C
					req := httptest.NewRequest("POST", checkoutAPI, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Cart-Token", tokens[i])
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, req)
					var o struct {
						OrderID int64 `json:"order_id"`
					}
					if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &o) != nil {
						b.Fatalf("checkout %d: %d %s", i, w.Code, w.Body)
					}
					placed[o.OrderID] = time.Now()
				}
				tick.Stop()
				placedPerSecond = float64(n) / time.Since(start).Seconds()
				for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					mu.Lock()
					done := len(got) >= len(placed)
					mu.Unlock()
					if done {
						break
					}
				}
				mu.Lock()
				for id, at := range placed {
					r, ok := got[id]
					if !ok {
						mu.Unlock()
						b.Fatalf("order %d not delivered", id)
					}
					lat = append(lat, r.Sub(at))
				}
				clear(got)
				mu.Unlock()
			}
			slices.Sort(lat)
			b.ReportMetric(placedPerSecond, "orders/s")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
