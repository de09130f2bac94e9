package checkout

import "testing"

// TestQuoteFreeShippingProgress: the quote's free-shipping progress is the
// zone's lowest minimum against the items after coupons, the comparison
// that offers the rate (reached exactly when free_shipping is offered), in
// prices as entered; none for a zone without free shipping, or whose free
// shipping has no minimum.
func TestQuoteFreeShippingProgress(t *testing.T) {
	offered := func(q Quotation) bool {
		for _, p := range q.Packages {
			for _, r := range p.Rates {
				if r.MethodID == FreeShipping {
					return true
				}
			}
		}
		return false
	}
	us := Customer{Shipping: Address{Country: "US", State: "TX"}}
	base := DefaultConfig(usd())
	var minimum int64
	for _, m := range base.Zones[0].Methods {
		if m.Type == FreeShipping {
			minimum = m.MinAmount
		}
	}
	for _, amount := range []int64{minimum - 1, minimum, minimum + 1, 1} {
		q, err := Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: amount, Taxable: true}}, us, &base)
		if err != nil {
			t.Fatal(err)
		}
		f := q.FreeShipping
		if f == nil || f.MinAmount != minimum || f.Amount != amount || f.Reached() != (amount >= minimum) ||
			f.Remaining() != max(0, minimum-amount) || offered(q) != f.Reached() {
			t.Errorf("items %d: %+v, free rate offered %v", amount, f, offered(q))
		}
	}

	// Two free-shipping methods: the lowest minimum is the one to reach.
	two := DefaultConfig(usd())
	two.Zones[0].Methods = append(two.Zones[0].Methods, Method{InstanceID: 9, Type: FreeShipping, Title: "Free (members)", MinAmount: minimum / 2})
	q, _ := Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: 100, Taxable: true}}, us, &two)
	if q.FreeShipping == nil || q.FreeShipping.MinAmount != minimum/2 {
		t.Errorf("two minimums: %+v", q.FreeShipping)
	}

	// Prices entered with tax: the amount is the gross (as the rate reads it).
	incl := DefaultConfig(usd())
	incl.PricesIncludeTax = true
	ca := Customer{Shipping: Address{Country: "US", State: "CA"}}
	q, _ = Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: minimum, Taxable: true}}, ca, &incl)
	if q.FreeShipping == nil || q.FreeShipping.Amount != minimum || !q.FreeShipping.Reached() || !offered(q) {
		t.Errorf("prices with tax: %+v offered %v", q.FreeShipping, offered(q))
	}

	// No free shipping (Europe), or free shipping without a minimum: none.
	q, _ = Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: 100, Taxable: true}}, Customer{Shipping: Address{Country: "DE"}}, &base)
	if q.FreeShipping != nil {
		t.Errorf("Europe: %+v", q.FreeShipping)
	}
	always := DefaultConfig(usd())
	always.Zones[0].Methods = append(always.Zones[0].Methods, Method{InstanceID: 9, Type: FreeShipping, Title: "Free"})
	q, _ = Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: 100, Taxable: true}}, us, &always)
	if q.FreeShipping != nil || !offered(q) {
		t.Errorf("free without a minimum: %+v offered %v", q.FreeShipping, offered(q))
	}
	// An empty cart needs no shipping: none.
	if q, _ := Quote(nil, us, &base); q.FreeShipping != nil {
		t.Errorf("empty cart: %+v", q.FreeShipping)
	}
}
