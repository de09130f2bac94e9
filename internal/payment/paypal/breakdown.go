package paypal

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// UnitSpec is a purchase unit in integer minor units of one currency, as
// PayPal writes it (Decimals: a shop amount goes through ToPayPal first).
// NewPurchaseUnit turns it into PayPal's shape.
type UnitSpec struct {
	ReferenceID string // "default" when empty
	Currency    string // ISO code, e.g. "USD"
	Items       []ItemSpec
	// ItemTotal is used only when Items is empty (an order sent without
	// lines); with lines, the item total is the sum of unit × quantity.
	ItemTotal        int64
	Shipping         int64
	Handling         int64
	TaxTotal         int64
	Discount         int64
	ShippingDiscount int64
	// Total is the shop's grand total. It must equal item total + tax +
	// shipping + handling - discount - shipping discount, or the unit is
	// refused: the captured amount always equals the shop's own total.
	Total          int64
	Description    string
	CustomID       string
	InvoiceID      string
	SoftDescriptor string
	ShipTo         *ShippingDetail // name and address to ship to, if any
}

// ItemSpec is one order line in minor units.
type ItemSpec struct {
	Name        string
	SKU         string
	Description string
	Category    string // PHYSICAL_GOODS (default), DIGITAL_GOODS, DONATION
	Quantity    int64
	UnitAmount  int64
	// Tax is the tax per unit. When any item has tax, TaxTotal must equal
	// the sum of tax × quantity (PayPal's rule).
	Tax int64
}

// ErrInvalidRequest is wrapped by every error the client raises before
// sending, because the request would be refused (see ValidationError).
var ErrInvalidRequest = errors.New("paypal: invalid request")

// ValidationError lists what is wrong with a request the client refused to
// send, with PayPal's own issue names (AMOUNT_MISMATCH, ITEM_TOTAL_MISMATCH…).
type ValidationError struct {
	Details []ErrorDetail
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("paypal: invalid request:")
	for i, d := range e.Details {
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, " %s %s", d.Issue, d.Field)
		if d.Description != "" {
			b.WriteString(": " + d.Description)
		}
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalidRequest) true.
func (e *ValidationError) Unwrap() error { return ErrInvalidRequest }

// HasIssue reports whether one of the details has the issue.
func (e *ValidationError) HasIssue(issue string) bool {
	for _, d := range e.Details {
		if d.Issue == issue {
			return true
		}
	}
	return false
}

// NewPurchaseUnit builds a full purchase unit (amount with breakdown, items,
// shipping, ids) from the shop's totals and checks that it adds up.
func NewPurchaseUnit(s UnitSpec) (PurchaseUnit, error) {
	cur := s.Currency
	if _, err := currency(cur); err != nil {
		return PurchaseUnit{}, &ValidationError{Details: []ErrorDetail{{Field: "/amount/currency_code", Value: cur, Issue: "CURRENCY_NOT_SUPPORTED", Description: err.Error()}}}
	}
	var errs []ErrorDetail
	mk := func(field string, v int64) *Money {
		m, err := NewMoney(cur, v)
		if err != nil {
			errs = append(errs, ErrorDetail{Field: field, Value: strconv.FormatInt(v, 10), Issue: "INVALID_PARAMETER_VALUE", Description: err.Error()})
			return &Money{CurrencyCode: cur, Value: "0"}
		}
		return &m
	}
	opt := func(field string, v int64) *Money {
		if v == 0 {
			return nil
		}
		return mk(field, v)
	}
	ref := s.ReferenceID
	if ref == "" {
		ref = "default"
	}
	pu := PurchaseUnit{
		ReferenceID:    ref,
		Description:    s.Description,
		CustomID:       s.CustomID,
		InvoiceID:      s.InvoiceID,
		SoftDescriptor: s.SoftDescriptor,
		Shipping:       s.ShipTo,
	}
	itemTotal := s.ItemTotal
	anyTax := false
	for _, it := range s.Items {
		if it.Tax != 0 {
			anyTax = true
		}
	}
	if len(s.Items) > 0 {
		itemTotal = 0
		for i, it := range s.Items {
			field := fmt.Sprintf("/items/%d", i)
			cat := it.Category
			if cat == "" {
				cat = ItemCategoryPhysicalGoods
			}
			item := Item{
				Name:        it.Name,
				UnitAmount:  *mk(field+"/unit_amount", it.UnitAmount),
				Quantity:    strconv.FormatInt(it.Quantity, 10),
				Description: it.Description,
				SKU:         it.SKU,
				Category:    cat,
			}
			if anyTax {
				item.Tax = mk(field+"/tax", it.Tax)
			}
			pu.Items = append(pu.Items, item)
			if it.Quantity > 0 && it.UnitAmount > 0 {
				itemTotal += it.UnitAmount * it.Quantity
			}
		}
	}
	pu.Amount = &AmountWithBreakdown{
		CurrencyCode: cur,
		Value:        mk("/amount/value", s.Total).Value,
		Breakdown: &Breakdown{
			ItemTotal:        mk("/amount/breakdown/item_total", itemTotal),
			Shipping:         opt("/amount/breakdown/shipping", s.Shipping),
			Handling:         opt("/amount/breakdown/handling", s.Handling),
			TaxTotal:         opt("/amount/breakdown/tax_total", s.TaxTotal),
			Discount:         opt("/amount/breakdown/discount", s.Discount),
			ShippingDiscount: opt("/amount/breakdown/shipping_discount", s.ShippingDiscount),
		},
	}
	if anyTax && pu.Amount.Breakdown.TaxTotal == nil {
		pu.Amount.Breakdown.TaxTotal = mk("/amount/breakdown/tax_total", 0)
	}
	errs = append(errs, CheckPurchaseUnit(pu)...)
	if len(errs) > 0 {
		return PurchaseUnit{}, &ValidationError{Details: errs}
	}
	return pu, nil
}

// CheckPurchaseUnit returns what PayPal would refuse in a purchase unit, with
// PayPal's issue names, or nil: a supported currency used throughout, amounts
// written strictly with the currency's decimals, a positive total, a
// breakdown that adds up (AMOUNT_MISMATCH), an item total equal to the sum
// of unit amount × quantity (ITEM_TOTAL_MISMATCH, ITEM_TOTAL_REQUIRED), a
// tax total equal to the items' tax (TAX_TOTAL_MISMATCH, TAX_TOTAL_REQUIRED),
// named items with positive integer quantities. The client checks this
// before sending; the sandbox answers 422 with the same details.
func CheckPurchaseUnit(pu PurchaseUnit) []ErrorDetail {
	var errs []ErrorDetail
	add := func(field, value, issue, desc string) {
		errs = append(errs, ErrorDetail{Field: field, Value: value, Location: "body", Issue: issue, Description: desc})
	}
	if pu.Amount == nil {
		add("/purchase_units/@reference_id=='"+pu.ReferenceID+"'/amount", "", "MISSING_REQUIRED_PARAMETER", "A required field is missing.")
		return errs
	}
	prefix := "/purchase_units/@reference_id=='" + pu.ReferenceID + "'"
	cur := pu.Amount.CurrencyCode
	if _, err := currency(cur); err != nil {
		add(prefix+"/amount/currency_code", cur, "CURRENCY_NOT_SUPPORTED", "Currency code is not supported.")
		return errs
	}
	amount := func(field string, m *Money) (int64, bool) {
		if m == nil {
			return 0, true
		}
		if m.CurrencyCode != cur {
			add(prefix+field+"/currency_code", m.CurrencyCode, "CURRENCY_MISMATCH", "Should have the same currency code as the purchase unit amount.")
			return 0, false
		}
		n, err := ParseValue(cur, m.Value)
		if err != nil {
			issue := "INVALID_PARAMETER_VALUE"
			if strings.Contains(err.Error(), "decimals") {
				issue = "DECIMAL_PRECISION"
			}
			add(prefix+field+"/value", m.Value, issue, err.Error())
			return 0, false
		}
		return n, true
	}
	total, ok := amount("/amount", &Money{CurrencyCode: cur, Value: pu.Amount.Value})
	if ok && total <= 0 {
		add(prefix+"/amount/value", pu.Amount.Value, "CANNOT_BE_ZERO_OR_NEGATIVE", "The amount must be greater than zero.")
	}
	// Items.
	var itemSum, taxSum int64
	itemsOK, anyTax := true, false
	for i, it := range pu.Items {
		f := fmt.Sprintf("/items/%d", i)
		if strings.TrimSpace(it.Name) == "" || len(it.Name) > 127 {
			add(prefix+f+"/name", it.Name, "INVALID_PARAMETER_VALUE", "An item needs a name of 1 to 127 characters.")
		}
		q, err := strconv.ParseInt(it.Quantity, 10, 64)
		if err != nil || q <= 0 || !allDigits(it.Quantity) || len(it.Quantity) > 10 {
			add(prefix+f+"/quantity", it.Quantity, "INVALID_PARAMETER_VALUE", "The quantity must be a positive integer.")
			itemsOK = false
			continue
		}
		u, ok := amount(f+"/unit_amount", &it.UnitAmount)
		if !ok {
			itemsOK = false
			continue
		}
		if it.Tax != nil {
			anyTax = true
			t, ok := amount(f+"/tax", it.Tax)
			if !ok {
				itemsOK = false
				continue
			}
			taxSum += t * q
		}
		itemSum += u * q
	}
	b := pu.Amount.Breakdown
	if b == nil {
		if len(pu.Items) > 0 {
			add(prefix+"/amount/breakdown/item_total", "", "ITEM_TOTAL_REQUIRED", "If item details are specified, the item total is required.")
		}
		return errs
	}
	parts := []struct {
		field string
		m     *Money
		sign  int64
	}{
		{"/amount/breakdown/item_total", b.ItemTotal, 1},
		{"/amount/breakdown/tax_total", b.TaxTotal, 1},
		{"/amount/breakdown/shipping", b.Shipping, 1},
		{"/amount/breakdown/handling", b.Handling, 1},
		{"/amount/breakdown/insurance", b.Insurance, 1},
		{"/amount/breakdown/shipping_discount", b.ShippingDiscount, -1},
		{"/amount/breakdown/discount", b.Discount, -1},
	}
	var sum int64
	sumOK := ok
	vals := map[string]int64{}
	for _, p := range parts {
		n, ok := amount(p.field, p.m)
		if !ok {
			sumOK = false
			continue
		}
		vals[p.field] = n
		sum += p.sign * n
	}
	if len(pu.Items) > 0 {
		switch {
		case b.ItemTotal == nil:
			add(prefix+"/amount/breakdown/item_total", "", "ITEM_TOTAL_REQUIRED", "If item details are specified, the item total is required.")
		case itemsOK && vals["/amount/breakdown/item_total"] != itemSum:
			add(prefix+"/amount/breakdown/item_total", b.ItemTotal.Value, "ITEM_TOTAL_MISMATCH", "Should equal the sum of (unit_amount × quantity) across all items.")
		}
		if anyTax {
			switch {
			case b.TaxTotal == nil:
				add(prefix+"/amount/breakdown/tax_total", "", "TAX_TOTAL_REQUIRED", "If item tax is specified, the tax total is required.")
			case itemsOK && vals["/amount/breakdown/tax_total"] != taxSum:
				add(prefix+"/amount/breakdown/tax_total", b.TaxTotal.Value, "TAX_TOTAL_MISMATCH", "Should equal the sum of (tax × quantity) across all items.")
			}
		}
	}
	if sumOK && sum != total {
		add(prefix+"/amount/value", pu.Amount.Value, "AMOUNT_MISMATCH", "Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.")
	}
	return errs
}

// CheckCreateOrder returns what PayPal would refuse in a create request, or
// nil (see CheckPurchaseUnit for the purchase units).
func CheckCreateOrder(req CreateOrderRequest) []ErrorDetail {
	var errs []ErrorDetail
	if req.Intent != IntentCapture && req.Intent != IntentAuthorize {
		errs = append(errs, ErrorDetail{Field: "/intent", Value: req.Intent, Location: "body", Issue: "INVALID_PARAMETER_VALUE", Description: "The intent must be CAPTURE or AUTHORIZE."})
	}
	n := len(req.PurchaseUnits)
	if n == 0 {
		errs = append(errs, ErrorDetail{Field: "/purchase_units", Location: "body", Issue: "MISSING_REQUIRED_PARAMETER", Description: "At least one purchase unit is required."})
	}
	if n > 10 {
		errs = append(errs, ErrorDetail{Field: "/purchase_units", Location: "body", Issue: "INVALID_ARRAY_MAX_ITEMS", Description: "At most 10 purchase units."})
	}
	seen := map[string]bool{}
	var cur string
	for i, pu := range req.PurchaseUnits {
		if n > 1 {
			if pu.ReferenceID == "" || seen[pu.ReferenceID] {
				errs = append(errs, ErrorDetail{Field: fmt.Sprintf("/purchase_units/%d/reference_id", i), Value: pu.ReferenceID, Location: "body", Issue: "REFERENCE_ID_REQUIRED", Description: "Several purchase units need distinct reference ids."})
			}
			seen[pu.ReferenceID] = true
		}
		if pu.Amount != nil {
			if cur != "" && pu.Amount.CurrencyCode != cur {
				errs = append(errs, ErrorDetail{Field: fmt.Sprintf("/purchase_units/%d/amount/currency_code", i), Value: pu.Amount.CurrencyCode, Location: "body", Issue: "MULTI_CURRENCY_ORDER", Description: "All purchase units must use the same currency."})
			}
			cur = pu.Amount.CurrencyCode
		}
		errs = append(errs, CheckPurchaseUnit(pu)...)
	}
	return errs
}
