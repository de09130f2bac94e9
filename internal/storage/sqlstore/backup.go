package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/backup"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Backups (internal/backup): what a backup reads of the store, SQLite's
// snapshot, and the scheduled backups' queue (backup_runs, a lease queue).

var (
	_ backup.Store  = (*DB)(nil)
	_ backup.Target = (*DB)(nil)
	_ backup.Queue  = (*DB)(nil)
)

// BackupEngine is the store's engine.
func (db *DB) BackupEngine() string { return db.Engine }

// BackupSchema is the PostgreSQL schema the store lives in: the first of
// its search_path, existing or not ("" on SQLite).
func (db *DB) BackupSchema(ctx context.Context) (string, error) {
	if db.Engine != Postgres {
		return "", nil
	}
	var s string
	err := db.Read.GetContext(ctx, &s, `SELECT COALESCE(current_schema(),
		trim(both '" ' from split_part(current_setting('search_path'), ',', 1)))`)
	if err != nil {
		return "", fmt.Errorf("current schema: %w", err)
	}
	return s, nil
}

// SchemaVersion is the newest migration applied (0: none, or no table of
// versions yet).
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	have, err := db.tables(ctx)
	if err != nil {
		return 0, err
	}
	if !have["goose_db_version"] {
		return 0, nil
	}
	var v int64
	if err := db.Read.GetContext(ctx, &v, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}

// tables are the store's tables, by name.
func (db *DB) tables(ctx context.Context) (map[string]bool, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if db.Engine == Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	var names []string
	if err := db.Read.SelectContext(ctx, &names, q); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	have := make(map[string]bool, len(names))
	for _, n := range names {
		have[n] = true
	}
	return have, nil
}

// BackupContents counts the shop's data; a table the store lacks counts
// none.
func (db *DB) BackupContents(ctx context.Context) (backup.Contents, error) {
	var c backup.Contents
	have, err := db.tables(ctx)
	if err != nil {
		return c, err
	}
	for _, q := range []struct {
		table, sql string
		into       []*int64
	}{
		{"products", `SELECT COUNT(*) FROM products`, []*int64{&c.Products}},
		{"orders", `SELECT COUNT(*) FROM orders`, []*int64{&c.Orders}},
		{"users", `SELECT COUNT(*) FROM users`, []*int64{&c.Users}},
		{"reviews", `SELECT COUNT(*) FROM reviews`, []*int64{&c.Reviews}},
		{"coupons", `SELECT COUNT(*) FROM coupons`, []*int64{&c.Coupons}},
		{"content_pages", `SELECT COUNT(*) FROM content_pages`, []*int64{&c.Pages}},
		{"contact_submissions", `SELECT COUNT(*) FROM contact_submissions`, []*int64{&c.ContactMessages}},
		{"media_files", `SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM media_files`, []*int64{&c.MediaFiles, &c.MediaBytes}},
		{"contact_files", `SELECT COUNT(content), COALESCE(SUM(LENGTH(content)), 0) FROM contact_files`, []*int64{&c.ContactFiles, &c.ContactFileBytes}},
	} {
		if !have[q.table] {
			continue
		}
		dest := make([]any, len(q.into))
		for i := range q.into {
			dest[i] = q.into[i]
		}
		if err := db.Read.QueryRowContext(ctx, q.sql).Scan(dest...); err != nil {
			return c, fmt.Errorf("count %s: %w", q.table, err)
		}
	}
	return c, nil
}

// SnapshotSQLite writes a consistent copy of the SQLite store to path with
// VACUUM INTO, on a reader connection: it reads one snapshot of the
// database (WAL) while the writer goes on committing, and writes a
// compacted file with no WAL of its own.
func (db *DB) SnapshotSQLite(ctx context.Context, path string) error {
	if db.Engine != SQLite {
		return errors.New("snapshot: not a SQLite store")
	}
	_, err := db.Read.ExecContext(ctx, `VACUUM INTO ?`, path)
	return err
}

// CheckIntegrity runs SQLite's integrity check (nothing on PostgreSQL).
func (db *DB) CheckIntegrity(ctx context.Context) error {
	if db.Engine != SQLite {
		return nil
	}
	var problems []string
	if err := db.Read.SelectContext(ctx, &problems, `PRAGMA integrity_check`); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		return fmt.Errorf("integrity check: %v", problems)
	}
	return nil
}

// MigrateTo applies the migrations up to version and no further (tests
// and fixtures: a store as an older release left it).
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	p, err := db.provider()
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	res, err := p.UpTo(ctx, version)
	if err != nil {
		return fmt.Errorf("apply migrations to %d: %w", version, err)
	}
	for _, r := range res {
		if err := db.MigrationApplied(ctx, r.Source.Version); err != nil {
			return err
		}
	}
	return nil
}

// backupQueue is the scheduled backups as a lease queue (claimDue).
var backupQueue = leaseQueue{name: "backups", table: "backup_runs", done: "done_at",
	returning: `id, slot_key, attempts`}

type backupRow struct {
	ID       int64 `db:"id"`
	Slot     int64 `db:"slot_key"`
	Attempts int   `db:"attempts"`
}

// QueueBackup records the slot once (see backup.Queue).
func (db *DB) QueueBackup(ctx context.Context, slot, now time.Time) error {
	return db.Exec(ctx, `INSERT INTO backup_runs (slot_key, created_at, next_attempt_at) VALUES (?, ?, ?)
		ON CONFLICT (slot_key) DO NOTHING`, slot.Unix(), now.Unix(), slot.Unix())
}

// ClaimBackup claims the oldest due slot (see backup.Queue).
func (db *DB) ClaimBackup(ctx context.Context, now time.Time, lease time.Duration) (backup.Run, bool, error) {
	runs, err := claimDue(ctx, db, backupQueue, now, lease, 1, func(_ *sqlx.Tx, r backupRow) (backup.Run, error) {
		return backup.Run{ID: r.ID, Slot: sqlcore.UnixUTC(r.Slot), Attempts: r.Attempts}, nil
	})
	if err != nil || len(runs) == 0 {
		return backup.Run{}, false, err
	}
	return runs[0], true, nil
}

// BackupDone records the archive written (see backup.Queue).
func (db *DB) BackupDone(ctx context.Context, id int64, file string, size int64, now time.Time) error {
	return db.Exec(ctx, `UPDATE backup_runs SET done_at = ?, file = ?, size = ?, failed_at = NULL, last_error = ''
		WHERE id = ? AND done_at IS NULL`, now.Unix(), file, size, id)
}

// BackupFailed records a failed attempt of the claim (see backup.Queue): the
// slot is due again in a few minutes, or given up.
func (db *DB) BackupFailed(ctx context.Context, id int64, attempts int, errText string, giveUp bool, now time.Time) error {
	if giveUp {
		return db.Exec(ctx, `UPDATE backup_runs SET failed_at = ?, last_error = ?
			WHERE id = ? AND attempts = ? AND done_at IS NULL AND failed_at IS NULL`, now.Unix(), truncateError(errText), id, attempts)
	}
	return db.Exec(ctx, `UPDATE backup_runs SET next_attempt_at = ?, last_error = ?
		WHERE id = ? AND attempts = ? AND done_at IS NULL AND failed_at IS NULL`, now.Add(5*time.Minute).Unix(), truncateError(errText), id, attempts)
}

// LastBackup is the newest backup written (see backup.Queue).
func (db *DB) LastBackup(ctx context.Context) (backup.Run, bool, error) {
	var r struct {
		ID   int64  `db:"id"`
		Slot int64  `db:"slot_key"`
		Done int64  `db:"done_at"`
		File string `db:"file"`
		Size int64  `db:"size"`
	}
	err := db.Read.GetContext(ctx, &r, `SELECT id, slot_key, done_at, file, size FROM backup_runs
		WHERE done_at IS NOT NULL ORDER BY done_at DESC, id DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return backup.Run{}, false, nil
	}
	if err != nil {
		return backup.Run{}, false, fmt.Errorf("last backup: %w", err)
	}
	return backup.Run{ID: r.ID, Slot: sqlcore.UnixUTC(r.Slot), DoneAt: sqlcore.UnixUTC(r.Done), File: r.File, Size: r.Size}, true, nil
}
