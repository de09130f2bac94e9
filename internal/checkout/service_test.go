package checkout_test

// The checkout's use cases called directly, without HTTP, on every
// configured engine (storetest), with the demo catalogue.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/consent"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

type fixture struct {
	t      *testing.T
	db     *sqlstore.DB
	carts  *cart.Service
	svc    *checkout.Service
	clock  *storetest.Clock // the store and the services read it
	placed atomic.Int64
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	clock := storetest.NewClock(seedTime)
	db.SetClock(clock.Now)
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		t.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	f := &fixture{t: t, db: db, clock: clock, carts: &cart.Service{Store: db, Catalog: storetest.Cache(db), Now: clock.Now}}
	f.svc = &checkout.Service{Store: db, Carts: f.carts, Config: &cfg, Now: clock.Now,
		Payments: payment.NewRegistry(payment.BankTransfer{}, payment.CashOnDelivery{}),
		Placed:   func() { f.placed.Add(1) }}
	return f
}

func (f *fixture) productID(slug string) int64 {
	f.t.Helper()
	p, err := f.db.ProductBySlug(context.Background(), slug)
	if err != nil {
		f.t.Fatalf("%s: %v", slug, err)
	}
	return p.ID
}

func (f *fixture) add(sid string, id, qty int64) {
	f.t.Helper()
	if _, _, err := f.carts.Add(context.Background(), sid, id, qty, nil); err != nil {
		f.t.Fatal(err)
	}
}

func session(i int) string { return fmt.Sprintf("t_%030x", i) }

func billing() cart.Address {
	return cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA",
		Postcode: "95814", Country: "US", Email: "ada@example.com", Phone: "+1 555 010 0200"}
}

// placeAtOnce places n orders at the same moment, req(i) each, and
// returns their errors.
func (f *fixture) placeAtOnce(n int, req func(i int) checkout.PlaceRequest) []error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = f.svc.PlaceOrder(context.Background(), req(i))
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// tally counts the orders placed and the refusals refused says are
// expected; any other error fails the test.
func tally(t *testing.T, errs []error, refused func(*cart.Error) bool) (ok, refusals int) {
	t.Helper()
	for _, err := range errs {
		var ce *cart.Error
		switch {
		case err == nil:
			ok++
		case errors.As(err, &ce) && refused(ce):
			refusals++
		default:
			t.Errorf("unexpected: %v", err)
		}
	}
	return ok, refusals
}

func request(sid string) checkout.PlaceRequest {
	return checkout.PlaceRequest{Session: sid, Billing: billing(), Method: "bacs", Body: []byte("the request"),
		ClientIP: "192.0.2.7", UserAgent: "test"}
}

func TestServicePlaceOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		sid := session(1)
		if _, err := f.svc.PlaceOrder(ctx, request(sid)); err != checkout.ErrCartEmpty {
			t.Fatalf("empty cart: %v", err)
		}
		tank := f.productID("cotton-tank-top")
		f.add(sid, tank, 2)
		b := billing()
		if err := f.carts.UpdateCustomer(ctx, sid, &b, nil); err != nil {
			t.Fatal(err)
		}
		pc, err := f.svc.Cart(ctx, sid, "")
		if err != nil || len(pc.Lines) != 1 || pc.Hash() == "" {
			t.Fatalf("priced cart: %+v %v", pc, err)
		}

		// Validation comes before anything is read or written.
		bad := request(sid)
		bad.Billing.Email = "nope"
		var ve *checkout.ValidationError
		if _, err := f.svc.PlaceOrder(ctx, bad); !errors.As(err, &ve) || len(ve.Fields) == 0 {
			t.Fatalf("invalid email: %v", err)
		}
		unknown := request(sid)
		unknown.Method = "gold"
		var ce *cart.Error
		if _, err := f.svc.PlaceOrder(ctx, unknown); !errors.As(err, &ce) || ce.Code != "woocommerce_rest_checkout_payment_method_disabled" {
			t.Fatalf("unknown method: %v", err)
		}

		o, err := f.svc.PlaceOrder(ctx, request(sid))
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != checkout.StatusOnHold || o.PaymentMethod != "bacs" || o.Total != pc.Quote.Total || f.placed.Load() != 1 ||
			o.Meta["_customer_ip_address"] != "192.0.2.7" {
			t.Errorf("order: status %s method %s total %d (quoted %d), placed %d, meta %v", o.Status, o.PaymentMethod, o.Total,
				pc.Quote.Total, f.placed.Load(), o.Meta)
		}
		// The cart is empty and the customer remembered.
		if c, err := f.carts.Get(ctx, sid); err != nil || len(c.Lines) != 0 || c.Customer.Billing.Email != "ada@example.com" {
			t.Errorf("after the order: %+v %v", c, err)
		}
		// The same request again (a double submit on the emptied cart) is
		// the same order.
		again, err := f.svc.PlaceOrder(ctx, request(sid))
		if err != nil || again.ID != o.ID {
			t.Errorf("double submit: %v %v", again, err)
		}

		// Order received: the id and the key together.
		if r, err := f.svc.OrderReceived(ctx, o.ID, o.Key); err != nil || r.ID != o.ID {
			t.Errorf("order received: %v %v", r, err)
		}
		for _, tc := range []struct {
			id  int64
			key string
		}{{o.ID, ""}, {o.ID, o.Key + "x"}, {o.ID + 1, o.Key}, {0, o.Key}, {o.ID, string(make([]byte, 65))}} {
			if r, err := f.svc.OrderReceived(ctx, tc.id, tc.key); err != checkout.ErrOrderNotFound || r != nil {
				t.Errorf("order received %d %q: %v %v", tc.id, tc.key, r, err)
			}
		}
	})
}

// A client's Idempotency-Key: the same request again answers the first
// order; another request under the same key is refused.
func TestServiceIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		sid := session(2)
		f.add(sid, f.productID("cotton-tank-top"), 1)
		pr := request(sid)
		pr.IdempotencyKey = "order-1"
		o, err := f.svc.PlaceOrder(ctx, pr)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := f.svc.PlaceOrder(ctx, pr); err != nil || again.ID != o.ID {
			t.Errorf("replay: %v %v", again, err)
		}
		f.add(sid, f.productID("cotton-tank-top"), 1)
		other := pr
		other.Body = []byte("another request")
		if _, err := f.svc.PlaceOrder(ctx, other); err != checkout.ErrIdempotencyReused {
			t.Errorf("key reused: %v", err)
		}
	})
}

// Many shoppers racing for the last units: exactly as many orders as
// units, the rest refused as out of stock, no oversell.
func TestServiceConcurrentPlaceOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		p, err := db.ProductBySlug(ctx, "studio-staff-cap")
		if err != nil {
			t.Fatal(err)
		}
		units := int64(10)
		p.ManageStock, p.StockQuantity, p.Backorders = true, &units, "no"
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		const buyers = 50
		for i := range buyers {
			f.add(session(100+i), p.ID, 1)
		}
		errs := f.placeAtOnce(buyers, func(i int) checkout.PlaceRequest { return request(session(100 + i)) })
		ok, out := tally(t, errs, func(ce *cart.Error) bool { return ce.Code == "woocommerce_rest_product_out_of_stock" })
		if ok != int(units) || out != buyers-int(units) || f.placed.Load() != units {
			t.Fatalf("%d orders, %d refusals, %d placed", ok, out, f.placed.Load())
		}
		p, _ = db.Product(ctx, p.ID)
		if *p.StockQuantity != 0 || p.StockStatus != "outofstock" {
			t.Errorf("stock %d %s", *p.StockQuantity, p.StockStatus)
		}
	})
}

// Choosing a shipping rate: only one the destination offers.
func TestServiceSelectRate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		sid := session(3)
		f.add(sid, f.productID("cotton-tank-top"), 1)
		b := billing()
		if err := f.carts.UpdateCustomer(ctx, sid, &b, nil); err != nil {
			t.Fatal(err)
		}
		pc, err := f.svc.Cart(ctx, sid, "")
		if err != nil || len(pc.Quote.Packages) == 0 || len(pc.Quote.Packages[0].Rates) == 0 {
			t.Fatalf("quote: %+v %v", pc, err)
		}
		rates := pc.Quote.Packages[0].Rates
		want := rates[len(rates)-1].ID
		if err := f.svc.SelectRate(ctx, sid, "1", want, ""); err != checkout.ErrInvalidPackage {
			t.Errorf("package 1: %v", err)
		}
		if err := f.svc.SelectRate(ctx, sid, "", "nope:9", ""); err != checkout.ErrInvalidRate {
			t.Errorf("unknown rate: %v", err)
		}
		if err := f.svc.SelectRate(ctx, sid, "0", want, ""); err != nil {
			t.Fatal(err)
		}
		if c, _ := f.carts.Get(ctx, sid); c.Customer.ShippingRate != want {
			t.Errorf("rate %q, want %q", c.Customer.ShippingRate, want)
		}
	})
}

// The checkout rate limit counts per session in the store.
func TestServiceRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Config.RateLimit = 2
		ctx := context.Background()
		for i := range 3 {
			wait, ok := f.svc.Allow(ctx, session(4), "192.0.2.1")
			if ok != (i < 2) || !ok && wait <= 0 {
				t.Errorf("attempt %d: %v %v", i+1, ok, wait)
			}
		}
		if _, ok := f.svc.Allow(ctx, session(5), "192.0.2.1"); !ok {
			t.Errorf("another session was refused")
		}
		if k := checkout.AddressKey("2001:db8::1"); k != "2001:db8::/64" {
			t.Errorf("AddressKey: %q", k)
		}
	})
}

// Order attribution is kept only where the shopper's consent allows it:
// with the consent banner on, an Accept; never a Reject or Global Privacy
// Control; a shop without the banner keeps it unless the shopper refused.
func TestServiceAttributionFollowsConsent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		banner := false
		f.svc.ConsentAsked = func() bool { return banner }
		tank := f.productID("cotton-tank-top")
		for i, tc := range []struct {
			name   string
			banner bool
			signal consent.Signal
			kept   bool
		}{
			{"banner on, no choice yet", true, consent.Signal{}, false},
			{"banner on, accepted", true, consent.Signal{Choice: consent.Granted}, true},
			{"banner on, rejected", true, consent.Signal{Choice: consent.Denied}, false},
			{"banner on, accepted but GPC", true, consent.Signal{Choice: consent.Granted, GPC: true}, false},
			{"banner off, nothing said", false, consent.Signal{}, true},
			{"banner off, GPC", false, consent.Signal{GPC: true}, false},
			{"banner off, rejected earlier", false, consent.Signal{Choice: consent.Denied}, false},
		} {
			banner = tc.banner
			sid := session(100 + i)
			f.add(sid, tank, 1)
			pr := request(sid)
			pr.Attribution = map[string]string{"source_type": "utm", "utm_source": "newsletter"}
			pr.Consent = tc.signal
			o, err := f.svc.PlaceOrder(ctx, pr)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			stored, err := db.Order(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for k := range stored.Meta {
				if strings.HasPrefix(k, checkout.AttributionMetaPrefix) {
					kept++
				}
			}
			if tc.kept != (kept > 0) || (tc.kept && stored.Meta["_wc_order_attribution_origin"] != "Source: Newsletter") {
				t.Errorf("%s: %d attribution fields stored, want kept %v: %v", tc.name, kept, tc.kept, stored.Meta)
			}
			// What is not attribution stays: the address the order came from.
			if stored.Meta["_customer_ip_address"] != "192.0.2.7" {
				t.Errorf("%s: meta %v", tc.name, stored.Meta)
			}
		}
	})
}
