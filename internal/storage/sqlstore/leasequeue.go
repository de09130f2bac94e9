package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore/sqlcore"
)

// leaseQueue is a durable queue table claimed with a lease, shared by every
// instance (the mail outbox, the webhook queue): a row is due while done
// and failed_at are NULL and its next_attempt_at has come; a claim counts
// an attempt and moves next_attempt_at to the lease's end, so a worker that
// dies leaves the row due again then.
type leaseQueue struct {
	name      string // for errors: "mail", "webhooks"
	table     string
	done      string // the column set once the row is done: sent_at, delivered_at
	returning string // what a claim returns, scanned into the row type
}

// claimDue claims up to limit due rows of q for lease and answers what
// took makes of each, inside the claim's transaction (which may run again
// when the store is busy: took must only read). A cheap read of what is
// due comes first, so an idle poll never takes SQLite's write lock; then
// each row is taken only if nobody took it since (its attempts and
// next_attempt_at as read), which makes concurrent claims from several
// instances safe.
func claimDue[R, T any](ctx context.Context, db *DB, q leaseQueue, now time.Time, lease time.Duration, limit int,
	took func(tx *sqlx.Tx, row R) (T, error)) ([]T, error) {
	if limit <= 0 {
		return nil, nil
	}
	var due []struct {
		ID       int64 `db:"id"`
		Attempts int   `db:"attempts"`
		Next     int64 `db:"next_attempt_at"`
	}
	if err := db.Read.SelectContext(ctx, &due, db.Read.Rebind(
		`SELECT id, attempts, next_attempt_at FROM `+q.table+`
		 WHERE `+q.done+` IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
		 ORDER BY next_attempt_at, id`+sqlcore.Limit(limit)), now.Unix()); err != nil {
		return nil, fmt.Errorf("due %s: %w", q.name, err)
	}
	if len(due) == 0 {
		return nil, nil
	}
	until := leaseEnd(now, lease)
	var claimed []T
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		claimed = claimed[:0]
		claim := tx.Rebind(`UPDATE ` + q.table + ` SET attempts = attempts + 1, next_attempt_at = ?
			WHERE id = ? AND attempts = ? AND next_attempt_at = ? AND ` + q.done + ` IS NULL AND failed_at IS NULL
			RETURNING ` + q.returning)
		for _, d := range due {
			var r R
			err := tx.GetContext(ctx, &r, claim, until, d.ID, d.Attempts, d.Next)
			if errors.Is(err, sql.ErrNoRows) {
				continue // another worker took it, or it was done meanwhile
			}
			if err != nil {
				return err
			}
			t, err := took(tx, r)
			if err != nil {
				return err
			}
			claimed = append(claimed, t)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim %s: %w", q.name, err)
	}
	return claimed, nil
}
