package catalogstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
// product (its name, SKUs and its variations', descriptions and tag names),
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
	skus := []string{p.SKU.String}
	var vskus []string
	if err := tx.SelectContext(ctx, &vskus, tx.Rebind(`SELECT sku FROM products WHERE parent_id = ? AND sku IS NOT NULL ORDER BY menu_order, id`), id); err != nil {
		return false, err
	}
	var tags []string
	if err := tx.SelectContext(ctx, &tags, tx.Rebind(`SELECT t.name FROM product_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.product_id = ? ORDER BY t.name`), id); err != nil {
		return false, err
	}
	doc := catalog.NewSearchDoc(p.Name, append(skus, vskus...), p.Short, p.Description, tags)
	if found && old == doc {
		return false, nil
	}
	if db.Engine == sqlcore.Postgres {
		_, err = tx.ExecContext(ctx, `INSERT INTO product_search (product_id, name, sku, body) VALUES ($1, $2, $3, $4)
			ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, sku = excluded.sku, body = excluded.body`, id, doc.Name, doc.SKU, doc.Body)
		return true, err
	}
	if found {
		if err := db.unindex(ctx, tx, id); err != nil {
			return false, err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO products_fts (rowid, name, sku, body) VALUES (?, ?, ?, ?)`, id, doc.Name, doc.SKU, doc.Body)
	return true, err
}

func (db *Catalog) indexedDoc(ctx context.Context, tx *sqlx.Tx, id int64) (catalog.SearchDoc, bool, error) {
	var d struct {
		Name string `db:"name"`
		SKU  string `db:"sku"`
		Body string `db:"body"`
	}
	q := `SELECT name, sku, body FROM products_fts WHERE rowid = ?`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT name, sku, body FROM product_search WHERE product_id = $1`
	}
	err := tx.GetContext(ctx, &d, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return catalog.SearchDoc{}, false, nil
	}
	if err != nil {
		return catalog.SearchDoc{}, false, fmt.Errorf("read search index: %w", err)
	}
	return catalog.SearchDoc{Name: d.Name, SKU: d.SKU, Body: d.Body}, true, nil
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

// searchMatch writes SQLite's FTS5 match expression for the words: all
// words must match, the last one as a prefix. name restricts the match to
// the product name.
func searchMatch(words []string, name bool) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = `"` + w + `"`
		if i == len(words)-1 {
			parts[i] += "*"
		}
	}
	expr := strings.Join(parts, " ")
	if name {
		return "name : (" + expr + ")"
	}
	return expr
}

// pgPrefixMax is the longest prefix, in characters, that PostgreSQL's
// search columns hold as a lexeme of its own (search_prefixes in migration
// 00004): 'hoo*' for every word starting with "hoo".
const pgPrefixMax = 8

// pgMatch writes PostgreSQL's tsquery for the words as an SQL expression:
// all words must match, the last one as a prefix. A last word of at most
// pgPrefixMax ASCII letters and digits is looked up as its prefix lexeme
// ('hoo*'), one exact GIN entry, instead of as 'hoo':*, which walks and
// merges every lexeme starting with it (thousands: each SKU is a lexeme)
// at about three times the cost per matching row. Longer or non-ASCII
// last words keep :* (the parser turns an ASCII letter-and-digit word into
// exactly that lexeme; other scripts go through to_tsquery as before).
//
// The query is written into the SQL, not bound: with a parameter,
// PostgreSQL switches a prepared statement to a generic plan after five
// runs, planned for a tsquery of unknown selectivity, and that plan walks
// the GIN index for every match of a common word ("creme": 20,000 rows,
// 22 ms at 100,000 products) where a plan for the actual query reads the
// table until it has the few hundred candidates it needs. Folded words
// hold only letters and digits, and quote doubles quotes all the same.
func pgMatch(words []string) string {
	last := words[len(words)-1]
	if len(last) <= pgPrefixMax && asciiAlnum(last) {
		lit := quote(pgQuote(last+"*")) + "::tsquery" // a lexeme the parser never produces: no clash with words
		if len(words) == 1 {
			return lit
		}
		return "(to_tsquery('simple', " + quote(pgWords(words[:len(words)-1])) + ") && " + lit + ")"
	}
	q := pgWords(words[:len(words)-1]) + sep(len(words) > 1) + pgQuote(last) + ":*"
	return "to_tsquery('simple', " + quote(q) + ")"
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

// pgWords is to_tsquery's text for whole words, all required. Folded words
// hold only letters and digits: quoting is enough.
func pgWords(words []string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = pgQuote(w)
	}
	return strings.Join(parts, " & ")
}

func sep(b bool) string {
	if b {
		return " & "
	}
	return ""
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

// searchCandidates is a subquery of (sid, srank) rows: up to limit (at
// most SearchCandidates) products whose name matches every word (srank 0) and up
// to limit more that match anywhere (srank 1), optionally only
// in the given categories. Its cost is bounded by the caps, not by how
// many products match.
func (db *Catalog) searchCandidates(words []string, cats []int64, limit int) (string, []any) {
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
	if db.Engine == sqlcore.Postgres {
		match := pgMatch(words)
		one = func(name bool) (string, []any) {
			col := "doc_tsv"
			if name {
				col = "name_tsv"
			}
			return `SELECT product_id AS id FROM product_search WHERE ` + col + ` @@ ` + match + catCond("product_id") + fmt.Sprintf(" LIMIT %d", limit),
				slices.Clip(catArgs)
		}
	} else {
		one = func(name bool) (string, []any) {
			return `SELECT rowid AS id FROM products_fts WHERE products_fts MATCH ?` + catCond("rowid") + fmt.Sprintf(" LIMIT %d", limit),
				append([]any{searchMatch(words, name)}, catArgs...)
		}
	}
	nq, nargs := one(true)
	dq, dargs := one(false)
	q := `SELECT id AS sid, MIN(r) AS srank FROM (
		SELECT id, 0 AS r FROM (` + nq + `) n
		UNION ALL
		SELECT id, 1 AS r FROM (` + dq + `) d
	) c GROUP BY id`
	return q, append(nargs, dargs...)
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
