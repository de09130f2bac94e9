package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// An unpaid bank-transfer order past the hold is cancelled and its stock
// restored exactly once, even with several releasers at once; one within
// the hold, a paid one and a cash-on-delivery one are never touched.
func TestReleaseHeldOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 20)
		methods := []string{payment.BankTransferID}
		place := func(n int, m payment.Method, at time.Time) *checkout.Order {
			t.Helper()
			sess := session(100 + n)
			f.add(t, sess, f.lamp, nil, 2, 4500)
			in := f.input(sess, m, fmt.Sprint("hold-", n))
			in.Now = at
			o, _, err := db.PlaceOrder(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		hold := time.Hour
		old := place(1, payment.BankTransfer{}, orderNow)
		paid := place(2, payment.BankTransfer{}, orderNow)
		cod := place(3, payment.CashOnDelivery{}, orderNow)
		fresh := place(4, payment.BankTransfer{}, orderNow.Add(30*time.Minute))
		if _, err := db.MarkOrderPaid(ctx, paid.ID, "", orderNow); err != nil {
			t.Fatal(err)
		}
		if got := f.stock(t, f.lamp.ID); got != 20-8 {
			t.Fatalf("stock after four orders: %d", got)
		}

		now := orderNow.Add(hold + time.Minute)
		cutoff := now.Add(-hold)
		list, err := db.AwaitingPaymentOrders(ctx, methods, cutoff)
		if err != nil || len(list) != 1 || list[0].ID != old.ID {
			t.Fatalf("awaiting payment past the hold: %v %+v", err, list)
		}
		// Four instances release the same order at once: one does it.
		var wg sync.WaitGroup
		results := make([]bool, 4)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := db.ReleaseHeldOrder(ctx, old.ID, methods, cutoff, now)
				if err != nil {
					t.Error(err)
				}
				results[i] = ok
			}()
		}
		wg.Wait()
		released := 0
		for _, ok := range results {
			if ok {
				released++
			}
		}
		if released != 1 {
			t.Fatalf("%d releasers cancelled the order", released)
		}
		if got := f.stock(t, f.lamp.ID); got != 20-6 {
			t.Errorf("stock after the release: %d, want %d (restored once)", got, 20-6)
		}
		if o, _ := db.Order(ctx, old.ID); o.Status != checkout.StatusCancelled || o.Paid() {
			t.Errorf("released order: %s", o.Status)
		}
		// Within the hold, paid, paid on delivery: untouched, even if named.
		for _, o := range []*checkout.Order{fresh, paid, cod} {
			if ok, err := db.ReleaseHeldOrder(ctx, o.ID, []string{payment.BankTransferID, payment.CashOnDeliveryID}, cutoff, now); ok || err != nil {
				t.Errorf("order %d (%s) released: %v", o.ID, o.Status, err)
			}
			if after, _ := db.Order(ctx, o.ID); after.Status != o.Status && !(o == paid && after.Paid()) {
				t.Errorf("order %d moved %s → %s", o.ID, o.Status, after.Status)
			}
		}
		if got := f.stock(t, f.lamp.ID); got != 20-6 {
			t.Errorf("stock: %d", got)
		}
		// A paid order is never listed, even long after.
		later := orderNow.Add(48 * time.Hour)
		list, _ = db.AwaitingPaymentOrders(ctx, methods, later)
		if len(list) != 1 || list[0].ID != fresh.ID {
			t.Errorf("awaiting payment a day later: %+v", list)
		}
	})
}

// Rate-limit counters are exact under concurrency (every hit counted once,
// by any connection or instance), start again when the window ends, and
// expired ones are deleted.
func TestRateLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := orderNow
		var wg sync.WaitGroup
		var mu sync.Mutex
		allowed := 0
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := db.HitRateLimits(ctx, []sqlstore.RateHit{{Key: "a", Limit: 5}}, time.Minute, now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if allowed != 5 {
			t.Fatalf("%d of 12 hits allowed, want 5", allowed)
		}
		wait, ok, err := db.HitRateLimits(ctx, []sqlstore.RateHit{{Key: "a", Limit: 5}}, time.Minute, now.Add(20*time.Second))
		if ok || err != nil || wait != 40*time.Second {
			t.Errorf("over the limit: %v %v %v", ok, wait, err)
		}
		// Any key over its limit refuses; a key with limit 0 is not limited.
		if _, ok, _ := db.HitRateLimits(ctx, []sqlstore.RateHit{{Key: "b", Limit: 100}, {Key: "a", Limit: 5}}, time.Minute, now); ok {
			t.Error("a second key let an over-limit key through")
		}
		if _, ok, _ := db.HitRateLimits(ctx, []sqlstore.RateHit{{Key: "a", Limit: 0}}, time.Minute, now); !ok {
			t.Error("limit 0 refused")
		}
		// The window ended: counting starts again.
		if _, ok, err := db.HitRateLimits(ctx, []sqlstore.RateHit{{Key: "a", Limit: 5}}, time.Minute, now.Add(61*time.Second)); !ok || err != nil {
			t.Errorf("new window refused: %v", err)
		}
		n, err := db.DeleteExpiredRateLimits(ctx, now.Add(90*time.Second))
		if err != nil || n != 1 { // "b" ended; "a" started again at +61 s
			t.Errorf("deleted %d, %v", n, err)
		}
	})
}
