package server

import (
	"context"

	"vitrine/internal/retention"
	"vitrine/internal/settings"
)

// Data retention (internal/retention) as the server composes it: the
// policy staff save in the admin (settings.Retention), and the runs every
// instance's upkeep loop ticks (maintain), one instance taking each.

// initRetention builds the policy's document and the service (after the
// audit log, which records the runs).
func (s *Server) initRetention() {
	s.retentionSettings = &settings.Retention{Store: s.db, Now: s.now}
	s.retention = &retention.Service{Store: s.db, Audit: s.audit, Log: s.log, Now: s.now,
		Policy: func(ctx context.Context) (retention.Policy, error) {
			d, err := s.retentionSettings.Load(ctx)
			return d.Value, err
		}}
}

// RetentionUpkeep is this instance's tick of data retention: it runs the
// due run when this instance claims it. It reports whether it ran one and
// what it did (errors are logged too: the run is tried again).
func (s *Server) RetentionUpkeep(ctx context.Context) (bool, retention.Result, error) {
	ran, res, err := s.retention.Tick(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("data retention", "err", err)
	}
	return ran, res, err
}
