package server_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"testing"

	"vitrine/internal/currency"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
)

const (
	extensionsAPI     = cartAPI + "/extensions"
	oldCurrencyCookie = "wmc_current_currency_old"
)

// currencyWalletShop is a wallet shop selling in EUR, JPY (as wmcConfigure
// sets them) and KWD, a currency PayPal does not take (three decimals).
func currencyWalletShop(t *testing.T, db *sqlstore.DB) *walletShop {
	t.Helper()
	ws := newWalletShop(t, db, server.WalletConfig{})
	wmcConfigure(t, ws.srv.Currencies())
	kwd, _ := currency.Defaults("KWD")
	kwd.Rate, _ = currency.ParseRate("0.3075")
	kwd.Order = 4
	if err := ws.srv.Currencies().SaveCurrency(context.Background(), kwd); err != nil {
		t.Fatal(err)
	}
	return ws
}

// inCurrency is a new client whose currency cookie is code.
func (s *shop) inCurrency(code string) *client {
	c := s.client()
	c.cookies[currencyCookieName] = &http.Cookie{Name: currencyCookieName, Value: code}
	return c
}

// wmc is the answer's extensions["woo-multi-currency"].
func (r cartResp) wmc() map[string]any {
	ext, _ := r.body["extensions"].(map[string]any)
	m, _ := ext["woo-multi-currency"].(map[string]any)
	return m
}

func (r cartResp) totals() map[string]any { t, _ := r.body["totals"].(map[string]any); return t }

// setCookie is the answer's Set-Cookie for name (nil: none).
func (r cartResp) setCookie(name string) *http.Cookie {
	for _, ck := range (&http.Response{Header: r.header}).Cookies() {
		if ck.Name == name {
			return ck
		}
	}
	return nil
}

func chooseMethod(c *client, id string) cartResp {
	c.s.t.Helper()
	return c.do("POST", extensionsAPI, `{"namespace":"woo-multi-currency","data":{"payment_method":"`+id+`"}}`)
}

// TestCartExtensionsCurrencySwitch: choosing the wallet with a currency
// PayPal does not take makes the checkout's currency the base (the cart
// answered in it, a notice, the old currency kept in a cookie); choosing it
// again changes nothing; choosing bank transfer restores the shopper's
// currency. A currency PayPal takes is kept.
func TestCartExtensionsCurrencySwitch(t *testing.T) {
	t.Parallel()
	each(t, currencyWalletShop, func(t *testing.T, ws *walletShop) {
		tee := ws.productID("striped-breton-tee")

		c := ws.inCurrency("KWD")
		c.addItem(tee, 2)
		r := c.do("GET", cartAPI, "")
		if r.status != 200 || r.totals()["currency_code"] != "KWD" || num(r.totals()["currency_minor_unit"]) != 3 || r.wmc()["current_currency"] != "KWD" {
			t.Fatalf("KWD cart: %d %s", r.status, r.raw)
		}
		if _, ok := r.wmc()["wmc_update_checkout"]; ok {
			t.Errorf("a plain cart read carries the switch's fields: %v", r.wmc())
		}

		r = chooseMethod(c, "ppcp-gateway")
		usdTotal := r.totals()["total_price"]
		if r.status != 200 || r.totals()["currency_code"] != "USD" || r.wmc()["current_currency"] != "USD" || r.wmc()["wmc_update_checkout"] != true {
			t.Fatalf("wallet chosen: %d %s", r.status, r.raw)
		}
		want := "PayPal cannot take this order in Kuwaiti dinar (KWD), so it is in United States dollar (USD): $" + dollars(usdTotal) + "."
		if r.wmc()["notice"] != want {
			t.Errorf("notice %q, want %q", r.wmc()["notice"], want)
		}
		if ck := r.setCookie(currencyCookieName); ck == nil || ck.Value != "USD" || ck.HttpOnly {
			t.Errorf("currency cookie %v", ck)
		}
		if ck := r.setCookie(oldCurrencyCookie); ck == nil || ck.Value != "KWD" || ck.MaxAge <= 0 || ck.Path != "/" {
			t.Errorf("old currency cookie %v", ck)
		}
		// The cart now reads in USD, as every other surface does.
		if g := c.do("GET", cartAPI, ""); g.totals()["currency_code"] != "USD" || g.totals()["total_price"] != usdTotal {
			t.Errorf("cart after the switch: %s", g.raw)
		}

		// The wallet again: no change, the notice stays.
		r = chooseMethod(c, "ppcp-gateway")
		if r.status != 200 || r.wmc()["wmc_update_checkout"] != false || r.wmc()["notice"] != want || r.wmc()["current_currency"] != "USD" ||
			r.setCookie(currencyCookieName) != nil || r.setCookie(oldCurrencyCookie) != nil {
			t.Errorf("wallet again: %d %s %v", r.status, r.raw, r.header["Set-Cookie"])
		}

		// Bank transfer takes KWD: restored, the old cookie deleted.
		r = chooseMethod(c, "bacs")
		if r.status != 200 || r.totals()["currency_code"] != "KWD" || r.wmc()["current_currency"] != "KWD" || r.wmc()["wmc_update_checkout"] != true ||
			r.wmc()["notice"] != "" {
			t.Fatalf("bank transfer: %d %s", r.status, r.raw)
		}
		if ck := r.setCookie(currencyCookieName); ck == nil || ck.Value != "KWD" {
			t.Errorf("currency cookie %v", ck)
		}
		if ck := r.setCookie(oldCurrencyCookie); ck == nil || ck.MaxAge >= 0 {
			t.Errorf("old currency cookie not deleted: %v", ck)
		}
		if r = chooseMethod(c, "cod"); r.wmc()["wmc_update_checkout"] != false || r.totals()["currency_code"] != "KWD" {
			t.Errorf("cash on delivery: %s", r.raw)
		}

		// A form body works as the JSON one.
		r = c.do("POST", extensionsAPI, "namespace=woo-multi-currency&data%5Bpayment_method%5D=ppcp-gateway")
		if r.status != 200 || r.wmc()["current_currency"] != "USD" || r.wmc()["wmc_update_checkout"] != true {
			t.Errorf("form body: %d %s", r.status, r.raw)
		}

		// EUR: PayPal takes it, nothing changes.
		e := ws.inCurrency("EUR")
		e.addItem(tee, 1)
		r = chooseMethod(e, "ppcp-gateway")
		if r.status != 200 || r.totals()["currency_code"] != "EUR" || r.wmc()["wmc_update_checkout"] != false || r.wmc()["notice"] != "" ||
			r.setCookie(currencyCookieName) != nil || r.setCookie(oldCurrencyCookie) != nil {
			t.Errorf("EUR and the wallet: %d %s", r.status, r.raw)
		}

		// The shopper picks a currency by link after the switch: the old
		// one is forgotten, bank transfer keeps what was picked.
		k := ws.inCurrency("KWD")
		k.addItem(tee, 1)
		chooseMethod(k, "ppcp-gateway")
		if l := k.do("GET", "/?wmc-currency=EUR", ""); l.status != 302 || l.setCookie(oldCurrencyCookie) == nil || l.setCookie(oldCurrencyCookie).MaxAge >= 0 {
			t.Errorf("link: %d %v", l.status, l.header["Set-Cookie"])
		}
		if r = chooseMethod(k, "bacs"); r.totals()["currency_code"] != "EUR" || r.wmc()["wmc_update_checkout"] != false {
			t.Errorf("after a link: %s", r.raw)
		}
	})
}

// dollars writes a USD minor-unit string as 12.34.
func dollars(v any) string {
	s, _ := v.(string)
	for len(s) < 3 {
		s = "0" + s
	}
	return s[:len(s)-2] + "." + s[len(s)-2:]
}

// TestCartExtensionsRefusals: an unknown or missing namespace is
// WooCommerce's error, a bad body the Store API's rest_invalid_param, a
// missing or wrong nonce the cart's nonce errors; none changes anything.
func TestCartExtensionsRefusals(t *testing.T) {
	t.Parallel()
	each(t, currencyWalletShop, func(t *testing.T, ws *walletShop) {
		c := ws.inCurrency("KWD")
		c.addItem(ws.productID("striped-breton-tee"), 1)
		cases := []struct {
			name, body string
			status     int
			code, msg  string
		}{
			{"unknown namespace", `{"namespace":"other-plugin","data":{"payment_method":"ppcp-gateway"}}`, 400,
				"woocommerce_rest_cart_extensions_error", "There is no such namespace registered: other-plugin."},
			{"escaped namespace", `{"namespace":"<b>x</b>"}`, 400, "woocommerce_rest_cart_extensions_error", "There is no such namespace registered: &lt;b&gt;x&lt;/b&gt;."},
			{"no namespace", `{"data":{"payment_method":"ppcp-gateway"}}`, 400, "woocommerce_rest_cart_extensions_error",
				"You must provide a plugin namespace when extending a Store REST endpoint."},
			{"empty body", ``, 400, "woocommerce_rest_cart_extensions_error", "You must provide a plugin namespace when extending a Store REST endpoint."},
			{"namespace not a string", `{"namespace":5}`, 400, "rest_invalid_param", "Invalid parameter(s): namespace"},
			{"data not an object", `{"namespace":"woo-multi-currency","data":"ppcp-gateway"}`, 400, "rest_invalid_param", "Invalid parameter(s): data"},
			{"no method", `{"namespace":"woo-multi-currency","data":{}}`, 400, "rest_invalid_param", "Invalid parameter(s): data"},
			{"unknown method", `{"namespace":"woo-multi-currency","data":{"payment_method":"stripe"}}`, 400, "rest_invalid_param", "Invalid parameter(s): data"},
			{"method not a string", `{"namespace":"woo-multi-currency","data":{"payment_method":["ppcp-gateway"]}}`, 400, "rest_invalid_param", "Invalid parameter(s): data"},
			{"not JSON", `{"namespace":`, 400, "rest_invalid_param", "Invalid parameter(s): body"},
		}
		for _, tc := range cases {
			r := c.do("POST", extensionsAPI, tc.body, "Content-Type", "application/json")
			msg, _ := r.body["message"].(string)
			data, _ := r.body["data"].(map[string]any)
			if r.status != tc.status || r.code() != tc.code || msg != tc.msg || num(data["status"]) != int64(tc.status) {
				t.Errorf("%s: %d %s", tc.name, r.status, r.raw)
			}
			if r.setCookie(currencyCookieName) != nil || r.setCookie(oldCurrencyCookie) != nil {
				t.Errorf("%s: cookies set %v", tc.name, r.header["Set-Cookie"])
			}
		}
		// Nonces: as every cart write.
		good := `{"namespace":"woo-multi-currency","data":{"payment_method":"ppcp-gateway"}}`
		if r := c.do("POST", extensionsAPI, good, "Nonce", ""); r.status != 401 || r.code() != "woocommerce_rest_missing_nonce" || r.setCookie(currencyCookieName) != nil {
			t.Errorf("no nonce: %d %s", r.status, r.raw)
		}
		if r := c.do("POST", extensionsAPI, good, "Nonce", "0123456789"); r.status != 403 || r.code() != "woocommerce_rest_invalid_nonce" || r.setCookie(currencyCookieName) != nil {
			t.Errorf("bad nonce: %d %s", r.status, r.raw)
		}
		if r := c.do("GET", cartAPI, ""); r.totals()["currency_code"] != "KWD" {
			t.Errorf("a refusal changed the currency: %s", r.raw)
		}
		// A Cart-Token client needs no nonce.
		tok := ws.inCurrency("KWD")
		tok.do("GET", cartAPI, "")
		tok.useTok = true
		if r := chooseMethod(tok, "ppcp-gateway"); r.status != 200 || r.wmc()["current_currency"] != "USD" {
			t.Errorf("Cart-Token: %d %s", r.status, r.raw)
		}
	})
}

// TestWalletInShopperCurrency: the wallet's whole flow in EUR, which
// PayPal takes: the buttons' amounts, the PayPal order (currency_code EUR,
// amounts equal to the EUR quote) and the placed order (EUR, its rate) are
// all in EUR, and the capture pays it exactly. In KWD, which PayPal does
// not take, the same flow quotes and places in USD.
func TestWalletInShopperCurrency(t *testing.T) {
	t.Parallel()
	each(t, currencyWalletShop, func(t *testing.T, ws *walletShop) {
		tee := ws.productID("striped-breton-tee")

		for _, tc := range []struct{ shopper, sale, rate string }{{"EUR", "EUR", "0.92"}, {"KWD", "USD", "1"}} {
			c := ws.inCurrency(tc.shopper)
			c.addItem(tee, 2)
			bill, _ := json.Marshal(goodBilling()) // the address the form posts: the same taxes
			if r := c.do("POST", cartAPI+"/update-customer", `{"billing_address":`+string(bill)+`}`); r.status != 200 {
				t.Fatalf("update customer: %d %s", r.status, r.raw)
			}
			n := c.walletNonces()
			// The checkout's choice of the wallet first (KWD: the switch).
			chooseMethod(c, "ppcp-gateway")
			quote := c.do("GET", cartAPI, "")
			if quote.totals()["currency_code"] != tc.sale {
				t.Fatalf("%s: cart in %v", tc.shopper, quote.totals()["currency_code"])
			}
			total := atoi(quote.totals()["total_price"].(string))

			sp := c.do("GET", "/?wc-ajax=ppc-cart-script-params", "")
			up, _ := sp.data()["url_params"].(map[string]any)
			if sp.dataString("currency_code") != tc.sale || up["currency"] != tc.sale || cents(sp.data()["amount"]) != total {
				t.Errorf("%s: script params %s", tc.shopper, sp.raw)
			}
			sim := c.wallet("ppc-simulate-cart", n, map[string]any{"products": []any{map[string]any{"id": tee, "quantity": 2}}})
			if !sim.success() || sim.dataString("currency_code") != tc.sale {
				t.Errorf("%s: simulate %s", tc.shopper, sim.raw)
			}

			r := c.wallet("ppc-create-order", n, map[string]any{"context": "checkout", "payment_method": "ppcp-gateway", "funding_source": "paypal",
				"form_encoded": walletForm(nil)})
			if !r.success() {
				t.Fatalf("%s: create-order %s", tc.shopper, r.raw)
			}
			id := r.dataString("id")
			o := ws.order(atoi(r.dataString("custom_id")))
			if o.Currency != tc.sale || o.CurrencyRate != tc.rate || o.BaseCurrency != "USD" || o.Total != total {
				t.Errorf("%s: order %s rate %s base %s total %d, want %s %s total %d", tc.shopper, o.Currency, o.CurrencyRate, o.BaseCurrency, o.Total,
					tc.sale, tc.rate, total)
			}
			pp, _ := ws.sb.Order(id)
			pu := pp.PurchaseUnits[0]
			if v, err := paypal.ParseValue(tc.sale, pu.Amount.Value); err != nil || v != total || pu.Amount.CurrencyCode != tc.sale ||
				pu.Amount.Breakdown.ItemTotal.CurrencyCode != tc.sale {
				t.Errorf("%s: PayPal amount %+v, want %d %s", tc.shopper, pu.Amount, total, tc.sale)
			}
			for _, it := range pu.Items {
				if it.UnitAmount.CurrencyCode != tc.sale {
					t.Errorf("%s: item %+v", tc.shopper, it)
				}
			}
			ret := ws.approve(id, paypalsandbox.FundingPayPal)
			if res := c.do("GET", ret, ""); res.status != 303 {
				t.Fatalf("%s: return %d", tc.shopper, res.status)
			}
			paid := ws.order(o.ID)
			got, capture := ws.capturedMinor(id)
			if !paid.Paid() || paid.CaptureID != capture || got != paid.Total || paid.Currency != tc.sale {
				t.Errorf("%s: after return %+v (captured %d)", tc.shopper, paid, got)
			}
		}
	})
}

// cents reads a JSON number with two decimals as minor units.
func cents(v any) int64 {
	f, _ := v.(float64)
	return int64(math.Round(f * 100))
}
