package checkout_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/orders"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Coupons on a cart and at checkout, without HTTP, on every engine.

func (f *fixture) coupon(c coupon.Coupon) *coupon.Coupon {
	f.t.Helper()
	if c.Created.IsZero() {
		c.Created, c.Updated = seedTime, seedTime
	}
	id, err := f.db.CreateCoupon(context.Background(), &c)
	if err != nil {
		f.t.Fatal(err)
	}
	c.ID = id
	return &c
}

func couponErr(t *testing.T, err error, status int, code, msg string) {
	t.Helper()
	var ce *cart.Error
	if !errors.As(err, &ce) || ce.Status != status || ce.Code != code || (msg != "" && ce.Message != msg) {
		t.Errorf("got %v, want %d %s %q", err, status, code, msg)
	}
}

func TestServiceCoupons(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Coupons = db
		ctx := context.Background()
		yesterday := f.clock.Now().Add(-24 * time.Hour)
		f.coupon(coupon.Coupon{Code: "save10", Type: coupon.Percent, Amount: 10_000})
		f.coupon(coupon.Coupon{Code: "old", Type: coupon.FixedCart, Amount: 500, Expires: &yesterday})
		f.coupon(coupon.Coupon{Code: "big", Type: coupon.FixedCart, Amount: 500, MinimumAmount: 1_000_000})
		f.coupon(coupon.Coupon{Code: "solo", Type: coupon.FixedCart, Amount: 300, IndividualUse: true})
		sid := session(40)
		f.add(sid, f.productID("cotton-tank-top"), 2)
		before, err := f.svc.Cart(ctx, sid, "")
		if err != nil {
			t.Fatal(err)
		}

		const ce = coupon.CodeError
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "  ", ""), 400, ce, "Please enter a coupon code.")
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "<b>nope</b>", ""), 400, ce,
			`Coupon "&lt;b&gt;nope&lt;/b&gt;" cannot be applied because it does not exist.`)
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "old", ""), 400, ce, `Coupon "old" has expired.`)
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "big", ""), 400, ce, `The minimum spend for coupon "big" is $10,000.00.`)
		if c, _ := f.carts.Get(ctx, sid); len(c.Customer.Coupons) != 0 {
			t.Fatalf("a refused coupon was stored: %v", c.Customer.Coupons)
		}
		if err := f.svc.ApplyCoupon(ctx, sid, " SAVE10 ", ""); err != nil {
			t.Fatal(err)
		}
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "save10", ""), 400, ce, `Coupon code "save10" has already been applied.`)
		pc, err := f.svc.Cart(ctx, sid, "")
		if err != nil {
			t.Fatal(err)
		}
		want := (before.Quote.ItemsSubtotal + 5) / 10 // 10 %, rounded half up
		if len(pc.Coupons) != 1 || pc.Quote.Discount != want || pc.Quote.Total >= before.Quote.Total || pc.Hash() == before.Hash() {
			t.Fatalf("discount %d (want %d), total %d → %d, coupons %d", pc.Quote.Discount, want, before.Quote.Total, pc.Quote.Total, len(pc.Coupons))
		}
		// Individual use replaces the others, and then refuses company.
		if err := f.svc.ApplyCoupon(ctx, sid, "solo", ""); err != nil {
			t.Fatal(err)
		}
		couponErr(t, f.svc.ApplyCoupon(ctx, sid, "save10", ""), 400, ce,
			`Sorry, coupon "solo" has already been applied and cannot be used in conjunction with other coupons.`)
		if c, _ := f.carts.Get(ctx, sid); strings.Join(c.Customer.Coupons, ",") != "solo" {
			t.Fatalf("coupons %v", c.Customer.Coupons)
		}
		couponErr(t, f.svc.RemoveCoupon(ctx, sid, "save10"), 409, coupon.CodeInvalidCode,
			"Coupon cannot be removed because it is not already applied to the cart.")
		couponErr(t, f.svc.RemoveCoupon(ctx, sid, "nope"), 400, ce, "Invalid coupon code.")
		if err := f.svc.RemoveCoupon(ctx, sid, "SOLO"); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.ApplyCoupon(ctx, sid, "save10", ""); err != nil {
			t.Fatal(err)
		}

		// The order records the coupon and the discount the cart showed,
		// counts its use and leaves the cart without it.
		b := billing()
		if err := f.carts.UpdateCustomer(ctx, sid, &b, nil); err != nil {
			t.Fatal(err)
		}
		pc, _ = f.svc.Cart(ctx, sid, "")
		o, err := f.svc.PlaceOrder(ctx, request(sid))
		if err != nil {
			t.Fatal(err)
		}
		if o.DiscountTotal != pc.Quote.Discount || o.Total != pc.Quote.Total || len(o.Coupons) != 1 || o.Coupons[0].Code != "save10" ||
			o.Coupons[0].Discount != pc.Quote.Discount {
			t.Errorf("order discount %d total %d coupons %+v; cart %d %d", o.DiscountTotal, o.Total, o.Coupons, pc.Quote.Discount, pc.Quote.Total)
		}
		stored, err := db.Order(ctx, o.ID)
		if err != nil || stored.DiscountTotal != o.DiscountTotal || len(stored.Coupons) != 1 || stored.Coupons[0] != o.Coupons[0] {
			t.Errorf("stored order: %+v %v", stored, err)
		}
		if c, _ := db.CouponByCode(ctx, "save10"); c.UsageCount != 1 {
			t.Errorf("usage count %d", c.UsageCount)
		}
		if c, _ := f.carts.Get(ctx, sid); len(c.Customer.Coupons) != 0 || c.Customer.Billing.Email == "" {
			t.Errorf("after the order: %+v", c.Customer)
		}

		// A coupon that stops applying is dropped on the next read, with
		// its reason; a checkout meeting it first is refused (409).
		sid2 := session(41)
		f.add(sid2, f.productID("cotton-tank-top"), 1)
		if err := f.svc.ApplyCoupon(ctx, sid2, "save10", ""); err != nil {
			t.Fatal(err)
		}
		c10, _ := db.CouponByCode(ctx, "save10")
		if err := db.DeleteCoupon(ctx, c10.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.PlaceOrder(ctx, request(sid2))
		couponErr(t, err, 409, ce, `Coupon "save10" cannot be applied because it does not exist.`)
		if c, _ := f.carts.Get(ctx, sid2); len(c.Customer.Coupons) != 0 || len(c.Lines) != 1 {
			t.Errorf("after the refusal: %+v", c)
		}
		if _, err := f.svc.PlaceOrder(ctx, request(sid2)); err != nil {
			t.Errorf("the next attempt: %v", err)
		}
	})
}

// Per customer: by billing email for guests, by account for customers.
func TestServiceCouponPerCustomer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Coupons = db
		ctx := context.Background()
		f.coupon(coupon.Coupon{Code: "first", Type: coupon.FixedCart, Amount: 100, UsageLimitPerUser: 1})
		tank := f.productID("cotton-tank-top")
		sid := session(50)
		f.add(sid, tank, 1)
		if err := f.svc.ApplyCoupon(ctx, sid, "first", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PlaceOrder(ctx, request(sid)); err != nil {
			t.Fatal(err)
		}
		// Same email, another session: refused when applied (the cart knows
		// the email) …
		sid2 := session(51)
		f.add(sid2, tank, 1)
		b := billing()
		b.Email = "ADA@example.com"
		if err := f.carts.UpdateCustomer(ctx, sid2, &b, nil); err != nil {
			t.Fatal(err)
		}
		couponErr(t, f.svc.ApplyCoupon(ctx, sid2, "first", ""), 400, coupon.CodeError, `Usage limit for coupon "first" has been reached.`)
		// … and at checkout when it was applied before the email was known.
		sid3 := session(52)
		f.add(sid3, tank, 1)
		if err := f.svc.ApplyCoupon(ctx, sid3, "first", ""); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.PlaceOrder(ctx, request(sid3))
		couponErr(t, err, 409, coupon.CodeError, `Usage limit for coupon "first" has been reached.`)
		// Another shopper may use it.
		other := request(sid3)
		other.Billing.Email = "grace@example.com"
		if o, err := f.svc.PlaceOrder(ctx, other); err != nil || len(o.Coupons) != 1 {
			t.Errorf("another shopper: %v %v", o, err)
		}
	})
}

// A single-use coupon raced by 50 checkouts is used exactly once; a
// once-per-customer coupon raced by one customer's 20 carts likewise.
func TestServiceCouponRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Coupons = db
		ctx := context.Background()
		f.coupon(coupon.Coupon{Code: "once", Type: coupon.Percent, Amount: 50_000, UsageLimit: 1})
		f.coupon(coupon.Coupon{Code: "mine", Type: coupon.Percent, Amount: 50_000, UsageLimitPerUser: 1})
		tank := f.productID("cotton-tank-top")
		race := func(code string, buyers, first int, emailOf func(i int) string) (ok, refused int) {
			for i := range buyers {
				f.add(session(first+i), tank, 1)
				if err := f.svc.ApplyCoupon(ctx, session(first+i), code, ""); err != nil {
					t.Fatal(err)
				}
			}
			errs := f.placeAtOnce(buyers, func(i int) checkout.PlaceRequest {
				r := request(session(first + i))
				r.Billing.Email = emailOf(i)
				return r
			})
			return tally(t, errs, func(ce *cart.Error) bool { return ce.Status == 409 && ce.Code == coupon.CodeError })
		}
		ok, refused := race("once", 50, 200, func(i int) string { return "buyer" + itoa(i) + "@example.com" })
		c, _ := db.CouponByCode(ctx, "once")
		if ok != 1 || refused != 49 || c.UsageCount != 1 {
			t.Errorf("single use: %d orders, %d refused, usage count %d", ok, refused, c.UsageCount)
		}
		ok, refused = race("mine", 20, 300, func(int) string { return "same@example.com" })
		c, _ = db.CouponByCode(ctx, "mine")
		if ok != 1 || refused != 19 || c.UsageCount != 1 {
			t.Errorf("once per customer: %d orders, %d refused, usage count %d", ok, refused, c.UsageCount)
		}
	})
}

func itoa(i int) string { return strconv.Itoa(i) }

// A cancelled order gives its coupon use back, once, as WooCommerce does:
// staff cancelling it in the admin, or the held-stock release cancelling an
// unpaid bank transfer. The freed use serves the next order, and a
// once-per-customer coupon serves that customer again.
func TestCancelledOrderGivesCouponUseBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Coupons = db
		ctx := context.Background()
		once := f.coupon(coupon.Coupon{Code: "once", Type: coupon.FixedCart, Amount: 100, UsageLimit: 1, UsageLimitPerUser: 1})
		tank := f.productID("cotton-tank-top")
		place := func(i int) int64 {
			t.Helper()
			sid := session(300 + i)
			f.add(sid, tank, 1)
			if err := f.svc.ApplyCoupon(ctx, sid, "once", ""); err != nil {
				t.Fatalf("apply %d: %v", i, err)
			}
			o, err := f.svc.PlaceOrder(ctx, request(sid))
			if err != nil || len(o.Coupons) != 1 {
				t.Fatalf("place %d: %v %v", i, o, err)
			}
			return o.ID
		}
		uses := func() int64 {
			c, err := db.Coupon(ctx, once.ID)
			if err != nil {
				t.Fatal(err)
			}
			return c.UsageCount
		}

		first := place(1)
		if uses() != 1 {
			t.Fatalf("uses after the first order: %d", uses())
		}
		// Staff cancel it: the use comes back, and the same customer may use it again.
		o, err := db.Order(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		now := f.clock.Now()
		if err := db.ChangeOrderStatus(ctx, orders.StatusChange{OrderID: first, From: o.Status, To: "cancelled", Restock: true, Now: now}); err != nil {
			t.Fatal(err)
		}
		if uses() != 0 {
			t.Fatalf("uses after the cancellation: %d", uses())
		}
		second := place(2)
		if uses() != 1 {
			t.Fatalf("uses after the second order: %d", uses())
		}
		// The held-stock release cancels the unpaid bank transfer: the use comes back once,
		// even when the release runs again.
		for range 2 {
			if _, err := db.ReleaseHeldOrder(ctx, second, []string{"bacs"}, now.Add(time.Hour), now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := db.Order(ctx, second); got.Status != "cancelled" {
			t.Fatalf("the held order is %s", got.Status)
		}
		if uses() != 0 {
			t.Fatalf("uses after the release: %d", uses())
		}
		place(3)
		if uses() != 1 {
			t.Fatalf("uses after the third order: %d", uses())
		}
	})
}
