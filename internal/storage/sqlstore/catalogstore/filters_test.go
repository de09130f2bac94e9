package catalogstore_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/storetest"
)

// filterCatalog is a generated catalogue: random attribute terms, prices,
// ratings, stock, categories and visibility.
type filterCatalog struct {
	attrs    []catalog.Attribute
	terms    map[int64][]int64 // attribute id → term ids
	cats     []int64
	products []*catalog.Product
}

func genFilterCatalog(t *testing.T, db *sqlstore.DB, rnd *rand.Rand, n int) *filterCatalog {
	t.Helper()
	ctx := context.Background()
	fc := &filterCatalog{terms: map[int64][]int64{}}
	for _, name := range []string{"Color", "Size", "Material"} {
		a, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: name, Slug: catalog.Slugify(name), Type: catalog.SwatchSelect})
		if err != nil {
			t.Fatal(err)
		}
		fc.attrs = append(fc.attrs, a)
		for i := range 2 + rnd.IntN(4) {
			term, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: a.ID, Name: fmt.Sprintf("%s %d", name, i), Slug: fmt.Sprintf("%s-%d", a.Slug, i)})
			if err != nil {
				t.Fatal(err)
			}
			fc.terms[a.ID] = append(fc.terms[a.ID], term.ID)
		}
	}
	for _, name := range []string{"Tops", "Bottoms"} {
		id, _, err := db.EnsureCategoryPath(ctx, []string{name})
		if err != nil {
			t.Fatal(err)
		}
		fc.cats = append(fc.cats, id)
	}
	stocks := []string{catalog.StockInStock, catalog.StockOutOfStock, catalog.StockOnBackorder}
	names := rand.New(rand.NewPCG(uint64(n), 7)) // names apart: the other draws stay as they were
	for range n {
		// Names repeat (the id breaks the tie), differ in case and in
		// accents, and menu orders tie: the shop's order (menu_order, name,
		// id) as SQL sorts it, which the facet index reproduces.
		name := fmt.Sprintf("Product %d", names.IntN(n/3+1))
		switch names.IntN(4) {
		case 0:
			name = strings.ToLower(name)
		case 1:
			name = "Ébène " + name
		}
		p := &catalog.Product{Type: catalog.TypeSimple, Name: name, Slug: fmt.Sprintf("product-%d", len(fc.products)), // SaveProduct matches by slug
			Purchasable: true, MenuOrder: names.IntN(3) - 1,
			StockStatus: stocks[rnd.IntN(3)], AverageRating: float64(rnd.IntN(11)) / 2}
		if names.IntN(3) == 0 {
			// "tops" then ranks by its field: the category (Tops) or
			// this short description.
			p.ShortDescription = "<p>Light tops for summer</p>"
		}
		if rnd.IntN(8) > 0 {
			p.RegularPrice = i64(int64(100 * (1 + rnd.IntN(50))))
		}
		switch rnd.IntN(12) {
		case 0:
			p.CatalogVisibility = catalog.VisibilityHidden
		case 1:
			p.Status = catalog.StatusDraft
		case 2:
			p.CatalogVisibility = catalog.VisibilitySearch
		case 3:
			p.CatalogVisibility = catalog.VisibilityCatalog
		}
		for _, c := range fc.cats {
			if rnd.IntN(2) == 0 {
				p.Categories = append(p.Categories, catalog.Term{ID: c})
			}
		}
		for pos, a := range fc.attrs {
			var vals []catalog.AttributeValue
			for _, term := range fc.terms[a.ID] {
				if rnd.IntN(3) == 0 {
					vals = append(vals, catalog.AttributeValue{TermID: term, Name: fmt.Sprint(term), Slug: fmt.Sprint(term)})
				}
			}
			if len(vals) > 0 {
				p.Attributes = append(p.Attributes, catalog.ProductAttribute{AttributeID: a.ID, Name: a.Name, Taxonomy: a.Taxonomy(),
					Position: pos, Visible: true, Values: vals})
			}
		}
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		fc.products = append(fc.products, p)
	}
	return fc
}

// randomQuery picks a random combination of filters.
func (fc *filterCatalog) randomQuery(rnd *rand.Rand) catalog.ProductQuery {
	var q catalog.ProductQuery
	if rnd.IntN(3) == 0 {
		q.CategoryIDs, q.Descendants = []int64{fc.cats[rnd.IntN(len(fc.cats))]}, true
	}
	for _, a := range fc.attrs {
		if rnd.IntN(2) == 0 {
			continue
		}
		f := catalog.AttributeFilter{AttributeID: a.ID, Operator: []string{catalog.AttrIn, catalog.AttrIn, catalog.AttrAnd, catalog.AttrNotIn}[rnd.IntN(4)]}
		for _, term := range fc.terms[a.ID] {
			if rnd.IntN(3) == 0 {
				f.TermIDs = append(f.TermIDs, term)
			}
		}
		if len(f.TermIDs) == 0 {
			f.TermIDs = fc.terms[a.ID][:1]
		}
		q.Attributes = append(q.Attributes, f)
	}
	if rnd.IntN(3) == 0 {
		q.AttributeRelation = "in"
	}
	if rnd.IntN(3) == 0 {
		q.MinPrice = i64(int64(100 * rnd.IntN(30)))
	}
	if rnd.IntN(3) == 0 {
		q.MaxPrice = i64(int64(100 * (20 + rnd.IntN(30))))
	}
	if rnd.IntN(3) == 0 {
		q.Ratings = []int{1 + rnd.IntN(5), 1 + rnd.IntN(5)}
	}
	if rnd.IntN(3) == 0 {
		q.StockStatus = []string{[]string{catalog.StockInStock, catalog.StockOutOfStock, catalog.StockOnBackorder}[rnd.IntN(3)]}
	}
	return q
}

// matches is the brute-force definition of q on one product.
func matches(p *catalog.Product, q catalog.ProductQuery) bool {
	if p.Status != catalog.StatusPublish || p.CatalogVisibility == catalog.VisibilityHidden || p.CatalogVisibility == catalog.VisibilitySearch {
		return false
	}
	if len(q.CategoryIDs) > 0 && !slices.ContainsFunc(p.Categories, func(c catalog.Term) bool { return slices.Contains(q.CategoryIDs, c.ID) }) {
		return false
	}
	if q.MinPrice != nil && (p.RegularPrice == nil || *p.RegularPrice < *q.MinPrice) {
		return false
	}
	if q.MaxPrice != nil && (p.RegularPrice == nil || *p.RegularPrice > *q.MaxPrice) {
		return false
	}
	if len(q.StockStatus) > 0 && !slices.Contains(q.StockStatus, p.StockStatus) {
		return false
	}
	if len(q.Ratings) > 0 && !slices.Contains(q.Ratings, catalog.RoundedRating(p.AverageRating)) {
		return false
	}
	if len(q.Attributes) == 0 {
		return true
	}
	has := map[int64]bool{}
	for _, a := range p.Attributes {
		for _, v := range a.Values {
			has[v.TermID] = true
		}
	}
	any, all := false, true
	for _, f := range q.Attributes {
		n := 0
		for _, id := range f.TermIDs {
			if has[id] {
				n++
			}
		}
		var ok bool
		switch f.Operator {
		case catalog.AttrAnd:
			ok = n == len(f.TermIDs)
		case catalog.AttrNotIn:
			ok = n == 0
		default:
			ok = n > 0
		}
		any, all = any || ok, all && ok
	}
	if q.AttributeRelation == "in" {
		return any
	}
	return all
}

// bruteFacets counts want over fc by the definition: each facet over the
// products matching q without that facet's own filter.
func (fc *filterCatalog) bruteFacets(q catalog.ProductQuery, want catalog.FacetRequest) catalog.Facets {
	var f catalog.Facets
	each := func(q catalog.ProductQuery, fn func(p *catalog.Product)) {
		for _, p := range fc.products {
			if matches(p, q) {
				fn(p)
			}
		}
	}
	if want.PriceRange {
		o := q
		o.MinPrice, o.MaxPrice = nil, nil
		f.PriceRange = &catalog.PriceBounds{}
		each(o, func(p *catalog.Product) {
			if p.RegularPrice == nil {
				return
			}
			if f.PriceRange.Min == nil || *p.RegularPrice < *f.PriceRange.Min {
				f.PriceRange.Min = p.RegularPrice
			}
			if f.PriceRange.Max == nil || *p.RegularPrice > *f.PriceRange.Max {
				f.PriceRange.Max = p.RegularPrice
			}
		})
	}
	f.Terms = map[int64]map[int64]int{}
	for _, a := range want.Attributes {
		o := q
		if a.QueryType != "and" {
			o.Attributes = catalog.WithoutAttribute(q.Attributes, a.AttributeID)
		}
		c := map[int64]int{}
		each(o, func(p *catalog.Product) {
			for _, pa := range p.Attributes {
				if pa.AttributeID == a.AttributeID {
					for _, v := range pa.Values {
						c[v.TermID]++
					}
				}
			}
		})
		f.Terms[a.AttributeID] = c
	}
	if want.Ratings {
		o := q
		o.Ratings = nil
		f.Ratings = map[int]int{}
		each(o, func(p *catalog.Product) {
			if r := catalog.RoundedRating(p.AverageRating); r > 0 {
				f.Ratings[r]++
			}
		})
	}
	if want.StockStatus {
		o := q
		o.StockStatus = nil
		f.StockStatus = map[string]int{}
		each(o, func(p *catalog.Product) { f.StockStatus[p.StockStatus]++ })
	}
	return f
}

// TestFacetCountsMatchBruteForce: on generated catalogues, the listing's
// total and every facet count equal a count by definition in Go, for
// random filter combinations, in both category plans, counted by the kept
// facet index and by SQL facet by facet.
func TestFacetCountsMatchBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		rnd := rand.New(rand.NewPCG(30, 44))
		fc := genFilterCatalog(t, db, rnd, 120)
		index := db.Facets
		defer func() { db.Facets = index }()
		for _, small := range []int{1, 1 << 30} {
			restore := catalogstore.SetSmallCategoryRowsForTest(small)
			for i := range 80 {
				db.Facets = nil
				if i%2 == 0 {
					db.Facets = index
				}
				q := fc.randomQuery(rnd)
				want := catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true}
				for _, a := range fc.attrs {
					want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: []string{"or", "and"}[rnd.IntN(2)]})
				}
				label := fmt.Sprintf("small=%d indexed=%v query %d %+v", small, db.Facets != nil, i, q)
				n := 0
				for _, p := range fc.products {
					if matches(p, q) {
						n++
					}
				}
				q.PerPage = 5
				if _, total, err := db.QueryProducts(ctx, q); err != nil || total != n {
					t.Fatalf("%s: total %d (%v), want %d", label, total, err, n)
				}
				got, err := catalog.CountFacets(ctx, db, q, want)
				if err != nil {
					t.Fatal(err)
				}
				exp := fc.bruteFacets(q, want)
				if fmt.Sprint(deref(got.PriceRange)) != fmt.Sprint(deref(exp.PriceRange)) {
					t.Fatalf("%s: price range %v, want %v", label, deref(got.PriceRange), deref(exp.PriceRange))
				}
				for id, c := range exp.Terms {
					if !maps.Equal(got.Terms[id], c) {
						t.Fatalf("%s: attribute %d counts %v, want %v", label, id, got.Terms[id], c)
					}
				}
				if !maps.Equal(got.Ratings, exp.Ratings) || !maps.Equal(got.StockStatus, exp.StockStatus) {
					t.Fatalf("%s: ratings %v stock %v, want %v %v", label, got.Ratings, got.StockStatus, exp.Ratings, exp.StockStatus)
				}
			}
			restore()
		}
	})
}

func deref(r *catalog.PriceBounds) [2]int64 {
	out := [2]int64{-1, -1}
	if r != nil && r.Min != nil {
		out[0] = *r.Min
	}
	if r != nil && r.Max != nil {
		out[1] = *r.Max
	}
	return out
}

// TestAttributeFilterSetting: an attribute starts filterable with "any";
// the admin's setting is kept, and a bad query type is refused unchanged.
func TestAttributeFilterSetting(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Size"})
		if err != nil {
			t.Fatal(err)
		}
		got := func() catalog.Attribute {
			t.Helper()
			x, err := db.Attribute(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			return *x
		}
		if x := got(); !x.Filterable || x.FilterQueryType != "or" {
			t.Fatalf("new attribute: filterable %v, query type %q", x.Filterable, x.FilterQueryType)
		}
		admin := &catalog.Admin{Store: db}
		if err := admin.SetAttributeFilter(ctx, a.ID, ptrTo(false), ptrTo("and")); err != nil {
			t.Fatal(err)
		}
		if x := got(); x.Filterable || x.FilterQueryType != "and" {
			t.Fatalf("after the setting: filterable %v, query type %q", x.Filterable, x.FilterQueryType)
		}
		if err := admin.SetAttributeFilter(ctx, a.ID, ptrTo(true), ptrTo("xor")); err == nil {
			t.Fatal("query type xor accepted")
		}
		if x := got(); x.Filterable || x.FilterQueryType != "and" {
			t.Fatalf("a refused setting changed it: %v %q", x.Filterable, x.FilterQueryType)
		}
		if err := admin.SetAttributeFilter(ctx, 99999, nil, ptrTo("or")); err == nil {
			t.Fatal("unknown attribute accepted")
		}
	})
}

func ptrTo[T any](v T) *T { return &v }

// A search's counts from the kept index (over the search's candidates)
// equal SQL's facet-by-facet counts, for random searches and filters in
// the shop's search visibility and the Store API's: search-only products
// counted, shop-only ones only where listable.
func TestFacetIndexCountsSearches(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		rnd := rand.New(rand.NewPCG(31, 45))
		fc := genFilterCatalog(t, db, rnd, 120)
		index := db.Facets
		defer func() { db.Facets = index }()
		searches := []string{"product", "product 1", "produkt", "prod", "7", "nothing here", "!!"}
		for i := range 60 {
			q := fc.randomQuery(rnd)
			q.Search, q.Visibility = searches[rnd.IntN(len(searches))], []string{"search", "listable"}[rnd.IntN(2)]
			want := catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true}
			for _, a := range fc.attrs {
				want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: []string{"or", "and"}[rnd.IntN(2)]})
			}
			db.Facets = nil
			exp, err := catalog.CountFacets(ctx, db, q, want)
			if err != nil {
				t.Fatal(err)
			}
			db.Facets = index
			got, ok, err := db.CountAllFacets(ctx, q, want)
			if err != nil || !ok {
				t.Fatalf("query %d: the index did not answer (%v)", i, err)
			}
			label := fmt.Sprintf("query %d %+v", i, q)
			if fmt.Sprint(deref(got.PriceRange)) != fmt.Sprint(deref(exp.PriceRange)) {
				t.Fatalf("%s: price range %v, want %v", label, deref(got.PriceRange), deref(exp.PriceRange))
			}
			for id, c := range exp.Terms {
				if !maps.Equal(got.Terms[id], c) {
					t.Fatalf("%s: attribute %d counts %v, want %v", label, id, got.Terms[id], c)
				}
			}
			if !maps.Equal(got.Ratings, exp.Ratings) || !maps.Equal(got.StockStatus, exp.StockStatus) {
				t.Fatalf("%s: ratings %v stock %v, want %v %v", label, got.Ratings, got.StockStatus, exp.Ratings, exp.StockStatus)
			}
		}
	})
}
