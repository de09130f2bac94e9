package server

import (
	"context"

	"vitrine/internal/analytics"
	"vitrine/internal/analyticsapi"
	"vitrine/internal/settings"
)

// Analytics (internal/analytics, internal/analyticsapi) as the server
// composes it: the service over the store's facts, in the shop's base
// currency, with the settings staff save (time zone, excluded statuses);
// the upkeep loop keeps the facts caught up between reports.

func (s *Server) initAnalytics() {
	// Loaded at start and again on the change log's settings entry
	// (reloadSettings), as the other settings documents are: a report
	// reads the copy in memory.
	s.analyticsSettings = &settings.Analytics{Store: s.db, Now: s.now}
	if _, err := s.analyticsSettings.Load(context.Background()); err != nil {
		s.log.Warn("load analytics settings", "err", err)
	}
	s.analytics = &analytics.Service{Store: s.db, Base: s.cfg.Currency, Now: s.now,
		Settings: func() analytics.Settings { return s.analyticsSettings.Current().Value }, Sessions: s.visits}
	s.analyticsAPI = analyticsapi.New(analyticsapi.Deps{Analytics: s.analytics, BaseURL: s.cfg.BaseURL})
}

// AnalyticsUpkeep recomputes the facts of orders written since (at most
// a few thousand a tick; a report catches up the rest itself).
func (s *Server) AnalyticsUpkeep(ctx context.Context) {
	if _, err := s.analytics.CatchUp(ctx, 5000); err != nil && ctx.Err() == nil {
		s.log.Warn("analytics catch-up", "err", err)
	}
}

// AnalyticsBackfill catches up every marked order at start (after the
// analytics migration marked a shop's whole history), in batches, logging
// how many. Reports meanwhile catch up at most ReportCatchUp orders each.
func (s *Server) AnalyticsBackfill(ctx context.Context) {
	start := s.now()
	n, err := s.analytics.CatchUp(ctx, 0)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("analytics backfill", "err", err, "orders", n)
		return
	}
	if n > 0 {
		s.log.Info("analytics facts caught up", "orders", n, "took", s.now().Sub(start).String())
	}
}
