package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"vitrine/internal/clock"
)

// ErrNotEmpty refuses a restore over a store that holds the shop's data,
// unless forced.
var ErrNotEmpty = errors.New("the store is not empty")

// RestoreOptions say where a restore writes.
type RestoreOptions struct {
	// DSN is the store restored into.
	DSN string
	// Force replaces a store that is not empty.
	Force bool
	// Open opens a store by DSN without migrating it.
	Open Opener
	// PSQL is the psql to run on PostgreSQL ("": psql on the PATH).
	PSQL string
	// Now names the copy a forced SQLite restore keeps of the old store.
	Now func() time.Time
}

// Restored is what a restore did.
type Restored struct {
	Manifest *Manifest
	// From and To are the schema versions of the backup and of the
	// restored store (later when the backup was migrated forward).
	From, To int64
	// Replaced is what the store held before, when forced over data;
	// Kept is where a SQLite store's old files were moved ("" : none).
	Replaced *Contents
	Kept     string
	Took     time.Duration
}

// Restore restores the archive at path into the store named by
// o.DSN: it checks the archive (every file against its size and SHA-256;
// on SQLite the snapshot's integrity) before it touches the store, refuses
// a store that holds data unless o.Force, writes the snapshot, then
// applies the migrations the backup lacks. On SQLite the shop must be
// stopped; the old store's files are kept beside it.
func Restore(ctx context.Context, path string, o RestoreOptions) (Restored, error) {
	start := time.Now()
	var out Restored
	engine := EngineOf(o.DSN)
	work, err := os.MkdirTemp(workBase(engine, o.DSN), ".vitrine-restore-")
	if err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(work)
	m, err := readArchive(path, work)
	if err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	out.Manifest, out.From = m, m.SchemaVersion
	if m.Engine != engine {
		return out, fmt.Errorf("restore: the backup is of a %s store and --db names a %s store; restore it into a %s store", m.Engine, engine, m.Engine)
	}
	if engine == engineSQLite {
		// The snapshot is opened (and checked) where it was unpacked,
		// before the store is touched.
		snap := filepath.Join(work, sqliteEntry)
		if err := checkSnapshot(ctx, o.Open, snap); err != nil {
			return out, fmt.Errorf("restore: %w: %s: %v", ErrCorrupt, path, err)
		}
	}
	held, err := heldBy(ctx, engine, o, m)
	if err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	if !held.Empty() {
		if !o.Force {
			return out, fmt.Errorf("restore: %w: it holds %s; --force replaces it", ErrNotEmpty, held)
		}
		out.Replaced = &held
	}
	switch engine {
	case engineSQLite:
		if out.Kept, err = placeSQLite(filepath.Join(work, sqliteEntry), sqlitePath(o.DSN), o.now()); err != nil {
			return out, fmt.Errorf("restore: %w", err)
		}
	case enginePostgres:
		if err := psqlRestore(ctx, o.PSQL, o.DSN, m.Schema, filepath.Join(work, postgresEntry)); err != nil {
			return out, err
		}
	}
	restored, err := o.Open(ctx, o.DSN)
	if err != nil {
		return out, fmt.Errorf("restore: open the restored store: %w", err)
	}
	defer restored.Close()
	if err := restored.Migrate(ctx); err != nil {
		return out, fmt.Errorf("restore: migrate the restored store from version %d: %w", m.SchemaVersion, err)
	}
	if out.To, err = restored.SchemaVersion(ctx); err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	out.Took = time.Since(start)
	return out, nil
}

func (o RestoreOptions) now() time.Time { return clock.UTC(o.Now) }

// heldBy counts what the store restored into holds (nothing when a SQLite
// store's file does not exist yet), and on PostgreSQL checks that it
// lives in the backup's schema.
func heldBy(ctx context.Context, engine string, o RestoreOptions, m *Manifest) (Contents, error) {
	if engine == engineSQLite {
		if _, err := os.Stat(sqlitePath(o.DSN)); errors.Is(err, os.ErrNotExist) {
			return Contents{}, nil
		}
	}
	target, err := o.Open(ctx, o.DSN)
	if err != nil {
		return Contents{}, fmt.Errorf("open the store: %w", err)
	}
	defer target.Close()
	if engine == enginePostgres {
		schema, err := target.BackupSchema(ctx)
		if err != nil {
			return Contents{}, err
		}
		if schema != m.Schema {
			return Contents{}, fmt.Errorf("the backup is of schema %q and --db's search_path names %q: a PostgreSQL backup restores into the schema it was taken from", m.Schema, schema)
		}
	}
	return target.BackupContents(ctx)
}

// checkSnapshot opens an unpacked SQLite snapshot and runs its integrity
// check.
func checkSnapshot(ctx context.Context, open Opener, path string) error {
	t, err := open(ctx, "sqlite:"+path)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.CheckIntegrity(ctx)
}

// sqlitePath is the file of a SQLite DSN.
func sqlitePath(dsn string) string { return strings.TrimPrefix(dsn, "sqlite:") }

// workBase is where a restore unpacks the archive: beside a SQLite store
// (the snapshot is then renamed into place, never copied), else the
// system's temporary folder.
func workBase(engine, dsn string) string {
	if engine == engineSQLite {
		dir := filepath.Dir(sqlitePath(dsn))
		if err := os.MkdirAll(dir, 0o755); err == nil {
			return dir
		}
	}
	return ""
}

// placeSQLite moves the snapshot at snap to the store's path. The files of
// a store already there (the database, its -wal and -shm) are first moved
// to path.replaced-TIME, which it returns ("" when there was none).
func placeSQLite(snap, path string, now time.Time) (string, error) {
	kept := ""
	if _, err := os.Stat(path); err == nil {
		kept = path + ".replaced-" + now.Format("20060102T150405Z")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(path+suffix, kept+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("keep the old store: %w", err)
			}
		}
	}
	if err := os.Rename(snap, path); err != nil {
		return kept, fmt.Errorf("place the restored store: %w", err)
	}
	syncDir(filepath.Dir(path))
	return kept, nil
}
