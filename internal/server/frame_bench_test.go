package server_test

// The cost of a logged-in viewer's product page: the cached shared page
// with their part spliced into its gzip stream (storefront/frame.go).
//
//	go test -run '^$' -bench 'ServeProductLoggedIn' -benchmem ./internal/server/

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"vitrine/internal/account"
)

func BenchmarkServeProductLoggedIn(b *testing.B) {
	db, srv := newBenchStore(b, 64<<20)
	ctx := context.Background()
	warm := httptest.NewRecorder() // the shared page, cached by a visitor
	srv.ServeHTTP(warm, httptest.NewRequest(http.MethodGet, productPage, nil))
	for _, role := range []string{account.RoleCustomer, account.RoleShopManager} {
		b.Run(role, func(b *testing.B) {
			id, err := db.CreateUser(ctx, &account.User{Email: role + "@example.com", DisplayName: "Bench " + role,
				Role: role, PasswordHash: "unused", CreatedAt: seedTime})
			if err != nil {
				b.Fatal(err)
			}
			c, err := srv.LoginCookieForTest(ctx, id)
			if err != nil {
				b.Fatal(err)
			}
			get := func() {
				r := httptest.NewRequest(http.MethodGet, productPage, nil)
				r.Header.Set("Accept-Encoding", "gzip, deflate, br")
				r.AddCookie(c)
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, r)
				if w.Code != http.StatusOK || w.Header().Get("X-Cache") != "hit" || w.Header().Get("Content-Encoding") != "gzip" {
					b.Fatalf("GET %s: %d X-Cache=%q", productPage, w.Code, w.Header().Get("X-Cache"))
				}
			}
			get()
			b.ReportAllocs()
			b.ResetTimer()
			b.Run("serial", func(b *testing.B) {
				for b.Loop() {
					get()
				}
			})
			b.Run("parallel", func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						get()
					}
				})
			})
		})
	}
}
