package pages

import (
	"slices"
	"strconv"

	"vitrine/internal/catalog"
)

// ListingFilters are the filters a listing URL chose, WooCommerce's names:
// filter_<attribute>=a,b with query_type_<attribute>=or (absent: and),
// rating_filter=4,5, filter_stock_status=instock, on_sale=1; the price
// bounds are ListingQuery's MinPrice and MaxPrice. Values are sorted and
// unique (the storefront normalizes them: one URL, one cache entry).
type ListingFilters struct {
	Attributes  []AttributeChoice
	Ratings     []int
	StockStatus []string
	OnSale      bool
}

// AttributeChoice is one attribute's chosen terms, by slugs.
type AttributeChoice struct {
	Attribute string   // the attribute's slug ("color")
	Terms     []string // term slugs, sorted
	Or        bool     // query_type_<attribute>=or: any of the terms
}

// Count is how many filters are chosen (each attribute, the ratings, the
// stock statuses, on sale, the price bounds count once): more than one
// makes the page noindex.
func (q ListingQuery) FilterCount() int {
	n := len(q.Filters.Attributes)
	if len(q.Filters.Ratings) > 0 {
		n++
	}
	if len(q.Filters.StockStatus) > 0 {
		n++
	}
	if q.Filters.OnSale {
		n++
	}
	if q.MinPrice != nil || q.MaxPrice != nil {
		n++
	}
	return n
}

// FilterData is what a listing's filter sidebar shows: every option with
// the products choosing it would leave (given the other filters chosen),
// disabled when none, and the price range of the products the other
// filters leave.
type FilterData struct {
	// Applied counts the filters chosen (FilterCount).
	Applied int `json:"applied"`
	// Counted is false when the listing was too large to count at render
	// time (FilterCountLimit): counts are 0, nothing is disabled and the
	// price range is null.
	Counted    bool              `json:"counted"`
	PriceRange FilterPriceRange  `json:"price_range"`
	Attributes []FilterAttribute `json:"attributes"`
	Ratings    []FilterOption    `json:"ratings"`
	Stock      []FilterOption    `json:"stock_status"`
	OnSale     FilterOption      `json:"on_sale"`
}

// FilterPriceRange is in minor units of the base currency: Min and Max the
// range of the result without the price filter (null: no priced product),
// Chosen the bounds the URL chose (null: none).
type FilterPriceRange struct {
	Min       *int64 `json:"min"`
	Max       *int64 `json:"max"`
	ChosenMin *int64 `json:"chosen_min"`
	ChosenMax *int64 `json:"chosen_max"`
}

// FilterAttribute is a filterable attribute and its terms. Display says
// how the UI shows it (the attribute's swatch type: color, label,
// image, select); QueryType is "or" (any) or "and" (all): what a chosen
// term's link sets, the shop's setting unless the URL chose otherwise.
type FilterAttribute struct {
	ID        int64          `json:"id"`
	Name      string         `json:"name"`
	Slug      string         `json:"slug"`
	Taxonomy  string         `json:"taxonomy"`
	Display   string         `json:"display"`
	QueryType string         `json:"query_type"`
	Options   []FilterOption `json:"options"`
}

// FilterOption is one choice: Value is what the URL carries (a term slug,
// a rating "4", a stock status, "1" for on sale); Count the products
// choosing it would leave; Disabled when that is none and it is not
// chosen; Color a colour swatch's.
type FilterOption struct {
	Value    string `json:"value"`
	Label    string `json:"label"`
	Count    int    `json:"count"`
	Selected bool   `json:"selected"`
	Disabled bool   `json:"disabled"`
	Color    string `json:"color,omitempty"`
}

// stockLabels are the stock statuses in WooCommerce's order and words.
var stockLabels = []struct{ status, label string }{
	{catalog.StockInStock, "In stock"}, {catalog.StockOutOfStock, "Out of stock"}, {catalog.StockOnBackorder, "On backorder"},
}

// applyFilters sets the URL's filters on pq, resolving attribute and
// term slugs (unknown ones choose nothing, as WooCommerce ignores them).
func applyFilters(pq *catalog.ProductQuery, q ListingQuery, attrs []catalog.FilterAttribute) {
	pq.MinPrice, pq.MaxPrice = q.MinPrice, q.MaxPrice
	pq.Ratings, pq.StockStatus = q.Filters.Ratings, q.Filters.StockStatus
	if q.Filters.OnSale {
		on := true
		pq.OnSale = &on
	}
	for _, c := range q.Filters.Attributes {
		a, ok := catalog.FilterAttributeByTaxonomy(attrs, "pa_"+c.Attribute)
		if !ok {
			continue
		}
		f := catalog.AttributeFilter{AttributeID: a.ID, Operator: catalog.AttrAnd}
		if c.Or {
			f.Operator = catalog.AttrIn
		}
		for _, s := range c.Terms {
			if ids, ok := a.TermIDs([]string{s}); ok {
				f.TermIDs = append(f.TermIDs, ids...)
			}
		}
		if len(f.TermIDs) > 0 {
			pq.Attributes = append(pq.Attributes, f)
		}
	}
}

// FilterCountLimit is the largest listing whose filter options are
// counted when its page renders. The store counts from its kept facet
// index in one pass over the listing's products in memory (decision 0106;
// 100,000 products cost a few milliseconds, docs/benchmarks.md); a larger
// listing shows its options uncounted rather than make an uncached page
// slow (a search listing, which SQL counts, is bounded by its candidates).
var FilterCountLimit = 250000

// sidebar is what a listing's filter sidebar counts (want) and shows:
// the filterable attributes with terms and the query type each one's
// links write.
type sidebar struct {
	want       catalog.FacetRequest
	shown      []catalog.FilterAttribute
	queryTypes []string
}

// sidebarFor is the sidebar of a listing URL q over the shop's attributes.
func sidebarFor(q ListingQuery, attrs []catalog.FilterAttribute) sidebar {
	sb := sidebar{want: catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true, OnSale: true}}
	chosen := map[string]AttributeChoice{}
	for _, c := range q.Filters.Attributes {
		chosen[c.Attribute] = c
	}
	for _, a := range attrs {
		if !a.Filterable || len(a.Terms) == 0 {
			continue
		}
		qt := a.FilterQueryType
		if c, ok := chosen[a.Slug]; ok {
			qt = "and"
			if c.Or {
				qt = "or"
			}
		}
		sb.shown = append(sb.shown, a)
		sb.queryTypes = append(sb.queryTypes, qt)
		sb.want.Attributes = append(sb.want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: qt})
	}
	return sb
}

// data is the sidebar's options with the counts f (counted false: the
// listing was over FilterCountLimit and f is empty).
func (sb sidebar) data(q ListingQuery, f catalog.Facets, counted bool) *FilterData {
	chosen := map[string]AttributeChoice{}
	for _, c := range q.Filters.Attributes {
		chosen[c.Attribute] = c
	}
	out := &FilterData{Applied: q.FilterCount(), Counted: counted, Attributes: []FilterAttribute{}, Ratings: []FilterOption{}, Stock: []FilterOption{},
		PriceRange: FilterPriceRange{ChosenMin: q.MinPrice, ChosenMax: q.MaxPrice}}
	if f.PriceRange != nil {
		out.PriceRange.Min, out.PriceRange.Max = f.PriceRange.Min, f.PriceRange.Max
	}
	for i, a := range sb.shown {
		fa := FilterAttribute{ID: a.ID, Name: a.Name, Slug: a.Slug, Taxonomy: a.Taxonomy(), Display: a.Type,
			QueryType: sb.queryTypes[i], Options: []FilterOption{}}
		c := chosen[a.Slug]
		for _, t := range a.Terms {
			sel := slices.Contains(c.Terms, t.Slug)
			n := f.Terms[a.ID][t.ID]
			fa.Options = append(fa.Options, FilterOption{Value: t.Slug, Label: t.Name, Count: n, Selected: sel, Disabled: counted && n == 0 && !sel, Color: t.Color})
		}
		out.Attributes = append(out.Attributes, fa)
	}
	for r := 5; r >= 1; r-- {
		sel := slices.Contains(q.Filters.Ratings, r)
		n := f.Ratings[r]
		out.Ratings = append(out.Ratings, FilterOption{Value: strconv.Itoa(r), Label: "Rated " + strconv.Itoa(r) + " out of 5",
			Count: n, Selected: sel, Disabled: counted && n == 0 && !sel})
	}
	for _, s := range stockLabels {
		sel := slices.Contains(q.Filters.StockStatus, s.status)
		n := f.StockStatus[s.status]
		out.Stock = append(out.Stock, FilterOption{Value: s.status, Label: s.label, Count: n, Selected: sel, Disabled: counted && n == 0 && !sel})
	}
	out.OnSale = FilterOption{Value: "1", Label: "On sale", Count: f.OnSale, Selected: q.Filters.OnSale, Disabled: counted && f.OnSale == 0 && !q.Filters.OnSale}
	return out
}
