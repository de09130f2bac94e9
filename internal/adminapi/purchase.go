package adminapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"vitrine/internal/catalog"
)

// The purchase rules a product and its variations share: the low-stock
// threshold and the quantity rules; and a variation's pre-order.
//
//	"low_stock_amount": 3 | null          (null: the shop's threshold)
//	"quantity_rules": {"minimum": 2, "maximum": 12, "multiple_of": 2}
//	                                      (0: no minimum, no maximum, any step)
//	"pre_order": true, "pre_order_date_gmt": "2026-12-24T09:00:00" | "",
//	"pre_order_label": "Pre-order now"
//
// Quantity rules take the Store API's names (add_to_cart.minimum,
// maximum, multiple_of); WooCommerce's own REST API has no such fields.

type quantityRulesJSON struct {
	Minimum    int64 `json:"minimum"`
	Maximum    int64 `json:"maximum"`
	MultipleOf int64 `json:"multiple_of"`
}

type quantityRulesBody struct {
	Minimum    *int64 `json:"minimum"`
	Maximum    *int64 `json:"maximum"`
	MultipleOf *int64 `json:"multiple_of"`
}

func (q *quantityRulesBody) input() catalog.QuantityInput {
	if q == nil {
		return catalog.QuantityInput{}
	}
	return catalog.QuantityInput{Min: q.Minimum, Max: q.Maximum, Step: q.MultipleOf}
}

func quantityRulesOut(p *catalog.Product) quantityRulesJSON {
	return quantityRulesJSON{Minimum: p.MinQty, Maximum: p.MaxQty, MultipleOf: p.Step}
}

// nullableInt is a number field where null means something (clear it) and
// absence means "leave it".
type nullableInt struct {
	Set   bool
	Value *int64
}

func (n *nullableInt) UnmarshalJSON(b []byte) error {
	n.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		n.Value = nil
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// lowStock is the service's input: nil leaves it, negative clears it. A
// negative number sent is refused here, never read as "clear".
func (n nullableInt) lowStock(field string) (*int64, error) {
	switch {
	case !n.Set:
		return nil, nil
	case n.Value == nil:
		clear := int64(-1)
		return &clear, nil
	case *n.Value < 0:
		return nil, InvalidParam(field, fmt.Sprintf("Enter a whole number from 0 to %d, or null for the shop's threshold.", catalog.MaxQuantityRule))
	}
	return n.Value, nil
}

type preOrderBody struct {
	PreOrder        *bool   `json:"pre_order"`
	PreOrderDateGMT *string `json:"pre_order_date_gmt"`
	PreOrderLabel   *string `json:"pre_order_label"`
}

// apply sets the pre-order fields of a variation edit; prefix names the
// batch item.
func (b preOrderBody) apply(e *catalog.VariationEdit, prefix string) error {
	e.PreOrder, e.PreOrderLabel = b.PreOrder, b.PreOrderLabel
	if b.PreOrderDateGMT == nil {
		return nil
	}
	s := strings.TrimSpace(*b.PreOrderDateGMT)
	if s == "" {
		e.PreOrderAt = &time.Time{}
		return nil
	}
	t, err := parseGMT(s)
	if err != nil {
		return InvalidParam(prefix+"pre_order_date_gmt", "pre_order_date_gmt must be a date and time such as 2026-12-01T09:00:00 (UTC), or \"\" to clear it.")
	}
	e.PreOrderAt = &t
	return nil
}

func preOrderDateOut(p *catalog.Product) *string {
	if p.PreOrderAt == nil {
		return nil
	}
	s := p.PreOrderAt.UTC().Format(gmtLayout)
	return &s
}
