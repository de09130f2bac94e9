package httpx

import (
	"net/http"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
)

// FormAddress reads an address posted as WooCommerce's classic forms name
// it: billing_* or shipping_* fields (group "billing" or "shipping").
func FormAddress(r *http.Request, group string) cart.Address {
	var a cart.Address
	for _, k := range checkout.AddressFields {
		checkout.SetAddressValue(&a, k, r.PostFormValue(group+"_"+k))
	}
	return a
}
