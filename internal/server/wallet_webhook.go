package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"vitrine/internal/checkout"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/storage/sqlstore"
)

// handleWalletWebhook answers POST /wp-json/paypal/v1/incoming, PayPal's
// webhook deliveries. The signature is verified first: a rejected delivery
// answers 400 and changes nothing; a certificate that cannot be fetched
// answers 503 so PayPal delivers again. A delivery is handled once (its
// event id is recorded; a failed handling forgets it again), and every
// transition is forward only, so duplicates, late and out-of-order
// deliveries end in the state one in-order delivery gives.
func (s *Server) handleWalletWebhook(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if s.wallet == nil {
		s.apiNoRoute(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		apiError(w, http.StatusRequestEntityTooLarge, "rest_request_too_large", "The request body is too large.", nil)
		return
	}
	ctx := r.Context()
	ev, err := s.wallet.pp.VerifyWebhook(ctx, r.Header, body)
	if err != nil {
		if paypal.IsNetworkError(err) {
			s.log.Warn("wallet webhook: certificate unavailable", "err", err)
			apiError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be verified now; deliver it again.", nil)
			return
		}
		s.log.Warn("wallet webhook: rejected", "err", err)
		apiError(w, http.StatusBadRequest, "paypal_webhook_rejected", "The webhook signature is not valid.", nil)
		return
	}
	isNew, err := s.db.RecordWebhookEvent(ctx, ev.ID)
	if err != nil {
		s.log.Error("wallet webhook: record event", "event", ev.ID, "err", err)
		apiError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be recorded now; deliver it again.", nil)
		return
	}
	if !isNew {
		writeJSON(w, http.StatusOK, map[string]any{"received": true, "duplicate": true})
		return
	}
	if err := s.applyWalletEvent(ctx, ev); err != nil {
		s.log.Error("wallet webhook: handle event", "event", ev.ID, "type", ev.EventType, "err", err)
		if ferr := s.db.ForgetWebhookEvent(context.WithoutCancel(ctx), ev.ID); ferr != nil {
			s.log.Error("wallet webhook: forget event", "event", ev.ID, "err", ferr)
		}
		apiError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be handled now; deliver it again.", nil)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"received": true})
}

// applyWalletEvent moves an order forward by a verified event. Events about
// orders the shop does not know, and event types it does not act on, are
// acknowledged and ignored.
func (s *Server) applyWalletEvent(ctx context.Context, ev *paypal.Event) error {
	refs, err := ev.Refs()
	if err != nil {
		s.log.Info("wallet webhook: event ignored", "event", ev.ID, "type", ev.EventType, "reason", err)
		return nil
	}
	o, err := s.db.OrderByProviderOrderID(ctx, refs.OrderID)
	if errors.Is(err, sqlstore.ErrOrderNotFound) && refs.CustomID != "" {
		// The custom_id is the shop's order id; trust it only when that
		// order names the same PayPal order.
		if id, perr := strconv.ParseInt(refs.CustomID, 10, 64); perr == nil {
			if byID, gerr := s.db.Order(ctx, id); gerr == nil && byID.ProviderOrderID != "" && byID.ProviderOrderID == refs.OrderID {
				o, err = byID, nil
			}
		}
	}
	if errors.Is(err, sqlstore.ErrOrderNotFound) {
		s.log.Info("wallet webhook: unknown order", "event", ev.ID, "paypal_order", refs.OrderID)
		return nil
	}
	if err != nil {
		return err
	}
	now := s.now()
	switch ev.EventType {
	case paypal.EventOrderApproved:
		// The buyer approved: the reconciler captures it if the buyer
		// never comes back. Only wallet_order_created moves.
		if o.PaymentState == checkout.PayWalletOrderCreated && o.Status == checkout.StatusPending {
			err := s.db.SetPaymentState(ctx, o.ID, checkout.PayWalletOrderCreated, checkout.PayApproved, sqlstore.PaymentFields{}, now)
			if err != nil && !errors.Is(err, sqlstore.ErrPaymentState) {
				return err
			}
		}
		return nil
	case paypal.EventCaptureCompleted, paypal.EventOrderCompleted:
		if o.Paid() || refs.CaptureID == "" {
			return nil
		}
		if refs.Status != paypal.CaptureStatusCompleted && ev.EventType == paypal.EventCaptureCompleted {
			return nil
		}
		if ev.EventType == paypal.EventOrderCompleted {
			// The order event carries the order; read its capture's
			// state from PayPal rather than trust its summary.
			return s.settleFromPayPal(ctx, o)
		}
		c := paypal.Capture{ID: refs.CaptureID, Status: refs.Status, Amount: refs.Amount}
		_, err := s.settleWalletOrder(ctx, o, &paypal.Order{ID: refs.OrderID, Status: paypal.StatusCompleted,
			PurchaseUnits: []paypal.PurchaseUnit{{Payments: &paypal.Payments{Captures: []paypal.Capture{c}}}}})
		return err
	case paypal.EventCapturePending:
		if o.Paid() {
			return nil
		}
		_, err := s.db.HoldOrderForCapture(ctx, o.ID, refs.CaptureID, now)
		return err
	case paypal.EventCaptureDenied:
		if o.Paid() {
			return nil
		}
		_, err := s.db.FailOrderPayment(ctx, o.ID, now)
		return err
	}
	s.log.Info("wallet webhook: event type not acted on", "event", ev.ID, "type", ev.EventType, "order", o.ID)
	return nil
}

// settleFromPayPal reads an order at PayPal and records a capture it has.
func (s *Server) settleFromPayPal(ctx context.Context, o *checkout.Order) error {
	cctx, cancel := s.wallet.callCtx(ctx)
	ppo, err := s.wallet.pp.GetOrder(cctx, o.ProviderOrderID)
	cancel()
	if err != nil {
		return err
	}
	if len(ppo.Captures()) == 0 {
		return nil
	}
	_, err = s.settleWalletOrder(ctx, o, ppo)
	return err
}
