package sqlstore_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// relevanceFloor is the lowest mean precision at 5 the relevance set may
// score, on either engine: set just under the measured score (see
// docs/benchmarks.md), so a change that makes search less relevant fails.
const relevanceFloor = 0.95

// relevanceCatalogue saves every adjective × material × noun as a product
// ("Classic Cotton Hoodie"), its description naming another noun (a body
// match that must rank below name matches), some sold out, sales varied:
// the same 360 products on every run.
func relevanceCatalogue(t testing.TB, db *sqlstore.DB) {
	t.Helper()
	ctx := context.Background()
	adj := []string{"Classic", "Everyday", "Relaxed", "Vintage", "Crème", "Nordic"}
	mat := []string{"Cotton", "Linen", "Merino", "Cashmere", "Denim", "Corduroy"}
	noun := []string{"Hoodie", "Sweatshirt", "Cardigan", "Overshirt", "Jacket", "Trousers", "Beanie", "Scarf", "Backpack", "Blanket"}
	var ps []sqlstore.ProductSave
	i := 0
	for _, a := range adj {
		for _, m := range mat {
			for k, n := range noun {
				p := &catalog.Product{Type: catalog.TypeSimple, Name: a + " " + m + " " + n, SKU: fmt.Sprintf("R-%03d", i),
					RegularPrice: i64(int64(1000 + i)), Description: "Pairs well with our " + strings.ToLower(noun[(k+3)%len(noun)]) + "."}
				if i%7 == 0 {
					p.StockStatus = catalog.StockOutOfStock
				}
				ps = append(ps, sqlstore.ProductSave{Product: p})
				i++
			}
		}
	}
	if err := db.SaveProducts(ctx, ps); err != nil {
		t.Fatal(err)
	}
}

type relevanceCase struct{ query, intended, kind string }

func relevanceSet(t testing.TB) []relevanceCase {
	f, err := os.Open("testdata/search_relevance.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []relevanceCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			c := strings.Split(l, "\t")
			out = append(out, relevanceCase{c[0], c[1], c[2]})
		}
	}
	return out
}

// Precision at 5 over the relevance set: a result is relevant when its
// folded name holds every intended word; a query with fewer than five
// relevant products is scored on as many.
func TestSearchRelevance(t *testing.T) {
	cases := relevanceSet(t)
	if len(cases) < 100 {
		t.Fatalf("relevance set has %d queries, want at least 100", len(cases))
	}
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		relevanceCatalogue(t, db)
		ctx := context.Background()
		all, _, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 1000, Visibility: "search"})
		if err != nil {
			t.Fatal(err)
		}
		relevant := func(name, intended string) bool {
			words := " " + catalog.FoldSearch(name) + " "
			for _, w := range strings.Fields(intended) {
				if !strings.Contains(words, " "+w+" ") {
					return false
				}
			}
			return true
		}
		var sum float64
		byKind := map[string][2]float64{}
		for _, c := range cases {
			want := 0
			for _, p := range all {
				if relevant(p.Name, c.intended) {
					want++
				}
			}
			if want == 0 {
				t.Fatalf("%q: no product is relevant to %q", c.query, c.intended)
			}
			ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: c.query, Visibility: "search", OrderBy: "relevance", PerPage: 5, NoCount: true})
			if err != nil {
				t.Fatal(err)
			}
			hit := 0
			for _, p := range ps {
				if relevant(p.Name, c.intended) {
					hit++
				}
			}
			prec := float64(hit) / float64(min(5, want))
			if prec < 1 {
				t.Logf("%q (%s): precision %.2f, top %q", c.query, c.kind, prec, names(ps))
			}
			sum += prec
			k := byKind[c.kind]
			byKind[c.kind] = [2]float64{k[0] + prec, k[1] + 1}
		}
		score := sum / float64(len(cases))
		for k, v := range byKind {
			t.Logf("%s: %.3f over %d queries", k, v[0]/v[1], int(v[1]))
		}
		t.Logf("precision at 5: %.3f over %d queries", score, len(cases))
		if score < relevanceFloor {
			t.Errorf("precision at 5 = %.3f, below the floor %.2f", score, relevanceFloor)
		}
	})
}

// BenchmarkSearchTolerant runs the relevance set's queries (typos,
// plurals, prefixes) as live search asks them, on each engine.
func BenchmarkSearchTolerant(b *testing.B) {
	cases := relevanceSet(b)
	for _, e := range storetest.Engines(b) {
		b.Run(strings.ToLower(e), func(b *testing.B) {
			db := storetest.OpenDSN(b, storetest.DSN(b, e))
			relevanceCatalogue(b, db)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				c := cases[i%len(cases)]
				if _, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: c.query, Visibility: "search", OrderBy: "relevance",
					PerPage: catalog.SearchSuggestLimit, SearchCandidates: 200, NoCount: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
