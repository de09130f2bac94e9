package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"vitrine/internal/checkout"
	vmail "vitrine/internal/mail"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

const testNotice = "Test order: paid in the built-in sandbox, no money was taken."

// TestSandboxBehindShopMiddleware: the built-in sandbox, given as
// Config.Sandbox, answers under /_sandbox/paypal/ with the shop's security
// headers, and a cross-origin POST to it is refused by the shop's
// cross-origin check before the sandbox sees it. Without it, the prefix is
// the shop's 404.
func TestSandboxBehindShopMiddleware(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "id", Secret: "secret", BaseURL: "https://shop.example" + server.SandboxPrefix})
		t.Cleanup(sb.Close)
		var seen int
		counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen++; sb.Handler().ServeHTTP(w, r) })
		srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Sandbox: counted})
		serve := func(method, path string, headers ...string) *http.Response {
			req := httptest.NewRequest(method, "https://shop.example"+path, strings.NewReader("token=x&action=paypal&email=a%40b.example"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for i := 0; i+1 < len(headers); i += 2 {
				req.Header.Set(headers[i], headers[i+1])
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			return rec.Result()
		}
		page := serve("GET", server.SandboxPrefix+"/checkoutnow?token=NOPE")
		if page.StatusCode != 404 || seen != 1 || !strings.Contains(body(t, page), "This payment link is not valid") {
			t.Fatalf("sandbox page: %d (seen %d)", page.StatusCode, seen)
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
			"Permissions-Policy": "camera=()"} {
			if !strings.Contains(page.Header.Get(k), want) {
				t.Errorf("%s = %q, want the shop's %q", k, page.Header.Get(k), want)
			}
		}
		if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "script-src 'unsafe") {
			t.Errorf("CSP %q", csp)
		}
		// The API answers under the prefix too (a token request without
		// credentials is PayPal's 401).
		if r := serve("POST", server.SandboxPrefix+"/v1/oauth2/token"); r.StatusCode != 401 || seen != 2 {
			t.Errorf("token without credentials: %d (seen %d)", r.StatusCode, seen)
		}
		// A cross-origin form post never reaches the sandbox.
		for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "https://evil.example"}} {
			r := serve("POST", server.SandboxPrefix+"/checkoutnow", h...)
			if r.StatusCode != http.StatusForbidden || seen != 2 {
				t.Errorf("cross-origin POST with %v: %d (seen %d)", h, r.StatusCode, seen)
			}
		}
		// A same-origin one does (the order is unknown: 404 page).
		if r := serve("POST", server.SandboxPrefix+"/checkoutnow", "Sec-Fetch-Site", "same-origin", "Origin", "https://shop.example"); r.StatusCode != 404 || seen != 3 {
			t.Errorf("same-origin POST: %d (seen %d)", r.StatusCode, seen)
		}

		// Without a sandbox the prefix is the shop's own 404.
		plain := newShop(t, db, "")
		if r := plain.get(server.SandboxPrefix + "/checkoutnow?token=X"); r.StatusCode != 404 || !strings.Contains(body(t, r), "Page not found") {
			t.Errorf("no sandbox: %d", r.StatusCode)
		}
	})
}

// TestWalletTestOrder: with a sandbox wallet (TestPayments set) a wallet
// order is stored as a test order; its page shows the notice (in the page
// data and the server-rendered HTML) and both mails carry "[Test]" in the
// subject and the notice in both parts. A wallet on a real API makes real
// orders with none of it.
func TestWalletTestOrder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		paid := func(ws *walletShop) *checkout.Order {
			c, id, o := ws.startWallet("studio-staff-cap", 1, nil)
			if res := c.do("GET", ws.approve(id, paypalsandbox.FundingPayPal), ""); res.status != 303 {
				t.Fatalf("return: %d", res.status)
			}
			o = ws.order(o.ID)
			if !o.Paid() {
				t.Fatalf("not paid: %+v", o)
			}
			return o
		}
		mailsOf := func(ws *walletShop, id int64) (vmail.Message, vmail.Message) {
			v, err := ws.srv.OrderMailView(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			conf, err := vmail.OrderConfirmation(v, "ada@example.com")
			if err != nil {
				t.Fatal(err)
			}
			notice, err := vmail.NewOrderNotice(v, []string{"orders@shop.example"})
			if err != nil {
				t.Fatal(err)
			}
			return conf, notice
		}

		ws := newWalletShop(t, db, server.WalletConfig{TestPayments: server.TestPaymentsBuiltinSandbox})
		o := paid(ws)
		if !o.TestOrder() || o.Meta[checkout.MetaTestPayment] != server.TestPaymentsBuiltinSandbox {
			t.Fatalf("sandbox-paid order not stored as a test order: meta %v", o.Meta)
		}
		page := ws.get("/checkout/order-received/" + itoa(o.ID) + "/?key=" + o.Key)
		html := body(t, page)
		var data struct {
			Order *struct {
				TestOrder  bool   `json:"test_order"`
				TestNotice string `json:"test_notice"`
			} `json:"order"`
		}
		pageData(t, html, &data)
		if page.StatusCode != 200 || data.Order == nil || !data.Order.TestOrder || data.Order.TestNotice != testNotice {
			t.Fatalf("order page data: %d %+v", page.StatusCode, data.Order)
		}
		if !strings.Contains(html, `class="woocommerce-notice woocommerce-info order-test-notice"`) {
			t.Error("the server-rendered page does not show the test notice")
		}
		conf, notice := mailsOf(ws, o.ID)
		for _, m := range []vmail.Message{conf, notice} {
			if !strings.HasPrefix(m.Subject, "[Test] ") || !strings.Contains(m.Text, testNotice) || !strings.Contains(m.HTML, testNotice) {
				t.Errorf("test order mail %q lacks the marks:\n%s", m.Subject, m.Text)
			}
		}

		// A wallet on a real API: a real order.
		db2 := storetest.Open(t, db.Engine)
		real := newWalletShop(t, db2, server.WalletConfig{})
		o = paid(real)
		if o.TestOrder() {
			t.Fatalf("real order marked as a test: %v", o.Meta)
		}
		page = real.get("/checkout/order-received/" + itoa(o.ID) + "/?key=" + o.Key)
		if html := body(t, page); strings.Contains(html, "Test order") || strings.Contains(html, `"test_order":true`) {
			t.Error("real order shown as a test order")
		}
		conf, notice = mailsOf(real, o.ID)
		for _, m := range []vmail.Message{conf, notice} {
			if strings.Contains(m.Subject, "[Test]") || strings.Contains(m.Text, "Test order") {
				t.Errorf("real order mail marked as a test: %q", m.Subject)
			}
		}
	})
}
