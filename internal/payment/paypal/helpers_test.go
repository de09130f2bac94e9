package paypal_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
)

// env is a client talking to a sandbox on loopback. The sandbox refuses
// API POSTs without PayPal-Request-Id (its default), and every test checks
// at the end that none came.
type env struct {
	t   *testing.T
	c   *paypal.Client
	sb  *paypalsandbox.Sandbox
	srv *httptest.Server
}

func newEnv(t *testing.T, mutate ...func(*paypalsandbox.Config)) *env {
	t.Helper()
	cfg := paypalsandbox.Config{ClientID: "client-id", Secret: "secret", WebhookID: "WH-TEST"}
	for _, m := range mutate {
		m(&cfg)
	}
	sb := paypalsandbox.New(cfg)
	srv := httptest.NewServer(sb.Handler())
	sb.SetBaseURL(srv.URL)
	e := &env{t: t, sb: sb, srv: srv, c: &paypal.Client{
		BaseURL:         srv.URL,
		ClientID:        "client-id",
		Secret:          "secret",
		HTTP:            srv.Client(),
		WebhookID:       "WH-TEST",
		CertURLPrefixes: []string{sb.CertURLPrefix()},
	}}
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
		if n := sb.MissingRequestIDs(); n != 0 {
			t.Errorf("%d API POSTs came without PayPal-Request-Id", n)
		}
	})
	return e
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// spec is a shop cart: 2 × 12.50 + 1 × 5.00, shipping 4.99, tax 2.40,
// discount 3.00 → total 34.39 USD.
func spec() paypal.UnitSpec {
	return paypal.UnitSpec{
		Currency: "USD",
		Items: []paypal.ItemSpec{
			{Name: "Linen shirt", SKU: "SHIRT-1", Quantity: 2, UnitAmount: 1250},
			{Name: "Socks", SKU: "SOCK-1", Quantity: 1, UnitAmount: 500},
		},
		Shipping: 499,
		TaxTotal: 240,
		Discount: 300,
		Total:    3439,
		CustomID: "1001",
	}
}

func createReq(t *testing.T, s paypal.UnitSpec) paypal.CreateOrderRequest {
	t.Helper()
	pu, err := paypal.NewPurchaseUnit(s)
	if err != nil {
		t.Fatalf("NewPurchaseUnit: %v", err)
	}
	return paypal.CreateOrderRequest{
		Intent:        paypal.IntentCapture,
		PurchaseUnits: []paypal.PurchaseUnit{pu},
		PaymentSource: &paypal.PaymentSource{PayPal: &paypal.PayPalSource{ExperienceContext: &paypal.ExperienceContext{
			ReturnURL: "http://127.0.0.1:1/checkout/return", CancelURL: "http://127.0.0.1:1/checkout/cancel", UserAction: paypal.UserActionPayNow,
		}}},
	}
}

// created makes an order and returns its id.
func (e *env) created(key string) string {
	e.t.Helper()
	o, err := e.c.CreateOrder(ctx(e.t), key, createReq(e.t, spec()))
	if err != nil {
		e.t.Fatalf("CreateOrder: %v", err)
	}
	return o.ID
}

// approved makes an order and approves it with a funding source.
func (e *env) approved(key, funding string) string {
	e.t.Helper()
	id := e.created(key)
	if _, err := e.sb.Approve(id, funding); err != nil {
		e.t.Fatalf("Approve: %v", err)
	}
	return id
}

// countingTransport counts requests by path.
type countingTransport struct {
	base  http.RoundTripper
	count func(*http.Request)
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.count(r)
	return c.base.RoundTrip(r)
}

type paypalsandboxConfig = paypalsandbox.Config

func paypalsandboxFault(method, suffix string) paypalsandbox.Fault {
	return paypalsandbox.Fault{Method: method, PathSuffix: suffix, Drop: true, AfterProcessing: true}
}
