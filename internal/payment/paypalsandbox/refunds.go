package paypalsandbox

import (
	"bytes"
	"encoding/json"
	"net/http"

	"vitrine/internal/payment/paypal"
)

// Refunds of captures (Payments v2): POST /v2/payments/captures/{id}/refund
// refunds all or part of what is left of a completed capture, with the
// same PayPal-Request-Id idempotency as the order calls (route), and GET
// /v2/payments/refunds/{id} reads one back. The capture's status becomes
// PARTIALLY_REFUNDED, then REFUNDED, and its order lists the refund under
// the purchase unit's payments. No webhook is sent for a refund.

// findCapture finds a capture and its purchase unit (s.mu held).
func (s *Sandbox) findCapture(id string) (*paypal.PurchaseUnit, *paypal.Capture) {
	for _, o := range s.orders {
		for i := range o.o.PurchaseUnits {
			pu := &o.o.PurchaseUnits[i]
			if pu.Payments == nil {
				continue
			}
			for j := range pu.Payments.Captures {
				if pu.Payments.Captures[j].ID == id {
					return pu, &pu.Payments.Captures[j]
				}
			}
		}
	}
	return nil, nil
}

// refund is POST /v2/payments/captures/{id}/refund (s.mu held).
func (s *Sandbox) refund(captureID string, body []byte) (int, any) {
	pu, c := s.findCapture(captureID)
	if c == nil {
		return fail(http.StatusNotFound, paypal.ErrorDetail{Field: "capture_id", Value: captureID, Location: "path", Issue: "INVALID_RESOURCE_ID",
			Description: "Specified resource ID does not exist. Please check the resource ID and try again."})
	}
	var req paypal.RefundRequest
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&req); err != nil {
			return fail(http.StatusBadRequest, paypal.ErrorDetail{Issue: "MALFORMED_REQUEST_JSON", Description: "The request JSON is not well formed."})
		}
	}
	switch c.Status {
	case paypal.CaptureStatusRefunded:
		return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Issue: "CAPTURE_FULLY_REFUNDED", Description: "The capture has already been fully refunded."})
	case paypal.CaptureStatusCompleted, paypal.CaptureStatusPartRefunded:
	default:
		return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Issue: "REFUND_NOT_ALLOWED", Description: "Refund cannot be issued for a capture that is " + c.Status + "."})
	}
	cur := c.Amount.CurrencyCode
	gross, _ := c.Amount.Minor()
	left := gross - s.refunded[captureID]
	amount := left
	if req.Amount != nil {
		if req.Amount.CurrencyCode != cur {
			return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: "/amount/currency_code", Value: req.Amount.CurrencyCode, Location: "body",
				Issue: "REFUND_CAPTURE_CURRENCY_MISMATCH", Description: "Refund must be in the same currency as the capture."})
		}
		v, err := req.Amount.Minor()
		if err != nil || v <= 0 {
			return fail(http.StatusBadRequest, paypal.ErrorDetail{Field: "/amount/value", Value: req.Amount.Value, Location: "body",
				Issue: "INVALID_PARAMETER_VALUE", Description: "The value of a field is invalid."})
		}
		amount = v
	}
	if amount > left {
		return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Issue: "REFUND_AMOUNT_EXCEEDED",
			Description: "The refund amount must be less than or equal to the capture amount that has not yet been refunded."})
	}
	if len([]rune(req.NoteToPayer)) > 255 {
		return fail(http.StatusBadRequest, paypal.ErrorDetail{Field: "/note_to_payer", Location: "body", Issue: "INVALID_STRING_MAX_LENGTH",
			Description: "The value of a field is too long."})
	}
	now := s.stamp()
	base := s.base(nil)
	money, _ := paypal.NewMoney(cur, amount)
	id := newID(17, true)
	rf := paypal.Refund{
		ID: id, Status: paypal.RefundStatusCompleted, Amount: &money, NoteToPayer: req.NoteToPayer, InvoiceID: req.InvoiceID,
		SupplementaryData: &paypal.SupplementaryData{RelatedIDs: paypal.RelatedIDs{CaptureID: captureID}},
		CreateTime:        now, UpdateTime: now,
		Links: []paypal.Link{
			{Href: base + "/v2/payments/refunds/" + id, Rel: "self", Method: "GET"},
			{Href: base + "/v2/payments/captures/" + captureID, Rel: "up", Method: "GET"},
		},
	}
	s.refunded[captureID] += amount
	s.refundCount[captureID]++
	s.refundsByID[id] = rf
	c.Status = paypal.CaptureStatusPartRefunded
	if s.refunded[captureID] >= gross {
		c.Status = paypal.CaptureStatusRefunded
	}
	c.UpdateTime = now
	pu.Payments.Refunds = append(pu.Payments.Refunds, rf)
	return http.StatusCreated, rf
}

// getRefund is GET /v2/payments/refunds/{id} (s.mu held).
func (s *Sandbox) getRefund(id string) (int, any) {
	rf, ok := s.refundsByID[id]
	if !ok {
		return fail(http.StatusNotFound, paypal.ErrorDetail{Field: "refund_id", Value: id, Location: "path", Issue: "INVALID_RESOURCE_ID",
			Description: "Specified resource ID does not exist. Please check the resource ID and try again."})
	}
	return http.StatusOK, rf
}

// Refunds is how many refunds really happened for a capture (an
// idempotent replay is not a refund).
func (s *Sandbox) Refunds(captureID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refundCount[captureID]
}

// Refunded is the amount refunded of a capture, in PayPal's minor units.
func (s *Sandbox) Refunded(captureID string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refunded[captureID]
}
