package wallet

import (
	"context"
	"errors"
	"fmt"

	"vitrine/internal/checkout"
	"vitrine/internal/orders"
	"vitrine/internal/payment/paypal"
)

// The wallet refunds its orders through PayPal's Payments v2 refund API
// (orders.Refunder): the refund of an order's capture, in the order's
// currency, with the caller's stored PayPal-Request-Id.

var _ orders.Refunder = (*Service)(nil)

// Refund refunds amount (the order's currency, the shop's minor units) of
// a paid wallet order's capture. PayPal's refusals (more than is left, a
// capture already refunded, an amount that cannot be written in PayPal's
// decimals) are *orders.ProviderError; a lost answer, a timeout or a 5xx
// is returned as it is: the outcome is unknown and a retry with the same
// requestID replays PayPal's first answer.
func (s *Service) Refund(ctx context.Context, o *checkout.Order, amount int64, requestID, reason string) (string, error) {
	if s.pp == nil {
		return "", errors.New("wallet: no PayPal client")
	}
	if o.CaptureID == "" || !o.Paid() {
		return "", &orders.ProviderError{Message: "The order has no PayPal capture to refund."}
	}
	cur, err := s.d.Checkout.Currency(ctx, o.Currency)
	if err != nil {
		return "", err
	}
	v, err := paypal.ToPayPal(o.Currency, cur.MinorUnit, amount)
	if err != nil {
		return "", &orders.ProviderError{Message: fmt.Sprintf("The amount cannot be refunded in %s at PayPal.", o.Currency)}
	}
	m, err := paypal.NewMoney(o.Currency, v)
	if err != nil {
		return "", &orders.ProviderError{Message: err.Error()}
	}
	cctx, cancel := s.callCtx(ctx)
	defer cancel()
	r, err := s.pp.RefundCapture(cctx, o.CaptureID, requestID, paypal.RefundRequest{Amount: &m, NoteToPayer: reason,
		InvoiceID: fmt.Sprintf("vitrine-%d", o.ID)})
	var ae *paypal.APIError
	var ve *paypal.ValidationError
	switch {
	case errors.As(err, &ve):
		return "", &orders.ProviderError{Message: ve.Error()}
	case errors.As(err, &ae) && !ae.Temporary():
		msg := ae.Message
		for _, d := range ae.Details {
			msg += " (" + d.Issue + ")"
			if d.Description != "" {
				msg += " " + d.Description
			}
		}
		return "", &orders.ProviderError{Message: msg}
	case err != nil:
		return "", err
	}
	if r.Status == paypal.RefundStatusFailed || r.Status == paypal.RefundStatusCancelled {
		return "", &orders.ProviderError{Message: "PayPal answered the refund " + r.Status + "."}
	}
	s.log.Info("wallet refund", "order", o.ID, "capture", o.CaptureID, "refund", r.ID, "status", r.Status, "replayed", r.Replayed)
	return r.ID, nil
}
