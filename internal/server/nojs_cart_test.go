package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The no-script add to cart: GET /?add-to-cart=ID and the product form's POST.
func TestNoScriptAddToCart(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
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
		vars, err := s.db.Variations(context.Background(), tee)
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
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
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
		if link := removeLink(t, r.raw); !strings.HasPrefix(link, "/cart/?remove_item="+key+"&_wpnonce=") {
			t.Errorf("remove link %q", link)
		}
		r = c.do("GET", removeLink(t, r.raw), "")
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

// The cart page's form without scripts: POST /cart/ with update_cart and
// cart[<key>][qty]=N.
func TestNoScriptCartUpdate(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		print := s.productID("limited-print-coastline-no-3")
		c := s.client()
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d&quantity=2", tank), "")
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d", print), "")
		keys := map[string]string{}
		for _, it := range c.do("GET", cartAPI, "").items() {
			keys[it["name"].(string)] = it["key"].(string)
		}
		tankKey, printKey := keys["Cotton Tank Top"], keys["Limited Print: Coastline No. 3"]
		if tankKey == "" || printKey == "" {
			t.Fatalf("cart keys: %v", keys)
		}
		post := func(cl *client, form string) cartResp {
			t.Helper()
			r := cl.do("POST", "/cart/", form)
			if r.status != http.StatusSeeOther || r.header.Get("Location") != "/cart/" {
				t.Fatalf("POST /cart/ %q: %d to %q, want 303 to /cart/", form, r.status, r.header.Get("Location"))
			}
			if cc := r.header.Get("Cache-Control"); cc != "no-store, private" {
				t.Errorf("POST /cart/: Cache-Control %q", cc)
			}
			return r
		}
		field := func(key, qty string) string {
			return url.QueryEscape("cart["+key+"][qty]") + "=" + url.QueryEscape(qty)
		}
		want := func(name string, got, want map[string]int) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: cart %v, want %v", name, got, want)
			}
		}

		// An update: the line changes, the hash cookie follows, the page says so once.
		oldHash := c.cookies["woocommerce_cart_hash"].Value
		post(c, field(tankKey, "5")+"&"+field(printKey, "1")+"&update_cart=Update+cart")
		want("update", c.cartLines(), map[string]int{"Cotton Tank Top": 5, "Limited Print: Coastline No. 3": 1})
		if h := c.cookies["woocommerce_cart_hash"]; h == nil || h.Value == oldHash || h.Value == "" {
			t.Errorf("the cart hash cookie did not change: %v", h)
		}
		page := c.do("GET", "/cart/", "")
		if !strings.Contains(page.raw, "Cart updated.") || !strings.Contains(page.raw, `value="5"`) {
			t.Errorf("cart page after the update lacks the notice or the quantity")
		}
		if again := c.do("GET", "/cart/", ""); strings.Contains(again.raw, "Cart updated.") {
			t.Errorf("the notice shows twice")
		}

		// Refusals by the cart rules: that line keeps its quantity, WooCommerce's message shows.
		post(c, field(printKey, "2")+"&update_cart=1")
		want("sold individually", c.cartLines(), map[string]int{"Cotton Tank Top": 5, "Limited Print: Coastline No. 3": 1})
		if page := c.do("GET", "/cart/", ""); !strings.Contains(page.raw, "The maximum quantity of") || strings.Contains(page.raw, "Cart updated.") {
			t.Errorf("refused update: the page lacks the maximum message")
		}

		// Bad input changes nothing and names the problem; forged keys are ignored.
		for qty, msg := range map[string]string{
			"abc": "Quantity must be a whole number.", "2.5": "Quantity must be a whole number.",
			"-1": "Quantity must be between 1 and", "100000000000": "Quantity must be between 1 and",
		} {
			post(c, field(tankKey, "3")+"&"+field(printKey, qty)+"&update_cart=1")
			want("bad quantity "+qty, c.cartLines(), map[string]int{"Cotton Tank Top": 5, "Limited Print: Coastline No. 3": 1})
			if page := c.do("GET", "/cart/", ""); !strings.Contains(page.raw, msg) {
				t.Errorf("bad quantity %q: the page lacks %q", qty, msg)
			}
		}
		post(c, field("0123456789abcdef0123456789abcdef", "3")+"&update_cart=1")
		post(c, field(tankKey, "4")) // no update_cart: not the update form
		want("forged key, no update_cart", c.cartLines(), map[string]int{"Cotton Tank Top": 5, "Limited Print: Coastline No. 3": 1})

		// A notice cookie only shows for the session it was made for.
		post(c, field(tankKey, "6")+"&update_cart=1")
		stolen := c.cookies["vitrine_cart_notices"]
		if stolen == nil || stolen.Value == "" {
			t.Fatal("no notice cookie after an update")
		}
		other := s.client()
		other.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		other.cookies["vitrine_cart_notices"] = stolen
		if page := other.do("GET", "/cart/", ""); strings.Contains(page.raw, "Cart updated.") {
			t.Errorf("another session shows the notice")
		}
		other.cookies["vitrine_cart_notices"] = &http.Cookie{Name: "vitrine_cart_notices", Value: "W3sia2luZCI6ImVycm9yIiwidGV4dCI6IkZha2UifV0.00"}
		if page := other.do("GET", "/cart/", ""); strings.Contains(page.raw, "Fake") {
			t.Errorf("a forged notice cookie shows")
		}

		// 0 removes the line; removing every line empties the cart and its cookie.
		post(c, field(tankKey, "0")+"&update_cart=1")
		want("zero", c.cartLines(), map[string]int{"Limited Print: Coastline No. 3": 1})
		post(c, field(printKey, "0")+"&update_cart=1")
		want("all removed", c.cartLines(), map[string]int{})
		if ck := c.cookies[itemsInCart]; ck != nil && ck.Value != "" {
			t.Errorf("items-in-cart cookie kept after emptying: %v", ck)
		}
		if page := c.do("GET", "/cart/", ""); !strings.Contains(page.raw, "Your cart is currently empty.") {
			t.Errorf("emptied cart: no empty state")
		}

		// No session: a redirect that creates nothing.
		n := s.client()
		if r := post(n, field(tankKey, "3")+"&update_cart=1"); len(r.header.Values("Set-Cookie")) != 0 {
			t.Errorf("POST /cart/ without a session set cookies: %v", r.header.Values("Set-Cookie"))
		}
	})
}

// The grouped product form without scripts: quantity[<id>]=N for several
// children at once.
func TestNoScriptGroupedAdd(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		set := s.productID("weekend-set")
		trousers := s.productID("drawstring-linen-trousers")
		scarf := s.productID("striped-lightweight-scarf")
		const page = "/product/weekend-set/"
		qty := func(id int64, q string) string { return url.QueryEscape(fmt.Sprintf("quantity[%d]", id)) + "=" + q }

		// Nothing chosen, or a bad quantity: back to the page, nothing added, no session.
		for _, form := range []string{
			qty(trousers, "0") + "&" + qty(scarf, ""),
			qty(trousers, "2") + "&" + qty(scarf, "abc"),
			qty(trousers, "2") + "&" + qty(scarf, "-1"),
		} {
			c := s.client()
			r := c.do("POST", page, "add-to-cart="+itoa(set)+"&"+form)
			if r.status != http.StatusSeeOther || r.header.Get("Location") != page {
				t.Errorf("%s: %d to %q, want 303 to the page", form, r.status, r.header.Get("Location"))
			}
			if len(r.header.Values("Set-Cookie")) != 0 || len(c.cartLines()) != 0 {
				t.Errorf("%s: something was added or a cookie set", form)
			}
		}

		// Two children at once.
		c := s.client()
		r := c.do("POST", page, "add-to-cart="+itoa(set)+"&"+qty(trousers, "2")+"&"+qty(scarf, "1"))
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/cart/" {
			t.Fatalf("grouped add: %d to %q", r.status, r.header.Get("Location"))
		}
		if got := c.cartLines(); got["Drawstring Linen Trousers"] != 2 || got["Striped Lightweight Scarf"] != 1 || len(got) != 2 {
			t.Errorf("grouped add: cart %v", got)
		}
		if c.cookies[itemsInCart] == nil || c.cookies[itemsInCart].Value != "1" {
			t.Errorf("grouped add: no items-in-cart cookie")
		}

		// One child refused (more than its stock): the other is added, the refusal shows on the cart page.
		c = s.client()
		r = c.do("POST", page, "add-to-cart="+itoa(set)+"&"+qty(trousers, "1")+"&"+qty(scarf, "500"))
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/cart/" {
			t.Fatalf("partly refused grouped add: %d to %q", r.status, r.header.Get("Location"))
		}
		if got := c.cartLines(); got["Drawstring Linen Trousers"] != 1 || len(got) != 1 {
			t.Errorf("partly refused grouped add: cart %v", got)
		}
		if p := c.do("GET", "/cart/", ""); !strings.Contains(p.raw, "You cannot add that amount to the cart") {
			t.Errorf("the cart page lacks the stock message")
		}
		// Every child refused: back to the page.
		c = s.client()
		r = c.do("POST", page, "add-to-cart="+itoa(set)+"&"+qty(scarf, "500"))
		if r.status != http.StatusSeeOther || r.header.Get("Location") != page || len(c.cartLines()) != 0 {
			t.Errorf("refused grouped add: %d to %q, %d lines", r.status, r.header.Get("Location"), len(c.cartLines()))
		}
	})
}

// cartLines is the quantity of each line of the client's cart by name.
func (c *client) cartLines() map[string]int {
	c.s.t.Helper()
	out := map[string]int{}
	for _, it := range c.do("GET", cartAPI, "").items() {
		out[it["name"].(string)] = int(it["quantity"].(float64))
	}
	return out
}
