package server

import (
	"context"
	"net/http"
	"vitrine/internal/analytics"

	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/catalog"
	"vitrine/internal/coupon"
	"vitrine/internal/httpx"
	"vitrine/internal/orders"
	"vitrine/internal/payment"
	"vitrine/internal/render"
	"vitrine/internal/reports"
)

// The admin as the server composes it: the audit log, the orders back
// office, the admin's JSON API and the admin app's shell (internal/adminapi).

// initAdmin builds the audit log, the admin API and the shell.
func (s *Server) initAdmin() {
	s.audit = &audit.Service{Store: s.db, Now: s.now, Log: s.log}
	s.initRetention() // retention.go
	s.initAnalytics() // analytics.go
	// Wallet orders are refunded through PayPal; the others are recorded
	// as manual refunds.
	refunders := map[string]orders.Refunder{}
	if s.wallet != nil {
		refunders[payment.WalletGatewayID] = s.wallet
	}
	s.orders = &orders.Service{Store: s.db, Refunders: refunders, Kick: s.kickMail, Currency: s.currencyOf, Now: s.now, Log: s.log}
	s.initOrderMail()
	s.catalogAdmin = &catalog.Admin{Store: s.db, MinorUnit: s.cfg.Currency.MinorUnit, Now: s.now}
	s.admin = adminapi.New(adminapi.Deps{
		Viewer:    httpx.UserOf,
		ByAPIKey:  func(r *http.Request) bool { v := httpx.ViewerOf(r); return v != nil && v.APIKey },
		ClientIP:  s.clientIP,
		Audit:     s.audit,
		Accounts:  s.accounts,
		Checkout:  s.checkout,
		Wishlists: s.wishlists,
		System: func(ctx context.Context) (adminapi.SystemInfo, error) {
			i, err := s.db.System(ctx)
			return adminapi.SystemInfo{Version: s.cfg.Version, Engine: i.Engine, EngineVersion: i.EngineVersion, SchemaVersion: i.SchemaVersion}, err
		},
		Coupons:    &coupon.Service{Store: s.db, Currency: s.cfg.Checkout.Currency, Now: s.now},
		Settings:   s.settings,
		Rules:      s.rules,
		Payments:   s.paymentSettings,
		Base:       s.cfg.Currency,
		Currencies: s.currencies,
		TestMail:   s.sendTestMail,
		Orders:     s.orders,
		Reports: &reports.Service{Store: s.db, Currency: s.cfg.Currency.Code, Now: s.now, CatchUp: func(ctx context.Context) error {
			_, err := s.analytics.CatchUp(ctx, analytics.ReportCatchUp)
			return err
		}},
		Currency: s.currencyOf,
		Media:    s.media,
		Log:      s.log,
		Now:      s.now,
		Reviews:  s.reviews,
		Contact:  s.contact,
		Backups:  s.backups.Status,
		BaseURL:  s.cfg.BaseURL,
		// The order screen's address lines leave the shop's country out.
		BaseCountry: s.cfg.Checkout.BaseCountry,
		Catalog:     s.catalogAdmin,
		// The instance that took a catalogue write applies it at once.
		CatalogChanged: s.applyChanges,
		SearchSettings: s.searchSettings,
		Search:         s.search,
		Webhooks:       s.webhooks,
		Written:        s.hookWorker.Kick,
		Keys:           s.keys,

		// Data retention's policy and its newest run (retention.go).
		Retention:        s.retentionSettings,
		RetentionLastRun: s.db.LastRetentionRun,
		Privacy:          s.privacy,
		Alerts:           s.alerts,
		KickMail:         s.kickMail,
	})
	s.adminShell = &adminapi.Shell{
		Viewer:    httpx.UserOf,
		Nonce:     func(userID int64) string { return s.RESTNonce(userID, httpx.NonceTickAt(s.now())) },
		LogoutURL: s.myAccount.LogoutURL,
		SiteName:  s.siteName,
		BaseURL:   s.cfg.BaseURL,
		Currency:  s.cfg.Currency.Code,
	}
	if a, err := render.LoadAssets(s.static, adminapi.ShellEntry); err == nil {
		s.adminShell.Assets = a
	} else {
		s.log.Warn("the admin app is not in the web build", "err", err)
	}
}

// isMediaUpload says whether r is an upload to the media library, the one
// admin route whose body may be larger than MaxBodyBytes (middleware).
func isMediaUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/wp-json/wp/v2/media"
}
