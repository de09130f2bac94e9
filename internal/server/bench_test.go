package server_test

// Benchmarks of the HTTP handler in process (no network): a cached page
// hit, the Store API's cached product list, and a product page with the
// cache off (store queries, QuickJS render, document and compression).
//
//	go test -run '^$' -bench . -benchmem ./internal/server/

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func newBenchServer(b *testing.B, cacheBytes int64) *server.Server {
	b.Helper()
	_, srv := newBenchStore(b, cacheBytes)
	return srv
}

// newBenchStore is the benchmarks' server on SQLite, and its store.
func newBenchStore(b *testing.B, cacheBytes int64) (*sqlstore.DB, *server.Server) {
	b.Helper()
	db := storetest.Open(b, sqlstore.SQLite)
	return db, newServer(b, db, "", 0, server.Config{BaseURL: "http://localhost",
		Tagline: "Everyday clothing, made to last", CacheBytes: cacheBytes, CacheMaxAge: 10 * time.Minute})
}

// serve runs one request and checks its status and X-Cache header (if want
// is not empty).
func serve(b testing.TB, h http.Handler, target, acceptEncoding, wantCache string) *httptest.ResponseRecorder {
	b.Helper()
	w := getAccepting(h, target, acceptEncoding)
	if w.Code != http.StatusOK {
		b.Fatalf("GET %s: %d", target, w.Code)
	}
	if wantCache != "" && w.Header().Get("X-Cache") != wantCache {
		b.Fatalf("GET %s: X-Cache %q, want %q", target, w.Header().Get("X-Cache"), wantCache)
	}
	return w
}

// getAccepting answers GET target with Accept-Encoding acceptEncoding (none
// when empty).
func getAccepting(h http.Handler, target, acceptEncoding string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func benchGet(b *testing.B, srv http.Handler, target, acceptEncoding, wantCache string) {
	w := serve(b, srv, target, acceptEncoding, wantCache) // also warms the cache
	size := w.Body.Len()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		serve(b, srv, target, acceptEncoding, wantCache)
	}
	b.ReportMetric(float64(size), "resp-bytes")
}

func benchGetParallel(b *testing.B, srv http.Handler, target, acceptEncoding string) {
	serve(b, srv, target, acceptEncoding, "")
	benchParallel(b, "GET "+target, func() *httptest.ResponseRecorder { return getAccepting(srv, target, acceptEncoding) })
}

// benchParallel times call in parallel (from a fresh timer), failing on an
// answer other than 200.
func benchParallel(b *testing.B, what string, call func() *httptest.ResponseRecorder) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if w := call(); w.Code != http.StatusOK {
				b.Errorf("%s: %d", what, w.Code)
				return
			}
		}
	})
}

// addCartItem adds item (the add-item JSON) to the cart of token.
func addCartItem(tb testing.TB, h http.Handler, token, item string) {
	tb.Helper()
	if w := serveByToken(h, http.MethodPost, "/wp-json/wc/store/v1/cart/add-item", item, token); w.Code != http.StatusCreated {
		tb.Fatalf("add %s: %d %s", item, w.Code, w.Body)
	}
}

const productPage = "/product/classic-tee/"
const apiProducts = "/wp-json/wc/store/v1/products?per_page=20"

// BenchmarkServeProductCached is a product page answered from the page
// cache, plain and brotli.
func BenchmarkServeProductCached(b *testing.B) {
	srv := newBenchServer(b, 64<<20)
	serve(b, srv, productPage, "", "") // render once
	b.Run("identity", func(b *testing.B) { benchGet(b, srv, productPage, "", "hit") })
	b.Run("br", func(b *testing.B) { benchGet(b, srv, productPage, "gzip, deflate, br, zstd", "hit") })
	b.Run("br-parallel", func(b *testing.B) { benchGetParallel(b, srv, productPage, "gzip, deflate, br, zstd") })
}

// BenchmarkServeStoreAPIProducts is GET /wp-json/wc/store/v1/products?per_page=20
// from the Store API response cache.
func BenchmarkServeStoreAPIProducts(b *testing.B) {
	srv := newBenchServer(b, 64<<20)
	b.Run("cached", func(b *testing.B) { benchGet(b, srv, apiProducts, "", "") })
	b.Run("cached-br", func(b *testing.B) { benchGet(b, srv, apiProducts, "br", "") })
	b.Run("cached-parallel", func(b *testing.B) { benchGetParallel(b, srv, apiProducts, "") })
	// With the caches off, every request queries the store and encodes.
	off := newBenchServer(b, 0)
	b.Run("uncached", func(b *testing.B) { benchGet(b, off, apiProducts, "", "") })
}

// BenchmarkServeProductUncached is the full render path of a product page
// (cache off): store queries, JSON, QuickJS render, document, gzip and
// brotli.
func BenchmarkServeProductUncached(b *testing.B) {
	srv := newBenchServer(b, 0)
	b.Run("serial", func(b *testing.B) { benchGet(b, srv, productPage, "br", "miss") })
	b.Run("parallel", func(b *testing.B) { benchGetParallel(b, srv, productPage, "br") })
}

// cartTokens gets n fresh Cart-Tokens (GET /cart without a session answers
// one naming a new, not yet stored session), outside the timer.
func cartTokens(b testing.TB, h http.Handler, n int) []string {
	b.Helper()
	toks := make([]string, n)
	for i := range toks {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/wp-json/wc/store/v1/cart", nil))
		if toks[i] = w.Header().Get("Cart-Token"); toks[i] == "" {
			b.Fatal("no Cart-Token")
		}
	}
	return toks
}

// BenchmarkCartAddItem: Store API add-item of a simple product into a fresh
// cart per request (a new Cart-Token each time), in parallel like c=32.
// With -cpuprofile it shows where an add's time goes.
//
//	go test -run '^$' -bench CartAdd -cpuprofile /tmp/cpu.out ./internal/server/
func BenchmarkCartAddItem(b *testing.B) {
	srv := newBenchServer(b, 64<<20)
	toks := cartTokens(b, srv, b.N)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if w := serveByToken(srv, http.MethodPost, "/wp-json/wc/store/v1/cart/add-item", `{"id":65,"quantity":1}`, toks[next.Add(1)-1]); w.Code != http.StatusCreated {
				b.Fatalf("add-item: %d %s", w.Code, w.Body)
			}
		}
	})
}

// BenchmarkWCAjaxAddToCart: wc-ajax add_to_cart without a session (each
// add starts a cart), fragments rendered by the JS engine each time.
func BenchmarkWCAjaxAddToCart(b *testing.B) {
	srv := newBenchServer(b, 64<<20)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequest(http.MethodPost, "/?wc-ajax=add_to_cart", strings.NewReader("product_id=65&quantity=1"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("add_to_cart: %d %s", w.Code, w.Body)
			}
		}
	})
}
