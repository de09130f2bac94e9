package catalogstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The facet index: the listed products' filter columns kept in memory, so
// that a listing's counts (catalog.CountFacets) and its total are one pass
// over compact rows instead of a scan of the category per facet in SQL.
//
// It holds one row per published parent product that is not hidden: its
// catalogue visibility, listing price (sort_price), average rating, stock
// status, sale, type, featured flag, category and tag links and global
// attribute terms. It answers a query whose conditions are all of those
// (the shop, category, tag and attribute listings, the Store API's
// products and collection-data); a search's counts too, over the search's
// candidates read in SQL (their ids, bounded by SearchCandidates); SKU and
// slug queries go to SQL as before.
//
// It is kept from the catalogue change log, which every catalogue write
// appends to in its own transaction: before each use it reads the newest
// change id (one statement) and, when the log moved, reloads the products
// the new entries name (with their parent, for a variation's change) from
// the tables. An entry without a product (a taxonomy change: a category,
// attribute or term renamed, moved or deleted) rebuilds it. So an answer
// reflects every write committed before the request began, on every
// instance. On PostgreSQL, ids skipped when read (a transaction that took
// a lower id commits after a higher one) are asked for again on each use
// for facetGapWait, as the server's change follower does.
//
// It is built on first use: its version is the newest change id read
// before the tables, so a write that lands between the reads is applied
// again afterwards (reloading is idempotent).

const (
	facetGapWait       = 5 * time.Minute
	facetStartGaps     = 200
	facetChangeBatch   = 500
	facetReloadBatch   = 500
	facetMaxAttrFilter = 64 // a query with more attribute filters goes to SQL
)

// FacetIndex is the kept index of a Catalog (sqlstore.Open gives each store
// its own, new(FacetIndex)); the zero value is empty and builds on use.
type FacetIndex struct {
	mu      sync.RWMutex
	built   bool
	version int64               // the newest change id applied
	gaps    map[int64]time.Time // skipped change ids (PostgreSQL) → when first skipped
	slot    map[int64]int32     // product id → index in rows
	rows    []facetRow          // id 0: a free slot
	free    []int32
	// Terms are counted in arrays: each term seen gets a dense number.
	termDense map[int64]int32
	termAttr  []int64 // by dense number: the term's attribute
	termID    []int64 // by dense number: the term's id
	strs      map[string]string
	// builds counts full builds (the first, and one per taxonomy
	// change); attrs are the filter attributes read at build attrsAt
	// (FilterAttributes), current while attrsAt == builds.
	builds  int64
	attrs   []catalog.FilterAttribute
	attrsAt int64
	// bytewise: the store sorts product names byte by byte, as Go
	// compares strings (SQLite's BINARY; PostgreSQL's C, POSIX or C.UTF-8
	// collation), so the index can order a listing (shopOrder).
	bytewise bool
	// gen counts the changes to rows (builds and reloads); catSlots are
	// the slots of the rows in a category (with its descendants, as a
	// query names them: catKey), made for gen catGen and kept until rows
	// change, so a category's listing visits its own rows only.
	gen      int64
	catMu    sync.Mutex
	catGen   int64
	catSlots map[string][]int32
}

// maxCategorySlotLists bounds the category row lists kept (catSlots).
const maxCategorySlotLists = 64

type facetRow struct {
	id               int64
	vis              string // catalog_visibility: visible, catalog or search
	price            int64
	hasPrice         bool
	rating           int8 // rounded as roundedRating: 0 unrated, 1..5
	onSale, featured bool
	stock            string
	typ              string
	cats, tags       []int64 // sorted
	terms            []int64 // global attribute terms, sorted
	dense            []int32 // their dense numbers (FacetIndex.termDense)
	menuOrder        int64   // the shop's own order (menu_order, name, id: shopOrder)
	name             string
	folded           string // the name as search folds it (catalog.FoldSearch): exactNames
}

// intern returns the index's copy of s (stock statuses and types repeat:
// one copy each, and equal strings compare by pointer first).
func (ix *FacetIndex) intern(s string) string {
	if v, ok := ix.strs[s]; ok {
		return v
	}
	if ix.strs == nil {
		ix.strs = map[string]string{}
	}
	ix.strs[s] = s
	return s
}

// bucketRating rounds an average as roundedRating does in SQL.
func bucketRating(avg float64) int8 {
	switch {
	case avg >= 4.5:
		return 5
	case avg >= 3.5:
		return 4
	case avg >= 2.5:
		return 3
	case avg >= 1.5:
		return 2
	case avg >= 0.5:
		return 1
	}
	return 0
}

// facetQuery is a ProductQuery the index can answer, compiled.
type facetQuery struct {
	vis              [3]string      // the visibilities listed ("" unused)
	cats             map[int64]bool // nil: any
	catKey           string         // the categories, sorted, as catSlots names them
	catsScanned      bool           // the pass visits only the categories' rows (scan): base need not test them
	cat              int64          // the one category, when there is one (then cats is unused)
	catBits          []uint64       // cats as a bitmap by id, when their ids are small (then cats is unused)
	tags             []int64
	tagOp            string
	typ              string
	featured, onSale *bool
	include, exclude map[int64]bool
	minP, maxP       *int64
	stock            []string
	attrs            []facetAttrFilter
	attrAny          bool // relation "in"
	ratings          *[6]bool
}

type facetAttrFilter struct {
	attr  int64
	terms []int64
	op    string
}

// facetable tells whether the index can answer q (the categories aside);
// a search only when search is true (the caller reads its candidates).
func facetable(q catalog.ProductQuery, search bool) bool {
	return (q.Search == "" || search) && len(q.SKUs) == 0 && q.Slug == "" &&
		facetVisibility(q.Visibility) != [3]string{} && len(q.Attributes) <= facetMaxAttrFilter
}

// facetVisibility is which catalogue visibilities a query's Visibility
// lists, as selection reads it; none for one the index does not hold.
func facetVisibility(v string) [3]string {
	switch v {
	case "", "catalog":
		return [3]string{catalog.VisibilityVisible, catalog.VisibilityCatalog}
	case "search":
		return [3]string{catalog.VisibilityVisible, catalog.VisibilitySearch}
	case "listable":
		return [3]string{catalog.VisibilityVisible, catalog.VisibilityCatalog, catalog.VisibilitySearch}
	}
	return [3]string{}
}

func set(ids []int64) map[int64]bool {
	if len(ids) == 0 {
		return nil
	}
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// compileFacetQuery compiles q as selection reads it; cats are its
// categories with their descendants when asked.
func compileFacetQuery(q catalog.ProductQuery, cats []int64) facetQuery {
	fq := facetQuery{vis: facetVisibility(q.Visibility), typ: q.Type, featured: q.Featured, onSale: q.OnSale, minP: q.MinPrice, maxP: q.MaxPrice,
		stock: q.StockStatus, include: set(q.Include), exclude: set(q.Exclude), attrAny: q.AttributeRelation == "in"}
	if len(q.CategoryIDs) > 0 {
		fq.cats = set(cats)
		fq.catKey = fmt.Sprint(slices.Compact(slices.Sorted(slices.Values(cats))))
		switch {
		case fq.cats == nil:
			fq.cats = map[int64]bool{} // nothing
		case len(fq.cats) == 1:
			fq.cat = cats[0]
		default:
			fq.catBits = idBitmap(cats)
		}
	}
	if len(q.TagIDs) > 0 {
		fq.tags, fq.tagOp = slices.Compact(slices.Sorted(slices.Values(q.TagIDs))), q.TagOperator
	}
	for _, f := range q.Attributes {
		ids := slices.Compact(slices.Sorted(slices.Values(f.TermIDs)))
		if len(ids) == 0 {
			continue // as attributesCond: no condition
		}
		fq.attrs = append(fq.attrs, facetAttrFilter{attr: f.AttributeID, terms: ids, op: f.Operator})
	}
	if len(q.Ratings) > 0 {
		var rs [6]bool
		for _, r := range q.Ratings {
			if r >= 1 && r <= 5 {
				rs[r] = true
			}
		}
		fq.ratings = &rs
	}
	return fq
}

// idBitmap is ids as a bitmap indexed by id, or nil when one is negative
// or too large for a small one (1<<20: 128 KiB).
func idBitmap(ids []int64) []uint64 {
	top := int64(0)
	for _, id := range ids {
		if id < 0 || id >= 1<<20 {
			return nil
		}
		top = max(top, id)
	}
	bits := make([]uint64, top/64+1)
	for _, id := range ids {
		bits[id>>6] |= 1 << (uint64(id) & 63)
	}
	return bits
}

// countIn counts how many of want (sorted, distinct) are in have (sorted).
func countIn(have, want []int64) int {
	n, i := 0, 0
	for _, w := range want {
		for i < len(have) && have[i] < w {
			i++
		}
		if i < len(have) && have[i] == w {
			n++
		}
	}
	return n
}

// base: the conditions no facet sets aside.
func (fq *facetQuery) base(r *facetRow) bool {
	if r.vis != fq.vis[0] && r.vis != fq.vis[1] && (fq.vis[2] == "" || r.vis != fq.vis[2]) {
		return false
	}
	if !fq.catsScanned && !fq.inCategories(r) {
		return false
	}
	return fq.rest(r)
}

// inCategories: r is in fq's categories (any when fq names none).
func (fq *facetQuery) inCategories(r *facetRow) bool {
	switch {
	case fq.cat != 0:
		if !slices.Contains(r.cats, fq.cat) {
			return false
		}
	case fq.catBits != nil:
		// A category with its descendants: a bit test per link, where a
		// map lookup per link was most of a large category's pass.
		in := false
		for _, c := range r.cats {
			if w := uint64(c) >> 6; w < uint64(len(fq.catBits)) && fq.catBits[w]&(1<<(uint64(c)&63)) != 0 {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	case fq.cats != nil:
		if !slices.ContainsFunc(r.cats, func(c int64) bool { return fq.cats[c] }) {
			return false
		}
	}
	return true
}

// rest: base's conditions after the visibility and the categories.
func (fq *facetQuery) rest(r *facetRow) bool {
	if fq.tags != nil {
		n := countIn(r.tags, fq.tags)
		switch fq.tagOp {
		case "not_in":
			if n > 0 {
				return false
			}
		case "and":
			if n != len(fq.tags) {
				return false
			}
		default:
			if n == 0 {
				return false
			}
		}
	}
	if fq.typ != "" && r.typ != fq.typ {
		return false
	}
	if fq.featured != nil && r.featured != *fq.featured {
		return false
	}
	if fq.include != nil && !fq.include[r.id] {
		return false
	}
	if fq.exclude != nil && fq.exclude[r.id] {
		return false
	}
	return true
}

func (fq *facetQuery) price(r *facetRow) bool {
	if fq.minP != nil && (!r.hasPrice || r.price < *fq.minP) {
		return false
	}
	return fq.maxP == nil || (r.hasPrice && r.price <= *fq.maxP)
}

func (fq *facetQuery) rating(r *facetRow) bool {
	return fq.ratings == nil || (r.rating > 0 && fq.ratings[r.rating])
}

func (fq *facetQuery) stockOK(r *facetRow) bool {
	return len(fq.stock) == 0 || slices.Contains(fq.stock, r.stock)
}

func (fq *facetQuery) sale(r *facetRow) bool { return fq.onSale == nil || r.onSale == *fq.onSale }

// attrBits: bit i set when r meets attribute filter i.
func (fq *facetQuery) attrBits(r *facetRow) uint64 {
	var bits uint64
	for i, f := range fq.attrs {
		n := countIn(r.terms, f.terms)
		var ok bool
		switch f.op {
		case catalog.AttrAnd:
			ok = n == len(f.terms)
		case catalog.AttrNotIn:
			ok = n == 0
		default:
			ok = n > 0
		}
		if ok {
			bits |= 1 << i
		}
	}
	return bits
}

// attrsOK: the attribute filters of mask m joined by the relation (none:
// no condition), as attributesCond.
func (fq *facetQuery) attrsOK(bits, m uint64) bool {
	if m == 0 {
		return true
	}
	if fq.attrAny {
		return bits&m != 0
	}
	return bits&m == m
}

// maskWithout is the mask of the attribute filters not on attribute a
// (a = 0: all of them).
func (fq *facetQuery) maskWithout(a int64) uint64 {
	var m uint64
	for i, f := range fq.attrs {
		if f.attr != a {
			m |= 1 << i
		}
	}
	return m
}

// scan is the rows a pass over fq visits, by slot: those of its include
// set when that is small against the index (a search's candidates), in
// slot order; nil for every row.
func (ix *FacetIndex) scan(fq *facetQuery) []int32 {
	if fq.include == nil || len(fq.include) > len(ix.rows)/8 {
		if fq.cats != nil {
			fq.catsScanned = true
			return ix.categorySlots(fq)
		}
		return nil
	}
	slots := make([]int32, 0, len(fq.include))
	for id := range fq.include {
		if s, ok := ix.slot[id]; ok {
			slots = append(slots, s)
		}
	}
	slices.Sort(slots)
	return slots
}

// categorySlots is the slots of the rows in fq's categories, in slot
// order: every other condition of fq applies within them, and base no
// longer tests the categories (each test read the row's links, a cache
// miss a row). A category of a fifth of the catalogue is a fifth of the
// rows to visit (each row is a cache miss or two: the pass over 100,000
// rows was most of a category page's work in the shop). Made on first
// use after each change to the rows. The caller holds ix.mu (read).
func (ix *FacetIndex) categorySlots(fq *facetQuery) []int32 {
	ix.catMu.Lock()
	defer ix.catMu.Unlock()
	if ix.catGen != ix.gen || len(ix.catSlots) >= maxCategorySlotLists {
		ix.catSlots, ix.catGen = map[string][]int32{}, ix.gen
	}
	if slots, ok := ix.catSlots[fq.catKey]; ok {
		return slots
	}
	slots := []int32{}
	for k := range ix.rows {
		r := &ix.rows[k]
		if r.id != 0 && fq.inCategories(r) {
			slots = append(slots, int32(k))
		}
	}
	ix.catSlots[fq.catKey] = slots
	return slots
}

func (ix *FacetIndex) scanLen(slots []int32) int {
	if slots == nil {
		return len(ix.rows)
	}
	return len(slots)
}

func (ix *FacetIndex) scanRow(slots []int32, k int) *facetRow {
	if slots == nil {
		return &ix.rows[k]
	}
	return &ix.rows[slots[k]]
}

// countAll counts want and the total over the index, with the same
// definitions as catalog.CountFacets over the SQL methods: each facet
// without its own filter.
//
// It also returns the ids of the products q selects (in the index's
// order) while they are at most limit (nil beyond; limit < 0: none kept),
// or, with an order, the first order.depth of them in that order.
func (ix *FacetIndex) countAll(fq *facetQuery, want catalog.FacetRequest, limit int, order *shopOrder) (catalog.Facets, int, []int64) {
	var matched []int64
	if limit >= 0 && order == nil {
		matched = []int64{}
	}
	var f catalog.Facets
	all := fq.maskWithout(0)
	type termCount struct {
		attr int64
		mask uint64
		n    []int32 // by dense term number
		c    map[int64]int
	}
	var tcs []termCount
	if len(want.Attributes) > 0 {
		f.Terms = map[int64]map[int64]int{}
	}
	for _, a := range want.Attributes {
		m := all
		if a.QueryType != "and" {
			m = fq.maskWithout(a.AttributeID)
		}
		c := map[int64]int{}
		f.Terms[a.AttributeID] = c
		tcs = append(tcs, termCount{attr: a.AttributeID, mask: m, n: make([]int32, len(ix.termID)), c: c})
	}
	var lo, hi int64
	hasRange := false
	var ratings [6]int
	type strCount struct {
		s string
		n int
	}
	var stock []strCount // a few statuses: a slice beats a map per row
	total, onSale := 0, 0
	slots := ix.scan(fq)
	for k := range ix.scanLen(slots) {
		r := ix.scanRow(slots, k)
		if r.id == 0 || !fq.base(r) {
			continue
		}
		price, rating, st, sale := fq.price(r), fq.rating(r), fq.stockOK(r), fq.sale(r)
		bits := fq.attrBits(r)
		attrs := fq.attrsOK(bits, all)
		if price && rating && st && attrs {
			if sale {
				total++
				if order != nil {
					order.add(r)
				}
				if matched != nil {
					if total > limit {
						matched = nil
					} else {
						matched = append(matched, r.id)
					}
				}
			}
			if r.onSale {
				onSale++ // q with its sale filter set to on sale
			}
		}
		if want.PriceRange && rating && st && sale && attrs && r.hasPrice {
			if !hasRange || r.price < lo {
				lo = r.price
			}
			if !hasRange || r.price > hi {
				hi = r.price
			}
			hasRange = true
		}
		if want.Ratings && price && st && sale && attrs && r.rating > 0 {
			ratings[r.rating]++
		}
		if want.StockStatus && price && rating && sale && attrs {
			k := 0
			for k < len(stock) && stock[k].s != r.stock {
				k++
			}
			if k == len(stock) {
				stock = append(stock, strCount{s: r.stock})
			}
			stock[k].n++
		}
		if len(tcs) > 0 && price && rating && st && sale {
			for _, tc := range tcs {
				if !fq.attrsOK(bits, tc.mask) {
					continue
				}
				for _, d := range r.dense {
					if ix.termAttr[d] == tc.attr {
						tc.n[d]++
					}
				}
			}
		}
	}
	for _, tc := range tcs {
		for d, n := range tc.n {
			if n > 0 {
				tc.c[ix.termID[d]] = int(n)
			}
		}
	}
	if want.PriceRange {
		f.PriceRange = &catalog.PriceBounds{}
		if hasRange {
			f.PriceRange.Min, f.PriceRange.Max = &lo, &hi
		}
	}
	if want.Ratings {
		f.Ratings = map[int]int{}
		for r, n := range ratings {
			if n > 0 {
				f.Ratings[r] = n
			}
		}
	}
	if want.StockStatus {
		f.StockStatus = map[string]int{}
		for _, c := range stock {
			f.StockStatus[c.s] = c.n
		}
	}
	if want.OnSale {
		f.OnSale = onSale
	}
	if order != nil {
		matched = order.ids()
	}
	return f, total, matched
}

// facetDriveRows caps the matches that drive a listing's page
// (QueryProducts, facetDriveLimit).
var facetDriveRows = 2000

// facetDriveLimit is the number of matches under which the facet index's
// matches drive q's page (joined, probed and sorted) rather than the
// listing being read in its order with each row probed. Read in order, the
// page's last row comes after about its position × listed / matches rows;
// driving costs about every match, each dearer (measured on SQLite at
// 100,000 products: 1,100 matches driven cost more than the ordered read),
// so matches drive when matches² × 4 ≤ position × listed.
func facetDriveLimit(q catalog.ProductQuery, listed int) int {
	perPage := q.PerPage
	if perPage <= 0 {
		perPage = 10
	}
	reach := float64(perPage*max(q.Page, 1)) * float64(listed) / 4
	return min(facetDriveRows, int(math.Sqrt(reach)))
}

// matching counts what fq selects, and returns the ids when there are at
// most limit of them (nil otherwise).
func (ix *FacetIndex) matching(fq *facetQuery, limit int) (int, []int64) {
	all := fq.maskWithout(0)
	n := 0
	ids := []int64{}
	slots := ix.scan(fq)
	for k := range ix.scanLen(slots) {
		r := ix.scanRow(slots, k)
		if r.id == 0 || !fq.base(r) || !fq.price(r) || !fq.rating(r) || !fq.stockOK(r) || !fq.sale(r) || !fq.attrsOK(fq.attrBits(r), all) {
			continue
		}
		n++
		if ids != nil {
			if n > limit {
				ids = nil
			} else {
				ids = append(ids, r.id)
			}
		}
	}
	return n, ids
}

// facets runs fn over the index brought up to date with the change log;
// ok is false when the store keeps no index or q is not one it answers.
// cats are q's categories with their descendants when the caller has them
// (nil: read here); hits a search's candidates when the caller read them
// (searchHits; nil: read here).
func (db *Catalog) facets(ctx context.Context, q catalog.ProductQuery, cats []int64, hits map[int64]int, search bool, fn func(ix *FacetIndex, fq *facetQuery)) (bool, error) {
	ix := db.Facets
	if ix == nil || !facetable(q, search) {
		return false, nil
	}
	if cats == nil {
		var err error
		if cats, err = db.queryCategories(ctx, q); err != nil {
			return false, err
		}
	}
	if hits == nil && strings.TrimSpace(q.Search) != "" {
		var err error
		// The counts need the candidates, not their ranks.
		if hits, _, err = db.searchHits(ctx, q, cats); err != nil {
			return false, err
		}
	}
	if err := db.syncFacets(ctx, ix); err != nil {
		return false, err
	}
	fq := compileFacetQuery(q, cats)
	if hits != nil {
		found := make(map[int64]bool, len(hits))
		for id := range hits {
			found[id] = true
		}
		fq.include = intersect(fq.include, found)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	fn(ix, &fq)
	return true, nil
}

// searchHits is q's search candidates, the rows selection joins the
// listing to (search.go), by id with their rank: the index counts over
// them, and QueryProductsFaceted's page joins them. Empty (not nil) when
// the query has nothing to look for. SQLite's matches anywhere that are
// not name matches hold searchRankPending until rank reads them
// (sqliteSearchHits); rank is nil where every rank is read.
func (db *Catalog) searchHits(ctx context.Context, q catalog.ProductQuery, cats []int64) (map[int64]int, func(context.Context, []int64) error, error) {
	plan, err := catalog.PlanSearch(ctx, db, q.Search, q.Synonyms)
	if err != nil {
		return nil, nil, err
	}
	hits := map[int64]int{}
	if len(plan.Clauses) == 0 {
		return hits, nil, nil // only punctuation: nothing found
	}
	if db.Engine == sqlcore.SQLite {
		return db.sqliteSearchHits(ctx, plan, strings.TrimSpace(q.Search), cats, q.SearchCandidates)
	}
	cand, args := db.searchCandidates(plan, strings.TrimSpace(q.Search), cats, q.SearchCandidates)
	rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(`SELECT sid, srank FROM (`+cand+`) c`), args...)
	if err != nil {
		return nil, nil, fmt.Errorf("search candidates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var rank int
		if err := rows.Scan(&id, &rank); err != nil {
			return nil, nil, fmt.Errorf("search candidates: %w", err)
		}
		hits[id] = rank
	}
	return hits, nil, rows.Err()
}

// FilterAttributes implements catalog.Store: the global attributes and
// their terms, kept with the facet index from its build (a taxonomy
// change, which every attribute and term write records, rebuilds it), so
// a listing reads them once per taxonomy change instead of once per
// page. Their Count fields are 0. Without an index they are read each
// time.
func (db *Catalog) FilterAttributes(ctx context.Context) ([]catalog.FilterAttribute, error) {
	ix := db.Facets
	if ix == nil {
		return db.loadFilterAttributes(ctx)
	}
	if err := db.syncFacets(ctx, ix); err != nil {
		return nil, err
	}
	ix.mu.RLock()
	attrs, builds := ix.attrs, ix.builds
	current := attrs != nil && ix.attrsAt == builds
	ix.mu.RUnlock()
	if current {
		return attrs, nil
	}
	// Read after the sync: at least as new as build builds (a taxonomy
	// change committed since is applied by the next sync, which builds
	// again and drops these).
	attrs, err := db.loadFilterAttributes(ctx)
	if err != nil {
		return nil, err
	}
	ix.mu.Lock()
	if ix.built && ix.builds == builds {
		ix.attrs, ix.attrsAt = attrs, builds
	}
	ix.mu.Unlock()
	return attrs, nil
}

// loadFilterAttributes reads the global attributes and their terms in two
// statements, without their product counts.
func (db *Catalog) loadFilterAttributes(ctx context.Context) ([]catalog.FilterAttribute, error) {
	attrs, err := sqlcore.SelectAs(ctx, db.Read, attributeRow.attribute, `SELECT a.id, a.name, a.slug, a.type, a.order_by, a.has_archives,
		a.filterable, a.filter_query_type, 0 AS count FROM attributes a ORDER BY a.name, a.id`)
	if err != nil {
		return nil, fmt.Errorf("filter attributes: %w", err)
	}
	terms, err := sqlcore.SelectAs(ctx, db.Read, termRow.term, `SELECT t.id, t.attribute_id, t.name, t.slug, t.description, t.color, t.image_url,
		t.menu_order, 0 AS count FROM attribute_terms t ORDER BY t.menu_order, t.name, t.id`)
	if err != nil {
		return nil, fmt.Errorf("filter attributes: %w", err)
	}
	byAttr := map[int64][]catalog.AttrTerm{}
	for _, t := range terms {
		byAttr[t.AttributeID] = append(byAttr[t.AttributeID], t)
	}
	out := make([]catalog.FilterAttribute, len(attrs))
	for i, a := range attrs {
		out[i] = catalog.FilterAttribute{Attribute: a, Terms: byAttr[a.ID]}
	}
	return out, nil
}

// intersect is a ∩ b, where a nil a is every id.
func intersect(a, b map[int64]bool) map[int64]bool {
	if a == nil {
		return b
	}
	out := map[int64]bool{}
	for id := range b {
		if a[id] {
			out[id] = true
		}
	}
	return out
}

// syncFacets brings ix up to date with the change log. A refresh that
// fails part way leaves the index to be built again on next use (its
// version may have moved past entries it did not apply).
func (db *Catalog) syncFacets(ctx context.Context, ix *FacetIndex) error {
	last, err := db.LastChange(ctx)
	if err != nil {
		return err
	}
	ix.mu.RLock()
	current := ix.built && ix.version >= last && len(ix.gaps) == 0
	ix.mu.RUnlock()
	if current {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	err = db.refreshFacets(ctx, ix, last)
	if err != nil {
		ix.built = false
	}
	return err
}

// refreshFacets applies the change log up to last (under ix.mu).
func (db *Catalog) refreshFacets(ctx context.Context, ix *FacetIndex, last int64) error {
	if !ix.built {
		return db.buildFacets(ctx, ix, last)
	}
	now := time.Now()
	var changed []int64
	rebuild := false
	note := func(cs []Change) {
		for _, c := range cs {
			switch {
			case c.ProductID != 0:
				changed = append(changed, c.ProductID)
			case c.Kind == "taxonomy":
				rebuild = true
			}
		}
	}
	if len(ix.gaps) > 0 {
		var ids []int64
		for id, at := range ix.gaps {
			if now.Sub(at) > facetGapWait {
				delete(ix.gaps, id) // rolled back
				continue
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for len(ids) > 0 {
			n := min(len(ids), facetChangeBatch)
			found, err := db.ChangesIn(ctx, ids[:n])
			if err != nil {
				return err
			}
			ids = ids[n:]
			for _, c := range found {
				delete(ix.gaps, c.ID)
			}
			note(found)
		}
	}
	for ix.version < last {
		cs, err := db.ChangesSince(ctx, ix.version, facetChangeBatch)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			break
		}
		ix.skipped(db.Engine, ix.version, cs, now)
		note(cs)
		ix.version = cs[len(cs)-1].ID
	}
	if rebuild {
		return db.buildFacets(ctx, ix, ix.version)
	}
	return db.reloadFacets(ctx, ix, changed)
}

// skipped notes the ids missing between from and the entries read, on
// PostgreSQL (on SQLite ids commit in order: a missing one was rolled back).
func (ix *FacetIndex) skipped(engine string, from int64, cs []Change, now time.Time) {
	if engine != sqlcore.Postgres {
		return
	}
	if ix.gaps == nil {
		ix.gaps = map[int64]time.Time{}
	}
	prev := from
	for _, c := range cs {
		if c.ID-prev <= 1000 { // a larger jump is a sequence reset, not a gap
			for id := prev + 1; id < c.ID && len(ix.gaps) < 10000; id++ {
				ix.gaps[id] = now
			}
		}
		prev = c.ID
	}
}

// buildFacets loads every listed product; version is the newest change id
// read before.
func (db *Catalog) buildFacets(ctx context.Context, ix *FacetIndex, version int64) error {
	ix.built, ix.slot, ix.rows, ix.free, ix.version = false, map[int64]int32{}, nil, nil, version
	ix.builds++
	ix.gen++
	ix.attrs = nil
	ix.termDense, ix.termAttr, ix.termID = map[int64]int32{}, nil, nil
	if db.Engine == sqlcore.Postgres && version > 1 {
		// Transactions still open: ids below the newest not yet visible.
		from := max(0, version-facetStartGaps)
		recent, err := db.ChangesSince(ctx, from, facetStartGaps)
		if err != nil {
			return err
		}
		ix.skipped(db.Engine, from, recent, time.Now())
	}
	if err := db.loadFacetRows(ctx, ix, "", nil); err != nil {
		return err
	}
	var err error
	if ix.bytewise, err = db.namesBytewise(ctx); err != nil {
		return err
	}
	ix.built = true
	return nil
}

// namesBytewise tells whether ORDER BY name sorts byte by byte: always on
// SQLite (the column's collation is BINARY); on PostgreSQL when the
// database's collation is C, POSIX or C.UTF-8 (code point order, which is
// UTF-8's byte order) under the libc or builtin provider, never ICU.
func (db *Catalog) namesBytewise(ctx context.Context) (bool, error) {
	if db.Engine != sqlcore.Postgres {
		return true, nil
	}
	var coll string
	if err := db.Read.QueryRowxContext(ctx, `SELECT datcollate FROM pg_database WHERE datname = current_database()`).Scan(&coll); err != nil {
		return false, fmt.Errorf("facet index: collation: %w", err)
	}
	switch strings.ToLower(coll) {
	case "c", "posix", "c.utf-8", "c.utf8":
	default:
		return false, nil
	}
	// The provider is named from PostgreSQL 15 on; before, it is libc.
	var provider string
	if err := db.Read.QueryRowxContext(ctx, `SELECT datlocprovider::text FROM pg_database WHERE datname = current_database()`).Scan(&provider); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42703" { // undefined_column
			return true, nil
		}
		return false, fmt.Errorf("facet index: collation provider: %w", err)
	}
	return provider != "i", nil
}

// reloadFacets reloads the products ids (and the parents of those that are
// variations): dropped, then read again if listed.
func (db *Catalog) reloadFacets(ctx context.Context, ix *FacetIndex, ids []int64) error {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	if len(ids) > 0 {
		ix.gen++ // rows change: the category lists are made again
	}
	for len(ids) > 0 {
		n := min(len(ids), facetReloadBatch)
		batch := ids[:n]
		ids = ids[n:]
		in, args := sqlcore.InClause(batch)
		var parents []int64
		if err := db.Read.SelectContext(ctx, &parents, db.Read.Rebind(`SELECT DISTINCT parent_id FROM products WHERE id IN `+in+` AND parent_id IS NOT NULL`), args...); err != nil {
			return fmt.Errorf("facet index: %w", err)
		}
		batch = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(batch), parents...))))
		for _, id := range batch {
			if s, ok := ix.slot[id]; ok {
				ix.rows[s] = facetRow{}
				ix.free = append(ix.free, s)
				delete(ix.slot, id)
			}
		}
		in, args = sqlcore.InClause(batch)
		if err := db.loadFacetRows(ctx, ix, in, args); err != nil {
			return err
		}
	}
	return nil
}

// loadFacetRows reads the listed products whose id is in (in, args) (all
// when in is ""), with their links and terms, into ix.
func (db *Catalog) loadFacetRows(ctx context.Context, ix *FacetIndex, in string, args []any) error {
	only := func(col string) string {
		if in == "" {
			return ""
		}
		return " AND " + col + " IN " + in
	}
	rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(`SELECT id, catalog_visibility, sort_price, average_rating, on_sale, featured, stock_status, type, menu_order, name
		FROM products WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden'`+only("id")), args...)
	if err != nil {
		return fmt.Errorf("facet index: %w", err)
	}
	added := map[int64]int32{}
	for rows.Next() {
		var r facetRow
		var price sql.NullInt64
		var avg float64
		if err := rows.Scan(&r.id, &r.vis, &price, &avg, &r.onSale, &r.featured, &r.stock, &r.typ, &r.menuOrder, &r.name); err != nil {
			rows.Close()
			return fmt.Errorf("facet index: %w", err)
		}
		r.price, r.hasPrice, r.rating = price.Int64, price.Valid, bucketRating(avg)
		if r.folded = catalog.FoldSearch(r.name); r.folded == r.name {
			r.folded = r.name // one copy where folding changes nothing
		}
		r.vis, r.stock, r.typ = ix.intern(r.vis), ix.intern(r.stock), ix.intern(r.typ)
		var s int32
		if k := len(ix.free); k > 0 {
			s, ix.free = ix.free[k-1], ix.free[:k-1]
			ix.rows[s] = r
		} else {
			s = int32(len(ix.rows))
			ix.rows = append(ix.rows, r)
		}
		ix.slot[r.id], added[r.id] = s, s
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("facet index: %w", err)
	}
	if len(added) == 0 {
		return nil
	}
	links := func(query string, fn func(r *facetRow, a, b int64)) error {
		rows, err := db.Read.QueryxContext(ctx, db.Read.Rebind(query), args...)
		if err != nil {
			return fmt.Errorf("facet index: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, a, b int64
			if err := rows.Scan(&id, &a, &b); err != nil {
				return fmt.Errorf("facet index: %w", err)
			}
			if s, ok := added[id]; ok {
				fn(&ix.rows[s], a, b)
			}
		}
		return rows.Err()
	}
	if err := links(`SELECT product_id, category_id, 0 FROM product_categories WHERE 1 = 1`+only("product_id"), func(r *facetRow, c, _ int64) {
		r.cats = append(r.cats, c)
	}); err != nil {
		return err
	}
	if err := links(`SELECT product_id, tag_id, 0 FROM product_tags WHERE 1 = 1`+only("product_id"), func(r *facetRow, t, _ int64) {
		r.tags = append(r.tags, t)
	}); err != nil {
		return err
	}
	if err := links(`SELECT v.product_id, v.term_id, t.attribute_id FROM product_attribute_values v
		JOIN attribute_terms t ON t.id = v.term_id WHERE v.term_id IS NOT NULL`+only("v.product_id")+` ORDER BY v.product_id, v.term_id`,
		func(r *facetRow, term, attr int64) {
			if n := len(r.terms); n > 0 && r.terms[n-1] == term {
				return // a term listed twice counts once
			}
			d, ok := ix.termDense[term]
			if !ok {
				d = int32(len(ix.termID))
				ix.termDense[term] = d
				ix.termID, ix.termAttr = append(ix.termID, term), append(ix.termAttr, attr)
			}
			r.terms, r.dense = append(r.terms, term), append(r.dense, d)
		}); err != nil {
		return err
	}
	for _, s := range added {
		r := &ix.rows[s]
		slices.Sort(r.cats)
		r.cats = slices.Compact(r.cats)
		slices.Sort(r.tags)
		r.tags = slices.Compact(r.tags)
	}
	return nil
}

// shopOrder picks, during the index's pass, the first depth products of a
// listing in the shop's own order (menu_order, name, id; all descending
// when desc), as SQL sorts them where names sort byte by byte, as Go
// compares strings (FacetIndex.bytewise). A filtered listing read in
// that order in SQL probes every product it skips (a colour and a price
// range that leave one product in 40 read about 1,000 rows to fill a page
// of 24); here the page costs a comparison per match, most of them
// against the worst kept row only, and its products are then read by id.
type shopOrder struct {
	desc  bool
	depth int
	heap  []*facetRow // the best depth so far, a max-heap: the worst on top
}

// maxShopOrderDepth bounds the rows an index pass keeps for a page: deeper
// pages are read in SQL.
const maxShopOrderDepth = 2000

// newShopOrder is the index's order for q's page, or nil when the index
// cannot give it: another order, a search (ranked) or a page too deep. An
// index whose store does not sort names byte by byte does not use it
// (FacetIndex.bytewise).
func newShopOrder(q catalog.ProductQuery, searching bool) *shopOrder {
	if searching {
		return nil
	}
	switch q.OrderBy {
	case "", "menu_order", "relevance":
	default:
		return nil
	}
	depth := perPageOf(q) * max(q.Page, 1)
	if depth > maxShopOrderDepth {
		return nil
	}
	return &shopOrder{desc: strings.EqualFold(q.Order, "desc"), depth: depth, heap: make([]*facetRow, 0, depth)}
}

// before tells whether a sorts before b.
func (o *shopOrder) before(a, b *facetRow) bool {
	c := cmpShop(a, b)
	if o.desc {
		return c > 0
	}
	return c < 0
}

func cmpShop(a, b *facetRow) int {
	if a.menuOrder != b.menuOrder {
		if a.menuOrder < b.menuOrder {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	if a.id < b.id {
		return -1
	} else if a.id > b.id {
		return 1
	}
	return 0
}

// add keeps r when it is among the first depth seen so far.
func (o *shopOrder) add(r *facetRow) {
	h := o.heap
	if len(h) < o.depth {
		h = append(h, r)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !o.before(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		o.heap = h
		return
	}
	if len(h) == 0 || !o.before(r, h[0]) {
		return
	}
	h[0] = r
	for i := 0; ; {
		w, l, rr := i, 2*i+1, 2*i+2
		if l < len(h) && o.before(h[w], h[l]) {
			w = l
		}
		if rr < len(h) && o.before(h[w], h[rr]) {
			w = rr
		}
		if w == i {
			break
		}
		h[w], h[i] = h[i], h[w]
		i = w
	}
}

// ids is the kept products' ids in the order.
func (o *shopOrder) ids() []int64 {
	slices.SortFunc(o.heap, func(a, b *facetRow) int {
		if o.before(a, b) {
			return -1
		}
		return 1
	})
	out := make([]int64, len(o.heap))
	for i, r := range o.heap {
		out[i] = r.id
	}
	return out
}

// exactNames gives rank 0 in hits to the products among ids whose folded
// name is name (the search's exact-name rank), read from the index instead
// of from each product's search text; it returns the ids the index does
// not hold, for the caller to check in SQL.
func (ix *FacetIndex) exactNames(ids []int64, name string, hits map[int64]int) []int64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var rest []int64
	for _, id := range ids {
		s, ok := ix.slot[id]
		if !ok {
			rest = append(rest, id)
			continue
		}
		if ix.rows[s].folded == name {
			hits[id] = 0
		}
	}
	return rest
}
