package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"vitrine/internal/clock"
)

// Scheduled backups: every instance of the shop runs a Scheduler; each
// slot of the schedule (the interval's multiples since the epoch) is one
// row of the store's backup queue, claimed with a lease like the mail
// outbox and the webhook queue, so exactly one instance takes it. The
// archives go to one folder, named by their time; the newest Keep stay.

// Run is one scheduled backup as the store records it.
type Run struct {
	ID       int64
	Attempts int
	Slot     time.Time
	DoneAt   time.Time // zero until written
	File     string    // the archive's name in the folder
	Size     int64
}

// Queue is the store's backup queue.
type Queue interface {
	// QueueBackup records the slot starting at slot, once however many
	// instances ask.
	QueueBackup(ctx context.Context, slot, now time.Time) error
	// ClaimBackup claims the oldest due slot for lease (false: none due).
	ClaimBackup(ctx context.Context, now time.Time, lease time.Duration) (Run, bool, error)
	// BackupDone records the archive written for the claim (id, attempts).
	BackupDone(ctx context.Context, id int64, file string, size int64, now time.Time) error
	// BackupFailed records a failed attempt; giveUp stops retrying it.
	BackupFailed(ctx context.Context, id int64, attempts int, errText string, giveUp bool, now time.Time) error
	// LastBackup is the newest backup written (false: none yet).
	LastBackup(ctx context.Context) (Run, bool, error)
}

// Schedule configures the scheduled backups; a zero Every turns them off.
type Schedule struct {
	Dir   string
	Every time.Duration
	Keep  int
}

// Enabled reports whether backups are scheduled.
func (s Schedule) Enabled() bool { return s.Dir != "" && s.Every > 0 }

// Check refuses a schedule that cannot work.
func (s Schedule) Check() error {
	if s.Dir == "" && s.Every == 0 {
		return nil
	}
	if s.Dir == "" {
		return errors.New("--backup-every needs --backup-dir, the folder the archives go to")
	}
	if s.Every < time.Hour || s.Every > 31*24*time.Hour {
		return fmt.Errorf("--backup-every %s: use 1h to 744h (31 days)", s.Every)
	}
	if s.Keep < 1 || s.Keep > 10000 {
		return fmt.Errorf("--backup-keep %d: use 1 to 10000", s.Keep)
	}
	return nil
}

// maxAttempts is how many times a slot's backup is tried.
const maxAttempts = 3

// lease is how long a claimed slot stays with its instance; one that dies
// leaves the slot due again then. Long, since a big store's backup takes
// minutes.
const lease = time.Hour

// Status is what /metrics and the admin show.
type Status struct {
	Enabled bool          `json:"enabled"`
	Every   time.Duration `json:"-"`
	// EverySeconds is Every for JSON.
	EverySeconds int64 `json:"every_seconds"`
	Keep         int   `json:"keep"`
	// Last is the newest backup written, nil: none yet.
	Last *LastRun `json:"last"`
	// Late: backups are scheduled and the last one is older than twice the
	// interval (or there is none and the schedule has run that long).
	Late bool `json:"late"`
}

// LastRun is the newest backup written.
type LastRun struct {
	At   time.Time `json:"at"`
	File string    `json:"file"`
	Size int64     `json:"size"`
}

// Scheduler takes the scheduled backups of one instance.
type Scheduler struct {
	Backups  *Service
	Queue    Queue
	Schedule Schedule
	Log      *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu      sync.Mutex
	status  Status
	started time.Time
}

func (s *Scheduler) now() time.Time { return clock.UTC(s.Now) }

// Run takes the scheduled backups until ctx ends: each minute it queues
// the current slot and takes it if this instance claims it.
func (s *Scheduler) Run(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		if _, err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			s.Log.Warn("scheduled backup", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick queues the current slot, takes the due one if this instance claims
// it (writing, then rotating the folder), and refreshes the status. It
// reports whether this instance took a backup.
func (s *Scheduler) Tick(ctx context.Context) (bool, error) {
	now := s.now()
	s.mu.Lock()
	if s.started.IsZero() {
		s.started = now
	}
	s.mu.Unlock()
	defer s.refresh(ctx)
	if !s.Schedule.Enabled() {
		return false, nil
	}
	if err := s.Queue.QueueBackup(ctx, now.Truncate(s.Schedule.Every), now); err != nil {
		return false, err
	}
	run, ok, err := s.Queue.ClaimBackup(ctx, now, lease)
	if err != nil || !ok {
		return false, err
	}
	if err := os.MkdirAll(s.Schedule.Dir, 0o750); err != nil {
		return false, s.failed(ctx, run, err)
	}
	name := "vitrine-" + run.Slot.UTC().Format("20060102T150405Z") + ".tar.gz"
	res, err := s.Backups.Backup(ctx, filepath.Join(s.Schedule.Dir, name))
	if err != nil {
		return false, s.failed(ctx, run, err)
	}
	if err := s.Queue.BackupDone(ctx, run.ID, name, res.Size, s.now()); err != nil {
		return true, err
	}
	s.Log.Info("scheduled backup written", "file", res.Path, "bytes", res.Size, "took", res.Took)
	removed, err := Rotate(s.Schedule.Dir, s.Schedule.Keep)
	if err != nil {
		return true, fmt.Errorf("rotate backups: %w", err)
	}
	if len(removed) > 0 {
		s.Log.Info("old backups removed", "files", removed)
	}
	return true, nil
}

func (s *Scheduler) failed(ctx context.Context, run Run, err error) error {
	giveUp := run.Attempts >= maxAttempts
	if ferr := s.Queue.BackupFailed(ctx, run.ID, run.Attempts, err.Error(), giveUp, s.now()); ferr != nil {
		return errors.Join(err, ferr)
	}
	return err
}

// refresh reads the newest backup into the status.
func (s *Scheduler) refresh(ctx context.Context) {
	last, ok, err := s.Queue.LastBackup(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.Log.Warn("read the last backup", "err", err)
		}
		return
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Enabled: s.Schedule.Enabled()}
	since := s.started
	if ok {
		st.Last = &LastRun{At: last.DoneAt, File: last.File, Size: last.Size}
		since = last.DoneAt
	}
	st.Late = st.Enabled && now.Sub(since) > 2*s.Schedule.Every
	s.status = st
}

// Status is the schedule and the newest backup, as last read.
func (s *Scheduler) Status() Status {
	if s == nil {
		return Status{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.status
	// The schedule shows before the first tick has read the store.
	st.Enabled, st.Every, st.EverySeconds, st.Keep = s.Schedule.Enabled(), s.Schedule.Every, int64(s.Schedule.Every/time.Second), s.Schedule.Keep
	return st
}

// Rotate removes all but the newest keep archives in dir (the names the
// scheduler writes, which sort by time), and the leftovers of backups
// interrupted there (".partial" files, work folders). It returns the
// names of the archives removed.
func Rotate(dir string, keep int) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var archives []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "vitrine-") && strings.HasSuffix(name, ".tar.gz") && e.Type().IsRegular():
			archives = append(archives, name)
		case strings.HasSuffix(name, ".tar.gz.partial"), strings.HasPrefix(name, ".vitrine-backup-"):
			// Only a lease old: a backup may be writing them now.
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > lease {
				_ = os.RemoveAll(filepath.Join(dir, name))
			}
		}
	}
	sort.Strings(archives)
	if len(archives) <= keep {
		return nil, nil
	}
	old := archives[:len(archives)-keep]
	for _, name := range old {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return nil, err
		}
	}
	return old, nil
}
