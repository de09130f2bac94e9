package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The mail outbox (mail.Store). Rows are recorded by EnqueueMailTx in the
// transaction of the change they report. A worker claims a due row with a
// conditional UPDATE that checks the attempts count and next attempt time it
// read: the update adds one attempt and moves next_attempt_at forward by a
// lease, so a second worker (another server instance) that read the same row
// updates nothing and skips it; on PostgreSQL the second UPDATE waits for
// the first's row lock and then re-checks its WHERE on the new row. The
// (id, attempts) pair the claim returns identifies it: a failure is recorded
// only while the claim is current. Times are unix seconds.

var _ mail.Store = (*DB)(nil)

// EnqueueMailTx records a message in the mail outbox inside tx, the
// transaction of the change the message reports (sqlcore.EnqueueMailTx,
// which every store that sends mail shares).
func EnqueueMailTx(ctx context.Context, tx *sqlx.Tx, kind, ref, dedupeKey string, now time.Time) error {
	return sqlcore.EnqueueMailTx(ctx, tx, kind, ref, dedupeKey, now)
}

// enqueueMailOnce records a message of kind about ref inside tx, at most
// once: its dedupe key is "kind:ref" (a notice, a reply, a token's mail).
func enqueueMailOnce(ctx context.Context, tx *sqlx.Tx, kind, ref string, now time.Time) error {
	return EnqueueMailTx(ctx, tx, kind, ref, kind+":"+ref, now)
}

// EnqueueMail records a message in its own transaction (operations, tests).
func (db *DB) EnqueueMail(ctx context.Context, kind, ref, dedupeKey string, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error { return EnqueueMailTx(ctx, tx, kind, ref, dedupeKey, now) })
}

const outboxColumns = `id, dedupe_key, kind, ref, created_at, next_attempt_at, attempts, sent_at, failed_at, last_error`

type outboxRow struct {
	ID        int64         `db:"id"`
	DedupeKey string        `db:"dedupe_key"`
	Kind      string        `db:"kind"`
	Ref       string        `db:"ref"`
	Created   int64         `db:"created_at"`
	Next      int64         `db:"next_attempt_at"`
	Attempts  int           `db:"attempts"`
	Sent      sql.NullInt64 `db:"sent_at"`
	Failed    sql.NullInt64 `db:"failed_at"`
	LastError string        `db:"last_error"`
}

func (r outboxRow) queued() mail.Queued {
	q := mail.Queued{ID: r.ID, DedupeKey: r.DedupeKey, Kind: r.Kind, Ref: r.Ref,
		CreatedAt: sqlcore.UnixUTC(r.Created), NextAttemptAt: sqlcore.UnixUTC(r.Next), Attempts: r.Attempts, LastError: r.LastError}
	if r.Sent.Valid {
		q.SentAt = sqlcore.UnixUTC(r.Sent.Int64)
	}
	if r.Failed.Valid {
		q.FailedAt = sqlcore.UnixUTC(r.Failed.Int64)
	}
	return q
}

// leaseEnd is now+lease in unix seconds, rounded up and at least one second
// ahead, so a claimed row is never due again within the same second.
func leaseEnd(now time.Time, lease time.Duration) int64 {
	s := int64((lease + time.Second - 1) / time.Second)
	return now.Unix() + max(s, 1)
}

// ClaimMail claims up to limit due rows (see mail.Store).
func (db *DB) ClaimMail(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]mail.Queued, error) {
	return claimDue(ctx, db, outboxQueue, now, lease, limit, func(_ *sqlx.Tx, r outboxRow) (mail.Queued, error) {
		return r.queued(), nil
	})
}

// outboxQueue is the mail outbox as a lease queue (claimDue).
var outboxQueue = leaseQueue{name: "mail", table: "mail_outbox", done: "sent_at", returning: outboxColumns}

// MarkMailSent records that row id was delivered. It holds even when the
// row's lease ran out meanwhile or it was given up: the message did go.
func (db *DB) MarkMailSent(ctx context.Context, id int64, now time.Time) error {
	return db.Exec(ctx, `UPDATE mail_outbox SET sent_at = ?, failed_at = NULL, last_error = '' WHERE id = ? AND sent_at IS NULL`, now.Unix(), id)
}

// RetryMail records a failed attempt of the current claim (id, attempts)
// and the time of the next one.
func (db *DB) RetryMail(ctx context.Context, id int64, attempts int, next time.Time, errText string) error {
	return db.Exec(ctx, `UPDATE mail_outbox SET next_attempt_at = ?, last_error = ?
		WHERE id = ? AND attempts = ? AND sent_at IS NULL AND failed_at IS NULL`, next.Unix(), truncateError(errText), id, attempts)
}

// GiveUpMail records a failed attempt of the current claim (id, attempts)
// and stops retrying the row.
func (db *DB) GiveUpMail(ctx context.Context, id int64, attempts int, now time.Time, errText string) error {
	return db.Exec(ctx, `UPDATE mail_outbox SET failed_at = ?, last_error = ?
		WHERE id = ? AND attempts = ? AND sent_at IS NULL AND failed_at IS NULL`, now.Unix(), truncateError(errText), id, attempts)
}

// RequeueMail puts a given-up row back in the queue with a fresh count of
// attempts, due at now (operations: after fixing the SMTP settings or the
// address). It reports whether a given-up row with that id existed.
func (db *DB) RequeueMail(ctx context.Context, id int64, now time.Time) (bool, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(
			`UPDATE mail_outbox SET failed_at = NULL, attempts = 0, next_attempt_at = ?
			 WHERE id = ? AND sent_at IS NULL AND failed_at IS NOT NULL`), now.Unix(), id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n == 1, err
}

// MailOutbox lists outbox rows in a state (mail.StateQueued, StateSent,
// StateFailed; "" for all), newest first, at most limit (1 to 1000).
func (db *DB) MailOutbox(ctx context.Context, state string, limit int) ([]mail.Queued, error) {
	where, err := outboxStateWhere(state)
	if err != nil {
		return nil, err
	}
	limit = min(max(limit, 1), 1000)
	out, err := sqlcore.SelectAs(ctx, db.Read, outboxRow.queued, `SELECT `+outboxColumns+` FROM mail_outbox WHERE `+where+` ORDER BY id DESC`+sqlcore.Limit(limit))
	if err != nil {
		return nil, fmt.Errorf("list mail: %w", err)
	}
	return out, nil
}

// MailByDedupeKey returns the row recorded with dedupeKey; ok is false when
// there is none.
func (db *DB) MailByDedupeKey(ctx context.Context, dedupeKey string) (q mail.Queued, ok bool, err error) {
	var r outboxRow
	err = db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+outboxColumns+` FROM mail_outbox WHERE dedupe_key = ?`), dedupeKey)
	if errors.Is(err, sql.ErrNoRows) {
		return mail.Queued{}, false, nil
	}
	if err != nil {
		return mail.Queued{}, false, fmt.Errorf("load mail: %w", err)
	}
	return r.queued(), true, nil
}

// CountMail counts the outbox rows per state.
func (db *DB) CountMail(ctx context.Context) (mail.Counts, error) {
	var c struct {
		Queued int `db:"queued"`
		Sent   int `db:"sent"`
		Failed int `db:"failed"`
	}
	err := db.Read.GetContext(ctx, &c, `SELECT
		COALESCE(SUM(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN 1 ELSE 0 END), 0) AS queued,
		COALESCE(SUM(CASE WHEN sent_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS sent,
		COALESCE(SUM(CASE WHEN sent_at IS NULL AND failed_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS failed
		FROM mail_outbox`)
	if err != nil {
		return mail.Counts{}, fmt.Errorf("count mail: %w", err)
	}
	return mail.Counts{Queued: c.Queued, Sent: c.Sent, Failed: c.Failed}, nil
}

func outboxStateWhere(state string) (string, error) {
	switch state {
	case "":
		return "1 = 1", nil
	case mail.StateQueued:
		return "sent_at IS NULL AND failed_at IS NULL", nil
	case mail.StateSent:
		return "sent_at IS NOT NULL", nil
	case mail.StateFailed:
		return "sent_at IS NULL AND failed_at IS NOT NULL", nil
	}
	return "", fmt.Errorf("unknown mail state %q", state)
}

// truncateError keeps last_error short: SMTP replies can be long.
func truncateError(s string) string {
	const maxLen = 1000
	if len(s) <= maxLen {
		return s
	}
	// Cut on a rune boundary.
	for i := maxLen; i > maxLen-4 && i > 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return s[:i]
		}
	}
	return s[:maxLen]
}
