package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestPaymentTextsEscapedInPages: the bank-transfer description and
// account name and the cash-on-delivery instructions, saved in the admin's
// payment settings with markup in them, are text on the server-rendered
// /checkout/ and order-received pages: no element they name is in the
// HTML, only the escaped characters typed.
func TestPaymentTextsEscapedInPages(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/vitrine/v1/admin/payments"
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		get := f.do("GET", path, mia, "", "X-WP-Nonce", nonce)
		if get.status != 200 {
			t.Fatalf("get: %d %s", get.status, get.body)
		}
		const evil = "<img src=x onerror=alert(1)> <h1>Bank changed</h1> <script>alert(1)</script>"
		doc := get.json(t)
		bacs := doc["bacs"].(map[string]any)
		bacs["enabled"] = true
		bacs["description"] = "Pay us. " + evil
		accounts, _ := bacs["accounts"].([]any)
		if len(accounts) == 0 {
			accounts = []any{map[string]any{"account_number": "000123456789", "bank_name": "Demo Bank"}}
		}
		accounts[0].(map[string]any)["account_name"] = "Shop " + evil
		bacs["accounts"] = accounts
		cod := doc["cod"].(map[string]any)
		cod["enabled"] = true
		cod["instructions"] = "Cash please. " + evil
		body, _ := json.Marshal(doc)
		if a := f.do("PUT", path, mia, string(body), "X-WP-Nonce", nonce, "Content-Type", "application/json"); a.status != 200 {
			t.Fatalf("save: %d %s", a.status, a.body)
		}

		noMarkup := func(what, html string) {
			t.Helper()
			for _, bad := range []string{"<img src=x", "<img src=\"x\"", "<h1>Bank changed", "<script>alert(1)"} {
				if strings.Contains(html, bad) {
					t.Errorf("%s: %q is markup in the page", what, bad)
				}
			}
			if !strings.Contains(html, "&lt;h1>Bank changed&lt;/h1>") {
				t.Errorf("%s: the typed text is not shown escaped", what)
			}
		}
		s := f.shop
		c := s.client()
		c.addItem(s.productID("cotton-tank-top"), 1)
		page := c.do("GET", "/checkout/", "")
		if page.status != 200 {
			t.Fatalf("checkout: %d", page.status)
		}
		noMarkup("checkout", page.raw)

		for _, method := range []string{"bacs", "cod"} {
			c.addItem(s.productID("cotton-tank-top"), 1)
			r := c.do("POST", checkoutAPI, strings.Replace(checkoutBody(goodBilling(), ""), `"bacs"`, `"`+method+`"`, 1), "Nonce", c.nonce)
			if r.status != 200 {
				t.Fatalf("%s checkout: %d %s", method, r.status, r.raw)
			}
			got := c.do("GET", fmt.Sprintf("/checkout/order-received/%d/?key=%s", num(r.body["order_id"]), r.body["order_key"]), "")
			if got.status != 200 {
				t.Fatalf("%s order received: %d", method, got.status)
			}
			noMarkup(method+" order received", got.raw)
			want := map[string]string{"bacs": "Shop &lt;img", "cod": "Cash please. &lt;img"}[method]
			if !strings.Contains(got.raw, want) {
				t.Errorf("%s order received: %q not shown", method, want)
			}
		}
	})
}
