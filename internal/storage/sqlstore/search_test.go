package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// searchFixture adds to fixture (Classic Tee with variations TEE-RED-S…,
// tag Organic, in Clothing > Tees; Mug; a draft) products that tell the
// search rules apart.
func searchFixture(t *testing.T, db *sqlstore.DB) (hoodie *catalog.Product, clothing, tees int64) {
	t.Helper()
	ctx := context.Background()
	fixture(t, db)
	clothing, _, _ = db.EnsureCategoryPath(ctx, []string{"Clothing"})
	tees, _, _ = db.EnsureCategoryPath(ctx, []string{"Clothing", "Tees"})
	hoodie = &catalog.Product{Type: catalog.TypeSimple, Name: "Everyday Hoodie", SKU: "HD-001", RegularPrice: i64(5000), Purchasable: true,
		Description: "<p>Brushed <strong>fleece</strong>, 100&nbsp;% cotton.</p>", MenuOrder: 5, Categories: []catalog.Term{{ID: clothing}}}
	for _, p := range []*catalog.Product{
		hoodie,
		// Description-only match for "hoodie", ordered before the hoodie in the shop.
		{Type: catalog.TypeSimple, Name: "Market Tote", SKU: "TOTE", RegularPrice: i64(900), ShortDescription: "Fits a rolled hoodie.", MenuOrder: 1},
		{Type: catalog.TypeSimple, Name: "Crème Brûlée Dish", SKU: "DISH-7", RegularPrice: i64(1200), MenuOrder: 3},
		{Type: catalog.TypeSimple, Name: "Draft Hoodie", Status: catalog.StatusDraft, RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Hidden Hoodie", CatalogVisibility: catalog.VisibilityHidden, RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Shop-only Hoodie", CatalogVisibility: catalog.VisibilityCatalog, RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Search-only Hoodie", CatalogVisibility: catalog.VisibilitySearch, RegularPrice: i64(100), MenuOrder: 9},
	} {
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatalf("save %s: %v", p.Name, err)
		}
	}
	return hoodie, clothing, tees
}

func search(t *testing.T, db *sqlstore.DB, q catalog.ProductQuery) ([]string, int) {
	t.Helper()
	if q.PerPage == 0 {
		q.PerPage = 20
	}
	if q.Visibility == "" {
		q.Visibility = "search"
	}
	ps, total, err := db.QueryProducts(context.Background(), q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Search, err)
	}
	return names(ps), total
}

func TestSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		_, clothing, tees := searchFixture(t, db)
		for _, tc := range []struct {
			name   string
			search string
			want   []string
		}{
			{"name", "classic", []string{"Classic Tee"}},
			{"name, case", "CLASSIC TEE", []string{"Classic Tee"}},
			{"parent sku", "TEE", []string{"Classic Tee"}},
			{"variation sku", "TEE-RED-S", []string{"Classic Tee"}},
			{"variation sku without separators", "teereds", []string{"Classic Tee"}},
			{"sku prefix", "hd-0", []string{"Everyday Hoodie"}},
			{"description word", "fleece", []string{"Everyday Hoodie"}},
			{"description word in html", "100", []string{"Everyday Hoodie"}},
			{"attribute values ranked before descriptions", "cotton", []string{"Classic Tee", "Everyday Hoodie"}},
			{"category name", "tees", []string{"Classic Tee"}},
			{"tag name", "organic", []string{"Classic Tee"}},
			{"prefix of the last word", "hoo", []string{"Everyday Hoodie", "Search-only Hoodie", "Market Tote"}},
			{"prefix after a full word", "classic te", []string{"Classic Tee"}},
			{"earlier words are whole words", "clas tee", []string{}},
			{"diacritics folded in the query", "creme", []string{"Crème Brûlée Dish"}},
			{"diacritics typed", "BRÛLÉE", []string{"Crème Brûlée Dish"}},
			{"names ranked before descriptions", "hoodie", []string{"Everyday Hoodie", "Search-only Hoodie", "Market Tote"}},
			{"no match", "zebra", []string{}},
		} {
			got, total := search(t, db, catalog.ProductQuery{Search: tc.search})
			if diff := cmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
				t.Errorf("%s (%q): total %d; (-want +got):\n%s", tc.name, tc.search, total, diff)
			}
		}
		// Category filter, with descendants.
		if got, _ := search(t, db, catalog.ProductQuery{Search: "hoodie", CategoryIDs: []int64{clothing}, Descendants: true}); !cmp.Equal(got, []string{"Everyday Hoodie"}) {
			t.Errorf("in clothing: %q", got)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "tee", CategoryIDs: []int64{clothing}, Descendants: true}); !cmp.Equal(got, []string{"Classic Tee"}) {
			t.Errorf("tee in clothing and below: %q", got)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "hoodie", CategoryIDs: []int64{tees}, Descendants: true}); len(got) != 0 {
			t.Errorf("hoodie in tees: %q", got)
		}
		// Another order and paging over the matches.
		if got, total := search(t, db, catalog.ProductQuery{Search: "hoodie", OrderBy: "price", Order: "asc", PerPage: 2, Page: 2}); !cmp.Equal(got, []string{"Everyday Hoodie"}) || total != 3 {
			t.Errorf("by price, page 2: %q total %d", got, total)
		}
		// The Store API's default visibility ("listable") also finds
		// shop-only products, as WooCommerce's search does; never hidden
		// ones or drafts.
		if got, _ := search(t, db, catalog.ProductQuery{Search: "hoodie", Visibility: "listable"}); !cmp.Equal(got, []string{"Shop-only Hoodie", "Everyday Hoodie", "Search-only Hoodie", "Market Tote"}) {
			t.Errorf("listable search: %q", got)
		}
	})
}

// A match ranks by the field it is in: the name, the SKU, a category, an
// attribute value, the short description, the description. Renaming a
// category, a tag or an attribute term moves its products in search.
func TestSearchRanksByField(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		cat, _, _ := db.EnsureCategoryPath(ctx, []string{"Zephyr Line"})
		plain, _, _ := db.EnsureCategoryPath(ctx, []string{"Basics"})
		fabric, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Fabric", Slug: "fabric"})
		if err != nil {
			t.Fatal(err)
		}
		term, _ := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: fabric.ID, Name: "Zephyr Knit"})
		tag, _ := db.EnsureTag(ctx, "Zephyr Pick")
		// Saved in the reverse of the expected order, so the index's own
		// order (oldest first) cannot pass for the ranking.
		for _, p := range []*catalog.Product{
			{Name: "Plain Belt", Description: "<p>From the zephyr range.</p>", Categories: []catalog.Term{{ID: plain}}},
			{Name: "Plain Socks", ShortDescription: "Zephyr soft.", Categories: []catalog.Term{{ID: plain}}},
			{Name: "Plain Scarf", Categories: []catalog.Term{{ID: plain}}, Attributes: []catalog.ProductAttribute{
				{AttributeID: fabric.ID, Name: "Fabric", Visible: true, Values: []catalog.AttributeValue{{TermID: term.ID}}}}},
			{Name: "Plain Cap", Categories: []catalog.Term{{ID: cat}}},
			{Name: "Plain Hat", SKU: "ZEPHYR-9", Categories: []catalog.Term{{ID: plain}}},
			{Name: "Plain Glove", Tags: []catalog.Term{{ID: tag}}, Categories: []catalog.Term{{ID: plain}}},
			{Name: "Zephyr Jacket", Categories: []catalog.Term{{ID: plain}}},
		} {
			p.Type, p.RegularPrice, p.Purchasable = catalog.TypeSimple, i64(1000), true
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		want := []string{"Zephyr Jacket", "Plain Hat", "Plain Cap", "Plain Scarf", "Plain Socks", "Plain Glove", "Plain Belt"}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "zephyr"}); !cmp.Equal(got[:2], want[:2]) || !cmp.Equal(got[2:5], want[2:5]) ||
			!cmp.Equal(cmpSorted(got[5:]), cmpSorted(want[5:])) {
			t.Errorf("ranked %q, want %q (the last two, both elsewhere, in either order)", got, want)
		}
		if err := db.SaveCategory(ctx, &catalog.Category{ID: cat, Name: "Breeze Line", Slug: "zephyr-line"}); err != nil {
			t.Fatal(err)
		}
		if err := db.UpdateTerm(ctx, catalog.AttrTerm{ID: term.ID, AttributeID: fabric.ID, Name: "Breeze Knit"}); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveTag(ctx, &catalog.Tag{ID: tag, Name: "Breeze Pick", Slug: "zephyr-pick"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "zephyr"}); !cmp.Equal(got, []string{"Zephyr Jacket", "Plain Hat", "Plain Socks", "Plain Belt"}) {
			t.Errorf("after the renames, zephyr finds %q", got)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "breeze"}); !cmp.Equal(got, []string{"Plain Cap", "Plain Scarf", "Plain Glove"}) {
			t.Errorf("after the renames, breeze finds %q", got)
		}
		if err := db.DeleteCategory(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "breeze"}); !cmp.Equal(got, []string{"Plain Scarf", "Plain Glove"}) {
			t.Errorf("after the category's deletion, breeze finds %q", got)
		}
	})
}

func cmpSorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestSearchIndexFollowsWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		hoodie, _, _ := searchFixture(t, db)
		last, _ := db.LastChange(ctx)
		hoodie.Name = "Cosy Sweater"
		hoodie.Description = "Warm."
		if _, err := db.SaveProduct(ctx, hoodie, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "everyday"}); len(got) != 0 {
			t.Errorf("old name still found: %q", got)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "cosy swe"}); !cmp.Equal(got, []string{"Cosy Sweater"}) {
			t.Errorf("new name: %q", got)
		}
		// A change of the searched text lets cached search results go.
		changes, _ := db.ChangesSince(ctx, last, 10)
		if len(changes) != 1 || changes[0].Kind != "product_listed" {
			t.Errorf("changes = %+v", changes)
		}
		// Hidden: gone from search; visible again: back.
		hoodie.CatalogVisibility = catalog.VisibilityHidden
		if _, err := db.SaveProduct(ctx, hoodie, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "sweater"}); len(got) != 0 {
			t.Errorf("hidden product found: %q", got)
		}
		hoodie.CatalogVisibility = catalog.VisibilityVisible
		if _, err := db.SaveProduct(ctx, hoodie, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "sweater"}); len(got) != 1 {
			t.Errorf("visible again, not found: %q", got)
		}
		// A failed save leaves the index as it was (same transaction).
		hoodie.Name = "Broken Name"
		hoodie.SKU = "TOTE" // taken: the save fails
		if _, err := db.SaveProduct(ctx, hoodie, nil); err == nil {
			t.Fatal("duplicate SKU accepted")
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "broken"}); len(got) != 0 {
			t.Errorf("failed save indexed: %q", got)
		}
		// A new variation's SKU finds its parent.
		tee, err := db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		v := &catalog.Product{SKU: "TEE-GREEN-XL", RegularPrice: i64(2500), Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "green"}, {Name: "pa_size", Value: "xl"}}, Purchasable: true, Active: true, Visible: true}
		if _, err := db.SaveProduct(ctx, tee, []*catalog.Product{v}); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "tee-green"}); !cmp.Equal(got, []string{"Classic Tee"}) {
			t.Errorf("new variation sku: %q", got)
		}
		// Rebuilding gives the same answers.
		if n, err := db.ReindexSearch(ctx); err != nil || n < 8 {
			t.Fatalf("ReindexSearch: %d %v", n, err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "hoodie"}); !cmp.Equal(got, []string{"Search-only Hoodie", "Market Tote"}) {
			t.Errorf("after reindex: %q", got)
		}
	})
}

func TestSearchOddInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		searchFixture(t, db)
		for _, s := range []string{`"`, `""`, `*`, `-`, `-tee`, `tee -mug`, `OR`, `tee OR mug`, `AND`, `NOT`, `NEAR(`, `NEAR(tee mug)`, `name:tee`, `{name}: tee`,
			`'`, `tee's`, `%`, `_`, `\`, `:*`, `!`, `&|`, `(`, `)`, `^tee`, "🔥", "tee 🔥", "\x00", "日本語", "кофе",
			strings.Repeat("x", 10000), strings.Repeat("ab ", 3400), strings.Repeat("é", 5000)} {
			if _, _, err := db.QueryProducts(context.Background(), catalog.ProductQuery{Search: s, PerPage: 10, Visibility: "search"}); err != nil {
				t.Errorf("search %.40q: %v", s, err)
			}
		}
		// Operators are words, not syntax.
		if got, _ := search(t, db, catalog.ProductQuery{Search: `"classic" NEAR`}); len(got) != 0 {
			t.Errorf(`"classic" NEAR matched %q`, got)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: `-classic*`}); !cmp.Equal(got, []string{"Classic Tee"}) {
			t.Errorf(`-classic* = %q`, got)
		}
	})
}

func TestSaveProducts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		items := []sqlstore.ProductSave{
			{Product: &catalog.Product{Type: catalog.TypeSimple, Name: "Alpha Lamp", SKU: "L-1", RegularPrice: i64(100)}},
			{Product: &catalog.Product{Type: catalog.TypeVariable, Name: "Beta Shirt", SKU: "S-1"},
				Variations: []*catalog.Product{{SKU: "S-1-M", RegularPrice: i64(300), Variation: []catalog.VariationAttr{{Name: "size", Value: "M"}}}}},
		}
		if err := db.SaveProducts(ctx, items); err != nil {
			t.Fatal(err)
		}
		if got, _ := search(t, db, catalog.ProductQuery{Search: "s-1-m"}); !cmp.Equal(got, []string{"Beta Shirt"}) {
			t.Errorf("bulk-saved variation sku: %q", got)
		}
		// One bad product: none of the batch is saved.
		bad := []sqlstore.ProductSave{
			{Product: &catalog.Product{Type: catalog.TypeSimple, Name: "Gamma", SKU: "G-1"}},
			{Product: &catalog.Product{Type: catalog.TypeVariable, Name: "Delta"},
				Variations: []*catalog.Product{{SKU: "L-1", Variation: []catalog.VariationAttr{{Name: "size", Value: "M"}}}}},
		}
		if err := db.SaveProducts(ctx, bad); err == nil {
			t.Fatal("a variation SKU of another product accepted")
		}
		if n, _ := db.CountProducts(ctx); n != 3 {
			t.Errorf("%d products after a failed batch, want 3", n)
		}
	})
}

// The last word is a prefix at every length, on both engines: PostgreSQL
// looks up prefixes of up to eight ASCII letters and digits as lexemes of
// their own (migration 00004) and longer or non-ASCII ones with :*.
func TestSearchPrefixLengths(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		for _, p := range []*catalog.Product{
			{Type: catalog.TypeSimple, Name: "Sweatshirtdress 3000", SKU: "SWD-42", RegularPrice: i64(100), ShortDescription: "Κόκκινο πουλόβερ"},
			{Type: catalog.TypeSimple, Name: "Swan Lamp", RegularPrice: i64(100), Description: "Sweater weather."},
			{Type: catalog.TypeSimple, Name: "Ab", RegularPrice: i64(100)},
		} {
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		for q, want := range map[string][]string{
			"s":                 {"Swan Lamp", "Sweatshirtdress 3000"},
			"sw":                {"Swan Lamp", "Sweatshirtdress 3000"},
			"swe":               {"Sweatshirtdress 3000", "Swan Lamp"}, // name match first
			"swea":              {"Sweatshirtdress 3000", "Swan Lamp"},
			"sweat":             {"Sweatshirtdress 3000", "Swan Lamp"},
			"sweats":            {"Sweatshirtdress 3000"},
			"sweatshi":          {"Sweatshirtdress 3000"}, // eight letters: the longest prefix lexeme
			"sweatshir":         {"Sweatshirtdress 3000"}, // nine: :*
			"sweatshirtdress":   {"Sweatshirtdress 3000"},
			"sweatshirtdresses": {"Sweatshirtdress 3000"}, // its plural
			"sweatshirtdrass":   {"Sweatshirtdress 3000"}, // a typo
			"swaetshirtdrass":   {"Sweatshirtdress 3000"}, // two: from 9 letters
			"swaetshirtdrasz":   nil,                      // three
			"ab":                {"Ab"},
			"abc":               nil,
			"300":               {"Sweatshirtdress 3000"},
			"swd 4":             {"Sweatshirtdress 3000"},
			"swd4":              {"Sweatshirtdress 3000"},
			"lamp sw":           {"Swan Lamp"},
			"lamp swe":          {"Swan Lamp"},            // "sweater" in its description
			"κοκ":               {"Sweatshirtdress 3000"}, // not ASCII: :*
			"πουλοβερ":          {"Sweatshirtdress 3000"},
		} {
			got, total := search(t, db, catalog.ProductQuery{Search: q, OrderBy: "relevance"})
			if !cmp.Equal(got, want, cmpopts.EquateEmpty()) || total != len(want) {
				t.Errorf("search %q = %q (%d), want %q", q, got, total, want)
			}
		}
	})
}
