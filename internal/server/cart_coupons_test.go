package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/coupon"
)

// The Store API's coupon routes (cart_coupons.go): WooCommerce's shapes,
// codes and messages; a refusal changes nothing.

func (s *shop) coupon(c coupon.Coupon) {
	s.t.Helper()
	now := s.db.Now() // the shop's clock
	c.Created, c.Updated = now, now
	if _, err := s.db.CreateCoupon(context.Background(), &c); err != nil {
		s.t.Fatal(err)
	}
}

func TestCartCoupons(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		past := s.db.Now().Add(-time.Hour) // an hour ago on the shop's clock
		s.coupon(coupon.Coupon{Code: "save10", Type: coupon.Percent, Amount: 10_000})
		s.coupon(coupon.Coupon{Code: "five", Type: coupon.FixedCart, Amount: 500})
		s.coupon(coupon.Coupon{Code: "gone", Type: coupon.FixedCart, Amount: 500, Expires: &past})
		c := s.client()
		c.do("GET", cartAPI, "")
		r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":2}`, s.productID("cotton-tank-top")))
		if r.status != 201 {
			t.Fatalf("add: %d %s", r.status, r.raw)
		}
		totals := r.body["totals"].(map[string]any)
		items := atoi(totals["total_items"].(string))

		// Refusals: the Store API's error shape, the cart unchanged.
		for _, tc := range []struct{ body, code, msg string }{
			{`{"code":""}`, "woocommerce_rest_cart_coupon_error", "Please enter a coupon code."},
			{`{"code":"nope"}`, "woocommerce_rest_cart_coupon_error", `Coupon "nope" cannot be applied because it does not exist.`},
			{`{"code":"GONE"}`, "woocommerce_rest_cart_coupon_error", `Coupon "gone" has expired.`},
		} {
			r := c.do("POST", cartAPI+"/apply-coupon", tc.body)
			if r.status != 400 || r.code() != tc.code || r.body["message"] != tc.msg || r.body["data"].(map[string]any)["status"] != float64(400) {
				t.Errorf("%s: %d %s", tc.body, r.status, r.raw)
			}
		}
		if r := c.do("POST", cartAPI+"/apply-coupon", `{"code":"save10"}`, "Nonce", ""); r.status != 401 || r.code() != "woocommerce_rest_missing_nonce" {
			t.Errorf("no nonce: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", cartAPI, ""); len(r.body["coupons"].([]any)) != 0 || r.body["totals"].(map[string]any)["total_discount"] != "0" {
			t.Fatalf("after refusals: %s", r.raw)
		}

		// Apply: the cart answers with the coupon and the discount.
		r = c.do("POST", cartAPI+"/apply-coupon", `{"code":"Save10"}`)
		if r.status != 200 {
			t.Fatalf("apply: %d %s", r.status, r.raw)
		}
		cps := r.body["coupons"].([]any)
		totals = r.body["totals"].(map[string]any)
		want := (items + 5) / 10
		if len(cps) != 1 {
			t.Fatalf("coupons: %s", r.raw)
		}
		cp := cps[0].(map[string]any)
		ct := cp["totals"].(map[string]any)
		if cp["code"] != "save10" || cp["discount_type"] != "percent" || atoi(ct["total_discount"].(string)) != want ||
			ct["currency_code"] != "USD" || atoi(totals["total_discount"].(string)) != want ||
			atoi(totals["total_price"].(string)) != atoi(totals["total_items"].(string))+atoi(totals["total_items_tax"].(string))-
				want-atoi(totals["total_discount_tax"].(string))+atoi(totals["total_shipping"].(string))+atoi(totals["total_shipping_tax"].(string)) {
			t.Errorf("applied: %s", r.raw)
		}
		if line := r.items()[0]["totals"].(map[string]any); atoi(line["line_total"].(string)) != items-want {
			t.Errorf("line totals %v", line)
		}
		if r := c.do("POST", cartAPI+"/apply-coupon", `{"code":"save10"}`); r.status != 400 || r.body["message"] != `Coupon code "save10" has already been applied.` {
			t.Errorf("again: %d %s", r.status, r.raw)
		}

		// The REST-style routes.
		if r := c.do("POST", cartAPI+"/coupons", `{"code":"five"}`); r.status != 201 || r.body["code"] != "five" ||
			r.body["totals"].(map[string]any)["total_discount"] != "500" || r.header.Get("Cart-Hash") == "" {
			t.Errorf("post coupons: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", cartAPI+"/coupons", ""); r.status != 200 || len(r.list()) != 2 {
			t.Errorf("get coupons: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", cartAPI+"/coupons/five", ""); r.status != 200 || r.body["discount_type"] != "fixed_cart" {
			t.Errorf("get coupon: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", cartAPI+"/coupons/nope", ""); r.status != 404 || r.code() != "woocommerce_rest_cart_coupon_invalid_code" ||
			r.body["message"] != "Coupon does not exist in the cart." {
			t.Errorf("get unknown coupon: %d %s", r.status, r.raw)
		}
		if r := c.do("DELETE", cartAPI+"/coupons/five", ""); r.status != 204 {
			t.Errorf("delete coupon: %d %s", r.status, r.raw)
		}
		if r := c.do("POST", cartAPI+"/remove-coupon", `{"code":"five"}`); r.status != 409 || r.code() != "woocommerce_rest_cart_coupon_invalid_code" ||
			r.body["data"].(map[string]any)["cart"] == nil {
			t.Errorf("remove a coupon not applied: %d %s", r.status, r.raw)
		}
		r = c.do("POST", cartAPI+"/remove-coupon", `{"code":"save10"}`)
		if r.status != 200 || len(r.body["coupons"].([]any)) != 0 || r.body["totals"].(map[string]any)["total_discount"] != "0" {
			t.Errorf("remove: %d %s", r.status, r.raw)
		}
		c.do("POST", cartAPI+"/apply-coupon", `{"code":"save10"}`)
		if r := c.do("DELETE", cartAPI+"/coupons", ""); r.status != 200 || r.raw != "[]" {
			t.Errorf("delete all: %d %s", r.status, r.raw)
		}
	})
}

func (r cartResp) list() []any {
	var out []any
	_ = json.Unmarshal([]byte(r.raw), &out)
	return out
}

// The cart page's coupon form and remove links without scripts.
func TestCartCouponsNoScript(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		s.coupon(coupon.Coupon{Code: "save10", Type: coupon.Percent, Amount: 10_000})
		c := s.client()
		c.do("GET", cartAPI, "")
		if r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top"))); r.status != 201 {
			t.Fatalf("add: %d", r.status)
		}
		page := func() string {
			r := c.do("GET", "/cart/", "")
			if r.status != 200 {
				t.Fatalf("cart page: %d", r.status)
			}
			return r.raw
		}
		if r := c.do("POST", "/cart/", "coupon_code=nope&apply_coupon=Apply+coupon"); r.status != 303 || r.header.Get("Location") != "/cart/" {
			t.Fatalf("apply: %d %v", r.status, r.header)
		}
		if p := page(); !strings.Contains(p, `cannot be applied because it does not exist.`) {
			t.Errorf("refusal not shown: %.300s", p)
		}
		c.do("POST", "/cart/", "coupon_code=SAVE10&apply_coupon=Apply+coupon")
		p := page()
		if !strings.Contains(p, "Coupon code applied successfully.") || !strings.Contains(p, "Coupon: save10") ||
			!strings.Contains(p, `name="coupon_code"`) {
			t.Fatalf("applied: %s", p)
		}
		m := regexp.MustCompile(`remove_coupon=save10&amp;_wpnonce=([0-9a-f]+)`).FindStringSubmatch(p)
		if m == nil {
			t.Fatalf("no remove link: %s", p)
		}
		// Without the session's nonce the link changes nothing.
		c.do("GET", "/cart/?remove_coupon=save10&_wpnonce=0000000000", "")
		if p := page(); !strings.Contains(p, "The link you followed has expired.") || !strings.Contains(p, "Coupon: save10") {
			t.Errorf("a link without the nonce removed the coupon")
		}
		if r := c.do("GET", "/cart/?remove_coupon=save10&_wpnonce="+m[1], ""); r.status != 303 {
			t.Fatalf("remove: %d", r.status)
		}
		if p := page(); !strings.Contains(p, "Coupon has been removed.") || strings.Contains(p, "Coupon: save10") {
			t.Errorf("removed: %s", p)
		}
	})
}
