package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"vitrine/internal/backup"
	"vitrine/internal/storage/sqlstore"
)

// The backup and restore commands and the scheduled backups' flags
// (internal/backup).
//
//	vitrine backup --to FILE
//	vitrine restore FILE [--force]
//	vitrine restore --check FILE

const backupUsage = "usage: vitrine backup --to FILE   (a consistent archive of the running shop's store)\n" +
	"       vitrine restore FILE [--force]   (into an empty store; --force replaces one that holds data)\n" +
	"       vitrine restore --check FILE     (check the archive's checksums; write nothing)"

// backupFlags are serve's scheduled-backup flags.
func backupFlags(c *Config, str func(p *string, name, def, help string), dur func(p *time.Duration, name string, def time.Duration, help string), num func(p *int, name string, def int, help string)) {
	str(&c.Backup.Dir, "backup-dir", "", "folder the scheduled backups are written to (empty: no scheduled backups); one instance of several takes each")
	dur(&c.Backup.Every, "backup-every", 0, "interval of the scheduled backups, 1h to 744h (e.g. 6h; 0 with --backup-dir: 24h)")
	num(&c.Backup.Keep, "backup-keep", 28, "scheduled backups kept in --backup-dir: the newest N")
}

// checkBackupTools refuses scheduled backups of a PostgreSQL store where
// pg_dump is missing, at start rather than at the first slot.
func checkBackupTools(cfg Config) error {
	if !cfg.Backup.Enabled() || backup.EngineOf(cfg.DB) != sqlstore.Postgres {
		return nil
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		return fmt.Errorf("--backup-dir: %w: install the PostgreSQL client tools, or drop --backup-dir and rely on your provider's backups or on: %s",
			backup.ErrNoPGDump, backup.PGDumpCommand(cfg.DB))
	}
	return nil
}

// checkBackup completes and checks the schedule.
func (c *Config) checkBackup() error {
	if c.Backup.Dir != "" && c.Backup.Every == 0 {
		c.Backup.Every = 24 * time.Hour
	}
	return c.Backup.Check()
}

// openBackupTarget opens a store by DSN without migrating it.
func openBackupTarget(log *slog.Logger) backup.Opener {
	return func(ctx context.Context, dsn string) (backup.Target, error) {
		return sqlstore.Open(ctx, dsn, log)
	}
}

// backupService is the backups of the store db.
func backupService(cfg Config, db *sqlstore.DB, log *slog.Logger) *backup.Service {
	return &backup.Service{Store: db, DSN: cfg.DB, Version: version(), Open: openBackupTarget(log)}
}

func backupCommand(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	to := fs.String("to", "", "the archive to write")
	if err := fs.Parse(args); err != nil {
		return &UsageError{err.Error() + "\n" + backupUsage}
	}
	if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), backupUsage)}
	}
	if *to == "" {
		return &UsageError{"--to FILE is required\n" + backupUsage}
	}
	if backup.EngineOf(cfg.DB) == sqlstore.SQLite {
		// Opening a missing SQLite file would create an empty store.
		if _, err := os.Stat(strings.TrimPrefix(cfg.DB, "sqlite:")); err != nil {
			return fmt.Errorf("no store to back up at --db %s: %w", cfg.DB, err)
		}
	}
	// The store is opened as it is, not migrated: a newer binary backing
	// up a running older shop must not change its schema under it.
	db, err := sqlstore.Open(ctx, cfg.DB, log)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := backupService(cfg, db, log).Backup(ctx, *to)
	if err != nil { // without pg_dump, it names the command to run
		return err
	}
	m := res.Manifest
	fmt.Fprintf(stdout, "backup written: %s (%d bytes, %s store at schema version %d, %s) in %s\n",
		res.Path, res.Size, m.Engine, m.SchemaVersion, m.Contents, res.Took.Round(time.Millisecond))
	return nil
}

func restoreCommand(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	force := fs.Bool("force", false, "replace a store that holds data")
	check := fs.Bool("check", false, "only check the archive: its manifest and checksums")
	if err := fs.Parse(args); err != nil {
		return &UsageError{err.Error() + "\n" + backupUsage}
	}
	if fs.NArg() != 1 {
		return &UsageError{"name one archive\n" + backupUsage}
	}
	if *check {
		m, err := backup.ReadManifest(fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is whole: a %s store at schema version %d, taken %s by vitrine %s, holding %s\n", fs.Arg(0), m.Engine,
			m.SchemaVersion, m.CreatedAt.Format(time.RFC3339), m.ShopVersion, m.Contents)
		return nil
	}
	res, err := backup.Restore(ctx, fs.Arg(0), backup.RestoreOptions{DSN: cfg.DB, Force: *force, Open: openBackupTarget(log)})
	if errors.Is(err, backup.ErrNotEmpty) {
		return &UsageError{err.Error()}
	}
	if err != nil {
		return err
	}
	if res.Replaced != nil {
		fmt.Fprintf(stdout, "replaced a store holding %s\n", res.Replaced)
	}
	if res.Kept != "" {
		fmt.Fprintf(stdout, "the replaced store's files were moved to %s\n", res.Kept)
	}
	fmt.Fprintf(stdout, "restored %s (%s, taken %s by vitrine %s): schema version %d", fs.Arg(0), res.Manifest.Contents,
		res.Manifest.CreatedAt.Format(time.RFC3339), res.Manifest.ShopVersion, res.From)
	if res.To != res.From {
		fmt.Fprintf(stdout, ", migrated to %d", res.To)
	}
	fmt.Fprintf(stdout, " in %s\n", res.Took.Round(time.Millisecond))
	return nil
}
