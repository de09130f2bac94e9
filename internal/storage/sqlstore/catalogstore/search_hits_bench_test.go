package catalogstore_test

import (
	"context"
	"os"
	"syscall"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/storetest"
)

// BenchmarkSearchHitsCatalogue reads a search page's candidates (as
// QueryProductsFaceted does, "hits") and the one candidate query
// ("query") on a catalogue made by vitrine-gen, e.g.
//
//	VITRINE_BENCH_SEARCH_DSN=sqlite:/tmp/search100k/shop.db go test -run '^$' -bench SearchHitsCatalogue ./internal/storage/sqlstore/catalogstore/
//
// cpu-ms is this process's CPU per request (the store's; PostgreSQL's own
// work is in its server).
func BenchmarkSearchHitsCatalogue(b *testing.B) {
	dsn := os.Getenv("VITRINE_BENCH_SEARCH_DSN")
	if dsn == "" {
		b.Skip("set VITRINE_BENCH_SEARCH_DSN to a generated catalogue")
	}
	db := storetest.OpenDSN(b, dsn)
	ctx := context.Background()
	for _, s := range []string{"cotton", "classic", "linen shirt", "hoodei", "wool"} {
		q := catalog.ProductQuery{Search: s, Visibility: "search"}
		for _, way := range []string{"hits", "query"} {
			b.Run(s+"/"+way, func(b *testing.B) {
				var ru0, ru1 syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
				for b.Loop() {
					got, want, err := db.SearchHitsBothWaysForTest(ctx, q, way == "hits", way == "query")
					if err != nil {
						b.Fatal(err)
					}
					_, _ = got, want
				}
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				cpu := float64(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / 1e6
				b.ReportMetric(cpu/float64(b.N), "cpu-ms")
			})
		}
	}
}
