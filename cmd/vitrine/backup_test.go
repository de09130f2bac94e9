package main_test

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vitrine/internal/storage/storetest"
)

// TestBackupKilled runs the real binary: `vitrine backup` of a serving
// shop, then a second one into the same file killed with SIGKILL half-way.
// The earlier archive is intact (a backup writes FILE.partial and renames
// it over FILE only once whole), the shop serves on, and its store passes
// the integrity check; a restore of the earlier archive serves the same
// product. SQLite only: it is the engine whose snapshot this binary writes
// itself (pg_dump's own file is written the same way, in the same work
// folder). The store gets 40 MB of incompressible media files so the
// backup is still running when the test sees its work folder or its
// .partial file appear: no fault hook in the binary.
func TestBackupKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	dsn := "sqlite:" + filepath.Join(dir, "shop", "vitrine.db")
	if out, err := exec.Command(bin, "migrate", "--db", dsn).CombinedOutput(); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	raw := storetest.OpenRaw(t, dsn)
	if _, err := raw.Exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
		INSERT INTO media_files (path, content_type, data, created_at) SELECT 'bulk/' || i || '.bin', 'application/octet-stream', randomblob(1 << 20), CURRENT_TIMESTAMP FROM n`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	addr := freeAddr(t)
	serve(t, bin, addr, dsn, nil, "--demo")

	backups := filepath.Join(dir, "backups")
	if err := os.Mkdir(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(backups, "shop.tar.gz")
	if out, err := exec.Command(bin, "backup", "--to", file, "--db", dsn).CombinedOutput(); err != nil || !strings.Contains(string(out), "backup written") {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	earlier := digest(t, file)

	cmd := exec.Command(bin, "backup", "--to", file, "--db", dsn, "--log-level", "warn")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !killed; time.Sleep(2 * time.Millisecond) {
		entries, _ := os.ReadDir(backups)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".vitrine-backup-") || strings.HasSuffix(e.Name(), ".partial") {
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatalf("kill: %v", err)
				}
				killed = true
				break
			}
		}
	}
	err := cmd.Wait()
	if !killed || err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the backup was not killed half-way (killed %v): %v", killed, err)
	}
	if got := digest(t, file); got != earlier {
		t.Fatal("the earlier archive changed")
	}
	if code, body := get(t, "http://"+addr+"/product/classic-tee/"); code != 200 || !strings.Contains(body, "$28.00") {
		t.Fatalf("the shop after the kill: %d", code)
	}
	var check string
	if err := storetest.OpenRaw(t, dsn).Get(&check, `PRAGMA integrity_check`); err != nil || check != "ok" {
		t.Fatalf("integrity check of the shop's store: %q %v", check, err)
	}

	// The earlier archive restores into a new store, which serves.
	restored := "sqlite:" + filepath.Join(dir, "restored", "vitrine.db")
	if out, err := exec.Command(bin, "restore", file, "--db", restored).CombinedOutput(); err != nil || !strings.Contains(string(out), "restored") {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	addr2 := freeAddr(t)
	serve(t, bin, addr2, restored, nil)
	if code, body := get(t, "http://"+addr2+"/product/classic-tee/"); code != 200 || !strings.Contains(body, "$28.00") {
		t.Fatalf("the restored shop: %d", code)
	}
	// A second restore into it is refused: it holds data.
	out, err := exec.Command(bin, "restore", file, "--db", restored).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "--force replaces it") {
		t.Fatalf("restore over data: exit %d\n%s", code, out)
	}
}

func digest(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
