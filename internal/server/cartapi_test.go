package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const cartAPI = "/wp-json/wc/store/v1/cart"

// client is one shopper: a cookie jar, the latest nonce, optionally a Cart-Token.
type client struct {
	s       *shop
	cookies map[string]*http.Cookie
	nonce   string
	token   string
	useTok  bool
}

func (s *shop) client() *client { return &client{s: s, cookies: map[string]*http.Cookie{}} }

type cartResp struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (c *client) do(method, path, body string, headers ...string) cartResp {
	c.s.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		if strings.HasPrefix(body, "{") {
			req.Header.Set("Content-Type", "application/json")
		} else {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	if c.useTok && c.token != "" {
		req.Header.Set("Cart-Token", c.token)
	} else if c.nonce != "" && method != http.MethodGet {
		req.Header.Set("Nonce", c.nonce)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	rec := httptest.NewRecorder()
	c.s.srv.ServeHTTP(rec, req)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		c.cookies[ck.Name] = ck
	}
	if n := res.Header.Get("Nonce"); n != "" {
		c.nonce = n
	}
	if t := res.Header.Get("Cart-Token"); t != "" && c.token == "" {
		c.token = t
	}
	out := cartResp{status: res.StatusCode, header: res.Header, raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &out.body)
	return out
}

// serveByToken serves a Store API request of the cart of token on h (no
// cookies, headless), its body JSON when not empty.
func serveByToken(h http.Handler, method, target, body, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Cart-Token", token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func (r cartResp) code() string { s, _ := r.body["code"].(string); return s }

func (r cartResp) items() []map[string]any {
	var out []map[string]any
	list, _ := r.body["items"].([]any)
	for _, it := range list {
		out = append(out, it.(map[string]any))
	}
	return out
}

func (s *shop) productID(slug string) int64 {
	s.t.Helper()
	p, err := s.db.ProductBySlug(context.Background(), slug)
	if err != nil {
		s.t.Fatalf("product %s: %v", slug, err)
	}
	return p.ID
}

func TestCartAPI(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		tee := s.productID("classic-tee")
		gift := s.productID("gift-card-50")
		draft := s.productID("alpaca-cardigan")

		t.Run("round trip with nonce", func(t *testing.T) {
			c := s.client()
			r := c.do("GET", cartAPI, "")
			if r.status != 200 || len(r.items()) != 0 || r.header.Get("Cache-Control") != "no-store, private" ||
				r.header.Get("User-ID") != "0" || len(r.header.Get("Nonce")) != 10 || r.header.Get("Nonce-Timestamp") == "" ||
				r.header.Get("Cart-Token") == "" || len(r.header.Values("Set-Cookie")) != 0 {
				t.Fatalf("empty cart: %d %v %s", r.status, r.header, r.raw)
			}
			for _, k := range []string{"items", "coupons", "fees", "totals", "shipping_address", "billing_address", "needs_payment",
				"needs_shipping", "payment_requirements", "has_calculated_shipping", "shipping_rates", "items_count", "items_weight",
				"cross_sells", "errors", "payment_methods", "extensions"} {
				if _, ok := r.body[k]; !ok {
					t.Errorf("cart has no %s", k)
				}
			}
			r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":2}`, tank))
			if r.status != 201 || len(r.items()) != 1 {
				t.Fatalf("add: %d %s", r.status, r.raw)
			}
			ck := r.header.Get("Set-Cookie")
			if !strings.HasPrefix(ck, "wp_woocommerce_session_") || !strings.Contains(ck, "HttpOnly") ||
				!strings.Contains(ck, "SameSite=Lax") || !strings.Contains(ck, "Secure") {
				t.Errorf("session cookie: %s", ck)
			}
			it := r.items()[0]
			if it["quantity"].(float64) != 2 || it["name"] != "Cotton Tank Top" || it["totals"].(map[string]any)["line_subtotal"] != "4400" ||
				it["prices"].(map[string]any)["price"] != "2200" || it["permalink"] != "https://shop.example/product/cotton-tank-top/" {
				t.Errorf("item: %v", it)
			}
			tot := r.body["totals"].(map[string]any)
			if tot["total_items"] != "4400" || tot["total_shipping"] != "500" || tot["total_price"] != "4900" || tot["currency_code"] != "USD" || r.body["items_count"].(float64) != 2 {
				t.Errorf("totals: %v count %v", tot, r.body["items_count"])
			}
			key := it["key"].(string)
			// Adding the same product again is the same line.
			r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf("id=%d&quantity=1", tank))
			if r.status != 201 || len(r.items()) != 1 || r.items()[0]["quantity"].(float64) != 3 {
				t.Fatalf("add again (form): %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":5}`, key))
			if r.status != 200 || r.items()[0]["quantity"].(float64) != 5 || r.body["totals"].(map[string]any)["total_price"] != "11000" {
				t.Fatalf("update: %d %s", r.status, r.raw)
			}
			r = c.do("GET", cartAPI+"/items/"+key, "")
			if r.status != 200 || r.body["key"] != key {
				t.Errorf("item get: %d %s", r.status, r.raw)
			}
			r = c.do("PUT", cartAPI+"/items/"+key, `{"quantity":4}`)
			if r.status != 200 || r.body["quantity"].(float64) != 4 {
				t.Errorf("item put: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/update-customer", `{"billing_address":{"first_name":"Ada","email":"ada@example.com","country":"DE"},"shipping_address":{"city":"Berlin","country":"DE"}}`)
			if r.status != 200 || r.body["billing_address"].(map[string]any)["email"] != "ada@example.com" ||
				r.body["shipping_address"].(map[string]any)["city"] != "Berlin" {
				t.Errorf("update-customer: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/update-customer", `{"billing_address":{"first_name":"`+strings.Repeat("a", 500)+`"}}`)
			if r.status != 400 || r.code() != "rest_invalid_param" {
				t.Errorf("long name: %d %s", r.status, r.raw)
			}
			// Berlin: only the European flat rate is offered.
			r = c.do("POST", cartAPI+"/select-shipping-rate", `{"package_id":0,"rate_id":"free_shipping:2"}`)
			if r.status != 400 || r.code() != "woocommerce_rest_cart_invalid_rate" {
				t.Errorf("rate not offered: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/select-shipping-rate", `{"package_id":0,"rate_id":"flat_rate:4"}`)
			if r.status != 200 || r.body["totals"].(map[string]any)["total_shipping"] != "1500" {
				t.Errorf("select rate: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/remove-item", fmt.Sprintf(`{"key":%q}`, key))
			if r.status != 200 || len(r.items()) != 0 || r.body["items_count"].(float64) != 0 {
				t.Fatalf("remove: %d %s", r.status, r.raw)
			}
			// A forged or already removed key: 409 with the cart.
			r = c.do("POST", cartAPI+"/remove-item", fmt.Sprintf(`{"key":%q}`, key))
			if r.status != 409 || r.code() != "woocommerce_rest_cart_invalid_key" {
				t.Fatalf("forged key: %d %s", r.status, r.raw)
			}
			if _, ok := r.body["data"].(map[string]any)["cart"].(map[string]any)["items"]; !ok {
				t.Errorf("forged key: no data.cart: %s", r.raw)
			}
			r = c.do("POST", cartAPI+"/update-item", `{"key":"00000000000000000000000000000000","quantity":1}`)
			if r.status != 409 || r.code() != "woocommerce_rest_cart_invalid_key" || r.body["data"].(map[string]any)["cart"] == nil {
				t.Errorf("update forged key: %d %s", r.status, r.raw)
			}
		})

		t.Run("headless with Cart-Token", func(t *testing.T) {
			c := s.client()
			c.useTok = true
			r := c.do("GET", cartAPI, "")
			if c.token == "" {
				t.Fatal("no Cart-Token")
			}
			r = c.do("POST", cartAPI+"/items", fmt.Sprintf(`{"id":%d,"quantity":1}`, tank))
			if r.status != 201 || r.body["quantity"].(float64) != 1 || len(r.header.Values("Set-Cookie")) != 0 {
				t.Fatalf("token add: %d %s %v", r.status, r.raw, r.header)
			}
			key := r.body["key"].(string)
			r = c.do("GET", cartAPI+"/items", "")
			if r.status != 200 || !strings.Contains(r.raw, key) {
				t.Errorf("token items: %d %s", r.status, r.raw)
			}
			r = c.do("DELETE", cartAPI+"/items/"+key, "")
			if r.status != 204 {
				t.Errorf("token delete: %d %s", r.status, r.raw)
			}
			// A tampered token names no session: the write needs a nonce.
			r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, tank), "Cart-Token", c.token+"x")
			if r.status != 401 || r.code() != "woocommerce_rest_missing_nonce" {
				t.Errorf("tampered token: %d %s", r.status, r.raw)
			}
		})

		t.Run("nonces", func(t *testing.T) {
			a, b := s.client(), s.client()
			a.do("GET", cartAPI, "")
			b.do("GET", cartAPI, "")
			r := a.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, tank), "Nonce", "")
			if r.status != 401 || r.code() != "woocommerce_rest_missing_nonce" || r.header.Get("Cache-Control") != "no-store, private" {
				t.Errorf("missing nonce: %d %s", r.status, r.raw)
			}
			r = a.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, tank), "Nonce", "0123456789")
			if r.status != 403 || r.code() != "woocommerce_rest_invalid_nonce" {
				t.Errorf("wrong nonce: %d %s", r.status, r.raw)
			}
			a.do("GET", cartAPI, "")
			if r := a.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, tank)); r.status != 201 {
				t.Fatalf("a add: %d %s", r.status, r.raw)
			}
			if r := b.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":3}`, gift)); r.status != 400 {
				t.Errorf("b add gift x3: %d %s", r.status, r.raw)
			}
			if r := b.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, gift)); r.status != 201 {
				t.Fatalf("b add: %d %s", r.status, r.raw)
			}
			// b's nonce with a's cookie is refused.
			r = a.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, tank), "Nonce", b.nonce)
			if r.status != 403 || r.code() != "woocommerce_rest_invalid_nonce" {
				t.Errorf("foreign nonce: %d %s", r.status, r.raw)
			}
			// Two sessions never see each other's cart.
			ra, rb := a.do("GET", cartAPI, ""), b.do("GET", cartAPI, "")
			if len(ra.items()) != 1 || ra.items()[0]["id"].(float64) != float64(tank) ||
				len(rb.items()) != 1 || rb.items()[0]["id"].(float64) != float64(gift) {
				t.Errorf("sessions mixed: a=%s b=%s", ra.raw, rb.raw)
			}
			// Sold individually: a second add is refused and changes nothing.
			r = b.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d}`, gift))
			if r.status != 400 || r.code() != "woocommerce_rest_cart_product_sold_individually" {
				t.Errorf("sold individually twice: %d %s", r.status, r.raw)
			}
			if rb := b.do("GET", cartAPI, ""); rb.items()[0]["quantity"].(float64) != 1 {
				t.Errorf("sold individually changed the cart: %s", rb.raw)
			}
		})

		t.Run("bad input", func(t *testing.T) {
			c := s.client()
			c.do("GET", cartAPI, "")
			if r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, tank)); r.status != 201 {
				t.Fatalf("add: %d %s", r.status, r.raw)
			}
			for _, q := range []string{"-1", "0", "1.5", "1e9", `"abc"`, "99999999999999999999", `""`, "null", "true"} {
				r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":%s}`, tank, q))
				if r.status != 400 || r.code() != "woocommerce_rest_product_invalid_quantity" {
					t.Errorf("quantity %s: %d %s", q, r.status, r.raw)
				}
			}
			cases := []struct{ name, body, code string }{
				{"unknown product", `{"id":999999}`, "woocommerce_rest_cart_invalid_product"},
				{"no id", `{"quantity":1}`, "woocommerce_rest_cart_invalid_product"},
				{"draft", fmt.Sprintf(`{"id":%d}`, draft), "woocommerce_rest_cart_invalid_product"},
				{"variable without variation", fmt.Sprintf(`{"id":%d}`, tee), "woocommerce_rest_missing_variation_data"},
				{"variable missing size", fmt.Sprintf(`{"id":%d,"variation":[{"attribute":"pa_color","value":"rust"}]}`, tee), "woocommerce_rest_missing_variation_data"},
				{"no such variation", fmt.Sprintf(`{"id":%d,"variation":[{"attribute":"pa_color","value":"purple"},{"attribute":"pa_size","value":"xxl"}]}`, tee), "woocommerce_rest_variation_id_from_variation_data"},
				{"out of stock variation", fmt.Sprintf(`{"id":%d,"variation":[{"attribute":"pa_color","value":"navy"},{"attribute":"pa_size","value":"xs"}]}`, tee), "woocommerce_rest_product_out_of_stock"},
				{"above stock", fmt.Sprintf(`{"id":%d,"quantity":4,"variation":[{"attribute":"attribute_pa_color","value":"rust"},{"attribute":"attribute_pa_size","value":"xxl"}]}`, tee), "woocommerce_rest_product_partially_out_of_stock"},
				{"bad json", `{"id":`, "rest_invalid_param"},
			}
			for _, cs := range cases {
				r := c.do("POST", cartAPI+"/add-item", cs.body)
				if r.status != 400 || r.code() != cs.code {
					t.Errorf("%s: %d %s", cs.name, r.status, r.raw)
				}
			}
			r := c.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":0}`, c.do("GET", cartAPI, "").items()[0]["key"]))
			if r.status != 400 {
				t.Errorf("update to 0: %d %s", r.status, r.raw)
			}
			// Nothing above changed the cart.
			r = c.do("GET", cartAPI, "")
			if len(r.items()) != 1 || r.items()[0]["quantity"].(float64) != 1 {
				t.Errorf("bad input changed the cart: %s", r.raw)
			}

			// Stock: 3 Rust XXL; 2, then 1 more, then 1 more is refused with WooCommerce's message.
			rust := `"variation":[{"attribute":"pa_color","value":"rust"},{"attribute":"pa_size","value":"xxl"}]`
			if r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":2,%s}`, tee, rust)); r.status != 201 {
				t.Fatalf("rust x2: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":2,%s}`, tee, rust))
			want := "You cannot add that amount to the cart &mdash; we have 3 in stock and you already have 2 in your cart."
			if r.status != 400 || r.body["message"] != want {
				t.Errorf("above stock: %d %s", r.status, r.raw)
			}
			r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1,%s}`, tee, rust))
			if r.status != 201 {
				t.Fatalf("rust +1: %d %s", r.status, r.raw)
			}
			var line map[string]any
			for _, it := range r.items() {
				if it["id"].(float64) != float64(tank) {
					line = it
				}
			}
			if line["quantity"].(float64) != 3 || line["prices"].(map[string]any)["price"] != "2800" ||
				fmt.Sprint(line["variation"]) != "[map[attribute:Color value:Rust] map[attribute:Size value:XXL]]" {
				t.Errorf("rust line: %v", line)
			}
		})

		t.Run("100 concurrent adds", func(t *testing.T) {
			c := s.client()
			c.useTok = true
			c.do("GET", cartAPI, "")
			var wg sync.WaitGroup
			errs := make(chan string, 100)
			for range 100 {
				wg.Go(func() {
					rec := serveByToken(s.srv, "POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, tank), c.token)
					if rec.Code != 201 {
						errs <- fmt.Sprintf("%d %s", rec.Code, rec.Body.String())
					}
				})
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			r := c.do("GET", cartAPI, "")
			if len(r.items()) != 1 || r.items()[0]["quantity"].(float64) != 100 {
				t.Errorf("after 100 adds: %s", r.raw)
			}
		})

		t.Run("race for the last units", func(t *testing.T) {
			a, b := s.client(), s.client()
			rust := fmt.Sprintf(`{"id":%d,"quantity":3,"variation":[{"attribute":"pa_color","value":"rust"},{"attribute":"pa_size","value":"xxl"}]}`, tee)
			a.do("GET", cartAPI, "")
			b.do("GET", cartAPI, "")
			var wg sync.WaitGroup
			for _, c := range []*client{a, b} {
				wg.Go(func() {
					rec := serveByToken(s.srv, "POST", cartAPI+"/add-item", rust, c.token)
					if rec.Code != 201 {
						t.Errorf("race add: %d %s", rec.Code, rec.Body.String())
					}
				})
			}
			wg.Wait()
			// Stock is not reserved by carts: both keep a valid cart (checkout checks again).
			for _, c := range []*client{a, b} {
				c.useTok = true
				r := c.do("GET", cartAPI, "")
				if r.status != 200 || len(r.items()) != 1 || r.items()[0]["quantity"].(float64) != 3 {
					t.Errorf("race cart: %s", r.raw)
				}
			}
		})
	})
}

// TestCartParentStock: variations without stock of their own sell from the
// parent's stock, shared between the cart's lines, and a stock change is
// seen by the very next add (the product cache follows the change log).
func TestCartParentStock(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		setStock := func(qty int64) []int64 {
			p, err := s.db.ProductBySlug(ctx, "classic-tee")
			if err != nil {
				t.Fatal(err)
			}
			vars, err := s.db.Variations(ctx, p.ID)
			if err != nil || len(vars) < 2 {
				t.Fatalf("variations: %d %v", len(vars), err)
			}
			p.ManageStock, p.StockQuantity, p.Backorders = true, &qty, "no"
			var ids []int64
			for _, v := range vars {
				v.ManageStock, v.StockQuantity = false, nil
				ids = append(ids, v.ID)
			}
			if _, err := s.db.SaveProduct(ctx, p, vars); err != nil {
				t.Fatal(err)
			}
			return ids
		}
		ids := setStock(3)
		c := s.client()
		c.useTok = true
		c.do("GET", cartAPI, "")
		add := func(id, qty int64) cartResp {
			return c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":%d}`, id, qty))
		}
		if r := add(ids[0], 2); r.status != 201 {
			t.Fatalf("first variation: %d %s", r.status, r.raw)
		}
		r := add(ids[1], 2)
		if r.status != 400 || r.code() != "woocommerce_rest_product_partially_out_of_stock" ||
			!strings.Contains(r.body["message"].(string), "we have 3 in stock and you already have 2 in your cart") {
			t.Fatalf("over the shared stock: %d %s", r.status, r.raw)
		}
		r = add(ids[1], 1)
		if r.status != 201 || len(r.items()) != 2 {
			t.Fatalf("within the shared stock: %d %s", r.status, r.raw)
		}
		// The item shows the parent's stock limits.
		for _, it := range r.items() {
			if lim := it["quantity_limits"].(map[string]any); lim["maximum"].(float64) != 3 {
				t.Errorf("item %v limits %v, want maximum 3", it["id"], lim)
			}
		}
		// Updating a line counts the other lines too.
		key := r.items()[1]["key"].(string)
		if u := c.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":2}`, key)); u.status != 400 ||
			u.code() != "woocommerce_rest_product_partially_out_of_stock" {
			t.Errorf("update over the shared stock: %d %s", u.status, u.raw)
		}
		// More stock: the next add sees it at once.
		setStock(10)
		if r := add(ids[1], 5); r.status != 201 {
			t.Errorf("after restock: %d %s", r.status, r.raw)
		}
		// Out of stock: refused at once.
		setStock(0)
		if r := add(ids[0], 1); r.status != 400 || r.code() != "woocommerce_rest_product_out_of_stock" && r.code() != "woocommerce_rest_product_partially_out_of_stock" {
			t.Errorf("after selling out: %d %s", r.status, r.raw)
		}
	})
}
