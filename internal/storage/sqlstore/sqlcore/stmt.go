package sqlcore

import (
	"context"
	"errors"
	"sync"

	"github.com/jmoiron/sqlx"
)

// Prepared statements for the hot paths (cart reads and writes). SQLite
// parses SQL text on every call that is not prepared, which was a third of
// a cart add's CPU. A statement here is prepared once per pool (database/sql
// then prepares it lazily on each connection it runs on and keeps it) and
// reused; inside a transaction, tx.Stmtx binds it to the transaction's
// connection, reusing that connection's prepared copy. On PostgreSQL pgx
// caches prepared statements itself; this changes little there.

type stmtKey struct {
	write bool
	query string
}

type stmtCache struct {
	mu          sync.RWMutex
	m           map[stmtKey]*sqlx.Stmt
	writesReady bool // the cart's write statements are prepared
}

// stmt returns the prepared statement for query ("?" placeholders, rebound
// here) on the read or the write pool, preparing it on first use.
func (db *DB) Stmt(ctx context.Context, write bool, query string) (*sqlx.Stmt, error) {
	k := stmtKey{write, query}
	c := &db.stmts
	c.mu.RLock()
	st := c.m[k]
	c.mu.RUnlock()
	if st != nil {
		return st, nil
	}
	pool := db.Read
	if write {
		pool = db.Write
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.m[k]; st != nil {
		return st, nil
	}
	st, err := pool.PreparexContext(ctx, pool.Rebind(query))
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[stmtKey]*sqlx.Stmt{}
	}
	c.m[k] = st
	return st, nil
}

// txStmt returns the write pool's prepared statement for query, bound to
// tx. It never prepares on the pool: inside a transaction on SQLite the
// pool's only connection is the transaction's, so that would wait forever.
// A statement not prepared beforehand (prepareWrites) is prepared on tx
// alone and closed with it.
func (db *DB) TxStmt(ctx context.Context, tx *sqlx.Tx, query string) (*sqlx.Stmt, error) {
	c := &db.stmts
	c.mu.RLock()
	st := c.m[stmtKey{true, query}]
	c.mu.RUnlock()
	if st == nil {
		return tx.PreparexContext(ctx, tx.Rebind(query))
	}
	return tx.StmtxContext(ctx, st), nil
}

// prepareWrites prepares queries on the write pool, outside any
// transaction, once they all succeed.
func (db *DB) PrepareWrites(ctx context.Context, queries ...string) error {
	c := &db.stmts
	c.mu.RLock()
	done := c.writesReady
	c.mu.RUnlock()
	if done {
		return nil
	}
	for _, q := range queries {
		if _, err := db.Stmt(ctx, true, q); err != nil {
			return err
		}
	}
	c.mu.Lock()
	c.writesReady = true
	c.mu.Unlock()
	return nil
}

func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, st := range c.m {
		errs = append(errs, st.Close())
	}
	c.m = nil
	return errors.Join(errs...)
}
