package storefront

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

// Fallback answers every request no route names.
func (f *Storefront) Fallback(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if slug, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/"); ok && f.published(r.Context(), slug) {
			f.servePage(w, r, contentpage.Path(slug), func(ctx context.Context, u string) (*pages.Result, error) {
				return f.d.Loader.Content(ctx, u, slug)
			})
			return
		}
	}
	f.NotFound(w, r)
}

// published reports whether slug names a published content page.
func (f *Storefront) published(ctx context.Context, slug string) bool {
	if contentpage.CheckSlug(slug) != nil {
		return false
	}
	links, err := f.d.ContentPages.Links(ctx)
	if err != nil {
		f.d.Log.Warn("content pages", "err", err)
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
func (f *Storefront) terms(ctx context.Context) *checkout.Terms {
	p, err := f.d.ContentPages.Terms(ctx)
	if err != nil {
		f.d.Log.Warn("terms page", "err", err)
	}
	if p == nil {
		return f.d.CheckoutConfig.Terms
	}
	return &checkout.Terms{Title: p.Title, HTML: p.Body}
}
