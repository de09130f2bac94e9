package sqlstore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
)

// Spent bot-check challenges (table botcheck_spent), shared by every
// instance on the store (botcheck.Store).

const sqlSpendBotcheck = `INSERT INTO botcheck_spent (signature, expires_at) VALUES (?, ?)
	ON CONFLICT (signature) DO NOTHING`

// SpendBotcheck records the challenge named by signature as spent until
// expires, and reports whether this call recorded it (false: it was spent
// already). Of concurrent calls for one signature exactly one reports true.
func (db *DB) SpendBotcheck(ctx context.Context, signature string, expires time.Time) (bool, error) {
	var first bool
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(sqlSpendBotcheck), signature, expires.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	if err != nil {
		return false, err
	}
	return first, nil
}

// DeleteSpentBotcheck deletes the spent challenges that expired before
// before, and reports how many.
func (db *DB) DeleteSpentBotcheck(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM botcheck_spent WHERE expires_at < ?`), before.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// CountSpentBotcheck reports how many spent challenges are stored (for
// tests and metrics).
func (db *DB) CountSpentBotcheck(ctx context.Context) (int64, error) {
	var n int64
	err := db.Read.GetContext(ctx, &n, `SELECT COUNT(*) FROM botcheck_spent`)
	return n, err
}
