package catalogstore_test

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/storetest"
)

// TestSearchVectorsAnswerAsStoredColumns: PostgreSQL's search, matched
// against the vectors its indexes compute from the text (migration 00057),
// answers every search of a generated catalogue exactly as the query on
// the stored vector columns did before (00051's columns and indexes, added
// back to the test's table): the same products in the same order, the
// same totals, for prefixes, whole words, typos, plurals, synonyms, SKUs,
// several fields, in a category or not, and with candidates cut short
// (a common word's first candidates in the table's order). SQLite's index
// is unchanged; its subtest checks the answers are the same twice.
func TestSearchVectorsAnswerAsStoredColumns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		storetest.SearchCatalogue(t, db, 1500, 7)
		cats, err := db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var knitwear int64
		for _, c := range cats {
			if c.Slug == "knitwear" {
				knitwear = c.ID
			}
		}
		if knitwear == 0 {
			t.Fatal("no knitwear category")
		}
		now := storetest.SearchAnswers(t, db, knitwear)
		if db.Engine == sqlstore.Postgres {
			// The columns and indexes as migration 00051 left them.
			for _, q := range []string{
				`ALTER TABLE product_search
					ADD COLUMN name_tsv TSVECTOR GENERATED ALWAYS AS (
						strip(to_tsvector('simple', name)) || search_prefixes(to_tsvector('simple', name))) STORED,
					ADD COLUMN doc_tsv TSVECTOR GENERATED ALWAYS AS (
						strip(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))
						|| search_prefixes(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))) STORED`,
				`CREATE INDEX product_search_name_tsv ON product_search USING GIN (name_tsv)`,
				`CREATE INDEX product_search_doc_tsv ON product_search USING GIN (doc_tsv)`,
				`ANALYZE product_search`,
			} {
				if _, err := db.Write.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			defer catalogstore.SetSearchVectorsForTest("name_tsv", "doc_tsv")()
		}
		was := storetest.SearchAnswers(t, db, knitwear)
		if len(now) != len(was) {
			t.Fatalf("%d answers, was %d", len(now), len(was))
		}
		found := 0
		for i := range now {
			if now[i] != was[i] {
				t.Errorf("answer differs:\n now %s\n was %s", now[i], was[i])
			}
			if !strings.HasSuffix(now[i], ": ") {
				found++
			}
		}
		// The comparison means something only if searches find products,
		// and some are cut by their candidates.
		if found < len(now)/2 {
			t.Errorf("only %d of %d searches found products", found, len(now))
		}
		cut := func(limit int) int {
			_, n, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: "cotton", Visibility: "search", SearchCandidates: limit})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if all, few := cut(0), cut(25); few >= all {
			t.Errorf("cotton: %d found from 25 candidates a class, %d from all: the cut was not tested", few, all)
		}
	})
}
