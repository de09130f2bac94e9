package wallet_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestCapturedAmount (S1): the PayPal order carries the order's own total,
// and whatever it says by the time of capture, the shop patches it back:
// the captured amount is the order's total, once.
func TestCapturedAmount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		capID := f.productID("studio-staff-cap")
		before := f.stock(capID)
		sess, id, o := f.start("studio-staff-cap", 2)
		if o.Status != checkout.StatusPending || o.PaymentState != checkout.PayWalletOrderCreated || o.ProviderOrderID != id ||
			o.PaymentMethod != "ppcp-gateway" || o.Paid() || f.mails(o.ID) != 0 {
			t.Fatalf("placed order %+v", o)
		}
		if got := f.stock(capID); got != before-2 {
			t.Errorf("stock %d, want %d held", got, before-2)
		}
		if c, _ := db.Cart(ctx, sess, f.clock.Now()); len(c.Lines) != 1 {
			t.Errorf("cart has %d lines while the order awaits payment, want 1", len(c.Lines))
		}
		pp, _ := f.sb.Order(id)
		if v, _ := paypal.ParseValue("USD", pp.PurchaseUnits[0].Amount.Value); v != o.Total || pp.PurchaseUnits[0].CustomID != strconv.FormatInt(o.ID, 10) {
			t.Errorf("PayPal order amount %+v, want the order's %d", pp.PurchaseUnits[0].Amount, o.Total)
		}
		f.approve(id, paypalsandbox.FundingPayPal)
		// Someone changes the amount at PayPal after approval.
		cheap, err := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: "USD", ItemTotal: 1, Total: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.pp.PatchOrder(ctx, id, []paypal.PatchOp{{Op: "remove", Path: paypal.PurchaseUnitPath("default", "items")},
			{Op: "replace", Path: paypal.PurchaseUnitPath("default", "amount"), Value: cheap.Amount}}); err != nil {
			t.Fatal(err)
		}
		done, err := f.svc.Return(ctx, id)
		if err != nil {
			t.Fatalf("return: %v", err)
		}
		got, capture := f.captured(id)
		if !done.Paid() || done.Status != checkout.StatusProcessing || done.CaptureID != capture || got != o.Total || done.Total != o.Total {
			t.Errorf("captured %d, order %+v (total %d)", got, done, o.Total)
		}
		if f.sb.Captures(id) != 1 || f.mails(o.ID) != 2 || f.kicks.Load() == 0 {
			t.Errorf("captures %d mails %d kicks %d", f.sb.Captures(id), f.mails(o.ID), f.kicks.Load())
		}
		if c, _ := db.Cart(ctx, sess, f.clock.Now()); len(c.Lines) != 0 {
			t.Errorf("cart not emptied after payment: %d lines", len(c.Lines))
		}
		// Coming back again changes nothing.
		if again, err := f.svc.Return(ctx, id); err != nil || !again.Paid() || f.sb.Captures(id) != 1 || f.stock(capID) != before-2 {
			t.Errorf("second return: %v, captures %d", err, f.sb.Captures(id))
		}
		if _, err := f.svc.Return(ctx, "NOPE"); !errors.Is(err, wallet.ErrUnknownOrder) {
			t.Errorf("unknown token: %v", err)
		}
	})
}

// TestOneCapture (S6): returns and approvals at once capture once and pay
// once; a capture whose answer was lost is finished by the retry with the
// same key, still one capture.
func TestOneCapture(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		sess, id, o := f.start("cotton-tank-top", 1)
		f.approve(id, paypalsandbox.FundingPayPal)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var done *checkout.Order
				var err error
				if i%2 == 0 {
					done, err = f.svc.Return(ctx, id)
				} else {
					done, err = f.svc.Approve(ctx, sess, id)
				}
				if err == nil && done.ID != o.ID {
					err = errors.New("another order")
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("concurrent call %d: %v", i, err)
			}
		}
		paid := f.order(o.ID)
		if f.sb.Captures(id) != 1 || !paid.Paid() || f.mails(o.ID) != 2 {
			t.Errorf("captures %d, paid %v, mails %d", f.sb.Captures(id), paid.Paid(), f.mails(o.ID))
		}
		// Another session's approval of this order is refused.
		if _, err := f.svc.Approve(ctx, "t_other", id); !errors.Is(err, wallet.ErrUnknownOrder) {
			t.Errorf("foreign approval: %v", err)
		}

		// The capture happens but its answer is lost.
		_, id2, o2 := f.start("cotton-tank-top", 1)
		f.approve(id2, paypalsandbox.FundingPayPal)
		f.sb.AddFault(paypalsandbox.Fault{Method: "POST", PathSuffix: "/capture", Drop: true, AfterProcessing: true})
		mid, err := f.svc.Return(ctx, id2)
		var we *wallet.Error
		if err == nil || errors.As(err, &we) || mid == nil || mid.ID != o2.ID {
			t.Fatalf("return with a lost answer: %+v, %v (want the order and an unknown outcome)", mid, err)
		}
		if got := f.order(o2.ID); f.sb.Captures(id2) != 1 || got.Paid() || got.PaymentState != checkout.PayCaptureRequested {
			t.Fatalf("after the lost answer: captures %d, %+v", f.sb.Captures(id2), got)
		}
		done, err := f.svc.Return(ctx, id2)
		got, capture := f.captured(id2)
		if err != nil || f.sb.Captures(id2) != 1 || !done.Paid() || done.CaptureID != capture || got != done.Total {
			t.Errorf("retry: %v, captures %d, %+v", err, f.sb.Captures(id2), done)
		}
	})
}

// TestDeclinedAndMismatch: a declined funding source puts the order back
// where it can be approved again (captured once then); a capture of an
// amount other than the order's total, and a pending capture, put the
// order on-hold, not paid.
func TestDeclinedAndMismatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		_, id, o := f.start("cotton-tank-top", 1)
		f.approve(id, paypalsandbox.FundingDeclined)
		if _, err := f.svc.Return(ctx, id); !errors.Is(err, wallet.ErrDeclined) {
			t.Fatalf("declined return: %v", err)
		}
		if got := f.order(o.ID); got.PaymentState != checkout.PayWalletOrderCreated || got.Status != checkout.StatusPending || got.Paid() {
			t.Errorf("after decline: %+v", got)
		}
		f.approve(id, paypalsandbox.FundingPayPal)
		if done, err := f.svc.Return(ctx, id); err != nil || !done.Paid() || f.sb.Captures(id) != 1 {
			t.Errorf("second approval: %v, captures %d", err, f.sb.Captures(id))
		}

		// PayPal captured another amount (changed and captured at PayPal
		// behind the shop's back): on-hold for a person to look at.
		_, id2, o2 := f.start("cotton-tank-top", 1)
		f.approve(id2, paypalsandbox.FundingPayPal)
		cheap, _ := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: "USD", ItemTotal: 1, Total: 1})
		if err := f.pp.PatchOrder(ctx, id2, []paypal.PatchOp{{Op: "remove", Path: paypal.PurchaseUnitPath("default", "items")},
			{Op: "replace", Path: paypal.PurchaseUnitPath("default", "amount"), Value: cheap.Amount}}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.pp.CaptureOrder(ctx, id2, "test-capture-"+id2); err != nil {
			t.Fatal(err)
		}
		done, err := f.svc.Return(ctx, id2)
		got, capture := f.captured(id2)
		if err != nil || got == o2.Total || done.Paid() || done.Status != checkout.StatusOnHold || done.CaptureID != capture {
			t.Errorf("mismatched capture (%d of %d): %v, %+v", got, o2.Total, err, done)
		}

		// A pending capture: on-hold too, with its mails.
		_, id3, o3 := f.start("cotton-tank-top", 1)
		f.approve(id3, paypalsandbox.FundingPending)
		if done, err := f.svc.Return(ctx, id3); err != nil || done.Status != checkout.StatusOnHold || done.Paid() || done.CaptureID == "" || f.mails(o3.ID) != 2 {
			t.Errorf("pending capture: %v, %+v", err, done)
		}
	})
}

// TestReconcile: the reconciler pays an order PayPal captured but the shop
// never heard of (the answer was lost), captures an approved order whose
// buyer never came back, cancels an abandoned one and restores its stock
// once, and leaves a stale order the buyer did approve to be paid rather
// than cancelled.
func TestReconcile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{AbandonAfter: time.Hour})
		ctx := context.Background()
		capID := f.productID("studio-staff-cap")
		before := f.stock(capID)

		// Captured at PayPal, the answer lost.
		_, lost, oLost := f.start("cotton-tank-top", 1)
		f.approve(lost, paypalsandbox.FundingPayPal)
		f.sb.AddFault(paypalsandbox.Fault{Method: "POST", PathSuffix: "/capture", Drop: true, AfterProcessing: true})
		if _, err := f.svc.Return(ctx, lost); err == nil {
			t.Fatal("the lost answer was not lost")
		}
		// Approved (the webhook says so), the buyer never came back.
		_, gone, oGone := f.start("cotton-tank-top", 1)
		f.approve(gone, paypalsandbox.FundingPayPal)
		if err := db.SetPaymentState(ctx, oGone.ID, checkout.PayWalletOrderCreated, checkout.PayApproved, sqlstore.PaymentFields{}, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		settled, cancelled := f.svc.Reconcile(ctx, true)
		if settled != 2 || cancelled != 0 {
			t.Errorf("startup pass settled %d cancelled %d", settled, cancelled)
		}
		f.settledOnce(lost, oLost)
		f.settledOnce(gone, oGone)
		if n, _ := f.svc.Reconcile(ctx, true); n != 0 {
			t.Errorf("second pass settled %d", n)
		}

		// Abandoned: never approved; and stale but approved at PayPal.
		_, _, abandoned := f.start("studio-staff-cap", 2)
		_, late, oLate := f.start("cotton-tank-top", 1)
		f.approve(late, paypalsandbox.FundingPayPal)
		if got := f.stock(capID); got != before-2 {
			t.Fatalf("stock %d, want %d held", got, before-2)
		}
		if _, cancelled := f.svc.Reconcile(ctx, false); cancelled != 0 {
			t.Errorf("cancelled %d orders younger than AbandonAfter", cancelled)
		}
		f.offset.Store(int64(2 * time.Hour))
		settled, cancelled = f.svc.Reconcile(ctx, false)
		if cancelled != 1 || settled != 1 {
			t.Errorf("abandon pass settled %d cancelled %d", settled, cancelled)
		}
		if got := f.order(abandoned.ID); got.Status != checkout.StatusCancelled || f.stock(capID) != before {
			t.Errorf("abandoned order %s, stock %d (want %d)", got.Status, f.stock(capID), before)
		}
		if got := f.order(oLate.ID); !got.Paid() || f.sb.Captures(late) != 1 {
			t.Errorf("approved stale order: %+v (captures %d)", got, f.sb.Captures(late))
		}
		if _, cancelled := f.svc.Reconcile(ctx, false); cancelled != 0 || f.stock(capID) != before {
			t.Errorf("second pass cancelled %d, stock %d (want %d: restored once)", cancelled, f.stock(capID), before)
		}
	})
}

// settledState is an order's payment outcome, comparable across orders.
func settledState(o *checkout.Order) string {
	return o.Status + "|" + o.PaymentState + "|" + strconv.FormatBool(o.Paid()) + "|" + strconv.FormatBool(o.CaptureID != "")
}

// TestWebhookEffects: each event applied once, five times in random order
// from several goroutines, or in reverse order ends in the state one
// in-order delivery gives; a delivery seen before is a duplicate; the
// reconciler then finds nothing to capture.
func TestWebhookEffects(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		// The buyer approves and PayPal captures, but the buyer never comes
		// back: only webhooks tell the shop.
		paidAtPayPal := func() (string, *checkout.Order, []*paypal.Event) {
			_, id, o := f.start("cotton-tank-top", 1)
			f.approve(id, paypalsandbox.FundingPayPal)
			if _, err := f.pp.CaptureOrder(ctx, id, "test-capture-"+id); err != nil {
				t.Fatal(err)
			}
			var evs []*paypal.Event
			for _, e := range f.sb.Events() {
				ev, err := f.pp.VerifyWebhook(ctx, f.sb.SignHeaders(e.Body), e.Body)
				if err != nil {
					t.Fatal(err)
				}
				if refs, err := ev.Refs(); err == nil && refs.OrderID == id {
					evs = append(evs, ev)
				}
			}
			if len(evs) != 2 || evs[0].EventType != paypal.EventOrderApproved || evs[1].EventType != paypal.EventCaptureCompleted {
				t.Fatalf("events %+v", evs)
			}
			return id, o, evs
		}
		idA, a, evA := paidAtPayPal()
		for _, ev := range evA {
			if dup, err := f.svc.HandleEvent(ctx, ev); err != nil || dup {
				t.Fatalf("in-order %s: %v dup %v", ev.EventType, err, dup)
			}
		}
		want := f.order(a.ID)
		if !want.Paid() || want.Status != checkout.StatusProcessing || f.sb.Captures(idA) != 1 {
			t.Fatalf("in-order events: %+v", want)
		}
		if dup, err := f.svc.HandleEvent(ctx, evA[1]); err != nil || !dup {
			t.Errorf("the same event again: %v dup %v", err, dup)
		}

		idB, b, evB := paidAtPayPal()
		var all []*paypal.Event
		for _, ev := range evB {
			for range 5 {
				all = append(all, ev)
			}
		}
		rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		var wg sync.WaitGroup
		for i, ev := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i%5) * time.Millisecond)
				if _, err := f.svc.HandleEvent(ctx, ev); err != nil {
					t.Errorf("shuffled event: %v", err)
				}
			}()
		}
		wg.Wait()
		got := f.order(b.ID)
		if settledState(got) != settledState(want) || f.mails(b.ID) != 2 {
			t.Errorf("shuffled events ended %q, in-order %q", settledState(got), settledState(want))
		}
		if _, capB := f.captured(idB); got.CaptureID != capB {
			t.Errorf("capture id %q, PayPal's %q", got.CaptureID, capB)
		}

		idC, c, evC := paidAtPayPal()
		for i := len(evC) - 1; i >= 0; i-- {
			if _, err := f.svc.HandleEvent(ctx, evC[i]); err != nil {
				t.Fatalf("reverse: %v", err)
			}
		}
		if got := f.order(c.ID); settledState(got) != settledState(want) {
			t.Errorf("reverse order ended %q, want %q", settledState(got), settledState(want))
		}
		f.svc.Reconcile(ctx, true)
		for _, id := range []string{idA, idB, idC} {
			if f.sb.Captures(id) != 1 {
				t.Errorf("%s captured %d times", id, f.sb.Captures(id))
			}
		}
	})
}

// TestStartOver: a second create-order of a session cancels its earlier
// unpaid wallet order first, so the new one can take the stock back; the
// cart is kept; create-order refuses what it must.
func TestStartOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		capID := f.productID("studio-staff-cap")
		before := f.stock(capID)
		sess, _, first := f.start("studio-staff-cap", 5) // every unit
		c, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "checkout", FundingSource: "paypal", FormEncoded: form()})
		if err != nil {
			t.Fatalf("second create (the first holds all the stock): %v", err)
		}
		if got := f.order(first.ID); got.Status != checkout.StatusCancelled || f.stock(capID) != before-5 || c.Order.ID == first.ID {
			t.Errorf("first order %s, stock %d (want %d)", got.Status, f.stock(capID), before-5)
		}
		if cart, _ := db.Cart(ctx, sess, f.clock.Now()); len(cart.Lines) != 1 {
			t.Errorf("cart has %d lines", len(cart.Lines))
		}
		var rf *wallet.Refusal
		if _, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: "t_empty", Context: "cart"}); !errors.As(err, &rf) || !rf.Refresh {
			t.Errorf("empty cart: %v", err)
		}
		for name, in := range map[string]wallet.CreateRequest{
			"card":       {Session: sess, Context: "cart", PaymentMethod: "ppcp-credit-card-gateway"},
			"venmo":      {Session: sess, Context: "cart", FundingSource: "venmo"},
			"mini cart":  {Session: sess, Context: "mini-cart"},
			"bad form":   {Session: sess, Context: "checkout", FormEncoded: "%zz"},
			"no billing": {Session: sess, Context: "checkout", FormEncoded: "terms=on"},
		} {
			if _, err := f.svc.CreateOrder(ctx, in); err == nil {
				t.Errorf("create-order %s: no error", name)
			}
		}
		if n := f.sb.OrderCount(); n != 2 {
			t.Errorf("refused creates made PayPal orders: %d", n)
		}
	})
}

// TestReconcileAfterTimeout (R1 in process, moved from the server's
// tests): a capture whose answer never came (the shop gave up waiting) and
// an approval the buyer never came back from (only the approval webhook
// arrived) are finished by the reconciler: paid once, captured once.
func TestReconcileAfterTimeout(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{CallTimeout: 300 * time.Millisecond})
		ctx := context.Background()
		_, id, o := f.start("cotton-tank-top", 1)
		f.approve(id, paypalsandbox.FundingPayPal)
		f.sb.DelayNext("POST", "/capture", 1, 5*time.Second)
		if done, err := f.svc.Return(ctx, id); err == nil || done == nil {
			t.Fatalf("return past the timeout: %+v, %v", done, err)
		}
		if got := f.order(o.ID); got.Paid() || got.PaymentState != checkout.PayCaptureRequested || f.sb.Captures(id) != 1 {
			t.Fatalf("after the timeout: captures %d %+v", f.sb.Captures(id), got)
		}
		// The buyer of a second order approves and closes the tab; the
		// approval webhook arrives.
		_, id2, o2 := f.start("cotton-tank-top", 1)
		f.approve(id2, paypalsandbox.FundingPayPal)
		for _, e := range f.sb.Events() {
			ev, err := f.pp.VerifyWebhook(ctx, f.sb.SignHeaders(e.Body), e.Body)
			if err != nil {
				t.Fatal(err)
			}
			if refs, err := ev.Refs(); err != nil || refs.OrderID != id2 {
				continue
			}
			if _, err := f.svc.HandleEvent(ctx, ev); err != nil {
				t.Fatalf("approval webhook: %v", err)
			}
		}
		if got := f.order(o2.ID); got.PaymentState != checkout.PayApproved {
			t.Fatalf("approval webhook: %+v", got)
		}
		settledN, _ := f.svc.Reconcile(ctx, true)
		f.settledOnce(id, o)
		f.settledOnce(id2, o2)
		if settledN != 2 {
			t.Errorf("reconciler settled %d", settledN)
		}
		if n, _ := f.svc.Reconcile(ctx, true); n != 0 {
			t.Errorf("second pass settled %d", n)
		}
	})
}
