package backup_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"vitrine/internal/backup"
	"vitrine/internal/storage/storetest"
)

// TestScheduledBackupOneInstance: two instances sharing a store tick at
// the same moment and exactly one takes the slot's backup; a later tick
// in the same slot takes none; each new slot takes one more, the folder
// keeps the newest --backup-keep archives, and the status turns late once
// the newest backup is older than twice the interval.
func TestScheduledBackupOneInstance(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		dir := t.TempDir()
		now := testNow.Add(90 * time.Minute) // within the 12:00–18:00 slot
		var mu sync.Mutex
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
		sched := backup.Schedule{Dir: dir, Every: 6 * time.Hour, Keep: 2}
		instance := func() *backup.Scheduler {
			db := storetest.OpenDSN(t, dsn)
			return &backup.Scheduler{Backups: &backup.Service{Store: db, DSN: dsn, Version: "test", Now: clock, Open: open},
				Queue: db, Schedule: sched, Log: slog.New(slog.DiscardHandler), Now: clock}
		}
		a, b := instance(), instance()

		var took [2]bool
		var errs [2]error
		var wg sync.WaitGroup
		for i, s := range []*backup.Scheduler{a, b} {
			wg.Add(1)
			go func() { defer wg.Done(); took[i], errs[i] = s.Tick(ctx) }()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil || took[0] == took[1] {
			t.Fatalf("two instances ticking at once: took %v, errors %v", took, errs)
		}
		if got := archives(t, dir); len(got) != 1 || got[0] != "vitrine-20261129T120000Z.tar.gz" {
			t.Fatalf("archives %v", got)
		}
		for _, s := range []*backup.Scheduler{a, b} {
			if took, err := s.Tick(ctx); took || err != nil {
				t.Fatalf("a second tick in the slot took %v (%v)", took, err)
			}
			st := s.Status()
			if !st.Enabled || st.Last == nil || st.Last.File != "vitrine-20261129T120000Z.tar.gz" || st.Last.Size <= 0 || !st.Last.At.Equal(now) || st.Late {
				t.Fatalf("status %+v %+v", st, st.Last)
			}
		}
		if _, err := backup.ReadManifest(filepath.Join(dir, "vitrine-20261129T120000Z.tar.gz")); err != nil {
			t.Fatalf("scheduled archive: %v", err)
		}

		// Two more slots: three archives made, the newest two kept.
		for range 2 {
			advance(6 * time.Hour)
			if took, err := b.Tick(ctx); !took || err != nil {
				t.Fatalf("next slot: took %v (%v)", took, err)
			}
		}
		if got := archives(t, dir); !slices.Equal(got, []string{"vitrine-20261129T180000Z.tar.gz", "vitrine-20261130T000000Z.tar.gz"}) {
			t.Fatalf("after rotation: %v", got)
		}

		// Backups stop (the folder is gone and cannot be made: a file
		// stands in its place): twice the interval later the status is late.
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir, []byte("not a folder"), 0o600); err != nil {
			t.Fatal(err)
		}
		advance(6 * time.Hour)
		if took, err := a.Tick(ctx); took || err == nil {
			t.Fatalf("a backup into a file: took %v (%v)", took, err)
		}
		if st := a.Status(); st.Late {
			t.Fatalf("late after one missed slot: %+v", st)
		}
		advance(7 * time.Hour)
		a.Tick(ctx) // fails again
		if st := a.Status(); !st.Late || st.Last == nil || st.Last.File != "vitrine-20261130T000000Z.tar.gz" {
			t.Fatalf("status after 13 h without a backup: %+v", st)
		}
	})
}

func archives(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestRotateKeepsNewest: rotation removes the oldest scheduled archives
// beyond keep and nothing else in the folder.
func TestRotateKeepsNewest(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"vitrine-20261101T000000Z.tar.gz", "vitrine-20261102T000000Z.tar.gz", "vitrine-20261103T000000Z.tar.gz",
		"vitrine-20261104T000000Z.tar.gz", "before-upgrade.tar.gz", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := backup.Rotate(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"vitrine-20261101T000000Z.tar.gz", "vitrine-20261102T000000Z.tar.gz"}) {
		t.Fatalf("removed %v", removed)
	}
	if got := archives(t, dir); !slices.Equal(got, []string{"before-upgrade.tar.gz", "notes.txt", "vitrine-20261103T000000Z.tar.gz", "vitrine-20261104T000000Z.tar.gz"}) {
		t.Fatalf("left %v", got)
	}
	if removed, err := backup.Rotate(dir, 2); err != nil || len(removed) != 0 {
		t.Fatalf("second rotation removed %v (%v)", removed, err)
	}
}

// TestScheduleCheck: the flags' bad values are refused with what to use.
func TestScheduleCheck(t *testing.T) {
	for _, s := range []backup.Schedule{
		{Every: 6 * time.Hour, Keep: 28},
		{Dir: "b", Every: 30 * time.Minute, Keep: 28},
		{Dir: "b", Every: 6 * time.Hour, Keep: 0},
	} {
		if err := s.Check(); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if err := (backup.Schedule{Dir: "b", Every: 6 * time.Hour, Keep: 28}).Check(); err != nil {
		t.Error(err)
	}
}
