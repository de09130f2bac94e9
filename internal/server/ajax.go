package server

import (
	"net/http"

	"vitrine/internal/ajax"
)

// The ajax surface (internal/ajax: wc-ajax and admin-ajax) as the server
// composes it.

// initAjax builds the ajax surface; the services, the Store API, the
// login, the wallet's endpoints and the metrics it uses are built.
func (s *Server) initAjax() {
	s.ajax = ajax.New(ajax.Deps{Sessions: s.Sessions, Carts: s.carts, Catalog: s.store, Products: s.products, Search: s.search, Store: s.storeAPI,
		Loader: s.loader, Engine: s.engine, APICache: freshCache{s, s.api}, PageCache: freshCache{s, s.cache},
		Currencies: s.currencies, Pricing: s.pricing, ShopperCurrency: s.shopperCurrency,
		BaseURL: s.cfg.BaseURL, Currency: s.cfg.Currency, CartLifetime: s.cfg.CartLifetime,
		Wallet: s.walletAPI, Login: s.myAccount, Wishlist: s.wishlistAPI, RestNonce: s.renderer.RestNonce, CartNonce: s.front.CartNonce,
		FragmentsRendered: s.metrics.fragRenders.Inc, Log: s.log, Now: s.now})
}

// setCartCookies writes WooCommerce's cart cookies when they changed
// (ajax.SetCartCookies).
func (s *Server) setCartCookies(w http.ResponseWriter, r *http.Request, nonEmpty bool, hash string) {
	ajax.SetCartCookies(w, r, s.SecureCookies(), nonEmpty, hash)
}

// wcCartFailed answers a wc-ajax cart call that failed (ajax.CartFailed).
func (s *Server) wcCartFailed(w http.ResponseWriter, what string, err error) {
	ajax.CartFailed(s.log, w, what, err)
}
