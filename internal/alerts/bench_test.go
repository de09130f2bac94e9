package alerts_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/alerts"
	"vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// BenchmarkRestock10000 is one restock with 10,000 waiting subscribers, on
// each engine: the time to queue their mails (RunRestocks: the conditional
// updates and outbox rows, in batches of alerts.Batch), then the mails per
// second through the outbox worker (its default options) to an SMTP
// server on loopback. Run once: go test -run '^$' -bench Restock10000
// -benchtime 1x ./internal/alerts/ (docs/benchmarks.md).
func BenchmarkRestock10000(b *testing.B) {
	n := benchN()
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				db := storetest.Open(b, engine)
				ctx := context.Background()
				now := time.Now().UTC().Truncate(time.Second)
				svc := &alerts.Service{Store: db, Secret: secret, Now: time.Now}
				item := benchItem(b, db)
				// The subscribers, written straight in (as confirmed alerts).
				for start := 0; start < n; start += 500 {
					end := min(start+500, n)
					var q strings.Builder
					args := []any{}
					q.WriteString(`INSERT INTO stock_alerts (product_id, email, user_id, status, confirm_expires, created_at) VALUES `)
					for i := start; i < end; i++ {
						if i > start {
							q.WriteString(", ")
						}
						q.WriteString("(?, ?, 0, 'waiting', 0, ?)")
						args = append(args, item, fmt.Sprintf("s%05d@example.com", i), now.Unix())
					}
					if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(q.String()), args...); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE products SET stock_status = 'instock', stock_quantity = 5 WHERE id = ?`), item); err != nil {
					b.Fatal(err)
				}
				sink := mailtest.Start(b, mailtest.Options{})
				cfg, err := mail.ParseSMTPURL(fmt.Sprintf("smtp://127.0.0.1:%d?tls=none&from=shop@shop.example&timeout=5s", sink.Port(b)))
				if err != nil {
					b.Fatal(err)
				}
				sender, err := mail.NewSMTPSender(cfg)
				if err != nil {
					b.Fatal(err)
				}
				o := mail.NewOutbox(db, sender, svc.Renderer(alerts.MailLinks{BaseURL: "https://shop.example"}), nil, mail.Options{Interval: time.Hour})
				b.StartTimer()

				t0 := time.Now()
				r, err := svc.RunRestocks(ctx)
				queued := time.Since(t0)
				if err != nil || r.Alerts != n {
					b.Fatalf("restock: %+v %v", r, err)
				}
				b.ReportMetric(queued.Seconds()*1000, "ms-to-queue")
				if os.Getenv("VITRINE_BENCH_ALERTS_SEND") == "0" {
					continue
				}
				t1 := time.Now()
				res, err := o.RunOnce(ctx)
				sent := time.Since(t1)
				if err != nil || res.Sent != n {
					b.Fatalf("outbox: %+v %v", res, err)
				}
				b.StopTimer()
				if got := len(sink.Messages()); got != n {
					b.Fatalf("delivered %d", got)
				}
				b.ReportMetric(float64(n)/sent.Seconds(), "mails/s")
				sink.Stop()
				b.StartTimer()
			}
		})
	}
}

// benchItem makes an out-of-stock product straight in the store.
func benchItem(b *testing.B, db *sqlstore.DB) int64 {
	b.Helper()
	var id int64
	err := db.Write.GetContext(context.Background(), &id, db.Write.Rebind(`INSERT INTO products (type, name, slug, status, stock_status, manage_stock, stock_quantity, created_at, updated_at)
		VALUES ('simple', 'Bench Kettle', 'bench-kettle', 'publish', 'outofstock', ?, 0, ?, ?) RETURNING id`), true, time.Now().UTC(), time.Now().UTC())
	if err != nil {
		b.Fatal(err)
	}
	return id
}

// benchN is the number of subscribers: 10,000, or VITRINE_BENCH_ALERTS_N
// for a shorter run.
func benchN() int {
	if v, err := strconv.Atoi(os.Getenv("VITRINE_BENCH_ALERTS_N")); err == nil && v > 0 {
		return v
	}
	return 10_000
}
