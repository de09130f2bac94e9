package server

import (
	"context"

	"vitrine/internal/privacy"
	"vitrine/internal/privacyapi"
)

// The privacy requests as the server composes them (internal/privacy):
// the service, the public links (internal/privacyapi), the upkeep that
// drops expired exports. My account and the admin API take the service.

func (s *Server) initPrivacy() {
	s.privacy = &privacy.Service{Store: s.db, Sealer: s.accounts.Sealer, SiteName: s.siteName, Now: s.now, Log: s.log,
		Currency: s.cfg.Currency.Code, ReviewsMode: func(context.Context) string { return s.settings.Current().ErasureReviews }}
	s.privacyAPI = privacyapi.New(privacyapi.Deps{Privacy: s.privacy, SiteName: s.siteName, KickMail: s.kickMail, Log: s.log})
}

// Privacy is the privacy service (the app composes its mail renderer).
func (s *Server) Privacy() *privacy.Service { return s.privacy }

// PrivacyUpkeep drops the exports whose download link expired; it
// reports how many (errors are logged: the next pass tries again).
func (s *Server) PrivacyUpkeep(ctx context.Context) int64 {
	n, err := s.privacy.PurgeExports(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("purge expired privacy exports", "err", err)
	}
	if n > 0 {
		s.log.Info("expired privacy exports purged", "exports", n)
	}
	return n
}
