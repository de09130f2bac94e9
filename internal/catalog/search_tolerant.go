package catalog

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Typo tolerance, plurals and synonyms: the rules that turn a query's
// words into a SearchPlan, the same on both engines. The stores look
// words up in their vocabulary (SearchVocabulary) and write the plan as
// their full-text match (decision 0104).

// TypoDistance is how many edits a query word may be from a product's
// word and still match it: none under 5 letters, one from 5, two from 9.
// Words with digits (SKUs, sizes, years) are never corrected.
func TypoDistance(word string) int {
	if hasDigit(word) {
		return 0
	}
	switch n := utf8.RuneCountInString(word); {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// storedDeletes is how many deletions the vocabulary keeps for a word: as
// many as a query word within the allowed edits of it can need (a word
// of 4 letters is one edit from a query of 5; one of 7, two from a query
// of 9; and "Did you mean" allows two edits from 5 letters).
func storedDeletes(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n >= 5:
		return 2
	case n >= 4:
		return 1
	}
	return 0
}

// maxVocabWord bounds the words kept in the vocabulary, in letters.
const maxVocabWord = 32

// VocabularyWords is the words of a search document the vocabulary keeps:
// name and body words of 2 to 32 letters without digits, each once.
func VocabularyWords(d SearchDoc) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(strings.Join([]string{d.Name, d.Cats, d.Attrs, d.Short, d.Body}, " ")) {
		n := utf8.RuneCountInString(w)
		if seen[w] || n < 2 || n > maxVocabWord || hasDigit(w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// WordDeletes is what the vocabulary stores for a word: the word itself
// and every string made by deleting up to as many characters as a typo
// may need (storedDeletes).
func WordDeletes(word string) []string { return Deletes(word, storedDeletes(word)) }

// Deletes is word and every distinct string made by deleting 1..k of its
// characters. A query word's deletes (k = its TypoDistance) meet a
// vocabulary word's (WordDeletes) exactly when the two are within k
// edits of each other (insertions, deletions, substitutions; checked
// again with EditDistance, which also counts a swap of two neighbours as
// one).
func Deletes(word string, k int) []string {
	out := []string{word}
	seen := map[string]bool{word: true}
	level := []string{word}
	for range k {
		var next []string
		for _, w := range level {
			r := []rune(w)
			if len(r) <= 1 {
				continue
			}
			for i := range r {
				d := string(r[:i]) + string(r[i+1:])
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
					next = append(next, d)
				}
			}
		}
		level = next
	}
	return out
}

// EditDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, one each.
func EditDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// WordForms is a word's other grammatical forms the search also looks
// for, in the shop's language (SearchLanguage): for English, singular and
// plural ("shirts" ↔ "shirt", "dresses" ↔ "dress", "berries" ↔ "berry").
// Only forms the vocabulary holds are used. Other languages have none yet.
func WordForms(lang, w string) []string {
	if lang != "en" || hasDigit(w) || utf8.RuneCountInString(w) < 3 {
		return nil
	}
	var out []string
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		out = append(out, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "ses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		out = append(out, w[:len(w)-2], w[:len(w)-1])
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		out = append(out, w+"es")
	case strings.HasSuffix(w, "s"):
		out = append(out, w[:len(w)-1])
	case strings.HasSuffix(w, "y") && len(w) > 3 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		out = append(out, w[:len(w)-1]+"ies")
	case strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		out = append(out, w+"es")
	default:
		out = append(out, w+"s")
	}
	return out
}

// SearchLanguage is the language whose word forms search knows: the
// shop's language, English until the shop can be set to another.
const SearchLanguage = "en"

// SearchTerm is one word to match; Prefix matches every word starting
// with it.
type SearchTerm struct {
	Word   string
	Prefix bool
}

// SearchAlt is one way to match part of a query: all its terms.
type SearchAlt []SearchTerm

// SearchClause is one part of a query (a word, or words a synonym
// covers): any one of its alternatives.
type SearchClause []SearchAlt

// SearchPlan is a query as the stores match it: every clause. Name is
// the folded query, for the exact-name rank; Corrected is the query with
// each unknown word replaced by its nearest vocabulary word (Did you
// mean), or "" when no word was corrected.
type SearchPlan struct {
	Clauses   []SearchClause
	Name      string
	Corrected string
}

// SearchVocabulary is what a plan needs from a store's vocabulary.
type SearchVocabulary interface {
	// KnownWords reports which of words the vocabulary holds.
	KnownWords(ctx context.Context, words []string) (map[string]bool, error)
	// HasPrefix reports whether a vocabulary word starts with prefix.
	HasPrefix(ctx context.Context, prefix string) (bool, error)
	// WordsByDeletes is the vocabulary words one of whose stored deletes
	// (WordDeletes) is one of dels.
	WordsByDeletes(ctx context.Context, dels []string) ([]string, error)
}

// maxCorrections bounds the corrections tried for one word.
const maxCorrections = 5

// Synonyms are the owner's groups of words or phrases that mean the same
// ("tee", "t-shirt"), each term folded to its words.
type Synonyms [][][]string

// ParseSynonyms folds groups as the owner typed them (each a list of
// terms) into Synonyms, dropping empty terms and groups of fewer than two.
func ParseSynonyms(groups [][]string) Synonyms {
	var out Synonyms
	for _, g := range groups {
		var terms [][]string
		for _, t := range g {
			if ws := strings.Fields(FoldSearch(t)); len(ws) > 0 {
				terms = append(terms, ws)
			}
		}
		if len(terms) > 1 {
			out = append(out, terms)
		}
	}
	return out
}

// PlanSearch turns a query into the plan the stores match: each word
// matches itself (the last as a prefix, as the shopper is typing), its
// other forms (WordForms), and, when the vocabulary does not know it, the
// vocabulary words within TypoDistance; a run of words that is a synonym
// term also matches the group's other terms.
func PlanSearch(ctx context.Context, v SearchVocabulary, q string, syn Synonyms) (SearchPlan, error) {
	words := SearchWords(q)
	plan := SearchPlan{Name: strings.Join(words, " ")}
	if len(words) == 0 {
		return plan, nil
	}
	var lookup []string
	for _, w := range words {
		lookup = append(lookup, w)
		lookup = append(lookup, WordForms(SearchLanguage, w)...)
	}
	known, err := v.KnownWords(ctx, lookup)
	if err != nil {
		return plan, err
	}
	last := len(words) - 1
	corrected := slices.Clone(words)
	changed := false
	for i, w := range words {
		cl := SearchClause{{{Word: w, Prefix: i == last}}}
		for _, f := range WordForms(SearchLanguage, w) {
			if known[f] {
				cl = append(cl, SearchAlt{{Word: f}})
			}
		}
		if k := TypoDistance(w); k > 0 && !known[w] {
			ok := false
			if i == last {
				if ok, err = v.HasPrefix(ctx, w); err != nil {
					return plan, err
				}
			}
			if !ok {
				near, err := corrections(ctx, v, w, k)
				if err != nil {
					return plan, err
				}
				for _, c := range near {
					cl = append(cl, SearchAlt{{Word: c}})
				}
				if len(near) > 0 {
					corrected[i], changed = near[0], true
				}
			}
		}
		plan.Clauses = append(plan.Clauses, cl)
	}
	if changed {
		plan.Corrected = strings.Join(corrected, " ")
	}
	plan.Clauses = applySynonyms(words, plan.Clauses, syn)
	return plan, nil
}

// corrections is the vocabulary words within k edits of w, nearest
// first, at most maxCorrections.
func corrections(ctx context.Context, v SearchVocabulary, w string, k int) ([]string, error) {
	cands, err := v.WordsByDeletes(ctx, Deletes(w, k))
	if err != nil {
		return nil, err
	}
	type near struct {
		w string
		d int
	}
	var ns []near
	for _, c := range cands {
		if d := EditDistance(w, c); d > 0 && d <= k {
			ns = append(ns, near{c, d})
		}
	}
	slices.SortFunc(ns, func(a, b near) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.w, b.w)
	})
	var out []string
	for _, n := range ns[:min(len(ns), maxCorrections)] {
		out = append(out, n.w)
	}
	return out, nil
}

// applySynonyms merges the clauses of each run of query words that is a
// synonym term into one clause that also matches the group's other terms.
func applySynonyms(words []string, clauses []SearchClause, syn Synonyms) []SearchClause {
	if len(syn) == 0 {
		return clauses
	}
	var out []SearchClause
	for i := 0; i < len(words); {
		var alts []SearchAlt
		end := i
		for _, g := range syn {
			for ti, t := range g {
				if i+len(t) > len(words) || !slices.Equal(words[i:i+len(t)], t) {
					continue
				}
				if i+len(t) > end {
					end = i + len(t)
				}
				for oi, o := range g {
					if oi == ti {
						continue
					}
					var alt SearchAlt
					for _, w := range o {
						alt = append(alt, SearchTerm{Word: w})
					}
					alts = append(alts, alt)
				}
			}
		}
		if end == i {
			out = append(out, clauses[i])
			i++
			continue
		}
		// The run itself: its words' own clauses, all required, folded
		// into one alternative per way of matching the first word (kept
		// simple: the words as typed, the last one as a prefix if it ends
		// the query).
		var own SearchAlt
		for j := i; j < end; j++ {
			own = append(own, clauses[j][0]...)
		}
		cl := append(SearchClause{own}, alts...)
		if end-i == 1 {
			cl = append(clauses[i], alts...)
		}
		out = append(out, cl)
		i = end
	}
	return out
}

func hasDigit(s string) bool {
	return strings.IndexFunc(s, unicode.IsDigit) >= 0
}

// SearchMissesMax bounds the searches-without-results log.
const SearchMissesMax = 1000

// SearchMiss is one search that found nothing: the folded query, how
// often it was asked, and when last.
type SearchMiss struct {
	Query    string    `json:"query"`
	Count    int64     `json:"count"`
	LastSeen time.Time `json:"last_seen"`
}

// SuggestQuery is "Did you mean" for a search that found nothing: the
// query with each word the vocabulary does not know replaced by its
// nearest vocabulary word, allowing one edit more than the search itself
// does (one for words of 4 letters, two from 5), so that it offers what
// the search would not find on its own. "" when no word changes.
func SuggestQuery(ctx context.Context, v SearchVocabulary, q string) (string, error) {
	words := SearchWords(q)
	known, err := v.KnownWords(ctx, words)
	if err != nil {
		return "", err
	}
	changed := false
	for i, w := range words {
		if known[w] || hasDigit(w) || utf8.RuneCountInString(w) < 4 {
			continue
		}
		near, err := corrections(ctx, v, w, min(TypoDistance(w)+1, 2))
		if err != nil {
			return "", err
		}
		if len(near) > 0 {
			words[i], changed = near[0], true
		}
	}
	if !changed {
		return "", nil
	}
	return strings.Join(words, " "), nil
}
