package analytics_test

import (
	"testing"

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
