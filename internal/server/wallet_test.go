package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// walletShop is a test shop whose wallet talks to the built-in sandbox over
// real HTTP on loopback. The sandbox sends no webhooks by itself: tests
// deliver them (signed by the sandbox) when they want to.
type walletShop struct {
	*shop
	sb     *paypalsandbox.Sandbox
	pp     *paypal.Client // the test's own client, to act on PayPal's side
	offset atomic.Int64   // the sandbox clock's offset (old webhook signatures)
}

func newWalletShop(t *testing.T, db *sqlstore.DB, wc server.WalletConfig) *walletShop {
	t.Helper()
	ws := &walletShop{}
	ws.sb = paypalsandbox.New(paypalsandbox.Config{ClientID: "test-client", Secret: "test-secret",
		Now: func() time.Time { return time.Now().Add(time.Duration(ws.offset.Load())) }})
	base := serveSandbox(t, ws.sb)
	ws.pp = sandboxClient(ws.sb, base)
	wc.PayPal = sandboxClient(ws.sb, base)
	if wc.CallTimeout == 0 {
		wc.CallTimeout = 5 * time.Second
	}
	if wc.ReconcileEvery == 0 {
		wc.ReconcileEvery = time.Hour // tests run the reconciler themselves
	}
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond, Wallet: &wc})
	servertest.Start(t, srv)
	<-srv.WalletStarted() // the startup pass must not race the test's orders
	ws.shop = &shop{t: t, db: db, srv: srv}
	t.Cleanup(func() {
		if n := ws.sb.MissingRequestIDs(); n != 0 {
			t.Errorf("%d PayPal POSTs without PayPal-Request-Id", n)
		}
	})
	return ws
}

// serveSandbox serves sb on a loopback HTTP server for the test's length
// and answers its base URL.
func serveSandbox(tb testing.TB, sb *paypalsandbox.Sandbox) string {
	tb.Helper()
	ts := httptest.NewServer(sb.Handler())
	tb.Cleanup(ts.Close)
	tb.Cleanup(sb.Close)
	sb.SetBaseURL(ts.URL)
	return ts.URL
}

// sandboxClient is a PayPal client with the test shop's credentials for sb
// served at base, verifying its webhooks.
func sandboxClient(sb *paypalsandbox.Sandbox, base string) *paypal.Client {
	return &paypal.Client{BaseURL: base, ClientID: "test-client", Secret: "test-secret", WebhookID: sb.WebhookID(),
		CertURLPrefixes: []string{sb.CertURLPrefix()}, CertRoots: sb.CertPool()}
}

// walletNonces fetches the session's wallet nonces (GET ppc-cart-script-params).
func (c *client) walletNonces() map[string]string {
	c.s.t.Helper()
	r := c.do("GET", "/?wc-ajax=ppc-cart-script-params", "")
	data, _ := r.body["data"].(map[string]any)
	raw, _ := data["nonces"].(map[string]any)
	out := map[string]string{}
	for k, v := range raw {
		out[k], _ = v.(string)
	}
	if out["ppc-create-order"] == "" {
		c.s.t.Fatalf("no wallet nonces: %s", r.raw)
	}
	return out
}

// wallet posts a wallet endpoint with its nonce (unless body sets one).
func (c *client) wallet(endpoint string, nonces map[string]string, body map[string]any) cartResp {
	c.s.t.Helper()
	if _, ok := body["nonce"]; !ok {
		body["nonce"] = nonces[endpoint]
	}
	b, _ := json.Marshal(body)
	r := c.do("POST", "/?wc-ajax="+endpoint, string(b))
	if r.status != 200 || r.header.Get("X-Robots-Tag") != "noindex" {
		c.s.t.Fatalf("%s: status %d, headers %v", endpoint, r.status, r.header)
	}
	return r
}

func (r cartResp) success() bool { ok, _ := r.body["success"].(bool); return ok }

func (r cartResp) data() map[string]any { d, _ := r.body["data"].(map[string]any); return d }

func (r cartResp) dataString(k string) string { s, _ := r.data()[k].(string); return s }

// walletForm is a valid classic checkout form for the wallet.
func walletForm(edit func(v url.Values)) string {
	v := url.Values{}
	for k, val := range goodBilling() {
		v.Set("billing_"+k, val)
	}
	v.Set("payment_method", "ppcp-gateway")
	v.Set("terms", "on")
	v.Set("terms-field", "1")
	v.Set("wc_order_attribution_source_type", "typein")
	if edit != nil {
		edit(v)
	}
	return v.Encode()
}

// pathOf is a URL's path and query (the shop is served in process).
func pathOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

// startWallet puts qty of a product in a fresh client's cart and creates a
// wallet order from the checkout form; it answers the client, the PayPal
// order id and the shop order.
func (ws *walletShop) startWallet(slug string, qty int, extra map[string]any) (*client, string, *checkout.Order) {
	t := ws.t
	t.Helper()
	c := ws.client()
	c.addItem(ws.productID(slug), qty)
	n := c.walletNonces()
	body := map[string]any{"context": "checkout", "payment_method": "ppcp-gateway", "funding_source": "paypal", "form_encoded": walletForm(nil)}
	for k, v := range extra {
		body[k] = v
	}
	r := c.wallet("ppc-create-order", n, body)
	if !r.success() {
		t.Fatalf("create-order: %s", r.raw)
	}
	id := r.dataString("id")
	if !strings.Contains(r.dataString("approve_url"), "/checkoutnow?token="+id) {
		t.Fatalf("approve_url %q", r.dataString("approve_url"))
	}
	oid, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
	return c, id, ws.order(oid)
}

// approve approves at the sandbox and answers the shop path it returns to.
func (ws *walletShop) approve(id, funding string) string {
	ws.t.Helper()
	back, err := ws.sb.Approve(id, funding)
	if err != nil {
		ws.t.Fatal(err)
	}
	if !strings.HasPrefix(back, "https://shop.example/checkout/paypal-return/?") {
		ws.t.Fatalf("return URL %q", back)
	}
	return pathOf(ws.t, back)
}

// capturedMinor is the amount PayPal captured for an order, in minor units.
func (ws *walletShop) capturedMinor(id string) (int64, string) {
	ws.t.Helper()
	o, ok := ws.sb.Order(id)
	if !ok || len(o.Captures()) != 1 {
		ws.t.Fatalf("sandbox order %s has no single capture", id)
	}
	c := o.Captures()[0]
	v, err := c.Amount.Minor()
	if err != nil {
		ws.t.Fatal(err)
	}
	return v, c.ID
}

func stock(t *testing.T, db *sqlstore.DB, id int64) int64 {
	t.Helper()
	p, err := db.Product(context.Background(), id)
	if err != nil || p.StockQuantity == nil {
		t.Fatalf("stock of %d: %v", id, err)
	}
	return *p.StockQuantity
}

func mails(t *testing.T, db *sqlstore.DB, orderID int64) int {
	t.Helper()
	n := 0
	for _, k := range []string{"confirmation", "new_order"} {
		if _, ok, err := db.MailByDedupeKey(context.Background(), "order:"+itoa(orderID)+":"+k); err != nil {
			t.Fatal(err)
		} else if ok {
			n++
		}
	}
	return n
}

// TestWalletCheckout: the checkout button's whole flow. The order is placed
// with the stock held and the cart kept, PayPal's order carries the order's
// own total (client-sent amounts are ignored), the return captures once and
// pays the order once, and the cart empties.
func TestWalletCheckout(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		capID := ws.productID("studio-staff-cap")
		before := stock(t, ws.db, capID)
		tamper := map[string]any{"amount": "0.01", "total": 0, "currency": "EUR", "price": -5,
			"purchase_units": []any{map[string]any{"amount": map[string]any{"currency_code": "EUR", "value": "0.01"}}}}
		c, id, o := ws.startWallet("studio-staff-cap", 2, tamper)
		if o.Status != checkout.StatusPending || o.PaymentState != checkout.PayWalletOrderCreated || o.ProviderOrderID != id ||
			o.PaymentMethod != "ppcp-gateway" || o.Paid() || o.Billing.Email != "ada@example.com" {
			t.Fatalf("placed order %+v", o)
		}
		if mails(t, ws.db, o.ID) != 0 {
			t.Error("mails queued before payment")
		}
		if got := stock(t, ws.db, capID); got != before-2 {
			t.Errorf("stock %d, want %d held", got, before-2)
		}
		if items := c.do("GET", cartAPI, "").items(); len(items) != 1 {
			t.Errorf("cart has %d lines while the order awaits payment, want 1", len(items))
		}
		pp, _ := ws.sb.Order(id)
		if v, _ := paypal.ParseValue("USD", pp.PurchaseUnits[0].Amount.Value); v != o.Total || pp.PurchaseUnits[0].Amount.CurrencyCode != "USD" ||
			pp.PurchaseUnits[0].CustomID != itoa(o.ID) || pp.PurchaseUnits[0].InvoiceID != o.Number {
			t.Errorf("PayPal order amount %+v custom %q, want the order's %d USD", pp.PurchaseUnits[0].Amount, pp.PurchaseUnits[0].CustomID, o.Total)
		}

		ret := ws.approve(id, paypalsandbox.FundingPayLater)
		res := c.do("GET", ret, "")
		if res.status != 303 || res.header.Get("Location") != "/checkout/order-received/"+itoa(o.ID)+"/?key="+o.Key {
			t.Fatalf("return: %d → %q", res.status, res.header.Get("Location"))
		}
		paid := ws.order(o.ID)
		got, capture := ws.capturedMinor(id)
		if !paid.Paid() || paid.Status != checkout.StatusProcessing || paid.PaymentState != checkout.PayPaid ||
			paid.CaptureID != capture || paid.TransactionID != capture || got != paid.Total {
			t.Errorf("after return: %+v (captured %d)", paid, got)
		}
		if ws.sb.Captures(id) != 1 || mails(t, ws.db, o.ID) != 2 {
			t.Errorf("captures %d mails %d", ws.sb.Captures(id), mails(t, ws.db, o.ID))
		}
		if items := c.do("GET", cartAPI, "").items(); len(items) != 0 {
			t.Errorf("cart not emptied after payment: %d lines", len(items))
		}
		// Coming back again changes nothing.
		if res := c.do("GET", ret, ""); res.status != 303 || !strings.HasPrefix(res.header.Get("Location"), "/checkout/order-received/") {
			t.Errorf("second return: %d %q", res.status, res.header.Get("Location"))
		}
		if ws.sb.Captures(id) != 1 || stock(t, ws.db, capID) != before-2 {
			t.Errorf("second return: captures %d stock %d", ws.sb.Captures(id), stock(t, ws.db, capID))
		}
		// ppc-approve-order for the paid order answers the order page.
		n := c.walletNonces()
		if r := c.wallet("ppc-approve-order", n, map[string]any{"order_id": id}); !r.success() ||
			r.dataString("order_received_url") != orderURL(paid) {
			t.Errorf("approve-order on a paid order: %s", r.raw)
		}
		if r := c.wallet("ppc-get-order", n, map[string]any{"order_id": id}); !r.success() || r.dataString("status") != "COMPLETED" {
			t.Errorf("get-order: %s", r.raw)
		}
	})
}

func orderURL(o *checkout.Order) string {
	return "/checkout/order-received/" + itoa(o.ID) + "/?key=" + o.Key
}

// TestWalletBadInput: bad, foreign and cross-endpoint nonces, bad bodies,
// unknown orders and wrong states get the envelope's errors and change
// nothing.
func TestWalletBadInput(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		capID := ws.productID("studio-staff-cap")
		before := stock(t, ws.db, capID)
		c := ws.client()
		c.addItem(capID, 1)
		n := c.walletNonces()
		other := ws.client()
		other.addItem(ws.productID("cotton-tank-top"), 1)
		otherN := other.walletNonces()
		create := func(nonce any) map[string]any {
			return map[string]any{"nonce": nonce, "context": "checkout", "funding_source": "paypal", "form_encoded": walletForm(nil)}
		}
		for name, nonce := range map[string]any{"missing": nil, "empty": "", "garbage": "0123456789", "long": strings.Repeat("a", 500),
			"other endpoint": n["ppc-approve-order"], "other session": otherN["ppc-create-order"], "number": 12} {
			r := c.wallet("ppc-create-order", n, create(nonce))
			if r.success() || r.dataString("message") != "Could not validate nonce." {
				t.Errorf("%s nonce: %s", name, r.raw)
			}
		}
		for _, ep := range []string{"ppc-approve-order", "ppc-get-order", "ppc-simulate-cart", "ppc-change-cart", "ppc-validate-checkout",
			"ppc-save-checkout-form", "ppc-data-client-id", "ppc-update-shipping"} {
			if r := c.wallet(ep, n, map[string]any{"nonce": otherN[ep]}); r.success() || r.dataString("message") != "Could not validate nonce." {
				t.Errorf("%s with a foreign nonce: %s", ep, r.raw)
			}
		}
		for name, raw := range map[string]string{"not json": "nonce=x", "array": "[1,2]", "bad utf8": "{\"nonce\":\"\xff\"}", "empty": ""} {
			r := c.do("POST", "/?wc-ajax=ppc-create-order", raw, "Content-Type", "application/json")
			want := 200
			if name == "bad utf8" {
				want = 400 // refused at the edge (edge.go), in the same envelope
			}
			if r.status != want || r.success() || r.dataString("message") == "" {
				t.Errorf("%s body: %d %s", name, r.status, r.raw)
			}
		}
		if ws.sb.OrderCount() != 0 || stock(t, ws.db, capID) != before {
			t.Fatalf("refused requests changed something: %d PayPal orders, stock %d", ws.sb.OrderCount(), stock(t, ws.db, capID))
		}
		for name, body := range map[string]map[string]any{
			"mini cart":   {"context": "mini-cart"},
			"pay-now":     {"context": "pay-now", "order_id": 1},
			"no context":  {},
			"card":        {"context": "cart", "payment_method": "ppcp-credit-card-gateway"},
			"venmo":       {"context": "cart", "funding_source": "venmo"},
			"bad form":    {"context": "checkout", "form_encoded": "%zz"},
			"invalid":     {"context": "checkout", "form_encoded": walletForm(func(v url.Values) { v.Del("billing_email"); v.Del("terms") })},
			"bad country": {"context": "checkout", "form_encoded": walletForm(func(v url.Values) { v.Set("billing_country", "XX") })},
		} {
			r := c.wallet("ppc-create-order", n, body)
			if r.success() || r.dataString("message") == "" {
				t.Errorf("create-order %s: %s", name, r.raw)
			}
		}
		r := c.wallet("ppc-create-order", n, map[string]any{"context": "checkout", "form_encoded": walletForm(func(v url.Values) { v.Del("billing_email"); v.Del("terms") })})
		errs, _ := r.data()["errors"].([]any)
		if len(errs) != 2 || !strings.Contains(r.raw, "Billing Email address is a required field.") || !strings.Contains(r.raw, checkout.MsgTerms) {
			t.Errorf("validation envelope: %s", r.raw)
		}
		if v := c.wallet("ppc-validate-checkout", n, map[string]any{"form_encoded": walletForm(func(v url.Values) { v.Set("billing_phone", "12") })}); v.success() ||
			!strings.Contains(v.raw, "is not a valid phone number") {
			t.Errorf("validate-checkout: %s", v.raw)
		}
		if v := c.wallet("ppc-validate-checkout", n, map[string]any{"form_encoded": walletForm(nil)}); !v.success() {
			t.Errorf("validate-checkout of a good form: %s", v.raw)
		}
		if ws.sb.OrderCount() != 0 || stock(t, ws.db, capID) != before {
			t.Fatalf("refused creates changed something: %d PayPal orders, stock %d", ws.sb.OrderCount(), stock(t, ws.db, capID))
		}
		for _, id := range []any{"NOPE123", "", 42, nil, strings.Repeat("X", 100)} {
			for _, ep := range []string{"ppc-approve-order", "ppc-get-order"} {
				if r := c.wallet(ep, n, map[string]any{"order_id": id}); r.success() || r.dataString("name") != "RESOURCE_NOT_FOUND" {
					t.Errorf("%s of unknown order %v: %s", ep, id, r.raw)
				}
			}
		}
		// A real order: not approved yet, and foreign to another session.
		r = c.wallet("ppc-create-order", n, map[string]any{"context": "checkout", "funding_source": "paypal", "form_encoded": walletForm(nil)})
		if !r.success() {
			t.Fatalf("create: %s", r.raw)
		}
		id := r.dataString("id")
		if r := c.wallet("ppc-approve-order", n, map[string]any{"order_id": id}); r.success() || r.dataString("name") != "ORDER_NOT_APPROVED" {
			t.Errorf("approve before the buyer approved: %s", r.raw)
		}
		if _, err := ws.sb.Approve(id, paypalsandbox.FundingPayPal); err != nil {
			t.Fatal(err)
		}
		if r := other.wallet("ppc-approve-order", otherN, map[string]any{"order_id": id}); r.success() || r.dataString("name") != "RESOURCE_NOT_FOUND" {
			t.Errorf("another session approved this order: %s", r.raw)
		}
		if r := other.wallet("ppc-get-order", otherN, map[string]any{"order_id": id}); r.success() {
			t.Errorf("another session read this order: %s", r.raw)
		}
		if ws.sb.Captures(id) != 0 {
			t.Fatal("a refused request captured")
		}
		if r := c.wallet("ppc-approve-order", n, map[string]any{"order_id": id, "amount": "0.01"}); !r.success() {
			t.Errorf("approve-order: %s", r.raw)
		}
		if ws.sb.Captures(id) != 1 {
			t.Errorf("captures %d", ws.sb.Captures(id))
		}
		for _, ep := range []string{"ppc-vault-paypal", "ppc-create-setup-token", "ppc-create-payment-token", "ppc-update-customer-id"} {
			if r := c.wallet(ep, n, map[string]any{}); r.success() || r.dataString("name") != "NOT_SUPPORTED" {
				t.Errorf("%s: %s", ep, r.raw)
			}
		}
		if r := c.do("POST", "/?wc-ajax=ppc-no-such", "{}"); r.status != 400 || r.raw != "0" {
			t.Errorf("unknown endpoint: %d %q", r.status, r.raw)
		}
		if r := c.do("POST", "/?wc-ajax=update_shipping_method", "security=nope&shipping_method%5B0%5D=local_pickup%3A3"); r.status != 403 || r.raw != "-1" {
			t.Errorf("update_shipping_method with a bad nonce: %d %q", r.status, r.raw)
		}
		if r := c.do("GET", "/?wc-ajax=ppc-create-order", ""); r.success() {
			t.Errorf("GET create-order: %s", r.raw)
		}
		if r := c.do("GET", "/checkout/paypal-return/?token=NOPE", ""); r.status != 303 || r.header.Get("Location") != "/checkout/?wallet=error" {
			t.Errorf("return with an unknown token: %d %q", r.status, r.header.Get("Location"))
		}
	})
}

// TestWalletAmounts (S1): whatever the PayPal order says by the time of
// capture, the shop patches it to the order's own total; simulate-cart
// prices from the catalogue and never writes the cart.
func TestWalletAmounts(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		c, id, o := ws.startWallet("cotton-tank-top", 3, map[string]any{"purchase_units": []any{map[string]any{"amount": map[string]any{"value": "1.00"}}}})
		ret := ws.approve(id, paypalsandbox.FundingPayPal)
		// Someone changes the amount at PayPal after approval.
		cheap, err := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: "USD", ItemTotal: 1, Total: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := ws.pp.PatchOrder(context.Background(), id, []paypal.PatchOp{
			{Op: "remove", Path: paypal.PurchaseUnitPath("default", "items")}, {Op: "replace", Path: paypal.PurchaseUnitPath("default", "amount"), Value: cheap.Amount}}); err != nil {
			t.Fatal(err)
		}
		if pp, _ := ws.sb.Order(id); pp.PurchaseUnits[0].Amount.Value != "0.01" {
			t.Fatalf("tamper did not apply: %+v", pp.PurchaseUnits[0].Amount)
		}
		if r := c.do("GET", ret, ""); r.status != 303 {
			t.Fatalf("return %d", r.status)
		}
		got, _ := ws.capturedMinor(id)
		if paid := ws.order(o.ID); got != o.Total || !paid.Paid() || paid.Total != o.Total {
			t.Errorf("captured %d, order total %d, paid %v", got, o.Total, paid.Paid())
		}

		// simulate-cart: catalogue prices, posted amounts ignored, cart untouched.
		c2 := ws.client()
		c2.addItem(ws.productID("studio-staff-cap"), 1)
		n := c2.walletNonces()
		cartBefore := c2.do("GET", cartAPI, "").raw
		tee := ws.productID("cotton-tank-top")
		r := c2.wallet("ppc-simulate-cart", n, map[string]any{"products": []any{map[string]any{"id": tee, "quantity": 2, "price": 0}},
			"total": "0.01", "currency_code": "EUR"})
		if !r.success() || r.data()["currency_code"] != "USD" {
			t.Fatalf("simulate-cart: %s", r.raw)
		}
		total, _ := r.data()["total"].(float64)
		if total < 2*22 {
			t.Errorf("simulated total %v for two $22 tops", total)
		}
		if after := c2.do("GET", cartAPI, "").raw; after != cartBefore {
			t.Error("simulate-cart changed the cart")
		}
		if r := c2.wallet("ppc-simulate-cart", n, map[string]any{"products": []any{map[string]any{"id": tee, "quantity": -1}}}); r.success() {
			t.Errorf("simulate-cart with quantity -1: %s", r.raw)
		}
		if r := c2.wallet("ppc-simulate-cart", n, map[string]any{"products": []any{map[string]any{"id": "x"}}}); r.success() {
			t.Errorf("simulate-cart with a bad id: %s", r.raw)
		}
	})
}

// TestWalletConcurrentReturns (S6): five returns at once capture once and
// pay once; a capture whose answer was lost is finished by the next return
// with the same key.
func TestWalletConcurrentReturns(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		c, id, o := ws.startWallet("cotton-tank-top", 1, nil)
		ret := ws.approve(id, paypalsandbox.FundingPayPal)
		var wg sync.WaitGroup
		locs := make([]string, 5)
		for i := range locs {
			wg.Go(func() {
				req := httptest.NewRequest("GET", ret, nil)
				rec := httptest.NewRecorder()
				ws.srv.ServeHTTP(rec, req)
				locs[i] = strconv.Itoa(rec.Code) + " " + rec.Header().Get("Location")
			})
		}
		wg.Wait()
		for _, l := range locs {
			if l != "303 "+orderURL(o) {
				t.Errorf("concurrent return answered %q", l)
			}
		}
		paid := ws.order(o.ID)
		if ws.sb.Captures(id) != 1 || !paid.Paid() || mails(t, ws.db, o.ID) != 2 {
			t.Errorf("captures %d, paid %v, mails %d", ws.sb.Captures(id), paid.Paid(), mails(t, ws.db, o.ID))
		}
		_ = c

		// The capture happens but its answer is lost.
		c2, id2, o2 := ws.startWallet("cotton-tank-top", 1, nil)
		ret2 := ws.approve(id2, paypalsandbox.FundingPayPal)
		ws.sb.AddFault(paypalsandbox.Fault{Method: "POST", PathSuffix: "/capture", Drop: true, AfterProcessing: true})
		r := c2.do("GET", ret2, "")
		if r.status != 303 || r.header.Get("Location") != orderURL(o2) {
			t.Errorf("return with a lost answer: %d %q", r.status, r.header.Get("Location"))
		}
		mid := ws.order(o2.ID)
		if ws.sb.Captures(id2) != 1 || mid.Paid() || mid.PaymentState != checkout.PayCaptureRequested {
			t.Fatalf("after the lost answer: captures %d, %+v", ws.sb.Captures(id2), mid)
		}
		r = c2.do("GET", ret2, "")
		done := ws.order(o2.ID)
		got, capture := ws.capturedMinor(id2)
		if r.status != 303 || ws.sb.Captures(id2) != 1 || !done.Paid() || done.CaptureID != capture || got != done.Total {
			t.Errorf("retry: %d captures %d %+v", r.status, ws.sb.Captures(id2), done)
		}
	})
}

// TestWalletDeclined: a declined funding source sends the buyer back to
// the checkout with a notice; the order can be approved again with another
// source and is captured once.
func TestWalletDeclined(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		c, id, o := ws.startWallet("cotton-tank-top", 1, nil)
		ret := ws.approve(id, paypalsandbox.FundingDeclined)
		r := c.do("GET", ret, "")
		if r.status != 303 || r.header.Get("Location") != "/checkout/?wallet=declined" {
			t.Fatalf("declined return: %d %q", r.status, r.header.Get("Location"))
		}
		if got := ws.order(o.ID); got.PaymentState != checkout.PayWalletOrderCreated || got.Status != checkout.StatusPending || got.Paid() {
			t.Errorf("after decline: %+v", got)
		}
		page := c.do("GET", "/checkout/?wallet=declined", "")
		if page.status != 200 || !strings.Contains(page.raw, "Your payment was declined by PayPal") {
			t.Errorf("checkout after decline: %d", page.status)
		}
		ret = ws.approve(id, paypalsandbox.FundingPayPal)
		if r := c.do("GET", ret, ""); r.status != 303 || r.header.Get("Location") != orderURL(o) {
			t.Errorf("second approval: %d %q", r.status, r.header.Get("Location"))
		}
		if ws.sb.Captures(id) != 1 || !ws.order(o.ID).Paid() {
			t.Errorf("captures %d", ws.sb.Captures(id))
		}
		// A pending capture puts the order on-hold.
		c3, id3, o3 := ws.startWallet("cotton-tank-top", 1, nil)
		if r := c3.do("GET", ws.approve(id3, paypalsandbox.FundingPending), ""); r.status != 303 || r.header.Get("Location") != orderURL(o3) {
			t.Errorf("pending capture return: %d %q", r.status, r.header.Get("Location"))
		}
		if got := ws.order(o3.ID); got.Status != checkout.StatusOnHold || got.Paid() || got.CaptureID == "" || mails(t, ws.db, o3.ID) != 2 {
			t.Errorf("pending capture: %+v", got)
		}
		// The checkout's cancel link keeps the cart and tells the buyer.
		c4 := ws.client()
		c4.addItem(ws.productID("cotton-tank-top"), 1)
		if page := c4.do("GET", "/checkout/?wallet=cancelled", ""); page.status != 200 || !strings.Contains(page.raw, "You cancelled the payment with PayPal") {
			t.Errorf("cancelled notice: %d", page.status)
		}
		var data struct {
			Wallet *struct {
				Nonces map[string]string `json:"nonces"`
			} `json:"wallet"`
		}
		pageData(t, c4.do("GET", "/checkout/", "").raw, &data)
		if data.Wallet == nil || data.Wallet.Nonces["ppc-create-order"] == "" || data.Wallet.Nonces["ppc-validate-checkout"] == "" {
			t.Errorf("checkout page wallet data: %+v", data.Wallet)
		}
	})
}

// TestWalletStartOver: a buyer who comes back and presses the button again
// gets a new order; the earlier one is cancelled and its stock restored.
// The reconciler cancels orders abandoned for AbandonAfter.
func TestWalletStartOver(t *testing.T) {
	t.Parallel()
	eachWalletShopWith(t, server.WalletConfig{AbandonAfter: time.Nanosecond}, func(t *testing.T, ws *walletShop) {
		capID := ws.productID("studio-staff-cap")
		before := stock(t, ws.db, capID)
		c, _, first := ws.startWallet("studio-staff-cap", 5, nil) // every unit
		n := c.walletNonces()
		r := c.wallet("ppc-create-order", n, map[string]any{"context": "checkout", "funding_source": "paypal", "form_encoded": walletForm(nil)})
		if !r.success() {
			t.Fatalf("second create (the first holds all the stock): %s", r.raw)
		}
		if got := ws.order(first.ID); got.Status != checkout.StatusCancelled {
			t.Errorf("first order %s", got.Status)
		}
		if got := stock(t, ws.db, capID); got != before-5 {
			t.Errorf("stock %d, want %d", got, before-5)
		}
		second, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
		time.Sleep(1100 * time.Millisecond) // updated_at is in whole seconds
		if _, cancelled := ws.srv.ReconcileWallet(context.Background(), false); cancelled != 1 {
			t.Errorf("reconciler cancelled %d", cancelled)
		}
		if got := ws.order(second).Status; got != checkout.StatusCancelled || stock(t, ws.db, capID) != before {
			t.Errorf("abandoned order %s, stock %d (want %d)", got, stock(t, ws.db, capID), before)
		}
		if items := c.do("GET", cartAPI, "").items(); len(items) != 1 {
			t.Errorf("cart after cancel: %d lines", len(items))
		}
	})
}

// TestWalletProductButton: the product page's button replaces the cart
// with the product, the order takes the payer's name, email and address at
// approval, and it is paid.
func TestWalletProductButton(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		c := ws.client()
		c.addItem(ws.productID("cotton-tank-top"), 1) // something else in the cart
		n := c.walletNonces()
		capID := ws.productID("studio-staff-cap")
		r := c.wallet("ppc-change-cart", n, map[string]any{"products": []any{map[string]any{"id": capID, "quantity": 2, "price": "0.01"}}})
		if !r.success() {
			t.Fatalf("change-cart: %s", r.raw)
		}
		items := c.do("GET", cartAPI, "")
		units, _ := r.body["data"].([]any)
		if len(items.items()) != 1 || num(items.items()[0]["id"]) != capID || len(units) != 1 {
			t.Fatalf("cart after change-cart: %s / %s", items.raw, r.raw)
		}
		amount := units[0].(map[string]any)["amount"].(map[string]any)
		totals := items.body["totals"].(map[string]any)
		if v, _ := paypal.ParseValue("USD", amount["value"].(string)); itoa(v) != totals["total_price"] {
			t.Errorf("purchase unit %v, cart total %v", amount["value"], totals["total_price"])
		}
		r = c.wallet("ppc-create-order", n, map[string]any{"context": "product", "funding_source": "paypal"})
		if !r.success() {
			t.Fatalf("create-order (product): %s", r.raw)
		}
		id := r.dataString("id")
		ret := ws.approve(id, paypalsandbox.FundingPayPal)
		// The sandbox buyer's address (San Jose, CA) adds CA tax to the
		// untaxed order: nothing is charged, the checkout shows the new
		// total, and pressing the button again pays it
		// (TestWalletButtonAddressTax).
		if res := c.do("GET", ret, ""); res.status != 303 || res.header.Get("Location") != "/checkout/?wallet=total" {
			t.Fatalf("return: %d %q", res.status, res.header.Get("Location"))
		}
		r = c.wallet("ppc-create-order", n, map[string]any{"context": "product", "funding_source": "paypal"})
		if !r.success() {
			t.Fatalf("create-order (product, again): %s", r.raw)
		}
		id = r.dataString("id")
		oid, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
		ret = ws.approve(id, paypalsandbox.FundingPayPal)
		if res := c.do("GET", ret, ""); res.status != 303 || !strings.HasPrefix(res.header.Get("Location"), "/checkout/order-received/"+itoa(oid)+"/") {
			t.Fatalf("return: %d %q", res.status, res.header.Get("Location"))
		}
		o := ws.order(oid)
		got, _ := ws.capturedMinor(id)
		if !o.Paid() || o.Billing.Email != paypalsandbox.DemoPayerEmail || o.Billing.FirstName != "Demo" || o.Shipping.City != "San Jose" || got != o.Total {
			t.Errorf("product-button order: %+v (captured %d)", o, got)
		}
		// A fresh visitor (no session yet) gets anonymous nonces; change-cart
		// starts the session.
		v := ws.client()
		vn := v.walletNonces()
		if r := v.wallet("ppc-change-cart", vn, map[string]any{"products": []any{map[string]any{"id": capID}}}); !r.success() {
			t.Fatalf("change-cart of a new visitor: %s", r.raw)
		}
		if r := v.wallet("ppc-create-order", vn, map[string]any{"context": "cart"}); r.success() || r.dataString("message") != "Could not validate nonce." {
			t.Errorf("the anonymous nonce still works for the new session: %s", r.raw)
		}
		if r := v.wallet("ppc-create-order", v.walletNonces(), map[string]any{"context": "cart"}); !r.success() {
			t.Errorf("create-order (cart): %s", r.raw)
		}
		// update_shipping_method and ppc-update-shipping re-price the cart.
		vn = v.walletNonces()
		form := url.Values{"security": {vn["update_shipping_method"]}, "shipping_method[0]": {"local_pickup:3"}}
		if r := v.do("POST", "/?wc-ajax=update_shipping_method", form.Encode()); r.status != 200 || !strings.Contains(r.raw, "Local pickup") ||
			!strings.Contains(r.raw, `class="order-total"`) {
			t.Errorf("update_shipping_method: %d %s", r.status, r.raw)
		}
		r = v.wallet("ppc-update-shipping", vn, map[string]any{"shipping_address": map[string]any{"country_code": "DE", "postal_code": "10115", "admin_area_2": "Berlin"}})
		if !r.success() || !strings.Contains(r.raw, `"purchase_units"`) {
			t.Errorf("update-shipping: %s", r.raw)
		}
		if r := v.wallet("ppc-update-shipping", vn, map[string]any{"shipping_address": map[string]any{"country_code": "ZZ"}}); r.success() {
			t.Errorf("update-shipping to an unknown country: %s", r.raw)
		}
		if r := v.wallet("ppc-data-client-id", vn, map[string]any{}); r.status != 200 || !strings.Contains(r.raw, `"token":""`) {
			t.Errorf("data-client-id: %s", r.raw)
		}
		if r := v.wallet("ppc-save-checkout-form", vn, map[string]any{"form_encoded": walletForm(nil)}); !r.success() {
			t.Errorf("save-checkout-form: %s", r.raw)
		}
		var data struct {
			Checkout struct {
				Billing struct {
					Email string `json:"email"`
				} `json:"billing_address"`
			} `json:"checkout"`
		}
		pageData(t, v.do("GET", "/checkout/", "").raw, &data)
		if data.Checkout.Billing.Email != "ada@example.com" {
			t.Errorf("saved form not shown on the checkout: %+v", data.Checkout)
		}
	})
}

// deliver posts a webhook body with headers to the shop.
func (ws *walletShop) deliver(body []byte, h http.Header) int {
	req := httptest.NewRequest("POST", "/wp-json/paypal/v1/incoming", bytes.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	ws.srv.ServeHTTP(rec, req)
	return rec.Code
}

// eventsOf are the sandbox's events about a PayPal order, oldest first.
func (ws *walletShop) eventsOf(id string) []paypalsandbox.Event {
	var out []paypalsandbox.Event
	for _, e := range ws.sb.Events() {
		if bytes.Contains(e.Body, []byte(id)) {
			out = append(out, e)
		}
	}
	return out
}

// settled is an order's payment outcome, comparable across orders.
func settled(o *checkout.Order) string {
	return o.Status + "|" + o.PaymentState + "|" + strconv.FormatBool(o.Paid()) + "|" + strconv.FormatBool(o.CaptureID != "")
}

// TestWalletWebhook (S7, R7): forged deliveries are refused with 4xx and
// change nothing; each event delivered five times in random order ends in
// the state one in-order delivery gives; a capture event before the
// approval event works.
func TestWalletWebhook(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		// The buyer approves and PayPal captures, but the buyer never comes
		// back: only webhooks tell the shop.
		paidAtPayPal := func() (string, *checkout.Order) {
			_, id, o := ws.startWallet("cotton-tank-top", 1, nil)
			ws.approve(id, paypalsandbox.FundingPayPal)
			if _, err := ws.pp.CaptureOrder(context.Background(), id, "test-capture-"+id); err != nil {
				t.Fatal(err)
			}
			return id, o
		}
		idA, a := paidAtPayPal()
		evs := ws.eventsOf(idA)
		if len(evs) != 2 || evs[0].Type != paypal.EventOrderApproved || evs[1].Type != paypal.EventCaptureCompleted {
			t.Fatalf("events %+v", evs)
		}
		good := evs[1].Body
		// Forgeries.
		signed := ws.sb.SignHeaders(good)
		altered := bytes.Replace(good, []byte(`"COMPLETED"`), []byte(`"COMPLETED" `), 1)
		offList := ws.sb.SignHeaders(good)
		offList.Set(paypal.HeaderCertURL, "https://evil.example/certs/x")
		ws.offset.Store(int64(-10 * time.Minute))
		old := ws.sb.SignHeaders(good)
		ws.offset.Store(0)
		wrongSig := ws.sb.SignHeaders([]byte(`{"something":"else"}`))
		wrongSig.Set(paypal.HeaderTransmissionID, signed.Get(paypal.HeaderTransmissionID))
		wrongSig.Set(paypal.HeaderTransmissionTime, signed.Get(paypal.HeaderTransmissionTime))
		for name, c := range map[string]struct {
			body []byte
			h    http.Header
		}{
			"unsigned": {good, http.Header{}}, "wrong signature": {good, wrongSig}, "altered body": {altered, signed},
			"cert off the allow-list": {good, offList}, "old transmission": {good, old}, "not json": {[]byte("nope"), ws.sb.SignHeaders([]byte("nope"))},
		} {
			if code := ws.deliver(c.body, c.h); code < 400 || code >= 500 {
				t.Errorf("%s: %d", name, code)
			}
		}
		if got := ws.order(a.ID); got.Paid() || got.PaymentState != checkout.PayWalletOrderCreated {
			t.Fatalf("a forged delivery changed the order: %+v", got)
		}
		// One in-order delivery of each event.
		for _, e := range evs {
			if code := ws.deliver(e.Body, ws.sb.SignHeaders(e.Body)); code != 200 {
				t.Fatalf("delivery %s: %d", e.Type, code)
			}
		}
		want := ws.order(a.ID)
		if !want.Paid() || want.Status != checkout.StatusProcessing {
			t.Fatalf("in-order deliveries: %+v", want)
		}
		if ws.sb.Captures(idA) != 1 {
			t.Errorf("captures %d", ws.sb.Captures(idA))
		}

		// Five deliveries of each event, shuffled, from several goroutines.
		idB, b := paidAtPayPal()
		var deliveries [][]byte
		for _, e := range ws.eventsOf(idB) {
			for range 5 {
				deliveries = append(deliveries, e.Body)
			}
		}
		rand.Shuffle(len(deliveries), func(i, j int) { deliveries[i], deliveries[j] = deliveries[j], deliveries[i] })
		var wg sync.WaitGroup
		for i, body := range deliveries {
			wg.Go(func() {
				time.Sleep(time.Duration(i%5) * time.Millisecond)
				if code := ws.deliver(body, ws.sb.SignHeaders(body)); code != 200 {
					t.Errorf("shuffled delivery: %d", code)
				}
			})
		}
		wg.Wait()
		got := ws.order(b.ID)
		if settled(got) != settled(want) || mails(t, ws.db, b.ID) != 2 {
			t.Errorf("shuffled deliveries ended %q, in-order %q", settled(got), settled(want))
		}
		if _, capB := ws.capturedMinor(idB); got.CaptureID != capB {
			t.Errorf("capture id %q, PayPal's %q", got.CaptureID, capB)
		}
		// The same event id again (PayPal's resend) is a duplicate.
		if code := ws.deliver(evs[1].Body, ws.sb.SignHeaders(evs[1].Body)); code != 200 {
			t.Errorf("duplicate: %d", code)
		}

		// COMPLETED before APPROVED.
		idC, cOrder := paidAtPayPal()
		evC := ws.eventsOf(idC)
		for i := len(evC) - 1; i >= 0; i-- {
			if code := ws.deliver(evC[i].Body, ws.sb.SignHeaders(evC[i].Body)); code != 200 {
				t.Fatalf("reverse delivery: %d", code)
			}
		}
		if got := ws.order(cOrder.ID); settled(got) != settled(want) {
			t.Errorf("reverse order ended %q, want %q", settled(got), settled(want))
		}
		// The reconciler finds nothing left to do and captures nothing more.
		ws.srv.ReconcileWallet(context.Background(), true)
		for _, id := range []string{idA, idB, idC} {
			if ws.sb.Captures(id) != 1 {
				t.Errorf("%s captured %d times", id, ws.sb.Captures(id))
			}
		}
	})
}
