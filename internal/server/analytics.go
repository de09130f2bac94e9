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
	s.analyticsSettings = &settings.Analytics{Store: s.db, Now: s.now}
	s.analytics = &analytics.Service{Store: s.db, Base: s.cfg.Currency, Now: s.now,
		Settings: func() analytics.Settings {
			d, err := s.analyticsSettings.Load(context.Background())
			if err != nil {
				return s.analyticsSettings.Current().Value
			}
			return d.Value
		}}
	s.analyticsAPI = analyticsapi.New(analyticsapi.Deps{Analytics: s.analytics, BaseURL: s.cfg.BaseURL})
}

// AnalyticsUpkeep recomputes the facts of orders written since (at most
// a few thousand a tick; a report catches up the rest itself).
func (s *Server) AnalyticsUpkeep(ctx context.Context) {
	if _, err := s.analytics.CatchUp(ctx, 5000); err != nil && ctx.Err() == nil {
		s.log.Warn("analytics catch-up", "err", err)
	}
}
