package server

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"vitrine/internal/backup"
)

// The scheduled backups (internal/backup): every instance runs the
// scheduler and one takes each slot; /metrics and the admin's storage
// figures show the newest backup written.

func (s *Server) initBackups() {
	s.backups = &backup.Scheduler{
		Backups:  &backup.Service{Store: s.db, DSN: s.cfg.StoreDSN, Version: s.cfg.Version, Now: s.now},
		Queue:    s.db,
		Schedule: s.cfg.Backup,
		Log:      s.log,
		Now:      s.now,
	}
}

// startBackups runs the scheduler when backups are scheduled.
func (s *Server) startBackups(ctx context.Context) {
	if s.cfg.Backup.Enabled() {
		go s.backups.Run(ctx)
	}
}

// Backups is the scheduler (tests run its Tick).
func (s *Server) Backups() *backup.Scheduler { return s.backups }

func backupMetrics(reg *prometheus.Registry, s *Server) {
	last := func(f func(*backup.LastRun) float64) func() float64 {
		return func() float64 {
			if l := s.backups.Status().Last; l != nil {
				return f(l)
			}
			return 0
		}
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "vitrine_backup_last_success_timestamp_seconds", Help: "Unix time the newest scheduled backup was written (0: none yet).",
	}, last(func(l *backup.LastRun) float64 { return float64(l.At.Unix()) })))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "vitrine_backup_last_size_bytes", Help: "Size of the newest scheduled backup's archive.",
	}, last(func(l *backup.LastRun) float64 { return float64(l.Size) })))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "vitrine_backup_late", Help: "1 when backups are scheduled and the newest is older than twice the interval.",
	}, func() float64 {
		if s.backups.Status().Late {
			return 1
		}
		return 0
	}))
}
