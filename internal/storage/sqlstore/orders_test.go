package sqlstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var orderNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// orderFixture is a store with a simple product (stock managed), an
// unmanaged product and a variable product whose stock is managed on the
// parent for one variation and on the variation for the other.
type orderFixture struct {
	db                  *sqlstore.DB
	cfg                 checkout.Config
	lamp, mug, shirt    *catalog.Product
	shirtRed, shirtBlue *catalog.Product
}

func newOrderFixture(t testing.TB, db *sqlstore.DB, lampStock int64) *orderFixture {
	t.Helper()
	ctx := context.Background()
	f := &orderFixture{db: db}
	usd, _ := money.Lookup("USD")
	f.cfg = checkout.DefaultConfig(usd)
	f.lamp = &catalog.Product{Type: catalog.TypeSimple, Name: "Desk Lamp", Slug: "desk-lamp", SKU: "LAMP", RegularPrice: i64(4500),
		ManageStock: true, StockQuantity: i64(lampStock), Purchasable: true}
	f.mug = &catalog.Product{Type: catalog.TypeSimple, Name: "Mug & Saucer", Slug: "mug", RegularPrice: i64(1200), SalePrice: i64(999), Purchasable: true}
	f.shirt = &catalog.Product{Type: catalog.TypeVariable, Name: "Shirt", Slug: "shirt", SKU: "SHIRT", Purchasable: true,
		ManageStock: true, StockQuantity: i64(5),
		Attributes: []catalog.ProductAttribute{{Name: "Colour", Visible: true, Variation: true,
			Values: []catalog.AttributeValue{{Name: "Red", Slug: "Red"}, {Name: "Blue", Slug: "Blue"}}}}}
	f.shirtRed = &catalog.Product{Type: catalog.TypeVariation, Name: "Shirt - Red", RegularPrice: i64(3000), Purchasable: true, Active: true,
		Variation: []catalog.VariationAttr{{Name: "colour", Value: "Red"}}}
	f.shirtBlue = &catalog.Product{Type: catalog.TypeVariation, Name: "Shirt - Blue", SKU: "SHIRT-B", RegularPrice: i64(3200), Purchasable: true, Active: true,
		ManageStock: true, StockQuantity: i64(2), Variation: []catalog.VariationAttr{{Name: "colour", Value: "Blue"}}}
	for _, p := range []*catalog.Product{f.lamp, f.mug} {
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SaveProduct(ctx, f.shirt, []*catalog.Product{f.shirtRed, f.shirtBlue}); err != nil {
		t.Fatal(err)
	}
	if f.shirtRed.ID == 0 || f.shirtBlue.ID == 0 {
		t.Fatal("variations have no ids")
	}
	return f
}

func session(n int) string { return fmt.Sprintf("t_%030x", n) }

func (f *orderFixture) add(t testing.TB, sess string, p *catalog.Product, parent *catalog.Product, qty, price int64) {
	t.Helper()
	l := cart.Line{ProductID: p.ID, Quantity: qty, UnitPrice: price}
	if parent != nil {
		l.ProductID, l.VariationID = parent.ID, p.ID
		l.Variation = []cart.Attr{{Attribute: "colour", Value: p.Variation[0].Value}}
	}
	l.Key = cart.LineKey(l.ProductID, l.VariationID, l.Variation)
	// Rows are written directly: these tests are about orders, not about
	// the cart store's write path.
	ctx := context.Background()
	attrs, _ := json.Marshal(l.Variation)
	if l.Variation == nil {
		attrs = []byte("[]")
	}
	if err := f.db.ExecForTest(ctx, `INSERT INTO cart_sessions (id, customer, created_at, updated_at, expires_at) VALUES (?, '{}', ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, sess, orderNow, orderNow, orderNow.Add(cart.Lifetime).Unix()); err != nil {
		t.Fatal(err)
	}
	pos, _ := f.db.QueryIntForTest(ctx, `SELECT COALESCE(MAX(position), 0) + 1 FROM cart_lines WHERE session_id = ?`, sess)
	if err := f.db.ExecForTest(ctx, `INSERT INTO cart_lines (session_id, line_key, product_id, variation_id, attributes, quantity, unit_price, position)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, sess, l.Key, l.ProductID, l.VariationID, string(attrs), qty, price, pos); err != nil {
		t.Fatal(err)
	}
}

func (f *orderFixture) input(sess string, m payment.Method, key string) sqlstore.PlaceOrderInput {
	status := checkout.StatusPending
	if om, ok := m.(payment.OfflineMethod); ok {
		status = om.PlacedStatus()
	}
	return sqlstore.PlaceOrderInput{Session: sess, Method: m, Status: status, Config: &f.cfg, Now: orderNow,
		Customer: checkout.Customer{
			Billing:  checkout.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US", Email: "ada@example.com", Phone: "5550100200"},
			Shipping: checkout.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US"},
		},
		Meta:             map[string]string{"_wc_order_attribution_source_type": "typein"},
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: key, RequestHash: "hash-" + key}
}

func (f *orderFixture) stock(t *testing.T, id int64) int64 {
	t.Helper()
	n, err := f.db.QueryIntForTest(context.Background(), `SELECT stock_quantity FROM products WHERE id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *orderFixture) count(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	n, err := f.db.QueryIntForTest(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPlaceOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 10)
		sess := session(1)
		f.add(t, sess, f.lamp, nil, 2, 1)             // a stale, tampered line price: the catalogue's wins
		f.add(t, sess, f.mug, nil, 3, 1200)           // on sale: 9.99 is paid
		f.add(t, sess, f.shirtRed, f.shirt, 1, 3000)  // stock on the parent
		f.add(t, sess, f.shirtBlue, f.shirt, 2, 3200) // its own stock
		changesBefore := f.count(t, `SELECT COUNT(*) FROM catalog_changes`)

		o, replayed, err := db.PlaceOrder(ctx, f.input(sess, payment.BankTransfer{}, "k1"))
		if err != nil || replayed {
			t.Fatalf("place: %v %v", err, replayed)
		}
		if o.ID == 0 || o.Number != fmt.Sprint(o.ID) || !strings.HasPrefix(o.Key, "wc_order_") || o.Status != "on-hold" ||
			o.PaymentMethod != "bacs" || o.PaymentMethodTitle != "Direct bank transfer" || o.Currency != "USD" {
			t.Fatalf("order %+v", o)
		}
		// Lines copy what was bought, at the catalogue's price.
		want := []struct {
			name, sku string
			qty, unit int64
			attr      string
		}{{"Desk Lamp", "LAMP", 2, 4500, ""}, {"Mug & Saucer", "", 3, 999, ""}, {"Shirt", "SHIRT", 1, 3000, "Colour=Red"}, {"Shirt", "SHIRT-B", 2, 3200, "Colour=Blue"}}
		if len(o.Lines) != len(want) {
			t.Fatalf("lines %+v", o.Lines)
		}
		var items int64
		for i, w := range want {
			l := o.Lines[i]
			attr := ""
			if len(l.Variation) > 0 {
				attr = l.Variation[0].Attribute + "=" + l.Variation[0].Value
			}
			if l.Name != w.name || l.SKU != w.sku || l.Quantity != w.qty || l.UnitPrice != w.unit || l.Subtotal != w.qty*w.unit || attr != w.attr {
				t.Errorf("line %d: %+v", i, l)
			}
			items += w.qty * w.unit
		}
		// 9000 + 2997 + 3000 + 6400 = 21397: free shipping (the first rate
		// once the cart qualifies) is chosen by default; CA tax 7.25 %.
		q, _ := checkout.Quote([]checkout.Item{{Quantity: 2, UnitPrice: 4500, Taxable: true}, {Quantity: 3, UnitPrice: 999, Taxable: true},
			{Quantity: 1, UnitPrice: 3000, Taxable: true}, {Quantity: 2, UnitPrice: 3200, Taxable: true}}, f.input(sess, payment.CashOnDelivery{}, "").Customer, &f.cfg)
		if o.ItemsSubtotal != items || o.Total != q.Total || o.TotalTax != q.TotalTax || o.ShippingTotal != 0 || len(o.TaxLines) != 1 ||
			len(o.ShippingLines) != 1 || o.ShippingLines[0].RateID != "free_shipping:2" {
			t.Errorf("totals: items %d total %d (want %d) tax %d ship %d lines %+v %+v", o.ItemsSubtotal, o.Total, q.Total, o.TotalTax,
				o.ShippingTotal, o.TaxLines, o.ShippingLines)
		}
		// Stock: lamp 10-2, the parent 5-1 (for red), blue 2-2.
		if f.stock(t, f.lamp.ID) != 8 || f.stock(t, f.shirt.ID) != 4 || f.stock(t, f.shirtBlue.ID) != 0 {
			t.Errorf("stock lamp %d shirt %d blue %d", f.stock(t, f.lamp.ID), f.stock(t, f.shirt.ID), f.stock(t, f.shirtBlue.ID))
		}
		if st := f.count(t, `SELECT COUNT(*) FROM products WHERE id = ? AND stock_status = 'outofstock'`, f.shirtBlue.ID); st != 1 {
			t.Error("blue not out of stock")
		}
		// One change per stock row; blue's status flipped (a page change).
		if n := f.count(t, `SELECT COUNT(*) FROM catalog_changes`) - changesBefore; n != 3 {
			t.Errorf("%d catalogue changes", n)
		}
		if n := f.count(t, `SELECT COUNT(*) FROM catalog_changes WHERE product_id = ? AND kind = 'product'`, f.shirtBlue.ID); n != 1 {
			t.Errorf("blue change kind")
		}
		// The cart is empty; the mails are queued once each.
		c, _ := db.Cart(ctx, sess, orderNow)
		if len(c.Lines) != 0 {
			t.Errorf("cart kept %d lines", len(c.Lines))
		}
		if n := f.count(t, `SELECT COUNT(*) FROM mail_outbox WHERE ref = ?`, fmt.Sprint(o.ID)); n != 2 {
			t.Errorf("%d mails queued", n)
		}
		// Reading it back gives the same order.
		back, err := db.Order(ctx, o.ID)
		if err != nil || back.Total != o.Total || len(back.Lines) != 4 || back.Lines[3].Variation[0].Value != "Blue" ||
			back.Billing.Email != "ada@example.com" || back.Meta["_wc_order_attribution_source_type"] != "typein" ||
			back.PaymentState != checkout.PayNone || back.CreatedAt.Unix() != orderNow.Unix() {
			t.Fatalf("read back: %+v %v", back, err)
		}
		byKey, err := db.OrderByKey(ctx, o.Key)
		if err != nil || byKey.ID != o.ID {
			t.Errorf("by key: %v", err)
		}
		if _, err := db.OrderByKey(ctx, "wc_order_nope"); !errors.Is(err, sqlstore.ErrOrderNotFound) {
			t.Errorf("unknown key: %v", err)
		}

		// A replay of the key returns the first order and creates nothing.
		f.add(t, sess, f.lamp, nil, 1, 4500)
		again, replayed, err := db.PlaceOrder(ctx, f.input(sess, payment.BankTransfer{}, "k1"))
		if err != nil || !replayed || again.ID != o.ID {
			t.Fatalf("replay: %v %v %+v", err, replayed, again)
		}
		if f.stock(t, f.lamp.ID) != 8 || f.count(t, `SELECT COUNT(*) FROM orders`) != 1 {
			t.Error("a replay changed something")
		}
		// The same key with another request is refused.
		in := f.input(sess, payment.BankTransfer{}, "k1")
		in.RequestHash = "other"
		if _, _, err := db.PlaceOrder(ctx, in); err != sqlstore.ErrIdempotencyReused {
			t.Errorf("reused key: %v", err)
		}
		// The empty-cart replay window: same hash, new key, empty cart.
		sess2 := session(2)
		f.add(t, sess2, f.mug, nil, 1, 999)
		first, _, err := db.PlaceOrder(ctx, f.input(sess2, payment.CashOnDelivery{}, "a"))
		if err != nil || first.Status != "processing" {
			t.Fatalf("cod: %v %+v", err, first)
		}
		in = f.input(sess2, payment.CashOnDelivery{}, "b")
		in.RequestHash = "hash-a"
		if _, _, err := db.PlaceOrder(ctx, in); err != sqlstore.ErrCartEmpty {
			t.Errorf("no window: %v", err)
		}
		in.IdempotencyKey = "c"
		in.ReplayWindow = time.Minute
		dup, replayed, err := db.PlaceOrder(ctx, in)
		if err != nil || !replayed || dup.ID != first.ID {
			t.Errorf("window replay: %v %v", err, replayed)
		}
		in.IdempotencyKey, in.RequestHash = "d", "different body"
		if _, _, err := db.PlaceOrder(ctx, in); err != sqlstore.ErrCartEmpty {
			t.Errorf("window with another body: %v", err)
		}
	})
}

func TestPlaceOrderRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 1)
		// Two lamps, one in stock: partially out of stock; nothing changes.
		sess := session(3)
		f.add(t, sess, f.lamp, nil, 2, 4500)
		f.add(t, sess, f.mug, nil, 1, 999)
		_, _, err := db.PlaceOrder(ctx, f.input(sess, payment.BankTransfer{}, "x"))
		var ce *cart.Error
		if !errors.As(err, &ce) || ce.Status != 409 || ce.Code != "woocommerce_rest_product_partially_out_of_stock" ||
			ce.Message != "There is not enough Desk Lamp in stock. Please reduce the quantity in your cart." {
			t.Fatalf("partial: %v", err)
		}
		if f.stock(t, f.lamp.ID) != 1 || f.count(t, `SELECT COUNT(*) FROM orders`) != 0 || f.count(t, `SELECT COUNT(*) FROM checkout_attempts`) != 0 ||
			f.count(t, `SELECT COUNT(*) FROM mail_outbox`) != 0 {
			t.Error("a refused order changed something")
		}
		if c, _ := db.Cart(ctx, sess, orderNow); len(c.Lines) != 2 {
			t.Error("a refused order emptied the cart")
		}
		// Unpublished product, and several out of stock at once.
		f.lamp.StockQuantity = i64(0)
		f.lamp.StockStatus = catalog.StockOutOfStock
		f.mug.Status = catalog.StatusDraft
		for _, p := range []*catalog.Product{f.lamp, f.mug} {
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err = db.PlaceOrder(ctx, f.input(sess, payment.BankTransfer{}, "y"))
		if !errors.As(err, &ce) || ce.Code != "woocommerce_rest_product_out_of_stock" ||
			ce.Message != "Desk Lamp is out of stock and cannot be purchased. Please remove it from your cart. Mug &amp; Saucer cannot be purchased. Please remove it from your cart." {
			t.Fatalf("refusals: %v", err)
		}
		// Empty and unknown sessions.
		if _, _, err := db.PlaceOrder(ctx, f.input(session(99), payment.BankTransfer{}, "z")); err != sqlstore.ErrCartEmpty {
			t.Errorf("empty: %v", err)
		}
	})
}

// checkoutRace is buyers sessions (session(100) on), each with one lamp
// in its cart, placing their orders at once when the gate closes.
type checkoutRace struct {
	wg              sync.WaitGroup
	mu              sync.Mutex
	placed, refused int
	other           []error
}

// raceCheckouts fills the buyers' carts and starts their checkouts, each
// waiting on gate; refusal tells the refusals the test expects from other
// errors. Wait for them with wait.
func (f *orderFixture) raceCheckouts(t *testing.T, buyers int, gate <-chan struct{}, refusal func(*cart.Error) bool) *checkoutRace {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < buyers; i++ {
		f.add(t, session(100+i), f.lamp, nil, 1, 4500)
	}
	r := &checkoutRace{}
	for i := 0; i < buyers; i++ {
		r.wg.Add(1)
		go func(i int) {
			defer r.wg.Done()
			<-gate
			_, _, err := f.db.PlaceOrder(ctx, f.input(session(100+i), payment.BankTransfer{}, fmt.Sprint("k", i)))
			r.mu.Lock()
			defer r.mu.Unlock()
			var ce *cart.Error
			switch {
			case err == nil:
				r.placed++
			case errors.As(err, &ce) && refusal(ce):
				r.refused++
			default:
				r.other = append(r.other, err)
			}
		}(i)
	}
	return r
}

// fail records an error of another goroutine taking part in the race.
func (r *checkoutRace) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.other = append(r.other, err)
}

func (r *checkoutRace) wait() { r.wg.Wait() }

// TestConcurrentCheckouts: 50 sessions each ordering one of 10 units make
// exactly 10 orders and 40 out-of-stock refusals; stock ends at 0.
func TestConcurrentCheckoutsOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newOrderFixture(t, db, 10)
		start := make(chan struct{})
		race := f.raceCheckouts(t, 50, start, func(ce *cart.Error) bool {
			return ce.Code == "woocommerce_rest_product_out_of_stock" && ce.Status == 409
		})
		close(start)
		race.wait()
		if race.placed != 10 || race.refused != 40 || len(race.other) != 0 {
			t.Fatalf("placed %d refused %d other %v", race.placed, race.refused, race.other)
		}
		if s := f.stock(t, f.lamp.ID); s != 0 {
			t.Errorf("stock %d", s)
		}
		if n := f.count(t, `SELECT COALESCE(SUM(quantity), 0) FROM order_lines WHERE product_id = ?`, f.lamp.ID); n != 10 {
			t.Errorf("%d units sold", n)
		}
	})
}

func TestOrderPaymentState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 10)
		sess := session(7)
		f.add(t, sess, f.lamp, nil, 1, 4500)
		in := f.input(sess, walletMethod{}, "w")
		o, _, err := db.PlaceOrder(ctx, in)
		if err != nil || o.Status != "pending" {
			t.Fatalf("wallet order: %v %+v", err, o)
		}
		if n := f.count(t, `SELECT COUNT(*) FROM mail_outbox`); n != 0 {
			t.Errorf("wallet order queued %d mails before payment", n)
		}
		later := orderNow.Add(time.Minute)
		if err := db.SetPaymentState(ctx, o.ID, checkout.PayNone, checkout.PayWalletOrderCreated,
			sqlstore.PaymentFields{ProviderOrderID: "PP-1", ProviderRequestID: "req-1"}, later); err != nil {
			t.Fatal(err)
		}
		// A stale compare-and-set loses.
		if err := db.SetPaymentState(ctx, o.ID, checkout.PayNone, checkout.PayWalletOrderCreated, sqlstore.PaymentFields{}, later); !errors.Is(err, sqlstore.ErrPaymentState) {
			t.Errorf("stale CAS: %v", err)
		}
		// Backwards and to paid directly are refused.
		if err := db.SetPaymentState(ctx, o.ID, checkout.PayWalletOrderCreated, checkout.PayNone, sqlstore.PaymentFields{}, later); !errors.Is(err, checkout.ErrTransition) {
			t.Errorf("backwards: %v", err)
		}
		if err := db.SetPaymentState(ctx, o.ID, checkout.PayWalletOrderCreated, checkout.PayCaptureRequested, sqlstore.PaymentFields{ProviderRequestID: "req-2"}, later); err != nil {
			t.Fatal(err)
		}
		list, err := db.OrdersInPaymentState(ctx, checkout.PayCaptureRequested, later)
		if err != nil || len(list) != 1 || list[0].ProviderOrderID != "PP-1" || list[0].ProviderRequestID != "req-2" {
			t.Fatalf("in state: %v %+v", err, list)
		}
		if list, _ := db.OrdersInPaymentState(ctx, checkout.PayCaptureRequested, later.Add(-time.Second)); len(list) != 0 {
			t.Error("olderThan ignored")
		}
		if got, err := db.OrderByProviderOrderID(ctx, "PP-1"); err != nil || got.ID != o.ID {
			t.Errorf("by provider id: %v", err)
		}
		// Paid twice, concurrently: one change, mails once.
		var wg sync.WaitGroup
		var mu sync.Mutex
		changes := 0
		for i := 0; i < 5; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ch, err := db.MarkOrderPaid(ctx, o.ID, "CAP-1", later)
				if err != nil {
					t.Error(err)
				}
				if ch {
					mu.Lock()
					changes++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if changes != 1 {
			t.Errorf("%d changes", changes)
		}
		paid, _ := db.Order(ctx, o.ID)
		if paid.Status != "processing" || paid.PaymentState != "paid" || paid.CaptureID != "CAP-1" || paid.TransactionID != "CAP-1" || !paid.Paid() {
			t.Errorf("paid order %+v", paid)
		}
		if n := f.count(t, `SELECT COUNT(*) FROM mail_outbox WHERE ref = ?`, fmt.Sprint(o.ID)); n != 2 {
			t.Errorf("%d mails", n)
		}
		if ch, err := db.MarkOrderPaid(ctx, 999999, "x", later); ch || !errors.Is(err, sqlstore.ErrOrderNotFound) {
			t.Errorf("unknown order: %v %v", ch, err)
		}
		// Status transitions are checked.
		if err := db.SetOrderStatus(ctx, o.ID, checkout.StatusPending, later); !errors.Is(err, checkout.ErrTransition) {
			t.Errorf("paid → pending: %v", err)
		}
		if err := db.SetOrderStatus(ctx, o.ID, checkout.StatusCompleted, later); err != nil {
			t.Error(err)
		}
		if err := db.SetOrderStatus(ctx, 999999, checkout.StatusCompleted, later); !errors.Is(err, sqlstore.ErrOrderNotFound) {
			t.Errorf("unknown: %v", err)
		}
		// Webhook events are deduplicated.
		for i, want := range []bool{true, false} {
			if isNew, err := db.RecordWebhookEvent(ctx, "WH-1"); err != nil || isNew != want {
				t.Errorf("event %d: %v %v", i, isNew, err)
			}
		}
	})
}

type walletMethod struct{}

func (walletMethod) ID() string          { return payment.WalletGatewayID }
func (walletMethod) Title() string       { return "PayPal" }
func (walletMethod) Description() string { return "" }
func (walletMethod) Offline() bool       { return false }

// Concurrent orders of a product without managed stock (its sales count is
// updated last in the order's transaction) together with one whose stock
// is managed (taken first): every order is placed and counted once.
func TestConcurrentOrdersCountSales(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 100)
		const buyers = 20
		for i := 0; i < buyers; i++ {
			f.add(t, session(300+i), f.mug, nil, 2, 999)
			if i%2 == 0 {
				f.add(t, session(300+i), f.lamp, nil, 1, 4500)
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, buyers)
		for i := 0; i < buyers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				_, _, errs[i] = db.PlaceOrder(ctx, f.input(session(300+i), payment.BankTransfer{}, fmt.Sprint("s", i)))
			}(i)
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("order %d: %v", i, err)
			}
		}
		if n := f.count(t, `SELECT total_sales FROM products WHERE id = ?`, f.mug.ID); n != 2*buyers {
			t.Errorf("mug total_sales %d, want %d", n, 2*buyers)
		}
		if n := f.count(t, `SELECT total_sales FROM products WHERE id = ?`, f.lamp.ID); n != buyers/2 {
			t.Errorf("lamp total_sales %d, want %d", n, buyers/2)
		}
		if s := f.stock(t, f.lamp.ID); s != 100-buyers/2 {
			t.Errorf("lamp stock %d, want %d", s, 100-buyers/2)
		}
	})
}
