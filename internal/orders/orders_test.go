package orders_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var now = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

var mia = orders.Staff{ID: 0, Name: "Mia Manager"}

// fixture: a lamp (10 in stock, 45.00), a mug (unmanaged stock, 12.00),
// the order service on the store, and the wallet on the built-in sandbox.
type fixture struct {
	t         *testing.T
	db        *sqlstore.DB
	cfg       checkout.Config
	svc       *orders.Service
	lamp, mug *catalog.Product
	sb        *paypalsandbox.Sandbox
	pp        *paypal.Client
	n         int
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	usd, _ := money.Lookup("USD")
	f := &fixture{t: t, db: db, cfg: checkout.DefaultConfig(usd)}
	i64 := func(v int64) *int64 { return &v }
	f.lamp = &catalog.Product{Type: catalog.TypeSimple, Name: "Desk Lamp", Slug: "desk-lamp", SKU: "LAMP", RegularPrice: i64(4500),
		ManageStock: true, StockQuantity: i64(10), Purchasable: true}
	f.mug = &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", Slug: "mug", RegularPrice: i64(1200), Purchasable: true}
	for _, p := range []*catalog.Product{f.lamp, f.mug} {
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	f.sb = paypalsandbox.New(paypalsandbox.Config{ClientID: "cid", Secret: "sec"})
	srv := httptest.NewServer(f.sb.Handler())
	f.sb.SetBaseURL(srv.URL)
	t.Cleanup(func() {
		srv.Close()
		f.sb.Close()
	})
	f.pp = &paypal.Client{BaseURL: srv.URL, ClientID: "cid", Secret: "sec", HTTP: srv.Client()}
	w := wallet.New(wallet.Config{PayPal: f.pp, CallTimeout: 2 * time.Second},
		wallet.Deps{Store: db, Checkout: wallet.Shop{Checkout: &checkout.Service{Config: &f.cfg}}, Config: &f.cfg})
	f.svc = &orders.Service{Store: db, Refunders: map[string]orders.Refunder{payment.WalletGatewayID: w}, Now: func() time.Time { return now }}
	return f
}

// place places an order of lamps and mugs with method m.
func (f *fixture) place(m payment.Method, lamps, mugs int64, email string) *checkout.Order {
	f.t.Helper()
	ctx := context.Background()
	f.n++
	sess := fmt.Sprintf("t_%030x", f.n)
	for _, l := range []struct {
		p   *catalog.Product
		qty int64
	}{{f.lamp, lamps}, {f.mug, mugs}} {
		if l.qty == 0 {
			continue
		}
		line := cart.Line{Key: cart.LineKey(l.p.ID, 0, nil), ProductID: l.p.ID, Quantity: l.qty, UnitPrice: *l.p.RegularPrice}
		if _, err := f.db.AddLine(ctx, sess, line, now, now.Add(cart.Lifetime), nil); err != nil {
			f.t.Fatal(err)
		}
	}
	status := checkout.StatusPending
	if om, ok := m.(payment.OfflineMethod); ok {
		status = om.PlacedStatus()
	}
	addr := checkout.Address{FirstName: "Ada", LastName: fmt.Sprintf("Lovelace%d", f.n), Address1: "1 Main St", City: "Sacramento", State: "CA",
		Postcode: "95814", Country: "US", Email: email, Phone: "5550100200"}
	ship := addr
	ship.Email = ""
	o, _, err := f.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: sess, Method: m, Status: status, Config: &f.cfg, Now: now,
		Customer: checkout.Customer{Billing: addr, Shipping: ship}, Meta: map[string]string{"_wc_order_attribution_source_type": "typein"},
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: sess, RequestHash: sess})
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// paidWallet places a wallet order and pays it in the sandbox.
func (f *fixture) paidWallet(lamps int64) *checkout.Order {
	f.t.Helper()
	ctx := context.Background()
	o := f.place(payment.Wallet{}, lamps, 0, "buyer@example.com")
	usd, _ := money.Lookup("USD")
	pu, err := wallet.OrderPurchaseUnit(o, usd)
	if err != nil {
		f.t.Fatal(err)
	}
	po, err := f.pp.CreateOrder(ctx, fmt.Sprintf("create-%d", o.ID), paypal.CreateOrderRequest{Intent: paypal.IntentCapture, PurchaseUnits: []paypal.PurchaseUnit{pu}})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.sb.Approve(po.ID, paypalsandbox.FundingPayPal); err != nil {
		f.t.Fatal(err)
	}
	paid, err := f.pp.CaptureOrder(ctx, po.ID, fmt.Sprintf("capture-%d", o.ID))
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.db.MarkOrderPaid(ctx, o.ID, paid.Captures()[0].ID, now); err != nil {
		f.t.Fatal(err)
	}
	got, err := f.db.Order(ctx, o.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	return got
}

func (f *fixture) stock() int64 {
	f.t.Helper()
	p, err := f.db.Product(context.Background(), f.lamp.ID)
	if err != nil || p.StockQuantity == nil {
		f.t.Fatal(err)
	}
	return *p.StockQuantity
}

func (f *fixture) detail(id int64) *orders.Detail {
	f.t.Helper()
	d, err := f.svc.Get(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

func invalid(err error, field string) bool {
	var e *orders.Invalid
	return errors.As(err, &e) && e.Field == field
}

// A manual refund (bank transfer): partial with one lamp put back, a
// double submit that refunds once, more than is left refused with nothing
// changed, a key reused for another amount refused, then the rest, after
// which the order is refunded and every unit is back exactly once.
func TestManualRefund(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		o := f.place(payment.BankTransfer{}, 2, 1, "ada@example.com") // 90.00 + 12.00, shipping and tax
		mug := o.Lines[1].Total + o.Lines[1].TotalTax
		if f.stock() != 8 || o.Status != checkout.StatusOnHold || o.Total <= 10200 {
			t.Fatalf("placed: stock %d, %s, %d", f.stock(), o.Status, o.Total)
		}
		// The money arrived: processing records the payment.
		d, err := f.svc.SetStatus(ctx, o.ID, checkout.StatusProcessing, mia)
		if err != nil || d.Status != checkout.StatusProcessing || !d.Paid() {
			t.Fatalf("processing: %v %+v", err, d)
		}
		left := o.Total - 4500
		req := orders.RefundRequest{OrderID: o.ID, Key: "form-1", Amount: 4500, Reason: "Broken on arrival",
			Lines: []orders.RefundLine{{Line: 0, Quantity: 1, Total: 4500}}, Restock: true, By: mia}
		r, err := f.svc.Refund(ctx, req)
		if err != nil || r.Status != orders.RefundCompleted || r.Method != orders.MethodManual || r.Replayed {
			t.Fatalf("refund: %v %+v", err, r)
		}
		again, err := f.svc.Refund(ctx, req)
		if err != nil || !again.Replayed || again.ID != r.ID {
			t.Fatalf("double submit: %v %+v", err, again)
		}
		if f.stock() != 9 {
			t.Fatalf("stock after the refund and its double submit: %d, want 9", f.stock())
		}
		d = f.detail(o.ID)
		if d.Refunded != 4500 || d.Left() != left || len(d.Refunds) != 1 || d.Restocked[0] != 1 || d.LineRefunds[0].Quantity != 1 {
			t.Fatalf("after the refund: %+v", d)
		}
		// Bad requests change nothing.
		for _, bad := range []orders.RefundRequest{
			{OrderID: o.ID, Key: "form-2", Amount: left + 1, By: mia},
			{OrderID: o.ID, Amount: left + 1, By: mia},
		} {
			if _, err := f.svc.Refund(ctx, bad); !errors.Is(err, orders.ErrRefundTooMuch) {
				t.Errorf("too much: %v", err)
			}
		}
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "form-1", Amount: 100, By: mia}); !errors.Is(err, orders.ErrKeyReused) {
			t.Errorf("reused key: %v", err)
		}
		for _, c := range []struct {
			req   orders.RefundRequest
			field string
		}{
			{orders.RefundRequest{OrderID: o.ID, Amount: 0}, "amount"},
			{orders.RefundRequest{OrderID: o.ID, Amount: -5}, "amount"},
			{orders.RefundRequest{OrderID: o.ID, Amount: 100, Lines: []orders.RefundLine{{Line: 7, Quantity: 1}}}, "line_items"},
			{orders.RefundRequest{OrderID: o.ID, Amount: 100, Lines: []orders.RefundLine{{Line: 0, Quantity: 2}}}, "line_items"}, // 1 of 2 left
			{orders.RefundRequest{OrderID: o.ID, Amount: 100, Lines: []orders.RefundLine{{Line: 1, Quantity: 1, Total: mug + 1}}}, "line_items"},
			{orders.RefundRequest{OrderID: o.ID, Amount: 100, Reason: string(make([]byte, 300))}, "reason"},
		} {
			if _, err := f.svc.Refund(ctx, c.req); !invalid(err, c.field) {
				t.Errorf("%+v: %v, want invalid %s", c.req, err, c.field)
			}
		}
		if d2 := f.detail(o.ID); len(d2.Refunds) != 1 || f.stock() != 9 || d2.Status != checkout.StatusProcessing {
			t.Fatalf("a refused refund changed the order: %+v, stock %d", d2, f.stock())
		}
		// The rest, with every unit put back.
		r2, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "form-3", Amount: left, Restock: true,
			Lines: []orders.RefundLine{{Line: 0, Quantity: 1, Total: 4500}, {Line: 1, Quantity: 1, Total: mug}}, By: mia})
		if err != nil || r2.Status != orders.RefundCompleted {
			t.Fatalf("the rest: %v %+v", err, r2)
		}
		d = f.detail(o.ID)
		if d.Status != checkout.StatusRefunded || d.Left() != 0 || d.Refunded != o.Total || f.stock() != 10 {
			t.Fatalf("fully refunded: %s left %d refunded %d stock %d", d.Status, d.Left(), d.Refunded, f.stock())
		}
		// A refunded order is final: no more refunds, no cancel that puts
		// stock back a second time.
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "form-4", Amount: 1, By: mia}); !errors.Is(err, orders.ErrRefundTooMuch) {
			t.Errorf("refund of a refunded order: %v", err)
		}
		if _, err := f.svc.SetStatus(ctx, o.ID, checkout.StatusCancelled, mia); !invalid(err, "status") {
			t.Errorf("cancel a refunded order: %v", err)
		}
		if f.stock() != 10 {
			t.Fatalf("stock %d after the final refund", f.stock())
		}
		if len(d.Notes) < 3 {
			t.Errorf("notes: %+v", d.Notes)
		}
	})
}

// Cancelling puts back what a refund did not, once; status moves the rules
// refuse are refused and change nothing.
func TestCancelRestoresOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		o := f.place(payment.CashOnDelivery{}, 3, 0, "ada@example.com") // processing at once
		if f.stock() != 7 || o.Status != checkout.StatusProcessing {
			t.Fatalf("placed: %d %s", f.stock(), o.Status)
		}
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "k", Amount: 4500, Restock: true,
			Lines: []orders.RefundLine{{Line: 0, Quantity: 1, Total: 4500}}, By: mia}); err != nil {
			t.Fatal(err)
		}
		if f.stock() != 8 {
			t.Fatalf("after the refund: %d", f.stock())
		}
		// Two staff members cancel at once: one does it, the stock comes
		// back once (two units, not three).
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.SetStatus(ctx, o.ID, checkout.StatusCancelled, mia)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, orders.ErrStale) {
				t.Errorf("concurrent cancel: %v", err)
			}
		}
		if f.stock() != 10 {
			t.Fatalf("after cancelling: stock %d, want 10", f.stock())
		}
		if d, err := f.svc.SetStatus(ctx, o.ID, checkout.StatusCancelled, mia); err != nil || d.Status != checkout.StatusCancelled || f.stock() != 10 {
			t.Fatalf("cancel again: %v, stock %d", err, f.stock())
		}
		for _, to := range []string{checkout.StatusProcessing, checkout.StatusCompleted, checkout.StatusOnHold} {
			if _, err := f.svc.SetStatus(ctx, o.ID, to, mia); !invalid(err, "status") {
				t.Errorf("cancelled → %s: %v", to, err)
			}
		}
		if _, err := f.svc.SetStatus(ctx, o.ID, "shipped", mia); !invalid(err, "status") {
			t.Errorf("unknown status: %v", err)
		}
		if _, err := f.svc.SetStatus(ctx, 99999, checkout.StatusCompleted, mia); !errors.Is(err, orders.ErrNotFound) {
			t.Errorf("unknown order: %v", err)
		}
		// Completed never goes back to processing.
		o2 := f.place(payment.CashOnDelivery{}, 1, 0, "ada@example.com")
		if _, err := f.svc.SetStatus(ctx, o2.ID, checkout.StatusCompleted, mia); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.SetStatus(ctx, o2.ID, checkout.StatusProcessing, mia); !invalid(err, "status") {
			t.Errorf("completed → processing: %v", err)
		}
		if d := f.detail(o2.ID); d.Status != checkout.StatusCompleted || !d.Paid() || len(d.Notes) != 1 {
			t.Errorf("completed order: %s paid %v notes %+v", d.Status, d.Paid(), d.Notes)
		}
		// Refunded by status: the whole rest, the units back.
		if _, err := f.svc.SetStatus(ctx, o2.ID, checkout.StatusRefunded, mia); err != nil {
			t.Fatal(err)
		}
		d := f.detail(o2.ID)
		if d.Status != checkout.StatusRefunded || d.Refunded != d.Total || f.stock() != 10 {
			t.Errorf("refunded by status: %s %d/%d stock %d", d.Status, d.Refunded, d.Total, f.stock())
		}
		// The completed and refunded mails are queued, once each.
		kinds := map[string]int{}
		for _, m := range d.Mails {
			kinds[m.Kind]++
		}
		if kinds[orders.MailOrderCompleted] != 1 || kinds[orders.MailOrderRefunded] != 1 {
			t.Errorf("mail log: %v", kinds)
		}
	})
}

// Many staff members refund the whole of one order at once, each with a
// key of their own: one refund is made.
func TestConcurrentRefunds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		o := f.place(payment.CashOnDelivery{}, 1, 0, "ada@example.com")
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: fmt.Sprint("k", i), Amount: o.Total, By: mia})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, orders.ErrRefundTooMuch):
				t.Errorf("refund: %v", err)
			}
		}
		if d := f.detail(o.ID); ok != 1 || len(d.Refunds) != 1 || d.Refunded != o.Total {
			t.Fatalf("%d refunds made, %+v", ok, d.Refunds)
		}
	})
}

// A wallet order is refunded through PayPal: partial, a double submit
// (one PayPal refund), a lost answer that leaves the refund pending with
// its amount reserved and a retry that finishes it with the same
// PayPal-Request-Id, a refusal that frees the amount, then the rest by
// status.
func TestWalletRefund(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		o := f.paidWallet(2) // 90.00 with shipping and tax
		total := o.Total
		if o.CaptureID == "" || o.Status != checkout.StatusProcessing {
			t.Fatalf("paid wallet order: %+v", o)
		}
		req := orders.RefundRequest{OrderID: o.ID, Key: "w-1", Amount: 1000, Reason: "Scratched", By: mia}
		r, err := f.svc.Refund(ctx, req)
		if err != nil || r.Status != orders.RefundCompleted || r.Method != payment.WalletGatewayID || r.ProviderRefundID == "" {
			t.Fatalf("wallet refund: %v %+v", err, r)
		}
		if again, err := f.svc.Refund(ctx, req); err != nil || again.ID != r.ID || !again.Replayed {
			t.Fatalf("double submit: %v %+v", err, again)
		}
		if f.sb.Refunds(o.CaptureID) != 1 || f.sb.Refunded(o.CaptureID) != 1000 {
			t.Fatalf("PayPal refunds %d (%d)", f.sb.Refunds(o.CaptureID), f.sb.Refunded(o.CaptureID))
		}

		// PayPal makes the refund but its answer is lost.
		f.sb.DelayNext("POST", "/refund", 1, 5*time.Second)
		lost := orders.RefundRequest{OrderID: o.ID, Key: "w-2", Amount: 2000, By: mia}
		if _, err := f.svc.Refund(ctx, lost); !errors.Is(err, orders.ErrRefundUnknown) {
			t.Fatalf("lost answer: %v", err)
		}
		d := f.detail(o.ID)
		if d.Refunds[0].Status != orders.RefundPending || d.Left() != total-3000 {
			t.Fatalf("pending refund: %+v left %d", d.Refunds[0], d.Left())
		}
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "w-3", Amount: total - 3000 + 1, By: mia}); !errors.Is(err, orders.ErrRefundTooMuch) {
			t.Fatalf("over the reserved amount: %v", err)
		}
		done, err := f.svc.Refund(ctx, lost)
		if err != nil || done.Status != orders.RefundCompleted || done.ProviderRefundID == "" {
			t.Fatalf("retry: %v %+v", err, done)
		}
		if f.sb.Refunds(o.CaptureID) != 2 || f.sb.Refunded(o.CaptureID) != 3000 {
			t.Fatalf("after the retry PayPal made %d refunds (%d)", f.sb.Refunds(o.CaptureID), f.sb.Refunded(o.CaptureID))
		}

		// Lost again, and finished from the order's refunds (no form).
		f.sb.DelayNext("POST", "/refund", 1, 5*time.Second)
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "w-5", Amount: 100, By: mia}); !errors.Is(err, orders.ErrRefundUnknown) {
			t.Fatalf("lost answer: %v", err)
		}
		pending := f.detail(o.ID).Refunds[0]
		if _, err := f.svc.FinishRefund(ctx, o.ID+1000, pending.ID, mia); !errors.Is(err, orders.ErrNotFound) {
			t.Errorf("finish through another order: %v", err)
		}
		fin, err := f.svc.FinishRefund(ctx, o.ID, pending.ID, mia)
		if err != nil || fin.Status != orders.RefundCompleted || fin.ProviderRefundID == "" {
			t.Fatalf("finish: %v %+v", err, fin)
		}
		if again, err := f.svc.FinishRefund(ctx, o.ID, pending.ID, mia); err != nil || again.ProviderRefundID != fin.ProviderRefundID {
			t.Fatalf("finish again: %v %+v", err, again)
		}
		if f.sb.Refunds(o.CaptureID) != 3 || f.sb.Refunded(o.CaptureID) != 3100 {
			t.Fatalf("after finishing PayPal made %d refunds (%d)", f.sb.Refunds(o.CaptureID), f.sb.Refunded(o.CaptureID))
		}

		// PayPal refuses: the refund fails and its amount is free again.
		f.sb.FailNext("POST", "/refund", 1, 422)
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: o.ID, Key: "w-4", Amount: 500, By: mia}); err == nil {
			t.Fatal("a refused refund succeeded")
		} else if pe := new(orders.ProviderError); !errors.As(err, &pe) {
			t.Fatalf("refusal: %v", err)
		}
		d = f.detail(o.ID)
		if d.Refunds[0].Status != orders.RefundFailed || d.Left() != total-3100 {
			t.Fatalf("failed refund: %+v left %d", d.Refunds[0], d.Left())
		}

		// The rest by status, through PayPal, the lamps back in stock.
		d, err = f.svc.SetStatus(ctx, o.ID, checkout.StatusRefunded, mia)
		if err != nil || d.Status != checkout.StatusRefunded || d.Refunded != total {
			t.Fatalf("refunded by status: %v %+v", err, d)
		}
		if f.sb.Refunded(o.CaptureID) != total || f.stock() != 10 {
			t.Fatalf("PayPal refunded %d, stock %d", f.sb.Refunded(o.CaptureID), f.stock())
		}
		if n := f.sb.MissingRequestIDs(); n != 0 {
			t.Fatalf("%d PayPal POSTs without a request id", n)
		}
		// An unpaid wallet order cannot be refunded nor made processing.
		u := f.place(payment.Wallet{}, 1, 0, "b@example.com")
		if _, err := f.svc.SetStatus(ctx, u.ID, checkout.StatusProcessing, mia); !invalid(err, "status") {
			t.Errorf("unpaid wallet order made processing: %v", err)
		}
		if _, err := f.svc.Refund(ctx, orders.RefundRequest{OrderID: u.ID, Amount: 100, By: mia}); !invalid(err, "amount") {
			t.Errorf("unpaid wallet order refunded: %v", err)
		}
	})
}

// Notes, the mail log and resending mails.
func TestNotesAndMails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		kicks := 0
		f.svc.Kick = func() { kicks++ }
		o := f.place(payment.BankTransfer{}, 1, 0, "ada@example.com")
		if _, err := f.svc.AddNote(ctx, o.ID, "Packed in the blue box.", false, mia); err != nil {
			t.Fatal(err)
		}
		n, err := f.svc.AddNote(ctx, o.ID, "  Your lamp ships tomorrow.  ", true, orders.Staff{ID: 0, Name: "Ada"})
		if err != nil || n.Note != "Your lamp ships tomorrow." || !n.Customer || n.ID == 0 {
			t.Fatalf("customer note: %v %+v", err, n)
		}
		for _, bad := range []string{"", "   ", string(make([]rune, orders.MaxNote+1))} {
			if _, err := f.svc.AddNote(ctx, o.ID, bad, false, mia); !invalid(err, "note") {
				t.Errorf("note %.10q: %v", bad, err)
			}
		}
		if _, err := f.svc.AddNote(ctx, 99999, "x", false, mia); !errors.Is(err, orders.ErrNotFound) {
			t.Errorf("note on an unknown order: %v", err)
		}
		if err := f.svc.ResendMail(ctx, o.ID, orders.MailOrderConfirmation, mia); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.ResendMail(ctx, o.ID, "account_password_reset", mia); !invalid(err, "kind") {
			t.Errorf("resend of another kind: %v", err)
		}
		noEmail := f.place(payment.BankTransfer{}, 1, 0, "")
		if err := f.svc.ResendMail(ctx, noEmail.ID, orders.MailOrderConfirmation, mia); !invalid(err, "kind") {
			t.Errorf("confirmation without an address: %v", err)
		}
		if _, err := f.svc.AddNote(ctx, noEmail.ID, "Hello", true, mia); !invalid(err, "customer_note") {
			t.Errorf("customer note without an address: %v", err)
		}
		d := f.detail(o.ID)
		kinds := map[string]int{}
		for _, m := range d.Mails {
			kinds[m.Kind]++
		}
		if kinds[orders.MailOrderConfirmation] != 2 || kinds[orders.MailNewOrder] != 1 || kinds[orders.MailCustomerNote] != 1 || len(d.Mails) != 4 {
			t.Fatalf("mail log: %+v", d.Mails)
		}
		if len(d.Notes) != 3 || d.Notes[0].Note != "The order confirmation mail sent again by Mia Manager." || !d.Notes[1].Customer {
			t.Fatalf("notes: %+v", d.Notes)
		}
		if kicks != 2 {
			t.Errorf("mail kicked %d times", kicks)
		}
		// The other order's log has only its own mails.
		if d2 := f.detail(noEmail.ID); len(d2.Mails) != 2 {
			t.Fatalf("other order's mails: %+v", d2.Mails)
		}
		// The note a customer-note mail renders.
		got, err := db.OrderNote(ctx, n.ID)
		if err != nil || got.OrderID != o.ID || got.Note != n.Note {
			t.Fatalf("note by id: %v %+v", err, got)
		}
		b, _ := json.Marshal(n)
		if string(b) == "" {
			t.Fatal("note does not encode")
		}
	})
}

// The list: drafts hidden, status filters, search by number, name and
// email, paging and the status counts.
func TestList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		a := f.place(payment.BankTransfer{}, 1, 0, "ada@example.com")     // on-hold, Lovelace1
		b := f.place(payment.CashOnDelivery{}, 0, 1, "grace@example.org") // processing, Lovelace2
		c := f.place(payment.CashOnDelivery{}, 0, 2, "x_y%z@example.org") // processing, Lovelace3
		draft := f.place(payment.Wallet{}, 0, 1, "d@example.com")
		if err := db.ChangeOrderStatus(ctx, orders.StatusChange{OrderID: draft.ID, From: checkout.StatusPending, To: checkout.StatusDraft, Now: now}); err != nil {
			t.Fatal(err)
		}
		ids := func(q orders.Query) ([]int64, int) {
			t.Helper()
			list, total, err := f.svc.List(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var out []int64
			for _, o := range list {
				out = append(out, o.ID)
			}
			return out, total
		}
		eq := func(got []int64, want ...int64) bool { return fmt.Sprint(got) == fmt.Sprint(want) }
		if got, n := ids(orders.Query{Limit: 20}); !eq(got, c.ID, b.ID, a.ID) || n != 3 {
			t.Errorf("all: %v %d", got, n)
		}
		if got, n := ids(orders.Query{Limit: 2, Offset: 2}); !eq(got, a.ID) || n != 3 {
			t.Errorf("page 2: %v %d", got, n)
		}
		if got, _ := ids(orders.Query{Statuses: []string{checkout.StatusProcessing}, Limit: 20}); !eq(got, c.ID, b.ID) {
			t.Errorf("processing: %v", got)
		}
		for q, want := range map[string][]int64{
			fmt.Sprint(b.ID): {b.ID}, "#" + fmt.Sprint(a.ID): {a.ID}, "GRACE@": {b.ID}, "lovelace3": {c.ID}, "ada lovelace1": {a.ID},
			"x_y%": {c.ID}, "%": {c.ID}, "x%y": nil, "a_a": nil, "nobody": nil,
		} {
			if got, _ := ids(orders.Query{Search: q, Limit: 20}); !eq(got, want...) {
				t.Errorf("search %q: %v, want %v", q, got, want)
			}
		}
		counts, err := f.svc.Counts(ctx)
		if err != nil || counts[checkout.StatusProcessing] != 2 || counts[checkout.StatusOnHold] != 1 || counts[checkout.StatusDraft] != 0 {
			t.Errorf("counts: %v %v", counts, err)
		}
		if _, _, err := f.svc.List(ctx, orders.Query{Statuses: []string{"shipped"}}); !invalid(err, "status") {
			t.Errorf("unknown status filter: %v", err)
		}
	})
}
