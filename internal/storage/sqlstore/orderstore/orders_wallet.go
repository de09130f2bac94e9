package orderstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The wallet's order operations (the server's wallet*.go): orders placed for
// a wallet wait in status pending while the buyer approves at the provider.
// These functions are the wallet's only writes besides PlaceOrder,
// SetPaymentState and MarkOrderPaid; each is one transaction guarded by the
// order's current state, so concurrent requests, the webhook and the
// reconciler can race without a payment being lost or counted twice.

// openWalletStates are the payment states of an unpaid wallet order whose
// buyer has not approved yet (or was declined): it may be cancelled.
var openWalletStates = []string{checkout.PayNone, checkout.PayWalletOrderCreated, checkout.PayFailed}

// OpenWalletOrders lists a cart session's unpaid wallet orders that no
// capture is under way for (payment method method, status pending, payment
// state wallet_order_created or failed), newest first.
func (db *Orders) OpenWalletOrders(ctx context.Context, session, method string) ([]*checkout.Order, error) {
	return db.ordersWhere(ctx, `payment_state IN (?, ?) AND cart_session = ? AND payment_method = ? AND status = ? AND paid_at IS NULL
		ORDER BY id DESC LIMIT 20`, checkout.PayWalletOrderCreated, checkout.PayFailed, session, method, checkout.StatusPending)
}

// StaleWalletOrders lists unpaid wallet orders of method still pending and
// not being captured whose last change is at or before olderThan (buyers
// who walked away), oldest first, at most 200.
func (db *Orders) StaleWalletOrders(ctx context.Context, method string, olderThan time.Time) ([]*checkout.Order, error) {
	in, args := sqlcore.InClause(openWalletStates)
	args = append(args, method, checkout.StatusPending, olderThan.Unix())
	return db.ordersWhere(ctx, `payment_state IN `+in+` AND payment_method = ? AND status = ? AND paid_at IS NULL AND updated_at <= ?
		ORDER BY updated_at, id LIMIT 200`, args...)
}

// CancelUnpaidOrder cancels an unpaid order nobody is capturing (status
// pending, payment state none, wallet_order_created or failed) and puts its
// units back in stock, in one transaction. It reports false, changing
// nothing, when the order is in any other state.
func (db *Orders) CancelUnpaidOrder(ctx context.Context, id int64, now time.Time) (cancelled bool, err error) {
	in, args := sqlcore.InClause(openWalletStates)
	args = append([]any{checkout.StatusPending}, args...)
	return db.cancelOrderWhere(ctx, id, checkout.PayFailed, now, `status = ? AND payment_state IN `+in, args...)
}

// cancelOrderWhere cancels an unpaid order (status cancelled, payment state
// payState) when it still matches where, and puts its units back in stock,
// in one transaction. The conditional UPDATE decides: of concurrent
// cancellers (two instances) exactly one changes the row and restores the
// stock; the others report false and change nothing.
func (db *Orders) cancelOrderWhere(ctx context.Context, id int64, payState string, now time.Time, where string, whereArgs ...any) (cancelled bool, err error) {
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		cancelled = false
		args := append([]any{checkout.StatusCancelled, payState, now.Unix(), id}, whereArgs...)
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ?, payment_state = ?, updated_at = ?
			WHERE id = ? AND paid_at IS NULL AND `+where), args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		if err := releaseCouponsTx(ctx, tx, id); err != nil {
			return err
		}
		if err := db.restoreStockTx(ctx, tx, id, now); err != nil {
			return err
		}
		cancelled = true
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now)
	})
	return cancelled, err
}

// restoreStockTx puts back every unit of an order not put back yet (a
// cancellation): see restockLinesTx.
func (db *Orders) restoreStockTx(ctx context.Context, tx *sqlx.Tx, orderID int64, now time.Time) error {
	return db.restockLinesTx(ctx, tx, orderID, nil, now)
}

// restockLinesTx puts units of an order's lines back where PlaceOrder took
// them: the variation's stock when it manages its own, else the parent's
// when the parent manages it; total sales go down on the parent. want maps
// a line's position to the units to put back (nil: all of every line); no
// line gets back more than it has left to restock (quantity - restocked),
// and restocked grows by what was put back, so no unit is restored twice.
// The caller holds the order's row (its UPDATE of the order comes first),
// so concurrent restores of one order run one after the other.
func (db *Orders) restockLinesTx(ctx context.Context, tx *sqlx.Tx, orderID int64, want map[int]int64, now time.Time) error {
	var lines []struct {
		Position    int   `db:"position"`
		ProductID   int64 `db:"product_id"`
		VariationID int64 `db:"variation_id"`
		Quantity    int64 `db:"quantity"`
		Restocked   int64 `db:"restocked"`
	}
	if err := tx.SelectContext(ctx, &lines, tx.Rebind(`SELECT position, product_id, variation_id, quantity, restocked FROM order_lines
		WHERE order_id = ? ORDER BY position`), orderID); err != nil {
		return err
	}
	back := map[int64]int64{}  // stock row → units
	sales := map[int64]int64{} // parent → units
	for _, l := range lines {
		n := l.Quantity - l.Restocked
		if want != nil {
			n = min(n, want[l.Position])
		}
		if n <= 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_lines SET restocked = restocked + ? WHERE order_id = ? AND position = ?`),
			n, orderID, l.Position); err != nil {
			return err
		}
		sales[l.ProductID] += n
		holder := int64(0)
		if l.VariationID != 0 {
			var managed bool
			err := tx.GetContext(ctx, &managed, tx.Rebind(`SELECT manage_stock FROM products WHERE id = ?`), l.VariationID)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if managed {
				holder = l.VariationID
			}
		}
		if holder == 0 {
			var managed bool
			err := tx.GetContext(ctx, &managed, tx.Rebind(`SELECT manage_stock FROM products WHERE id = ?`), l.ProductID)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if managed {
				holder = l.ProductID
			}
		}
		if holder != 0 {
			back[holder] += n
		}
	}
	ids := make([]int64, 0, len(back)+len(sales))
	for id := range back {
		ids = append(ids, id)
	}
	for id := range sales {
		if _, ok := back[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids) // PlaceOrder's lock order
	for _, id := range ids {
		q, sold := back[id], sales[id]
		var before sql.NullInt64
		err := tx.GetContext(ctx, &before, tx.Rebind(`SELECT stock_quantity FROM products WHERE id = ?`), id)
		if errors.Is(err, sql.ErrNoRows) {
			continue // the product was deleted meanwhile
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET
				stock_quantity = CASE WHEN manage_stock = ? AND stock_quantity IS NOT NULL THEN stock_quantity + ? ELSE stock_quantity END,
				stock_status = CASE WHEN manage_stock = ? AND stock_quantity IS NOT NULL AND stock_quantity + ? > 0 THEN 'instock' ELSE stock_status END,
				total_sales = CASE WHEN total_sales >= ? THEN total_sales - ? ELSE 0 END,
				stock_moves = stock_moves + 1,
				updated_at = ?
			WHERE id = ?`), true, q, true, q, sold, sold, now, id); err != nil {
			return err
		}
		kind := "stock"
		if q > 0 && before.Valid && before.Int64 <= 0 && before.Int64+q > 0 {
			kind = "product" // back in stock: pages show it
		}
		if q > 0 || sold > 0 {
			if err := db.RecordChange(ctx, tx, id, kind); err != nil {
				return err
			}
		}
	}
	return nil
}

// HoldOrderForCapture records a capture the provider has not completed yet
// (PayPal's PENDING): status on-hold, the capture id as transaction id,
// payment state capture_requested, and the order mails queued (the shopper
// is told the order is received). Forward only: an order already paid,
// cancelled or refunded is left alone (false).
func (db *Orders) HoldOrderForCapture(ctx context.Context, id int64, captureID string, now time.Time) (changed bool, err error) {
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		changed = false
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ?, payment_state = ?,
				capture_id = CASE WHEN ? = '' THEN capture_id ELSE ? END,
				transaction_id = CASE WHEN ? = '' THEN transaction_id ELSE ? END,
				updated_at = ?
			WHERE id = ? AND paid_at IS NULL AND status IN (?, ?, ?) AND payment_state <> ?`),
			checkout.StatusOnHold, checkout.PayCaptureRequested, captureID, captureID, captureID, captureID, now.Unix(),
			id, checkout.StatusPending, checkout.StatusFailed, checkout.StatusOnHold, checkout.PayPaid)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		changed = true
		if err := sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now); err != nil {
			return err
		}
		return enqueueOrderMails(ctx, tx, id, now)
	})
	return changed, err
}

// FailOrderPayment records a payment the provider refused for good (a
// denied capture): payment state failed and status failed, unless the
// order is paid or no longer pending or on-hold (false).
func (db *Orders) FailOrderPayment(ctx context.Context, id int64, now time.Time) (changed bool, err error) {
	return db.ExecOne(ctx, `UPDATE orders SET status = ?, payment_state = ?, updated_at = ?
			WHERE id = ? AND paid_at IS NULL AND status IN (?, ?)`,
		checkout.StatusFailed, checkout.PayFailed, now.Unix(), id, checkout.StatusPending, checkout.StatusOnHold)
}

// SetOrderAddresses fills an unpaid order's addresses (a wallet buyer's
// name, email and shipping address known only after approval). It reports
// false when the order is paid or unknown.
func (db *Orders) SetOrderAddresses(ctx context.Context, id int64, billing, shipping cart.Address, now time.Time) (bool, error) {
	b, err := json.Marshal(billing)
	if err != nil {
		return false, err
	}
	s, err := json.Marshal(shipping)
	if err != nil {
		return false, err
	}
	return db.ExecOne(ctx, `UPDATE orders SET billing = ?, shipping = ?, billing_email = ?, updated_at = ?
			WHERE id = ? AND paid_at IS NULL`, string(b), string(s), billing.Email, now.Unix(), id)
}

// ForgetWebhookEvent removes a recorded event id, so a delivery whose
// handling failed is handled again when the provider retries it.
func (db *Orders) ForgetWebhookEvent(ctx context.Context, eventID string) error {
	return db.Exec(ctx, `DELETE FROM webhook_events WHERE event_id = ?`, eventID)
}
