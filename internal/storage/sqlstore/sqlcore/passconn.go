package sqlcore

import (
	"context"
	"database/sql/driver"
	"fmt"
)

// passConn is a driver connection wrapper that passes every call on to the
// engine's connection; the wrappers under the pools (countConn,
// stmtCacheConn) embed it and override what they change. Where the
// engine's connection lacks an optional interface it answers as
// database/sql expects of a driver without it (driver.ErrSkip, or the
// plain method).
type passConn struct {
	driver.Conn
}

var (
	_ driver.ConnPrepareContext = passConn{}
	_ driver.ConnBeginTx        = passConn{}
	_ driver.QueryerContext     = passConn{}
	_ driver.ExecerContext      = passConn{}
	_ driver.Pinger             = passConn{}
	_ driver.SessionResetter    = passConn{}
	_ driver.Validator          = passConn{}
	_ driver.NamedValueChecker  = passConn{}
)

func (p passConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c, ok := p.Conn.(driver.ConnPrepareContext); ok {
		return c.PrepareContext(ctx, query)
	}
	return p.Conn.Prepare(query)
}

func (p passConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := p.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	if opts.Isolation != 0 || opts.ReadOnly {
		return nil, fmt.Errorf("sqlstore driver wrapper: the engine's driver takes no transaction options")
	}
	return p.Conn.Begin() //nolint:staticcheck // the only way for a driver without BeginTx
}

func (p passConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if q, ok := p.Conn.(driver.QueryerContext); ok {
		return q.QueryContext(ctx, query, args)
	}
	return nil, driver.ErrSkip // database/sql prepares, then runs the statement
}

func (p passConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if e, ok := p.Conn.(driver.ExecerContext); ok {
		return e.ExecContext(ctx, query, args)
	}
	return nil, driver.ErrSkip
}

func (p passConn) Ping(ctx context.Context) error {
	if c, ok := p.Conn.(driver.Pinger); ok {
		return c.Ping(ctx)
	}
	return nil
}

func (p passConn) ResetSession(ctx context.Context) error {
	if r, ok := p.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (p passConn) IsValid() bool {
	if v, ok := p.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (p passConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := p.Conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip // database/sql's default conversion
}
