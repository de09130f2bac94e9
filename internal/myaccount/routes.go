package myaccount

import (
	"net/http"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
)

// MyAccount answers GET /my-account/: the login and registration
// forms for a visitor (login_page.go), the dashboard for a customer
// (pages.go).
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
