package catalogstore

import (
	"context"
	"maps"
	"slices"
	"strings"

	"vitrine/internal/catalog"
)

// SetSmallCategoryRowsForTest sets the size under which a category drives
// its listing query, so tests reach both plans with a few products; the
// returned function restores it.
func SetSmallCategoryRowsForTest(n int) (restore func()) {
	old := smallCategoryRows
	smallCategoryRows = n
	return func() { smallCategoryRows = old }
}

// SearchHitsBothWaysForTest is q's search candidates with their ranks as
// a search page reads them (searchHits) and as the listing's one
// candidate query selects them (searchCandidates); ways, when given,
// choose which of the two to read (benchmarks).
func (db *Catalog) SearchHitsBothWaysForTest(ctx context.Context, q catalog.ProductQuery, ways ...bool) (got, want map[int64]int, err error) {
	hits, query := len(ways) < 2 || ways[0], len(ways) < 2 || ways[1]
	cats, err := db.queryCategories(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	if hits {
		var rank func(context.Context, []int64) error
		if got, rank, err = db.searchHits(ctx, q, cats); err != nil {
			return nil, nil, err
		}
		if rank != nil { // every rank, as the one statement gives them
			if err := rank(ctx, slices.Collect(maps.Keys(got))); err != nil {
				return nil, nil, err
			}
		}
	}
	if !query {
		return got, nil, nil
	}
	plan, err := catalog.PlanSearch(ctx, db, q.Search, q.Synonyms)
	if err != nil {
		return nil, nil, err
	}
	want = map[int64]int{}
	if len(plan.Clauses) == 0 {
		return got, want, nil
	}
	cand, args := db.searchCandidates(plan, strings.TrimSpace(q.Search), cats, q.SearchCandidates)
	rows, err := db.Read.QueryContext(ctx, db.Read.Rebind(`SELECT sid, srank FROM (`+cand+`) c`), args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var r int
		if err := rows.Scan(&id, &r); err != nil {
			return nil, nil, err
		}
		want[id] = r
	}
	return got, want, rows.Err()
}

// NamesBytewiseForTest is whether the facet index may order listings by
// name itself (namesBytewise).
func (db *Catalog) NamesBytewiseForTest(ctx context.Context) (bool, error) {
	return db.namesBytewise(ctx)
}
