package wallet_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
)

// The service is tested without HTTP: the wallet service over the SQL
// store (every configured engine) and a Checkout port made here from the
// store and the cart and checkout rules, talking to the built-in sandbox
// on loopback (the PayPal side needs its HTTP API).

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

const cartLifetime = 48 * time.Hour

// port is a Checkout port on the store alone, for simple products: the
// cart's lines are priced from the catalogue, orders placed by the store
// (which re-prices and takes the stock inside its transaction).
type port struct {
	db  *sqlstore.DB
	cfg *checkout.Config
}

var _ wallet.Checkout = (*port)(nil)

func (p *port) Cart(ctx context.Context, session string, now time.Time) (*cart.Cart, error) {
	return p.db.Cart(ctx, session, now)
}

func (p *port) SetCustomer(ctx context.Context, session string, c cart.Customer, now time.Time) error {
	return p.db.SetCustomer(ctx, session, c, now, now.Add(cartLifetime))
}

func (p *port) QuoteCart(ctx context.Context, session string) (wallet.QuotedCart, error) {
	c, err := p.db.Cart(ctx, session, time.Now())
	if err != nil {
		return wallet.QuotedCart{}, err
	}
	q, err := p.Quote(c.Lines, nil, c.Customer)
	return wallet.QuotedCart{Empty: len(c.Lines) == 0, Hash: fmt.Sprint(len(c.Lines)), Quote: q}, err
}

func (p *port) ResolveLine(ctx context.Context, id int64, _ []cart.Attr, now time.Time) (*catalog.Product, *catalog.Product, cart.Line, error) {
	sell, err := p.db.Product(ctx, id)
	if err != nil || sell.Type != catalog.TypeSimple {
		return nil, nil, cart.Line{}, &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "This product cannot be added to the cart."}
	}
	if err := cart.CheckSellable(sell, nil, now); err != nil {
		return nil, nil, cart.Line{}, err
	}
	price, _ := sell.Price(now)
	l := cart.Line{ProductID: sell.ID, UnitPrice: price}
	l.Key = cart.LineKey(l.ProductID, 0, nil)
	return sell, nil, l, nil
}

func (p *port) Quote(lines []cart.Line, _ map[int64]*catalog.Product, c cart.Customer) (checkout.Quotation, error) {
	items := make([]checkout.Item, 0, len(lines))
	for _, l := range lines {
		items = append(items, checkout.Item{Key: l.Key, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Taxable: true})
	}
	return checkout.Quote(items, checkout.Customer{Billing: c.Billing, Shipping: c.Shipping, RateID: c.ShippingRate}, p.cfg)
}

func (p *port) AddToCart(ctx context.Context, session string, id, qty int64, chosen []cart.Attr, now time.Time) error {
	sell, parent, line, err := p.ResolveLine(ctx, id, chosen, now)
	if err != nil {
		return err
	}
	line.Quantity = qty
	_, err = p.db.AddLine(ctx, session, line, now, now.Add(cartLifetime), func(c *cart.Cart, existing, total int64) error {
		return cart.CheckQuantityHeld(cart.WithStock(sell, parent), total, existing, 0, true)
	})
	return err
}

func (p *port) RemoveLine(ctx context.Context, session, key string, now time.Time) error {
	return p.db.RemoveLine(ctx, session, key, now, now.Add(cartLifetime))
}

func (p *port) RestoreLines(ctx context.Context, session string, lines []cart.Line, now time.Time) error {
	return p.db.RestoreCartLines(ctx, session, lines, now, now.Add(cartLifetime))
}

func (p *port) ClearCart(ctx context.Context, session string) error {
	return p.db.ClearCart(ctx, session)
}

func (p *port) PlaceFormOrder(ctx context.Context, in wallet.FormOrder) (*checkout.Order, error) {
	shipping := in.Billing
	if in.Shipping != nil {
		shipping = *in.Shipping
	}
	shipping.Email = ""
	sum := sha256.Sum256(in.Body)
	o, _, err := p.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: in.Session,
		Customer: checkout.Customer{Billing: in.Billing, Shipping: shipping}, Method: wallet.Method,
		Status: checkout.StatusPending, Config: p.cfg, Meta: map[string]string{}, IdempotencyScope: "checkout:" + in.Session,
		IdempotencyKey: in.IdempotencyKey, RequestHash: hex.EncodeToString(sum[:]), Now: time.Now()})
	return o, err
}

func (p *port) PlaceCartOrder(ctx context.Context, in wallet.CartOrder) (*checkout.Order, error) {
	o, _, err := p.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: in.Session, Customer: in.Customer, Method: wallet.Method,
		Status: checkout.StatusPending, Config: p.cfg, Meta: in.Meta, IdempotencyScope: in.IdempotencyScope,
		IdempotencyKey: in.IdempotencyKey, RequestHash: in.RequestHash, Now: in.Now})
	return o, err
}

// fixture is a wallet service on a seeded store and a sandbox.
type fixture struct {
	t      *testing.T
	db     *sqlstore.DB
	svc    *wallet.Service
	port   *port
	sb     *paypalsandbox.Sandbox
	pp     *paypal.Client // the test's own client, to act on PayPal's side
	offset atomic.Int64   // the service's clock runs this far ahead (abandoned orders)
	kicks  atomic.Int64
	n      atomic.Int64 // sessions made
}

func newFixture(t *testing.T, db *sqlstore.DB, cfg wallet.Config) *fixture {
	t.Helper()
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		t.Fatalf("seed: %v", err)
	}
	f := &fixture{t: t, db: db}
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
	f.port = &port{db: db, cfg: &ccfg}
	f.svc = wallet.New(cfg, wallet.Deps{Store: db, Checkout: f.port, Config: &ccfg, BaseURL: "https://shop.example",
		Now:  func() time.Time { return time.Now().UTC().Add(time.Duration(f.offset.Load())) },
		Kick: func() { f.kicks.Add(1) }})
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
	if err := f.port.AddToCart(ctx, sess, f.productID(slug), qty, nil, time.Now()); err != nil {
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
