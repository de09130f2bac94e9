package adminapi

import (
	"encoding/json"
	"testing"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// An order moved in from WooCommerce answers its fees as WooCommerce's
// fee_lines (reference: wc-v3-orders-88-completed-coupon-fee.http); a
// shop order answers none.
func TestOrderFeeLines(t *testing.T) {
	usd, _ := money.Lookup("USD")
	o := &checkout.Order{ID: 88, Number: "88", Status: "completed", Currency: "USD", Meta: map[string]string{},
		Lines:    []checkout.Line{{Name: "Beanie", Quantity: 2, UnitPrice: 1800, Subtotal: 3600, Total: 3240}},
		FeeLines: []checkout.FeeLine{{Name: "Gift wrap", TaxStatus: "none", Total: 250}}, Total: 5610}
	b, err := json.Marshal(orderOf(o, usd))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		FeeLines []map[string]any `json:"fee_lines"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.FeeLines) != 1 || got.FeeLines[0]["name"] != "Gift wrap" || got.FeeLines[0]["total"] != "2.50" ||
		got.FeeLines[0]["tax_status"] != "none" || got.FeeLines[0]["total_tax"] != "0.00" || got.FeeLines[0]["id"] != float64(2) {
		t.Errorf("fee_lines: %v", got.FeeLines)
	}
	o.FeeLines = nil
	b, _ = json.Marshal(orderOf(o, usd))
	if err := json.Unmarshal(b, &got); err != nil || got.FeeLines == nil || len(got.FeeLines) != 0 {
		t.Errorf("a shop order's fee_lines: %s", b)
	}
}
