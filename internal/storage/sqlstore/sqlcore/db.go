// Package sqlcore is the connection core every SQL store shares: the pools
// (one writer and several readers on SQLite, one pool on PostgreSQL), the
// engine, the clock, prepared statements, outage classification and fault
// injection (health.go), statement counting (count.go), the write
// transaction with its retries, and what the capability stores
// (catalogstore, orderstore, …) have in common: small SQL helpers and the
// two writes every store makes in its own transaction (RecordChange,
// EnqueueMailTx). The schema and its migrations belong to sqlstore.
package sqlcore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/jmoiron/sqlx"
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is an open store. On SQLite it keeps two pools: one connection that
// writes (SQLite allows one writer at a time; queueing writers in Go is
// cheaper than letting them spin on SQLITE_BUSY) and several readers, which
// WAL lets run beside the writer. On PostgreSQL both are the same pool.
//
// Its fields are for the stores built on it; they never change after Open.
type DB struct {
	Engine string
	Read   *sqlx.DB // the pool reads go to
	Write  *sqlx.DB // the pool writes go to: the same as Read on PostgreSQL
	Log    *slog.Logger
	Path   string // the SQLite database file; "" on PostgreSQL
	now    func() time.Time

	stmts  stmtCache // prepared statements, by pool and SQL text (stmt.go)
	health health    // outages its connections have seen (health.go)
}

// Open connects to the store named by dsn: "sqlite:PATH" (or a path ending in
// .db) or "postgres://…". It counts statements in c when c is not nil
// (count.go) and injects f's errors when f is not nil (health.go).
func Open(ctx context.Context, dsn string, log *slog.Logger, c *Counter, f *Faults) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db := &DB{Log: log, now: func() time.Time { return time.Now().UTC() }}
	db.health.faults = f
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		db.Engine = Postgres
		pool, err := openPool("pgx", dsn, c, &db.health, false)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		n := DefaultPostgresConns()
		pool.SetMaxOpenConns(n)
		pool.SetMaxIdleConns(n)
		pool.SetConnMaxIdleTime(5 * time.Minute)
		db.Read, db.Write = pool, pool
	default:
		db.Engine = SQLite
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			return nil, errors.New("sqlite dsn has no path")
		}
		db.Path = path
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create database folder: %w", err)
			}
		}
		var err error
		if db.Write, err = openSQLite(path, true, c, &db.health); err != nil {
			return nil, err
		}
		if db.Read, err = openSQLite(path, false, c, &db.health); err != nil {
			db.Write.Close()
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.Write.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s store: %w", db.Engine, err)
	}
	return db, nil
}

func openSQLite(path string, writer bool, c *Counter, h *health) (*sqlx.DB, error) {
	q := url.Values{}
	// WAL: readers never block the writer and the writer never blocks readers.
	q.Add("_pragma", "journal_mode(WAL)")
	// Wait up to 5 s for a lock held by another process (an import running
	// beside the server) instead of failing at once with SQLITE_BUSY.
	q.Add("_pragma", "busy_timeout(5000)")
	// Enforce REFERENCES clauses; SQLite leaves them off by default.
	q.Add("_pragma", "foreign_keys(1)")
	// FULL syncs the WAL on every commit: a committed order survives a power
	// cut, not only a crash of the process. Catalogue writes are rare.
	q.Add("_pragma", "synchronous(FULL)")
	// Keep temporary b-trees (sorts, DISTINCT) in memory.
	q.Add("_pragma", "temp_store(MEMORY)")
	if writer {
		// Take the write lock at BEGIN, so a transaction that reads then
		// writes never fails half-way on a lock upgrade.
		q.Set("_txlock", "immediate")
	}
	d, err := openPool("sqlite", "file:"+URIPath(path)+"?"+q.Encode(), c, h, true)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	if writer {
		d.SetMaxOpenConns(1)
	} else {
		n := max(2, runtime.GOMAXPROCS(0)*2)
		d.SetMaxOpenConns(n)
		d.SetMaxIdleConns(n)
	}
	d.SetConnMaxIdleTime(0)
	d.SetConnMaxLifetime(0)
	return d, nil
}

// RelaxDurability lets a commit return before its data reaches the disk:
// SQLite's synchronous=OFF on the writer connection. For tests only, whose
// stores are thrown away: a crash of the process still loses nothing, a
// crash of the machine may lose the last commits. It roughly halves the
// time a test takes to seed a shop. PostgreSQL's tests get the same
// through their DSN (synchronous_commit=off, storetest.DSN); here it is a
// no-op.
func (db *DB) RelaxDurability(ctx context.Context) error {
	if db.Engine != SQLite {
		return nil
	}
	// The writer pool holds one connection for the store's life
	// (openSQLite), so the pragma holds for every write; a connection
	// replaced after an outage is simply durable again.
	_, err := db.Write.ExecContext(ctx, `PRAGMA synchronous = OFF`)
	return err
}

// DefaultPostgresConns is the PostgreSQL pool's size unless SetPool
// changes it: four connections per CPU, at least 4.
func DefaultPostgresConns() int { return max(4, runtime.GOMAXPROCS(0)*4) }

// SetPool sizes the PostgreSQL pool: at most maxOpen connections, of which
// maxIdle are kept open between requests (0 keeps the default: maxIdle 0
// is maxOpen). Several instances on one database share PostgreSQL's
// max_connections: instances × maxOpen must stay below it. SQLite's pools
// are not changed (one writer; readers per CPU).
func (db *DB) SetPool(maxOpen, maxIdle int) error {
	if maxOpen < 0 || maxIdle < 0 {
		return fmt.Errorf("pool size %d/%d: use 0 (default) or more", maxOpen, maxIdle)
	}
	if db.Engine != Postgres {
		return nil
	}
	if maxOpen == 0 {
		maxOpen = DefaultPostgresConns()
	}
	if maxIdle == 0 || maxIdle > maxOpen {
		maxIdle = maxOpen
	}
	db.Write.SetMaxOpenConns(maxOpen)
	db.Write.SetMaxIdleConns(maxIdle)
	return nil
}

// Close closes both pools.
func (db *DB) Close() error {
	var errs []error
	errs = append(errs, db.stmts.close())
	if db.Write != nil {
		errs = append(errs, db.Write.Close())
	}
	if db.Read != nil && db.Read != db.Write {
		errs = append(errs, db.Read.Close())
	}
	return errors.Join(errs...)
}

// SetClock replaces the clock (tests).
func (db *DB) SetClock(now func() time.Time) { db.now = now }

// Now reads the store's clock: the time its writes are stamped with and
// evaluate the on-sale state at.
func (db *DB) Now() time.Time { return db.now() }

// Stats reports the read and write pools' statistics (for /metrics).
func (db *DB) Stats() (read, write sql.DBStats) { return db.Read.Stats(), db.Write.Stats() }

// Ping reports whether both pools answer and take writes again after a
// write failed for a full disk (health.go): it then tries a write of its
// own.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.Read.PingContext(ctx); err != nil {
		return err
	}
	if db.Write != db.Read {
		if err := db.Write.PingContext(ctx); err != nil {
			return err
		}
	}
	if db.health.full.Load() {
		if err := db.readyProbe(ctx); err != nil {
			return err
		}
		db.health.full.Store(false)
	}
	return nil
}

// URIPath escapes what a file: URI gives a meaning to, so a path holding
// '#' or '?' (a subtest's temp dir "…sqlite#01…") names its own file and
// not the shorter one before the character.
func URIPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
