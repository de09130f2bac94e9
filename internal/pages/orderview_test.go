package pages_test

import (
	"slices"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/pages"
)

// An order's totals read in WooCommerce's order, fees (which only orders
// moved in from WooCommerce carry) after shipping and before taxes, with
// their tax when prices include tax, so the rows add up to the total the
// shopper paid.
func TestOrderViewTotals(t *testing.T) {
	usd, _ := money.Lookup("USD")
	o := &checkout.Order{ID: 88, Number: "88", Status: "completed", CreatedAt: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC),
		PaymentMethodTitle: "Direct bank transfer", ItemsSubtotal: 5400, DiscountTotal: 540, ShippingTotal: 500,
		ShippingLines: []checkout.ShippingLine{{Title: "Flat rate", MethodID: "flat_rate", Total: 500}},
		FeeLines:      []checkout.FeeLine{{Name: "Gift wrap", TaxStatus: "none", Total: 250}},
		Total:         5610}
	got := pages.NewOrderView(o, usd, "").Totals
	want := []pages.OrderTotal{{"Subtotal:", "$54.00"}, {"Discount:", "-$5.40"}, {"Shipping:", "$5.00 via Flat rate"},
		{"Gift wrap:", "$2.50"}, {"Payment method:", "Direct bank transfer"}, {"Total:", "$56.10"}}
	if !slices.Equal(got, want) {
		t.Errorf("totals:\n%v\nwant\n%v", got, want)
	}

	o.PricesIncludeTax = true
	o.FeeLines = []checkout.FeeLine{{Name: "Gift wrap", TaxStatus: "taxable", Total: 250, TotalTax: 50}}
	if got := pages.NewOrderView(o, usd, "").Totals[3]; got != (pages.OrderTotal{"Gift wrap:", "$3.00"}) {
		t.Errorf("a taxable fee with prices including tax: %v", got)
	}

	o.FeeLines = nil
	for _, row := range pages.NewOrderView(o, usd, "").Totals {
		if row.Label == "Gift wrap:" {
			t.Error("a fee row without fees")
		}
	}
}
