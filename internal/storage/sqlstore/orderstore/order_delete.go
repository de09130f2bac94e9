package orderstore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// DeleteOrder deletes an order for good (orders.Store), with its lines,
// meta, notes, refunds and coupon uses (the foreign keys cascade), and
// queues order.deleted, in one transaction. A pending order gives back the
// stock it held and its coupon uses first. checkout.ErrOrderNotFound for
// an unknown id.
func (db *Orders) DeleteOrder(ctx context.Context, id int64, now time.Time) error {
	now = now.UTC().Truncate(time.Second)
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		status, _, err := lockOrderTx(ctx, tx, id, now)
		if err != nil {
			return err
		}
		if status == checkout.StatusPending {
			if err := db.restoreStockTx(ctx, tx, id, now); err != nil {
				return err
			}
			if err := releaseCouponsTx(ctx, tx, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM orders WHERE id = ?`), id); err != nil {
			return err
		}
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "order.deleted", id, now)
	})
}
