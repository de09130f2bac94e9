package sqlstore

import (
	"context"
	"errors"
	"sync"

	"github.com/jmoiron/sqlx"
)

// Group commit of cart writes on SQLite.
//
// SQLite has one writer, and with synchronous=FULL every commit waits for
// an fsync of the WAL. One transaction per cart add capped adds at a few
// hundred a second and queued the rest behind the writer. Here concurrent
// cart mutations are coalesced: a single goroutine takes every mutation
// waiting, runs them one after another in ONE write transaction, each inside
// its own SAVEPOINT, and commits once. Each mutation still re-reads and
// checks the rows it changes (it sees the mutations before it in the batch,
// exactly as it would have seen their commits), and one that fails is rolled
// back to its savepoint without touching the others. Nothing is reported to a
// caller before the commit that holds its change succeeded, so durability is
// the same as before (FULL), only shared by the batch.
//
// On PostgreSQL concurrent transactions run side by side (row locks
// serialize writes to one session), so each mutation keeps its own
// transaction there.

// maxCartBatch bounds how many mutations share one commit.
const maxCartBatch = 128

type cartOp struct {
	ctx  context.Context
	run  func(ctx context.Context, tx *sqlx.Tx) error
	err  error
	done chan struct{}
}

type cartGroup struct {
	once   sync.Once
	ops    chan *cartOp
	quit   chan struct{}
	closed sync.Once
}

var errStoreClosed = errors.New("store closed")

// cartWrite runs fn as one cart mutation: in its own transaction on
// PostgreSQL, in a shared, savepointed one on SQLite. fn may run more than
// once (a batch is retried whole after a transient error); it must not keep
// state from a failed run.
func (db *DB) cartWrite(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) error {
	if err := db.PrepareWrites(ctx, cartWriteSQL...); err != nil {
		return err
	}
	if db.Engine != SQLite {
		return db.Tx(ctx, func(tx *sqlx.Tx) error { return fn(ctx, tx) })
	}
	g := &db.carts
	g.once.Do(func() {
		g.ops = make(chan *cartOp, 4*maxCartBatch)
		if g.quit == nil {
			g.quit = make(chan struct{})
		}
		go db.cartLoop()
	})
	op := &cartOp{ctx: ctx, run: fn, done: make(chan struct{})}
	select {
	case g.ops <- op:
	case <-ctx.Done():
		return ctx.Err()
	case <-g.quit:
		return errStoreClosed
	}
	// Once queued the mutation runs (or is skipped because its context
	// ended before its turn); wait for the commit either way, so a caller
	// never reports a write that later commits, or the other way round.
	<-op.done
	return op.err
}

func (g *cartGroup) close() {
	g.closed.Do(func() {
		g.once.Do(func() {}) // no loop starts after close
		if g.quit == nil {
			g.quit = make(chan struct{})
		}
		close(g.quit)
	})
}

func (db *DB) cartLoop() {
	g := &db.carts
	batch := make([]*cartOp, 0, maxCartBatch)
	for {
		select {
		case op := <-g.ops:
			batch = append(batch[:0], op)
		case <-g.quit:
			for {
				select {
				case op := <-g.ops:
					op.err = errStoreClosed
					close(op.done)
				default:
					return
				}
			}
		}
	drain:
		for len(batch) < maxCartBatch {
			select {
			case op := <-g.ops:
				batch = append(batch, op)
			default:
				break drain
			}
		}
		db.runCartBatch(batch)
		for _, op := range batch {
			close(op.done)
		}
		clear(batch)
	}
}

// runCartBatch runs ops in one transaction, each in a savepoint.
func (db *DB) runCartBatch(ops []*cartOp) {
	err := db.Tx(context.Background(), func(tx *sqlx.Tx) error {
		for _, op := range ops {
			op.err = nil
			if err := op.ctx.Err(); err != nil {
				op.err = err
				continue
			}
			if _, err := tx.Exec(`SAVEPOINT cart_op`); err != nil {
				return err
			}
			// Not the request's context: cancelling a statement would
			// interrupt the shared transaction, not only this mutation.
			if err := op.run(context.WithoutCancel(op.ctx), tx); err != nil {
				op.err = err
				if _, err := tx.Exec(`ROLLBACK TO cart_op`); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(`RELEASE cart_op`); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for _, op := range ops {
			if op.err == nil {
				op.err = err
			}
		}
	}
}
