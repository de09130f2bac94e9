package server

import (
	"context"
	"fmt"

	"vitrine/internal/checkout"
	"vitrine/internal/pages"
	"vitrine/internal/settings"
	"vitrine/internal/storefront"
)

// The shop's settings in force (internal/settings): the flags until staff
// save them in the admin, the stored ones after. Requests read them from
// s.liveSettings, swapped whole when they change; a save (here or on
// another instance) reaches every instance through the change log
// (applyChanges), which reloads them and purges the rendered pages.

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
	ps.Shop.Payments = s.footerPayments(ps.Wallet)
	s.liveSettings.Store(&storefront.Live{
		Live:       pages.Live{SiteName: v.Name, Tagline: v.Tagline, Settings: ps},
		ComingSoon: v.ComingSoon,
	})
}

// live is the settings in force.
func (s *Server) live() *storefront.Live { return s.liveSettings.Load() }

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
	if r, err := s.rules.Load(ctx); err != nil {
		s.log.Warn("reload shipping and tax rules", "err", err)
	} else {
		s.useRules(r)
	}
	if _, err := s.paymentSettings.Load(ctx); err != nil {
		s.log.Warn("reload payment methods", "err", err)
	}
	if _, err := s.searchSettings.Load(ctx); err != nil {
		s.log.Warn("reload search settings", "err", err)
	}
	if _, err := s.analyticsSettings.Load(ctx); err != nil {
		s.log.Warn("reload analytics settings", "err", err)
	}
	s.front.SettingsChanged() // the 404 and coming-soon pages, the manifest
}

// initRules loads the shipping zones and tax rates staff saved in the
// admin over the start-up configuration's (after initCheckout).
func (s *Server) initRules() error {
	s.rules = &settings.Rules{Store: s.db, Defaults: s.cfg.Checkout.Rules(), Now: s.now}
	r, err := s.rules.Load(context.Background())
	if err != nil {
		return fmt.Errorf("load shipping and tax rules: %w", err)
	}
	s.useRules(r)
	return nil
}

// useRules makes r the checkout's rules in force: the start-up
// configuration with r's zones and rates, swapped whole.
func (s *Server) useRules(r settings.Doc[checkout.Rules]) {
	c := s.cfg.Checkout.With(r.Value)
	s.checkoutLive.Store(&liveCheckout{version: r.Version, cfg: &c})
}

// liveCheckout is the checkout's configuration for one version of the
// rules.
type liveCheckout struct {
	version int64
	cfg     *checkout.Config
}

// checkoutConfig is the checkout's configuration in force. A save on this
// instance is in force at once (the rules' version moved); one on another
// instance when the change log is read (reloadSettings).
func (s *Server) checkoutConfig() *checkout.Config {
	l := s.checkoutLive.Load()
	if cur := s.rules.Current(); cur.Version != l.version {
		s.useRules(cur)
		l = s.checkoutLive.Load()
	}
	return l.cfg
}

// footerPayments are the payment methods the checkout offers, for the
// footer's icons: the enabled offline methods (payments.go; none known
// before they are loaded) and the wallet.
func (s *Server) footerPayments(wallet bool) []string {
	out := []string{}
	if s.paymentSettings != nil {
		for _, m := range s.paymentSettings.Current().Value.Methods() {
			out = append(out, m.ID())
		}
	}
	if wallet {
		out = append(out, "paypal")
	}
	return out
}
