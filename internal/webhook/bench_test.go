package webhook_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/webhook"
)

// What delivering costs, on each engine, to a local listener that answers
// 200 at once: events delivered per second by one worker (claim, body,
// signature, POST, the outcome and the log in one transaction), and the
// queue's latency at 100 events a second (a commit to the listener's
// receipt) with the worker polling as shipped (1 s) and polling at 50 ms.
// Figures in docs/benchmarks.md.

func benchShop(b *testing.B, engine string, handler http.HandlerFunc) (*sqlstore.DB, *webhook.Hook) {
	db := storetest.Open(b, engine)
	hs := httptest.NewServer(handler)
	b.Cleanup(hs.Close)
	s := &webhook.Service{Store: db, AllowPrivate: true}
	h, err := s.Create(context.Background(), 0, webhook.Input{Topic: str("order.created"), DeliveryURL: str(hs.URL), Status: str(webhook.StatusPaused), Secret: str("s")})
	if err != nil {
		b.Fatal(err)
	}
	if h, err = s.Update(context.Background(), h.ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil {
		b.Fatal(err)
	}
	return db, h
}

func enqueue(b *testing.B, db *sqlstore.DB, id int64) {
	if err := db.Tx(context.Background(), func(tx *sqlx.Tx) error {
		return sqlcore.EnqueueWebhooksTx(context.Background(), tx, "order.created", id, time.Now())
	}); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkDelivery(b *testing.B) {
	ok := func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }
	for _, engine := range storetest.Engines(b) {
		b.Run(engine+"/throughput", func(b *testing.B) {
			db, _ := benchShop(b, engine, ok)
			w := webhook.NewWorker(db, payload, nil, webhook.Options{AllowPrivate: true, Source: "https://shop.example/", Batch: 20})
			const n = 200
			for b.Loop() {
				b.StopTimer()
				for i := range n {
					enqueue(b, db, int64(i+1))
				}
				b.StartTimer()
				r, err := w.RunOnce(context.Background())
				if err != nil || r.Delivered != n {
					b.Fatalf("%+v %v", r, err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "deliveries/s")
			b.ReportMetric(0, "ns/op")
		})
		for _, poll := range []time.Duration{time.Second, 50 * time.Millisecond} {
			b.Run(engine+"/latency-100-per-s/poll-"+poll.String(), func(b *testing.B) {
				var mu sync.Mutex
				got := map[string]time.Time{}
				db, _ := benchShop(b, engine, func(w http.ResponseWriter, r *http.Request) {
					body, _ := io.ReadAll(r.Body)
					mu.Lock()
					got[string(body)] = time.Now()
					mu.Unlock()
				})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				w := webhook.NewWorker(db, func(_ context.Context, _ string, id int64) ([]byte, error) {
					return []byte(strconv.FormatInt(id, 10)), nil
				}, nil, webhook.Options{AllowPrivate: true, Source: "https://shop.example/", Interval: poll})
				go w.Run(ctx)
				const n = 500 // 5 s at 100 a second
				var lat []time.Duration
				round := 0
				for b.Loop() {
					mu.Lock()
					clear(got)
					mu.Unlock()
					base := int64(round * n)
					round++
					sent := make([]time.Time, n+1)
					tick := time.NewTicker(10 * time.Millisecond)
					for i := 1; i <= n; i++ {
						<-tick.C
						enqueue(b, db, base+int64(i))
						sent[i] = time.Now()
					}
					tick.Stop()
					for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
						mu.Lock()
						done := len(got) >= n
						mu.Unlock()
						if done {
							break
						}
					}
					mu.Lock()
					for i := 1; i <= n; i++ {
						at, ok := got[strconv.FormatInt(base+int64(i), 10)]
						if !ok {
							mu.Unlock()
							b.Fatalf("event %d not delivered", i)
						}
						lat = append(lat, at.Sub(sent[i]))
					}
					mu.Unlock()
				}
				m := len(lat)
				slices.Sort(lat)
				b.ReportMetric(float64(lat[m/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[m*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
