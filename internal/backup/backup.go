// Package backup owns the shop's backups: a consistent snapshot of a
// running store (SQLite's VACUUM INTO, PostgreSQL's pg_dump) written as one
// archive with a manifest and SHA-256 checksums (archive.go); the restore of
// such an archive into an empty store, checked before anything is written
// and migrated forward after; and the scheduled backups a running shop
// takes, once across its instances, rotated, and reported (schedule.go).
//
// The media library's files and the contact form's uploads are rows of the
// store, so the store's snapshot holds them.
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

const (
	engineSQLite   = "sqlite"
	enginePostgres = "postgres"
)

// Reader is what backups read of a store.
type Reader interface {
	// BackupEngine is sqlite or postgres; on PostgreSQL BackupSchema is the
	// schema the store lives in.
	BackupEngine() string
	BackupSchema(ctx context.Context) (string, error)
	// SchemaVersion is the newest migration applied (0: none).
	SchemaVersion(ctx context.Context) (int64, error)
	// BackupContents counts the shop's data (none in a store without
	// tables).
	BackupContents(ctx context.Context) (Contents, error)
}

// Store is the store a backup snapshots.
type Store interface {
	Reader
	// SnapshotSQLite writes a consistent copy of a SQLite store to path,
	// which must not exist (VACUUM INTO), while the shop keeps writing.
	SnapshotSQLite(ctx context.Context, path string) error
}

// Target is a store opened by DSN: a snapshot being checked, or the store
// a restore writes.
type Target interface {
	Reader
	// CheckIntegrity runs SQLite's integrity check (nothing on PostgreSQL).
	CheckIntegrity(ctx context.Context) error
	// Migrate applies the migrations this build has and the store lacks.
	Migrate(ctx context.Context) error
	Close() error
}

// Opener opens a store by DSN without migrating it.
type Opener func(ctx context.Context, dsn string) (Target, error)

// Service takes backups of one store.
type Service struct {
	Store Store
	// DSN is the store's, for pg_dump on PostgreSQL.
	DSN string
	// Version is the shop's (the manifest's shop_version).
	Version string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Open opens a store by DSN (the snapshot, to count what it holds).
	Open Opener
	// PGDump is the pg_dump to run ("" : pg_dump on the PATH).
	PGDump string
	// afterSnapshot, when set, runs between the snapshot and the archive
	// (tests: a process killed there).
	afterSnapshot func()
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

// Result is a backup written.
type Result struct {
	Path     string
	Size     int64
	Manifest *Manifest
	Took     time.Duration
}

// Backup writes a backup of the store to path (an archive: archive.go),
// replacing a file there only once the new archive is whole.
func (s *Service) Backup(ctx context.Context, path string) (Result, error) {
	start := time.Now()
	if path == "" {
		return Result{}, errors.New("backup: no file to write (--to FILE)")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Result{}, fmt.Errorf("backup: %s is a folder; name the archive file", path)
	}
	engine := s.Store.BackupEngine()
	m := &Manifest{Format: FormatVersion, Engine: engine, CreatedAt: s.now().Truncate(time.Second), ShopVersion: s.Version}
	var err error
	if m.SchemaVersion, err = s.Store.SchemaVersion(ctx); err != nil {
		return Result{}, fmt.Errorf("backup: %w", err)
	}
	// The work folder is beside the archive: the snapshot is as big as the
	// store, and the system's temporary folder is often a small tmpfs.
	work, err := os.MkdirTemp(filepath.Dir(path), ".vitrine-backup-")
	if err != nil {
		return Result{}, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(work)
	switch engine {
	case engineSQLite:
		if err := s.Store.SnapshotSQLite(ctx, filepath.Join(work, sqliteEntry)); err != nil {
			return Result{}, fmt.Errorf("backup: snapshot: %w", err)
		}
		m.Files = []File{{Name: sqliteEntry}}
		// The counts are read from the snapshot itself, so they describe
		// exactly what the archive holds.
		if m.Contents, err = s.snapshotContents(ctx, filepath.Join(work, sqliteEntry)); err != nil {
			return Result{}, fmt.Errorf("backup: %w", err)
		}
	case enginePostgres:
		if m.Schema, err = s.Store.BackupSchema(ctx); err != nil {
			return Result{}, fmt.Errorf("backup: %w", err)
		}
		// Counted just before the dump, outside its snapshot: the figures
		// describe the store, the dump may hold a few more orders.
		if m.Contents, err = s.Store.BackupContents(ctx); err != nil {
			return Result{}, fmt.Errorf("backup: %w", err)
		}
		if err := pgDump(ctx, s.PGDump, s.DSN, m.Schema, filepath.Join(work, postgresEntry)); err != nil {
			return Result{}, err
		}
		m.Files = []File{{Name: postgresEntry}}
	default:
		return Result{}, fmt.Errorf("backup: unknown engine %q", engine)
	}
	if s.afterSnapshot != nil {
		s.afterSnapshot()
	}
	size, err := writeArchive(path, m, work)
	if err != nil {
		return Result{}, fmt.Errorf("backup: %w", err)
	}
	return Result{Path: path, Size: size, Manifest: m, Took: time.Since(start)}, nil
}

// EngineOf names the engine of a store's DSN as the store does.
func EngineOf(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return enginePostgres
	}
	return engineSQLite
}

// snapshotContents counts what a SQLite snapshot holds.
func (s *Service) snapshotContents(ctx context.Context, path string) (Contents, error) {
	if s.Open == nil {
		return s.Store.BackupContents(ctx)
	}
	t, err := s.Open(ctx, "sqlite:"+path)
	if err != nil {
		return Contents{}, err
	}
	defer t.Close()
	return t.BackupContents(ctx)
}
