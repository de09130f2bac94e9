package wallet

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// HandleEvent applies a verified webhook event once: its id is recorded
// first (duplicate is true for an id seen before, and nothing is done); a
// failed handling forgets it again so PayPal's next delivery is handled.
// Every transition is forward only, so duplicates, late and out-of-order
// deliveries end in the state one in-order delivery gives. An error
// wrapping ErrEventNotRecorded means the id could not be recorded.
func (s *Service) HandleEvent(ctx context.Context, ev *paypal.Event) (duplicate bool, err error) {
	isNew, err := s.d.Store.RecordWebhookEvent(ctx, ev.ID)
	if err != nil {
		s.log.Error("wallet webhook: record event", "event", ev.ID, "err", err)
		return false, fmt.Errorf("%w: %w", ErrEventNotRecorded, err)
	}
	if !isNew {
		return true, nil
	}
	if err := s.applyEvent(ctx, ev); err != nil {
		s.log.Error("wallet webhook: handle event", "event", ev.ID, "type", ev.EventType, "err", err)
		if ferr := s.d.Store.ForgetWebhookEvent(context.WithoutCancel(ctx), ev.ID); ferr != nil {
			s.log.Error("wallet webhook: forget event", "event", ev.ID, "err", ferr)
		}
		return false, err
	}
	return false, nil
}

// ErrEventNotRecorded: a webhook event's id could not be recorded.
var ErrEventNotRecorded = errors.New("wallet webhook: event not recorded")

// applyEvent moves an order forward by a verified event. Events about
// orders the shop does not know, and event types it does not act on, are
// acknowledged and ignored.
func (s *Service) applyEvent(ctx context.Context, ev *paypal.Event) error {
	refs, err := ev.Refs()
	if err != nil {
		s.log.Info("wallet webhook: event ignored", "event", ev.ID, "type", ev.EventType, "reason", err)
		return nil
	}
	o, err := s.d.Store.OrderByProviderOrderID(ctx, refs.OrderID)
	if isNotFound(err) && refs.CustomID != "" {
		// The custom_id is the shop's order id; trust it only when that
		// order names the same PayPal order.
		if id, perr := strconv.ParseInt(refs.CustomID, 10, 64); perr == nil {
			if byID, gerr := s.d.Store.Order(ctx, id); gerr == nil && byID.ProviderOrderID != "" && byID.ProviderOrderID == refs.OrderID {
				o, err = byID, nil
			}
		}
	}
	if isNotFound(err) {
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
			err := s.d.Store.SetPaymentState(ctx, o.ID, checkout.PayWalletOrderCreated, checkout.PayApproved, payment.ProviderIDs{}, now)
			if err != nil && !errors.Is(err, payment.ErrPaymentState) {
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
		_, err := s.settle(ctx, o, &paypal.Order{ID: refs.OrderID, Status: paypal.StatusCompleted,
			PurchaseUnits: []paypal.PurchaseUnit{{Payments: &paypal.Payments{Captures: []paypal.Capture{c}}}}})
		return err
	case paypal.EventCapturePending:
		if o.Paid() {
			return nil
		}
		_, err := s.d.Store.HoldOrderForCapture(ctx, o.ID, refs.CaptureID, now)
		return err
	case paypal.EventCaptureDenied:
		if o.Paid() {
			return nil
		}
		_, err := s.d.Store.FailOrderPayment(ctx, o.ID, now)
		return err
	}
	s.log.Info("wallet webhook: event type not acted on", "event", ev.ID, "type", ev.EventType, "order", o.ID)
	return nil
}

// settleFromPayPal reads an order at PayPal and records a capture it has.
func (s *Service) settleFromPayPal(ctx context.Context, o *checkout.Order) error {
	cctx, cancel := s.callCtx(ctx)
	ppo, err := s.pp.GetOrder(cctx, o.ProviderOrderID)
	cancel()
	if err != nil {
		return err
	}
	if len(ppo.Captures()) == 0 {
		return nil
	}
	_, err = s.settle(ctx, o, ppo)
	return err
}
