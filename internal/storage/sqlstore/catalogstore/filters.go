package catalogstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The listing filters' conditions and the facet counts (catalog.FacetStore).
// A product's global attribute terms are product_attribute_values rows
// with a term (a variable product's terms are its parent's, as the
// product page lists them); the index (term_id, product_id) of 00028 and
// the one on (product_id, term_id) of 00044 serve both directions.

// attributesCond is the condition of attribute filters fs joined by
// relation ("in": any filter; else all of them); "" when fs is empty.
func attributesCond(fs []catalog.AttributeFilter, relation string) (string, []any) {
	var conds []string
	var args []any
	for _, f := range fs {
		ids := slices.Compact(slices.Sorted(slices.Values(f.TermIDs)))
		if len(ids) == 0 {
			continue
		}
		// Each a probe of the product's terms by (product_id, term_id)
		// (00044's index): a listing read in order stops after its page,
		// where a set of every product with the terms would be built first.
		has := func(in string) string {
			return "EXISTS (SELECT 1 FROM product_attribute_values av WHERE av.product_id = products.id AND av.term_id IN " + in + ")"
		}
		var c string
		var a []any
		switch f.Operator {
		case catalog.AttrNotIn:
			var in string
			in, a = sqlcore.InClause(ids)
			c = "NOT " + has(in)
		case catalog.AttrAnd:
			var each []string
			for _, id := range ids {
				each, a = append(each, has("(?)")), append(a, id)
			}
			c = "(" + strings.Join(each, " AND ") + ")"
		default:
			var in string
			in, a = sqlcore.InClause(ids)
			c = has(in)
		}
		conds, args = append(conds, c), append(args, a...)
	}
	switch {
	case len(conds) == 0:
		return "", nil
	case relation == "in" && len(conds) > 1:
		return "(" + strings.Join(conds, " OR ") + ")", args
	}
	return strings.Join(conds, " AND "), args
}

// roundedRating is catalog.RoundedRating in SQL (both engines: no ROUND,
// whose halves differ between them for floating point).
const roundedRating = `CASE WHEN average_rating >= 4.5 THEN 5 WHEN average_rating >= 3.5 THEN 4
	WHEN average_rating >= 2.5 THEN 3 WHEN average_rating >= 1.5 THEN 2 WHEN average_rating >= 0.5 THEN 1 ELSE 0 END`

// ratingsCond keeps the products rated (rounded) one of rs; "" for none.
func ratingsCond(rs []int) string {
	if len(rs) == 0 {
		return ""
	}
	var parts []string
	for _, r := range slices.Compact(slices.Sorted(slices.Values(rs))) {
		if r < 1 || r > 5 {
			continue
		}
		lo := strconv.FormatFloat(float64(r)-0.5, 'f', 1, 64)
		if r == 5 {
			parts = append(parts, "average_rating >= "+lo)
		} else {
			parts = append(parts, "(average_rating >= "+lo+" AND average_rating < "+strconv.FormatFloat(float64(r)+0.5, 'f', 1, 64)+")")
		}
	}
	if len(parts) == 0 {
		return "average_rating < 0" // only out-of-range ratings: nothing
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

// PriceRange implements catalog.FacetStore: the lowest and highest listing
// price (sort_price) of what q selects.
func (db *Catalog) PriceRange(ctx context.Context, q catalog.ProductQuery) (catalog.PriceBounds, error) {
	sel, err := db.selection(ctx, q, nil)
	if err != nil || sel.empty {
		return catalog.PriceBounds{}, err
	}
	var lo, hi sql.NullInt64
	if err := db.Read.QueryRowxContext(ctx, db.Read.Rebind(`SELECT MIN(sort_price), MAX(sort_price)`+sel.countCond), sel.args...).Scan(&lo, &hi); err != nil {
		return catalog.PriceBounds{}, fmt.Errorf("price range: %w", err)
	}
	return catalog.PriceBounds{Min: ptr(lo), Max: ptr(hi)}, nil
}

// TermCounts implements catalog.FacetStore: per term of the attribute,
// the products q selects that carry it.
func (db *Catalog) TermCounts(ctx context.Context, q catalog.ProductQuery, attributeID int64) (map[int64]int, error) {
	sel, err := db.selection(ctx, q, nil)
	out := map[int64]int{}
	if err != nil || sel.empty {
		return out, err
	}
	// The selected products drive the join (CROSS JOIN fixes SQLite's
	// order), each read by (product_id, term_id) from the index of 00044;
	// the attribute's terms are a short list.
	join := " CROSS JOIN "
	if db.Engine == sqlcore.Postgres {
		join = " JOIN "
	}
	query := `SELECT v.term_id, COUNT(DISTINCT v.product_id) FROM (SELECT products.id AS pid` + sel.countCond + `) m` +
		join + `product_attribute_values v ON v.product_id = m.pid
		WHERE v.term_id IN (SELECT id FROM attribute_terms WHERE attribute_id = ?)
		GROUP BY v.term_id`
	rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(query), append(slices.Clone(sel.args), attributeID)...)
	if err != nil {
		return nil, fmt.Errorf("term counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// RatingCounts implements catalog.FacetStore: rated products by rounded
// average rating.
func (db *Catalog) RatingCounts(ctx context.Context, q catalog.ProductQuery) (map[int]int, error) {
	sel, err := db.selection(ctx, q, nil)
	out := map[int]int{}
	if err != nil || sel.empty {
		return out, err
	}
	rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(`SELECT `+roundedRating+`, COUNT(*)`+sel.countCond+
		` AND average_rating >= 0.5 GROUP BY 1`), sel.args...)
	if err != nil {
		return nil, fmt.Errorf("rating counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r, n int
		if err := rows.Scan(&r, &n); err != nil {
			return nil, err
		}
		out[r] = n
	}
	return out, rows.Err()
}

// StockStatusCounts implements catalog.FacetStore: what q selects by
// stock status.
func (db *Catalog) StockStatusCounts(ctx context.Context, q catalog.ProductQuery) (map[string]int, error) {
	sel, err := db.selection(ctx, q, nil)
	out := map[string]int{}
	if err != nil || sel.empty {
		return out, err
	}
	rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(`SELECT stock_status, COUNT(*)`+sel.countCond+` GROUP BY stock_status`), sel.args...)
	if err != nil {
		return nil, fmt.Errorf("stock status counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		out[s] = n
	}
	return out, rows.Err()
}

// CountMatching implements catalog.FacetStore: the products q selects.
func (db *Catalog) CountMatching(ctx context.Context, q catalog.ProductQuery) (int, error) {
	sel, err := db.selection(ctx, q, nil)
	if err != nil || sel.empty {
		return 0, err
	}
	var n int
	if err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*)`+sel.countCond), sel.args...); err != nil {
		return 0, fmt.Errorf("count products: %w", err)
	}
	return n, nil
}

// CountAllFacets implements catalog.FacetStore: want counted in one pass
// over the kept index (facetindex.go), a search's over its candidates; ok
// is false when the store keeps none or q is not one it answers (SKUs,
// slugs, other visibilities), and CountFacets counts facet by facet in SQL.
func (db *Catalog) CountAllFacets(ctx context.Context, q catalog.ProductQuery, want catalog.FacetRequest) (catalog.Facets, bool, error) {
	var f catalog.Facets
	ok, err := db.facets(ctx, q, nil, nil, true, func(ix *FacetIndex, fq *facetQuery) { f, _, _ = ix.countAll(fq, want, -1, nil) })
	return f, ok, err
}

// QueryProductsFaceted implements catalog.FacetStore: q's page, its total
// and want, from one pass of the kept index. A search's candidates are
// read once, for the counts and the page: the page joins the candidates
// the index matched (with their ranks) instead of running the search
// again. Other listings take their page as QueryProducts does, driven by
// the index's matches when they are few. ok is false where CountAllFacets
// does not answer.
func (db *Catalog) QueryProductsFaceted(ctx context.Context, q catalog.ProductQuery, want catalog.FacetRequest) ([]*catalog.Product, int, catalog.Facets, bool, error) {
	var f catalog.Facets
	if db.Facets == nil || !facetable(q, true) {
		return nil, 0, f, false, nil
	}
	var sel selection
	var cats []int64
	var hits map[int64]int
	var rank func(context.Context, []int64) error
	var err error
	searching := strings.TrimSpace(q.Search) != ""
	if searching {
		if cats, err = db.queryCategories(ctx, q); err != nil {
			return nil, 0, f, false, err
		}
		if hits, rank, err = db.searchHits(ctx, q, cats); err != nil {
			return nil, 0, f, false, err
		}
	} else {
		if sel, err = db.selection(ctx, q, nil); err != nil {
			return nil, 0, f, false, err
		}
		cats = sel.cats
	}
	total := 0
	var matched []int64
	var relevant []relevanceRow
	order := newShopOrder(q, searching)
	ok, err := db.facets(ctx, q, cats, hits, true, func(ix *FacetIndex, fq *facetQuery) {
		limit := len(ix.slot) // a search's candidates are bounded: all of them
		if !searching {
			limit = facetDriveLimit(q, len(ix.slot))
		}
		if !ix.bytewise {
			order = nil
		}
		f, total, matched = ix.countAll(fq, want, limit, order)
		if searching && ix.bytewise && (q.OrderBy == "" || q.OrderBy == "relevance") {
			relevant = ix.relevanceRows(matched, hits)
		}
	})
	if err != nil || !ok {
		return nil, 0, f, ok, err
	}
	if order != nil {
		// The index kept the listing's first rows in its order: the
		// page is the last of them, read by id.
		from := min(perPageOf(q)*(max(q.Page, 1)-1), len(matched))
		ps, err := db.productsInOrder(ctx, q, matched[from:])
		if err != nil {
			return nil, 0, f, false, err
		}
		return ps, total, f, true, nil
	}
	if searching {
		if len(matched) == 0 {
			return nil, total, f, true, nil
		}
		if relevant != nil {
			// The index orders the candidates the filters kept
			// (relevance.go); the page's products are read by id.
			page, err := db.relevancePage(ctx, q, relevant, hits, rank)
			if err != nil {
				return nil, 0, f, false, err
			}
			ps, err := db.productsInOrder(ctx, q, page)
			if err != nil {
				return nil, 0, f, false, err
			}
			return ps, total, f, true, nil
		}
		// SQL sorts the page: every kept candidate's rank is read first.
		if rank != nil {
			if err := rank(ctx, matched); err != nil {
				return nil, 0, f, false, err
			}
		}
		ranks := make(map[int64]int, len(matched))
		for _, id := range matched {
			ranks[id] = hits[id]
		}
		if best := bestRanks(q, ranks); best != nil {
			// Ordered by relevance, the page is among the best ranked
			// candidates when they fill it: a full page from them is the
			// page (every other candidate sorts after them), read without
			// the others' rows; a short one means they did not fill it.
			if sel, err = db.selection(ctx, q, &searchDrive{cats: cats, ranks: best}); err != nil {
				return nil, 0, f, false, err
			}
			ps, err := db.queryPage(ctx, q, sel, nil)
			if err != nil {
				return nil, 0, f, false, err
			}
			if len(ps) == perPageOf(q) {
				return ps, total, f, true, nil
			}
		}
		if sel, err = db.selection(ctx, q, &searchDrive{cats: cats, ranks: ranks}); err != nil {
			return nil, 0, f, false, err
		}
		matched = nil // the join is already driven by them
	}
	ps, err := db.queryPage(ctx, q, sel, matched)
	if err != nil {
		return nil, 0, f, false, err
	}
	return ps, total, f, true, nil
}

// perPageOf is q's page size as queryPage reads it.
func perPageOf(q catalog.ProductQuery) int {
	if q.PerPage <= 0 {
		return 10
	}
	return q.PerPage
}

// bestRanks is, for a search ordered by relevance, the candidates of the
// best ranks that are enough to fill q's pages up to its own (the fewest
// ranks whose candidates number at least page × page size); nil when that
// takes every rank (or q is ordered otherwise).
func bestRanks(q catalog.ProductQuery, ranks map[int64]int) map[int64]int {
	if (q.OrderBy != "" && q.OrderBy != "relevance") || len(ranks) == 0 {
		return nil
	}
	need := max(q.Page, 1) * perPageOf(q)
	if need >= len(ranks) {
		return nil
	}
	var count [SearchRankElsewhere + 1]int
	worst := 0
	for _, r := range ranks {
		if r < 0 || r > SearchRankElsewhere {
			return nil
		}
		count[r]++
		worst = max(worst, r)
	}
	cut, n := -1, 0
	for r := range count {
		if n += count[r]; n >= need {
			cut = r
			break
		}
	}
	if cut < 0 || cut >= worst {
		return nil
	}
	best := make(map[int64]int, n)
	for id, r := range ranks {
		if r <= cut {
			best[id] = r
		}
	}
	return best
}

// productsInOrder reads the products ids names, in that order (the rows
// the facet index chose for a page), as q loads them (loadFor).
func (db *Catalog) productsInOrder(ctx context.Context, q catalog.ProductQuery, ids []int64) ([]*catalog.Product, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	from := ` FROM (SELECT CAST(value AS INTEGER) AS did, CAST(key AS INTEGER) AS pos FROM json_each(?)) d CROSS JOIN products ON products.id = d.did`
	if db.Engine == sqlcore.Postgres {
		from = ` FROM jsonb_array_elements_text(?::jsonb) WITH ORDINALITY AS d(did, pos) JOIN products ON products.id = d.did::bigint`
	}
	columns, rel := loadFor(q)
	return db.loadProductsWith(ctx, rel, columns+from+` ORDER BY d.pos`, idsJSON(ids))
}
