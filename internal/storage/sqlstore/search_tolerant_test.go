package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// tolerantFixture saves products whose words tell the matching rules
// apart: a 4-letter word (tote), 5 (parka), 8 (cardigan), 9 (overshirt).
func tolerantFixture(t *testing.T, db *sqlstore.DB) map[string]*catalog.Product {
	t.Helper()
	ctx := context.Background()
	out := map[string]*catalog.Product{}
	for _, p := range []*catalog.Product{
		{Type: catalog.TypeSimple, Name: "Tote Bag", SKU: "TB-1", RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Parka Jacket", SKU: "PJ-1", RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Merino Cardigan", SKU: "MC-1", RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Linen Overshirt", SKU: "LO-1", RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Crème Brûlée Dish", SKU: "DISH-7", RegularPrice: i64(100)},
		{Type: catalog.TypeSimple, Name: "Striped T-Shirt", SKU: "TS-9", RegularPrice: i64(100)},
	} {
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatalf("save %s: %v", p.Name, err)
		}
		out[p.Name] = p
	}
	return out
}

func TestSearchForgives(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		tolerantFixture(t, db)
		for _, c := range []struct {
			q    string
			want []string
		}{
			// Typos: none under 5 letters, one from 5, two from 9.
			{"tite bag", nil},                          // 4 letters, one edit: no
			{"bag tite", nil},                          // nor as the last word
			{"porka", []string{"Parka Jacket"}},        // 5 letters, one edit
			{"porko", nil},                             // 5 letters, two edits
			{"cardigon", []string{"Merino Cardigan"}},  // 8 letters, one edit
			{"cordigon", nil},                          // 8 letters, two edits
			{"cardgian", []string{"Merino Cardigan"}},  // a swap is one edit
			{"overshurt", []string{"Linen Overshirt"}}, // 9 letters, one edit
			{"ovarshurt", []string{"Linen Overshirt"}}, // 9 letters, two edits
			{"ovarshurd", nil},                         // 9 letters, three edits
			{"merno cardigon", []string{"Merino Cardigan"}},
			// Prefixes as the shopper types.
			{"car", []string{"Merino Cardigan"}},
			{"linen overs", []string{"Linen Overshirt"}},
			// Plurals, both ways, in any position.
			{"jackets", []string{"Parka Jacket"}},
			{"bags tote", []string{"Tote Bag"}},
			{"dishes", []string{"Crème Brûlée Dish"}},
			// Accents folded, in the query and the products.
			{"creme brulee", []string{"Crème Brûlée Dish"}},
			{"CRÈME", []string{"Crème Brûlée Dish"}},
			// SKUs exactly, never corrected.
			{"PJ-1", []string{"Parka Jacket"}},
			{"pj-1", []string{"Parka Jacket"}},
			{"PJ-2", nil},
		} {
			got, total := search(t, db, catalog.ProductQuery{Search: c.q, OrderBy: "relevance"})
			if !cmp.Equal(got, c.want, cmpopts.EquateEmpty()) || total != len(c.want) {
				t.Errorf("search %q = %q (%d), want %q", c.q, got, total, c.want)
			}
		}
	})
}

// Ranking: the exact name, then name words, then words elsewhere; in
// stock before out of stock; best-sellers first.
func TestSearchRanking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		ids := map[string]int64{}
		for _, p := range []*catalog.Product{
			{Type: catalog.TypeSimple, Name: "Wool Scarf Set", RegularPrice: i64(100), MenuOrder: 1},
			{Type: catalog.TypeSimple, Name: "Blanket", RegularPrice: i64(100), Description: "Warm as a wool scarf.", MenuOrder: 0},
			{Type: catalog.TypeSimple, Name: "Wool Scarf", RegularPrice: i64(100), MenuOrder: 9},
			{Type: catalog.TypeSimple, Name: "Scarf of Wool", RegularPrice: i64(100), MenuOrder: 2},
			{Type: catalog.TypeSimple, Name: "Wool Scarf, Sold Out", RegularPrice: i64(100), StockStatus: catalog.StockOutOfStock, MenuOrder: 0},
		} {
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
			ids[p.Name] = p.ID
		}
		if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE products SET total_sales = 50 WHERE id = ?`), ids["Scarf of Wool"]); err != nil {
			t.Fatal(err)
		}
		got, _ := search(t, db, catalog.ProductQuery{Search: "wool scarf", OrderBy: "relevance"})
		want := []string{"Wool Scarf", "Scarf of Wool", "Wool Scarf Set", "Wool Scarf, Sold Out", "Blanket"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ranking (-want +got):\n%s", diff)
		}
		// Relevance is also the default order of a search.
		if got, _ := search(t, db, catalog.ProductQuery{Search: "wool scarf"}); !cmp.Equal(got, want) {
			t.Errorf("default order = %q", got)
		}
	})
}

func TestSearchSynonyms(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		tolerantFixture(t, db)
		if _, err := db.SaveProduct(context.Background(), &catalog.Product{Type: catalog.TypeSimple, Name: "Classic Tee", RegularPrice: i64(100)}, nil); err != nil {
			t.Fatal(err)
		}
		syn := catalog.ParseSynonyms([][]string{{"tee", "T-shirt"}, {"coat", "parka", "jacket"}})
		for q, want := range map[string][]string{
			"tee":          {"Classic Tee", "Striped T-Shirt"},
			"t-shirt":      {"Classic Tee", "Striped T-Shirt"}, // both name matches: the shop's order
			"striped tee":  {"Striped T-Shirt"},
			"coat":         {"Parka Jacket"},
			"coats":        nil, // a synonym is a word, not a stem of the query
			"classic tees": {"Classic Tee"},
		} {
			got, total := search(t, db, catalog.ProductQuery{Search: q, Synonyms: syn, OrderBy: "relevance"})
			if !cmp.Equal(got, want, cmpopts.EquateEmpty()) || total != len(want) {
				t.Errorf("search %q = %q (%d), want %q", q, got, total, want)
			}
		}
		// Without the synonyms, "tee" is only the tee.
		if got, _ := search(t, db, catalog.ProductQuery{Search: "tee"}); !cmp.Equal(got, []string{"Classic Tee"}) {
			t.Errorf("no synonyms: %q", got)
		}
	})
}

// "Did you mean" offers what one edit more than the search allows
// finds, and only when the corrected query finds products.
func TestSearchDidYouMean(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		tolerantFixture(t, db)
		ctx := context.Background()
		svc := &catalog.SearchService{Store: db}
		for q, want := range map[string]string{
			"porko":           "parka",           // two edits in 5 letters: not searched, suggested
			"tite bag":        "tote bag",        // one in 4
			"merino cordigon": "merino cardigan", // two in 8
			"parka zzzzzzz":   "",                // nothing near the second word
			"merino parka":    "",                // every word known: nothing to correct
		} {
			if got, _ := search(t, db, catalog.ProductQuery{Search: q}); len(got) != 0 {
				t.Fatalf("%q finds %q", q, got)
			}
			got, err := svc.NoResults(ctx, q, "search")
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("did you mean %q = %q, want %q", q, got, want)
			}
		}
		misses, err := db.TopSearchMisses(ctx, 10)
		if err != nil || len(misses) != 5 {
			t.Errorf("misses counted: %+v, %v", misses, err)
		}
		// The plan's own corrections (within the search's limits).
		for q, want := range map[string]string{
			"merino cardigon": "merino cardigan",
			"Parka Jakcet":    "parka jacket",
			"parka":           "", // nothing to correct
			"zzzzz":           "", // nothing near
		} {
			plan, err := db.PlanSearch(ctx, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Corrected != want {
				t.Errorf("corrected %q = %q, want %q", q, plan.Corrected, want)
			}
		}
	})
}

func TestSearchMisses(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		at := storetest.NewClock(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC))
		for _, q := range []string{"Zebra Hat", "zebra  hat!", "ZÉBRA hat", "unicorn", "", "!!!"} {
			if err := db.RecordSearchMiss(ctx, q, at.Now()); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.TopSearchMisses(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Query != "zebra hat" || got[0].Count != 3 || got[1].Query != "unicorn" || got[1].Count != 1 {
			t.Fatalf("misses = %+v", got)
		}
		// Bounded: the least asked make room.
		for i := range catalog.SearchMissesMax {
			if err := db.RecordSearchMiss(ctx, fmt.Sprintf("miss %d", i), at.Now()); err != nil {
				t.Fatal(err)
			}
		}
		all, err := db.TopSearchMisses(ctx, 2*catalog.SearchMissesMax)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != catalog.SearchMissesMax || all[0].Query != "zebra hat" {
			t.Errorf("after %d more: %d rows, first %+v", catalog.SearchMissesMax, len(all), all[0])
		}
	})
}
