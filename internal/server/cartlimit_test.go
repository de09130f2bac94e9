package server_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/cart"
)

// sessionID is the cart session the client's cookie names.
func (c *client) sessionID() string {
	c.s.t.Helper()
	for name, ck := range c.cookies {
		if strings.HasPrefix(name, "wp_woocommerce_session_") {
			return strings.Split(ck.Value, "||")[0]
		}
	}
	c.s.t.Fatal("no session cookie")
	return ""
}

// A full cart (cart.MaxLines lines) refuses one more line on every surface
// with a clear error, writes nothing, and still reads, shows and checks
// out (it answered 500 everywhere, and the 501st add was saved).
func TestCartLineLimitHTTP(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		tank, cap := s.productID("cotton-tank-top"), s.productID("studio-staff-cap")
		c.addItem(tank, 1)
		sid := c.sessionID()
		now := s.db.Now() // the shop's clock: the lines live while it reads them
		for i := 1; i < cart.MaxLines; i++ {
			l := cart.Line{Key: fmt.Sprintf("%032x", i), ProductID: tank, Quantity: 1, UnitPrice: 100}
			if _, err := s.db.AddLine(context.Background(), sid, l, now, now.Add(time.Hour), nil); err != nil {
				t.Fatal(err)
			}
		}
		lines := func() int {
			t.Helper()
			c, err := s.db.Cart(context.Background(), sid, s.db.Now())
			if err != nil {
				t.Fatal(err)
			}
			return len(c.Lines)
		}
		if r := c.do("GET", cartAPI, ""); r.status != 200 || len(r.items()) != cart.MaxLines {
			t.Fatalf("full cart: %d, %d items", r.status, len(r.items()))
		}
		r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, cap))
		if r.status != 400 || r.code() != "woocommerce_rest_cart_too_many_items" || !strings.Contains(r.raw, "500") {
			t.Errorf("store api add: %d %s", r.status, r.raw)
		}
		r = c.do("POST", "/?wc-ajax=add_to_cart", url.Values{"product_id": {fmt.Sprint(cap)}, "quantity": {"1"}}.Encode())
		if r.status != 200 || r.body["error"] != true {
			t.Errorf("wc-ajax add: %d %s", r.status, r.raw)
		}
		r = c.do("GET", fmt.Sprintf("/?add-to-cart=%d", cap), "")
		if r.status != 303 || r.header.Get("Location") != "/cart/" {
			t.Errorf("no-script add: %d to %s", r.status, r.header.Get("Location"))
		}
		if page := c.do("GET", "/cart/", ""); page.status != 200 || !strings.Contains(page.raw, "Your cart cannot hold more than 500 different items.") {
			t.Errorf("cart page after the refused no-script add: %d, no notice", page.status)
		}
		if n := lines(); n != cart.MaxLines {
			t.Errorf("refused adds wrote: %d lines", n)
		}
		// More of a line already there is fine.
		c.addItem(tank, 1)
	})
}
