// Package sqlstore is the store the server opens, on SQLite or PostgreSQL:
// it owns the schema (migrations/, written once and rendered per engine by
// migrate.go) and composes the connection core (sqlcore) with the
// capability stores. The big capabilities have a package
// each (catalogstore, orderstore); the smaller ones (accounts, carts,
// reviews, contact, content pages, currencies, rate limits, the mail
// outbox, settings, …) are methods of DB here. DB embeds them all, so one *DB satisfies every
// capability's Store interface (ports.go) through method promotion.
//
// Almost all SQL is portable between the two engines and is written once
// with "?" placeholders, rebound per engine by sqlx; the few places that
// differ (DDL, locking, search) go through the engine value. Public methods
// own their transaction; private helpers take a *sqlx.Tx.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"syscall"
	"time"

	"github.com/pressly/goose/v3"

	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/sqlstore/orderstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Engine names.
const (
	SQLite   = sqlcore.SQLite
	Postgres = sqlcore.Postgres
)

// DB is an open store: the connection core and every capability's methods.
type DB struct {
	*sqlcore.DB
	catalogstore.Catalog
	orderstore.Orders

	carts cartGroup // SQLite: concurrent cart writes share one commit (cart_group.go)
}

// Open connects to the store named by dsn: "sqlite:PATH" (or a path ending in
// .db) or "postgres://…". It does not migrate; call Migrate.
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	return open(ctx, dsn, log, nil, nil)
}

// OpenCounted opens the store like Open, counting every statement it sends
// in c. For tests and measurements; a server never opens one.
func OpenCounted(ctx context.Context, dsn string, log *slog.Logger, c *Counter) (*DB, error) {
	if c == nil {
		return nil, fmt.Errorf("open counted store: no counter")
	}
	return open(ctx, dsn, log, c, nil)
}

// OpenFaulty opens the store like Open with f injecting errors into its
// connections. For tests; a server never opens one.
func OpenFaulty(ctx context.Context, dsn string, log *slog.Logger, f *Faults) (*DB, error) {
	if f == nil {
		return nil, errors.New("open faulty store: no faults")
	}
	return open(ctx, dsn, log, nil, f)
}

func open(ctx context.Context, dsn string, log *slog.Logger, c *Counter, f *Faults) (*DB, error) {
	core, err := sqlcore.Open(ctx, dsn, log, c, f)
	if err != nil {
		return nil, err
	}
	db := &DB{DB: core, Catalog: catalogstore.Catalog{DB: core, Facets: new(catalogstore.FacetIndex)}}
	db.Orders = orderstore.New(core, &db.Catalog, db)
	return db, nil
}

// Close closes both pools.
func (db *DB) Close() error {
	db.carts.close()
	return db.DB.Close()
}

func (db *DB) provider() (*goose.Provider, error) {
	dir, err := engineMigrations(db.Engine)
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	// A lock, so several instances starting at once apply each migration
	// exactly once.
	opts := []goose.ProviderOption{goose.WithSessionLocker(&fileLocker{path: db.Path + ".migrate-lock"})}
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
		opts = []goose.ProviderOption{goose.WithSessionLocker(schemaLocker{})}
	}
	return goose.NewProvider(dialect, db.Write.DB, dir, opts...)
}

// schemaLocker is the migrations' lock on PostgreSQL: a session advisory
// lock keyed by the schema the store lives in, so instances sharing a
// schema migrate one at a time while stores in other schemas of the same
// database (other shops, parallel tests) never wait for each other. It
// waits in the server (pg_advisory_lock, cancelled with ctx) rather than
// polling: the next instance starts the moment the first is done, where
// goose's own locker, one key for the whole database, retries every 5 s.
type schemaLocker struct{}

func (schemaLocker) SessionLock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended('vitrine-migrate:' || current_schema(), 0))`)
	return err
}

func (schemaLocker) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtextextended('vitrine-migrate:' || current_schema(), 0))`)
	return err
}

// fileLocker is the migrations' lock on SQLite: an exclusive flock on a
// file beside the database, held while one process migrates. SQLite's own
// write lock does not serialize migrators: goose reads the version, then
// applies each migration in a transaction of its own, so a second process
// would apply the first migration again. The lock is on a file of its own
// because closing any descriptor of the database file would drop the
// POSIX locks SQLite holds on it.
type fileLocker struct {
	path string
	f    *os.File
}

func (l *fileLocker) SessionLock(ctx context.Context, _ *sql.Conn) error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			l.f = f
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return fmt.Errorf("migration lock: %w", err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (l *fileLocker) SessionUnlock(context.Context, *sql.Conn) error {
	if l.f == nil {
		return nil
	}
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
	return err
}

// Migrate applies pending migrations. Concurrent migrators take turns: on
// SQLite a lock file beside the database (fileLocker), on PostgreSQL an
// advisory lock of the schema (schemaLocker).
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
		if err := db.MigrationApplied(ctx, r.Source.Version); err != nil {
			return err
		}
	}
	return db.BuildSearchIndexIfEmpty(ctx)
}

// Ready reports whether the store answers, takes writes after a write
// failed for a full disk, and has every migration applied.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.Ping(ctx); err != nil {
		return err
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
