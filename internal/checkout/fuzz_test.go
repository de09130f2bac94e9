package checkout

import (
	"math"
	"testing"

	"vitrine/internal/money"
)

// FuzzQuote: any cart the limits admit is priced without overflow and adds
// up to the minor unit (S2, S3); anything outside the limits is refused,
// never priced. The seeds include the products a random search misses
// (unit 2^62 × 2, the maximum price at the maximum quantity).
//
//	go test -fuzz FuzzQuote -fuzztime 60s ./internal/checkout/
func FuzzQuote(f *testing.F) {
	f.Add(int64(1<<62), int64(2), int64(0), int64(1), "US", "CA", false)
	f.Add(int64(MaxUnitPrice), int64(MaxQuantity), int64(MaxUnitPrice), int64(MaxQuantity), "DE", "", false)
	f.Add(int64(MaxUnitPrice+1), int64(1), int64(1), int64(1), "US", "NY", false)
	f.Add(int64(-1), int64(1), int64(100), int64(1), "GB", "", false)
	f.Add(int64(999), int64(0), int64(100), int64(1), "FR", "", false)
	f.Add(int64(2200), int64(3), int64(999), int64(7), "NL", "", true)
	f.Add(int64(1), int64(1), int64(1), int64(1), "JP", "", true)
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), int64(1), int64(1), "US", "CA", true)
	f.Fuzz(func(t *testing.T, p1, q1, p2, q2 int64, country, state string, inclusive bool) {
		for _, cur := range []money.Currency{usd(), jpy()} {
			code := cur.Code
			cfg := DefaultConfig(cur)
			cfg.PricesIncludeTax = inclusive
			items := []Item{{Key: "a", Quantity: q1, UnitPrice: p1, Taxable: true}, {Key: "b", Quantity: q2, UnitPrice: p2, Taxable: true}}
			q, err := Quote(items, Customer{Shipping: Address{Country: country, State: state}}, &cfg)
			inBounds := func(it Item) bool {
				return it.Quantity >= 1 && it.Quantity <= MaxQuantity && it.UnitPrice >= 0 && it.UnitPrice <= MaxUnitPrice
			}
			if !inBounds(items[0]) || !inBounds(items[1]) {
				if err == nil {
					t.Fatalf("%s: out-of-bounds cart priced: %+v", code, items)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v for %+v", code, err, items)
			}
			var sub, tax, lines int64
			for _, l := range q.Lines {
				if l.Subtotal < 0 || l.SubtotalTax < 0 || l.Total < 0 || l.TotalTax < 0 {
					t.Fatalf("%s: negative line %+v", code, l)
				}
				sub += l.Subtotal
				tax += l.SubtotalTax
				lines += l.Total + l.TotalTax
			}
			if sub != q.ItemsSubtotal || tax != q.ItemsTax {
				t.Fatalf("%s: lines %d+%d, quote %d+%d", code, sub, tax, q.ItemsSubtotal, q.ItemsTax)
			}
			var taxLines int64
			for _, tl := range q.TaxLines {
				taxLines += tl.Amount()
			}
			if taxLines != q.TotalTax || q.ItemsTax+q.ShippingTax != q.TotalTax {
				t.Fatalf("%s: tax lines %d, item+shipping tax %d, total tax %d", code, taxLines, q.ItemsTax+q.ShippingTax, q.TotalTax)
			}
			if q.ItemsSubtotal+q.ItemsTax+q.Shipping+q.ShippingTax != q.Total || q.Total < 0 {
				t.Fatalf("%s: parts do not add up to the total: %+v", code, q)
			}
		}
	})
}

// FuzzValidPhoneEmail: the validators never panic, and what they accept
// stays within the documented shapes (phone: 6 to 15 digits; email: at
// least 6 characters with an @).
func FuzzValidPhoneEmail(f *testing.F) {
	for _, s := range []string{"+1 555 010 0200", "12345", "123456", "1234567890123456", "(555) 010-0200", "５５５０１００２００",
		"a@b.co", "a@b.c", "ada@example.com", "@example.com", "ada@", "ada@@example.com", "ada@exa mple.com", "\x00@x.io"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidPhone(s) {
			digits := 0
			for _, r := range s {
				if r >= '0' && r <= '9' {
					digits++
				}
			}
			if digits < 6 || digits > 15 {
				t.Fatalf("ValidPhone(%q) with %d digits", s, digits)
			}
		}
		if ValidEmail(s) {
			at := 0
			for _, r := range s {
				if r == '@' {
					at++
				}
			}
			if len(s) < 6 || at != 1 {
				t.Fatalf("ValidEmail(%q)", s)
			}
		}
	})
}
