package server

import (
	"net/http"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/media"
	"vitrine/internal/oldlinks"
	"vitrine/internal/storefront"
)

// The storefront (internal/storefront) as the server composes it: page
// rendering first, which the account, wallet and contact surfaces render
// through, then the storefront's handlers, which use those surfaces.

// initPages builds the page rendering on the page cache; the loader and
// the metrics are built. The log-out link is the my-account surface's,
// built after (it renders through these pages), so it is read at call time.
func (s *Server) initPages() {
	s.oldLinks = &oldlinks.Service{Store: s.db, Catalog: s.store}
	s.renderer = storefront.NewPages(storefront.PagesDeps{Loader: s.loader, Engine: s.engine, Assets: s.assets,
		Cache: s.cache, CacheMaxAge: s.cfg.CacheMaxAge, Sessions: s.Sessions, Meta: s.meta, Reviews: s.reviews, Live: s.live,
		LogoutURL:     func(r *http.Request) string { return s.myAccount.LogoutURL(r) },
		Rendered:      s.metrics.renders.Observe,
		RenderFailed:  s.metrics.renderFails.Inc,
		RenderedAhead: s.metrics.rendersAhead.Inc,
		AheadWithin:   s.cfg.RenderAheadWithin,
		OldLink:       s.oldLink, // oldlinks.go
		Log:           s.log, Now: s.now})
}

// initStorefront builds the storefront's handlers; the services and the
// surfaces it uses are built.
func (s *Server) initStorefront() error {
	s.media = &media.Library{Store: s.db, Now: s.now, Quota: s.cfg.MediaQuota, Disk: s.contact.Disk}
	front, err := storefront.New(storefront.Deps{Pages: s.renderer, Sessions: s.Sessions, Loader: s.loader,
		Catalog: s.store, Sitemap: &catalog.Sitemap{Store: s.db}, Media: s.media, Static: s.static,
		Sitemaps: freshCache{s, s.sitemaps}, Carts: s.carts, Checkout: s.checkout, CheckoutConfig: &s.cfg.Checkout,
		Payments: s.payments, Accounts: s.accounts, Account: s.myAccount, Store: s.storeAPI, Wallet: s.walletAPI,
		Reviews: s.reviews, ContentPages: s.pages, Currencies: s.currencies, ReviewBotcheck: s.botcheckFor("review"),
		BaseURL: s.cfg.BaseURL, Currency: s.cfg.Currency, CartLifetime: s.cfg.CartLifetime,
		ClientIP: s.clientIP, SetCartCookies: s.setCartCookies, KickMail: s.kickMail, CurrencyOf: s.currencyOf,
		TestNotice: testOrderNotice, Log: s.log, Now: s.now})
	if err != nil {
		return err
	}
	s.front = front
	return nil
}

// placeForViewer places a Store API checkout as the request's viewer
// (storefront.PlaceForViewer: the customer's account, or one created).
func (s *Server) placeForViewer(w http.ResponseWriter, r *http.Request, pr checkout.PlaceRequest, createAccount bool, password string) (*checkout.Order, error) {
	o, _, err := s.front.PlaceForViewer(w, r, pr, createAccount, password)
	return o, err
}
