package storeapi

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
)

// The filter parameters of /products and /products/collection-data,
// WooCommerce's spelling: attributes[i][attribute|term_id|slug|operator],
// attribute_relation, rating; and collection-data's calculate_* asks,
// answered by catalog.CountFacets.

// indexedParam matches name[i][field] (and name[i][field][]).
var indexedParam = regexp.MustCompile(`^([a-z_]+)\[(\d{1,3})\]\[([a-z_]+)\](\[\])?$`)

// indexes are the indexes i of name[i][...] parameters in q, ascending.
func indexes(q url.Values, name string) []int {
	var out []int
	for k := range q {
		if m := indexedParam.FindStringSubmatch(k); m != nil && m[1] == name {
			i, _ := strconv.Atoi(m[2])
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// keepIndexed adds to out the name[i][field] parameters of q (every value).
func keepIndexed(q, out url.Values, names []string) {
	for k, vs := range q {
		m := indexedParam.FindStringSubmatch(k)
		if m == nil || !slices.Contains(names, m[1]) {
			continue
		}
		for _, v := range vs {
			if v != "" {
				out.Add(k, v)
			}
		}
	}
}

// filterParams reads the attribute and rating filters into q; a bad one
// fails p (rest_invalid_param).
func (a *API) filterParams(ctx context.Context, p *httpx.Query, q *catalog.ProductQuery) {
	for _, r := range p.List("rating") {
		n, err := strconv.Atoi(r)
		if err != nil || n < 1 || n > 5 {
			p.Fail("rating", "rating[0] is not one of 1, 2, 3, 4, and 5.")
			return
		}
		q.Ratings = append(q.Ratings, n)
	}
	q.AttributeRelation = p.Enum("attribute_relation", "and", "in", "and")
	idx := indexes(p.Values, "attributes")
	if len(idx) == 0 || p.Err != nil {
		return
	}
	if len(idx) > 20 {
		p.Fail("attributes", "attributes lists more than 20 filters.")
		return
	}
	attrs, err := catalog.FilterAttributes(ctx, a.d.Catalog)
	if err != nil {
		p.Err = err
		return
	}
	for _, i := range idx {
		name := "attributes[" + strconv.Itoa(i) + "]"
		tax := p.Values.Get(name + "[attribute]")
		attr, ok := catalog.FilterAttributeByTaxonomy(attrs, tax)
		if !ok {
			p.Fail("attributes", name+"[attribute] is not a product attribute.")
			return
		}
		f := catalog.AttributeFilter{AttributeID: attr.ID,
			Operator: p.Enum(name+"[operator]", catalog.AttrIn, catalog.AttrIn, catalog.AttrNotIn, catalog.AttrAnd)}
		for _, id := range p.IDs(name + "[term_id]") {
			if !slices.ContainsFunc(attr.Terms, func(t catalog.AttrTerm) bool { return t.ID == id }) {
				p.Fail("attributes", name+"[term_id] names no term of "+attr.Taxonomy()+".")
				return
			}
			f.TermIDs = append(f.TermIDs, id)
		}
		if slugs := p.List(name + "[slug]"); len(slugs) > 0 {
			ids, ok := attr.TermIDs(slugs)
			if !ok {
				// WooCommerce matches no product for an unknown slug.
				ids = append(ids, -1)
			}
			f.TermIDs = append(f.TermIDs, ids...)
		}
		if len(f.TermIDs) > 0 {
			q.Attributes = append(q.Attributes, f)
		}
	}
}

// CollectionData is the answer of /products/collection-data: each part
// null unless asked for (WooCommerce's shape, stock counts as strings).
type CollectionData struct {
	PriceRange        *CollectionPriceRange `json:"price_range"`
	AttributeCounts   []TermCount           `json:"attribute_counts"`
	RatingCounts      []RatingCount         `json:"rating_counts"`
	StockStatusCounts []StockStatusCount    `json:"stock_status_counts"`
	TaxonomyCounts    any                   `json:"taxonomy_counts"`
}

// CollectionPriceRange is the listing's price range in minor units (null
// when no product has a price), with the currency.
type CollectionPriceRange struct {
	MinPrice *string `json:"min_price"`
	MaxPrice *string `json:"max_price"`
	money.Currency
}

// TermCount is one attribute term's product count.
type TermCount struct {
	Term  int64 `json:"term"`
	Count int   `json:"count"`
}

// RatingCount is the products rated (rounded) Rating.
type RatingCount struct {
	Rating int `json:"rating"`
	Count  int `json:"count"`
}

// StockStatusCount is the products of a stock status; WooCommerce sends
// the count as a string.
type StockStatusCount struct {
	Status string `json:"status"`
	Count  string `json:"count"`
}

// collectionDataParams are /products' filters plus the calculate_* asks.
var collectionDataParams = apiParams{
	single:  append(slices.Clone(productsAPIParams.single), "calculate_price_range", "calculate_rating_counts", "calculate_stock_status_counts"),
	lists:   productsAPIParams.lists,
	indexed: []string{"attributes", "calculate_attribute_counts"},
}

// CollectionData serves GET /products/collection-data.
func (a *API) CollectionData(w http.ResponseWriter, r *http.Request) {
	a.serveAPI(w, r, collectionDataParams, func(ctx context.Context, query url.Values) (*apiResponse, error) {
		q, err := a.productQuery(ctx, query)
		if err != nil {
			return nil, err
		}
		p := &httpx.Query{Values: query}
		var want catalog.FacetRequest
		want.PriceRange = boolParam(p, "calculate_price_range")
		want.Ratings = boolParam(p, "calculate_rating_counts")
		want.StockStatus = boolParam(p, "calculate_stock_status_counts")
		if idx := indexes(query, "calculate_attribute_counts"); len(idx) > 0 {
			attrs, err := catalog.FilterAttributes(ctx, a.d.Catalog)
			if err != nil {
				return nil, err
			}
			for _, i := range idx {
				name := "calculate_attribute_counts[" + strconv.Itoa(i) + "]"
				attr, ok := catalog.FilterAttributeByTaxonomy(attrs, query.Get(name+"[taxonomy]"))
				if !ok {
					p.Fail("calculate_attribute_counts", name+"[taxonomy] is not a product attribute.")
					break
				}
				want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: attr.ID,
					QueryType: p.Enum(name+"[query_type]", "or", "or", "and")})
			}
		}
		if p.Err != nil {
			return nil, p.Err
		}
		f, err := catalog.CountFacets(ctx, a.d.Catalog, q, want)
		if err != nil {
			return nil, err
		}
		return listing(a.collectionData(f, want)), nil
	})
}

// boolParam reads a calculate_* flag: true, 1 (else false); a value that
// is not a boolean fails p.
func boolParam(p *httpx.Query, name string) bool {
	b := p.Bool(name)
	return b != nil && *b
}

// collectionData shapes facets as WooCommerce does: terms grouped by the
// attribute asked for, in id order; ratings ascending; every stock status.
func (a *API) collectionData(f catalog.Facets, want catalog.FacetRequest) CollectionData {
	var out CollectionData
	if f.PriceRange != nil {
		out.PriceRange = &CollectionPriceRange{MinPrice: optAmount(f.PriceRange.Min), MaxPrice: optAmount(f.PriceRange.Max), Currency: a.d.Currency}
	}
	if want.Attributes != nil {
		out.AttributeCounts = []TermCount{}
		for _, at := range want.Attributes {
			c := f.Terms[at.AttributeID]
			for _, id := range slices.Sorted(maps.Keys(c)) {
				if c[id] > 0 && !slices.ContainsFunc(out.AttributeCounts, func(t TermCount) bool { return t.Term == id }) {
					out.AttributeCounts = append(out.AttributeCounts, TermCount{Term: id, Count: c[id]})
				}
			}
		}
	}
	if f.Ratings != nil {
		out.RatingCounts = []RatingCount{}
		for r := 1; r <= 5; r++ {
			if n := f.Ratings[r]; n > 0 {
				out.RatingCounts = append(out.RatingCounts, RatingCount{Rating: r, Count: n})
			}
		}
	}
	if f.StockStatus != nil {
		for _, s := range []string{catalog.StockInStock, catalog.StockOutOfStock, catalog.StockOnBackorder} {
			out.StockStatusCounts = append(out.StockStatusCounts, StockStatusCount{Status: s, Count: strconv.Itoa(f.StockStatus[s])})
		}
	}
	return out
}

func optAmount(n *int64) *string {
	if n == nil {
		return nil
	}
	s := strconv.FormatInt(*n, 10)
	return &s
}
