package visits_test

import (
	"context"
	"testing"
	"time"

	"vitrine/internal/storage/storetest"
	"vitrine/internal/visits"
)

// BenchmarkRecord is one counted session start on a durable store (the
// upsert of the hour's row and its commit), per engine; the rules and the
// limiter are in memory. docs/benchmarks.md has the figures.
func BenchmarkRecord(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			db := storetest.OpenDurable(b, engine)
			s := &visits.Service{Store: db, Limiter: &visits.Limiter{Burst: 1 << 30, Every: 1, MaxClients: 10}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Record(ctx, visits.Start{Client: "192.0.2.1", UserAgent: browser}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLimiter is the per-address and instance buckets' cost of one
// start from one of 10,000 addresses.
func BenchmarkLimiter(b *testing.B) {
	l := visits.DefaultLimiter()
	addrs := make([]string, 10000)
	for i := range addrs {
		addrs[i] = "10." + itoa(i/65536) + "." + itoa(i/256%256) + "." + itoa(i%256)
	}
	now := benchNow
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		l.Allow(addrs[i%len(addrs)], now)
		i++
	}
}

var benchNow = mustTime("2027-01-01T00:00:00Z")

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

func mustTime(v string) time.Time {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		panic(err)
	}
	return t
}
