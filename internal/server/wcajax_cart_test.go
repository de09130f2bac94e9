package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// wcClient posts wc-ajax forms with a cookie jar.
type wcClient struct {
	s       *shop
	cookies map[string]*http.Cookie
}

type wcResp struct {
	res  *http.Response
	raw  string
	body map[string]any
}

func (c *wcClient) post(endpoint string, form url.Values) wcResp {
	c.s.t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/?wc-ajax="+endpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	c.s.srv.ServeHTTP(rec, req)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck
		}
	}
	out := wcResp{res: res, raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &out.body)
	return out
}

func (r wcResp) cookie(name string) *http.Cookie {
	for _, c := range r.res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (r wcResp) fragments() map[string]any { f, _ := r.body["fragments"].(map[string]any); return f }

func TestWCAjaxCart(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := productID(t, s.db, "cotton-tank-top")
		tee := productID(t, s.db, "classic-tee")
		draft := productID(t, s.db, "alpaca-cardigan")
		c := &wcClient{s: s, cookies: map[string]*http.Cookie{}}
		headers := func(name string, r wcResp) {
			t.Helper()
			if r.res.StatusCode != 200 {
				t.Errorf("%s: status %d: %s", name, r.res.StatusCode, r.raw)
			}
			for h, want := range map[string]string{
				"Content-Type": "application/json; charset=UTF-8", "X-Robots-Tag": "noindex",
				"Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private",
			} {
				if got := r.res.Header.Get(h); got != want {
					t.Errorf("%s: %s = %q, want %q", name, h, got, want)
				}
			}
		}

		// A new visitor's refresh: the empty mini cart, no hash, no cookies.
		r := c.post("get_refreshed_fragments", url.Values{"time": {"1"}})
		headers("refresh empty", r)
		if f := r.fragments(); !strings.Contains(f["div.widget_shopping_cart_content"].(string), "No products in the cart.") ||
			r.body["cart_hash"] != "" || len(r.res.Cookies()) != 0 {
			t.Errorf("empty refresh: %s %v", r.raw, r.res.Header["Set-Cookie"])
		}

		// No product_id: an empty body.
		r = c.post("add_to_cart", url.Values{"quantity": {"1"}})
		headers("no product_id", r)
		if r.raw != "" {
			t.Errorf("no product_id: %q", r.raw)
		}

		// Refusals: error and the product's URL (the shop page for what has no page).
		refused := map[string]struct {
			form url.Values
			url  string
		}{
			"unknown":         {url.Values{"product_id": {"999999"}}, "https://shop.example/shop/"},
			"not a number":    {url.Values{"product_id": {"abc"}}, "https://shop.example/shop/"},
			"draft":           {url.Values{"product_id": {draft}}, "https://shop.example/shop/"},
			"variable parent": {url.Values{"product_id": {tee}}, "https://shop.example/product/classic-tee/"},
			"quantity 0":      {url.Values{"product_id": {tank}, "quantity": {"0"}}, "https://shop.example/product/cotton-tank-top/"},
			"quantity -1":     {url.Values{"product_id": {tank}, "quantity": {"-1"}}, "https://shop.example/product/cotton-tank-top/"},
			"quantity abc":    {url.Values{"product_id": {tank}, "quantity": {"abc"}}, "https://shop.example/product/cotton-tank-top/"},
		}
		for name, tc := range refused {
			r := c.post("add_to_cart", tc.form)
			headers(name, r)
			if r.body["error"] != true || r.body["product_url"] != tc.url || len(r.body) != 2 {
				t.Errorf("%s: %s", name, r.raw)
			}
			if len(r.res.Cookies()) != 0 {
				t.Errorf("%s: cookies set on a refusal: %v", name, r.res.Header["Set-Cookie"])
			}
		}

		// A simple product, with the other data attributes ignored.
		r = c.post("add_to_cart", url.Values{"product_id": {tank}, "quantity": {"2"}, "product_sku": {"x"}, "success_message": {"y"}})
		headers("add", r)
		f := r.fragments()
		mini, _ := f["div.widget_shopping_cart_content"].(string)
		count, _ := f["span.header-cart-count"].(string)
		if !strings.HasPrefix(mini, `<div class="widget_shopping_cart_content">`) || !strings.HasSuffix(mini, "</div>") ||
			!strings.Contains(mini, "Cotton Tank Top") || !strings.Contains(mini, `class="remove remove_from_cart_button"`) ||
			!strings.Contains(mini, "View cart") || !strings.Contains(mini, "Checkout") {
			t.Errorf("mini cart fragment: %s", mini)
		}
		if !strings.HasPrefix(count, `<span class="header-cart-count">`) || !strings.Contains(count, ">2</span>") {
			t.Errorf("count fragment: %s", count)
		}
		hash, _ := r.body["cart_hash"].(string)
		if len(hash) != 32 {
			t.Errorf("cart_hash %q", hash)
		}
		if ck := r.cookie("woocommerce_items_in_cart"); ck == nil || ck.Value != "1" || ck.Path != "/" || ck.HttpOnly {
			t.Errorf("items_in_cart cookie %v", ck)
		}
		if ck := r.cookie("woocommerce_cart_hash"); ck == nil || ck.Value != hash || ck.Path != "/" || ck.HttpOnly {
			t.Errorf("cart_hash cookie %v", ck)
		}
		var session *http.Cookie
		for _, ck := range r.res.Cookies() {
			if strings.HasPrefix(ck.Name, "wp_woocommerce_session_") {
				session = ck
			}
		}
		if session == nil || !session.HttpOnly {
			t.Errorf("session cookie %v", session)
		}

		// A variation id is enough (rust / XXL of the tee).
		v := decode[map[string]any](t, s.wcAjax("get_variation", url.Values{"product_id": {tee}, "attribute_pa_color": {"rust"}, "attribute_pa_size": {"xxl"}}))
		vid := itoa(int64(v["variation_id"].(float64)))
		r = c.post("add_to_cart", url.Values{"product_id": {vid}})
		headers("variation", r)
		if mini, _ := r.fragments()["div.widget_shopping_cart_content"].(string); !strings.Contains(mini, "Classic Tee") {
			t.Errorf("variation add: %s", r.raw)
		}
		if r.cookie("woocommerce_items_in_cart") != nil {
			t.Errorf("items_in_cart rewritten although unchanged")
		}
		if ck := r.cookie("woocommerce_cart_hash"); ck == nil || ck.Value == hash || ck.Value != r.body["cart_hash"] {
			t.Errorf("cart_hash cookie after a change: %v", ck)
		}
		// Over the variation's stock (3 left, 1 in the cart).
		r = c.post("add_to_cart", url.Values{"product_id": {vid}, "quantity": {"3"}})
		if r.body["error"] != true || r.body["product_url"] != "https://shop.example/product/classic-tee/" {
			t.Errorf("variation over stock: %s", r.raw)
		}

		// Refresh: same hash, no cookie written.
		r = c.post("get_refreshed_fragments", nil)
		headers("refresh", r)
		if !strings.Contains(r.fragments()["span.header-cart-count"].(string), ">3</span>") || len(r.res.Cookies()) != 0 {
			t.Errorf("refresh: %s %v", r.raw, r.res.Header["Set-Cookie"])
		}

		// A second visitor sees none of it.
		other := &wcClient{s: s, cookies: map[string]*http.Cookie{}}
		r = other.post("get_refreshed_fragments", nil)
		if r.body["cart_hash"] != "" || !strings.Contains(r.raw, "No products in the cart.") {
			t.Errorf("second session: %s", r.raw)
		}

		// Remove: unknown keys fail, known ones answer fragments.
		for _, key := range []string{"", "00000000000000000000000000000000"} {
			r = c.post("remove_from_cart", url.Values{"cart_item_key": {key}})
			headers("remove unknown", r)
			if r.raw != `{"success":false}` {
				t.Errorf("remove %q: %s", key, r.raw)
			}
		}
		mini = c.post("get_refreshed_fragments", nil).fragments()["div.widget_shopping_cart_content"].(string)
		var keys []string
		for _, part := range strings.Split(mini, `data-cart_item_key="`)[1:] {
			keys = append(keys, part[:32])
		}
		if len(keys) != 2 {
			t.Fatalf("keys in the mini cart: %v", keys)
		}
		// Another session cannot remove this one's lines.
		if r = other.post("remove_from_cart", url.Values{"cart_item_key": {keys[0]}}); r.raw != `{"success":false}` {
			t.Errorf("other session removed a line: %s", r.raw)
		}
		r = c.post("remove_from_cart", url.Values{"cart_item_key": {keys[0]}})
		headers("remove", r)
		if r.fragments() == nil || r.cookie("woocommerce_items_in_cart") != nil {
			t.Errorf("remove: %s", r.raw)
		}
		r = c.post("remove_from_cart", url.Values{"cart_item_key": {keys[1]}})
		if !strings.Contains(r.raw, "No products in the cart.") || r.body["cart_hash"] != "" {
			t.Errorf("remove last: %s", r.raw)
		}
		if ck := r.cookie("woocommerce_items_in_cart"); ck == nil || ck.MaxAge >= 0 {
			t.Errorf("items_in_cart not deleted: %v", ck)
		}
		if ck := r.cookie("woocommerce_cart_hash"); ck == nil || ck.Value != "" {
			t.Errorf("cart_hash not emptied: %v", ck)
		}
	})
}
