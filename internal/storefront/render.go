package storefront

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/usermeta"
)

// Rendering: the page cache's reads and writes, stale-while-revalidate,
// the 404 page, and pages rendered for one request (frame.go). The other
// surfaces render through Pages too.

// Engine renders a page's data (JSON) into the app's HTML: a
// render.Engine (VMs in this process) or render.Workers (worker processes).
type Engine interface {
	Render(ctx context.Context, url string, data []byte) (string, error)
}

// Live is the shop's settings in force (staff change them while the shop
// runs; the server swaps them whole).
type Live struct {
	pages.Live
	ComingSoon bool
}

// PagesDeps are what rendering uses. The server builds them.
type PagesDeps struct {
	Loader *pages.Loader
	// Engine renders on the server; nil: pages are rendered in the
	// browser only.
	Engine Engine
	Assets render.Assets
	// Cache is the page cache (the server's: its change follower drops
	// and marks stale what a change touches).
	Cache *render.Cache
	// CacheMaxAge bounds how long the kept 404 page is served.
	CacheMaxAge time.Duration
	// Sessions signs the frame's REST nonce.
	Sessions *httpx.Sessions
	// Meta keeps the per-user flags: the coming-soon banner's dismissal.
	Meta *usermeta.Service
	// Reviews answers a logged-in viewer's own held reviews of a product
	// and whether they may review it, for their part of a product page
	// (nil: neither).
	Reviews pages.ViewerReviews
	// Live is the settings in force.
	Live func() *Live
	// LogoutURL is the viewer's log-out link (the my-account surface's).
	LogoutURL func(*http.Request) string
	// Rendered observes a server render's time; RenderFailed counts the
	// pages sent client-rendered; RenderedAhead counts the changed pages
	// re-rendered before a request asked (all optional).
	Rendered      func(seconds float64)
	RenderFailed  func()
	RenderedAhead func()
	// AheadWorkers is how many pages are rendered ahead at once (0:
	// half the cores, at least one); AheadCPU the render time they may
	// spend per second, in cores (0: half the cores, at least half of
	// one; negative: no bound); AheadWithin, when set, renders ahead
	// only the pages asked for within it, the rest waiting for a request
	// (0: every page a change marks stale). See ahead.go.
	AheadWorkers int
	AheadCPU     float64
	AheadWithin  time.Duration
	// OldLink, when set, answers a GET or HEAD that would get the 404
	// page another way when it can (the old shop's links,
	// internal/oldlinks) and reports whether it did.
	OldLink func(http.ResponseWriter, *http.Request) bool
	Log     *slog.Logger
	Now     func() time.Time
}

// Pages renders the shop's pages: the Pages every surface renders with.
type Pages struct {
	d          PagesDeps
	flight     singleflight.Group
	notFound   notFoundCache   // the rendered 404 page
	comingSoon comingSoonCache // the rendered coming-soon page (comingsoon.go)
	ahead      aheadQueue      // the pages to render ahead (ahead.go)
}

// live is the settings in force.
func (pg *Pages) live() *Live { return pg.d.Live() }

// NewPages builds the rendering.
func NewPages(d PagesDeps) *Pages {
	nop := func() {}
	if d.Rendered == nil {
		d.Rendered = func(float64) {}
	}
	if d.RenderFailed == nil {
		d.RenderFailed = nop
	}
	if d.RenderedAhead == nil {
		d.RenderedAhead = nop
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	pg := &Pages{d: d}
	pg.initAhead()
	return pg
}

// loadFunc loads a cacheable page for its normalized URL.
type loadFunc func(ctx context.Context, pageURL string) (*pages.Result, error)

// servePage answers a page from the cache, or loads, renders, caches and
// answers it. pageURL is the page's normalized URL (listingURL, searchURL):
// the cache key and the only URL the loader and the render see, never the
// raw request. Concurrent misses for one key render once.
//
// The page is the same for every viewer: a logged-in viewer gets the
// shared page with their own part spliced in as it is sent (frame.go,
// sendPage); load must not depend on who asks.
func (pg *Pages) servePage(w http.ResponseWriter, r *http.Request, pageURL string, load loadFunc) {
	key := pageURL
	switch p, state, refresh := pg.d.Cache.Lookup(key); state {
	case render.Fresh:
		w.Header().Set("X-Cache", "hit")
		pg.sendPage(w, r, p)
		return
	case render.Stale:
		// A change since this page was rendered: answer it as it was,
		// and (one request, not every one) render it again in the
		// background. The cache bounds how long this lasts.
		if refresh {
			go pg.revalidatePage(key, load)
		}
		w.Header().Set("X-Cache", "stale")
		pg.sendPage(w, r, p)
		return
	}
	v, err, _ := pg.flight.Do(key, func() (any, error) {
		// Detached from the first caller: others may be waiting on it.
		// Shared by every visitor: never a viewer's settings.
		ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(r.Context())), 10*time.Second)
		defer cancel()
		seq := pg.d.Cache.Seq() // a change while this loads is not lost (PutFrom)
		res, err := load(ctx, pageURL)
		if err != nil {
			return nil, err
		}
		p, err := pg.RenderPage(ctx, pageURL, res)
		if err != nil {
			return nil, err
		}
		if res.Status == http.StatusOK {
			pg.d.Cache.PutFrom(key, p, load, seq)
		}
		return p, nil
	})
	if err != nil {
		pg.pageLoadFailed(w, r, err)
		return
	}
	w.Header().Set("X-Cache", "miss")
	pg.sendPage(w, r, v.(*render.Page))
}

// revalidatePage renders a stale cached page again, off any request, and
// replaces it (a request was told to: Lookup).
func (pg *Pages) revalidatePage(key string, load loadFunc) {
	if p, seq := pg.rerender(key, load); p != nil {
		pg.d.Cache.PutRevalidated(key, p, seq)
	}
}

// rerender loads and renders a stale cached page again, off any request,
// and returns it with the seq read before loading, for the caller to store.
// A page that no longer loads (gone, moved, no longer a 200) is dropped, so
// the next request answers what it is now; a failure that may pass (the
// database, the render) keeps the stale page for the next request to try
// again, within the cache's bound. Either way it returns nil.
func (pg *Pages) rerender(key string, load loadFunc) (*render.Page, uint64) {
	seq := pg.d.Cache.Seq()
	ctx, cancel := context.WithTimeout(pages.WithoutUser(context.Background()), 10*time.Second)
	defer cancel()
	res, err := load(ctx, key)
	if err != nil {
		if pages.IsNotFound(err) || errors.As(err, new(*pages.Moved)) {
			pg.d.Cache.Drop(key)
			return nil, 0
		}
		pg.d.Log.Warn("render a changed page again", "url", httpx.ClipLog(key), "err", err)
		pg.d.Cache.RevalidateFailed(key)
		return nil, 0
	}
	p, err := pg.RenderPage(ctx, key, res)
	switch {
	case err != nil:
		pg.d.Log.Warn("render a changed page again", "url", httpx.ClipLog(key), "err", err)
		pg.d.Cache.RevalidateFailed(key)
	case res.Status != http.StatusOK:
		pg.d.Cache.Drop(key)
	default:
		return p, seq
	}
	return nil, 0
}

// pageLoadFailed answers a page load's error: the 404 page, a redirect
// to the page's canonical path, or a 500.
func (pg *Pages) pageLoadFailed(w http.ResponseWriter, r *http.Request, err error) {
	if pages.IsNotFound(err) {
		pg.NotFound(w, r)
		return
	}
	if m := (*pages.Moved)(nil); errors.As(err, &m) {
		http.Redirect(w, r, m.Path, http.StatusMovedPermanently)
		return
	}
	pg.d.Log.Error("load page", "path", httpx.ClipLog(r.URL.Path), "err", err)
	http.Error(w, "The shop could not show this page. Please try again.", http.StatusInternalServerError)
}

// pageFailed logs an error of a no-script cart page or form and answers
// 500.
func (pg *Pages) pageFailed(w http.ResponseWriter, op string, err error) {
	pg.d.Log.Error(op, "err", err)
	http.Error(w, "Internal Server Error", http.StatusInternalServerError)
}

// PageError logs a page that could not be shown (what names it) and
// answers a plain 500.
func (pg *Pages) PageError(w http.ResponseWriter, what string, err error) {
	pg.d.Log.Error(what, "err", err)
	http.Error(w, "The shop could not show this page. Please try again.", http.StatusInternalServerError)
}

// SendPersonal renders and sends a page loaded for this request alone
// (checkout, account pages, order received): never cached, never stored.
// err is the load's; what names the page in the log when it failed.
func (pg *Pages) SendPersonal(w http.ResponseWriter, r *http.Request, what, uri string, res *pages.Result, err error) {
	if err == nil {
		var p *render.Page
		if p, err = pg.RenderPage(r.Context(), uri, res); err == nil {
			w.Header().Set("Cache-Control", "no-store, private")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			httpx.WriteBody(w, r, p)
			return
		}
	}
	pg.PageError(w, what, err)
}

// RenderPage runs the React app on the server. If that fails the page is
// still sent, with the data inlined and an empty root, and the browser
// renders it: a shopper never gets a blank error page for a render bug.
func (pg *Pages) RenderPage(ctx context.Context, reqURI string, res *pages.Result) (*render.Page, error) {
	data, err := json.Marshal(res.Data)
	if err != nil {
		return nil, err
	}
	var app string
	if pg.d.Engine != nil {
		start := time.Now()
		app, err = pg.d.Engine.Render(ctx, reqURI, data)
		pg.d.Rendered(time.Since(start).Seconds())
		if err != nil {
			pg.d.RenderFailed()
			pg.d.Log.Error("server render failed; sending the client-rendered shell", "url", httpx.ClipLog(reqURI), "err", err)
			app = ""
		}
	}
	head := res.Head
	if n := pg.live().Settings.StoreNotice; n != nil {
		head.StoreNoticeID = n.ID // the head script hides a dismissed notice before paint
	}
	doc, err := render.Document(head, pg.d.Assets, app, data)
	if err != nil {
		return nil, err
	}
	// Compressed by the cache if it stores the page, else as it is sent.
	p := render.NewPageUncompressed(res.Status, doc, res.Tags)
	p.Personal = res.Personal // a viewer's part is built from it (frame.go)
	// What the page frames (a video player), kept with the page in the
	// cache so every hit's policy allows it.
	p.FrameSrc = res.FrameSrc
	return p, nil
}

// NotFound answers the shop's 404 page. The page is the same for
// every missing URL, so it is rendered once and kept (notFoundPage): junk
// URLs cost a lock and a write, never a render, and never add page cache
// entries.
func (pg *Pages) NotFound(w http.ResponseWriter, r *http.Request) {
	if pg.d.OldLink != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) && pg.d.OldLink(w, r) {
		return
	}
	pg.missing(w, r, http.StatusNotFound)
}

// Gone answers the 404 page with status 410: what was here was deleted
// for good (an old link to an object deleted since, internal/oldlinks).
func (pg *Pages) Gone(w http.ResponseWriter, r *http.Request) {
	pg.missing(w, r, http.StatusGone)
}

// missing sends the kept 404 page with status.
func (pg *Pages) missing(w http.ResponseWriter, r *http.Request, status int) {
	p, err := pg.notFoundPage(r.Context())
	if err != nil {
		pg.d.Log.Warn("404 page", "err", err)
		http.Error(w, http.StatusText(status), status)
		return
	}
	if p.Status != status {
		c := *p // the kept page is shared: its bytes, another status
		p = &c
		p.Status = status
	}
	pg.sendPage(w, r, p) // a logged-in viewer's header: frame.go
}

// notFoundURL is the URL the 404 page is rendered for: one neutral URL, so
// one rendering serves every miss and no visitor's URL is shown to another.
const notFoundURL = "/404/"

// notFoundCache holds the rendered 404 page (one locale today). reset
// drops it when the page frame changes (the menu's categories); gen keeps
// a render that raced a reset from being kept.
type notFoundCache struct {
	mu   sync.Mutex
	page *render.Page
	at   time.Time
	gen  uint64
}

func (c *notFoundCache) get(now time.Time, maxAge time.Duration) (*render.Page, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.page != nil && maxAge > 0 && now.Sub(c.at) > maxAge {
		c.page = nil
	}
	return c.page, c.gen
}

func (c *notFoundCache) put(p *render.Page, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		c.page, c.at = p, now
	}
}

// ResetNotFound drops the kept 404 page: the frame it shows changed (the
// menu's categories, the content pages' links, the settings).
func (pg *Pages) ResetNotFound() { pg.notFound.reset() }

func (c *notFoundCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.page = nil
	c.gen++
}

// notFoundPage returns the rendered 404 page, rendering it once (concurrent
// misses share one render) when there is none.
func (pg *Pages) notFoundPage(ctx context.Context) (*render.Page, error) {
	if p, _ := pg.notFound.get(pg.d.Now(), pg.d.CacheMaxAge); p != nil {
		return p, nil
	}
	v, err, _ := pg.flight.Do("\x00notfound", func() (any, error) {
		now := pg.d.Now()
		if p, _ := pg.notFound.get(now, pg.d.CacheMaxAge); p != nil {
			return p, nil
		}
		_, gen := pg.notFound.get(now, pg.d.CacheMaxAge)
		// Detached from the first caller: others may be waiting on it.
		ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(ctx)), 10*time.Second)
		defer cancel()
		res, err := pg.d.Loader.NotFound(ctx, notFoundURL)
		if err != nil {
			return nil, err
		}
		p, err := pg.RenderPage(ctx, notFoundURL, res)
		if err != nil {
			return nil, err
		}
		p.Compress() // kept and sent many times
		pg.notFound.put(p, gen, now)
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*render.Page), nil
}
