package server

import (
	"net/http"
	"strings"

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
func (s *Server) withRESTAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := httpx.UserOf(r)
		if u == nil || !strings.HasPrefix(r.URL.Path, "/wp-json/") {
			next.ServeHTTP(w, r)
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
			r = httpx.WithViewer(r, nil)
		}
		next.ServeHTTP(w, r)
	})
}

// adminPath reports whether p is the admin API's (internal/adminapi), which
// like WordPress's own routes takes the login cookie only with a nonce.
func adminPath(p string) bool {
	for _, pre := range adminapi.Prefixes {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}
