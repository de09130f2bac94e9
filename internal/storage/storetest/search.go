package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
)

// SearchCatalogue saves n generated products for search tests, the same
// for a seed on every run and engine: names of an adjective, a material
// and a noun (some numbered), SKUs by noun, a category and subcategory by
// noun, a tag, a colour term on some, a short description naming the
// product and a description of phrases; a few drafts, hidden and
// search-only products; stock and sales varied. Its words are those of
// SearchQueries.
func SearchCatalogue(t testing.TB, db *sqlstore.DB, n int, seed uint64) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	adjectives := []string{"Classic", "Everyday", "Relaxed", "Vintage", "Crème", "Nordic", "Fjäll", "Söndag", "Organic", "Heavy"}
	materials := []string{"Cotton", "Linen", "Merino", "Cashmere", "Denim", "Corduroy", "Suède", "Wool"}
	nouns := [][2]string{{"Tee", "Clothing/T-shirts"}, {"Hoodie", "Clothing/Hoodies"}, {"Sweatshirt", "Clothing/Hoodies"},
		{"Shirt", "Clothing/Shirts"}, {"Sweater", "Clothing/Knitwear"}, {"Cardigan", "Clothing/Knitwear"}, {"Jacket", "Clothing/Outerwear"},
		{"Scarf", "Accessories/Scarves"}, {"Beanie", "Accessories/Hats"}, {"Cap", "Accessories/Hats"}, {"Wallet", "Accessories/Bags"},
		{"Socks", "Accessories/Socks"}, {"Mug", "Home/Kitchen"}}
	tags := []string{"Bestseller", "Organic cotton", "Gift idea", "Made in Portugal", "Écologique"}
	phrases := []string{"soft and durable", "washed for a lived-in feel", "finished by hand", "with reinforced seams",
		"garment-dyed for depth of colour", "knitted on vintage machines"}
	colour, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color", Slug: "color", Type: catalog.SwatchColor})
	if err != nil {
		t.Fatal(err)
	}
	var terms []catalog.AttrTerm
	for i, c := range []string{"Navy", "Ecru", "Forest", "Charcoal"} {
		term, err := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: colour.ID, Name: c, MenuOrder: i + 1})
		if err != nil {
			t.Fatal(err)
		}
		terms = append(terms, term)
	}
	cats := map[string]int64{}
	for _, nn := range nouns {
		if _, ok := cats[nn[1]]; !ok {
			id, _, err := db.EnsureCategoryPath(ctx, strings.Split(nn[1], "/"))
			if err != nil {
				t.Fatal(err)
			}
			cats[nn[1]] = id
		}
	}
	tagIDs := make([]int64, len(tags))
	for i, tg := range tags {
		if tagIDs[i], err = db.EnsureTag(ctx, tg); err != nil {
			t.Fatal(err)
		}
	}
	var items []sqlstore.ProductSave
	for i := 1; i <= n; i++ {
		noun := nouns[rng.IntN(len(nouns))]
		name := adjectives[rng.IntN(len(adjectives))] + " " + materials[rng.IntN(len(materials))] + " " + noun[0]
		if rng.IntN(4) == 0 {
			name += " No. " + strconv.Itoa(1+rng.IntN(99))
		}
		sku := strings.ToUpper(noun[0])
		price := int64(500 + 100*rng.IntN(300))
		p := &catalog.Product{Type: catalog.TypeSimple, Name: name, SKU: fmt.Sprintf("%s-%06d", sku[:min(3, len(sku))], i),
			ShortDescription: "<p>" + name + " is " + phrases[rng.IntN(len(phrases))] + ".</p>",
			Description:      "<p>It is " + phrases[rng.IntN(len(phrases))] + " and " + phrases[rng.IntN(len(phrases))] + ".</p>",
			RegularPrice:     &price, Purchasable: true, MenuOrder: rng.IntN(5), TotalSales: int64(rng.IntN(20)),
			Categories: []catalog.Term{{ID: cats[noun[1]]}}, Tags: []catalog.Term{{ID: tagIDs[rng.IntN(len(tagIDs))]}}}
		if rng.IntN(6) == 0 {
			p.StockStatus = catalog.StockOutOfStock
		}
		if rng.IntN(3) == 0 {
			term := terms[rng.IntN(len(terms))]
			p.Attributes = []catalog.ProductAttribute{{AttributeID: colour.ID, Name: "Color", Taxonomy: colour.Taxonomy(), Visible: true,
				Values: []catalog.AttributeValue{{TermID: term.ID, Name: term.Name, Slug: term.Slug}}}}
		}
		switch rng.IntN(40) {
		case 0:
			p.Status = catalog.StatusDraft
		case 1:
			p.CatalogVisibility = catalog.VisibilityHidden
		case 2:
			p.CatalogVisibility = catalog.VisibilitySearch
		case 3:
			p.CatalogVisibility = catalog.VisibilityCatalog
		}
		items = append(items, sqlstore.ProductSave{Product: p})
		if len(items) == 200 || i == n {
			if err := db.SaveProducts(ctx, items); err != nil {
				t.Fatal(err)
			}
			items = items[:0]
		}
	}
	if err := db.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
}

// SearchQueries are the searches a search test asks of SearchCatalogue:
// prefixes of one to nine letters, whole words common and rare, words of
// several fields (colour, category, tag, description), diacritics, SKUs
// whole and in part, typos and plurals, synonyms, several words and a miss.
var SearchQueries = []string{
	"c", "co", "hoo", "tee", "lin", "sca", "cap", "soc", "mug", "cardiga", "sweatshir",
	"cotton", "soft", "wash", "creme", "crème", "fjall", "sondag", "navy", "knitwear", "portugal", "ecologique", "hand",
	"linen shirt", "merino sw", "classic cotton t", "everyday hoodie", "organic cotton", "no 7",
	"TEE-000123", "tee-000123", "hoo-0001", "HOO-000042",
	"hoodei", "cardigon", "swaetshirt", "merno sweatr", "jakcet", "linen shirts", "cashmire beanies", "beanies", "cotons",
	"jumper", "t shirt", "zzzz", "!!",
}

// SearchSynonyms are the synonym groups search tests give their queries.
func SearchSynonyms() catalog.Synonyms {
	return catalog.ParseSynonyms([][]string{{"jumper", "sweater"}, {"t shirt", "tee"}, {"toque", "beanie"}})
}

// SearchAnswers is every SearchQueries search's full result (ids in
// relevance order, then the total) as the shop's search asks it, with the
// default candidates, live search's 200 and a few (so that a common word's
// candidates are cut), in the whole shop and in category (0: none): one line per
// search, for comparing two stores or two versions of one.
func SearchAnswers(t testing.TB, db *sqlstore.DB, category int64) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	in := [][]int64{nil}
	if category != 0 {
		in = append(in, []int64{category})
	}
	for _, q := range SearchQueries {
		for _, limit := range []int{0, 200, 25} {
			for _, cats := range in {
				ps, total, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: q, Visibility: "search", OrderBy: "relevance",
					PerPage: 60, SearchCandidates: limit, CategoryIDs: cats, Descendants: true, Synonyms: SearchSynonyms()})
				if err != nil {
					t.Fatalf("search %q: %v", q, err)
				}
				ids := make([]string, len(ps))
				for i, p := range ps {
					ids[i] = strconv.FormatInt(p.ID, 10)
				}
				out = append(out, fmt.Sprintf("%q candidates %d in %v: total %d: %s", q, limit, cats, total, strings.Join(ids, " ")))
			}
		}
	}
	return slices.Clip(out)
}
