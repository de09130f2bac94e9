package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"vitrine/internal/account"
)

// logInDirect registers a customer and gives c a session for it, as a
// login through the form would (the form is tested on its own).
func logInDirect(t *testing.T, s *shop, c *client, email string) *account.User {
	t.Helper()
	ctx := context.Background()
	svc := &account.Service{Store: s.db, Now: s.db.Now}
	u, err := svc.Register(ctx, account.Registration{Email: email, Password: "correct horse battery staple"})
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := svc.CreateSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	c.cookies[loginCookie] = &http.Cookie{Name: loginCookie, Value: token}
	return u
}

// A customer's cart belongs to the account: what one browser adds, another
// browser logged in as the same customer sees, and no guest session cookie
// is handed out for it.
func TestCustomerCartFollowsTheAccount(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		phone := s.client()
		logInDirect(t, s, phone, "ada@example.com")
		phone.do(http.MethodGet, cartAPI, "")
		add := phone.do(http.MethodPost, cartAPI+"/add-item", `{"id":`+itoa(s.productID("cotton-tank-top"))+`,"quantity":2}`)
		if add.status != http.StatusCreated {
			t.Fatalf("add: %d %s", add.status, add.raw)
		}
		for _, ck := range add.header.Values("Set-Cookie") {
			if strings.HasPrefix(ck, "wp_woocommerce_session_") {
				t.Errorf("a customer got a guest session cookie: %s", ck)
			}
		}
		laptop := s.client()
		laptop.cookies[loginCookie] = phone.cookies[loginCookie]
		got := laptop.do(http.MethodGet, cartAPI, "")
		if items := got.items(); len(items) != 1 || items[0]["quantity"] != float64(2) {
			t.Fatalf("the other browser's cart: %s", got.raw)
		}
		// A visitor without the login cookie has a cart of their own.
		if other := s.client().do(http.MethodGet, cartAPI, ""); len(other.items()) != 0 {
			t.Fatalf("a visitor sees the customer's cart: %s", other.raw)
		}
		// The visitor's nonce does not pass for the customer.
		visitor := s.client()
		visitor.do(http.MethodGet, cartAPI, "")
		visitor.cookies[loginCookie] = phone.cookies[loginCookie]
		if r := visitor.do(http.MethodPost, cartAPI+"/add-item", `{"id":`+itoa(s.productID("cotton-tank-top"))+`,"quantity":1}`); r.status != http.StatusForbidden {
			t.Fatalf("a visitor's nonce passed for a customer: %d %s", r.status, r.raw)
		}
	})
}

// A login cookie naming no live session is deleted and the request goes
// on as a visitor's.
func TestUnknownLoginCookieIsDropped(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		for _, value := range []string{"forged-token", strings.Repeat("x", 4000)} {
			c := s.client()
			c.cookies[loginCookie] = &http.Cookie{Name: loginCookie, Value: value}
			r := c.do(http.MethodGet, cartAPI, "")
			if r.status != http.StatusOK {
				t.Fatalf("cart with a forged login cookie: %d %s", r.status, r.raw)
			}
			cleared := false
			for _, ck := range r.header.Values("Set-Cookie") {
				if strings.HasPrefix(ck, loginCookie+"=;") && strings.Contains(ck, "Max-Age=0") {
					cleared = true
				}
			}
			if !cleared {
				t.Errorf("forged login cookie %.10q not deleted: %v", value, r.header.Values("Set-Cookie"))
			}
		}
	})
}
