package pages

import (
	"context"
	"errors"
	"html"
	"net/url"
	"strconv"

	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// ListingPage is the data of the shop, category and search-result pages.
type ListingPage struct {
	Base
	Title         string              `json:"title"`
	Description   string              `json:"description"`
	Breadcrumbs   []Crumb             `json:"breadcrumbs"`
	Products      Cards               `json:"products"`
	Total         int                 `json:"total"`
	PageNumber    int                 `json:"page_number"`
	TotalPages    int                 `json:"total_pages"`
	OrderBy       string              `json:"orderby"`
	BasePath      string              `json:"base"`
	Subcategories []storeapi.Category `json:"subcategories"`
	// DidYouMean is, for a search that found nothing, the query with its
	// typos corrected when that one finds products.
	DidYouMean string `json:"did_you_mean,omitempty"`
	// Filters are the sidebar's options with their counts.
	Filters *FilterData `json:"filters"`
}

// Sorts maps the listing's ?orderby= values to catalogue orderings.
var Sorts = map[string]struct{ By, Dir string }{
	"menu_order": {"menu_order", "asc"},
	"popularity": {"popularity", "desc"},
	"rating":     {"rating", "desc"},
	"date":       {"date", "desc"},
	"price":      {"price", "asc"},
	"price-desc": {"price", "desc"},
}

// ListingQuery is what a listing URL asks for.
type ListingQuery struct {
	Page    int
	OrderBy string
	Search  string
	// Category narrows search results to a category (id or slug) and its
	// subcategories, as the header's category drop-down asks.
	Category string
	// MinPrice and MaxPrice are the sidebar's price filter (?min_price=,
	// ?max_price=), in minor units of the shop's base currency; nil: no bound.
	MinPrice, MaxPrice *int64
	// MinorUnit is the base currency's, for writing the filter in URLs.
	MinorUnit int
	// FilterCurrency is the currency the price filter was typed in
	// (?price_currency=: an enabled currency other than the base; "": the
	// base). Then MinPrice and MaxPrice are its bounds converted to the
	// base (currency.MinBase, MaxBase), and FilterMin, FilterMax the bounds
	// as typed, in its minor units (FilterMinorUnit), which URLs carry.
	FilterCurrency       string
	FilterMin, FilterMax *int64
	FilterMinorUnit      int
	// Filters are the attribute, rating, stock and on-sale filters
	// (listing_filters.go).
	Filters ListingFilters
}

// NormalizeOrderBy maps unknown sort values to the default.
func NormalizeOrderBy(s string) string {
	if _, ok := Sorts[s]; ok {
		return s
	}
	return "menu_order"
}

// Shop loads /shop/ and its pages.
func (l *Loader) Shop(ctx context.Context, reqURL string, q ListingQuery) (*Result, error) {
	e, err := l.setup(ctx, "listing", reqURL)
	if err != nil {
		return nil, err
	}
	crumbs := []Crumb{{"Home", "/"}, {"Shop", "/shop/"}}
	return l.listing(ctx, e, q, catalog.ProductQuery{}, -1, "Shop", "", "/shop/", crumbs, nil)
}

// Search loads the search results page /?s=term&post_type=product.
func (l *Loader) Search(ctx context.Context, reqURL string, q ListingQuery) (*Result, error) {
	e, err := l.setup(ctx, "listing", reqURL)
	if err != nil {
		return nil, err
	}
	title := "Search results: “" + q.Search + "”"
	crumbs := []Crumb{{"Home", "/"}, {title, "/?s=" + url.QueryEscape(q.Search) + "&post_type=product"}}
	pq := catalog.ProductQuery{Search: q.Search, Visibility: "search", Synonyms: l.Searches.SynonymsInForce()}
	if q.Category != "" {
		for _, c := range e.cats {
			if strconv.FormatInt(c.ID, 10) == q.Category || c.Slug == q.Category {
				pq.CategoryIDs, pq.Descendants = []int64{c.ID}, true
				title = "Search results: “" + q.Search + "” in " + c.Name
			}
		}
		if pq.CategoryIDs == nil {
			return nil, ErrNotFound
		}
	}
	res, err := l.listing(ctx, e, q, pq, -1, title, "", "/", crumbs, nil)
	if err != nil {
		return nil, err
	}
	res.Head.Robots = "noindex, follow"
	if page := res.Data.(ListingPage); page.Total == 0 && l.Searches != nil {
		// Counted once per render: a repeat of the same search is served
		// from the page cache until the catalogue changes.
		if page.DidYouMean, err = l.Searches.NoResults(ctx, q.Search, pq.Visibility); err != nil {
			return nil, err
		}
		res.Data = page
	}
	return res, nil
}

// Category loads /product-category/<path>/ (nested paths allowed; the last
// slug names the category, and the path must be its real one).
func (l *Loader) Category(ctx context.Context, reqURL string, slugs []string, q ListingQuery) (*Result, error) {
	if len(slugs) == 0 {
		return nil, ErrNotFound
	}
	e, err := l.setup(ctx, "listing", reqURL)
	if err != nil {
		return nil, err
	}
	var cat *catalog.Category
	for i := range e.cats {
		if e.cats[i].Slug == slugs[len(slugs)-1] {
			cat = &e.cats[i]
		}
	}
	if cat == nil {
		return nil, ErrNotFound
	}
	path := e.b.CategoryPath(cat.ID, cat.Slug)
	crumbs := []Crumb{{"Home", "/"}}
	byID := map[int64]catalog.Category{}
	for _, c := range e.cats {
		byID[c.ID] = c
	}
	var chain []catalog.Category
	for c, ok := *cat, true; ok; c, ok = byID[c.ParentID] {
		chain = append([]catalog.Category{c}, chain...)
		if len(chain) > len(e.cats) {
			break
		}
	}
	// A category has one URL, its ancestors' slugs and its own: any other
	// parent path moves there, so made-up paths never make pages (or cache
	// entries) of their own.
	canonical := len(chain) == len(slugs)
	for i := 0; canonical && i < len(chain); i++ {
		canonical = chain[i].Slug == slugs[i]
	}
	if !canonical {
		to := "/product-category/"
		for _, c := range chain {
			to += url.PathEscape(c.Slug) + "/"
		}
		return nil, &Moved{Path: to}
	}
	for _, c := range chain {
		crumbs = append(crumbs, Crumb{c.Name, e.b.CategoryPath(c.ID, c.Slug)})
	}
	var subs []storeapi.Category
	for _, c := range e.cats {
		if c.ParentID == cat.ID {
			subs = append(subs, e.b.Category(c))
		}
	}
	pq, count := catalog.ProductQuery{CategoryIDs: []int64{cat.ID}, Descendants: true}, -1
	if q.FilterCount() == 0 {
		// The category's count is its listed products with its
		// descendants', each once: exactly this query's total, already
		// loaded with the category tree (kept in memory by the server
		// until the change log says listings changed).
		pq.NoCount, count = true, cat.Count
	}
	res, err := l.listing(ctx, e, q, pq, count, cat.Name, cat.Description, path, crumbs, subs)
	if err != nil {
		return nil, err
	}
	res.Tags = append(res.Tags, "category:"+strconv.FormatInt(cat.ID, 10))
	res.Personal.EditLinks = []EditLink{categoryEditLink(cat.ID, html.UnescapeString(cat.Name))}
	if lp, ok := res.Data.(ListingPage); ok && userFrom(ctx).CanEditPages {
		lp.EditLinks = res.Personal.EditLinks
		res.Data = lp
	}
	return res, nil
}

// TagPath is the archive path of the product tag with slug.
func TagPath(slug string) string { return "/product-tag/" + url.PathEscape(slug) + "/" }

// TagTitle is a tag archive's title, WooCommerce's breadcrumb wording.
func TagTitle(name string) string { return "Products tagged “" + name + "”" }

// Tag loads /product-tag/<slug>/: the listed products carrying the tag,
// as a listing like a category's (sort, paging, price filter, infinite
// scroll), titled and crumbed as WooCommerce does ("Products tagged
// “Bestseller”"). An unknown slug is not found.
func (l *Loader) Tag(ctx context.Context, reqURL, slug string, q ListingQuery) (*Result, error) {
	tags, err := l.Store.Tags(ctx)
	if err != nil {
		return nil, err
	}
	var tag *catalog.Tag
	for i := range tags {
		if tags[i].Slug == slug {
			tag = &tags[i]
		}
	}
	if tag == nil {
		return nil, ErrNotFound
	}
	e, err := l.setup(ctx, "listing", reqURL)
	if err != nil {
		return nil, err
	}
	path, title := TagPath(tag.Slug), TagTitle(tag.Name)
	crumbs := []Crumb{{"Home", "/"}, {title, path}}
	pq := catalog.ProductQuery{TagIDs: []int64{tag.ID}}
	res, err := l.listing(ctx, e, q, pq, -1, title, "", path, crumbs, nil)
	if err != nil {
		return nil, err
	}
	res.Tags = append(res.Tags, "tag:"+strconv.FormatInt(tag.ID, 10))
	return res, nil
}

// listing loads one page of pq. count is the listing's total when the
// caller knows it (pq.NoCount set), -1 to have the query count.
func (l *Loader) listing(ctx context.Context, e *env, q ListingQuery, pq catalog.ProductQuery, count int, title, description, base string, crumbs []Crumb, subs []storeapi.Category) (*Result, error) {
	orderBy := NormalizeOrderBy(q.OrderBy)
	sort := Sorts[orderBy]
	pq.OrderBy, pq.Order = sort.By, sort.Dir
	if pq.Search != "" && orderBy == "menu_order" {
		// "Default sorting" of search results: name matches first.
		pq.OrderBy = "relevance"
	}
	pq.Page, pq.PerPage = max(q.Page, 1), PerPage
	pq.Cards = true // the page shows them as cards (l.cards)
	attrs, err := catalog.FilterAttributes(ctx, l.Store)
	if err != nil {
		return nil, err
	}
	applyFilters(&pq, q, attrs)
	// The page and the sidebar's counts in one call: one pass of the
	// store's facet index, a search's candidates read once for both.
	side := sidebarFor(q, attrs)
	ps, total, facets, counted, err := catalog.QueryFaceted(ctx, l.Store, pq, side.want, FilterCountLimit)
	if err != nil {
		return nil, err
	}
	if pq.NoCount {
		total = count
	}
	pages := max((total+PerPage-1)/PerPage, 1)
	if pq.Page > pages {
		return nil, ErrNotFound
	}
	page := ListingPage{Base: e.base, Title: title, Description: description, Breadcrumbs: crumbs, Total: total,
		PageNumber: pq.Page, TotalPages: pages, OrderBy: orderBy, BasePath: base, Subcategories: subs}
	if page.Subcategories == nil {
		page.Subcategories = []storeapi.Category{}
	}
	if page.Products, err = l.cards(ctx, e.b, ps); err != nil {
		return nil, err
	}
	page.Filters = side.data(q, facets, counted)
	canonical := base
	if pq.Page > 1 {
		canonical += "page/" + strconv.Itoa(pq.Page) + "/"
	}
	desc := plainText(description, 160)
	if desc == "" {
		desc = title + " at " + l.live().SiteName
	}
	// The canonical link drops the filters; more than one filter makes
	// a page not worth indexing (every combination would be one).
	h := l.head(l.title(title), desc, canonical)
	if pq.Search != "" {
		h.Canonical = ""
	}
	if q.FilterCount() > 1 {
		h.Robots = "noindex, follow"
	}
	h.JSONLD = []any{breadcrumbLD(l.BaseURL, crumbs)}
	if pq.Page > 1 {
		h.Title = l.title(title + " – Page " + strconv.Itoa(pq.Page))
	}
	tags := append(productTags(page.Products), "listing")
	return &Result{Status: 200, Data: page, Head: h, Tags: tags}, nil
}

// IsNotFound reports whether err means "no such page".
func IsNotFound(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, catalog.ErrNotFound)
}
