// Package myaccount is the shopper's account surface: the login and
// registration forms (GET and POST /my-account/) and the login-security
// plugin's ajax calls, the bot-check challenge endpoint, the customer's
// account pages (dashboard, orders, addresses, account details, deleting
// the account), the security page (two-factor, recovery codes, remembered
// devices), the lost-password and email-verification pages, and log out.
// It also owns who is logged in: the login and remember-device cookies, the
// viewer middleware, and logging in, out and renewing a session.
//
// Like every surface it is thin: handlers read the wire, check nonces, call
// a use case of the account, bot-check or support service, and shape the
// answer. Rendering a page is the server's (Pages); the routes are
// registered in the server's one route table.
package myaccount

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/privacy"
	"vitrine/internal/render"
	"vitrine/internal/support"
)

// Pages is the server's page rendering the surface uses.
// Wishlist is the wishlist's part of logging in and out
// (internal/wishlistapi).
type Wishlist interface {
	MergeAtLogin(w http.ResponseWriter, r *http.Request, userID int64)
	AtLogout(w http.ResponseWriter)
}

type Pages interface {
	// PageContext is the context to load a per-request page with (the
	// viewer's settings).
	PageContext(r *http.Request) context.Context
	// RenderPage renders a loaded page.
	RenderPage(ctx context.Context, uri string, res *pages.Result) (*render.Page, error)
	// SendPersonal renders and sends a page loaded for this request
	// alone; err is the load's, what names the page in the log.
	SendPersonal(w http.ResponseWriter, r *http.Request, what, uri string, res *pages.Result, err error)
	// PageError answers a page that could not be shown (500), logged as what.
	PageError(w http.ResponseWriter, what string, err error)
	// NotFound answers the shop's 404 page.
	NotFound(w http.ResponseWriter, r *http.Request)
}

// Deps are what the surface uses. The server builds them.
type Deps struct {
	Accounts *account.Service
	// Support takes messages from visitors whose registration the
	// bot-check refused.
	Support *support.Service
	// Botcheck is the bot-check of a purpose ("login", "register", …),
	// nil for an unknown one; Login is the login's (the proof, the normal
	// and the stronger check).
	Botcheck func(purpose string) *botcheck.Service
	Login    *botcheck.Login
	// Carts merges a guest's cart into the customer's at login.
	Carts  *cart.Service
	Loader *pages.Loader
	// Sessions names the cart session, signs nonces and names the cookies.
	Sessions *httpx.Sessions
	// Checkout is the checkout's configuration: the address forms'
	// countries and rules.
	Checkout *checkout.Config
	// BaseURL makes the mails' absolute links.
	BaseURL string
	// RememberDeviceOff hides the code overlay's "remember this device"
	// checkbox and ignores remember-device cookies.
	RememberDeviceOff bool
	Pages             Pages
	// NoRoute answers an unknown /wp-json/ path (an unknown bot-check).
	NoRoute http.HandlerFunc
	// StoreDown answers 503 when the store cannot be reached (the viewer
	// middleware: a visitor's pages would mislead a customer).
	StoreDown http.HandlerFunc
	// ClientIP is the request's client address (the trusted proxy rules).
	ClientIP func(*http.Request) string
	// Currency is how the shop writes a currency's amounts (an order's).
	Currency func(ctx context.Context, code string) money.Currency
	// TestNotice is what an order's page says of a test order ("" for a
	// real one).
	TestNotice func(*checkout.Order) string
	// SiteName is the shop's name now (the mails').
	SiteName func() string
	// Privacy takes the customer's privacy requests; nil refuses them.
	Privacy *privacy.Service
	// Wishlist merges a guest's wishlist into the customer's at login
	// and forgets the browser's count at log-out (nil: no wishlist).
	Wishlist Wishlist
	// KickMail tells the mail outbox a message is queued.
	KickMail func()
	// AtLogin runs what a login resets (a failure is logged by it).
	AtLogin func(context.Context, *account.User)
	Log     *slog.Logger
	Now     func() time.Time
}

// Account serves the my-account routes.
type Account struct {
	d Deps
}

// New builds the surface.
func New(d Deps) *Account {
	return &Account{d: d}
}

// MyAccount answers GET /my-account/: the login and registration
// forms for a visitor (login_page.go), the dashboard for a customer
// (account_pages.go).
func (h *Account) MyAccount(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if httpx.UserOf(r) == nil {
		h.handleLoginPage(w, r)
		return
	}
	h.handleAccountDashboard(w, r)
}

// MyAccountPost answers POST /my-account/: the login and
// registration forms (login_page.go).
func (h *Account) MyAccountPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	h.handleLoginPost(w, r)
}

// LogoutURL is the viewer's log-out link, with its nonce (WooCommerce's
// customer-logout endpoint; login_page.go answers it).
func (h *Account) LogoutURL(r *http.Request) string {
	u := httpx.UserOf(r)
	if u == nil {
		return ""
	}
	return "/my-account/customer-logout/?_wpnonce=" + h.d.Sessions.ActionNonce("log-out", cart.CustomerSession(u.ID), httpx.NonceTickAt(h.d.Now()))
}

// customerOr302 is the request's logged-in user for a page that is
// personal (no-store); without one it sends the visitor to /my-account/
// (302) and is nil.
func customerOr302(w http.ResponseWriter, r *http.Request) *account.User {
	w.Header().Set("Cache-Control", "no-store, private")
	u := httpx.UserOf(r)
	if u == nil {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
	}
	return u
}
