package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"vitrine/internal/coupon"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// BenchmarkCartWithCoupons: GET /cart of a three-line cart with no coupon
// and with two (each read loads the codes, checks them and quotes with the
// discounts): what coupons add to every cart read.
//
//	go test -run '^$' -bench 'CartWithCoupons' -benchmem ./internal/server/
func BenchmarkCartWithCoupons(b *testing.B) {
	db := storetest.Open(b, sqlstore.SQLite)
	srv := newServer(b, db, "", 0, server.Config{BaseURL: "http://localhost", CacheBytes: 64 << 20, CacheMaxAge: 10 * time.Minute})
	now := time.Now().UTC()
	for _, c := range []coupon.Coupon{{Code: "ten", Type: coupon.Percent, Amount: 10_000}, {Code: "five", Type: coupon.FixedCart, Amount: 500}} {
		c.Created, c.Updated = now, now
		if _, err := db.CreateCoupon(context.Background(), &c); err != nil {
			b.Fatal(err)
		}
	}
	toks := cartTokens(b, srv, 2)
	call := func(tok, method, path, body string, want int) {
		if w := serveByToken(srv, method, path, body, tok); w.Code != want {
			b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
	}
	for _, tok := range toks {
		for _, slug := range []string{"striped-breton-tee", "cotton-tank-top", "linen-overshirt"} {
			addCartItem(b, srv, tok, `{"id":`+productID(b, db, slug)+`,"quantity":2}`)
		}
	}
	call(toks[1], http.MethodPost, "/wp-json/wc/store/v1/cart/apply-coupon", `{"code":"ten"}`, http.StatusOK)
	call(toks[1], http.MethodPost, "/wp-json/wc/store/v1/cart/apply-coupon", `{"code":"five"}`, http.StatusOK)
	for i, name := range []string{"none", "two"} {
		tok := toks[i]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					w := serveByToken(srv, http.MethodGet, "/wp-json/wc/store/v1/cart", "", tok)
					if w.Code != http.StatusOK || (name == "two") != strings.Contains(w.Body.String(), `"code":"five"`) {
						b.Errorf("%d %.200s", w.Code, w.Body)
						return
					}
				}
			})
		})
	}
}
