package sqlcore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Tx runs fn in a write transaction, retrying a few times when SQLite or
// PostgreSQL report a transient conflict (busy, serialization failure).
// Public store methods own their transaction; helpers take the *sqlx.Tx.
func (db *DB) Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = db.tryTx(ctx, fn)
		if err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 10 * time.Millisecond)
	}
	return err
}

func (db *DB) tryTx(ctx context.Context, fn func(tx *sqlx.Tx) error) (err error) {
	tx, err := db.Write.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func transient(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01" // serialization failure, deadlock
	}
	return false
}

// Exec runs one write in a transaction of its own.
func (db *DB) Exec(ctx context.Context, query string, args ...any) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, tx.Rebind(query), args...)
		return err
	})
}

// ExecOne runs one write in a transaction of its own and reports whether
// it changed exactly one row.
func (db *DB) ExecOne(ctx context.Context, query string, args ...any) (bool, error) {
	var one bool
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(query), args...)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		one = n == 1
		return nil
	})
	return one, err
}

// Querier is a pool or a transaction, as SelectAs reads through it.
type Querier interface {
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	Rebind(query string) string
}

// SelectAs runs query (with "?" placeholders, rebound for the engine),
// scans each row as an R and answers conv of each: the rows of a list,
// read through the row type that matches its columns. No row is an empty,
// non-nil slice.
func SelectAs[R, T any](ctx context.Context, q Querier, conv func(R) T, query string, args ...any) ([]T, error) {
	var rows []R
	if err := q.SelectContext(ctx, &rows, q.Rebind(query), args...); err != nil {
		return nil, err
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = conv(r)
	}
	return out, nil
}

// NoRow answers notFound when err says a read found no row
// (sql.ErrNoRows), and err itself otherwise, nil included: the store's
// "not found" error in place of database/sql's.
func NoRow(err, notFound error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return notFound
	}
	return err
}

// UniqueViolation reports a unique-constraint failure on either engine.
func UniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// RecordChange appends to the change log (catalog_changes), in the
// write's own transaction: the running instances read it to drop what they
// cached, so every store whose writes change what a page shows records one.
func (db *DB) RecordChange(ctx context.Context, tx *sqlx.Tx, productID int64, kind string) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO catalog_changes (product_id, kind, at) VALUES (?, ?, ?)`), productID, kind, db.Now())
	return err
}

// EnqueueMailTx records a message in the mail outbox inside tx, the
// transaction of the change the message reports, so the two commit or roll
// back together. kind names the message ("order_confirmation"), ref what it
// is about (an order id) and dedupeKey makes the call idempotent: a second
// call with the same key records nothing.
func EnqueueMailTx(ctx context.Context, tx *sqlx.Tx, kind, ref, dedupeKey string, now time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(
		`INSERT INTO mail_outbox (dedupe_key, kind, ref, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)
		 ON CONFLICT (dedupe_key) DO NOTHING`), dedupeKey, kind, ref, now.Unix(), now.Unix())
	return err
}

// InClause writes "(?, ?, …)" and the args for a list of values.
func InClause[T any](vals []T) (string, []any) {
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return "(" + Placeholders(len(vals)) + ")", args
}

// Placeholders writes n "?" separated by commas.
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// NullID is NULL for the id 0 (no row), else the id.
func NullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// NullString is NULL for "", else s.
func NullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// NullTime is NULL for no time, else the time in UTC.
func NullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

// NullInt is NULL for no number, else the number.
func NullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// LikeEscape escapes LIKE's wildcards (with ESCAPE '\').
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// UnixUTC reads a stored Unix time in UTC.
func UnixUTC(s int64) time.Time { return time.Unix(s, 0).UTC() }
