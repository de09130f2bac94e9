package catalog

import (
	"html"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SearchSuggestLimit is how many live-search suggestions are answered.
const SearchSuggestLimit = 10

// SearchMaxWords bounds how many words of a query are searched; the rest
// are ignored (a pasted paragraph costs no more than a short query).
const SearchMaxWords = 8

// SearchMaxWordLen bounds one searched word, in bytes of folded text.
const SearchMaxWordLen = 64

// FoldSearch folds text for the search index and for queries, identically
// on every engine: Unicode decomposition with the combining marks dropped
// ("Crème" → "creme"), lower case, a few letters that do not decompose
// spelled out (ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ → d, þ → th), and
// everything that is not a letter or a digit turned into single spaces.
// The stores index this text, so neither engine needs an unaccent
// extension, and both split it into the same words.
func FoldSearch(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true // no leading space
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		if rep, ok := foldSpecial[r]; ok {
			b.WriteString(rep)
			space = false
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimRight(b.String(), " ")
}

var foldSpecial = map[rune]string{
	'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i",
}

// SearchWords is a query as the words the stores search for: folded, at
// most SearchMaxWords, each cut to SearchMaxWordLen bytes. The last word is
// matched as a prefix.
func SearchWords(q string) []string {
	words := strings.Fields(FoldSearch(q))
	if len(words) > SearchMaxWords {
		words = words[:SearchMaxWords]
	}
	for i, w := range words {
		if len(w) > SearchMaxWordLen {
			w = w[:SearchMaxWordLen]
			words[i] = strings.ToValidUTF8(w, "")
		}
	}
	return words
}

// StripTags turns an HTML fragment into its text, for indexing.
func StripTags(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}

// SearchDoc is what the search index holds for one product, folded, one
// field per ranking tier: a match in the name ranks first, then the SKU,
// the categories, the attribute values, the short description, and last
// the description (with the tag names).
type SearchDoc struct {
	Name  string // the product name
	SKU   string // the product's and its variations' SKUs, also with separators removed
	Cats  string // the names of the product's categories
	Attrs string // the product's attribute values (its terms' names)
	Short string // the short description
	Body  string // the description and the tag names
}

// SearchSource is a product's text as the catalogue holds it, before
// folding: what NewSearchDoc indexes.
type SearchSource struct {
	Name        string
	SKUs        []string // its own and its variations'
	Categories  []string
	Attributes  []string
	Short       string // HTML
	Description string // HTML
	Tags        []string
}

// MaxSearchBody bounds the indexed description text in bytes.
const MaxSearchBody = 16 << 10

// NewSearchDoc folds a product's text into its search document.
func NewSearchDoc(src SearchSource) SearchDoc {
	var sku []string
	for _, s := range src.SKUs {
		f := FoldSearch(s)
		if f == "" {
			continue
		}
		sku = append(sku, f)
		if c := strings.ReplaceAll(f, " ", ""); c != f {
			sku = append(sku, c) // "TEE-RED-S" is found as "tee red s" and as "teereds"
		}
	}
	cut := func(s string) string {
		if len(s) > MaxSearchBody {
			s = s[:MaxSearchBody]
			if i := strings.LastIndexByte(s, ' '); i > 0 {
				s = s[:i]
			}
		}
		return s
	}
	return SearchDoc{
		Name:  FoldSearch(src.Name),
		SKU:   strings.Join(sku, " "),
		Cats:  cut(FoldSearch(strings.Join(src.Categories, " "))),
		Attrs: cut(FoldSearch(strings.Join(src.Attributes, " "))),
		Short: cut(FoldSearch(StripTags(src.Short))),
		Body:  cut(FoldSearch(StripTags(src.Description) + " " + strings.Join(src.Tags, " "))),
	}
}
