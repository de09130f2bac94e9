package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// The cached pages are rendered for everyone, so a page is loaded, rendered
// and cached from its normalized URL alone: the path plus only the query
// parameters the page reads, validated and in a fixed order. That URL is the
// cache key, the page data's url (which the app builds its paging links and
// the sort form's hidden inputs from) and the URL the server render sees, so
// tracking parameters and junk can neither multiply cache entries nor reach
// another visitor's page.

// listingURL is the normalized URL of a shop or category listing page: base
// ("/shop/", "/product-category/a/b/"), the page as /page/N/, the sort, the
// price filter.
func listingURL(base string, lq pages.ListingQuery) string {
	u := base
	if lq.Page > 1 {
		u += "page/" + strconv.Itoa(lq.Page) + "/"
	}
	var q []string
	if o := pages.NormalizeOrderBy(lq.OrderBy); o != "menu_order" {
		q = append(q, "orderby="+o)
	}
	q = append(q, priceParams(lq)...)
	if len(q) > 0 {
		u += "?" + strings.Join(q, "&")
	}
	return u
}

// priceParams are the price filter's normalized query parameters: the
// bounds as typed, in the currency they were typed in.
func priceParams(lq pages.ListingQuery) []string {
	var q []string
	if lq.FilterCurrency != "" {
		if lq.FilterMin != nil {
			q = append(q, "min_price="+plainAmount(*lq.FilterMin, lq.FilterMinorUnit))
		}
		if lq.FilterMax != nil {
			q = append(q, "max_price="+plainAmount(*lq.FilterMax, lq.FilterMinorUnit))
		}
		return append(q, "price_currency="+lq.FilterCurrency)
	}
	if lq.MinPrice != nil {
		q = append(q, "min_price="+plainAmount(*lq.MinPrice, lq.MinorUnit))
	}
	if lq.MaxPrice != nil {
		q = append(q, "max_price="+plainAmount(*lq.MaxPrice, lq.MinorUnit))
	}
	return q
}

// plainAmount writes minor units as a plain decimal: 1000 as "10", 1050 as
// "10.50" (one spelling per amount, so one cache entry).
func plainAmount(n int64, minorUnit int) string {
	div := int64(1)
	for range minorUnit {
		div *= 10
	}
	s := strconv.FormatInt(n/div, 10)
	if frac := n % div; frac != 0 {
		f := strconv.FormatInt(frac, 10)
		s += "." + strings.Repeat("0", minorUnit-len(f)) + f
	}
	return s
}

// maxFilterPrice bounds the price filter (a trillion minor units): larger
// values are not prices and are ignored.
const maxFilterPrice = 1_000_000_000_000

// searchURL is the normalized URL of a search results page.
func searchURL(lq pages.ListingQuery) string {
	var b strings.Builder
	b.WriteString("/?s=" + url.QueryEscape(lq.Search) + "&post_type=product")
	if lq.Category != "" {
		b.WriteString("&product_cat=" + url.QueryEscape(lq.Category))
	}
	if o := pages.NormalizeOrderBy(lq.OrderBy); o != "menu_order" {
		b.WriteString("&orderby=" + o)
	}
	for _, p := range priceParams(lq) {
		b.WriteString("&" + p)
	}
	if lq.Page > 1 {
		b.WriteString("&page=" + strconv.Itoa(lq.Page))
	}
	return b.String()
}

// pageParam reads ?page= or ?paged= (both accepted by the original shop).
func pageParam(q url.Values) int {
	for _, k := range []string{"page", "paged"} {
		if n, err := strconv.Atoi(q.Get(k)); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

// loadFunc loads a cacheable page for its normalized URL.
type loadFunc func(ctx context.Context, pageURL string) (*pages.Result, error)

// servePage answers a page from the cache, or loads, renders, caches and
// answers it. pageURL is the page's normalized URL (listingURL, searchURL):
// the cache key and the only URL the loader and the render see, never the
// raw request. Concurrent misses for one key render once.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, pageURL string, load loadFunc) {
	if httpx.UserOf(r) != nil {
		s.servePersonal(w, r, pageURL, load) // frame.go: never cached
		return
	}
	key := pageURL
	switch p, state, refresh := s.cache.Lookup(key); state {
	case render.Fresh:
		w.Header().Set("X-Cache", "hit")
		httpx.WritePage(w, r, p)
		return
	case render.Stale:
		// A change since this page was rendered: answer it as it was,
		// and (one request, not every one) render it again in the
		// background. The cache bounds how long this lasts.
		if refresh {
			go s.revalidatePage(key, load)
		}
		w.Header().Set("X-Cache", "stale")
		httpx.WritePage(w, r, p)
		return
	}
	v, err, _ := s.flight.Do(key, func() (any, error) {
		// Detached from the first caller: others may be waiting on it.
		// Shared by every visitor: never a viewer's settings.
		ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(r.Context())), 10*time.Second)
		defer cancel()
		seq := s.cache.Seq() // a change while this loads is not lost (PutFrom)
		res, err := load(ctx, pageURL)
		if err != nil {
			return nil, err
		}
		p, err := s.RenderPage(ctx, pageURL, res)
		if err != nil {
			return nil, err
		}
		if res.Status == http.StatusOK {
			s.cache.PutFrom(key, p, load, seq)
		}
		return p, nil
	})
	if err != nil {
		s.pageLoadFailed(w, r, err)
		return
	}
	w.Header().Set("X-Cache", "miss")
	httpx.WritePage(w, r, v.(*render.Page))
}

// DefaultCacheStale is how long after a change has been read a changed
// page may still be answered while it is rendered again (Config.CacheStale).
const DefaultCacheStale = 10 * time.Second

// Pages re-rendered ahead of requests after a change: those asked for
// within renderAheadWithin, at most renderAheadMax per batch of changes
// (an import touching thousands of products leaves the rest to requests,
// which get them stale meanwhile).
const (
	renderAheadWithin = time.Minute
	renderAheadMax    = 64
)

// staleAndRenderAhead marks the pages tagged with tags stale and starts
// re-rendering the recently asked-for ones at once, so that the next
// shopper gets the new page rather than the stale one. The renders queue
// for the engine's VMs like any other.
func (s *Server) staleAndRenderAhead(tags []string) {
	_, hot := s.cache.StaleHot(renderAheadWithin, renderAheadMax, tags...)
	for _, h := range hot {
		load, ok := h.Src.(loadFunc)
		if !ok {
			s.cache.RevalidateFailed(h.Key)
			continue
		}
		s.metrics.rendersAhead.Inc()
		go s.revalidatePage(h.Key, load)
	}
}

// revalidatePage renders a stale cached page again, off any request, and
// replaces it. A page that no longer loads (gone, moved, no longer a 200) is
// dropped, so the next request answers what it is now; a failure that may
// pass (the database, the render) keeps the stale page for the next
// request to try again, within the cache's bound.
func (s *Server) revalidatePage(key string, load loadFunc) {
	seq := s.cache.Seq()
	ctx, cancel := context.WithTimeout(pages.WithoutUser(context.Background()), 10*time.Second)
	defer cancel()
	res, err := load(ctx, key)
	if err != nil {
		if pages.IsNotFound(err) || errors.As(err, new(*pages.Moved)) {
			s.cache.Drop(key)
			return
		}
		s.log.Warn("render a changed page again", "url", clipLog(key), "err", err)
		s.cache.RevalidateFailed(key)
		return
	}
	p, err := s.RenderPage(ctx, key, res)
	switch {
	case err != nil:
		s.log.Warn("render a changed page again", "url", clipLog(key), "err", err)
		s.cache.RevalidateFailed(key)
	case res.Status != http.StatusOK:
		s.cache.Drop(key)
	default:
		s.cache.PutRevalidated(key, p, seq)
	}
}

// pageLoadFailed answers a page load's error: the 404 page, a redirect
// to the page's canonical path, or a 500.
func (s *Server) pageLoadFailed(w http.ResponseWriter, r *http.Request, err error) {
	if pages.IsNotFound(err) {
		s.NotFound(w, r)
		return
	}
	if m := (*pages.Moved)(nil); errors.As(err, &m) {
		http.Redirect(w, r, m.Path, http.StatusMovedPermanently)
		return
	}
	s.log.Error("load page", "path", logPath(r), "err", err)
	http.Error(w, "The shop could not show this page. Please try again.", http.StatusInternalServerError)
}

// SendPersonal renders and sends a page loaded for this request alone
// (checkout, account pages, order received): never cached, never stored.
// err is the load's; what names the page in the log when it failed.
func (s *Server) SendPersonal(w http.ResponseWriter, r *http.Request, what, uri string, res *pages.Result, err error) {
	if err == nil {
		var p *render.Page
		if p, err = s.RenderPage(r.Context(), uri, res); err == nil {
			w.Header().Set("Cache-Control", "no-store, private")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			httpx.WriteBody(w, r, p)
			return
		}
	}
	s.PageError(w, what, err)
}

// RenderPage runs the React app on the server. If that fails the page is
// still sent, with the data inlined and an empty root, and the browser
// renders it: a shopper never gets a blank error page for a render bug.
func (s *Server) RenderPage(ctx context.Context, reqURI string, res *pages.Result) (*render.Page, error) {
	data, err := json.Marshal(res.Data)
	if err != nil {
		return nil, err
	}
	var app string
	if s.engine != nil {
		start := time.Now()
		app, err = s.engine.Render(ctx, reqURI, data)
		s.metrics.renders.Observe(time.Since(start).Seconds())
		if err != nil {
			s.metrics.renderFails.Inc()
			s.log.Error("server render failed; sending the client-rendered shell", "url", clipLog(reqURI), "err", err)
			app = ""
		}
	}
	head := res.Head
	if n := s.live().Settings.StoreNotice; n != nil {
		head.StoreNoticeID = n.ID // the head script hides a dismissed notice before paint
	}
	doc, err := render.Document(head, s.assets, app, data)
	if err != nil {
		return nil, err
	}
	// Compressed by the cache if it stores the page, else as it is sent.
	p := render.NewPageUncompressed(res.Status, doc, res.Tags)
	if len(res.FrameSrc) > 0 {
		// The page's own policy (a video player), kept with the page in
		// the cache so every hit sends it.
		p.Headers = map[string]string{"Content-Security-Policy": framingCSP(res.FrameSrc)}
	}
	return p, nil
}

// listingQuery reads what a listing URL asks for, normalized: the sort is
// one the shop knows (or the default), the search and category are valid
// UTF-8 cut to 200 bytes.
func (s *Server) listingQuery(r *http.Request) pages.ListingQuery {
	q := r.URL.Query()
	cat := strings.TrimSpace(q.Get("product_cat"))
	if cat == "0" || cat == "all" {
		cat = ""
	}
	search := strings.TrimSpace(q.Get("s"))
	if len(search) > 200 {
		search = search[:200]
	}
	if len(cat) > 200 {
		cat = cat[:200]
	}
	unit := s.cfg.Currency.MinorUnit
	lq := pages.ListingQuery{Page: pageParam(q), OrderBy: pages.NormalizeOrderBy(q.Get("orderby")),
		Search: strings.ToValidUTF8(search, ""), Category: strings.ToValidUTF8(cat, ""),
		MinPrice: priceParam(q.Get("min_price"), unit), MaxPrice: priceParam(q.Get("max_price"), unit), MinorUnit: unit}
	s.filterInCurrency(r, &lq)
	return lq
}

// filterInCurrency reads a price filter typed in another currency than the
// base (?price_currency=CODE, an enabled currency; the listing's filter
// form sends the currency the prices are shown in): the bounds are read in
// that currency's minor units and converted to the base with the rates and
// rounding the shop shows prices with, exactly at the edges (a product
// shown at ¥5,000 is found by a 5,000 lower bound). An unknown, disabled
// or base code, or no bound, leaves the filter in the base currency.
func (s *Server) filterInCurrency(r *http.Request, lq *pages.ListingQuery) {
	q := r.URL.Query()
	code := strings.ToUpper(strings.TrimSpace(q.Get("price_currency")))
	if code == "" || len(code) > 8 || code == s.cfg.Currency.Code || s.currencies == nil {
		return
	}
	c, err := s.currencies.Currency(r.Context(), code)
	if err != nil || c.Code == s.cfg.Currency.Code {
		return
	}
	lo, hi := priceParam(q.Get("min_price"), c.Decimals), priceParam(q.Get("max_price"), c.Decimals)
	if lo == nil && hi == nil {
		return
	}
	lq.FilterCurrency, lq.FilterMin, lq.FilterMax, lq.FilterMinorUnit = c.Code, lo, hi, c.Decimals
	lq.MinPrice, lq.MaxPrice = currency.BaseBounds(lo, hi, lq.MinorUnit, c, maxFilterPrice)
}

// priceParam reads a price filter bound in major units ("10", "10.5"); an
// empty, malformed, negative or absurd one is no bound, as the shop's own
// filter treats it (the page stays the unfiltered one).
func priceParam(v string, minorUnit int) *int64 {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 24 {
		return nil
	}
	n, err := money.Parse(v, minorUnit)
	if err != nil || n < 0 || n > maxFilterPrice {
		return nil
	}
	return &n
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("wc-ajax") {
		s.ajax.WCAjax(w, r) // internal/ajax
		return
	}
	if q.Has("add-to-cart") {
		s.noScriptAddGet(w, r) // nojs_cart.go
		return
	}
	if q.Has("s") {
		lq := s.listingQuery(r)
		s.servePage(w, r, searchURL(lq), func(ctx context.Context, u string) (*pages.Result, error) {
			return s.loader.Search(ctx, u, lq)
		})
		return
	}
	s.servePage(w, r, "/", func(ctx context.Context, u string) (*pages.Result, error) {
		return s.loader.Home(ctx, u)
	})
}

// handleHomePost answers POST / : wc-ajax calls; anything else is not a
// thing the home page accepts (405).
func (s *Server) handleHomePost(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("wc-ajax") {
		s.ajax.WCAjax(w, r) // internal/ajax
		return
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
}

func (s *Server) handleShop(w http.ResponseWriter, r *http.Request) {
	lq := s.listingQuery(r)
	if n := r.PathValue("n"); n != "" {
		p, err := strconv.Atoi(n)
		if err != nil || p < 1 || p > 100000 {
			s.NotFound(w, r)
			return
		}
		if p == 1 {
			http.Redirect(w, r, "/shop/"+queryString(r), http.StatusMovedPermanently)
			return
		}
		lq.Page = p
	}
	s.servePage(w, r, listingURL("/shop/", lq), func(ctx context.Context, u string) (*pages.Result, error) {
		return s.loader.Shop(ctx, u, lq)
	})
}

func queryString(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

// handleCategory serves /product-category/a/b/ and /product-category/a/b/page/2/.
func (s *Server) handleCategory(w http.ResponseWriter, r *http.Request) {
	path := r.PathValue("path")
	if !strings.HasSuffix(path, "/") {
		redirectSlash(w, r)
		return
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	lq := s.listingQuery(r)
	if n := len(parts); n >= 3 && parts[n-2] == "page" {
		p, err := strconv.Atoi(parts[n-1])
		if err != nil || p < 1 || p > 100000 {
			s.NotFound(w, r)
			return
		}
		lq.Page = p
		parts = parts[:n-2]
	}
	if len(parts) == 0 || len(parts) > 8 || parts[0] == "" {
		s.NotFound(w, r)
		return
	}
	base := "/product-category/"
	for _, p := range parts {
		base += url.PathEscape(p) + "/"
	}
	s.servePage(w, r, listingURL(base, lq), func(ctx context.Context, u string) (*pages.Result, error) {
		res, err := s.loader.Category(ctx, u, parts, lq)
		if m := (*pages.Moved)(nil); errors.As(err, &m) {
			// Keep the page and the sort on the canonical path.
			return nil, &pages.Moved{Path: listingURL(m.Path, lq)}
		}
		return res, err
	})
}

// handleTag serves a product tag's archive, /product-tag/<slug>/ and
// /product-tag/<slug>/page/N/ (page 1 moves to the archive itself), a
// listing like a category's.
func (s *Server) handleTag(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	lq := s.listingQuery(r)
	if n := r.PathValue("n"); n != "" {
		p, err := strconv.Atoi(n)
		if err != nil || p < 1 || p > 100000 {
			s.NotFound(w, r)
			return
		}
		if p == 1 {
			http.Redirect(w, r, pages.TagPath(slug)+queryString(r), http.StatusMovedPermanently)
			return
		}
		lq.Page = p
	}
	if slug == "" || len(slug) > 200 {
		s.NotFound(w, r)
		return
	}
	s.servePage(w, r, listingURL(pages.TagPath(slug), lq), func(ctx context.Context, u string) (*pages.Result, error) {
		return s.loader.Tag(ctx, u, slug, lq)
	})
}

func (s *Server) handleProduct(w http.ResponseWriter, r *http.Request) {
	s.serveProduct(w, r, r.PathValue("slug"), 1) // reviews_post.go
}

// NotFound answers the shop's 404 page. The page is the same for
// every missing URL, so it is rendered once and kept (notFoundPage): junk
// URLs cost a lock and a write, never a render, and never add page cache
// entries.
func (s *Server) NotFound(w http.ResponseWriter, r *http.Request) {
	if httpx.UserOf(r) != nil {
		s.personalNotFound(w, r) // frame.go
		return
	}
	p, err := s.notFoundPage(r.Context())
	if err != nil {
		s.log.Warn("404 page", "err", err)
		http.Error(w, "Not Found", http.StatusNotFound)
		return
	}
	httpx.WritePage(w, r, p)
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

func (c *notFoundCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.page = nil
	c.gen++
}

// notFoundPage returns the rendered 404 page, rendering it once (concurrent
// misses share one render) when there is none.
func (s *Server) notFoundPage(ctx context.Context) (*render.Page, error) {
	if p, _ := s.notFound.get(s.now(), s.cfg.CacheMaxAge); p != nil {
		return p, nil
	}
	v, err, _ := s.flight.Do("\x00notfound", func() (any, error) {
		now := s.now()
		if p, _ := s.notFound.get(now, s.cfg.CacheMaxAge); p != nil {
			return p, nil
		}
		_, gen := s.notFound.get(now, s.cfg.CacheMaxAge)
		// Detached from the first caller: others may be waiting on it.
		ctx, cancel := context.WithTimeout(pages.WithoutUser(context.WithoutCancel(ctx)), 10*time.Second)
		defer cancel()
		res, err := s.loader.NotFound(ctx, notFoundURL)
		if err != nil {
			return nil, err
		}
		p, err := s.RenderPage(ctx, notFoundURL, res)
		if err != nil {
			return nil, err
		}
		p.Compress() // kept and sent many times
		s.notFound.put(p, gen, now)
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*render.Page), nil
}
