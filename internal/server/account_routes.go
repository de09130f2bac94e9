package server

import (
	"net/http"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
)

// handleMyAccount answers GET /my-account/: the login and registration
// forms for a visitor (login_page.go), the dashboard for a customer
// (account_pages.go).
func (s *Server) handleMyAccount(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if httpx.UserOf(r) == nil {
		s.handleLoginPage(w, r)
		return
	}
	s.handleAccountDashboard(w, r)
}

// handleMyAccountPost answers POST /my-account/: the login and
// registration forms (login_page.go).
func (s *Server) handleMyAccountPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	s.handleLoginPost(w, r)
}

// logoutURL is the viewer's log-out link, with its nonce (WooCommerce's
// customer-logout endpoint; login_page.go answers it).
func (s *Server) logoutURL(r *http.Request) string {
	u := httpx.UserOf(r)
	if u == nil {
		return ""
	}
	return "/my-account/customer-logout/?_wpnonce=" + s.ActionNonce("log-out", cart.CustomerSession(u.ID), httpx.NonceTickAt(s.now()))
}
