// Package adminapi is the admin's JSON API: the HTTP adapter the
// admin app (web/src/admin) calls to run the shop. Like every surface it is
// thin: a handler parses and checks the request's shape, calls one use case
// of a capability's service (catalog, checkout, coupon, review, contact,
// media, audit…) and shapes the answer; the rules live in the services.
//
// Paths follow WordPress and WooCommerce's REST API where one exists
// (/wp-json/wc/v3/products, /wp-json/wc/v3/orders, /wp-json/wp/v2/media…),
// with their field names, so tools written for those APIs read ours; what
// has no WooCommerce twin lives under /wp-json/vitrine/v1/admin/.
//
// Every route is for staff only: a logged-in shop manager or administrator
// whose request carries a valid wp_rest nonce (X-WP-Nonce). The server's
// REST cookie check (server.withRESTAuth) refuses a bad nonce with 403
// rest_cookie_invalid_nonce and treats a call without one as a visitor's,
// so a page on another site cannot ride the login cookie. A visitor gets
// 401 rest_not_logged_in, a customer 403 rest_forbidden.
//
// Every list answers in one way, WordPress's (page and per_page, the
// X-WP-Total headers, search, filters, orderby and order), with its status
// tabs and bulk actions, through one helper (list.go).
//
// Errors have WordPress's REST shape, {"code","message","data":{"status"}},
// mapped from the services' errors in one place (errors.go). Every write
// that succeeds is recorded in the audit log (audit.go).
package adminapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/audit"
	"vitrine/internal/backup"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contact"
	"vitrine/internal/coupon"
	"vitrine/internal/currency"
	"vitrine/internal/integration"
	"vitrine/internal/media"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/privacy"
	"vitrine/internal/reports"
	"vitrine/internal/review"
	"vitrine/internal/settings"
	"vitrine/internal/webhook"
	"vitrine/internal/wishlist"
)

// Deps are what the API uses. The server builds them; each capability adds
// its service here.
type Deps struct {
	// Viewer is the request's logged-in user, nil for a visitor (and for a
	// call without a REST nonce).
	Viewer func(*http.Request) *account.User
	// ByAPIKey reports whether the request acts through a REST API key
	// (WooCommerce's clients) rather than the admin's session; nil: never.
	ByAPIKey func(*http.Request) bool
	// ClientIP is the address the request came from (the server's trusted
	// proxy rules).
	ClientIP func(*http.Request) string
	// Audit records every admin write.
	Audit *audit.Service
	// Checkout places the orders staff create (orders_create.go).
	Checkout *checkout.Service
	// Accounts are the customers' back office (customers.go).
	Accounts *account.Service
	// Coupons is the coupons' admin (/wc/v3/coupons).
	Coupons *coupon.Service
	// Settings are the shop's settings (settings.go).
	Settings *settings.Service
	// Rules are the shipping zones and tax rates (shipping.go); Base the
	// shop's currency, which their amounts are in.
	Rules *settings.Rules
	// Payments are the payment methods (payments.go).
	Payments *settings.PaymentMethods
	Base     money.Currency
	// Retention is the data retention policy (retention.go);
	// RetentionLastRun the newest run done and its JSON counts (false:
	// none yet).
	Retention        *settings.Retention
	RetentionLastRun func(ctx context.Context) (at time.Time, summary string, ok bool, err error)
	// Currencies are the currencies and rates (currencies.go).
	Currencies *currency.Service
	// TestMail sends the settings' test message at once (ErrMailOff when
	// the shop has no SMTP server).
	TestMail func(ctx context.Context, to string) error
	// Orders is the orders back office; Currency how the shop writes a
	// currency's amounts (an order's).
	Orders   *orders.Service
	Currency func(ctx context.Context, code string) money.Currency
	// Media is the media library (media.go).
	Media *media.Library
	// Reviews moderates product reviews (reviews.go).
	Reviews *review.Service
	// Contact is the contact inbox (messages.go).
	Contact *contact.Service
	// Backups is the scheduled backups' status (storage.go); nil: none.
	Backups func() backup.Status
	// BaseURL makes absolute storefront links (product permalinks).
	BaseURL string
	// BaseCountry is the shop's country: the order screen's address lines
	// leave it out, as the storefront's do (internal/address).
	BaseCountry string
	// Catalog is the catalogue's admin service (products.go);
	// CatalogChanged is called after each of its writes, so this
	// instance drops the cached pages at once (the change log tells the
	// others within a poll).
	Catalog *catalog.Admin
	// Wishlists are the shoppers' wishlists: the admin reads their
	// counts only (wishlists.go); nil: no wishlist routes.
	Wishlists      *wishlist.Service
	CatalogChanged func(context.Context)
	// SearchSettings are the shop search's synonyms; Search lists the
	// searches that found nothing (search.go).
	SearchSettings *settings.SearchSettings
	Search         *catalog.SearchService
	// Webhooks are the webhooks (webhooks.go); nil: no webhook routes.
	// Written is called after each write that succeeded (the server
	// wakes its webhook worker: the write may have queued deliveries).
	Webhooks *webhook.Service
	Written  func()
	// Reports computes the REST API's reports (reports.go).
	Reports *reports.Service
	// Keys are the REST API keys (apikeys.go, administrators only); nil:
	// no key routes.
	Keys *integration.Service
	// Privacy answers the privacy requests (privacy.go); KickMail wakes
	// the mail worker after a write that queued mail.
	Privacy  *privacy.Service
	KickMail func()
	// Alerts are the back-in-stock alerts' figures (alerts.go); nil: no
	// alert routes.
	Alerts *alerts.Service
	// System tells the system status what the server and its store are
	// (system.go); nil answers empty values.
	System func(context.Context) (SystemInfo, error)
	Log    *slog.Logger
	Now    func() time.Time
}

// API serves the admin routes.
type API struct {
	d   Deps
	mux *http.ServeMux
	// patterns are the routes registered, in order (the index, index.go).
	patterns []string
}

// Prefixes are the paths the API answers under; the server mounts it there.
var Prefixes = []string{"/wp-json/wc/v3", "/wp-json/wc/v3/", "/wp-json/wp/v2/media", "/wp-json/wp/v2/media/", "/wp-json/vitrine/v1/admin/"}

// New builds the API.
func New(d Deps) *API {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Currency == nil {
		d.Currency = func(_ context.Context, code string) money.Currency {
			c, _ := money.Lookup(code)
			return c
		}
	}
	if d.ClientIP == nil {
		d.ClientIP = func(r *http.Request) string { return r.RemoteAddr }
	}
	a := &API{d: d, mux: http.NewServeMux()}
	a.routes()
	// Anything else under the prefixes: WordPress's no-route answer.
	for _, p := range Prefixes {
		a.mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			writeError(w, errNoRoute)
		})
	}
	return a
}

// ServeHTTP implements http.Handler.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	a.mux.ServeHTTP(w, r)
}

// Staff is the staff member a request is made by.
type Staff struct {
	ID   int64
	Name string
	Role string
}

// Handler is an admin route: it answers, or returns an error that
// writeError turns into the REST error shape.
type Handler func(w http.ResponseWriter, r *http.Request, st Staff) error

// staff guards h: staff only, and writes recorded in the audit log.
func (a *API) staff(h Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u := a.d.Viewer(r)
		if u == nil {
			writeError(w, errNotLoggedIn)
			return
		}
		if !staffRole(u.Role) {
			writeError(w, errForbidden)
			return
		}
		name := u.DisplayName
		if name == "" {
			name = u.Email
		}
		st := Staff{ID: u.ID, Name: name, Role: u.Role}
		if !isWrite(r.Method) {
			if err := h(w, r, st); err != nil {
				a.fail(w, r, err)
			}
			return
		}
		a.audited(w, r, st, h)
	}
}

func staffRole(role string) bool {
	return role == account.RoleShopManager || role == account.RoleAdministrator
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// Guard is h behind the admin API's guard (staff only; writes audited),
// for the routes of other surfaces the server mounts beside it
// (internal/analyticsapi).
func (a *API) Guard(h Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store, private")
		a.staff(h)(w, r)
	}
}
