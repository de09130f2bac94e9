package storefront

import (
	"context"
	"net/http"
	"sync"
	"time"

	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// The coming-soon page (the server's coming-soon mode answers visitors
// with it, internal/server/comingsoon.go).

// ComingSoonMessage is the coming-soon mode's refusal: the REST and ajax
// answers' message, and the page's plain fallback.
const ComingSoonMessage = "The shop is not open yet: it is in coming-soon mode. Please come back soon."

// ComingSoon answers the coming-soon page (the server's coming-soon
// mode): one rendering for every path and every visitor, kept in memory,
// sent 503 (with the Retry-After the mode set) and never stored.
func (pg *Pages) ComingSoon(w http.ResponseWriter, r *http.Request) {
	p, err := pg.comingSoonPage(r.Context())
	if err != nil {
		pg.d.Log.Warn("coming-soon page", "err", err)
		http.Error(w, ComingSoonMessage, http.StatusServiceUnavailable)
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

func (pg *Pages) comingSoonPage(ctx context.Context) (*render.Page, error) {
	c := &pg.comingSoon
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.page != nil {
		return c.page, nil
	}
	// Detached from the caller, as shared renders are.
	ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(ctx)), 10*time.Second)
	defer cancel()
	res, err := pg.d.Loader.ComingSoon(ctx)
	if err != nil {
		return nil, err
	}
	p, err := pg.RenderPage(ctx, pages.ComingSoonURL, res)
	if err != nil {
		return nil, err
	}
	p.Compress() // kept and sent many times
	c.page = p
	return p, nil
}

// resetComingSoon drops the kept page (the settings it shows changed).
func (pg *Pages) resetComingSoon() {
	pg.comingSoon.mu.Lock()
	pg.comingSoon.page = nil
	pg.comingSoon.mu.Unlock()
}
