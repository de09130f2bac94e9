package settings

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"vitrine/internal/catalog"
)

// SearchName is the search settings document's key.
const SearchName = "search"

// Search is the shop search's settings: the owner's synonym groups, each
// words or phrases that mean the same ("tee", "t-shirt").
type Search struct {
	Synonyms [][]string `json:"synonyms"`
}

// Bounds of the synonyms an owner may set.
const (
	MaxSynonymGroups = 500
	MaxSynonymTerms  = 20
	MaxSynonymLen    = 60
)

// SearchSettings reads and saves the search settings, versioned like the
// shop's; the folded synonyms are kept ready for every search.
type SearchSettings struct {
	Store Store
	Now   func() time.Time

	once   sync.Once
	d      doc[Search]
	mu     sync.Mutex
	parsed catalog.Synonyms
	of     int64 // the version parsed, -1: none yet
}

func (s *SearchSettings) doc() *doc[Search] {
	s.once.Do(func() {
		s.d = doc[Search]{store: s.Store, name: SearchName, defaults: Search{Synonyms: [][]string{}}, now: s.Now}
		s.of = -1
	})
	return &s.d
}

// Current is the document in force.
func (s *SearchSettings) Current() Doc[Search] { return s.doc().current() }

// Load reads the stored document into memory.
func (s *SearchSettings) Load(ctx context.Context) (Doc[Search], error) { return s.doc().load(ctx) }

// Synonyms are the synonyms in force, folded (catalog.ParseSynonyms).
func (s *SearchSettings) Synonyms() catalog.Synonyms {
	d := s.Current()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.of != d.Version || (d.Version == 0 && s.parsed == nil) {
		s.parsed, s.of = catalog.ParseSynonyms(d.Value.Synonyms), d.Version
	}
	return s.parsed
}

// Update normalizes and validates in (an *InputError names the group)
// and saves it if base is the version in force (ErrStale otherwise).
func (s *SearchSettings) Update(ctx context.Context, in Search, base int64) (Doc[Search], error) {
	in = normalizeSearch(in)
	if err := ValidateSearch(in); err != nil {
		return Doc[Search]{}, err
	}
	return s.doc().put(ctx, in, base)
}

// normalizeSearch trims terms and drops empty ones and empty groups.
func normalizeSearch(in Search) Search {
	out := Search{Synonyms: [][]string{}}
	for _, g := range in.Synonyms {
		var terms []string
		for _, t := range g {
			if t = strings.Join(strings.Fields(t), " "); t != "" {
				terms = append(terms, t)
			}
		}
		if len(terms) > 0 {
			out.Synonyms = append(out.Synonyms, terms)
		}
	}
	return out
}

// ValidateSearch checks the synonym groups: at most MaxSynonymGroups,
// each of 2 to MaxSynonymTerms terms of at most MaxSynonymLen characters
// that hold a letter or a digit.
func ValidateSearch(in Search) error {
	if len(in.Synonyms) > MaxSynonymGroups {
		return &InputError{Field: "synonyms", Message: "at most " + strconv.Itoa(MaxSynonymGroups) + " groups"}
	}
	for i, g := range in.Synonyms {
		field := "synonyms[" + strconv.Itoa(i) + "]"
		if len(g) < 2 || len(g) > MaxSynonymTerms {
			return &InputError{Field: field, Message: "a group needs 2 to " + strconv.Itoa(MaxSynonymTerms) + " words or phrases"}
		}
		for _, t := range g {
			if utf8.RuneCountInString(t) > MaxSynonymLen {
				return &InputError{Field: field, Message: "“" + t + "” is longer than " + strconv.Itoa(MaxSynonymLen) + " characters"}
			}
			if catalog.FoldSearch(t) == "" {
				return &InputError{Field: field, Message: "“" + t + "” has no letters or digits"}
			}
		}
	}
	return nil
}
