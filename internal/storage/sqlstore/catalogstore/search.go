package catalogstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// SearchCandidates caps how many index matches a search considers, per
// match class (name matches, then matches anywhere). Ranking and sorting
// then work on at most twice this many rows, so a search costs the same
// at 1,000 or 1,000,000 products. The trade-off: a query that matches more
// products than this (a very common word) sees only the first
// SearchCandidates of them in index order (oldest products first), and its
// total is capped accordingly.
const SearchCandidates = 1000

// searchable is the condition for a product to be in the search index:
// published and not hidden. Shop-only ("catalog") products are indexed too,
// because the Store API's search finds them as WooCommerce's does; the
// shop's own search (results page, live search) filters them out with its
// visibility condition.
func searchable(status, visibility string) bool {
	return status == catalog.StatusPublish && visibility != catalog.VisibilityHidden
}

// indexProduct brings a parent product's search row in step with the
// product (its name, SKUs and its variations', category names, attribute
// values, descriptions and tag names),
// inside the caller's transaction. It reports whether the indexed text or
// the product's presence in the index changed.
func (db *Catalog) indexProduct(ctx context.Context, tx *sqlx.Tx, id int64) (bool, error) {
	var p struct {
		Name        string         `db:"name"`
		SKU         sql.NullString `db:"sku"`
		Status      string         `db:"status"`
		Visibility  string         `db:"catalog_visibility"`
		Short       string         `db:"short_description"`
		Description string         `db:"description"`
	}
	if err := tx.GetContext(ctx, &p, tx.Rebind(`SELECT name, sku, status, catalog_visibility, short_description, description FROM products WHERE id = ? AND parent_id IS NULL`), id); err != nil {
		return false, fmt.Errorf("index product %d: %w", id, err)
	}
	old, found, err := db.indexedDoc(ctx, tx, id)
	if err != nil {
		return false, err
	}
	if !searchable(p.Status, p.Visibility) {
		if !found {
			return false, nil
		}
		return true, db.unindex(ctx, tx, id)
	}
	var vskus []string
	if err := tx.SelectContext(ctx, &vskus, tx.Rebind(`SELECT sku FROM products WHERE parent_id = ? AND sku IS NOT NULL ORDER BY menu_order, id`), id); err != nil {
		return false, err
	}
	src := catalog.SearchSource{Name: p.Name, SKUs: append([]string{p.SKU.String}, vskus...), Short: p.Short, Description: p.Description}
	for _, q := range []struct {
		dst *[]string
		sql string
	}{
		{&src.Tags, `SELECT t.name FROM product_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.product_id = ? ORDER BY t.name`},
		{&src.Categories, `SELECT c.name FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = ? ORDER BY c.name`},
		// A term's value is its current name (a renamed term reindexes
		// its products); a custom attribute's is the text it was given.
		{&src.Attributes, `SELECT COALESCE(t.name, v.value) FROM product_attribute_values v LEFT JOIN attribute_terms t ON t.id = v.term_id
			WHERE v.product_id = ? ORDER BY v.position, v.value_pos`},
	} {
		if err := tx.SelectContext(ctx, q.dst, tx.Rebind(q.sql), id); err != nil {
			return false, err
		}
	}
	doc := catalog.NewSearchDoc(src)
	if found && old == doc {
		return false, nil
	}
	if err := db.addVocabulary(ctx, tx, doc, old); err != nil {
		return false, err
	}
	if db.Engine == sqlcore.Postgres {
		_, err = tx.ExecContext(ctx, `INSERT INTO product_search (product_id, name, sku, cats, attrs, short, body) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, sku = excluded.sku, cats = excluded.cats, attrs = excluded.attrs,
			short = excluded.short, body = excluded.body`, id, doc.Name, doc.SKU, doc.Cats, doc.Attrs, doc.Short, doc.Body)
		return true, err
	}
	if found {
		if err := db.unindex(ctx, tx, id); err != nil {
			return false, err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO products_fts (rowid, name, sku, cats, attrs, short, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, doc.Name, doc.SKU, doc.Cats, doc.Attrs, doc.Short, doc.Body)
	return true, err
}

// linkedSQL selects the parent products a category, tag or attribute term
// (by table) is on.
var linkedSQL = map[string]string{
	"categories":      `SELECT product_id FROM product_categories WHERE category_id = ?`,
	"tags":            `SELECT product_id FROM product_tags WHERE tag_id = ?`,
	"attribute_terms": `SELECT DISTINCT product_id FROM product_attribute_values WHERE term_id = ?`,
}

// linkedProducts lists the products a category, tag or attribute term is
// on: their search rows hold its name.
func (db *Catalog) linkedProducts(ctx context.Context, tx *sqlx.Tx, table string, id int64) ([]int64, error) {
	var ids []int64
	q := `SELECT DISTINCT COALESCE(p.parent_id, p.id) FROM products p WHERE p.id IN (` + linkedSQL[table] + `) ORDER BY 1`
	if err := tx.SelectContext(ctx, &ids, tx.Rebind(q), id); err != nil {
		return nil, fmt.Errorf("products of %s %d: %w", table, id, err)
	}
	return ids, nil
}

// storedName is the name a category, tag or attribute term (by table)
// has before its update ("" when there is none): its products' search
// rows hold it, so a rename indexes them again (reindexLinked).
func (db *Catalog) storedName(ctx context.Context, tx *sqlx.Tx, table string, id int64) (string, error) {
	var name string
	err := tx.GetContext(ctx, &name, tx.Rebind(`SELECT name FROM `+table+` WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// reindexLinked indexes again the products a category, tag or attribute
// term (by table) is on, after its rename.
func (db *Catalog) reindexLinked(ctx context.Context, tx *sqlx.Tx, table string, id int64) error {
	products, err := db.linkedProducts(ctx, tx, table, id)
	if err != nil {
		return err
	}
	for _, p := range products {
		if err := db.reindex(ctx, tx, p); err != nil {
			return err
		}
	}
	return nil
}

func (db *Catalog) indexedDoc(ctx context.Context, tx *sqlx.Tx, id int64) (catalog.SearchDoc, bool, error) {
	var d catalog.SearchDoc
	q := `SELECT name, sku, cats, attrs, short, body FROM products_fts WHERE rowid = ?`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT name, sku, cats, attrs, short, body FROM product_search WHERE product_id = $1`
	}
	err := tx.QueryRowContext(ctx, q, id).Scan(&d.Name, &d.SKU, &d.Cats, &d.Attrs, &d.Short, &d.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return catalog.SearchDoc{}, false, nil
	}
	if err != nil {
		return catalog.SearchDoc{}, false, fmt.Errorf("read search index: %w", err)
	}
	return d, true, nil
}

func (db *Catalog) unindex(ctx context.Context, tx *sqlx.Tx, id int64) error {
	q := `DELETE FROM products_fts WHERE rowid = ?`
	if db.Engine == sqlcore.Postgres {
		q = `DELETE FROM product_search WHERE product_id = $1`
	}
	_, err := tx.ExecContext(ctx, q, id)
	return err
}

// ReindexSearch rebuilds the search index from the catalogue, in batches
// of products per transaction, and returns how many products it looked at.
// Migrate calls it when the index is empty but the store has searchable
// products (right after the search migration on an existing store); run it
// by hand after changing how text is folded.
func (db *Catalog) ReindexSearch(ctx context.Context) (int, error) {
	var last int64
	n := 0
	for {
		var ids []int64
		if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM products WHERE parent_id IS NULL AND id > ? ORDER BY id LIMIT 500`), last); err != nil {
			return n, err
		}
		if len(ids) == 0 {
			return n, nil
		}
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			for _, id := range ids {
				if _, err := db.indexProduct(ctx, tx, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, fmt.Errorf("reindex search: %w", err)
		}
		n += len(ids)
		last = ids[len(ids)-1]
	}
}

// searchIndexNeedsBuild reports, with two cheap queries, whether the index
// is empty while the store has products search could show.
func (db *Catalog) searchIndexNeedsBuild(ctx context.Context) (bool, error) {
	var ids []int64
	q := `SELECT rowid FROM products_fts LIMIT 1`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT product_id FROM product_search LIMIT 1`
	}
	if err := db.Read.SelectContext(ctx, &ids, q); err != nil {
		return false, err
	}
	if len(ids) > 0 {
		return false, nil
	}
	err := db.Read.SelectContext(ctx, &ids, `SELECT id FROM products WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden' LIMIT 1`)
	return len(ids) > 0, err
}

// ftsMatch writes SQLite's FTS5 match expression for a plan: every
// clause, each any of its alternatives, each all of its terms. name
// restricts the match to the product name.
func ftsMatch(plan catalog.SearchPlan, name bool) string {
	clauses := make([]string, len(plan.Clauses))
	for i, cl := range plan.Clauses {
		alts := make([]string, len(cl))
		for j, alt := range cl {
			terms := make([]string, len(alt))
			for k, t := range alt {
				terms[k] = `"` + t.Word + `"`
				if t.Prefix {
					terms[k] += "*"
				}
			}
			alts[j] = "(" + strings.Join(terms, " AND ") + ")"
		}
		clauses[i] = "(" + strings.Join(alts, " OR ") + ")"
	}
	expr := strings.Join(clauses, " AND ")
	if name {
		return "name : (" + expr + ")"
	}
	return expr
}

// pgPrefixMax is the longest prefix, in characters, that PostgreSQL's
// search columns hold as a lexeme of its own (search_prefixes in migration
// 00004): 'hoo*' for every word starting with "hoo".
const pgPrefixMax = 8

// pgMatch writes PostgreSQL's tsquery for a plan as an SQL expression:
// the clauses joined by &&, each the || of its alternatives, each the &&
// of its terms. A prefix term of at most pgPrefixMax ASCII letters and
// digits is looked up as its prefix lexeme ('hoo*'), one exact GIN entry,
// instead of as 'hoo':*, which walks and merges every lexeme starting
// with it (thousands: each SKU is a lexeme) at about three times the cost
// per matching row. An ASCII letter-and-digit word is a tsquery literal
// (the parser turns it into exactly that lexeme); other scripts go
// through to_tsquery.
//
// The query is written into the SQL, not bound: with a parameter,
// PostgreSQL switches a prepared statement to a generic plan after five
// runs, planned for a tsquery of unknown selectivity, and that plan walks
// the GIN index for every match of a common word ("creme": 20,000 rows,
// 22 ms at 100,000 products) where a plan for the actual query reads the
// table until it has the few hundred candidates it needs. Folded words
// hold only letters and digits, and quote doubles quotes all the same.
func pgMatch(plan catalog.SearchPlan) string {
	term := func(t catalog.SearchTerm) string {
		switch {
		case t.Prefix && len(t.Word) <= pgPrefixMax && asciiAlnum(t.Word):
			return quote(pgQuote(t.Word+"*")) + "::tsquery" // a lexeme the parser never produces: no clash with words
		case t.Prefix:
			return "to_tsquery('simple', " + quote(pgQuote(t.Word)+":*") + ")"
		case asciiAlnum(t.Word):
			return quote(pgQuote(t.Word)) + "::tsquery"
		}
		return "to_tsquery('simple', " + quote(pgQuote(t.Word)) + ")"
	}
	clauses := make([]string, len(plan.Clauses))
	for i, cl := range plan.Clauses {
		alts := make([]string, len(cl))
		for j, alt := range cl {
			terms := make([]string, len(alt))
			for k, t := range alt {
				terms[k] = term(t)
			}
			alts[j] = "(" + strings.Join(terms, " && ") + ")"
		}
		clauses[i] = "(" + strings.Join(alts, " || ") + ")"
	}
	return "(" + strings.Join(clauses, " && ") + ")"
}

// pgQuote quotes a word for a tsquery.
func pgQuote(w string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(w, `\`, ""), "'", "''") + "'"
}

// quote writes s as an SQL string literal (standard_conforming_strings, the
// default since PostgreSQL 9.1; backslashes and question marks, which
// sqlx.Rebind would take for a placeholder, are dropped: folded words hold
// neither).
func quote(s string) string {
	s = strings.NewReplacer(`\`, "", "?", "").Replace(s)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func asciiAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// SearchRankElsewhere is the rank of a product that matches a search only
// in its description or tags, or across fields. Ranks, best first: 0 the
// name or SKU is the query, 1 the name holds it, 2 the SKU, 3 a category's
// name, 4 the attribute values, 5 the short description.
const SearchRankElsewhere = 6

// planHolds writes an SQL condition true when the index column col (folded
// words, space-separated) holds the whole plan: every clause, one of its
// alternatives, all of its terms, a prefix term as the start of a word.
func planHolds(plan catalog.SearchPlan, col, engine string) string {
	find := "instr(' ' || " + col + " || ' ', %s) > 0"
	if engine == sqlcore.Postgres {
		find = "strpos(' ' || " + col + " || ' ', %s) > 0"
	}
	clauses := make([]string, len(plan.Clauses))
	for i, cl := range plan.Clauses {
		alts := make([]string, len(cl))
		for j, alt := range cl {
			terms := make([]string, len(alt))
			for k, t := range alt {
				w := " " + t.Word
				if !t.Prefix {
					w += " "
				}
				terms[k] = fmt.Sprintf(find, quote(w))
			}
			alts[j] = "(" + strings.Join(terms, " AND ") + ")"
		}
		clauses[i] = "(" + strings.Join(alts, " OR ") + ")"
	}
	return "(" + strings.Join(clauses, " AND ") + ")"
}

// searchCandidates is a subquery of (sid, srank) rows, optionally only in
// the given categories: the products whose SKU (or a variation's) is the
// query as typed, and those whose folded name is the query (srank 0); up
// to limit (at most SearchCandidates) more whose name matches the plan
// (srank 1), and up to limit more that match it anywhere, ranked by the
// first field that holds the query (srank 2 to SearchRankElsewhere). Its
// cost is bounded by the caps, not by how many products match.
func (db *Catalog) searchCandidates(plan catalog.SearchPlan, query string, cats []int64, limit int) (string, []any) {
	if limit <= 0 || limit > SearchCandidates {
		limit = SearchCandidates
	}
	catCond := func(string) string { return "" }
	var catArgs []any
	if len(cats) > 0 {
		in, a := sqlcore.InClause(cats)
		catCond = func(col string) string {
			return " AND " + col + " IN (SELECT product_id FROM product_categories WHERE category_id IN " + in + ")"
		}
		catArgs = a
	}
	var one func(name bool) (string, []any)
	// A match anywhere ranks by the first field that holds the whole
	// query: checked in SQL on the (at most limit) rows the index found.
	anywhere := "CASE"
	for i, col := range []string{"sku", "cats", "attrs", "short"} {
		anywhere += fmt.Sprintf(" WHEN %s THEN %d", planHolds(plan, col, db.Engine), i+2)
	}
	anywhere += fmt.Sprintf(" ELSE %d END", SearchRankElsewhere)
	if db.Engine == sqlcore.Postgres {
		match := pgMatch(plan)
		one = func(name bool) (string, []any) {
			col, rank := "doc_tsv", anywhere
			if name {
				col, rank = "name_tsv", "CASE WHEN name = ? THEN 0 ELSE 1 END"
			}
			q := `SELECT product_id AS id, ` + rank + ` AS r FROM product_search WHERE ` + col + ` @@ ` + match + catCond("product_id") + fmt.Sprintf(" LIMIT %d", limit)
			if name {
				return q, append([]any{plan.Name}, catArgs...)
			}
			return q, slices.Clip(catArgs)
		}
	} else {
		one = func(name bool) (string, []any) {
			rank, args := anywhere, []any{ftsMatch(plan, name)}
			if name {
				rank, args = "CASE WHEN name = ? THEN 0 ELSE 1 END", []any{plan.Name, ftsMatch(plan, name)}
			}
			return `SELECT rowid AS id, ` + rank + ` AS r FROM products_fts WHERE products_fts MATCH ?` + catCond("rowid") + fmt.Sprintf(" LIMIT %d", limit),
				append(args, catArgs...)
		}
	}
	nq, nargs := one(true)
	dq, dargs := one(false)
	skus := []any{query, strings.ToUpper(query)}
	sq := `SELECT COALESCE(parent_id, id) AS id, 0 AS r FROM products
		WHERE sku IN (?, ?) AND sku IS NOT NULL AND sku <> '' AND status = 'publish'` + catCond("COALESCE(parent_id, id)")
	q := `SELECT id AS sid, MIN(r) AS srank FROM (
		SELECT id, r FROM (` + nq + `) n
		UNION ALL
		SELECT id, r FROM (` + dq + `) d
		UNION ALL
		SELECT id, r FROM (` + sq + `) k
	) c GROUP BY id`
	args := append(nargs, dargs...)
	args = append(args, skus...)
	return q, append(args, catArgs...)
}

// Analyze refreshes PostgreSQL's planner statistics (after a bulk load,
// where autovacuum has not caught up, or where it is off: without them the
// planner takes products for empty and joins search candidates by a nested
// scan, 300 ms at 10,000 products). SQLite needs none: it does nothing.
func (db *Catalog) Analyze(ctx context.Context) error {
	if db.Engine != sqlcore.Postgres {
		return nil
	}
	_, err := db.Write.ExecContext(ctx, `ANALYZE`)
	return err
}

// searchRankPending marks, in a search's hits, a match anywhere whose
// field rank (2 to SearchRankElsewhere) is not read yet: it ranks after
// every name match whatever its field, so a page the name matches fill
// never needs it (rankElsewhere reads it).
const searchRankPending = SearchRankElsewhere + 1

// sqliteSearchHits reads on SQLite the candidates searchCandidates
// selects, with the same ranks, in steps that read the index's stored
// columns only where a rank needs them: the name matches' ids and the
// matches anywhere's (each as its half of searchCandidates, without
// columns: the same rows); the name matches' names (the exact-name rank,
// 0); and the ranking columns of the matches anywhere that are not name
// matches (a name match ranks 0 or 1, under any rank of the other half,
// so its other columns change nothing). Both read the index's content
// table by rowid: a stored column read through the FTS5 table costs a
// lookup per row about three times as dear, which was most of
// searchCandidates' time at 100,000 products.
//
// The matches anywhere that are not name matches get searchRankPending,
// and rank reads their ranks when asked: for the ones a listing's filters
// kept, and only where the page reaches past the name matches.
func (db *Catalog) sqliteSearchHits(ctx context.Context, plan catalog.SearchPlan, query string, cats []int64, limit int) (hits map[int64]int, rank func(context.Context, []int64) error, err error) {
	if limit <= 0 || limit > SearchCandidates {
		limit = SearchCandidates
	}
	catCond := ""
	var catArgs []any
	if len(cats) > 0 {
		in, a := sqlcore.InClause(cats)
		catCond, catArgs = " AND %s IN (SELECT product_id FROM product_categories WHERE category_id IN "+in+")", a
	}
	cond := func(col string) string {
		if catCond == "" {
			return ""
		}
		return fmt.Sprintf(catCond, col)
	}
	ids := func(match string) ([]int64, error) {
		var out []int64
		q := `SELECT rowid FROM products_fts WHERE products_fts MATCH ?` + cond("rowid") + fmt.Sprintf(" LIMIT %d", limit)
		if err := db.Read.SelectContext(ctx, &out, q, append([]any{match}, catArgs...)...); err != nil {
			return nil, fmt.Errorf("search candidates: %w", err)
		}
		return out, nil
	}
	named, err := ids(ftsMatch(plan, true))
	if err != nil {
		return nil, nil, err
	}
	anywhere, err := ids(ftsMatch(plan, false))
	if err != nil {
		return nil, nil, err
	}
	hits = make(map[int64]int, len(named)+len(anywhere))
	for _, id := range named {
		hits[id] = 1
	}
	// The exact name: compared in the facet index, which keeps each
	// listed product's folded name (reading 1,000 names from the search
	// text was 40 % of this function at 100,000 products); without an
	// index, or for a product it does not hold, read from the index's
	// content table by rowid (through the FTS5 table each lookup costs
	// about three times as much).
	check := named
	if ix := db.Facets; ix != nil && len(named) > 0 {
		if err := db.syncFacets(ctx, ix); err != nil {
			return nil, nil, err
		}
		check = ix.exactNames(named, plan.Name, hits)
	}
	if len(check) > 0 {
		var exact []int64
		if err := db.Read.SelectContext(ctx, &exact, `SELECT c.id FROM json_each(?) j CROSS JOIN products_fts_content c ON c.id = j.value
			WHERE c.`+ftsContentColumn["name"]+` = ?`, idsJSON(check), plan.Name); err != nil {
			return nil, nil, fmt.Errorf("search candidates: %w", err)
		}
		for _, id := range exact {
			hits[id] = 0
		}
	}
	for _, id := range anywhere {
		if _, ok := hits[id]; !ok {
			hits[id] = searchRankPending
		}
	}
	rank = func(ctx context.Context, ids []int64) error { return db.rankElsewhere(ctx, plan, ids, hits) }
	var skus []int64
	if err := db.Read.SelectContext(ctx, &skus, `SELECT COALESCE(parent_id, id) FROM products
		WHERE sku IN (?, ?) AND sku IS NOT NULL AND sku <> '' AND status = 'publish'`+cond("COALESCE(parent_id, id)"),
		append([]any{query, strings.ToUpper(query)}, catArgs...)...); err != nil {
		return nil, nil, fmt.Errorf("search candidates: %w", err)
	}
	for _, id := range skus {
		hits[id] = 0
	}
	return hits, rank, nil
}

// rankElsewhere reads into hits the field rank of each of ids that is
// searchRankPending there: the first of the SKU, categories, attribute
// values and short description that holds the whole plan, else
// SearchRankElsewhere (searchCandidates' ranks), from the FTS5 content
// table by rowid.
func (db *Catalog) rankElsewhere(ctx context.Context, plan catalog.SearchPlan, ids []int64, hits map[int64]int) error {
	var pending []int64
	for _, id := range ids {
		if hits[id] == searchRankPending {
			pending = append(pending, id)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	rank := "CASE"
	for i, col := range []string{"sku", "cats", "attrs", "short"} {
		rank += fmt.Sprintf(" WHEN %s THEN %d", planHolds(plan, "c."+ftsContentColumn[col], sqlcore.SQLite), i+2)
	}
	rank += fmt.Sprintf(" ELSE %d END", SearchRankElsewhere)
	rows, err := db.Read.QueryContext(ctx, `SELECT c.id, `+rank+` FROM json_each(?) j CROSS JOIN products_fts_content c ON c.id = j.value`, idsJSON(pending))
	if err != nil {
		return fmt.Errorf("search candidates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var r int
		if err := rows.Scan(&id, &r); err != nil {
			return fmt.Errorf("search candidates: %w", err)
		}
		hits[id] = r
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search candidates: %w", err)
	}
	// A row gone from the index since (a product deleted): the last rank.
	for _, id := range pending {
		if hits[id] == searchRankPending {
			hits[id] = SearchRankElsewhere
		}
	}
	return nil
}

// ftsContentColumn names, by the FTS5 table's column, the column of its
// content table (products_fts_content, which FTS5 keeps for a table with
// its own content: id, then c0, c1, … in the order the table declares its
// columns, migration 00051).
var ftsContentColumn = map[string]string{"name": "c0", "sku": "c1", "cats": "c2", "attrs": "c3", "short": "c4", "body": "c5"}

// idsJSON writes ids as a JSON array.
func idsJSON(ids []int64) string {
	b := make([]byte, 0, 8*len(ids)+2)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}
