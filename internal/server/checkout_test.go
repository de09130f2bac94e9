package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

const checkoutAPI = "/wp-json/wc/store/v1/checkout"

func checkoutBody(billing map[string]string, extra string) string {
	b, _ := json.Marshal(billing)
	s := `{"billing_address":` + string(b) + `,"payment_method":"bacs"`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func goodBilling() map[string]string {
	return map[string]string{"first_name": "Ada", "last_name": "Lovelace", "address_1": "1 Main St", "city": "Sacramento",
		"state": "CA", "postcode": "95814", "country": "US", "email": "ada@example.com", "phone": "+1 555 010 0200"}
}

func withBilling(edit func(m map[string]string)) map[string]string {
	m := goodBilling()
	edit(m)
	return m
}

// pageData extracts a page's inlined data.
func pageData(t *testing.T, html string, v any) {
	t.Helper()
	const open = `<script id="vitrine-data" type="application/json">`
	i := strings.Index(html, open)
	if i < 0 {
		t.Fatal("no page data")
	}
	raw := html[i+len(open):]
	raw = raw[:strings.Index(raw, "</script>")]
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		t.Fatalf("page data: %v", err)
	}
}

// pageDataAs is a page's inlined data read as a T.
func pageDataAs[T any](t *testing.T, html string) T {
	t.Helper()
	var v T
	pageData(t, html, &v)
	return v
}

// addItem puts a product in the client's cart (getting a nonce first).
func (c *client) addItem(id int64, qty int) {
	c.s.t.Helper()
	if c.nonce == "" && !c.useTok {
		c.do("GET", cartAPI, "")
	}
	r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":%d}`, id, qty))
	if r.status != 201 {
		c.s.t.Fatalf("add %d: %d %s", id, r.status, r.raw)
	}
}

func (s *shop) order(id int64) *checkout.Order {
	s.t.Helper()
	o, err := s.db.Order(context.Background(), id)
	if err != nil {
		s.t.Fatalf("order %d: %v", id, err)
	}
	return o
}

func (s *shop) noOrder(id int64) bool {
	_, err := s.db.Order(context.Background(), id)
	return errors.Is(err, sqlstore.ErrOrderNotFound)
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func TestCheckoutStoreAPI(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		c := s.client()
		c.do("GET", cartAPI, "")

		// Nonces: required on GET and POST; another session's is refused.
		if r := c.do("GET", checkoutAPI, ""); r.status != 401 || r.code() != "woocommerce_rest_missing_nonce" {
			t.Errorf("GET without nonce: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", checkoutAPI, "", "Nonce", c.nonce); r.status != 400 || r.code() != "woocommerce_rest_cart_empty" {
			t.Errorf("empty cart: %d %s", r.status, r.raw)
		}
		c.addItem(tank, 2)
		other := s.client()
		other.addItem(tank, 1)
		if r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", other.nonce); r.status != 403 || r.code() != "woocommerce_rest_invalid_nonce" {
			t.Errorf("foreign nonce: %d %s", r.status, r.raw)
		}
		if r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", "0123456789"); r.status != 403 {
			t.Errorf("forged nonce: %d", r.status)
		}
		if r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", ""); r.status != 401 {
			t.Errorf("missing nonce: %d", r.status)
		}

		r := c.do("GET", checkoutAPI, "", "Nonce", c.nonce)
		if r.status != 200 || r.body["status"] != "checkout-draft" || num(r.body["order_id"]) != 0 || r.body["customer_id"].(float64) != 0 ||
			r.header.Get("Cache-Control") != "no-store, private" {
			t.Fatalf("draft: %d %s", r.status, r.raw)
		}
		for _, k := range []string{"order_key", "customer_note", "billing_address", "shipping_address", "payment_method", "payment_result"} {
			if _, ok := r.body[k]; !ok {
				t.Errorf("draft lacks %s", k)
			}
		}

		// Bad input: the documented error, and nothing changes.
		bad := []struct {
			name, body, code, field, msg string
			status                       int
		}{
			{"missing first name", checkoutBody(withBilling(func(m map[string]string) { delete(m, "first_name") }), ""),
				"rest_invalid_param", "billing_first_name", "Billing First name is a required field.", 400},
			{"unknown country", checkoutBody(withBilling(func(m map[string]string) { m["country"] = "ZZ" }), ""),
				"rest_invalid_param", "billing_country", "'ZZ' is not a valid country code.", 400},
			{"bad email", checkoutBody(withBilling(func(m map[string]string) { m["email"] = "ada@" }), ""),
				"rest_invalid_param", "billing_email", "Billing Email address is not a valid email address.", 400},
			{"bad phone", checkoutBody(withBilling(func(m map[string]string) { m["phone"] = "12" }), ""),
				"rest_invalid_param", "billing_phone", "Billing Phone is not a valid phone number.", 400},
			{"bad zip", checkoutBody(withBilling(func(m map[string]string) { m["postcode"] = "ABCDE" }), ""),
				"rest_invalid_param", "billing_postcode", "Billing ZIP Code is not a valid postcode / ZIP.", 400},
			{"bad shipping state", checkoutBody(goodBilling(), `"shipping_address":{"first_name":"A","last_name":"B","address_1":"x","city":"y","state":"QQ","postcode":"10001","country":"US"}`),
				"rest_invalid_param", "shipping_state", "Shipping State is not valid. Please enter one of the following:", 400},
			{"unknown payment method", strings.Replace(checkoutBody(goodBilling(), ""), `"bacs"`, `"stripe"`, 1),
				"woocommerce_rest_checkout_payment_method_disabled", "", "The stripe payment gateway is not available.", 400},
			{"no payment method", strings.Replace(checkoutBody(goodBilling(), ""), `"bacs"`, `""`, 1),
				"woocommerce_rest_checkout_missing_payment_method", "", "No payment method provided.", 400},
			{"no billing address", `{"payment_method":"bacs"}`, "rest_missing_callback_param", "", "billing_address", 400},
			{"broken JSON", `{"billing_address":`, "rest_invalid_json", "", "Invalid JSON body passed.", 400},
		}
		for _, tc := range bad {
			r := c.do("POST", checkoutAPI, tc.body)
			if r.status != tc.status || r.code() != tc.code || !strings.Contains(r.raw, tc.msg) {
				t.Errorf("%s: %d %s", tc.name, r.status, r.raw)
				continue
			}
			if tc.field != "" {
				data := r.body["data"].(map[string]any)
				fields, _ := data["fields"].(map[string]any)
				details, _ := data["details"].(map[string]any)
				group := tc.field[:strings.Index(tc.field, "_")] + "_address"
				if fields[tc.field] == nil || details[group] == nil {
					t.Errorf("%s: fields %v details %v", tc.name, fields, details)
				}
			}
		}
		if s.noOrder(1) == false {
			t.Fatal("a refused checkout made an order")
		}

		// Tampered totals and prices in the body have no effect.
		tampered := checkoutBody(goodBilling(), `"customer_note":"Leave at the door","totals":{"total_price":"1"},"prices":{"price":"1"},"currency":"JPY",`+
			`"payment_data":[{"key":"amount","value":"0.01"}],"extensions":{"woocommerce/order-attribution":{"source_type":"utm","utm_source":"newsletter","session_pages":"4","user_agent":"Mozilla/5.0 (iPhone) Mobile"}}`)
		r = c.do("POST", checkoutAPI, tampered)
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		id := num(r.body["order_id"])
		pr := r.body["payment_result"].(map[string]any)
		key := r.body["order_key"].(string)
		if r.body["status"] != "on-hold" || pr["payment_status"] != "success" || pr["redirect_url"] != fmt.Sprintf("/checkout/order-received/%d/?key=%s", id, key) ||
			!strings.HasPrefix(key, "wc_order_") || r.body["billing_address"].(map[string]any)["email"] != "ada@example.com" {
			t.Fatalf("response: %s", r.raw)
		}
		o := s.order(id)
		// 2 × 22.00 + flat 5.00, CA tax 7.25 % on both: 319 + 36.
		if o.Currency != "USD" || o.ItemsSubtotal != 4400 || o.ShippingTotal != 500 || o.TotalTax != 355 || o.Total != 5255 ||
			o.CustomerNote != "Leave at the door" || o.Lines[0].UnitPrice != 2200 || o.PaymentMethodTitle != "Direct bank transfer" {
			t.Errorf("order %+v", o)
		}
		if o.Meta["_wc_order_attribution_utm_source"] != "newsletter" || o.Meta["_wc_order_attribution_origin"] != "Source: Newsletter" ||
			o.Meta["_wc_order_attribution_device_type"] != "Mobile" || o.Meta["_wc_order_attribution_session_pages"] != "4" {
			t.Errorf("attribution %v", o.Meta)
		}
		if r := c.do("GET", cartAPI, ""); len(r.items()) != 0 {
			t.Errorf("cart not emptied: %s", r.raw)
		}
		// The same submit again (its first emptied the cart): the same order.
		if r := c.do("POST", checkoutAPI, tampered); r.status != 200 || num(r.body["order_id"]) != id {
			t.Errorf("resubmit: %d %s", r.status, r.raw)
		}
		if !s.noOrder(id + 1) {
			t.Error("a resubmit made a second order")
		}
		// Another checkout now: the cart is empty.
		if r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), `"customer_note":"again"`)); r.status != 400 || r.code() != "woocommerce_rest_cart_empty" {
			t.Errorf("empty cart: %d %s", r.status, r.raw)
		}

		// Idempotency-Key: a replay returns the first order; the same key
		// with another body is refused.
		c.addItem(tank, 1)
		cod := strings.Replace(checkoutBody(goodBilling(), ""), `"bacs"`, `"cod"`, 1)
		r = c.do("POST", checkoutAPI, cod, "Idempotency-Key", "attempt-1")
		if r.status != 200 || r.body["status"] != "processing" {
			t.Fatalf("cod: %d %s", r.status, r.raw)
		}
		second := num(r.body["order_id"])
		if r := c.do("POST", checkoutAPI, cod, "Idempotency-Key", "attempt-1"); r.status != 200 || num(r.body["order_id"]) != second {
			t.Errorf("replay: %d %s", r.status, r.raw)
		}
		if r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Idempotency-Key", "attempt-1"); r.status != 422 ||
			r.code() != "woocommerce_rest_idempotency_key_reused" {
			t.Errorf("reused key: %d %s", r.status, r.raw)
		}
		if r := c.do("POST", checkoutAPI, cod, "Idempotency-Key", "bad key\x01"); r.status != 400 {
			t.Errorf("bad key: %d", r.status)
		}

		// The order-received page: only with the right key.
		page := s.get(fmt.Sprintf("/checkout/order-received/%d/?key=%s", id, key))
		html := body(t, page)
		var data struct {
			Page  string `json:"page"`
			Order *struct {
				ID           int64  `json:"id"`
				Number       string `json:"number"`
				Status       string `json:"status"`
				Instructions string `json:"instructions"`
				Lines        []struct {
					Name     string `json:"name"`
					Quantity int64  `json:"quantity"`
					Total    string `json:"total"`
				} `json:"lines"`
				Totals       []struct{ Label, Value string } `json:"totals"`
				BankAccounts []struct {
					Details []struct{ Label, Value string } `json:"details"`
				} `json:"bank_accounts"`
			} `json:"order"`
		}
		pageData(t, html, &data)
		if page.StatusCode != 200 || page.Header.Get("Cache-Control") != "no-store, private" || data.Page != "order-received" ||
			data.Order == nil || data.Order.ID != id || data.Order.Lines[0].Total != "$44.00" || !strings.Contains(data.Order.Instructions, "payment reference") ||
			len(data.Order.BankAccounts) != 1 ||
			!strings.Contains(html, "noindex") {
			t.Fatalf("order received: %d %+v", page.StatusCode, data.Order)
		}
		var labels []string
		for _, tt := range data.Order.Totals {
			labels = append(labels, tt.Label+tt.Value)
		}
		if strings.Join(labels, "|") != "Subtotal:$44.00|Shipping:$5.00 via Flat rate|CA Tax:$3.55|Payment method:Direct bank transfer|Total:$52.55" {
			t.Errorf("totals %v", labels)
		}
		for _, path := range []string{
			fmt.Sprintf("/checkout/order-received/%d/?key=wc_order_wrongwrongwro", id),
			fmt.Sprintf("/checkout/order-received/%d/", id),
			fmt.Sprintf("/checkout/order-received/%d/?key=%s", second, key), // another order's key
			"/checkout/order-received/abc/?key=" + key,
		} {
			r := s.get(path)
			b := body(t, r)
			var d struct {
				Order any `json:"order"`
			}
			pageData(t, b, &d)
			if r.StatusCode != 404 || d.Order != nil || strings.Contains(b, "ada@example.com") || strings.Contains(b, "Lovelace") {
				t.Errorf("%s: %d shows order data", path, r.StatusCode)
			}
		}
	})
}

// TestCheckoutDoubleSubmit: two identical Place order requests at once
// make one order, and both answers name it.
func TestCheckoutDoubleSubmit(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		for round := 0; round < 3; round++ {
			c := s.client()
			c.addItem(tank, 1)
			body := checkoutBody(goodBilling(), fmt.Sprintf(`"customer_note":"round %d"`, round))
			var wg sync.WaitGroup
			ids := make([]int64, 2)
			statuses := make([]int, 2)
			start := make(chan struct{})
			for i := 0; i < 2; i++ {
				wg.Go(func() {
					req := httptest.NewRequest("POST", checkoutAPI, strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Nonce", c.nonce)
					for _, ck := range c.cookies {
						req.AddCookie(ck)
					}
					<-start
					rec := httptest.NewRecorder()
					s.srv.ServeHTTP(rec, req)
					statuses[i] = rec.Code
					var out map[string]any
					_ = json.Unmarshal(rec.Body.Bytes(), &out)
					ids[i] = num(out["order_id"])
				})
			}
			close(start)
			wg.Wait()
			if statuses[0] != 200 || statuses[1] != 200 || ids[0] != ids[1] || ids[0] == 0 {
				t.Fatalf("round %d: statuses %v ids %v", round, statuses, ids)
			}
			if !s.noOrder(ids[0] + 1) {
				t.Fatalf("round %d: two orders", round)
			}
		}
	})
}

// TestCheckoutConcurrency: 24 shoppers each buying one of 5 units through
// HTTP: exactly 5 orders, 19 out-of-stock errors, stock 0.
func TestCheckoutConcurrency(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		capID := s.productID("studio-staff-cap")
		p, _ := s.db.Product(context.Background(), capID)
		if p.StockQuantity == nil || *p.StockQuantity != 5 {
			t.Fatalf("fixture: stock %v", p.StockQuantity)
		}
		const buyers = 24
		clients := make([]*client, buyers)
		for i := range clients {
			clients[i] = s.client()
			clients[i].useTok = true
			clients[i].do("GET", cartAPI, "")
			clients[i].addItem(capID, 1)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		results := make([]cartResp, buyers)
		for i, c := range clients {
			wg.Go(func() {
				body := checkoutBody(goodBilling(), "")
				<-start
				rec := serveByToken(s.srv, "POST", checkoutAPI, body, c.token)
				results[i] = cartResp{status: rec.Code, raw: rec.Body.String()}
				_ = json.Unmarshal(rec.Body.Bytes(), &results[i].body)
			})
		}
		close(start)
		wg.Wait()
		ok, out := 0, 0
		for _, r := range results {
			switch {
			case r.status == 200:
				ok++
			case r.status == 409 && r.code() == "woocommerce_rest_product_out_of_stock" &&
				strings.Contains(r.raw, "Studio Staff Cap is out of stock and cannot be purchased. Please remove it from your cart."):
				out++
			default:
				t.Errorf("unexpected: %d %s", r.status, r.raw)
			}
		}
		if ok != 5 || out != buyers-5 {
			t.Fatalf("%d orders, %d refusals", ok, out)
		}
		p, _ = s.db.Product(context.Background(), capID)
		if *p.StockQuantity != 0 || p.StockStatus != "outofstock" {
			t.Errorf("stock %d %s", *p.StockQuantity, p.StockStatus)
		}
	})
}

func TestCheckoutPage(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		c := s.client()
		if r := c.do("GET", "/checkout/", ""); r.status != 302 || r.header.Get("Location") != "/cart/" {
			t.Errorf("empty: %d %s", r.status, r.header.Get("Location"))
		}
		if r := c.do("GET", "/checkout", ""); r.status != 301 {
			t.Errorf("no slash: %d", r.status)
		}
		c.addItem(tank, 1)
		r := c.do("GET", "/checkout/", "")
		if r.status != 200 || r.header.Get("Cache-Control") != "no-store, private" || !strings.Contains(r.raw, `content="noindex, nofollow"`) {
			t.Fatalf("page: %d %v", r.status, r.header)
		}
		var data struct {
			Page string `json:"page"`
			Cart struct {
				Totals        map[string]any `json:"totals"`
				ShippingRates []struct {
					Rates []struct {
						ID       string `json:"rate_id"`
						Selected bool   `json:"selected"`
					} `json:"shipping_rates"`
				} `json:"shipping_rates"`
			} `json:"cart"`
			Nonce     string `json:"nonce"`
			Countries []struct {
				Code   string                    `json:"code"`
				States []map[string]string       `json:"states"`
				Fields map[string]map[string]any `json:"fields"`
			} `json:"countries"`
			PaymentMethods []struct{ ID, Title, Kind string } `json:"payment_methods"`
			Terms          *struct{ Title, HTML string }      `json:"terms"`
			Errors         any                                `json:"errors"`
			ProcessNonce   string                             `json:"process_nonce"`
			Checkout       map[string]any                     `json:"checkout"`
		}
		pageData(t, r.raw, &data)
		if data.Page != "checkout" || data.Nonce == "" || len(data.ProcessNonce) != 10 || data.Terms == nil || data.Errors != nil ||
			len(data.PaymentMethods) != 2 || data.PaymentMethods[0].ID != "bacs" || data.PaymentMethods[1].Kind != "offline" {
			t.Fatalf("data: %+v", data)
		}
		if data.Cart.Totals["total_shipping"] != "500" || data.Cart.Totals["total_price"] != "2700" || len(data.Cart.ShippingRates) != 1 ||
			data.Cart.ShippingRates[0].Rates[0].ID != "flat_rate:1" || !data.Cart.ShippingRates[0].Rates[0].Selected {
			t.Errorf("cart: %+v", data.Cart)
		}
		us := false
		for _, ct := range data.Countries {
			if ct.Code == "US" {
				us = ct.Fields["postcode"]["label"] == "ZIP Code" && len(ct.States) > 50 && ct.Fields["state"]["required"] == true
			}
		}
		if !us {
			t.Error("countries lack the US rules")
		}

		// The no-script form: errors re-render with the values kept.
		form := url.Values{"billing_first_name": {"Ada"}, "billing_email": {"not-an-email"}, "billing_country": {"US"},
			"payment_method": {"bacs"}, "woocommerce-process-checkout-nonce": {data.ProcessNonce}}
		r = c.do("POST", "/checkout/", form.Encode())
		var refused struct {
			Checkout struct {
				Billing map[string]string `json:"billing_address"`
			} `json:"checkout"`
			Errors struct {
				Notices []string          `json:"notices"`
				Fields  map[string]string `json:"fields"`
			} `json:"errors"`
		}
		if r.status != 400 {
			t.Fatalf("refused form: %d", r.status)
		}
		pageData(t, r.raw, &refused)
		if refused.Checkout.Billing["first_name"] != "Ada" || refused.Checkout.Billing["email"] != "not-an-email" ||
			refused.Errors.Fields["billing_email"] != "Billing Email address is not a valid email address." ||
			refused.Errors.Fields["billing_last_name"] != "Billing Last name is a required field." ||
			!strings.Contains(strings.Join(refused.Errors.Notices, "|"), checkout.MsgTerms) {
			t.Errorf("refused: %+v", refused)
		}
		// A bad nonce is refused.
		good := url.Values{"payment_method": {"bacs"}, "terms": {"on"}, "order_comments": {"Ring twice"},
			"woocommerce-process-checkout-nonce": {"0000000000"}, "wc_order_attribution_source_type": {"typein"},
			"wc_order_attribution_user_agent": {"Mozilla/5.0 (Windows NT 10.0)"}, "shipping_method[0]": {"local_pickup:3"}}
		for k, v := range goodBilling() {
			good.Set("billing_"+k, v)
		}
		if r := c.do("POST", "/checkout/", good.Encode()); r.status != 403 || !strings.Contains(r.raw, "We were unable to process your order") {
			t.Errorf("bad nonce: %d", r.status)
		}
		// Unknown payment method.
		good.Set("woocommerce-process-checkout-nonce", data.ProcessNonce)
		good.Set("payment_method", "bitcoin")
		if r := c.do("POST", "/checkout/", good.Encode()); r.status != 400 || !strings.Contains(r.raw, "Invalid payment method.") {
			t.Errorf("bad method: %d", r.status)
		}
		good.Set("payment_method", "cod")
		r = c.do("POST", "/checkout/", good.Encode())
		loc := r.header.Get("Location")
		if r.status != 303 || !strings.HasPrefix(loc, "/checkout/order-received/") {
			t.Fatalf("placed: %d %s", r.status, loc)
		}
		u, _ := url.Parse(loc)
		o, err := s.db.OrderByKey(context.Background(), u.Query().Get("key"))
		if err != nil || o.Status != "processing" || o.CustomerNote != "Ring twice" || o.ShippingLines[0].RateID != "local_pickup:3" ||
			o.Total != 2200+160 || o.Meta["_wc_order_attribution_origin"] != "Direct" || o.Meta["_wc_order_attribution_device_type"] != "Desktop" ||
			o.Shipping.Address1 != "1 Main St" || o.Shipping.Email != "" {
			t.Fatalf("order: %v %+v", err, o)
		}
		if page := c.do("GET", loc, ""); page.status != 200 || !strings.Contains(page.raw, "Pay with cash upon delivery.") {
			t.Errorf("order page: %d", page.status)
		}
		// Double-submitting the form gets the same order.
		if r := c.do("POST", "/checkout/", good.Encode()); r.status != 303 || r.header.Get("Location") != loc {
			t.Errorf("resubmit: %d %s", r.status, r.header.Get("Location"))
		}
	})
}

func TestCheckoutRateLimit(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, sqlstore.SQLite)
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	cfg.RateLimit = 2
	srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Checkout: cfg, ChangePoll: time.Hour})
	s := &shop{t: t, db: db, srv: srv}
	c := s.client()
	c.addItem(s.productID("cotton-tank-top"), 1)
	bad := checkoutBody(withBilling(func(m map[string]string) { m["email"] = "x" }), "")
	for i := 0; i < 2; i++ {
		if r := c.do("POST", checkoutAPI, bad); r.status != 400 {
			t.Fatalf("attempt %d: %d", i, r.status)
		}
	}
	r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""))
	if r.status != 429 || r.header.Get("Retry-After") == "" || r.code() != "woocommerce_rest_rate_limited" {
		t.Fatalf("third: %d %s", r.status, r.raw)
	}
	if !s.noOrder(1) {
		t.Error("a limited checkout made an order")
	}
	if r := c.do("GET", cartAPI, ""); len(r.items()) != 1 {
		t.Error("a limited checkout changed the cart")
	}
}

// The cart's prices come from the same Quote as the order's.
func TestCheckoutQuoteMatchesOrder(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		c.addItem(s.productID("cotton-tank-top"), 3)
		c.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"DE","city":"Berlin","postcode":"10115","address_1":"x","first_name":"a","last_name":"b"}}`)
		page := c.do("GET", "/checkout/", "")
		var data struct {
			Cart struct {
				Totals map[string]any `json:"totals"`
			} `json:"cart"`
		}
		pageData(t, page.raw, &data)
		ship := `"shipping_address":{"country":"DE","city":"Berlin","postcode":"10115","address_1":"x","first_name":"a","last_name":"b"}`
		r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ship))
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		o := s.order(num(r.body["order_id"]))
		// 66.00 + 15.00 shipping, 19 % VAT on both.
		if data.Cart.Totals["total_price"] != fmt.Sprint(o.Total) || o.Total != 6600+1500+1254+285 || data.Cart.Totals["total_tax"] != "1539" {
			t.Errorf("cart %v, order total %d", data.Cart.Totals, o.Total)
		}
	})
}
