// Package ajax is the shop's ajax surface: WooCommerce's front-end
// endpoints at /?wc-ajax=<endpoint> (wcajax.go: get_variation; and
// wcajax_cart.go: add_to_cart, remove_from_cart, get_refreshed_fragments
// with the rendered mini-cart fragments and their cache) and WordPress's
// /wp-admin/admin-ajax.php actions (this file's table: Flatsome's live
// search in search.go and quick view in quickview.go, CURCY's price call
// in price.go; the login's actions and the REST nonce are answered by
// other surfaces through Deps).
//
// Like every surface it is thin: a handler reads its fields, calls the
// cart, catalogue or pricing service and shapes WooCommerce's or the
// plugin's answer. The shopper's currency, the page and response caches
// and the render engine belong to the server, which hands them in.
package ajax

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/sync/singleflight"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/pricing"
	"vitrine/internal/render"
	"vitrine/internal/storeapi"
)

// Deps are what the surface uses; the server builds them.
type Deps struct {
	// Sessions name a request's cart session and sign its cookie.
	Sessions *httpx.Sessions
	Carts    *cart.Service
	// Catalog is the catalogue as the storefront reads it (live search);
	// Products the products and variations kept in memory (get_variation).
	Catalog  catalog.Store
	Products *catalog.Cache
	// Search is the shop's search beyond matching (the owner's synonyms).
	Search *catalog.SearchService
	// Store shapes the Store API's objects: carts, variations, category
	// lookups.
	Store *storeapi.API
	// Loader loads the quick view's data.
	Loader *pages.Loader
	// Engine renders the fragments and the quick view through the
	// server bundle; nil when the shop renders in the browser only.
	Engine Renderer
	// APICache keeps live-search answers (the Store API's response
	// cache), PageCache the quick view's popups (the page cache); both
	// are dropped by the catalogue changes they show.
	APICache  Cache
	PageCache Cache
	// Currencies are the currencies shoppers choose from; Pricing prices
	// products in one of them; ShopperCurrency is the request's.
	Currencies      *currency.Service
	Pricing         *pricing.Service
	ShopperCurrency func(*http.Request) currency.Currency
	// BaseURL makes absolute links; Currency is the shop's base currency;
	// CartLifetime how long a cart lives after its last write.
	BaseURL      string
	Currency     money.Currency
	CartLifetime time.Duration
	// Wallet answers the wallet's own wc-ajax endpoints.
	Wallet Wallet
	// Login answers the login's admin-ajax actions.
	Login Login
	// Wishlist answers YITH WooCommerce Wishlist's admin-ajax actions
	// (nil: none).
	Wishlist Wishlist
	// RestNonce answers the rest-nonce action.
	RestNonce http.HandlerFunc
	// CartNonce is the session's _wpnonce for the mini cart's remove
	// links (the no-script cart checks it).
	CartNonce func(scope string, tick int64) string
	// FragmentsRendered counts a fragment set rendered rather than taken
	// from the fragment cache.
	FragmentsRendered func()
	Log               *slog.Logger
	Now               func() time.Time
}

// Renderer renders a page kind's data (JSON) into HTML.
type Renderer interface {
	Render(ctx context.Context, url string, data []byte) (string, error)
}

// Cache is a response cache that a change read from the catalogue's
// change log drops what it touches from.
type Cache interface {
	Get(key string) (*render.Page, bool)
	// Begin is called before an answer is computed; the function it
	// returns stores the answer unless a change began meanwhile.
	Begin(ctx context.Context) func(key string, p *render.Page)
}

// Wallet is the wallet's part of wc-ajax.
type Wallet interface {
	// Ajax is the handler of one of the wallet's endpoints, or nil.
	Ajax(endpoint string) http.HandlerFunc
}

// Wishlist is the wishlist's part of admin-ajax.
type Wishlist interface {
	// Ajax is the handler of one of its actions, or nil.
	Ajax(action string) http.HandlerFunc
}

// Login is the login's part of admin-ajax (Wordfence's actions).
type Login interface {
	AjaxAuthenticate(w http.ResponseWriter, r *http.Request)
	AjaxRegisterSupport(w http.ResponseWriter, r *http.Request)
}

// API serves the ajax endpoints.
type API struct {
	d           Deps
	flight      singleflight.Group // one live search or quick view computed per key at once
	frags       *fragmentCache     // rendered cart fragments (wcajax_cart.go)
	suggestMemo suggestionMemo     // cached live-search answers, decoded (search.go)
}

// New builds the surface.
func New(d Deps) *API {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.FragmentsRendered == nil {
		d.FragmentsRendered = func() {}
	}
	return &API{d: d, frags: newFragmentCache(2048)}
}

// actions maps WordPress admin-ajax.php actions to their handlers. An
// action not listed here answers as WordPress does: 400 with the body "0".
func (a *API) actions() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"flatsome_ajax_search_products": a.searchProducts,
		"flatsome_quickview":            a.quickView,
		"wordfence_ls_authenticate":     a.d.Login.AjaxAuthenticate,
		"wordfence_ls_register_support": a.d.Login.AjaxRegisterSupport,
		"rest-nonce":                    a.d.RestNonce,
		"wmc_get_products_price":        a.productsPrice, // price.go
	}
}

// AdminAjax dispatches /wp-admin/admin-ajax.php by its action, read
// from the query string or a POST form (GET, HEAD and POST).
func (a *API) AdminAjax(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		httpx.AjaxZero(w, http.StatusMethodNotAllowed)
		return
	}
	action := r.FormValue("action")
	h, ok := a.actions()[action]
	if !ok && a.d.Wishlist != nil {
		h = a.d.Wishlist.Ajax(action)
		ok = h != nil
	}
	if !ok {
		httpx.AjaxZero(w, http.StatusBadRequest)
		return
	}
	h(w, r)
}
