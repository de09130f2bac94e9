package server

import (
	"net/http"
	"slices"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/storefront"
)

// Coming-soon mode (--coming-soon). Staff (users who can edit
// pages: shop managers and administrators) browse and buy as usual and see
// the footer banner (internal/storefront's frame). Everyone else, visitors
// and customers alike, gets:
//
//   - the coming-soon page on every storefront path, whatever the method:
//     503 Service Unavailable with Retry-After, noindex, never stored
//     (WooCommerce answers its coming-soon page with 503 and Retry-After
//     too: the shop is not there yet, come back later);
//   - the vitrine_coming_soon error (503, the surface's own shape) from
//     the REST API (Store API products, cart and checkout, contact forms),
//     from the shop ajax endpoint (/?wc-ajax=, cart and wallet calls) and
//     from the admin-ajax actions that are not the login's.
//
// What stays reachable so staff can log in, and so the shop keeps working
// behind the scenes: /my-account/ and everything under it (login,
// registration, log out, lost password, email verification, two-factor),
// the login's admin-ajax actions and its bot-check challenge, the banner's
// dismissal, /wp-admin/ (which sends non-staff to the login), WooCommerce's
// REST API /wp-json/wc/v3/ (staff only, by cookie or REST API key; a
// key's user is known only past this check), built assets,
// the favicon, the manifest, robots.txt, health checks, PayPal's webhooks
// and the demo sandbox.
//
// The page cache: a visitor's request is answered here, before any route,
// so it never reaches the cached shop pages; staff are logged in, and
// logged-in viewers always bypass the page cache. The coming-soon page is
// rendered and kept apart by internal/storefront, never under a page URL,
// so neither can be served in place of the other.

// comingSoonRetryAfter is the Retry-After of coming-soon answers, seconds.
const comingSoonRetryAfter = "3600"

// comingSoonCode and comingSoonMessage are the REST and ajax refusals'.
const (
	comingSoonCode    = "vitrine_coming_soon"
	comingSoonMessage = storefront.ComingSoonMessage
)

// comingSoonActions are the admin-ajax actions visitors may call in
// coming-soon mode: the login and registration form's.
var comingSoonActions = map[string]bool{
	"wordfence_ls_authenticate":     true,
	"wordfence_ls_register_support": true,
	"rest-nonce":                    true,
}

// withComingSoon answers for the shop while it is in coming-soon mode
// (staff turn it on and off in the admin while the shop runs).
func (s *Server) withComingSoon(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.live().ComingSoon {
			next.ServeHTTP(w, r)
			return
		}
		if u := httpx.UserOf(r); (u != nil && u.CanEditPages()) || comingSoonOpen(r) {
			next.ServeHTTP(w, r)
			return
		}
		noteRoute(w, "coming-soon") // the metrics' route label (edge.go)
		h := w.Header()
		h.Set("Retry-After", comingSoonRetryAfter)
		h.Set("Cache-Control", "no-store, private")
		switch {
		case strings.HasPrefix(r.URL.Path, "/wp-json/"):
			httpx.WriteErrorRaw(w, http.StatusServiceUnavailable, comingSoonCode, comingSoonMessage, nil)
		case r.URL.Path == "/wp-admin/admin-ajax.php":
			httpx.AjaxZero(w, http.StatusServiceUnavailable)
		case r.URL.Query().Has("wc-ajax"):
			httpx.WCAjaxHeaders(w)
			httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"error": true, "code": comingSoonCode, "message": comingSoonMessage})
		default:
			s.renderer.ComingSoon(w, r) // internal/storefront
		}
	})
}

// comingSoonOpen reports whether a request is one a visitor may make in
// coming-soon mode (see the top of this file).
func comingSoonOpen(r *http.Request) bool {
	p := r.URL.Path
	switch p {
	case "/my-account", "/favicon.svg", "/favicon.ico", "/manifest.webmanifest", "/robots.txt", "/healthz", "/readyz",
		"/wp-json/paypal/v1/incoming", "/wp-admin", "/wp-json/wc/v3":
		return true
	case "/wp-admin/admin-ajax.php":
		return comingSoonActions[r.FormValue("action")]
	}
	if slices.Contains(storefront.IconPaths(), p) { // the manifest's icons
		return true
	}
	for _, prefix := range []string{"/my-account/", "/assets/", "/wp-json/vitrine/v1/botcheck/", "/wp-json/wp/v2/users/", "/wp-json/wc/v3/", "/wp-json/wc-analytics/",
		"/wp-admin/", SandboxPrefix + "/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}
