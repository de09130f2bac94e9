package server_test

// The cost of a logged-in viewer's page: it skips the page cache and is
// loaded and rendered per request (frame.go).
//
//	go test -run '^$' -bench 'ServeProductPersonal' -benchmem ./internal/server/

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"vitrine/internal/account"
)

func BenchmarkServeProductPersonal(b *testing.B) {
	db, srv := newBenchStore(b, 64<<20)
	ctx := context.Background()
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
				r.Header.Set("Accept-Encoding", "br")
				r.AddCookie(c)
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, r)
				if w.Code != http.StatusOK || w.Header().Get("X-Cache") != "bypass" {
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
