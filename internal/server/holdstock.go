package server

import (
	"context"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
)

// Held stock (WooCommerce's "hold stock", Config.HoldStock): an order
// placed with an offline method that waits for the buyer's payment holds
// its units; when it is still unpaid and unchanged after the hold, it is
// cancelled and its units go back on sale. Which orders: those of the
// offline methods whose orders are placed on-hold (bank transfer), while
// on-hold, unpaid and with no payment under way. Never cash on delivery
// (placed processing: paid when delivered, the goods are on their way)
// nor wallet orders (pending at PayPal: the wallet reconciler cancels the
// abandoned ones after asking PayPal, wallet_reconcile.go). Both use the
// same store mechanism: a conditional UPDATE and the stock restored in
// its transaction, so with several instances each order is released and
// its stock restored exactly once.

// maintenanceEvery is how often the held stock is released and the
// expired rate-limit counters are deleted.
const maintenanceEvery = time.Minute

// maintain runs the periodic store upkeep until ctx ends.
func (s *Server) maintain(ctx context.Context) {
	t := time.NewTicker(maintenanceEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := s.ReleaseHeldStock(ctx); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("release held stock", "err", err)
			}
		} else if n > 0 {
			s.log.Info("unpaid orders cancelled, stock released", "orders", n)
		}
		if _, err := s.db.DeleteExpiredRateLimits(ctx, s.now()); err != nil && ctx.Err() == nil {
			s.log.Warn("delete expired rate limits", "err", err)
		}
	}
}

// awaitingPaymentMethods are the offline methods whose orders wait on-hold
// for the buyer's payment.
func (s *Server) awaitingPaymentMethods() []string {
	var ids []string
	for _, m := range s.payments.List() {
		if om, ok := m.(payment.OfflineMethod); ok && om.PlacedStatus() == checkout.StatusOnHold {
			ids = append(ids, m.ID())
		}
	}
	return ids
}

// ReleaseHeldStock cancels the unpaid orders whose hold ended and puts
// their units back in stock; it reports how many this call cancelled
// (another instance may release some of them first). With HoldStock 0 it
// does nothing.
func (s *Server) ReleaseHeldStock(ctx context.Context) (int, error) {
	if s.cfg.HoldStock <= 0 {
		return 0, nil
	}
	methods := s.awaitingPaymentMethods()
	cutoff := s.now().Add(-s.cfg.HoldStock)
	released := 0
	for {
		orders, err := s.db.AwaitingPaymentOrders(ctx, methods, cutoff)
		if err != nil {
			return released, err
		}
		n := 0
		for _, o := range orders {
			ok, err := s.db.ReleaseHeldOrder(ctx, o.ID, methods, cutoff, s.now())
			if err != nil {
				return released, err
			}
			if ok {
				n++
				s.log.Info("unpaid order cancelled: hold stock ended", "order", o.ID, "method", o.PaymentMethod)
			}
		}
		released += n
		if len(orders) < 200 || n == 0 {
			return released, nil
		}
	}
}
