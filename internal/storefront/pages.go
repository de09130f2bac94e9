package storefront

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/pages"
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
	q = append(q, filterParams(lq)...)
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
	for _, p := range filterParams(lq) {
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

// listingQuery reads what a listing URL asks for, normalized: the sort is
// one the shop knows (or the default), the search and category are valid
// UTF-8 cut to 200 bytes.
func (f *Storefront) listingQuery(r *http.Request) pages.ListingQuery {
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
	unit := f.d.Currency.MinorUnit
	lq := pages.ListingQuery{Page: pageParam(q), OrderBy: pages.NormalizeOrderBy(q.Get("orderby")),
		Search: strings.ToValidUTF8(search, ""), Category: strings.ToValidUTF8(cat, ""),
		MinPrice: priceParam(q.Get("min_price"), unit), MaxPrice: priceParam(q.Get("max_price"), unit), MinorUnit: unit}
	f.filterInCurrency(r, &lq)
	lq.Filters = readFilters(q)
	return lq
}

// filterInCurrency reads a price filter typed in another currency than the
// base (?price_currency=CODE, an enabled currency; the listing's filter
// form sends the currency the prices are shown in): the bounds are read in
// that currency's minor units and converted to the base with the rates and
// rounding the shop shows prices with, exactly at the edges (a product
// shown at ¥5,000 is found by a 5,000 lower bound). An unknown, disabled
// or base code, or no bound, leaves the filter in the base currency.
func (f *Storefront) filterInCurrency(r *http.Request, lq *pages.ListingQuery) {
	q := r.URL.Query()
	code := strings.ToUpper(strings.TrimSpace(q.Get("price_currency")))
	if code == "" || len(code) > 8 || code == f.d.Currency.Code || f.d.Currencies == nil {
		return
	}
	c, err := f.d.Currencies.Currency(r.Context(), code)
	if err != nil || c.Code == f.d.Currency.Code {
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

// Home answers GET /: the home page, ?s= search results, and the
// no-script add to cart (?add-to-cart=). The route table sends ?wc-ajax=
// calls to internal/ajax first.
func (f *Storefront) Home(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("add-to-cart") {
		f.noScriptAddGet(w, r) // nojs_cart.go
		return
	}
	if q.Has("s") {
		lq := f.listingQuery(r)
		f.servePage(w, r, searchURL(lq), func(ctx context.Context, u string) (*pages.Result, error) {
			return f.d.Loader.Search(ctx, u, lq)
		})
		return
	}
	f.servePage(w, r, "/", func(ctx context.Context, u string) (*pages.Result, error) {
		return f.d.Loader.Home(ctx, u)
	})
}

// HomePost answers POST / that is not a wc-ajax call (the route table
// sends those to internal/ajax): not a thing the home page accepts (405).
func (f *Storefront) HomePost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
}

// Shop serves /shop/ and /shop/page/N/ (page 1 moves to /shop/).
func (f *Storefront) Shop(w http.ResponseWriter, r *http.Request) {
	lq := f.listingQuery(r)
	if !f.pathPage(w, r, "/shop/", &lq) {
		return
	}
	f.servePage(w, r, listingURL("/shop/", lq), func(ctx context.Context, u string) (*pages.Result, error) {
		return f.d.Loader.Shop(ctx, u, lq)
	})
}

// pathPage reads a listing's page from its path (/page/{n}/) into
// lq.Page. A bad or absurd number answers the 404 page and page 1 moves
// to first, the listing itself (the query kept); both answer, and report
// false.
func (f *Storefront) pathPage(w http.ResponseWriter, r *http.Request, first string, lq *pages.ListingQuery) bool {
	n := r.PathValue("n")
	if n == "" {
		return true
	}
	p, ok := listingPage(n)
	if !ok {
		f.NotFound(w, r)
		return false
	}
	if p == 1 {
		http.Redirect(w, r, first+queryString(r), http.StatusMovedPermanently)
		return false
	}
	lq.Page = p
	return true
}

// listingPage reads a listing's page number in a path: 1 to 100,000.
func listingPage(n string) (int, bool) {
	p, err := strconv.Atoi(n)
	return p, err == nil && p >= 1 && p <= 100000
}

func queryString(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

// Category serves /product-category/a/b/ and /product-category/a/b/page/2/.
func (f *Storefront) Category(w http.ResponseWriter, r *http.Request) {
	path := r.PathValue("path")
	if !strings.HasSuffix(path, "/") {
		httpx.RedirectSlash(w, r)
		return
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	lq := f.listingQuery(r)
	if n := len(parts); n >= 3 && parts[n-2] == "page" {
		p, ok := listingPage(parts[n-1])
		if !ok {
			f.NotFound(w, r)
			return
		}
		lq.Page = p
		parts = parts[:n-2]
	}
	if len(parts) == 0 || len(parts) > 8 || parts[0] == "" {
		f.NotFound(w, r)
		return
	}
	base := "/product-category/"
	for _, p := range parts {
		base += url.PathEscape(p) + "/"
	}
	f.servePage(w, r, listingURL(base, lq), func(ctx context.Context, u string) (*pages.Result, error) {
		res, err := f.d.Loader.Category(ctx, u, parts, lq)
		if m := (*pages.Moved)(nil); errors.As(err, &m) {
			// Keep the page and the sort on the canonical path.
			return nil, &pages.Moved{Path: listingURL(m.Path, lq)}
		}
		return res, err
	})
}

// Tag serves a product tag's archive, /product-tag/<slug>/ and
// /product-tag/<slug>/page/N/ (page 1 moves to the archive itself), a
// listing like a category's.
func (f *Storefront) Tag(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	lq := f.listingQuery(r)
	if !f.pathPage(w, r, pages.TagPath(slug), &lq) {
		return
	}
	if slug == "" || len(slug) > 200 {
		f.NotFound(w, r)
		return
	}
	f.servePage(w, r, listingURL(pages.TagPath(slug), lq), func(ctx context.Context, u string) (*pages.Result, error) {
		return f.d.Loader.Tag(ctx, u, slug, lq)
	})
}

// Product serves a product's page (its first page of reviews).
func (f *Storefront) Product(w http.ResponseWriter, r *http.Request) {
	f.serveProduct(w, r, r.PathValue("slug"), 1) // reviews_post.go
}
