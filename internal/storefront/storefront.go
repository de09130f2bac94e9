// Package storefront is the shop's pages and files: the listings (home,
// shop, categories, tags, search), product pages and their reviews, the
// cart and checkout pages with their no-script forms, content pages, the
// contact page, the sitemaps, robots.txt, built assets, media, the
// favicon and the web app manifest.
//
// Two values make it up. Pages renders: the page cache's reads and
// stale-while-revalidate, the 404 and coming-soon pages, pages rendered
// for one viewer and the logged-in frame. The other surfaces (the account
// pages, the wallet's and the contact form's) render through it as their
// Pages. Storefront is the page routes' handlers, which render through
// Pages too. Like every surface it is thin: handlers read the wire, call
// a use case or the page loader, and answer; the routes are registered in
// the server's one route table, and the caches are the server's, which
// its change follower invalidates.
package storefront

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/media"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/review"
	"vitrine/internal/storeapi"
)

// Deps are what the storefront's handlers use. The server builds them.
type Deps struct {
	// Pages renders (NewPages); the handlers answer through it.
	Pages    *Pages
	Sessions *httpx.Sessions
	Loader   *pages.Loader
	// Catalog is the catalogue (categories kept in memory): the review
	// form's product, the category and tag sitemaps.
	Catalog catalog.Store
	// Sitemap reads the product sitemaps without loading products.
	Sitemap *catalog.Sitemap
	// Media serves the stored images under /media/.
	Media *media.Library
	// Static is the built web app (nil: none); its assets are read into
	// memory by New.
	Static fs.FS
	// Sitemaps is the sitemaps' own cache (SitemapCacheBytes), read
	// through as the Store API reads its own.
	Sitemaps storeapi.Cache
	Carts    *cart.Service
	Checkout *checkout.Service
	// CheckoutConfig is the start-up checkout configuration: the checkout
	// form's countries and rules, the shop's country, the configured terms.
	CheckoutConfig *checkout.Config
	Payments       *payment.Registry
	// Accounts are the customers' accounts (nil: the checkout offers no
	// "create an account").
	Accounts *account.Service
	// Account is the my-account surface: logging in a customer who
	// registered at checkout.
	Account Account
	// Store is the Store API: the cart and checkout answers the pages
	// show (its cart's shape is the pages' too).
	Store *storeapi.API
	// Wallet is the PayPal wallet's endpoints: its buttons and notices on
	// the checkout page.
	Wallet       Wallet
	Reviews      *review.Service
	ContentPages *contentpage.Service
	Currencies   *currency.Service
	// ReviewBotcheck is the review form's bot-check.
	ReviewBotcheck *botcheck.Service
	BaseURL        string
	// Currency is the shop's base currency.
	Currency     money.Currency
	CartLifetime time.Duration
	// ClientIP is the request's client address (the trusted proxy rules).
	ClientIP func(*http.Request) string
	// SetCartCookies writes WooCommerce's cart cookies when they changed.
	SetCartCookies func(w http.ResponseWriter, r *http.Request, nonEmpty bool, hash string)
	// KickMail tells the mail outbox a message is queued.
	KickMail func()
	// CurrencyOf is how the shop writes a currency's amounts (an order's).
	CurrencyOf func(ctx context.Context, code string) money.Currency
	// TestNotice is what an order's page says of a test order ("" for a
	// real one).
	TestNotice func(*checkout.Order) string
	Log        *slog.Logger
	Now        func() time.Time
}

// Account is what the storefront asks of the my-account surface.
type Account interface {
	// LogIn starts a session for u and answers the logged-in request.
	LogIn(w http.ResponseWriter, r *http.Request, u *account.User) (*http.Request, error)
	// SendVerification mails u the link that verifies their email.
	SendVerification(ctx context.Context, userID int64) error
}

// Wallet is what the checkout page shows of the PayPal wallet.
type Wallet interface {
	// CheckoutNotices are the notices of a buyer back from the wallet
	// (?wallet=), nil when none.
	CheckoutNotices(r *http.Request) *pages.CheckoutErrors
	// CheckoutView is the wallet's part of the checkout page (nil: off).
	CheckoutView(sess httpx.Session, now time.Time) *pages.WalletView
}

// Storefront serves the storefront's routes. It renders through its
// Pages, which it embeds.
type Storefront struct {
	*Pages
	d        Deps
	files    map[string]asset
	manifest atomic.Pointer[staticFile] // /manifest.webmanifest (manifest.go)
}

// New builds the storefront: the built assets are read into memory, the
// favicon, the manifest and its icons drawn.
func New(d Deps) (*Storefront, error) {
	files, err := loadAssets(d.Static)
	if err != nil {
		return nil, fmt.Errorf("load built assets: %w", err)
	}
	f := &Storefront{Pages: d.Pages, d: d, files: files}
	_, _ = faviconICO() // /favicon.ico is drawn once, at start (favicon.go)
	_ = iconFiles()     // and the manifest's icons (manifest.go)
	f.buildManifest()
	return f, nil
}

// SettingsChanged follows a save of the shop's settings: the pages kept
// rendered outside the page cache (the 404 and coming-soon pages) and
// the manifest carry the shop's name.
func (f *Storefront) SettingsChanged() {
	f.ResetNotFound()
	f.resetComingSoon()
	f.buildManifest()
}
