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
