package analytics_test

import (
	"testing"
	"time"

	"vitrine/internal/analytics"
)

// Amounts convert at the order's own rate, across decimals, rounded half
// away from zero; net is what is left of gross; a whole refund in parts
// takes exactly all of the tax and shipping.
func TestFactsConvertAndRefund(t *testing.T) {
	conv := analytics.Converter{Base: usd}
	// ¥1,513 at 151.3 yen to the dollar is $10.00; ¥1 is $0.0066: 1 cent.
	f := conv.Facts(analytics.Source{OrderID: 1, Currency: "JPY", Rate: "151.3", Total: 1513, Tax: 1, Shipping: 0,
		Lines: []analytics.SourceLine{{Position: 0, ProductID: 5, Quantity: 2, Total: 1512, Tax: 1}}})
	o := f.Orders[0]
	if o.Gross != 1000 || o.Tax != 1 || o.Net != 999 || o.Items != 2 || f.Lines[0].Net != 999 {
		t.Errorf("JPY order: %+v, line %+v", o, f.Lines[0])
	}
	// €92.00 at 0.92 is $100.00; the base currency is taken as is.
	if f := conv.Facts(analytics.Source{Currency: "EUR", Rate: "0.92", Total: 9200}); f.Orders[0].Gross != 10000 {
		t.Errorf("EUR: %+v", f.Orders[0])
	}
	if f := conv.Facts(analytics.Source{Currency: "USD", Rate: "2", Total: 9200}); f.Orders[0].Gross != 9200 {
		t.Errorf("USD: %+v", f.Orders[0])
	}
	// $33.33 total with $3.03 tax and $5.00 shipping, refunded in three
	// parts (the last one first in id but last in time).
	src := analytics.Source{Currency: "USD", Total: 3333, Tax: 303, Shipping: 500,
		Refunds: []analytics.SourceRefund{{ID: 9, CreatedAt: 30, Amount: 1111}, {ID: 7, CreatedAt: 10, Amount: 1111}, {ID: 8, CreatedAt: 20, Amount: 1111}}}
	var gross, tax, ship, net int64
	for _, r := range conv.Facts(src).Orders[1:] {
		if r.Gross != -1111 || r.Net != r.Gross-r.Tax-r.Shipping {
			t.Errorf("refund row %+v", r)
		}
		gross += r.Gross
		tax += r.Tax
		ship += r.Shipping
		net += r.Net
	}
	if gross != -3333 || tax != -303 || ship != -500 || net != -(3333-303-500) {
		t.Errorf("refunds add to %d %d %d %d, want the whole order", gross, tax, ship, net)
	}
}

// A line's product lookup figures (decision 0130): its own tax, its
// coupon discount (subtotal less total), the order's shipping and the
// shipping's tax split by quantity (rounded on the running sum, so the
// lines take exactly the order's, in a converted currency too); a
// refunded line its own net and tax, negative, and no shipping.
func TestFactsLineShares(t *testing.T) {
	conv := analytics.Converter{Base: usd}
	// $10.00 shipping with $1.00 tax over 1 + 2 items: 333 and 667
	// (100 × 1/3 = 33, then 100 × 3/3 − 33 = 67).
	src := analytics.Source{OrderID: 1, Currency: "USD", Total: 3000 + 300 + 1000 + 100, Tax: 400, Shipping: 1000, ShippingTax: 100,
		Lines: []analytics.SourceLine{
			{Position: 0, ProductID: 5, Quantity: 1, Total: 1000, Tax: 100, Subtotal: 1250},
			{Position: 1, ProductID: 6, Quantity: 2, Total: 2000, Tax: 200, Subtotal: 2000},
		},
		Refunds: []analytics.SourceRefund{{ID: 4, CreatedAt: 50, Amount: 550, Lines: []analytics.RefundLine{{Line: 1, Quantity: 1, Total: 550}}}}}
	f := conv.Facts(src)
	want := []analytics.LineFact{
		{Quantity: 1, Net: 1000, Tax: 100, Shipping: 333, ShippingTax: 33, Coupon: 250},
		{Quantity: 2, Net: 2000, Tax: 200, Shipping: 667, ShippingTax: 67},
		{Quantity: -1, Net: -500, Tax: -50},
	}
	if len(f.Lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(f.Lines), len(want))
	}
	for i, w := range want {
		g := f.Lines[i]
		if g.Quantity != w.Quantity || g.Net != w.Net || g.Tax != w.Tax || g.Shipping != w.Shipping || g.ShippingTax != w.ShippingTax || g.Coupon != w.Coupon {
			t.Errorf("line %d: %+v, want %+v", i, g, w)
		}
	}
	if g := f.Lines[0].Gross() + f.Lines[1].Gross(); g != f.Orders[0].Gross {
		t.Errorf("the lines' gross %d, the order's %d", g, f.Orders[0].Gross)
	}
	// In yen (no decimals) at 151.3: each line's tax is converted on its
	// own, the shipping's tax is what is left of the order's, so the
	// lines' taxes add up to the order's tax and their shipping to its
	// shipping.
	src = analytics.Source{OrderID: 2, Currency: "JPY", Rate: "151.3", Total: 999 + 777 + 333 + 111 + 99 + 77 + 33 + 3 + 500 + 50,
		Tax: 99 + 77 + 33 + 3 + 50, Shipping: 500, ShippingTax: 50,
		Lines: []analytics.SourceLine{
			{Position: 0, ProductID: 1, Quantity: 3, Total: 999, Tax: 99, Subtotal: 999},
			{Position: 1, ProductID: 2, Quantity: 1, Total: 777, Tax: 77, Subtotal: 777},
			{Position: 2, ProductID: 3, Quantity: 2, Total: 333, Tax: 33, Subtotal: 333},
			{Position: 3, ProductID: 4, Quantity: 1, Total: 111, Tax: 3, Subtotal: 111},
		}}
	f = conv.Facts(src)
	var tax, ship int64
	for _, l := range f.Lines {
		tax += l.Tax + l.ShippingTax
		ship += l.Shipping
	}
	if o := f.Orders[0]; tax != o.Tax || ship != o.Shipping || o.Shipping == 0 {
		t.Errorf("JPY lines: tax %d shipping %d, the order's %d %d", tax, ship, o.Tax, o.Shipping)
	}
	// The shipping by quantity: 3, 1, 2 and 1 of 7 items of $3.30.
	for i, q := range []int64{3, 1, 2, 1} {
		exact := float64(f.Orders[0].Shipping) * float64(q) / 7
		if d := float64(f.Lines[i].Shipping) - exact; d > 1 || d < -1 {
			t.Errorf("JPY line %d: shipping %d, its quantity's share %.2f", i, f.Lines[i].Shipping, exact)
		}
	}
}

// Intervals by the calendar of the shop's zone: weeks from Monday with ISO
// numbers, quarters, the spring-forward day of 23 hours and its hours,
// the first and last intervals clamped to the period.
func TestBuckets(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	p := analytics.Period{From: time.Date(2026, 3, 4, 12, 0, 0, 0, ny), To: time.Date(2026, 4, 2, 0, 0, 0, 0, ny)}
	cases := []struct {
		interval    string
		n           int
		first, last string
	}{
		{"week", 5, "2026-10", "2026-14"},
		{"month", 2, "2026-03", "2026-04"},
		{"quarter", 2, "2026-1", "2026-2"},
		{"year", 1, "2026", "2026"},
		{"day", 29, "2026-03-04", "2026-04-01"},
	}
	for _, c := range cases {
		bs, err := analytics.Buckets(p, c.interval)
		if err != nil || len(bs) != c.n || bs[0].ID != c.first || bs[len(bs)-1].ID != c.last {
			t.Errorf("%s: %d buckets %v, want %d from %s to %s", c.interval, len(bs), err, c.n, c.first, c.last)
			continue
		}
		if !bs[0].Start.Equal(p.From) || !bs[len(bs)-1].End.Equal(p.To) {
			t.Errorf("%s: not clamped: %s .. %s", c.interval, bs[0].Start, bs[len(bs)-1].End)
		}
	}
	day := analytics.Period{From: time.Date(2026, 3, 8, 0, 0, 0, 0, ny), To: time.Date(2026, 3, 9, 0, 0, 0, 0, ny)}
	hours, _ := analytics.Buckets(day, "hour")
	if len(hours) != 23 || hours[2].ID != "2026-03-08 03" {
		t.Errorf("spring-forward day: %d hours, third %s", len(hours), hours[2].ID)
	}
	if _, err := analytics.Buckets(analytics.Period{From: p.From, To: p.From.AddDate(5, 0, 0)}, "hour"); err == nil {
		t.Error("five years by hour: no refusal")
	}
}
