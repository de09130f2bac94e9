package sqlcore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync/atomic"

	"github.com/jmoiron/sqlx"
)

// Counting the statements a store sends, for the query budgets of the hot
// paths (internal/server/budget_test.go). A store opened with
// sqlstore.OpenCounted talks to its database through a thin database/sql
// driver wrapper that adds one to a Counter per statement; a store opened
// with Open uses the engine's driver itself, so counting costs nothing
// unless asked for.
//
// The wrapper sits under database/sql, so it sees every statement whatever
// helper sent it (sqlx, a prepared statement, a transaction, goose): the
// count cannot miss a query a new code path adds.

// QueryCount is what a Counter has seen.
type QueryCount struct {
	// Statements is every query and exec sent, directly or through a
	// prepared statement, in a transaction or not. Preparing is not
	// counted: database/sql prepares a cached statement again on each
	// connection it lands on, which depends on the pool, not on the code.
	Statements int64
	// Transactions is every transaction begun.
	Transactions int64
}

// Sub is the difference between two snapshots.
func (q QueryCount) Sub(before QueryCount) QueryCount {
	return QueryCount{Statements: q.Statements - before.Statements, Transactions: q.Transactions - before.Transactions}
}

// Counter counts a store's statements; safe for concurrent use. It counts
// every statement of the store, so a test reading it per request runs one
// request at a time on a server whose background loops are not started.
type Counter struct {
	statements   atomic.Int64
	transactions atomic.Int64
	trace        atomic.Pointer[func(query string)]
}

// Trace calls fn with the SQL of every statement counted from now on, until
// Trace(nil): to name the statements behind a count. fn must be safe for
// concurrent use.
func (c *Counter) Trace(fn func(query string)) {
	if fn == nil {
		c.trace.Store(nil)
		return
	}
	c.trace.Store(&fn)
}

func (c *Counter) statement(query string) {
	c.statements.Add(1)
	if fn := c.trace.Load(); fn != nil {
		(*fn)(query)
	}
}

// Count returns what the counter has seen so far.
func (c *Counter) Count() QueryCount {
	return QueryCount{Statements: c.statements.Load(), Transactions: c.transactions.Load()}
}

// openPool opens a database/sql pool on the registered driver name, with
// per-connection kept statements when keepStmts (SQLite: stmtcache.go),
// through the counting wrapper when c is not nil, and always through the
// health wrapper, which classifies outages into h (health.go).
func openPool(driverName, src string, c *Counter, h *health, keepStmts bool) (*sqlx.DB, error) {
	// sql.Open connects to nothing: it only finds the registered driver.
	probe, err := sql.Open(driverName, src)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	probe.Close()
	var base driver.Connector = dsnConnector{drv, src}
	if dc, ok := drv.(driver.DriverContext); ok {
		if base, err = dc.OpenConnector(src); err != nil {
			return nil, err
		}
	}
	if keepStmts {
		base = stmtCacheConnector{base}
	}
	if c != nil {
		base = countConnector{base, c}
	}
	base = healthConnector{base, h}
	return sqlx.NewDb(sql.OpenDB(base), driverName), nil
}

// dsnConnector is a driver.Connector for a driver without OpenConnector.
type dsnConnector struct {
	drv driver.Driver
	dsn string
}

func (d dsnConnector) Connect(context.Context) (driver.Conn, error) { return d.drv.Open(d.dsn) }
func (d dsnConnector) Driver() driver.Driver                        { return d.drv }

type countConnector struct {
	base driver.Connector
	c    *Counter
}

func (cc countConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := cc.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countConn{passConn{conn}, cc.c}, nil
}

func (cc countConnector) Driver() driver.Driver { return cc.base.Driver() }

// countConn passes every call to the engine's connection (passConn),
// counting statements and transactions.
type countConn struct {
	passConn
	c *Counter
}

func (cn *countConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := cn.passConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &countStmt{st, cn, query}, nil
}

func (cn *countConn) Prepare(query string) (driver.Stmt, error) {
	return cn.PrepareContext(context.Background(), query)
}

func (cn *countConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	cn.c.transactions.Add(1)
	return cn.passConn.BeginTx(ctx, opts)
}

func (cn *countConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if _, ok := cn.Conn.(driver.QueryerContext); !ok {
		return nil, driver.ErrSkip // database/sql prepares, then runs the statement (counted there)
	}
	cn.c.statement(query)
	return cn.passConn.QueryContext(ctx, query, args)
}

func (cn *countConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if _, ok := cn.Conn.(driver.ExecerContext); !ok {
		return nil, driver.ErrSkip
	}
	cn.c.statement(query)
	return cn.passConn.ExecContext(ctx, query, args)
}

// countStmt is a prepared statement whose runs are counted.
type countStmt struct {
	driver.Stmt
	cn    *countConn
	query string
}

var (
	_ driver.StmtQueryContext  = (*countStmt)(nil)
	_ driver.StmtExecContext   = (*countStmt)(nil)
	_ driver.NamedValueChecker = (*countStmt)(nil)
)

func (s *countStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.cn.c.statement(s.query)
	if q, ok := s.Stmt.(driver.StmtQueryContext); ok {
		return q.QueryContext(ctx, args)
	}
	vals, err := plainValues(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.Query(vals) //nolint:staticcheck // the only way for a driver without QueryContext
}

func (s *countStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.cn.c.statement(s.query)
	if e, ok := s.Stmt.(driver.StmtExecContext); ok {
		return e.ExecContext(ctx, args)
	}
	vals, err := plainValues(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.Exec(vals) //nolint:staticcheck // the only way for a driver without ExecContext
}

func (s *countStmt) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := s.Stmt.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return s.cn.CheckNamedValue(nv)
}

func plainValues(args []driver.NamedValue) ([]driver.Value, error) {
	vals := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, fmt.Errorf("count driver: the engine's driver takes no named parameters (%s)", a.Name)
		}
		vals[i] = a.Value
	}
	return vals, nil
}
