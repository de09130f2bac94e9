package server

import (
	"context"
	"time"

	"vitrine/internal/alerts"
	"vitrine/internal/alertsapi"
)

// The back-in-stock and price-drop alerts as the server composes them
// (internal/alerts): the service on the store, its public links
// (internal/alertsapi), and the worker that turns queued restocks and
// price falls into mails.

// alertsEvery is how often the restock queue is drained; the price-drop
// digests follow the upkeep pass (each minute, after the schedule pass
// that starts sales).
const alertsEvery = 2 * time.Second

func (s *Server) initAlerts() {
	s.alerts = &alerts.Service{Store: s.db, Bots: s.botcheckFor(alerts.BotcheckPurpose), Sealer: s.accounts.Sealer,
		Secret: s.cfg.Secret, SiteName: s.siteName, Now: s.now, Log: s.log,
		ThresholdBP: func() int { return s.settings.Current().PriceDropBP() }}
	s.alertsAPI = alertsapi.New(alertsapi.Deps{Alerts: s.alerts, SiteName: s.siteName, KickMail: s.kickMail, Log: s.log})
}

// Alerts is the alerts service (the app composes its mail renderer).
func (s *Server) Alerts() *alerts.Service { return s.alerts }

// ShopEmail is the shop's public address, "" when it has none (the
// alerts' mailto: unsubscribe link).
func (s *Server) ShopEmail() string { return s.settings.Current().Email }

// runAlerts drains the restock queue every alertsEvery, on every instance
// (the store hands each restock to one).
func (s *Server) runAlerts(ctx context.Context) {
	every(ctx, alertsEvery, func() { s.RestockUpkeep(ctx) })
}

// RestockUpkeep queues the mails of the items back in stock; it reports
// how many.
func (s *Server) RestockUpkeep(ctx context.Context) int {
	r, err := s.alerts.RunRestocks(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("back-in-stock alerts", "err", err)
	}
	if n := r.Alerts + r.Wishlist; n > 0 {
		s.log.Info("back-in-stock mails queued", "items", r.Restocks, "alerts", r.Alerts, "wishlists", r.Wishlist)
		s.kickMail()
		return n
	}
	return 0
}

// PriceDropUpkeep queues the day's price-drop digests that are due.
func (s *Server) PriceDropUpkeep(ctx context.Context) int {
	r, err := s.alerts.RunPriceDrops(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("price-drop alerts", "err", err)
	}
	if r.Digests > 0 {
		s.log.Info("price-drop digests queued", "digests", r.Digests)
		s.kickMail()
	}
	return r.Digests
}
