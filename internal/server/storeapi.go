package server

import (
	"context"

	"vitrine/internal/render"
	"vitrine/internal/storeapi"
)

// The Store API (internal/storeapi) as the server composes it: its
// services, the response cache it reads through, and what it needs of the
// rest of the server.

// initStoreAPI builds the Store API; the services it uses are built.
func (s *Server) initStoreAPI() {
	s.storeAPI = storeapi.New(storeapi.Deps{Sessions: s.Sessions, Catalog: s.store, Products: s.products, Reviews: s.reviews,
		Carts: s.carts, Checkout: s.checkout, Payments: s.payments, Currencies: s.currencies, Cache: freshCache{s, s.api},
		BaseURL: s.cfg.BaseURL, Currency: s.cfg.Currency, CartLifetime: s.cfg.CartLifetime,
		ShopperCurrency: s.shopperCurrency, CurrencyTable: s.currencyTable, SetCurrencyCookie: s.setCurrencyCookie,
		ClientIP: s.clientIP, SetCartCookies: s.setCartCookies, PlaceOrder: s.placeForViewer, Log: s.log, Now: s.now})
}

// freshCache is one of the server's caches as a surface reads through it
// (the Store API's and live search's response cache s.api, the quick
// view's page cache s.cache): its answers are stored only when no
// catalogue change began while they were computed (cacheMark, putFresh),
// and the change-log follower drops what a change touches
// (invalidateChanges).
type freshCache struct {
	s *Server
	c *render.Cache
}

func (c freshCache) Get(key string) (*render.Page, bool) { return c.c.Get(key) }

func (c freshCache) Begin(ctx context.Context) func(key string, p *render.Page) {
	m := c.s.cacheMark(ctx)
	return func(key string, p *render.Page) { c.s.putFresh(c.c, key, p, m) }
}
