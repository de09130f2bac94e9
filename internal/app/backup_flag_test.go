package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBackupFlags(t *testing.T) {
	c, err := parseFlags(nil, nil)
	if err != nil || c.Backup.Enabled() || c.Backup.Keep != 28 {
		t.Fatalf("defaults: %+v %v", c.Backup, err)
	}
	c, err = parseFlags([]string{"--backup-dir", "/var/backups/shop"}, nil)
	if err != nil || !c.Backup.Enabled() || c.Backup.Every != 24*time.Hour {
		t.Fatalf("a folder alone: %+v %v", c.Backup, err)
	}
	c, err = parseFlags(nil, map[string]string{"VITRINE_BACKUP_DIR": "b", "VITRINE_BACKUP_EVERY": "6h", "VITRINE_BACKUP_KEEP": "4"})
	if err != nil || c.Backup.Dir != "b" || c.Backup.Every != 6*time.Hour || c.Backup.Keep != 4 {
		t.Fatalf("env: %+v %v", c.Backup, err)
	}
	for _, bad := range [][]string{{"--backup-every", "6h"}, {"--backup-dir", "b", "--backup-every", "10m"}, {"--backup-dir", "b", "--backup-keep", "0"}} {
		if _, err := parseFlags(bad, nil); err == nil || !strings.Contains(err.Error(), "--backup-") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// TestBackupCommandUsage: the commands' bad input is a usage error that
// writes nothing.
func TestBackupCommandUsage(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "v.db")
	for _, args := range [][]string{{"backup"}, {"backup", "--to"}, {"backup", "--to", "x.tar.gz", "extra"}, {"restore"}, {"restore", "a", "b"}} {
		var out bytes.Buffer
		err := Run(context.Background(), append(args, "--db", dsn, "--log-level", "error"), func(string) string { return "" }, &out, &out)
		var usage *UsageError
		if !errors.As(err, &usage) {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestBackupMissingStore: a backup of a SQLite store that does not exist
// is refused and creates neither the store nor the archive.
func TestBackupMissingStore(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	err := Run(context.Background(), []string{"backup", "--to", filepath.Join(dir, "b.tar.gz"), "--db", "sqlite:" + filepath.Join(dir, "v.db"), "--log-level", "error"},
		func(string) string { return "" }, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "no store to back up") {
		t.Fatalf("missing store: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left %d files", len(entries))
	}
}

// TestRestoreCheck: restore --check reads and verifies an archive and
// writes no store.
func TestRestoreCheck(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := Run(context.Background(), append(args, "--log-level", "error"), func(string) string { return "" }, &out, &out)
		return out.String(), err
	}
	src := "sqlite:" + filepath.Join(dir, "shop", "v.db")
	if _, err := run("migrate", "--db", src); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "b.tar.gz")
	if _, err := run("backup", "--to", file, "--db", src); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target", "v.db")
	out, err := run("restore", "--check", file, "--db", "sqlite:"+target)
	if err != nil || !strings.Contains(out, "is whole: a sqlite store at schema version") {
		t.Fatalf("check: %v %s", err, out)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("a check wrote the store: %v", err)
	}
}
