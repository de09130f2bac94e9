package storefront

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/pages"
)

// The listing filters in the URL, as WooCommerce names them:
// filter_<attribute>=navy,black&query_type_<attribute>=or, min_price and
// max_price, rating_filter=4,5, filter_stock_status=instock, and on_sale=1
// (the Store API's name; WooCommerce's classic widgets have none). Read
// normalized: slugs of a plausible shape, values sorted and unique,
// query_type kept only as "or" beside its filter ("and" is the default),
// so a URL's spellings share one page and one cache entry.

// filterSlug is the shape of attribute and term slugs in filter URLs.
var filterSlug = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// maxFilterAttributes and maxFilterTerms bound what a URL may choose.
const maxFilterAttributes, maxFilterTerms = 10, 20

// readFilters reads the listing filters of q.
func readFilters(q url.Values) pages.ListingFilters {
	var f pages.ListingFilters
	for k := range q {
		attr, ok := strings.CutPrefix(k, "filter_")
		if !ok || attr == "stock_status" || !filterSlug.MatchString(attr) {
			continue
		}
		terms := listValues(q.Get(k), func(v string) bool { return filterSlug.MatchString(v) })
		if len(terms) == 0 || len(terms) > maxFilterTerms {
			continue
		}
		f.Attributes = append(f.Attributes, pages.AttributeChoice{Attribute: attr, Terms: terms, Or: q.Get("query_type_"+attr) == "or"})
	}
	slices.SortFunc(f.Attributes, func(a, b pages.AttributeChoice) int { return strings.Compare(a.Attribute, b.Attribute) })
	if len(f.Attributes) > maxFilterAttributes {
		f.Attributes = f.Attributes[:maxFilterAttributes]
	}
	for _, r := range listValues(q.Get("rating_filter"), func(v string) bool { return len(v) == 1 && v[0] >= '1' && v[0] <= '5' }) {
		f.Ratings = append(f.Ratings, int(r[0]-'0'))
	}
	f.StockStatus = listValues(q.Get("filter_stock_status"), func(v string) bool {
		return v == catalog.StockInStock || v == catalog.StockOutOfStock || v == catalog.StockOnBackorder
	})
	f.OnSale = q.Get("on_sale") == "1"
	return f
}

// listValues splits a comma list, keeps the values ok accepts, sorted and
// unique.
func listValues(v string, ok func(string) bool) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" && ok(s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// filterParams are the normalized filter parameters of lq, the price
// bounds in their place (WooCommerce's order).
func filterParams(lq pages.ListingQuery) []string {
	var q []string
	for _, a := range lq.Filters.Attributes {
		q = append(q, "filter_"+a.Attribute+"="+strings.Join(a.Terms, ","))
		if a.Or {
			q = append(q, "query_type_"+a.Attribute+"=or")
		}
	}
	q = append(q, priceParams(lq)...)
	if len(lq.Filters.Ratings) > 0 {
		rs := make([]string, len(lq.Filters.Ratings))
		for i, r := range lq.Filters.Ratings {
			rs[i] = strconv.Itoa(r)
		}
		q = append(q, "rating_filter="+strings.Join(rs, ","))
	}
	if len(lq.Filters.StockStatus) > 0 {
		q = append(q, "filter_stock_status="+strings.Join(lq.Filters.StockStatus, ","))
	}
	if lq.Filters.OnSale {
		q = append(q, "on_sale=1")
	}
	return q
}
