package sqlcore

import (
	"container/list"
	"context"
	"database/sql/driver"
	"reflect"
	"strings"
)

// SQLite's driver compiles every query it is given (sqlite3_prepare_v2)
// and throws the program away after one run; database/sql keeps no
// statements for db.Query either. On a product page SQL parsing was a
// third of the page loader's time (36 statements, the same texts on every
// page). So each SQLite connection keeps its compiled read statements:
// stmtCacheConn runs a query it has seen through the statement it prepared
// the first time (the driver resets it after each run). PostgreSQL's
// driver (pgx) keeps its own per-connection statement cache already.
//
// Only reads (QueryContext) of one statement are kept; writes and scripts
// go through unchanged. A statement whose rows are still open on the
// connection (a query run again while iterating its own results, in a
// transaction) is not reused: that run prepares a statement of its own.
// SQLite re-prepares a kept statement by itself after a schema change
// (SQLITE_SCHEMA), so migrations need nothing.

// stmtCacheSize is how many statements a connection keeps, least recently
// used dropped first. Queries with IN (?, ?, …) lists make one text per
// list length, so the bound is well above the few dozen distinct texts.
const stmtCacheSize = 256

type stmtCacheConnector struct{ base driver.Connector }

func (c stmtCacheConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newStmtCacheConn(conn), nil
}

func (c stmtCacheConnector) Driver() driver.Driver { return c.base.Driver() }

type stmtCacheConn struct {
	passConn
	lru     *list.List // of *keptStmt, front most recent
	byQuery map[string]*list.Element
}

type keptStmt struct {
	query string
	stmt  driver.Stmt
	busy  bool // its rows are open
}

func newStmtCacheConn(c driver.Conn) *stmtCacheConn {
	return &stmtCacheConn{passConn: passConn{c}, lru: list.New(), byQuery: map[string]*list.Element{}}
}

// QueryContext runs query through its kept statement. database/sql calls a
// connection's methods, and its rows' Close, one at a time, so the fields
// need no lock.
func (cn *stmtCacheConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := cn.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	if strings.Contains(query, ";") { // a script, or a literal with a semicolon: not worth telling apart
		return q.QueryContext(ctx, query, args)
	}
	var k *keptStmt
	if el, ok := cn.byQuery[query]; ok {
		k = el.Value.(*keptStmt)
		if k.busy {
			return q.QueryContext(ctx, query, args)
		}
		cn.lru.MoveToFront(el)
	} else {
		st, err := cn.PrepareContext(ctx, query)
		if err != nil {
			return nil, err
		}
		k = &keptStmt{query: query, stmt: st}
		cn.byQuery[query] = cn.lru.PushFront(k)
		cn.evict()
	}
	sq, ok := k.stmt.(driver.StmtQueryContext)
	if !ok {
		return q.QueryContext(ctx, query, args)
	}
	rows, err := sq.QueryContext(ctx, args)
	if err != nil {
		// The statement may be left in any state; prepare afresh next time.
		cn.drop(k)
		return nil, err
	}
	k.busy = true
	return &keptRows{Rows: rows, k: k}, nil
}

// evict closes the least recently used statements past the bound, never
// one whose rows are open.
func (cn *stmtCacheConn) evict() {
	for el := cn.lru.Back(); el != nil && cn.lru.Len() > stmtCacheSize; {
		prev := el.Prev()
		if k := el.Value.(*keptStmt); !k.busy {
			cn.drop(k)
		}
		el = prev
	}
}

// drop closes a statement that has no open rows and forgets it.
func (cn *stmtCacheConn) drop(k *keptStmt) {
	if el, ok := cn.byQuery[k.query]; ok && el.Value.(*keptStmt) == k {
		cn.lru.Remove(el)
		delete(cn.byQuery, k.query)
	}
	_ = k.stmt.Close()
}

func (cn *stmtCacheConn) Close() error {
	for el := cn.lru.Front(); el != nil; el = el.Next() {
		_ = el.Value.(*keptStmt).stmt.Close()
	}
	cn.lru.Init()
	clear(cn.byQuery)
	return cn.Conn.Close()
}

// keptRows frees its statement for the next run when closed, and passes
// on what the driver's rows tell of their columns.
type keptRows struct {
	driver.Rows
	k *keptStmt
}

func (r *keptRows) Close() error {
	err := r.Rows.Close()
	r.k.busy = false
	return err
}

var (
	_ driver.RowsColumnTypeDatabaseTypeName = (*keptRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*keptRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*keptRows)(nil)
	_ driver.RowsColumnTypeLength           = (*keptRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*keptRows)(nil)
)

func (r *keptRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *keptRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *keptRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *keptRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *keptRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
