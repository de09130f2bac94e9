package wallet

import (
	"context"
	"errors"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// The reconciler finishes what a crash, a lost answer or a buyer who never
// came back left unfinished. At start it looks at every wallet order in
// capture_requested or approved, then every ReconcileEvery at those
// unchanged for ReconcileAfter: PayPal has the capture → the order is paid
// (once: MarkOrderPaid is idempotent); the order is approved and not
// captured → it is captured with its stored key (PayPal captures once per
// key). Unpaid wallet orders unchanged for AbandonAfter are cancelled and
// their stock restored, unless PayPal says the buyer approved or paid.

// Start runs the reconciler until ctx ends: a pass over every unfinished
// payment at once, then one every ReconcileEvery.
func (s *Service) Start(ctx context.Context) {
	go func() {
		s.Reconcile(ctx, true)
		close(s.started)
		t := time.NewTicker(s.cfg.ReconcileEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.Reconcile(ctx, false)
			}
		}
	}()
}

// Started is closed once the reconciler's startup pass has run.
func (s *Service) Started() <-chan struct{} { return s.started }

// Reconcile runs one pass of the reconciler (all unfinished payments
// when all is set, else those older than ReconcileAfter) and reports how
// many orders it paid, put on-hold or failed, and how many it cancelled.
func (s *Service) Reconcile(ctx context.Context, all bool) (settled, cancelled int) {
	now := s.now()
	cutoff := now.Add(-s.cfg.ReconcileAfter)
	if all {
		cutoff = now.Add(time.Hour) // every order, whatever its age
	}
	for _, state := range []string{checkout.PayCaptureRequested, checkout.PayApproved} {
		orders, err := s.d.Store.OrdersInPaymentState(ctx, state, cutoff)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("wallet reconciler: list orders", "state", state, "err", err)
			}
			return settled, cancelled
		}
		for _, o := range orders {
			if ctx.Err() != nil {
				return settled, cancelled
			}
			if o.PaymentMethod != payment.WalletGatewayID || o.ProviderOrderID == "" || o.Paid() {
				continue
			}
			if s.reconcileOrder(ctx, o) {
				settled++
			}
		}
	}
	stale, err := s.d.Store.StaleWalletOrders(ctx, payment.WalletGatewayID, now.Add(-s.cfg.AbandonAfter))
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("wallet reconciler: stale orders", "err", err)
		}
		return settled, cancelled
	}
	for _, o := range stale {
		if ctx.Err() != nil {
			break
		}
		if o.ProviderOrderID != "" {
			cctx, cancel := s.callCtx(ctx)
			ppo, err := s.pp.GetOrder(cctx, o.ProviderOrderID)
			cancel()
			var ae *paypal.APIError
			switch {
			case err == nil && (ppo.Status == paypal.StatusApproved || ppo.Status == paypal.StatusCompleted):
				// The buyer did approve: finish it rather than cancel.
				if s.reconcileOrder(ctx, o) {
					settled++
				}
				continue
			case err != nil && !(errors.As(err, &ae) && ae.Status == 404):
				continue // PayPal unreachable: decide next time
			}
		}
		ok, err := s.d.Store.CancelUnpaidOrder(ctx, o.ID, s.now())
		if err != nil {
			s.log.Error("wallet reconciler: cancel", "order", o.ID, "err", err)
			continue
		}
		if ok {
			cancelled++
		}
	}
	return settled, cancelled
}

// reconcileOrder finishes one order from what PayPal says; true when the
// order left its unfinished state.
func (s *Service) reconcileOrder(ctx context.Context, o *checkout.Order) bool {
	before := o.PaymentState + "|" + o.Status
	if o.Status == checkout.StatusOnHold && o.CaptureID != "" {
		// A pending capture: pay it once PayPal completed it.
		if err := s.settleFromPayPal(ctx, o); err != nil {
			s.log.Warn("wallet reconciler: pending capture", "order", o.ID, "err", err)
			return false
		}
	} else {
		done, err := s.complete(ctx, o)
		if err != nil {
			s.log.Warn("wallet reconciler: order not finished", "order", o.ID, "err", err)
		}
		if done != nil {
			o = done
		}
	}
	after, err := s.d.Store.Order(ctx, o.ID)
	if err != nil {
		return false
	}
	if after.Paid() {
		s.log.Info("wallet reconciler: order paid", "order", o.ID, "capture", after.CaptureID)
	}
	return after.PaymentState+"|"+after.Status != before
}
