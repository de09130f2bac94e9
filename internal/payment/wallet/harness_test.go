package wallet_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The service is tested without HTTP: the wallet service over the SQL
// store (every configured engine) and the real cart and checkout services
// (wallet.Shop, as the server composes them), talking to the built-in
// sandbox on loopback (the PayPal side needs its HTTP API).

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

const cartLifetime = 48 * time.Hour

// fixture is a wallet service on a seeded store and a sandbox.
type fixture struct {
	t      *testing.T
	db     *sqlstore.DB
	svc    *wallet.Service
	clock  *storetest.Clock // the store and the services read it
	shop   wallet.Shop
	sb     *paypalsandbox.Sandbox
	pp     *paypal.Client // the test's own client, to act on PayPal's side
	offset atomic.Int64   // the service's clock runs this far ahead (abandoned orders)
	kicks  atomic.Int64
	n      atomic.Int64 // sessions made
}

func newFixture(t *testing.T, db *sqlstore.DB, cfg wallet.Config) *fixture {
	t.Helper()
	clock := storetest.NewClock(seedTime)
	db.SetClock(clock.Now)
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		t.Fatalf("seed: %v", err)
	}
	f := &fixture{t: t, db: db, clock: clock}
	f.sb = paypalsandbox.New(paypalsandbox.Config{ClientID: "test-client", Secret: "test-secret"})
	ts := httptest.NewServer(f.sb.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(f.sb.Close)
	f.sb.SetBaseURL(ts.URL)
	mk := func() *paypal.Client {
		return &paypal.Client{BaseURL: ts.URL, ClientID: "test-client", Secret: "test-secret", WebhookID: f.sb.WebhookID(),
			CertURLPrefixes: []string{f.sb.CertURLPrefix()}, CertRoots: f.sb.CertPool()}
	}
	f.pp = mk()
	cfg.PayPal = mk()
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = 5 * time.Second
	}
	usd, _ := money.Lookup("USD")
	ccfg := checkout.DefaultConfig(usd)
	now := func() time.Time { return clock.Now().Add(time.Duration(f.offset.Load())) }
	carts := &cart.Service{Store: db, Catalog: storetest.Cache(db), Lifetime: cartLifetime, Now: now}
	payments := payment.NewRegistry(payment.BankTransfer{}, payment.CashOnDelivery{}, wallet.Method)
	f.shop = wallet.Shop{Carts: carts, Checkout: &checkout.Service{Store: db, Carts: carts, Config: &ccfg,
		Payments: payments, Lifetime: cartLifetime, Now: now}}
	f.svc = wallet.New(cfg, wallet.Deps{Store: db, Checkout: f.shop, Config: &ccfg, BaseURL: "https://shop.example",
		Now: now, Kick: func() { f.kicks.Add(1) }})
	t.Cleanup(func() {
		if n := f.sb.MissingRequestIDs(); n != 0 {
			t.Errorf("%d PayPal POSTs without PayPal-Request-Id", n)
		}
	})
	return f
}

func (f *fixture) productID(slug string) int64 {
	f.t.Helper()
	p, err := f.db.ProductBySlug(context.Background(), slug)
	if err != nil {
		f.t.Fatalf("product %s: %v", slug, err)
	}
	return p.ID
}

func (f *fixture) stock(id int64) int64 {
	f.t.Helper()
	p, err := f.db.Product(context.Background(), id)
	if err != nil || p.StockQuantity == nil {
		f.t.Fatalf("stock of %d: %v", id, err)
	}
	return *p.StockQuantity
}

func (f *fixture) order(id int64) *checkout.Order {
	f.t.Helper()
	o, err := f.db.Order(context.Background(), id)
	if err != nil {
		f.t.Fatalf("order %d: %v", id, err)
	}
	return o
}

// mails counts the order's queued mails (confirmation and new order).
func (f *fixture) mails(id int64) int {
	f.t.Helper()
	n := 0
	for _, k := range []string{"confirmation", "new_order"} {
		if _, ok, err := f.db.MailByDedupeKey(context.Background(), fmt.Sprintf("order:%d:%s", id, k)); err != nil {
			f.t.Fatal(err)
		} else if ok {
			n++
		}
	}
	return n
}

// form is a valid classic checkout form.
func form() string {
	v := url.Values{}
	for k, val := range map[string]string{"first_name": "Ada", "last_name": "Lovelace", "address_1": "1 Main St", "city": "Sacramento",
		"state": "CA", "postcode": "95814", "country": "US", "email": "ada@example.com", "phone": "+1 555 010 0200"} {
		v.Set("billing_"+k, val)
	}
	v.Set("payment_method", "ppcp-gateway")
	v.Set("terms", "on")
	return v.Encode()
}

// start puts qty of a product in a new session's cart and creates a wallet
// order from the checkout form; it answers the session, the PayPal order
// id and the shop order.
func (f *fixture) start(slug string, qty int64) (string, string, *checkout.Order) {
	f.t.Helper()
	ctx := context.Background()
	sess := fmt.Sprintf("t_%030x", f.n.Add(1))
	if err := f.shop.AddToCart(ctx, sess, f.productID(slug), qty, nil); err != nil {
		f.t.Fatal(err)
	}
	c, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "checkout", PaymentMethod: "ppcp-gateway",
		FundingSource: "paypal", FormEncoded: form(), Remote: "192.0.2.1:1234", UserAgent: "test"})
	if err != nil {
		f.t.Fatalf("create order: %v", err)
	}
	if c.PayPal.ID == "" || c.Order.ProviderOrderID != "" && c.Order.ProviderOrderID != c.PayPal.ID {
		f.t.Fatalf("created %+v", c)
	}
	return sess, c.PayPal.ID, f.order(c.Order.ID)
}

// approve approves a PayPal order at the sandbox.
func (f *fixture) approve(id, funding string) {
	f.t.Helper()
	if _, err := f.sb.Approve(id, funding); err != nil {
		f.t.Fatal(err)
	}
}

// captured is the amount PayPal captured for an order, in minor units,
// and the capture id.
// settledOnce checks that a reconcile settled order o, PayPal order id:
// paid and processing, with the capture's id and amount, captured once.
func (f *fixture) settledOnce(id string, o *checkout.Order) {
	f.t.Helper()
	got := f.order(o.ID)
	amount, capture := f.captured(id)
	if !got.Paid() || got.Status != checkout.StatusProcessing || got.CaptureID != capture || amount != got.Total || f.sb.Captures(id) != 1 {
		f.t.Errorf("order %d after reconcile: %+v (captures %d)", o.ID, got, f.sb.Captures(id))
	}
}

func (f *fixture) captured(id string) (int64, string) {
	f.t.Helper()
	o, ok := f.sb.Order(id)
	if !ok || len(o.Captures()) != 1 {
		f.t.Fatalf("sandbox order %s has no single capture", id)
	}
	c := o.Captures()[0]
	v, err := c.Amount.Minor()
	if err != nil {
		f.t.Fatal(err)
	}
	return v, c.ID
}
