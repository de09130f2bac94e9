package payment

import "errors"

// ProviderIDs are the provider's ids an order's payment state move records
// (the PayPal order, the stored PayPal-Request-Id, the capture); empty ones
// are left as they are.
type ProviderIDs struct {
	ProviderOrderID   string
	ProviderRequestID string
	CaptureID         string
}

// ErrPaymentState is a compare-and-set on an order's payment state that
// found another state (another request moved it meanwhile).
var ErrPaymentState = errors.New("order payment state changed meanwhile")
