package server

import (
	"context"
	"net/http"
	"strings"

	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/pages"
)

// Content pages (internal/contentpage): a published page answers at
// /<slug>/, cached like a listing, and /<slug> redirects there. The mux
// cannot route GET /{slug}/{$} beside /assets/, /media/ and /wp-json/ (the
// patterns would conflict), so the catch-all route asks here first: a
// path of one segment that names a published page is that page, anything
// else the 404 page. Which pages are published is known in memory
// (contentpage.Service.Links, reset by the change follower), so a junk URL
// still costs no store read and no render. Slugs the shop's own routes use
// are refused when a page is set (contentpage.Reserved).

// handleFallback answers every request no route names.
func (s *Server) handleFallback(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if slug, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/"); ok && s.published(r.Context(), slug) {
			s.servePage(w, r, contentpage.Path(slug), func(ctx context.Context, u string) (*pages.Result, error) {
				return s.loader.Content(ctx, u, slug)
			})
			return
		}
	}
	s.NotFound(w, r)
}

// published reports whether slug names a published content page.
func (s *Server) published(ctx context.Context, slug string) bool {
	if contentpage.CheckSlug(slug) != nil {
		return false
	}
	links, err := s.pages.Links(ctx)
	if err != nil {
		s.log.Warn("content pages", "err", err)
		return false
	}
	for _, l := range links {
		if l.Slug == slug {
			return true
		}
	}
	return false
}

// terms is what the checkout's terms lightbox shows: the published terms
// page when there is one (read on every checkout, so a change shows on
// the next one), else the configured terms.
func (s *Server) terms(ctx context.Context) *checkout.Terms {
	p, err := s.pages.Terms(ctx)
	if err != nil {
		s.log.Warn("terms page", "err", err)
	}
	if p == nil {
		return s.cfg.Checkout.Terms
	}
	return &checkout.Terms{Title: p.Title, HTML: p.Body}
}
