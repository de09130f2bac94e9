package sqlcore

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Store outages. Every error leaving the engine's driver is classified in
// one place, the health wrapper under database/sql (healthConn): a lost
// connection (PostgreSQL refusing or dropping connections, shutting down,
// SQLSTATE class 08, 57P01-57P03, 53300) or a full disk (SQLITE_FULL, an
// SQLite I/O error, ENOSPC, PostgreSQL's 53100) comes back wrapping
// ErrUnavailable, and is noted on the store's health: Unavailable reports
// it for a few seconds (the HTTP layer answers 503 instead of 500 then)
// and Ready fails while the store is down or the disk full.

// ErrUnavailable is wrapped by every store error that comes from the
// database being unreachable or out of disk space: errors.Is(err,
// sqlstore.ErrUnavailable). Such a failure is the store's, not the
// request's, and passes when the database is back.
var ErrUnavailable = errors.New("store unavailable")

// unavailableFor is how long after an outage error Unavailable reports it.
const unavailableFor = 3 * time.Second

// Outage kinds.
const (
	outageConn = "connection lost"
	outageFull = "disk full"
)

// unavailableError is an engine error classified as an outage. It unwraps
// to both ErrUnavailable and the engine's error, so database/sql still sees
// driver.ErrBadConn and callers still find the engine's error type.
type unavailableError struct {
	kind string
	err  error
}

func (e *unavailableError) Error() string   { return e.kind + ": " + e.err.Error() }
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// outageKind classifies an engine error: outageConn, outageFull or "".
func outageKind(err error) string {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrSkip) {
		return ""
	}
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return outageFull
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR:
			return outageFull
		}
		return ""
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53100": // disk_full
			return outageFull
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // admin, crash shutdown; cannot connect now
			pe.Code == "53300": // too many connections
			return outageConn
		}
		return ""
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), errors.Is(err, driver.ErrBadConn),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), pgconn.SafeToRetry(err):
		return outageConn
	}
	return ""
}

// IsUnavailable reports whether err is a store outage (ErrUnavailable).
func IsUnavailable(err error) bool { return errors.Is(err, ErrUnavailable) }

// health is what a store's connections have seen of outages.
type health struct {
	// last is the most recent outage error and when it came.
	last atomic.Pointer[outage]
	// full: a write failed for lack of disk space and none has
	// succeeded since; Ping (so sqlstore's Ready) then tries a write of
	// its own.
	full atomic.Bool
	// faults, when set, injects errors (tests: Faults).
	faults *Faults
}

type outage struct {
	at  time.Time
	err error
}

// note classifies err and, for an outage, records it and returns the
// wrapped error.
func (h *health) note(err error) error {
	if err == nil {
		return nil
	}
	kind := outageKind(err)
	if kind == "" {
		return err
	}
	e := &unavailableError{kind: kind, err: err}
	h.last.Store(&outage{at: time.Now(), err: e})
	if kind == outageFull {
		h.full.Store(true)
	}
	return e
}

// wrote records a committed write: the disk took it.
func (h *health) wrote() {
	if h.full.Load() {
		h.full.Store(false)
	}
}

// Unavailable returns the store's latest outage error if it came within
// the last few seconds, else nil. The HTTP layer answers a failure in that
// time 503 with Retry-After instead of 500.
func (db *DB) Unavailable() error {
	o := db.health.last.Load()
	if o == nil || time.Since(o.at) > unavailableFor {
		return nil
	}
	return o.err
}

// readyProbe writes and removes a row: after a write failed for a full
// disk, Ping proves the disk takes writes again before it reports ready.
func (db *DB) readyProbe(ctx context.Context) error {
	return db.tryTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ('vitrine:ready-probe', 0, 0, 0)
			ON CONFLICT (bucket) DO NOTHING`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_limits WHERE bucket = 'vitrine:ready-probe'`)
		return err
	})
}

// healthConnector puts every connection of a pool behind the health
// wrapper (and the fault injector of tests).
type healthConnector struct {
	base driver.Connector
	h    *health
}

func (c healthConnector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := c.h.faults.at(faultConnect); err != nil {
		return nil, c.h.note(err)
	}
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, c.h.note(err)
	}
	return &healthConn{passConn{conn}, c.h}, nil
}

func (c healthConnector) Driver() driver.Driver { return c.base.Driver() }

// healthConn classifies the errors of the engine's connection (health.note).
type healthConn struct {
	passConn
	h *health
}

func (cn *healthConn) Prepare(query string) (driver.Stmt, error) {
	return cn.PrepareContext(context.Background(), query)
}

func (cn *healthConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := cn.h.faults.at(faultRead); err != nil {
		return nil, cn.h.note(err)
	}
	st, err := cn.passConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, cn.h.note(err)
	}
	return &healthStmt{st, cn}, nil
}

func (cn *healthConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := cn.h.faults.at(faultWrite); err != nil {
		return nil, cn.h.note(err)
	}
	tx, err := cn.passConn.BeginTx(ctx, opts)
	if err != nil {
		return nil, cn.h.note(err)
	}
	return &healthTx{tx, cn.h, opts.ReadOnly}, nil
}

func (cn *healthConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if err := cn.h.faults.at(faultRead); err != nil {
		return nil, cn.h.note(err)
	}
	rows, err := cn.passConn.QueryContext(ctx, query, args)
	return wrapRows(rows, cn.h), cn.h.note(err)
}

func (cn *healthConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if err := cn.h.faults.at(faultWrite); err != nil {
		return nil, cn.h.note(err)
	}
	res, err := cn.passConn.ExecContext(ctx, query, args)
	return res, cn.h.note(err)
}

func (cn *healthConn) Ping(ctx context.Context) error {
	if err := cn.h.faults.at(faultRead); err != nil {
		return cn.h.note(err)
	}
	return cn.h.note(cn.passConn.Ping(ctx))
}

// healthStmt classifies a prepared statement's errors.
type healthStmt struct {
	driver.Stmt
	cn *healthConn
}

var (
	_ driver.StmtQueryContext  = (*healthStmt)(nil)
	_ driver.StmtExecContext   = (*healthStmt)(nil)
	_ driver.NamedValueChecker = (*healthStmt)(nil)
)

func (s *healthStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := s.cn.h.faults.at(faultRead); err != nil {
		return nil, s.cn.h.note(err)
	}
	if q, ok := s.Stmt.(driver.StmtQueryContext); ok {
		rows, err := q.QueryContext(ctx, args)
		return wrapRows(rows, s.cn.h), s.cn.h.note(err)
	}
	vals, err := plainValues(args)
	if err != nil {
		return nil, err
	}
	rows, err := s.Stmt.Query(vals) //nolint:staticcheck // the only way for a driver without QueryContext
	return wrapRows(rows, s.cn.h), s.cn.h.note(err)
}

func (s *healthStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := s.cn.h.faults.at(faultWrite); err != nil {
		return nil, s.cn.h.note(err)
	}
	if e, ok := s.Stmt.(driver.StmtExecContext); ok {
		res, err := e.ExecContext(ctx, args)
		return res, s.cn.h.note(err)
	}
	vals, err := plainValues(args)
	if err != nil {
		return nil, err
	}
	res, err := s.Stmt.Exec(vals) //nolint:staticcheck // the only way for a driver without ExecContext
	return res, s.cn.h.note(err)
}

func (s *healthStmt) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := s.Stmt.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return s.cn.CheckNamedValue(nv)
}

// healthRows classifies the errors of reading a result: PostgreSQL sends a
// terminated connection's FATAL error while the rows are read, after the
// query itself was answered. The column-type methods pass through, with
// database/sql's defaults for a driver without them.
type healthRows struct {
	driver.Rows
	h *health
}

func wrapRows(rows driver.Rows, h *health) driver.Rows {
	if rows == nil {
		return nil
	}
	return &healthRows{rows, h}
}

func (r *healthRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err == nil || err == io.EOF {
		return err
	}
	return r.h.note(err)
}

func (r *healthRows) Close() error { return r.h.note(r.Rows.Close()) }

func (r *healthRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *healthRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *healthRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, is := r.Rows.(driver.RowsColumnTypeNullable); is {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *healthRows) ColumnTypeLength(i int) (length int64, ok bool) {
	if t, is := r.Rows.(driver.RowsColumnTypeLength); is {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *healthRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if t, is := r.Rows.(driver.RowsColumnTypePrecisionScale); is {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

// healthTx classifies a commit's error; a committed write clears a full
// disk.
type healthTx struct {
	driver.Tx
	h        *health
	readOnly bool
}

func (t *healthTx) Commit() error {
	if err := t.h.faults.at(faultWrite); err != nil {
		_ = t.Tx.Rollback()
		return t.h.note(err)
	}
	err := t.Tx.Commit()
	if err == nil && !t.readOnly {
		t.h.wrote()
	}
	return t.h.note(err)
}

func (t *healthTx) Rollback() error { return t.h.note(t.Tx.Rollback()) }

// Faults injects errors into a store's connections, as an outage would
// make them (tests: a lost connection, a full disk). The zero value
// injects nothing; open the store with sqlstore.OpenFaulty.
type Faults struct {
	on atomic.Pointer[fault]
}

type fault struct {
	err    error
	writes bool // only writes (a full disk): reads still work
}

type faultPoint int

const (
	faultConnect faultPoint = iota
	faultRead
	faultWrite
)

// FailAll makes every new connection, statement and commit fail with err
// (a lost connection: a *pgconn.ConnectError, a PgError 57P01).
func (f *Faults) FailAll(err error) { f.on.Store(&fault{err: err}) }

// FailWrites makes every write (exec, transaction, commit) fail with err,
// reads still working (a full disk: SQLITE_FULL).
func (f *Faults) FailWrites(err error) { f.on.Store(&fault{err: err, writes: true}) }

// Clear stops injecting.
func (f *Faults) Clear() { f.on.Store(nil) }

func (f *Faults) at(p faultPoint) error {
	if f == nil {
		return nil
	}
	x := f.on.Load()
	if x == nil || (x.writes && p != faultWrite) {
		return nil
	}
	return x.err
}
