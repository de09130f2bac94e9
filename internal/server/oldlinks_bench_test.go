package server_test

import (
	"context"
	"net/http"
	"testing"

	"vitrine/internal/storage/sqlstore"
)

// BenchmarkOldLinks is what old links cost, with 2,000 of them imported
// (internal/oldlinks): a cached product page, which never reads them (to
// set beside BenchmarkServeProductCached); a path no route names, which
// now looks itself up before the 404 page; an old link's 301.
//
//	go test -run '^$' -bench 'OldLinks|ServeProductCached' -benchmem ./internal/server/
func BenchmarkOldLinks(b *testing.B) {
	db, srv := newBenchStore(b, 64<<20)
	ctx := context.Background()
	p, err := db.ProductBySlug(ctx, "classic-tee")
	if err != nil {
		b.Fatal(err)
	}
	for i := range int64(2000) {
		l := sqlstore.Legacy{Kind: "product", OldID: 10000 + i, NewID: p.ID, OldPath: "/product/old-" + itoa(i) + "/"}
		if err := db.PutLegacy(ctx, l); err != nil {
			b.Fatal(err)
		}
	}
	serve(b, srv, productPage, "", "") // render once
	b.Run("product-cached-br", func(b *testing.B) { benchGet(b, srv, productPage, "gzip, deflate, br, zstd", "hit") })
	b.Run("not-found", func(b *testing.B) { benchStatus(b, srv, "/no-such-page/", http.StatusNotFound) })
	b.Run("old-link-301", func(b *testing.B) { benchStatus(b, srv, "/product/old-1234/", http.StatusMovedPermanently) })
	b.Run("old-link-query-301", func(b *testing.B) { benchStatus(b, srv, "/?p=11234", http.StatusMovedPermanently) })
}

// benchStatus times GET target, failing on another status than want.
func benchStatus(b *testing.B, h http.Handler, target string, want int) {
	b.ReportAllocs()
	for b.Loop() {
		if w := getAccepting(h, target, "gzip, deflate, br, zstd"); w.Code != want {
			b.Fatalf("GET %s: %d, want %d", target, w.Code, want)
		}
	}
}
