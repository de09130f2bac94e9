package server

import (
	"net/http"
	"strings"
	"vitrine/internal/analyticsapi"

	"vitrine/internal/adminapi"
	"vitrine/internal/httpx"
)

// REST cookie auth, as WordPress does it: a logged-in viewer's REST calls
// carry X-WP-Nonce (a wp_rest nonce bound to the user, httpx.Sessions'
// RESTNonce); a bad one is 403 rest_cookie_invalid_nonce, and admin-ajax's
// rest-nonce action hands out a fresh one (internal/storefront, with the
// rest of the logged-in frame).

// withRESTAuth applies WordPress's REST cookie check to /wp-json/ for a
// logged-in viewer. The nonce comes in X-WP-Nonce (or _wpnonce). A nonce
// that does not verify for the viewer is 403 rest_cookie_invalid_nonce.
// Without one, WordPress treats the call as a visitor's; so do the
// WordPress routes here (wp/v2). The Store API keeps the viewer without
// it: its writes are guarded by its own Nonce header, bound to the
// customer's cart, and the customer's cart is what the storefront means.
//
// WooCommerce's REST API (/wp-json/wc/v3/) also takes a REST API key when
// the request has no logged-in viewer by then (apikeys.go): the request
// acts as the key's user, without a nonce; bad credentials are refused
// there with WooCommerce's errors.
func (s *Server) withRESTAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := httpx.UserOf(r)
		if u == nil || !strings.HasPrefix(r.URL.Path, "/wp-json/") {
			if r, done := s.withKeyUser(w, r); !done {
				next.ServeHTTP(w, r)
			}
			return
		}
		n := r.Header.Get("X-WP-Nonce")
		if n == "" {
			n = r.URL.Query().Get("_wpnonce")
		}
		switch {
		case n != "" && !s.VerifyRESTNonce(n, u.ID, httpx.NonceTickAt(s.now())):
			w.Header().Set("Cache-Control", "no-store, private")
			httpx.WriteErrorRaw(w, http.StatusForbidden, "rest_cookie_invalid_nonce", "Cookie check failed", nil)
			return
		case n == "" && (strings.HasPrefix(r.URL.Path, "/wp-json/wp/") || adminPath(r.URL.Path)):
			var done bool
			if r, done = s.withKeyUser(w, httpx.WithViewer(r, nil)); done {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// withKeyUser is r acting as the user of its REST API key, on the paths
// that take one (keyPath), when it carries one; done when the key was
// refused (the refusal is answered).
func (s *Server) withKeyUser(w http.ResponseWriter, r *http.Request) (_ *http.Request, done bool) {
	if httpx.UserOf(r) != nil || !keyPath(r.URL.Path) {
		return r, false
	}
	u, done := s.keyAuth.Authenticate(w, r)
	if u != nil {
		r = httpx.WithViewer(r, &httpx.Viewer{User: u, APIKey: true})
	}
	return r, done
}

// adminPath reports whether p is the admin API's (internal/adminapi), which
// like WordPress's own routes takes the login cookie only with a nonce.
func adminPath(p string) bool {
	if strings.HasPrefix(p, analyticsapi.Prefix+"/") {
		return true
	}
	for _, pre := range adminapi.Prefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}
