// Package sqlstore implements the capability stores on SQLite and
// PostgreSQL. Almost all SQL is portable between the two and is written once
// with "?" placeholders, rebound per engine by sqlx; the few places that
// differ (DDL, locking, search) go through the engine value. Public methods
// own their transaction; private helpers take a *sqlx.Tx.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations
var migrations embed.FS

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is an open store. On SQLite it keeps two pools: one connection that
// writes (SQLite allows one writer at a time; queueing writers in Go is
// cheaper than letting them spin on SQLITE_BUSY) and several readers, which
// WAL lets run beside the writer. On PostgreSQL both are the same pool.
type DB struct {
	Engine string
	Read   *sqlx.DB
	Write  *sqlx.DB
	Log    *slog.Logger
	now    func() time.Time

	stmts  stmtCache // prepared statements, by pool and SQL text (stmt.go)
	health health    // outages its connections have seen (health.go)
	carts  cartGroup // SQLite: concurrent cart writes share one commit (cart_group.go)
}

// Open connects to the store named by dsn: "sqlite:PATH" (or a path ending in
// .db) or "postgres://…". It does not migrate; call Migrate.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	return open(ctx, dsn, log, nil, nil)
}

// open is Open, counting statements in c when it is not nil (count.go) and
// injecting f's errors when it is not nil (health.go).
func open(ctx context.Context, dsn string, log *slog.Logger, c *Counter, f *Faults) (*DB, error) {
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
	db.carts.close()
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

func (db *DB) provider() (*goose.Provider, error) {
	dir, err := fs.Sub(migrations, "migrations/"+db.Engine)
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
		// An advisory lock, so several instances starting at once apply
		// each migration exactly once.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	return goose.NewProvider(dialect, db.Write.DB, dir, opts...)
}

// Migrate applies pending migrations. On SQLite the single writer
// connection and the database's own write lock serialize concurrent
// migrators; on PostgreSQL an advisory lock does.
func (db *DB) Migrate(ctx context.Context) error {
	p, err := db.provider()
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range res {
		db.Log.Info("migration applied", "version", r.Source.Version, "path", r.Source.Path, "duration", r.Duration)
		if r.Source.Version == richTextVersion {
			start := time.Now()
			n, err := db.sanitizeStoredRichText(ctx)
			if err != nil {
				return err
			}
			db.Log.Info("stored rich text sanitized", "changed", n, "duration", time.Since(start))
		}
	}
	// The search index holds text folded in Go, so SQL cannot fill it:
	// index existing products once, when the index is empty but the store
	// has published, not hidden products (right after the search migration).
	need, err := db.searchIndexNeedsBuild(ctx)
	if err != nil {
		return fmt.Errorf("check search index: %w", err)
	}
	if need {
		start := time.Now()
		n, err := db.ReindexSearch(ctx)
		if err != nil {
			return err
		}
		db.Log.Info("search index built", "products", n, "duration", time.Since(start))
	}
	return nil
}

// Ready reports whether the store answers, takes writes after a write
// failed for a full disk (health.go), and has every migration applied.
func (db *DB) Ready(ctx context.Context) error {
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
	p, err := db.provider()
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return err
	}
	if pending {
		return errors.New("migrations pending")
	}
	return nil
}

// tx runs fn in a write transaction, retrying a few times when SQLite or
// PostgreSQL report a transient conflict (busy, serialization failure).
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

// uniqueViolation reports a unique-constraint failure on either engine.
func uniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// URIPath escapes what a file: URI gives a meaning to, so a path holding
// '#' or '?' (a subtest's temp dir "…sqlite#01…") names its own file and
// not the shorter one before the character.
func URIPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
