package catalog

import (
	"context"
	"fmt"
	"slices"
)

// Filters narrow a listing the way WooCommerce's filter blocks and the
// Store API's products route do (global attribute terms, rating, stock,
// price, on sale), and Facets counts, for each option, how many products
// choosing it would leave given the other filters chosen.

// Attribute filter operators (the Store API's attributes[i][operator]).
const (
	AttrIn    = "in"     // any of the terms
	AttrAnd   = "and"    // all of the terms
	AttrNotIn = "not_in" // none of the terms
)

// AttributeFilter narrows a listing by terms of one global attribute.
type AttributeFilter struct {
	AttributeID int64
	TermIDs     []int64
	Operator    string // AttrIn (or empty), AttrAnd, AttrNotIn
}

// FacetRequest names what Facets counts (the Store API's calculate_*).
type FacetRequest struct {
	PriceRange  bool
	Attributes  []AttributeCount
	Ratings     bool
	StockStatus bool
	OnSale      bool
}

// AttributeCount asks for the term counts of one global attribute.
// QueryType "or" counts each term as if this attribute's own filter were
// not chosen (choosing a term adds to the products shown); "and" keeps it
// (choosing a term narrows them), as WooCommerce counts.
type AttributeCount struct {
	AttributeID int64
	QueryType   string // "or" or "and"
}

// Facets are a listing's filter options with their counts. A field the
// request did not ask for is nil.
type Facets struct {
	// PriceRange is the lowest and highest listing price of the products
	// the other filters leave (the price filter itself ignored); nil
	// bounds when none has a price.
	PriceRange *PriceBounds
	// Terms are per attribute id: term id → products left (terms with no
	// product are absent).
	Terms map[int64]map[int64]int
	// Ratings: rounded average rating 1..5 → products (rated ones only).
	Ratings map[int]int
	// StockStatus: status → products.
	StockStatus map[string]int
	// OnSale: the products on sale.
	OnSale int
}

// PriceBounds is a range of listing prices in minor units.
type PriceBounds struct {
	Min, Max *int64
}

// FacetStore counts what a query selects, grouped by one facet. The SQL
// store implements it; each method applies every filter of q.
type FacetStore interface {
	PriceRange(ctx context.Context, q ProductQuery) (PriceBounds, error)
	TermCounts(ctx context.Context, q ProductQuery, attributeID int64) (map[int64]int, error)
	RatingCounts(ctx context.Context, q ProductQuery) (map[int]int, error)
	StockStatusCounts(ctx context.Context, q ProductQuery) (map[string]int, error)
	CountMatching(ctx context.Context, q ProductQuery) (int, error)
	// CountAllFacets counts a whole request at once (the SQL store's kept
	// index), with the definitions CountFacets applies facet by facet; ok
	// is false for a query it does not answer, which CountFacets then
	// counts facet by facet.
	CountAllFacets(ctx context.Context, q ProductQuery, want FacetRequest) (f Facets, ok bool, err error)
	// QueryProductsFaceted is QueryProducts and CountAllFacets in one
	// (a listing page with its sidebar): the page and total of q and want
	// counted, from one pass of the SQL store's kept index, a search's
	// candidates read once for both; ok is false where CountAllFacets
	// does not answer (QueryFaceted then asks for each).
	QueryProductsFaceted(ctx context.Context, q ProductQuery, want FacetRequest) (ps []*Product, total int, f Facets, ok bool, err error)
}

// QueryFaceted is q's page and total with want counted over q (as
// CountFacets counts it), at once where the store answers both together.
// A total over countLimit is not counted: f is empty and counted false.
func QueryFaceted(ctx context.Context, s Store, q ProductQuery, want FacetRequest, countLimit int) (ps []*Product, total int, f Facets, counted bool, err error) {
	ps, total, f, ok, err := s.QueryProductsFaceted(ctx, q, want)
	if err != nil {
		return nil, 0, Facets{}, false, err
	}
	if !ok {
		if ps, total, err = s.QueryProducts(ctx, q); err != nil {
			return nil, 0, Facets{}, false, err
		}
		if total > countLimit {
			return ps, total, Facets{}, false, nil
		}
		f, err = CountFacets(ctx, s, q, want)
		return ps, total, f, err == nil, err
	}
	if total > countLimit {
		return ps, total, Facets{}, false, nil
	}
	return ps, total, f, true, nil
}

// CountFacets answers want for the listing q: each facet is counted over
// the products q selects without that facet's own filter, so every
// option's count is what choosing it would leave. Paging and order of q
// are ignored.
func CountFacets(ctx context.Context, s FacetStore, q ProductQuery, want FacetRequest) (Facets, error) {
	if f, ok, err := s.CountAllFacets(ctx, q, want); err != nil || ok {
		return f, err
	}
	var f Facets
	if want.PriceRange {
		o := q
		o.MinPrice, o.MaxPrice = nil, nil
		r, err := s.PriceRange(ctx, o)
		if err != nil {
			return f, fmt.Errorf("price range: %w", err)
		}
		f.PriceRange = &r
	}
	if len(want.Attributes) > 0 {
		f.Terms = map[int64]map[int64]int{}
	}
	for _, a := range want.Attributes {
		o := q
		if a.QueryType != "and" {
			o.Attributes = WithoutAttribute(q.Attributes, a.AttributeID)
		}
		c, err := s.TermCounts(ctx, o, a.AttributeID)
		if err != nil {
			return f, fmt.Errorf("term counts: %w", err)
		}
		f.Terms[a.AttributeID] = c
	}
	if want.Ratings {
		o := q
		o.Ratings = nil
		c, err := s.RatingCounts(ctx, o)
		if err != nil {
			return f, fmt.Errorf("rating counts: %w", err)
		}
		f.Ratings = c
	}
	if want.StockStatus {
		o := q
		o.StockStatus = nil
		c, err := s.StockStatusCounts(ctx, o)
		if err != nil {
			return f, fmt.Errorf("stock status counts: %w", err)
		}
		f.StockStatus = c
	}
	if want.OnSale {
		o := q
		on := true
		o.OnSale = &on
		n, err := s.CountMatching(ctx, o)
		if err != nil {
			return f, fmt.Errorf("on sale count: %w", err)
		}
		f.OnSale = n
	}
	return f, nil
}

// WithoutAttribute is fs without the filters on attribute id (a new slice).
func WithoutAttribute(fs []AttributeFilter, id int64) []AttributeFilter {
	return slices.DeleteFunc(slices.Clone(fs), func(f AttributeFilter) bool { return f.AttributeID == id })
}

// RoundedRating is the whole-star rating a product is filtered and counted
// by: its average rounded half up, as WooCommerce's rated-N terms; 0 for
// unrated.
func RoundedRating(avg float64) int {
	r := int(avg + 0.5)
	return min(max(r, 0), 5)
}

// FilterAttribute is a global attribute with its terms, as filters name
// them (taxonomy "pa_color", term slugs).
type FilterAttribute struct {
	Attribute
	Terms []AttrTerm
}

// FilterAttributes is every global attribute with its terms, as the
// store keeps them (Store.FilterAttributes: the SQL store keeps them in
// memory until a taxonomy change). Callers must not modify them.
func FilterAttributes(ctx context.Context, s Store) ([]FilterAttribute, error) {
	return s.FilterAttributes(ctx)
}

// LoadFilterAttributes loads every global attribute with its terms and
// their product counts, reading s each time.
func LoadFilterAttributes(ctx context.Context, s Store) ([]FilterAttribute, error) {
	attrs, err := s.Attributes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]FilterAttribute, len(attrs))
	for i, a := range attrs {
		terms, err := s.AttributeTerms(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		out[i] = FilterAttribute{Attribute: a, Terms: terms}
	}
	return out, nil
}

// FilterAttributeByTaxonomy finds the attribute named by taxonomy
// ("pa_color"; the bare slug "color" too).
func FilterAttributeByTaxonomy(attrs []FilterAttribute, taxonomy string) (FilterAttribute, bool) {
	for _, a := range attrs {
		if a.Taxonomy() == taxonomy || a.Slug == taxonomy {
			return a, true
		}
	}
	return FilterAttribute{}, false
}

// TermIDs resolves term slugs of a to ids, in the order given; ok is false
// when one is not a term of a.
func (a FilterAttribute) TermIDs(slugs []string) (ids []int64, ok bool) {
	for _, s := range slugs {
		i := slices.IndexFunc(a.Terms, func(t AttrTerm) bool { return t.Slug == s })
		if i < 0 {
			return nil, false
		}
		ids = append(ids, a.Terms[i].ID)
	}
	return ids, true
}
