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
	"errors"
	"fmt"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

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
	db := &DB{DB: core, Catalog: catalogstore.Catalog{DB: core}}
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
