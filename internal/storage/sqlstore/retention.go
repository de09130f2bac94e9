package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/retention"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Data retention (internal/retention): what its rules find, and its runs'
// queue (retention_runs, a lease queue like the scheduled backups').
// AnonymiseOrders (anonymise.go), DeleteUser (account.go) and DeleteOrder
// (orderstore) are the changes it makes.

var _ retention.Store = (*DB)(nil)

// InactiveCustomers are up to limit customer accounts with nothing after
// before: not created, not logged in, no order placed, no session seen,
// not moved in from WooCommerce (the old shop's log-ins are unknown, so the
// move counts as activity) (see retention.Store). Staff accounts are never
// taken.
func (db *DB) InactiveCustomers(ctx context.Context, before time.Time, limit int) ([]int64, error) {
	var ids []int64
	b := before.Unix()
	err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT u.id FROM users u
		WHERE u.role = 'customer' AND u.created_at <= ? AND COALESCE(u.last_login_at, 0) <= ?
		  AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = u.id AND o.created_at > ?)
		  AND NOT EXISTS (SELECT 1 FROM account_sessions s WHERE s.user_id = u.id AND s.last_seen_at > ?)
		  AND NOT EXISTS (SELECT 1 FROM legacy_ids l WHERE l.kind = 'customer' AND l.new_id = u.id AND l.imported_at > ?)
		ORDER BY u.id`+sqlcore.Limit(limit)), b, b, b, b, b)
	if err != nil {
		return nil, fmt.Errorf("inactive customers: %w", err)
	}
	return ids, nil
}

// CustomerOrderIDs are the ids of an account's orders.
func (db *DB) CustomerOrderIDs(ctx context.Context, userID int64) ([]int64, error) {
	var ids []int64
	if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM orders WHERE customer_id = ? ORDER BY id`), userID); err != nil {
		return nil, fmt.Errorf("customer's orders: %w", err)
	}
	return ids, nil
}

// RetentionOrders are the ids of the orders q finds, oldest first.
func (db *DB) RetentionOrders(ctx context.Context, q retention.OrderQuery) ([]int64, error) {
	if len(q.Statuses) == 0 || q.Limit <= 0 {
		return nil, nil
	}
	in := strings.TrimSuffix(strings.Repeat("?, ", len(q.Statuses)), ", ")
	args := []any{q.Before.Unix()}
	for _, s := range q.Statuses {
		args = append(args, s)
	}
	where := `created_at <= ? AND status IN (` + in + `)`
	if q.GuestOnly {
		where += ` AND customer_id IS NULL AND anonymised_at IS NULL`
	}
	var ids []int64
	if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM orders WHERE `+where+` ORDER BY created_at, id`+sqlcore.Limit(q.Limit)),
		args...); err != nil {
		return nil, fmt.Errorf("retention orders: %w", err)
	}
	return ids, nil
}

// retentionQueue is the retention runs as a lease queue (claimDue).
var retentionQueue = leaseQueue{name: "retention runs", table: "retention_runs", done: "done_at",
	returning: `id, slot_key, attempts`}

// retentionKept is how long a done run's row is kept.
const retentionKept = 90 * 24 * time.Hour

// QueueRetentionRun records the slot once (see retention.Store).
func (db *DB) QueueRetentionRun(ctx context.Context, slot, now time.Time) error {
	return db.Exec(ctx, `INSERT INTO retention_runs (slot_key, created_at, next_attempt_at) VALUES (?, ?, ?)
		ON CONFLICT (slot_key) DO NOTHING`, slot.Unix(), now.Unix(), slot.Unix())
}

// ClaimRetentionRun claims the oldest due run (see retention.Store).
func (db *DB) ClaimRetentionRun(ctx context.Context, now time.Time, lease time.Duration) (retention.Run, bool, error) {
	runs, err := claimDue(ctx, db, retentionQueue, now, lease, 1, func(_ *sqlx.Tx, r backupRow) (retention.Run, error) {
		return retention.Run{ID: r.ID, Slot: sqlcore.UnixUTC(r.Slot), Attempts: r.Attempts}, nil
	})
	if err != nil || len(runs) == 0 {
		return retention.Run{}, false, err
	}
	return runs[0], true, nil
}

// RetentionRunDone records what the run did, and forgets runs done long
// ago (see retention.Store).
func (db *DB) RetentionRunDone(ctx context.Context, id int64, summary string, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE retention_runs SET done_at = ?, summary = ?, failed_at = NULL, last_error = ''
			WHERE id = ? AND done_at IS NULL`), now.Unix(), summary, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM retention_runs WHERE done_at < ?`), now.Add(-retentionKept).Unix())
		return err
	})
}

// RetentionRunFailed records a failed attempt of the claim: the run is due
// again in a few minutes, or given up (see retention.Store).
func (db *DB) RetentionRunFailed(ctx context.Context, id int64, attempts int, errText string, giveUp bool, now time.Time) error {
	if giveUp {
		return db.Exec(ctx, `UPDATE retention_runs SET failed_at = ?, last_error = ?
			WHERE id = ? AND attempts = ? AND done_at IS NULL AND failed_at IS NULL`, now.Unix(), truncateError(errText), id, attempts)
	}
	return db.Exec(ctx, `UPDATE retention_runs SET next_attempt_at = ?, last_error = ?
		WHERE id = ? AND attempts = ? AND done_at IS NULL AND failed_at IS NULL`, now.Add(5*time.Minute).Unix(), truncateError(errText), id, attempts)
}

// LastRetentionRun is the newest run done and what it did (false: none yet).
func (db *DB) LastRetentionRun(ctx context.Context) (at time.Time, summary string, ok bool, err error) {
	var r struct {
		Done    int64  `db:"done_at"`
		Summary string `db:"summary"`
	}
	err = db.Read.GetContext(ctx, &r, `SELECT done_at, summary FROM retention_runs
		WHERE done_at IS NOT NULL ORDER BY done_at DESC, id DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, "", false, nil
	}
	if err != nil {
		return time.Time{}, "", false, fmt.Errorf("last retention run: %w", err)
	}
	return sqlcore.UnixUTC(r.Done), r.Summary, true, nil
}
