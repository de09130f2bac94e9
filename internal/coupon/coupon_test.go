package coupon_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/coupon"
)

// The rules as plain functions: eligibility, Check's refusals with
// WooCommerce's messages, individual use.

var now = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func dollars(v int64) string { return "$" + strconv.FormatInt(v/100, 10) + ".00" }

func msg(err error) string {
	var ce *cart.Error
	if errors.As(err, &ce) {
		return ce.Message
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestCouponApplies(t *testing.T) {
	tee := coupon.Line{Name: "Tee", ProductID: 1, CategoryIDs: []int64{10}, Amount: 2000}
	scarf := coupon.Line{Name: "Scarf", ProductID: 2, VariationID: 20, CategoryIDs: []int64{11}, Amount: 1500}
	for _, tc := range []struct {
		name      string
		c         coupon.Coupon
		tee, scrf bool
	}{
		{"no restriction", coupon.Coupon{}, true, true},
		{"a product", coupon.Coupon{ProductIDs: []int64{1}}, true, false},
		{"a variation", coupon.Coupon{ProductIDs: []int64{20}}, false, true},
		{"a category", coupon.Coupon{CategoryIDs: []int64{11}}, false, true},
		{"product or category", coupon.Coupon{ProductIDs: []int64{1}, CategoryIDs: []int64{11}}, true, true},
		{"excluded product wins", coupon.Coupon{CategoryIDs: []int64{10}, ExcludedProductIDs: []int64{1}}, false, false},
		{"excluded category", coupon.Coupon{ExcludedCategoryIDs: []int64{10}}, false, true},
	} {
		if got := tc.c.Applies(tee); got != tc.tee {
			t.Errorf("%s: tee %v", tc.name, got)
		}
		if got := tc.c.Applies(scarf); got != tc.scrf {
			t.Errorf("%s: scarf %v", tc.name, got)
		}
	}
}

func TestCouponCheck(t *testing.T) {
	lines := []coupon.Line{{Name: "Tee", ProductID: 1, CategoryIDs: []int64{10}, Amount: 2000},
		{Name: "Scarf", ProductID: 2, CategoryIDs: []int64{11}, Amount: 1500}}
	past, soon, future := now.Add(-time.Second), now.Add(time.Second), now.Add(time.Hour)
	for _, tc := range []struct {
		name string
		c    coupon.Coupon
		want string
	}{
		{"valid", coupon.Coupon{Code: "ok", Type: coupon.Percent, Amount: 10_000, Expires: &future}, ""},
		{"expired", coupon.Coupon{Code: "old", Type: coupon.Percent, Expires: &past}, `Coupon "old" has expired.`},
		{"expires a second from now", coupon.Coupon{Code: "soon", Type: coupon.Percent, Amount: 10_000, Expires: &soon}, ""},
		{"expires exactly now", coupon.Coupon{Code: "now", Type: coupon.Percent, Expires: &now}, `Coupon "now" has expired.`},
		{"used up", coupon.Coupon{Code: "once", Type: coupon.FixedCart, UsageLimit: 1, UsageCount: 1}, `Usage limit for coupon "once" has been reached.`},
		{"minimum spend met", coupon.Coupon{Code: "min", Type: coupon.FixedCart, MinimumAmount: 3500}, ""},
		{"minimum spend", coupon.Coupon{Code: "min", Type: coupon.FixedCart, MinimumAmount: 3501}, `The minimum spend for coupon "min" is $35.00.`},
		{"no eligible product", coupon.Coupon{Code: "p", Type: coupon.Percent, ProductIDs: []int64{9}}, `Sorry, coupon "p" is not applicable to selected products.`},
		{"all excluded", coupon.Coupon{Code: "x", Type: coupon.FixedProduct, ExcludedCategoryIDs: []int64{10, 11}},
			`Sorry, coupon "x" is not applicable to selected products.`},
		{"percent with one excluded", coupon.Coupon{Code: "x", Type: coupon.Percent, ExcludedProductIDs: []int64{1}}, ""},
		{"cart coupon, excluded product", coupon.Coupon{Code: "c", Type: coupon.FixedCart, ExcludedProductIDs: []int64{1}},
			`Sorry, coupon "c" is not applicable to the products: Tee.`},
		{"cart coupon, excluded category", coupon.Coupon{Code: "c", Type: coupon.FixedCart, ExcludedCategoryIDs: []int64{11}},
			`Sorry, coupon "c" is not applicable to the categories: Scarf.`},
		{"escaped code", coupon.Coupon{Code: "<i>", Type: coupon.Percent, Expires: &past}, `Coupon "&lt;i&gt;" has expired.`},
	} {
		if got := msg(coupon.Check(&tc.c, lines, now, dollars)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	perUser := &coupon.Coupon{Code: "mine", UsageLimitPerUser: 2}
	if coupon.CheckUses(perUser, 1) != nil || msg(coupon.CheckUses(perUser, 2)) != `Usage limit for coupon "mine" has been reached.` {
		t.Errorf("per user")
	}
}

func TestCouponCombine(t *testing.T) {
	a := &coupon.Coupon{Code: "a"}
	b := &coupon.Coupon{Code: "b"}
	solo := &coupon.Coupon{Code: "solo", IndividualUse: true}
	if got, err := coupon.Combine([]*coupon.Coupon{a}, b); err != nil || len(got) != 2 {
		t.Errorf("two coupons: %v %v", got, err)
	}
	if _, err := coupon.Combine([]*coupon.Coupon{a}, a); msg(err) != `Coupon code "a" has already been applied.` {
		t.Errorf("twice: %v", err)
	}
	if got, err := coupon.Combine([]*coupon.Coupon{a, b}, solo); err != nil || len(got) != 1 || got[0] != solo {
		t.Errorf("individual use replaces: %v %v", got, err)
	}
	if _, err := coupon.Combine([]*coupon.Coupon{solo}, a); msg(err) != `Sorry, coupon "solo" has already been applied and cannot be used in conjunction with other coupons.` {
		t.Errorf("after individual use: %v", err)
	}
	if coupon.Normalize("  SaVe10 ") != "save10" {
		t.Errorf("Normalize")
	}
}
