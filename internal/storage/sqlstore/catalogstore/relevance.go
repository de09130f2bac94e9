package catalogstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// A search ordered by relevance sorts its candidates by rank (the exact
// name or SKU, name matches, then the first other field that holds the
// query), in stock before out of stock, best-sellers first, then the
// shop's own order (menu_order, name, id): queryPage's order for
// "relevance". Where the store sorts names byte by byte
// (FacetIndex.bytewise), the page is picked here instead, from what the
// facet index holds of each candidate the filters kept (stock status,
// menu order, name) and the sales counts read by id for the candidates
// that tie with the page on rank and stock only (decision 0134). Sales
// counts are not in the index: orders change them without a catalogue
// change.

// relevanceRow is a candidate of a search page, as relevancePage sorts it.
type relevanceRow struct {
	id        int64
	rank      int  // searchRankPending where not read yet
	out       bool // out of stock
	sales     int64
	menuOrder int64
	name      string
}

// relevanceRows is the index's part of each of the matched candidates,
// their rank from hits (searchRankPending where not read yet). The caller
// holds the index's lock.
func (ix *FacetIndex) relevanceRows(matched []int64, hits map[int64]int) []relevanceRow {
	rows := make([]relevanceRow, 0, len(matched))
	for _, id := range matched {
		s, ok := ix.slot[id]
		if !ok {
			continue
		}
		r := &ix.rows[s]
		rows = append(rows, relevanceRow{id: id, rank: hits[id], out: r.stock == catalog.StockOutOfStock, menuOrder: r.menuOrder, name: r.name})
	}
	return rows
}

// group is the row's place before the sales counts: its rank, then in
// stock before out of stock.
func (r relevanceRow) group() int {
	g := r.rank * 2
	if r.out {
		g++
	}
	return g
}

// cmpRelevance is the relevance order once the sales counts are read.
func cmpRelevance(a, b relevanceRow) int {
	if ga, gb := a.group(), b.group(); ga != gb {
		return cmp.Compare(ga, gb)
	}
	if a.sales != b.sales {
		return cmp.Compare(b.sales, a.sales)
	}
	if a.menuOrder != b.menuOrder {
		return cmp.Compare(a.menuOrder, b.menuOrder)
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// relevancePage is the ids of q's page among rows (relevanceRows; sorted
// in place). The name matches (ranks 0 and 1) sort before every other
// match: where they fill the page, the others' field ranks are not read
// (rank, nil when every rank is known, reads them into hits). Sales
// counts are read only for the rows whose rank and stock group the page
// reaches into.
func (db *Catalog) relevancePage(ctx context.Context, q catalog.ProductQuery, rows []relevanceRow, hits map[int64]int, rank func(context.Context, []int64) error) ([]int64, error) {
	from := perPageOf(q) * (max(q.Page, 1) - 1)
	if from >= len(rows) {
		return nil, nil
	}
	to := min(from+perPageOf(q), len(rows))
	if rank != nil {
		named := 0
		var pending []int64
		for _, r := range rows {
			if r.rank <= 1 {
				named++
			} else if r.rank == searchRankPending {
				pending = append(pending, r.id)
			}
		}
		if named < to && len(pending) > 0 {
			if err := rank(ctx, pending); err != nil {
				return nil, err
			}
			for i := range rows {
				rows[i].rank = hits[rows[i].id]
			}
		}
	}
	slices.SortFunc(rows, func(a, b relevanceRow) int { return cmp.Compare(a.group(), b.group()) })
	// The groups the page reaches into: their rows are ordered by sales.
	lo, hi := from, to
	for lo > 0 && rows[lo-1].group() == rows[from].group() {
		lo--
	}
	for hi < len(rows) && rows[hi].group() == rows[to-1].group() {
		hi++
	}
	window := rows[lo:hi]
	if err := db.readSales(ctx, window); err != nil {
		return nil, err
	}
	slices.SortFunc(window, cmpRelevance)
	ids := make([]int64, 0, to-from)
	for _, r := range rows[from:to] {
		ids = append(ids, r.id)
	}
	return ids, nil
}

// readSales reads each row's sales count (0 for a product gone since the
// index was read: productsInOrder then leaves it out) by id, from the
// index that holds the id and the count alone (migration 00058).
func (db *Catalog) readSales(ctx context.Context, rows []relevanceRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.id
	}
	q := `SELECT p.id, p.total_sales FROM json_each(?) j CROSS JOIN products p INDEXED BY products_sales_by_id ON p.id = j.value`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT p.id, p.total_sales FROM jsonb_array_elements_text(?::jsonb) AS d(did) JOIN products p ON p.id = d.did::bigint`
	}
	res, err := db.Read.QueryContext(ctx, db.Read.Rebind(q), idsJSON(ids))
	if err != nil {
		return fmt.Errorf("sales counts: %w", err)
	}
	defer res.Close()
	sales := make(map[int64]int64, len(rows))
	for res.Next() {
		var id, n int64
		if err := res.Scan(&id, &n); err != nil {
			return fmt.Errorf("sales counts: %w", err)
		}
		sales[id] = n
	}
	if err := res.Err(); err != nil {
		return fmt.Errorf("sales counts: %w", err)
	}
	for i := range rows {
		rows[i].sales = sales[rows[i].id]
	}
	return nil
}
