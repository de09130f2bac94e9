// Package storeapi is the WooCommerce Store API (/wp-json/wc/store/v1):
// the catalogue's reads (products, categories, attributes, reviews), the
// cart and its coupons, the batch of cart writes, and the checkout.
//
// It owns the API's JSON shapes too. The catalogue's (Builder: products,
// variations, terms, reviews) are what the pages reuse as their data, so
// the React app reads one shape whether it came inlined in the HTML or
// from the API; the cart's (Cart) is what wc-ajax, the no-script cart and
// the checkout page show.
//
// Like every surface it is thin: a handler parses the request, calls one
// use case of a service (catalog, cart, checkout, review) and shapes the
// answer. The catalogue's reads are cached by the server (Cache) until a
// change they show is read from the change log; cart and checkout answers
// are per session and never cached.
package storeapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/sync/singleflight"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/render"
	"vitrine/internal/review"
)

// Deps are what the API uses. The server builds them.
type Deps struct {
	// Sessions name a request's cart session and sign its cookie,
	// Cart-Tokens and nonces.
	Sessions *httpx.Sessions
	// Catalog is the catalogue as the storefront reads it; Products the
	// products the cart and the review listings load, kept in memory.
	Catalog  catalog.Store
	Products *catalog.Cache
	Reviews  *review.Service
	Carts    *cart.Service
	// Checkout prices carts and places orders; Payments are the methods
	// it offers.
	Checkout *checkout.Service
	Payments *payment.Registry
	// Currencies are the currencies shoppers choose from.
	Currencies *currency.Service
	// Cache keeps the catalogue's read answers (products_api.go).
	Cache Cache
	// BaseURL makes absolute links; Currency is the shop's base currency;
	// CartLifetime how long a cart lives after its last write.
	BaseURL      string
	Currency     money.Currency
	CartLifetime time.Duration
	// ShopperCurrency is the currency the request's shopper chose (or was
	// given); CurrencyTable converts base prices into one;
	// SetCurrencyCookie makes code the shopper's currency.
	ShopperCurrency   func(*http.Request) currency.Currency
	CurrencyTable     func(context.Context, currency.Currency) (*currency.Table, error)
	SetCurrencyCookie func(w http.ResponseWriter, code string)
	// ClientIP is the address the request came from (the server's trusted
	// proxy rules).
	ClientIP func(*http.Request) string
	// PlaceOrder places a checkout's order as the request's viewer: a
	// customer's, or a visitor's with the account they asked for
	// (createAccount, password), logging them in.
	PlaceOrder func(w http.ResponseWriter, r *http.Request, pr checkout.PlaceRequest, createAccount bool, password string) (*checkout.Order, error)
	// SetCartCookies writes WooCommerce's woocommerce_items_in_cart and
	// woocommerce_cart_hash cookies when they changed.
	SetCartCookies func(w http.ResponseWriter, r *http.Request, nonEmpty bool, hash string)
	Log            *slog.Logger
	Now            func() time.Time
}

// Cache keeps cacheable answers until the catalogue changes what they show
// (the server's response cache, emptied by its change-log follower).
type Cache interface {
	Get(key string) (*render.Page, bool)
	// Begin is called before an answer is computed; the put it returns
	// stores the answer unless a catalogue change began to be applied
	// since, which the answer may predate.
	Begin(ctx context.Context) (put func(key string, p *render.Page))
}

// API serves the Store API's routes; the server's route table registers
// its handlers.
type API struct {
	d Deps
	// flight computes one cached read at a time per key.
	flight singleflight.Group
}

// New builds the API.
func New(d Deps) *API {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}
