package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The no-script add to cart: GET /?add-to-cart=ID and the product form's POST.
func TestNoScriptAddToCart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newShop(t, db, "")
		tank := s.productID("cotton-tank-top")
		print := s.productID("limited-print-coastline-no-3")
		tee := s.productID("classic-tee")
		redirect := func(name string, r cartResp, want string) {
			t.Helper()
			if r.status != http.StatusSeeOther || r.header.Get("Location") != want {
				t.Errorf("%s: %d to %q, want 303 to %q", name, r.status, r.header.Get("Location"), want)
			}
			if cc := r.header.Get("Cache-Control"); cc != "no-store, private" {
				t.Errorf("%s: Cache-Control %q", name, cc)
			}
		}
		count := func(c *client) int {
			t.Helper()
			r := c.do("GET", "/wp-json/wc/store/v1/cart", "")
			n, _ := r.body["items_count"].(float64)
			return int(n)
		}

		// The card link: adds, creates the session, redirects to the cart.
		c := s.client()
		r := c.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		redirect("card link", r, "/cart/")
		if c.cookies[itemsInCart] == nil || c.cookies[itemsInCart].Value != "1" {
			t.Errorf("card link: no items-in-cart cookie: %v", r.header["Set-Cookie"])
		}
		sessionCookie := false
		for name := range c.cookies {
			sessionCookie = sessionCookie || strings.HasPrefix(name, "wp_woocommerce_session_")
		}
		if !sessionCookie {
			t.Errorf("card link: no session cookie")
		}
		r = c.do("GET", fmt.Sprintf("/?add-to-cart=%d&quantity=3", tank), "")
		redirect("card link with quantity", r, "/cart/")
		if n := count(c); n != 4 {
			t.Errorf("after the card links: %d items, want 4", n)
		}

		// Refusals go back to the product (or the shop for what has no page) and change nothing.
		for name, tc := range map[string]struct{ query, want string }{
			"unknown":         {"add-to-cart=999999", "/shop/"},
			"not a number":    {"add-to-cart=abc", "/shop/"},
			"variable parent": {fmt.Sprintf("add-to-cart=%d", tee), "/product/classic-tee/"},
			"quantity 0":      {fmt.Sprintf("add-to-cart=%d&quantity=0", tank), "/product/cotton-tank-top/"},
		} {
			redirect(name, c.do("GET", "/?"+tc.query, ""), tc.want)
		}
		if n := count(c); n != 4 {
			t.Errorf("after refusals: %d items, want 4", n)
		}

		// The product form: simple, then a variation, then a refused second sold-individually add.
		f := s.client()
		form := url.Values{"add-to-cart": {itoa(print)}, "quantity": {"1"}}
		redirect("form simple", f.do("POST", "/product/limited-print-coastline-no-3/", form.Encode()), "/cart/")
		redirect("form sold individually again", f.do("POST", "/product/limited-print-coastline-no-3/", form.Encode()), "/product/limited-print-coastline-no-3/")
		vars, err := db.Variations(context.Background(), tee)
		if err != nil {
			t.Fatal(err)
		}
		added := false
		for _, v := range vars {
			if !v.InStock() {
				continue
			}
			form := url.Values{"add-to-cart": {itoa(tee)}, "product_id": {itoa(tee)}, "variation_id": {itoa(v.ID)}, "quantity": {"2"}}
			for _, a := range v.Variation {
				form.Set("attribute_"+a.Name, a.Value)
			}
			r := f.do("POST", "/product/classic-tee/", form.Encode())
			if r.header.Get("Location") == "/cart/" {
				added = true
				break
			}
		}
		if !added {
			t.Errorf("no variation of classic-tee could be added by the form")
		}
		if n := count(f); n != 3 {
			t.Errorf("after the form posts: %d items, want 3", n)
		}
		// No id: back to the page.
		redirect("form without id", f.do("POST", "/product/classic-tee/", "quantity=1"), "/product/classic-tee/")
		redirect("form variable without variation", f.do("POST", "/product/classic-tee/", "add-to-cart="+itoa(tee)+"&variation_id=0"), "/product/classic-tee/")
	})
}

const itemsInCart = "woocommerce_items_in_cart"

// The cart page: per visitor, never cached; remove_item removes and redirects.
func TestCartPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newShop(t, db, "")
		tank := s.productID("cotton-tank-top")

		// A new visitor: the empty state, no session created.
		c := s.client()
		r := c.do("GET", "/cart/", "")
		if r.status != 200 || !strings.Contains(r.raw, "Your cart is currently empty.") || !strings.Contains(r.raw, "Return to shop") {
			t.Fatalf("empty cart page: %d %.300s", r.status, r.raw)
		}
		if cc := r.header.Get("Cache-Control"); cc != "no-store, private" {
			t.Errorf("Cache-Control %q", cc)
		}
		if len(r.header.Values("Set-Cookie")) != 0 {
			t.Errorf("empty cart page set cookies: %v", r.header.Values("Set-Cookie"))
		}

		// With a line: the line, its total, the totals and the checkout link; another visitor still sees an empty cart.
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d&quantity=2", tank), "")
		r = c.do("GET", "/cart/", "")
		for _, want := range []string{"Cotton Tank Top", "Update cart", "Proceed to checkout", `href="/checkout/"`, "Cart totals", "remove_item="} {
			if !strings.Contains(r.raw, want) {
				t.Errorf("cart page lacks %q", want)
			}
		}
		if other := s.client().do("GET", "/cart/", ""); strings.Contains(other.raw, "Cotton Tank Top") {
			t.Errorf("another visitor sees the first one's cart")
		}
		cart := c.do("GET", "/wp-json/wc/store/v1/cart", "")
		key := cart.items()[0]["key"].(string)

		// remove_item: removes, redirects to /cart/, clears the items cookie.
		r = c.do("GET", "/cart/?remove_item="+key, "")
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/cart/" {
			t.Errorf("remove_item: %d %q", r.status, r.header.Get("Location"))
		}
		if n := len(c.do("GET", "/wp-json/wc/store/v1/cart", "").items()); n != 0 {
			t.Errorf("after remove_item: %d lines", n)
		}
		// Unknown key and no session: still a redirect, nothing created.
		for _, cl := range []*client{c, s.client()} {
			if r := cl.do("GET", "/cart/?remove_item=nope", ""); r.status != http.StatusSeeOther {
				t.Errorf("unknown remove_item: %d", r.status)
			}
		}
		if r := c.do("GET", "/cart", ""); r.status != http.StatusMovedPermanently {
			t.Errorf("/cart: %d", r.status)
		}
	})
}
