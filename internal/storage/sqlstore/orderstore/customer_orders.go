package orderstore

import (
	"context"

	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore/sqlcore"

	"github.com/jmoiron/sqlx"
)

// A customer's orders (account.CustomerStore).

// CustomerOrders is a page of a customer's orders, newest first, and the
// number of all of them.
func (db *Orders) CustomerOrders(ctx context.Context, userID int64, limit, offset int) ([]*checkout.Order, int, error) {
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*) FROM orders WHERE customer_id = ?`), userID); err != nil {
		return nil, 0, err
	}
	if total == 0 || offset >= total {
		return []*checkout.Order{}, total, nil
	}
	os, err := db.ordersWhere(ctx, `customer_id = ? ORDER BY id DESC`+sqlcore.Limit(limit)+` OFFSET ?`, userID, offset)
	return os, total, err
}

// CustomerOrder loads one order of a customer (ErrOrderNotFound for
// another's).
func (db *Orders) CustomerOrder(ctx context.Context, userID, orderID int64) (*checkout.Order, error) {
	os, err := db.ordersWhere(ctx, `id = ? AND customer_id = ?`, orderID, userID)
	if err != nil {
		return nil, err
	}
	if len(os) == 0 {
		return nil, ErrOrderNotFound
	}
	return os[0], nil
}

// LinkGuestOrders gives a customer the guest orders placed with email.
func (db *Orders) LinkGuestOrders(ctx context.Context, userID int64, email string) (int64, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = LinkGuestOrdersTx(ctx, tx, userID, email)
		return err
	})
	return n, err
}

// LinkGuestOrdersTx is LinkGuestOrders inside tx (ConsumeEmailVerification's, so the
// orders move with the verification or not at all).
func LinkGuestOrdersTx(ctx context.Context, tx *sqlx.Tx, userID int64, email string) (int64, error) {
	if email == "" {
		return 0, nil
	}
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET customer_id = ? WHERE customer_id IS NULL AND lower(billing_email) = lower(?)`),
		userID, email)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
