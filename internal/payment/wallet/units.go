package wallet

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment/paypal"
)

// Purchase units from the shop's own amounts.

// truncateRunes cuts s to n characters.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// OrderPurchaseUnit is the PayPal purchase unit of a placed order: its own
// totals to the minor unit, its lines when each divides evenly into unit
// amounts, its shipping address, custom_id = order id, invoice_id = order
// number. cur is how the shop writes the order's currency: its amounts
// become PayPal's exactly (paypal.ToPayPal) or the unit is refused.
func OrderPurchaseUnit(o *checkout.Order, cur money.Currency) (paypal.PurchaseUnit, error) {
	if cur.Code != o.Currency {
		return paypal.PurchaseUnit{}, fmt.Errorf("wallet: order %d is in %s, not %s", o.ID, o.Currency, cur.Code)
	}
	pp := toPayPal{code: o.Currency, decimals: cur.MinorUnit}
	spec := paypal.UnitSpec{Currency: o.Currency, ItemTotal: pp.v(o.ItemsSubtotal), Shipping: pp.v(o.ShippingTotal), TaxTotal: pp.v(o.TotalTax),
		Discount: pp.v(o.DiscountTotal), Total: pp.v(o.Total), CustomID: strconv.FormatInt(o.ID, 10), InvoiceID: o.Number}
	if pp.err != nil {
		return paypal.PurchaseUnit{}, pp.err
	}
	even := true
	for _, l := range o.Lines {
		if l.Quantity <= 0 || l.Subtotal%l.Quantity != 0 {
			even = false
			continue
		}
		if _, err := paypal.ToPayPal(o.Currency, cur.MinorUnit, l.Subtotal/l.Quantity); err != nil {
			even = false // a unit price PayPal cannot write: the totals only
		}
	}
	if even && len(o.Lines) <= 100 {
		for _, l := range o.Lines {
			name := l.Name
			for _, a := range l.Variation {
				name += ", " + a.Value
			}
			spec.Items = append(spec.Items, paypal.ItemSpec{Name: truncateRunes(name, 127), SKU: truncateRunes(l.SKU, 127),
				Quantity: l.Quantity, UnitAmount: pp.v(l.Subtotal / l.Quantity)})
		}
	}
	if ship := shipTo(o.Shipping); ship != nil {
		spec.ShipTo = ship
	}
	return paypal.NewPurchaseUnit(spec)
}

// toPayPal converts the shop's amounts in one currency into PayPal's minor
// units, keeping the first error.
type toPayPal struct {
	code     string
	decimals int
	err      error
}

func (t *toPayPal) v(amount int64) int64 {
	out, err := paypal.ToPayPal(t.code, t.decimals, amount)
	if err != nil && t.err == nil {
		t.err = err
	}
	return out
}

// shipTo is an address in PayPal's shape, or nil without a country.
func shipTo(a cart.Address) *paypal.ShippingDetail {
	if a.Country == "" || a.Address1 == "" {
		return nil
	}
	name := strings.TrimSpace(a.FirstName + " " + a.LastName)
	d := &paypal.ShippingDetail{Address: &paypal.Address{AddressLine1: truncateRunes(a.Address1, 300), AddressLine2: truncateRunes(a.Address2, 300),
		AdminArea2: truncateRunes(a.City, 120), AdminArea1: truncateRunes(a.State, 300), PostalCode: truncateRunes(a.Postcode, 60), CountryCode: a.Country}}
	if name != "" {
		d.Name = &paypal.Name{FullName: truncateRunes(name, 300)}
	}
	return d
}

// quoteUnit is a quotation's purchase unit (change-cart, update-shipping
// answers): no ids, the quote's totals in its currency.
func quoteUnit(qc QuotedCart) (paypal.PurchaseUnit, error) {
	pp := toPayPal{code: qc.Currency.Code, decimals: qc.Currency.MinorUnit}
	q := qc.Quote
	spec := paypal.UnitSpec{Currency: qc.Currency.Code, ItemTotal: pp.v(q.ItemsSubtotal), Shipping: pp.v(q.Shipping), TaxTotal: pp.v(q.TotalTax),
		Discount: pp.v(q.Discount), Total: pp.v(q.Total)}
	if pp.err != nil {
		return paypal.PurchaseUnit{}, pp.err
	}
	return paypal.NewPurchaseUnit(spec)
}
