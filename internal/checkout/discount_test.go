package checkout

import (
	"math/rand/v2"
	"testing"

	"vitrine/internal/coupon"
)

// Discounts in the one price function: amounts, taxes after discounts,
// restrictions, and the parts summing to the total.

func TestCheckoutQuoteCoupons(t *testing.T) {
	cfg := DefaultConfig(usd())
	ca := Customer{Shipping: Address{Country: "US", State: "CA"}}
	items := []Item{{Key: "a", Quantity: 2, UnitPrice: 2200, Taxable: true, ProductID: 10, CategoryIDs: []int64{3}},
		{Key: "b", Quantity: 1, UnitPrice: 999, Taxable: true, ProductID: 11, CategoryIDs: []int64{4}}}
	pct := func(p int64) *coupon.Coupon { return &coupon.Coupon{Code: "pct", Type: coupon.Percent, Amount: p} }
	cases := []struct {
		name      string
		coupons   []*coupon.Coupon
		lineTotal []int64
		discount  int64
		itemsTax  int64
		total     int64
	}{
		{"no coupon", nil, []int64{4400, 999}, 0, 391, 6326},
		// 10 % of 4400 = 440, of 999 = 99.9 → 100; tax 3960 × 7.25 % = 287.1 → 287, 899 → 65.18 → 65.
		{"10 percent", []*coupon.Coupon{pct(10_000)}, []int64{3960, 899}, 540, 352, 3960 + 899 + 352 + 500 + 36},
		{"fixed product 5.00 a unit", []*coupon.Coupon{{Code: "fp", Type: coupon.FixedProduct, Amount: 500}},
			[]int64{3400, 499}, 1500, 247 + 36, 3400 + 499 + 247 + 36 + 500 + 36},
		// 10.00 over 4400 and 999: 10 × 4400/5399 = 8.149… → 814 (+1 remainder → 815), 185.
		{"fixed cart 10.00", []*coupon.Coupon{{Code: "fc", Type: coupon.FixedCart, Amount: 1000}},
			[]int64{3585, 814}, 1000, 260 + 59, 3585 + 814 + 260 + 59 + 500 + 36},
		{"fixed cart larger than the cart", []*coupon.Coupon{{Code: "fc", Type: coupon.FixedCart, Amount: 900_000}},
			[]int64{0, 0}, 5399, 0, 500 + 36},
		{"restricted to a category", []*coupon.Coupon{{Code: "cat", Type: coupon.Percent, Amount: 50_000, CategoryIDs: []int64{4}}},
			// 50 % of 999 = 499.5 → 500 off.
			[]int64{4400, 499}, 500, 319 + 36, 4400 + 499 + 319 + 36 + 500 + 36},
		{"a product excluded", []*coupon.Coupon{{Code: "ex", Type: coupon.Percent, Amount: 100_000, ExcludedProductIDs: []int64{10}}},
			[]int64{4400, 0}, 999, 319, 4400 + 319 + 500 + 36},
		// Percent of the undiscounted amount, after a fixed one: capped by what is left.
		{"two coupons", []*coupon.Coupon{{Code: "fp", Type: coupon.FixedProduct, Amount: 2000}, pct(50_000)},
			[]int64{0, 0}, 5399, 0, 536},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ca
			c.Coupons = tc.coupons
			q, err := Quote(items, c, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.lineTotal {
				if q.Lines[i].Total != want || q.Lines[i].Subtotal != items[i].UnitPrice*items[i].Quantity {
					t.Errorf("line %d: %+v, want total %d", i, q.Lines[i], want)
				}
			}
			if q.Discount != tc.discount || q.ItemsTax != tc.itemsTax || q.Total != tc.total {
				t.Errorf("discount %d items tax %d total %d, want %d %d %d", q.Discount, q.ItemsTax, q.Total, tc.discount, tc.itemsTax, tc.total)
			}
			var byCoupon, byCouponTax int64
			for _, ca := range q.Coupons {
				byCoupon += ca.Discount
				byCouponTax += ca.DiscountTax
			}
			if len(q.Coupons) != len(tc.coupons) || byCoupon != q.Discount || byCouponTax != q.DiscountTax ||
				q.DiscountTax != q.ItemsSubtotalTax-q.ItemsTax {
				t.Errorf("coupons %+v: %d/%d, discount %d/%d", q.Coupons, byCoupon, byCouponTax, q.Discount, q.DiscountTax)
			}
		})
	}
}

// The free-shipping minimum is met after discounts, not before.
func TestCheckoutQuoteCouponFreeShipping(t *testing.T) {
	cfg := DefaultConfig(usd())
	items := []Item{{Key: "a", Quantity: 5, UnitPrice: 2000, Taxable: true}}
	c := Customer{Shipping: Address{Country: "US", State: "TX"}, Coupons: []*coupon.Coupon{{Code: "x", Type: coupon.FixedCart, Amount: 100}}}
	q, err := Quote(items, c, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if q.Selected == nil || q.Selected.ID != "flat_rate:1" || q.Total != 9900+500 {
		t.Errorf("selected %+v total %d", q.Selected, q.Total)
	}
}

// With prices entered including tax the discount comes off the gross, and
// the tax is carved out of what is left.
func TestCheckoutQuoteCouponIncludingTax(t *testing.T) {
	cfg := DefaultConfig(usd())
	cfg.PricesIncludeTax = true
	c := Customer{Shipping: Address{Country: "GB"}, Coupons: []*coupon.Coupon{{Code: "x", Type: coupon.FixedCart, Amount: 600}}}
	q, err := Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: 1200, Taxable: true}}, c, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 1200 − 600 = 600 gross: tax 100, net 500; the discount is 500 net + 100 tax.
	if q.Lines[0].Total != 500 || q.Lines[0].TotalTax != 100 || q.Discount != 500 || q.DiscountTax != 100 ||
		q.Coupons[0].Discount != 500 || q.Coupons[0].DiscountTax != 100 || q.Total != 600+1500+300 {
		t.Errorf("%+v discount %d/%d coupons %+v total %d", q.Lines[0], q.Discount, q.DiscountTax, q.Coupons, q.Total)
	}
}

// Over random carts and coupons the parts still sum to the total, no line
// goes below zero, and the coupons' parts sum to the discount.
func TestCheckoutQuoteCouponProperty(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	types := []string{coupon.Percent, coupon.FixedCart, coupon.FixedProduct}
	for _, cur := range []struct{ code string }{{"USD"}, {"JPY"}} {
		m := usd()
		if cur.code == "JPY" {
			m = jpy()
		}
		rng := rand.New(rand.NewPCG(7, uint64(m.MinorUnit)))
		for i := 0; i < n; i++ {
			cfg := DefaultConfig(m)
			cfg.PricesIncludeTax = rng.IntN(2) == 0
			items := make([]Item, rng.IntN(6)+1)
			for j := range items {
				items[j] = Item{Key: itoa(int64(j)), Quantity: rng.Int64N(9) + 1, UnitPrice: rng.Int64N(200000) + 1, Taxable: rng.IntN(4) != 0,
					ProductID: int64(j + 1), CategoryIDs: []int64{int64(rng.IntN(3) + 1)}}
			}
			var cs []*coupon.Coupon
			for k := rng.IntN(3); k > 0; k-- {
				c := &coupon.Coupon{Code: itoa(int64(k)), Type: types[rng.IntN(3)], Amount: rng.Int64N(300000)}
				if c.Type == coupon.Percent {
					c.Amount = rng.Int64N(coupon.MaxPercent + 1)
				}
				if rng.IntN(3) == 0 {
					c.CategoryIDs = []int64{int64(rng.IntN(3) + 1)}
				}
				cs = append(cs, c)
			}
			q, err := Quote(items, Customer{Shipping: Address{Country: "DE"}, Coupons: cs}, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			var sum, disc, subtotal int64
			for _, l := range q.Lines {
				if l.Total < 0 || l.TotalTax < 0 || l.Total > l.Subtotal || l.TotalTax > l.SubtotalTax {
					t.Fatalf("cart %d: line %+v", i, l)
				}
				sum += l.Total + l.TotalTax
				subtotal += l.Subtotal
				disc += l.Subtotal - l.Total
			}
			var byCoupon, byCouponTax int64
			for _, c := range q.Coupons {
				byCoupon += c.Discount
				byCouponTax += c.DiscountTax
			}
			if sum+q.Shipping+q.ShippingTax != q.Total || disc != q.Discount || subtotal != q.ItemsSubtotal ||
				byCoupon != q.Discount || byCouponTax != q.DiscountTax ||
				q.ItemsSubtotal+q.ItemsSubtotalTax-q.Discount-q.DiscountTax+q.Shipping+q.ShippingTax != q.Total {
				t.Fatalf("%s cart %d: %+v", m.Code, i, q)
			}
		}
	}
}
