package wcimport_test

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/settings"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/standin"
	"vitrine/internal/wcimport/wcrest"
)

// BenchmarkWooCommerceImport moves a stand-in shop of 10,000 products,
// 5,000 customers and 20,000 orders (VITRINE_BENCH_WC_PRODUCTS,
// _CUSTOMERS and _ORDERS to change them; 0 customers and orders: the
// catalogue alone) on loopback into a fresh store, then again (every
// record unchanged): docs/benchmarks.md, "Moving from WooCommerce".
//
//	go test -run '^$' -bench WooCommerceImport -benchtime 1x -timeout 60m ./internal/wcimport/
func BenchmarkWooCommerceImport(b *testing.B) {
	size := func(name string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
			return v
		}
		return def
	}
	n := max(1, size("VITRINE_BENCH_WC_PRODUCTS", 10_000))
	customers, orders := size("VITRINE_BENCH_WC_CUSTOMERS", 5_000), size("VITRINE_BENCH_WC_ORDERS", 20_000)
	shop := standin.Catalogue(n)
	var bought []standin.HistoryProduct
	for _, p := range shop.Products {
		if p["type"] == "simple" || p["type"] == "variable" {
			hp := standin.HistoryProduct{ID: p["id"].(int64), Name: p["name"].(string), SKU: p["sku"].(string), Price: 2000}
			for _, v := range shop.Variations[hp.ID] {
				hp.Variations = append(hp.Variations, v["id"].(int64))
			}
			bought = append(bought, hp)
		}
	}
	if customers+orders > 0 {
		shop.Comments = standin.GenerateHistory(shop, standin.HistoryOptions{Customers: max(1, customers), Orders: orders,
			Coupons: 10, Reviews: orders / 10, Products: bought, Start: time.Date(2025, 1, 5, 9, 0, 0, 0, time.UTC), Origin: standin.Origin})
	}
	usd, _ := money.Lookup("USD")
	srv := httptest.NewServer(standin.Server(shop, ck, cs))
	defer srv.Close()
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db := storetest.Open(b, engine)
				shopSettings := &settings.Service{Store: db, Defaults: settings.FromPages("Vitrine", "", false, pages.DefaultSettings()), Now: time.Now}
				def := checkout.DefaultConfig(usd)
				rules := &settings.Rules{Store: db, Defaults: def.Rules(), Now: time.Now}
				if _, err := shopSettings.Load(context.Background()); err != nil {
					b.Fatal(err)
				}
				if _, err := rules.Load(context.Background()); err != nil {
					b.Fatal(err)
				}
				deps := wcimport.Deps{Legacy: db, Now: time.Now, Analyze: db.Analyze, Catalogue: wcimport.CatalogueDeps{Store: db, Writer: db, MinorUnit: 2,
					Admin: &catalog.Admin{Store: db, MinorUnit: 2}}, History: wcimport.StoreHistoryDeps(db, shopSettings, rules, usd, time.Now)}
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
				if c := rep.Counts["orders"]; c.Created+c.Refused != orders {
					b.Fatalf("orders %+v", c)
				}
				t0 = time.Now()
				rep, err = wcimport.New(deps, src, wcimport.Options{Source: srv.URL}).Execute(context.Background())
				again := time.Since(t0)
				if err != nil || rep.Counts["products"].Unchanged != n || rep.Counts["orders"].Created+rep.Counts["orders"].Updated != 0 {
					b.Fatalf("re-run: %+v %v", rep.Counts["products"], err)
				}
				b.ReportMetric(first.Seconds(), "s/first-run")
				b.ReportMetric(float64(n)/first.Seconds(), "products/s")
				b.ReportMetric(again.Seconds(), "s/re-run")
			}
		})
	}
}
