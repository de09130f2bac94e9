package server

import (
	"vitrine/internal/visits"
	"vitrine/internal/visitsapi"
)

// The storefront's session counts (internal/visits) as the server composes
// them: the service on the store, following the live attribution and
// consent settings, the per-address limits in this instance's memory, and
// the beacon's route (internal/visitsapi). The analytics' conversion rate
// reads the counts (analytics.go).

func (s *Server) initVisits() {
	s.visits = &visits.Service{Store: s.db, Now: s.now, Limiter: visits.DefaultLimiter(),
		Enabled:      func() bool { return s.live().Settings.Attribution.Enabled },
		ConsentAsked: func() bool { return s.live().Settings.Consent.Banner }}
	s.visitsAPI = visitsapi.New(visitsapi.Deps{Visits: s.visits, BaseURL: s.cfg.BaseURL, ClientIP: s.clientIP})
}
