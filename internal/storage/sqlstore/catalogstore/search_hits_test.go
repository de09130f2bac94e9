package catalogstore_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestSearchHitsMatchCandidateQuery: the candidates a search page reads
// (searchHits: on SQLite in steps, reading stored columns only where a
// rank needs them) are the listing's candidate query's, with the same
// ranks, for queries matching names exactly, by their start, as a
// prefix, in SKUs, categories, attribute values, short and long
// descriptions, with typos and plurals, in a category or not, and with
// candidate caps that cut either half short.
func TestSearchHitsMatchCandidateQuery(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		cats := searchCatalogue(t, db)
		queries := []string{"cotton", "Cotton", "cott", "cotton shirt", "cotton shirts", "shirt cotton", "classic cotton", "cottn",
			"linen", "creme", "crème shirt", "sku-7", "COTTON", "cotton goods", "wool", "soft", "made", "nothing", "!!", "c", "cotton-shirt"}
		for _, s := range queries {
			for _, limit := range []int{0, 3, 10, 40} {
				for _, cat := range [][]int64{nil, {cats[0]}, cats} {
					q := catalog.ProductQuery{Search: s, Visibility: "search", SearchCandidates: limit, CategoryIDs: cat}
					got, want, err := db.SearchHitsBothWaysForTest(ctx, q)
					if err != nil {
						t.Fatalf("%q limit %d cats %v: %v", s, limit, cat, err)
					}
					if !maps.Equal(got, want) {
						t.Fatalf("%q limit %d cats %v: hits %v, want %v", s, limit, cat, got, want)
					}
					if s == "cotton" && limit == 0 && cat == nil && (len(want) < 40 || !hasRank(want, 0) || !hasRank(want, 1) || !hasRank(want, 4)) {
						t.Fatalf("the catalogue does not reach the ranks it should: %v", want)
					}
				}
			}
		}
	})
}

// TestSearchPagesFromBestRanks: a search page ordered by relevance, read
// from its best ranked candidates when they fill it, is the page
// QueryProducts reads from every candidate, for every page of it.
func TestSearchPagesFromBestRanks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		cats := searchCatalogue(t, db)
		index := db.Facets
		defer func() { db.Facets = index }()
		for _, s := range []string{"cotton", "cotton shirt", "linen", "shirt", "sku-7", "soft", "cottn"} {
			for _, per := range []int{1, 2, 3, 7} {
				for page := 1; page <= 5; page++ {
					for _, cat := range [][]int64{nil, {cats[0]}} {
						for _, order := range []string{"", "relevance", "price"} {
							q := catalog.ProductQuery{Search: s, Visibility: "search", PerPage: per, Page: page, CategoryIDs: cat, OrderBy: order}
							db.Facets = index
							got, total, _, ok, err := db.QueryProductsFaceted(ctx, q, catalog.FacetRequest{StockStatus: true})
							if err != nil || !ok {
								t.Fatalf("%+v: the index did not answer (%v)", q, err)
							}
							db.Facets = nil
							want, wantTotal, err := db.QueryProducts(ctx, q)
							if err != nil {
								t.Fatal(err)
							}
							if total != wantTotal || fmt.Sprint(productIDs(got)) != fmt.Sprint(productIDs(want)) {
								t.Fatalf("%+v: page %v of %d, want %v of %d", q, productIDs(got), total, productIDs(want), wantTotal)
							}
						}
					}
				}
			}
		}
	})
}

func productIDs(ps []*catalog.Product) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// searchCatalogue saves 160 products whose names, SKUs, categories,
// attribute values and descriptions hold the test searches' words in
// varied places, and returns its two categories.
func searchCatalogue(t *testing.T, db *sqlstore.DB) []int64 {
	t.Helper()
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(5, 8))
	var cats []int64
	for _, name := range []string{"Cotton Goods", "Wool"} {
		id, _, err := db.EnsureCategoryPath(ctx, []string{name})
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, id)
	}
	mat, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Material", Slug: "material", Type: catalog.SwatchSelect})
	if err != nil {
		t.Fatal(err)
	}
	var terms []catalog.AttrTerm
	for _, n := range []string{"Cotton", "Linen", "Cashmere"} {
		term, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: mat.ID, Name: n, Slug: catalog.Slugify(n)})
		if err != nil {
			t.Fatal(err)
		}
		terms = append(terms, term)
	}
	adj := []string{"Cotton", "Classic", "Linen", "Crème", "Cottony", ""}
	noun := []string{"Shirt", "Shirts", "Cotton", "Scarf", "Tee", "Cotton Shirt"}
	words := []string{"cotton", "linen", "shirt", "scarf", "wool", "soft"}
	for i := range 160 {
		name := adj[rnd.IntN(len(adj))] + " " + noun[rnd.IntN(len(noun))]
		if rnd.IntN(10) == 0 {
			name = "Cotton" // the exact name of a one-word query
		}
		p := &catalog.Product{Type: catalog.TypeSimple, Name: name, SKU: fmt.Sprintf("SKU-%d", i), Purchasable: true,
			StockStatus: catalog.StockInStock, RegularPrice: i64(int64(100 + i))}
		if rnd.IntN(15) == 0 {
			p.SKU = "COTTON" // a SKU that is the query
		}
		if rnd.IntN(3) == 0 {
			p.ShortDescription = "<p>" + words[rnd.IntN(len(words))] + " and " + words[rnd.IntN(len(words))] + "</p>"
		}
		if rnd.IntN(3) == 0 {
			p.Description = "Made of " + words[rnd.IntN(len(words))] + "."
		}
		if rnd.IntN(2) == 0 {
			p.Categories = append(p.Categories, catalog.Term{ID: cats[rnd.IntN(len(cats))]})
		}
		if rnd.IntN(3) == 0 {
			term := terms[rnd.IntN(len(terms))]
			p.Attributes = []catalog.ProductAttribute{{AttributeID: mat.ID, Name: mat.Name, Taxonomy: mat.Taxonomy(), Visible: true,
				Values: []catalog.AttributeValue{{TermID: term.ID, Name: term.Name, Slug: term.Slug}}}}
		}
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	return cats
}

func hasRank(hits map[int64]int, r int) bool {
	for _, v := range hits {
		if v == r {
			return true
		}
	}
	return false
}
