package wcimport_test

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/standin"
	"vitrine/internal/wcimport/wcrest"
)

// BenchmarkWooCommerceImport moves a stand-in shop of 10,000 products
// (VITRINE_BENCH_WC_PRODUCTS to change it) on loopback into a fresh store,
// then again (every record unchanged): docs/benchmarks.md, "Moving from
// WooCommerce".
//
//	go test -run '^$' -bench WooCommerceImport -benchtime 1x -timeout 60m ./internal/wcimport/
func BenchmarkWooCommerceImport(b *testing.B) {
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("VITRINE_BENCH_WC_PRODUCTS")); err == nil && v > 0 {
		n = v
	}
	shop := standin.Catalogue(n)
	srv := httptest.NewServer(standin.Server(shop, ck, cs))
	defer srv.Close()
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db := storetest.Open(b, engine)
				deps := wcimport.Deps{Legacy: db, Now: time.Now, Analyze: db.Analyze, Catalogue: wcimport.CatalogueDeps{Store: db, Writer: db, MinorUnit: 2,
					Admin: &catalog.Admin{Store: db, MinorUnit: 2}}}
				src := &wcrest.Client{Base: srv.URL, ConsumerKey: ck, ConsumerSecret: cs}
				b.StartTimer()
				t0 := time.Now()
				rep, err := wcimport.New(deps, src, wcimport.Options{Source: srv.URL}).Execute(context.Background())
				first := time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				if c := rep.Counts["products"]; c.Created != n {
					b.Fatalf("products %+v", c)
				}
				t0 = time.Now()
				rep, err = wcimport.New(deps, src, wcimport.Options{Source: srv.URL}).Execute(context.Background())
				again := time.Since(t0)
				if err != nil || rep.Counts["products"].Unchanged != n {
					b.Fatalf("re-run: %+v %v", rep.Counts["products"], err)
				}
				b.ReportMetric(first.Seconds(), "s/first-run")
				b.ReportMetric(float64(n)/first.Seconds(), "products/s")
				b.ReportMetric(again.Seconds(), "s/re-run")
			}
		})
	}
}
