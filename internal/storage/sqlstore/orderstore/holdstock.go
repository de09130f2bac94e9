package orderstore

import (
	"context"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/orders"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Held stock (WooCommerce's "hold stock"): an order placed with an offline
// method that waits for the buyer's payment (bank transfer: on-hold) holds
// its units. When it is still unpaid and unchanged after the hold, the
// server cancels it and the units go back on sale. Orders paid on delivery
// (cash on delivery: processing) and wallet orders (the wallet reconciler's)
// are never touched here, nor orders moved in from another shop (history:
// their payment was awaited there).

// AwaitingPaymentOrders lists unpaid orders of the methods in status
// on-hold with no payment under way (payment state none) whose last change
// is at or before olderThan, oldest first, at most 200.
func (db *Orders) AwaitingPaymentOrders(ctx context.Context, methods []string, olderThan time.Time) ([]*checkout.Order, error) {
	if len(methods) == 0 {
		return nil, nil
	}
	in, args := sqlcore.InClause(methods)
	args = append([]any{checkout.PayNone, checkout.StatusOnHold}, args...)
	args = append(args, olderThan.Unix(), orders.MetaMovedFrom)
	return db.ordersWhere(ctx, `payment_state = ? AND status = ? AND paid_at IS NULL AND payment_method IN `+in+`
		AND updated_at <= ? AND NOT EXISTS (SELECT 1 FROM order_meta m WHERE m.order_id = orders.id AND m.meta_key = ?)
		ORDER BY updated_at, id LIMIT 200`, args...)
}

// ReleaseHeldOrder cancels an order AwaitingPaymentOrders listed and puts
// its units back in stock, in one transaction, only while it still is
// unpaid, on-hold, of one of the methods and unchanged since olderThan. Of
// several instances releasing at once exactly one does it (true); the stock
// is restored once.
func (db *Orders) ReleaseHeldOrder(ctx context.Context, id int64, methods []string, olderThan, now time.Time) (bool, error) {
	if len(methods) == 0 {
		return false, nil
	}
	in, args := sqlcore.InClause(methods)
	args = append([]any{checkout.PayNone, checkout.StatusOnHold, olderThan.Unix()}, args...)
	return db.cancelOrderWhere(ctx, id, checkout.PayNone, now,
		`payment_state = ? AND status = ? AND updated_at <= ? AND payment_method IN `+in, args...)
}
