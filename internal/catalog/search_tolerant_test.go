package catalog

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTypoDistance(t *testing.T) {
	for w, want := range map[string]int{"tote": 0, "parka": 1, "cardigan": 1, "overshirt": 2, "pull0ver": 0, "crème": 1, "über": 0} {
		if got := TypoDistance(w); got != want {
			t.Errorf("TypoDistance(%q) = %d, want %d", w, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"parka", "parka", 0}, {"porka", "parka", 1}, {"prak", "park", 1}, {"parka", "park", 1},
		{"cardgian", "cardigan", 1}, {"", "abc", 3}, {"ovarshurt", "overshirt", 2}, {"čaj", "caj", 1},
	} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// The deletes of a query word meet a vocabulary word's exactly when the
// two are within the query's allowed distance.
func TestDeletesFindEveryNearWord(t *testing.T) {
	vocab := []string{"tote", "parka", "park", "cardigan", "overshirt", "oversized", "shirt", "merino"}
	stored := map[string][]string{}
	for _, w := range vocab {
		for _, d := range WordDeletes(w) {
			stored[d] = append(stored[d], w)
		}
	}
	for _, q := range []string{"porka", "parkas", "prka", "cardigon", "cardgian", "ovarshurt", "overshirts", "shrit", "merno", "tite"} {
		k := TypoDistance(q)
		found := map[string]bool{}
		for _, d := range Deletes(q, k) {
			for _, w := range stored[d] {
				found[w] = true
			}
		}
		for _, w := range vocab {
			near := EditDistance(q, w) <= k
			if near && !found[w] {
				t.Errorf("%q: %q (distance %d) not found", q, w, EditDistance(q, w))
			}
		}
	}
}

func TestWordForms(t *testing.T) {
	for w, want := range map[string][]string{
		"shirts": {"shirt"}, "shirt": {"shirts"}, "dresses": {"dress", "dresse"}, "dress": {"dresses"},
		"berries": {"berry"}, "berry": {"berries"}, "boxes": {"box", "boxe"}, "box": {"boxes"}, "bag": {"bags"},
		"xl": nil, "30s": nil,
	} {
		if got := WordForms("en", w); !cmp.Equal(got, want) {
			t.Errorf("WordForms(%q) = %q, want %q", w, got, want)
		}
	}
	if got := WordForms("fr", "chemises"); got != nil {
		t.Errorf("no forms outside English: %q", got)
	}
}

type fakeVocab []string

func (v fakeVocab) KnownWords(_ context.Context, ws []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, w := range ws {
		if slices.Contains(v, w) {
			out[w] = true
		}
	}
	return out, nil
}

func (v fakeVocab) HasPrefix(_ context.Context, p string) (bool, error) {
	return slices.ContainsFunc(v, func(w string) bool { return strings.HasPrefix(w, p) }), nil
}

func (v fakeVocab) WordsByDeletes(_ context.Context, dels []string) ([]string, error) {
	var out []string
	for _, w := range v {
		for _, d := range WordDeletes(w) {
			if slices.Contains(dels, d) {
				out = append(out, w)
				break
			}
		}
	}
	return out, nil
}

func TestPlanSearch(t *testing.T) {
	v := fakeVocab{"classic", "tee", "t", "shirt", "shirts", "linen", "cardigan"}
	syn := ParseSynonyms([][]string{{"tee", "t-shirt"}, {"", "x"}})
	plan, err := PlanSearch(context.Background(), v, "Linen shirts cardigon t-sh", syn)
	if err != nil {
		t.Fatal(err)
	}
	want := []SearchClause{
		{{{Word: "linen"}}},
		{{{Word: "shirts"}}, {{Word: "shirt"}}},
		{{{Word: "cardigon"}}, {{Word: "cardigan"}}},
		{{{Word: "t"}}},
		{{{Word: "sh", Prefix: true}}},
	}
	if diff := cmp.Diff(want, plan.Clauses); diff != "" {
		t.Errorf("clauses (-want +got):\n%s", diff)
	}
	if plan.Corrected != "linen shirts cardigan t sh" || plan.Name != "linen shirts cardigon t sh" {
		t.Errorf("corrected %q, name %q", plan.Corrected, plan.Name)
	}
	if len(syn) != 1 {
		t.Errorf("synonym groups of one term are dropped: %q", syn)
	}
	plan, _ = PlanSearch(context.Background(), v, "classic t-shirt", syn)
	want = []SearchClause{
		{{{Word: "classic"}}},
		{{{Word: "t"}, {Word: "shirt", Prefix: true}}, {{Word: "tee"}}},
	}
	if diff := cmp.Diff(want, plan.Clauses); diff != "" {
		t.Errorf("synonym clauses (-want +got):\n%s", diff)
	}
}
