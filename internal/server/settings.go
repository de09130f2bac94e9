package server

import (
	"context"
	"fmt"

	"vitrine/internal/pages"
	"vitrine/internal/settings"
)

// The shop's settings in force (internal/settings): the flags until staff
// save them in the admin, the stored ones after. Requests read them from
// s.liveSettings, swapped whole when they change; a save (here or on
// another instance) reaches every instance through the change log
// (applyChanges), which reloads them and purges the rendered pages.

// live is what requests read.
type live struct {
	pages.Live
	ComingSoon bool
}

// initSettings loads the stored settings over the flags' defaults.
func (s *Server) initSettings() error {
	s.settings = &settings.Service{Store: s.db, Now: s.now,
		Defaults: settings.FromPages(s.cfg.SiteName, s.cfg.Tagline, s.cfg.ComingSoon, s.cfg.Settings)}
	v, err := s.settings.Load(context.Background())
	if err != nil {
		return fmt.Errorf("load settings: %w", err)
	}
	s.useSettings(v)
	return nil
}

// useSettings makes v the settings requests read.
func (s *Server) useSettings(v settings.Versioned) {
	ps := v.Apply(s.cfg.Settings)
	ps.Wallet = s.cfg.Wallet != nil // the buttons follow the server's wallet
	s.liveSettings.Store(&live{
		Live:       pages.Live{SiteName: v.Name, Tagline: v.Tagline, Settings: ps},
		ComingSoon: v.ComingSoon,
	})
}

// live is the settings in force.
func (s *Server) live() *live { return s.liveSettings.Load() }

// siteName is the shop's name in force.
func (s *Server) siteName() string { return s.live().SiteName }

// reloadSettings follows a save seen in the change log: the new settings,
// and nothing rendered with the old ones kept.
func (s *Server) reloadSettings(ctx context.Context) {
	v, err := s.settings.Load(ctx)
	if err != nil {
		s.log.Warn("reload settings", "err", err)
		return
	}
	s.useSettings(v)
	s.notFound.reset()
	s.comingSoon.mu.Lock()
	s.comingSoon.page = nil
	s.comingSoon.mu.Unlock()
	m := s.buildManifest()
	s.manifest.Store(&m)
}
