package server_test

// The price call (wmc_get_products_price) for a listing's 24 products in
// EUR, in process:
//
//	go test -run '^$' -bench 'PriceCall' -benchmem ./internal/server/

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// wmcBenchForm is the form of a price call for the first 24 listed
// products (variable ones included).
func wmcBenchForm(b *testing.B, store catalog.Store) string {
	b.Helper()
	ps, _, err := store.QueryProducts(context.Background(), catalog.ProductQuery{Page: 1, PerPage: 24, Visibility: "listable", NoCount: true})
	if err != nil || len(ps) != 24 {
		b.Fatalf("24 products: %d %v", len(ps), err)
	}
	parts := []string{"action=wmc_get_products_price", "wmc_current_url=%2Fshop%2F"}
	for _, p := range ps {
		parts = append(parts, "pids%5B%5D="+itoa(p.ID))
	}
	return strings.Join(parts, "&")
}

// wmcBenchServer is a server with a page cache selling in EUR, JPY and a
// disabled GBP (wmcConfigure), on SQLite.
func wmcBenchServer(b *testing.B) (*sqlstore.DB, *server.Server) {
	b.Helper()
	db := storetest.Open(b, sqlstore.SQLite)
	srv := newServer(b, db, "", 0, server.Config{BaseURL: "http://localhost", CacheBytes: 64 << 20, CacheMaxAge: 10 * time.Minute})
	wmcConfigure(b, srv.Currencies())
	return db, srv
}

func BenchmarkPriceCall24(b *testing.B) {
	db, srv := wmcBenchServer(b)
	form := wmcBenchForm(b, db)
	call := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/wp-admin/admin-ajax.php", strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Cookie", "wmc_current_currency=EUR")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	if w := call(); w.Code != 200 || strings.Count(w.Body.String(), "woocommerce-Price-amount") < 24 || !strings.Contains(w.Body.String(), `"current_currency":"EUR"`) {
		b.Fatalf("%d %s", w.Code, w.Body)
	}
	benchParallel(b, "price call", call)
}

// BenchmarkCartInCurrency: GET /cart of a three-line cart in the base
// currency and in EUR (lines converted with one fixed-price read, fees
// converted, Quote in EUR): what selling in the shopper's currency adds to
// every cart read.
//
//	go test -run '^$' -bench 'CartInCurrency' -benchmem ./internal/server/
func BenchmarkCartInCurrency(b *testing.B) {
	db, srv := wmcBenchServer(b)
	tok := cartTokens(b, srv, 1)[0]
	for _, slug := range []string{"striped-breton-tee", "cotton-tank-top", "linen-overshirt"} {
		addCartItem(b, srv, tok, `{"id":`+productID(b, db, slug)+`,"quantity":2}`)
	}
	for _, code := range []string{"USD", "EUR"} {
		b.Run(code, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r := httptest.NewRequest(http.MethodGet, "/wp-json/wc/store/v1/cart", nil)
					r.Header.Set("Cart-Token", tok)
					r.Header.Set("Cookie", "wmc_current_currency="+code)
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, r)
					if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"currency_code":"`+code+`"`) {
						b.Errorf("%d %.200s", w.Code, w.Body)
						return
					}
				}
			})
		})
	}
}

// BenchmarkLiveSearchIn is a cached live search ("tee": 10 suggestions,
// variable products among them) for a base shopper (the cached answer as
// it is) and a EUR shopper (its prices converted per request).
func BenchmarkLiveSearchIn(b *testing.B) {
	_, srv := wmcBenchServer(b)
	for _, c := range []struct{ name, cookie, want string }{{"USD", "", "$"}, {"EUR", "wmc_current_currency=EUR", "€"}} {
		b.Run(c.name, func(b *testing.B) {
			call := func() *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodGet, liveSearch("tee"), nil)
				r.Header.Set("Cookie", c.cookie)
				r.Header.Set("Accept-Encoding", "gzip, br")
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, r)
				return w
			}
			if w := call(); w.Code != 200 || (c.name == "EUR" && !strings.Contains(w.Body.String(), c.want)) {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
			benchParallel(b, "live search", call)
		})
	}
}
