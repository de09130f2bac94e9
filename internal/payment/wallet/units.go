package wallet

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
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
// number.
func OrderPurchaseUnit(o *checkout.Order) (paypal.PurchaseUnit, error) {
	spec := paypal.UnitSpec{Currency: o.Currency, ItemTotal: o.ItemsSubtotal, Shipping: o.ShippingTotal, TaxTotal: o.TotalTax,
		Discount: o.DiscountTotal, Total: o.Total, CustomID: strconv.FormatInt(o.ID, 10), InvoiceID: o.Number}
	even := true
	for _, l := range o.Lines {
		if l.Quantity <= 0 || l.Subtotal%l.Quantity != 0 {
			even = false
		}
	}
	if even && len(o.Lines) <= 100 {
		for _, l := range o.Lines {
			name := l.Name
			for _, a := range l.Variation {
				name += ", " + a.Value
			}
			spec.Items = append(spec.Items, paypal.ItemSpec{Name: truncateRunes(name, 127), SKU: truncateRunes(l.SKU, 127),
				Quantity: l.Quantity, UnitAmount: l.Subtotal / l.Quantity})
		}
	}
	if ship := shipTo(o.Shipping); ship != nil {
		spec.ShipTo = ship
	}
	return paypal.NewPurchaseUnit(spec)
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
// answers): no ids, the quote's totals.
func (s *Service) quoteUnit(q checkout.Quotation) (paypal.PurchaseUnit, error) {
	return paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: s.d.Config.Currency.Code, ItemTotal: q.ItemsSubtotal,
		Shipping: q.Shipping, TaxTotal: q.TotalTax, Total: q.Total})
}
