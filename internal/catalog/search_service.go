package catalog

import (
	"context"
	"time"
)

// SearchStore is what the search service needs from a store beyond its
// product queries: the plan it matches (with its corrections) and the log
// of searches that found nothing.
type SearchStore interface {
	SearchVocabulary
	QueryProducts(ctx context.Context, q ProductQuery) ([]*Product, int, error)
	RecordSearchMiss(ctx context.Context, query string, at time.Time) error
	TopSearchMisses(ctx context.Context, limit int) ([]SearchMiss, error)
}

// SearchService owns what a search does beyond matching: the owner's
// synonyms in force, "Did you mean" for a search without results, and
// the count of such searches.
type SearchService struct {
	Store SearchStore
	// Synonyms answers the owner's synonyms in force (nil: none).
	Synonyms func() Synonyms
	Now      func() time.Time
}

// SynonymsInForce is the owner's synonyms for a query.
func (s *SearchService) SynonymsInForce() Synonyms {
	if s == nil || s.Synonyms == nil {
		return nil
	}
	return s.Synonyms()
}

// NoResults is called for a shop search that found nothing: it counts
// the search and answers the corrected query when that one finds
// products ("" when there is none). visibility is the search's.
func (s *SearchService) NoResults(ctx context.Context, q, visibility string) (string, error) {
	if err := s.Store.RecordSearchMiss(ctx, q, s.now()); err != nil {
		return "", err
	}
	corrected, err := SuggestQuery(ctx, s.Store, q)
	if err != nil || corrected == "" {
		return "", err
	}
	ps, _, err := s.Store.QueryProducts(ctx, ProductQuery{Search: corrected, Synonyms: s.SynonymsInForce(),
		Visibility: visibility, PerPage: 1, NoCount: true})
	if err != nil || len(ps) == 0 {
		return "", err
	}
	return corrected, nil
}

// TopMisses lists the most asked searches that found nothing, at most
// limit (1..100).
func (s *SearchService) TopMisses(ctx context.Context, limit int) ([]SearchMiss, error) {
	limit = min(max(limit, 1), 100)
	return s.Store.TopSearchMisses(ctx, limit)
}

func (s *SearchService) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
