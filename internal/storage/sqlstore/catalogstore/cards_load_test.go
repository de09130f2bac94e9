package catalogstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestCardsLoadWhatACardShows: a query for cards (ProductQuery.Cards)
// reads the same products in the same order as the full query, through
// SQL and through the facet index, each with its pictures and a grouped
// product's children (its price) as the full one has them, and without
// what a card never shows: descriptions, terms, attributes, meta.
func TestCardsLoadWhatACardShows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		rnd := rand.New(rand.NewPCG(5, 11))
		fc := genFilterCatalog(t, db, rnd, 40)
		var simple []int64
		for i, p := range fc.products {
			p.Description = fmt.Sprintf("<p>The long description of %s.</p>", p.Name)
			p.Meta = map[string]string{"_note": "meta"}
			for j := range i % 3 {
				p.Images = append(p.Images, catalog.Image{Src: fmt.Sprintf("/media/p%d-%d.jpg", i, j), Width: 600, Height: 600, Alt: p.Name})
			}
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
			if p.Published() && p.Type == catalog.TypeSimple && len(simple) < 3 {
				simple = append(simple, p.ID)
			}
		}
		group := &catalog.Product{Type: catalog.TypeGrouped, Name: "A set", Slug: "a-set", Purchasable: true, StockStatus: catalog.StockInStock,
			Description: "<p>Three together.</p>", Children: simple, Categories: []catalog.Term{{ID: fc.cats[0]}},
			Images: []catalog.Image{{Src: "/media/set.jpg", Width: 600, Height: 600}}, Meta: map[string]string{"_note": "meta"}}
		if _, err := db.SaveProduct(ctx, group, nil); err != nil {
			t.Fatal(err)
		}

		sawGroup, sawImages, fullCats, fullAttrs := false, false, false, false
		compare := func(name string, full, cards []*catalog.Product) {
			t.Helper()
			if len(full) != len(cards) {
				t.Fatalf("%s: %d cards, %d full products", name, len(cards), len(full))
			}
			for i, f := range full {
				c := cards[i]
				if c.ID != f.ID {
					t.Fatalf("%s: card %d is product %d, the full query's is %d", name, i, c.ID, f.ID)
				}
				if c.Description != "" || c.ShortDescription != "" || len(c.Categories) != 0 || len(c.Tags) != 0 || len(c.Attributes) != 0 || len(c.Meta) != 0 {
					t.Errorf("%s: card %d carries what a card never shows: %q %q %v %v %v %v", name, c.ID, c.Description, c.ShortDescription, c.Categories, c.Tags, c.Attributes, c.Meta)
				}
				if f.Description == "" || len(f.Meta) == 0 {
					t.Errorf("%s: the full product %d lacks its description or meta", name, f.ID)
				}
				fullCats = fullCats || len(f.Categories) > 0
				fullAttrs = fullAttrs || len(f.Attributes) > 0
				// The rest, pictures and children included, is the full product's.
				g := *c
				g.Description, g.ShortDescription, g.Categories, g.Tags, g.Attributes, g.Meta = f.Description, f.ShortDescription, f.Categories, f.Tags, f.Attributes, f.Meta
				if d := cmp.Diff(f, &g); d != "" {
					t.Errorf("%s: card %d differs from its product beyond what a card leaves out (-full +card):\n%s", name, c.ID, d)
				}
			}
		}
		queries := []catalog.ProductQuery{
			{PerPage: 50},
			{PerPage: 7, Page: 2, OrderBy: "price", Order: "asc"},
			{CategoryIDs: []int64{fc.cats[0]}, Descendants: true, PerPage: 10, OrderBy: "popularity", Order: "desc", NoCount: true},
			{Search: "product", Visibility: "search", PerPage: 10},
		}
		for range 12 {
			q := fc.randomQuery(rnd)
			q.PerPage = 1 + rnd.IntN(12)
			queries = append(queries, q)
		}
		for i, q := range queries {
			full, _, err := db.QueryProducts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			q.Cards = true
			cards, _, err := db.QueryProducts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			compare(fmt.Sprintf("query %d in SQL", i), full, cards)
			q.Cards = false
			full, _, _, _, err = catalog.QueryFaceted(ctx, db, q, catalog.FacetRequest{StockStatus: true}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			q.Cards = true
			cards, _, _, _, err = catalog.QueryFaceted(ctx, db, q, catalog.FacetRequest{StockStatus: true}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			compare(fmt.Sprintf("query %d through the facet index", i), full, cards)
			for _, c := range cards {
				sawGroup = sawGroup || len(c.Children) > 0
				sawImages = sawImages || len(c.Images) > 1
			}
		}
		if !sawGroup || !sawImages || !fullCats || !fullAttrs {
			t.Fatalf("the queries never listed the grouped product (%v), a product with two pictures (%v), categories (%v) or attributes (%v)",
				sawGroup, sawImages, fullCats, fullAttrs)
		}
	})
}
