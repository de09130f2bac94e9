package catalogstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/storage/storetest"
)

// TestQueryProductsFacetedMatchesSQL: a listing's page, total and counts
// in one call (one pass of the kept index, a search's candidates read once
// and joined for the page) equal the page and total QueryProducts reads in
// SQL and the counts SQL makes facet by facet, for random filters, orders
// and pages, with and without a search, in a category or not, in the
// shop's and the search's visibility; a search by relevance with sales
// counts that tie and change without a catalogue change.
func TestQueryProductsFacetedMatchesSQL(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		rnd := rand.New(rand.NewPCG(32, 47))
		fc := genFilterCatalog(t, db, rnd, 120)
		index := db.Facets
		defer func() { db.Facets = index }()
		searches := []string{"", "", "product", "product 1", "produkt", "prod", "7", "tops", "nothing here", "!!"}
		orders := []string{"menu_order", "price", "date", "popularity", "title", "rating", "relevance", "", ""}
		// Sales counts that tie, changed by orders behind the catalogue's
		// back (no change recorded, as orders do): a search by relevance
		// breaks ties by them, and the index does not hold them.
		sell := func(i int) {
			if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE products SET total_sales = (id * ? + ?) % 5`), 7+i, i); err != nil {
				t.Fatal(err)
			}
		}
		searched := 0
		for i := range 240 {
			if i%20 == 0 {
				sell(i)
			}
			q := fc.randomQuery(rnd)
			if rnd.IntN(4) == 0 {
				// Several categories: the index tests them as a bitmap.
				q.CategoryIDs, q.Descendants = fc.cats, rnd.IntN(2) == 0
			}
			q.Search = searches[rnd.IntN(len(searches))]
			if q.Search != "" {
				q.Visibility = "search"
			}
			q.PerPage, q.Page = 1+rnd.IntN(8), 1+rnd.IntN(4)
			q.OrderBy, q.Order = orders[rnd.IntN(len(orders))], []string{"asc", "desc"}[rnd.IntN(2)]
			want := catalog.FacetRequest{PriceRange: true, Ratings: true, StockStatus: true, OnSale: true}
			for _, a := range fc.attrs {
				want.Attributes = append(want.Attributes, catalog.AttributeCount{AttributeID: a.ID, QueryType: []string{"or", "and"}[rnd.IntN(2)]})
			}
			label := fmt.Sprintf("query %d %+v", i, q)

			db.Facets = index
			page, total, got, ok, err := db.QueryProductsFaceted(ctx, q, want)
			if err != nil || !ok {
				t.Fatalf("%s: the index did not answer (%v)", label, err)
			}
			db.Facets = nil
			expPage, expTotal, err := db.QueryProducts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := catalog.CountFacets(ctx, db, q, want)
			if err != nil {
				t.Fatal(err)
			}
			if ids(page) != ids(expPage) || total != expTotal {
				t.Fatalf("%s: page %s of %d, SQL's %s of %d", label, ids(page), total, ids(expPage), expTotal)
			}
			if facetsString(got) != facetsString(exp) {
				t.Fatalf("%s:\none call %s\nSQL      %s", label, facetsString(got), facetsString(exp))
			}
			if q.Search != "" && total > 0 {
				searched++
			}
		}
		if searched < 40 {
			t.Fatalf("only %d searches found products: the test does not reach the shared candidates", searched)
		}
		// catalog.QueryFaceted gives the same through the store, and
		// leaves a listing over its limit uncounted.
		q := catalog.ProductQuery{Search: "product", Visibility: "search", PerPage: 5, Page: 1}
		want := catalog.FacetRequest{PriceRange: true, Ratings: true}
		db.Facets = index
		_, total, f, counted, err := catalog.QueryFaceted(ctx, db, q, want, 1000)
		if err != nil || !counted || total == 0 || f.Ratings == nil {
			t.Fatalf("QueryFaceted: total %d counted %v ratings %v (%v)", total, counted, f.Ratings, err)
		}
		if _, total, f, counted, err = catalog.QueryFaceted(ctx, db, q, want, total-1); err != nil || counted || !reflect.DeepEqual(f, catalog.Facets{}) {
			t.Fatalf("over the limit: total %d counted %v facets %+v (%v)", total, counted, f, err)
		}
	})
}

// TestFilterAttributesKept: the filter attributes kept with the facet
// index are read once and stay the same until an attribute or term write,
// after which they equal a fresh read: a term created by an import, a
// term's colour changed, a term renamed, an attribute's swatch type and
// filter setting changed.
func TestFilterAttributesKept(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		color, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color"})
		if err != nil {
			t.Fatal(err)
		}
		navy, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Navy"})
		if err != nil {
			t.Fatal(err)
		}
		// what drops Count (the kept list does not count products).
		fresh := func() string {
			t.Helper()
			attrs, err := catalog.LoadFilterAttributes(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			for i := range attrs {
				attrs[i].Count = 0
				for k := range attrs[i].Terms {
					attrs[i].Terms[k].Count = 0
				}
			}
			return fmt.Sprintf("%+v", attrs)
		}
		kept := func() []catalog.FilterAttribute {
			t.Helper()
			attrs, err := catalog.FilterAttributes(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			return attrs
		}
		first := kept()
		if got, want := fmt.Sprintf("%+v", first), fresh(); got != want {
			t.Fatalf("kept %s\nread %s", got, want)
		}
		if again := kept(); &again[0] != &first[0] {
			t.Fatal("read again without a change: not kept")
		}
		admin := &catalog.Admin{Store: db}
		for _, w := range []struct {
			name  string
			write func() error
		}{
			{"term created", func() error {
				_, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Teal", Color: "#008080"})
				return err
			}},
			{"term colour set by an import", func() error {
				_, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Navy", Color: "#000080"})
				return err
			}},
			{"term renamed", func() error {
				navy.Name, navy.Color = "Dark navy", "#000080"
				return db.UpdateTerm(ctx, navy)
			}},
			{"swatch type", func() error {
				_, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color", Type: catalog.SwatchColor})
				return err
			}},
			{"filter setting", func() error { return admin.SetAttributeFilter(ctx, color.ID, ptrTo(false), ptrTo("and")) }},
		} {
			before := kept()
			if err := w.write(); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			after := kept()
			if fmt.Sprintf("%+v", after) == fmt.Sprintf("%+v", before) {
				t.Fatalf("%s: the kept attributes did not change: %+v", w.name, after)
			}
			if got, want := fmt.Sprintf("%+v", after), fresh(); got != want {
				t.Fatalf("%s: kept %s\nread %s", w.name, got, want)
			}
		}
		// An import naming a term as it is changes nothing and keeps
		// the list (no taxonomy change recorded).
		before := kept()
		if _, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Teal", Color: "#008080"}); err != nil {
			t.Fatal(err)
		}
		if after := kept(); &after[0] != &before[0] {
			t.Fatal("an unchanged term dropped the kept attributes")
		}
	})
}

// TestNamesBytewiseAgreesWithTheDatabase: where the store says it sorts
// names byte by byte (so the facet index orders listings itself), its
// ORDER BY sorts names as Go compares strings, case, accents and other
// scripts included. SQLite always does.
func TestNamesBytewiseAgreesWithTheDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		bytewise, err := db.NamesBytewiseForTest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if db.Engine == sqlcore.SQLite && !bytewise {
			t.Fatal("SQLite's BINARY collation not taken as byte order")
		}
		if !bytewise {
			t.Skipf("%s: the database's collation does not sort byte by byte; listings are ordered in SQL", db.Engine)
		}
		names := []string{"b", "B", "a", "Z", "é", "e", "É", "ß", "ss", "日本", "Ω", "a b", "a-b", "ab", "10", "9", ""}
		values := make([]string, len(names))
		args := make([]any, len(names))
		for i, n := range names {
			values[i], args[i] = "(?)", n
		}
		var got []string
		if err := db.Read.SelectContext(ctx, &got, db.Read.Rebind(`SELECT column1 FROM (VALUES `+strings.Join(values, ", ")+`) v ORDER BY column1`), args...); err != nil {
			t.Fatal(err)
		}
		want := slices.Sorted(slices.Values(names))
		if !slices.Equal(got, want) {
			t.Fatalf("ORDER BY name %q, byte order %q", got, want)
		}
	})
}
