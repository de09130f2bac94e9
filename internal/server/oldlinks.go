package server

import (
	"net/http"

	"vitrine/internal/oldlinks"
)

// The old shop's links (internal/oldlinks): a request the routes would
// answer with the 404 page, and the home page with one of WordPress's
// lookup keys (?p=, ?page_id=, ?product=, …), ask the service where that
// object is now and answer 301 to it, 410 when it was deleted since, or
// the 404 page. Every other request, and every cached page, never reads
// the legacy table. Neither answer is kept in the page cache, and the 404
// page is one rendering kept for every miss, never per URL, so a link
// that missed before an import resolves on the first request after it.

// routeOldLink is the route label of old links' answers (metrics, logs).
const routeOldLink = "old-link"

// oldLink answers r, which would get the 404 page, when it is an old link
// (storefront.PagesDeps.OldLink). The home page's lookups are answered by
// homeOldLinks before the home page, so they are not looked up again here.
func (s *Server) oldLink(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path == "/" {
		return false
	}
	res, err := s.oldLinks.Resolve(r.Context(), r.URL.Path, r.URL.RawQuery)
	if err != nil {
		s.renderer.PageError(w, "resolve an old link", err) // 503 when the store is down (edge.go)
		return true
	}
	return s.answerOldLink(w, r, res)
}

// homeOldLinks answers the home page's lookup queries (oldlinks.Asks)
// before page: the object's page, 410, or the 404 page for a lookup that
// names nothing, as WordPress answers it.
func (s *Server) homeOldLinks(page http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" || !oldlinks.Asks(r.URL.Query()) {
			page(w, r)
			return
		}
		res, err := s.oldLinks.Resolve(r.Context(), "/", r.URL.RawQuery)
		if err != nil {
			s.renderer.PageError(w, "resolve an old link", err)
			return
		}
		if !s.answerOldLink(w, r, res) {
			s.renderer.NotFound(w, r)
		}
	}
}

// answerOldLink writes res and reports whether there was anything to write.
func (s *Server) answerOldLink(w http.ResponseWriter, r *http.Request, res oldlinks.Result) bool {
	switch res.Answer {
	case oldlinks.Moved:
		noteRoute(w, routeOldLink)
		w.Header().Set("Cache-Control", "no-cache")
		http.Redirect(w, r, res.Target, http.StatusMovedPermanently)
		return true
	case oldlinks.Gone:
		noteRoute(w, routeOldLink)
		s.renderer.Gone(w, r)
		return true
	}
	return false
}
