package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// Coming-soon mode (--coming-soon). Staff (users who can edit
// pages: shop managers and administrators) browse and buy as usual and see
// the footer banner (frame.go). Everyone else, visitors and customers
// alike, gets:
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
// dismissal, /wp-admin/ (which sends non-staff to the login), built assets,
// the favicon, the manifest, robots.txt, health checks, PayPal's webhooks
// and the demo sandbox.
//
// The page cache: a visitor's request is answered here, before any route,
// so it never reaches the cached shop pages; staff are logged in, and
// logged-in viewers always bypass the page cache (servePage). The
// coming-soon page is kept apart (comingSoonCache), never under a page
// URL, so neither can be served in place of the other.

// comingSoonRetryAfter is the Retry-After of coming-soon answers, seconds.
const comingSoonRetryAfter = "3600"

// comingSoonCode and comingSoonMessage are the REST and ajax refusals'.
const (
	comingSoonCode    = "vitrine_coming_soon"
	comingSoonMessage = "The shop is not open yet: it is in coming-soon mode. Please come back soon."
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
			s.serveComingSoon(w, r)
		}
	})
}

// comingSoonOpen reports whether a request is one a visitor may make in
// coming-soon mode (see the top of this file).
func comingSoonOpen(r *http.Request) bool {
	p := r.URL.Path
	switch p {
	case "/my-account", "/favicon.svg", "/favicon.ico", "/manifest.webmanifest", "/robots.txt", "/healthz", "/readyz",
		"/wp-json/paypal/v1/incoming", "/wp-admin":
		return true
	case "/wp-admin/admin-ajax.php":
		return comingSoonActions[r.FormValue("action")]
	}
	for _, ic := range appIcons { // the manifest's icons (manifest.go)
		if p == ic.path {
			return true
		}
	}
	for _, prefix := range []string{"/my-account/", "/assets/", "/wp-json/vitrine/v1/botcheck/", "/wp-json/wp/v2/users/",
		"/wp-admin/", SandboxPrefix + "/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// serveComingSoon answers the coming-soon page: one rendering for every
// path and every visitor, kept in memory, sent 503 and never stored.
func (s *Server) serveComingSoon(w http.ResponseWriter, r *http.Request) {
	p, err := s.comingSoonPage(r.Context())
	if err != nil {
		s.log.Warn("coming-soon page", "err", err)
		http.Error(w, comingSoonMessage, http.StatusServiceUnavailable)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	httpx.WriteBody(w, r, p)
}

// comingSoonCache holds the rendered coming-soon page. It depends on the
// shop's settings only, which live as long as the process.
type comingSoonCache struct {
	mu   sync.Mutex
	page *render.Page
}

func (s *Server) comingSoonPage(ctx context.Context) (*render.Page, error) {
	c := &s.comingSoon
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.page != nil {
		return c.page, nil
	}
	// Detached from the caller, as shared renders are.
	ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(ctx)), 10*time.Second)
	defer cancel()
	res, err := s.loader.ComingSoon(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.RenderPage(ctx, pages.ComingSoonURL, res)
	if err != nil {
		return nil, err
	}
	p.Compress() // kept and sent many times
	c.page = p
	return p, nil
}
