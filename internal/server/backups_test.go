package server_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/backup"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestScheduledBackupStatus: the server's scheduler takes the slot's
// backup; /metrics reports its time and size, and the admin's storage
// figures the schedule, the newest backup and, twice the interval later,
// that it is late.
func TestScheduledBackupStatus(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, sqlstore.SQLite)
	// Frozen: the backup's time is the slot's, to the second, however
	// long the machine takes to get there.
	clock := storetest.FrozenClock(seedTime)
	dir := t.TempDir()
	f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", Now: clock.Now,
		Backup: backup.Schedule{Dir: dir, Every: 6 * time.Hour, Keep: 3}})
	metric := func(name string) float64 {
		t.Helper()
		for _, line := range strings.Split(f.metrics(), "\n") {
			if v, ok := strings.CutPrefix(line, name+" "); ok {
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
		}
		t.Fatalf("no %s in /metrics", name)
		return 0
	}
	type status struct {
		Backups struct {
			Enabled      bool  `json:"enabled"`
			EverySeconds int64 `json:"every_seconds"`
			Keep         int   `json:"keep"`
			Late         bool  `json:"late"`
			Last         *struct {
				At   time.Time `json:"at"`
				File string    `json:"file"`
				Size int64     `json:"size"`
			} `json:"last"`
		} `json:"backups"`
	}
	read := func() status {
		t.Helper()
		a := f.do("GET", "/wp-json/vitrine/v1/admin/storage", f.cookie("Mia"), "", "X-WP-Nonce", f.nonce("Mia"))
		var st status
		if err := json.Unmarshal([]byte(a.body), &st); a.status != 200 || err != nil {
			t.Fatalf("storage: %d %s", a.status, a.body)
		}
		return st
	}
	if m := metric("vitrine_backup_last_success_timestamp_seconds"); m != 0 {
		t.Fatalf("before any backup: %v", m)
	}
	if st := read(); !st.Backups.Enabled || st.Backups.Last != nil || st.Backups.EverySeconds != 6*3600 || st.Backups.Keep != 3 {
		t.Fatalf("before any backup: %+v", st.Backups)
	}

	took, err := f.srv.Backups().Tick(context.Background())
	if !took || err != nil {
		t.Fatalf("tick: %v %v", took, err)
	}
	st := read()
	last := st.Backups.Last
	if last == nil || !last.At.Equal(seedTime) || last.Size <= 0 || !strings.HasPrefix(last.File, "vitrine-") || st.Backups.Late {
		t.Fatalf("after a backup: %+v %+v", st.Backups, last)
	}
	if m := metric("vitrine_backup_last_success_timestamp_seconds"); m != float64(seedTime.Unix()) {
		t.Errorf("last success metric %v, want %d", m, seedTime.Unix())
	}
	if m := metric("vitrine_backup_last_size_bytes"); m != float64(last.Size) {
		t.Errorf("size metric %v, want %d", m, last.Size)
	}
	if m := metric("vitrine_backup_late"); m != 0 {
		t.Errorf("late metric %v", m)
	}

	// The folder becomes unwritable (a file in its place) and 13 hours
	// pass without a backup: late.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	clock.Add(13 * time.Hour)
	if took, err := f.srv.Backups().Tick(context.Background()); took || err == nil {
		t.Fatalf("a backup into a file: %v %v", took, err)
	}
	if st := read(); !st.Backups.Late || st.Backups.Last == nil || st.Backups.Last.File != last.File {
		t.Fatalf("13 h later: %+v", st.Backups)
	}
	if m := metric("vitrine_backup_late"); m != 1 {
		t.Errorf("late metric %v", m)
	}
}
