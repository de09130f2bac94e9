package catalogstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The search vocabulary (migration 00045): the words of the index, with
// the deletions that find a typo's corrections. Its reads implement
// catalog.SearchVocabulary.

// addVocabulary adds the words of doc that old did not have and the
// vocabulary does not hold yet, with their deletes, inside the caller's
// transaction.
func (db *Catalog) addVocabulary(ctx context.Context, tx *sqlx.Tx, doc, old catalog.SearchDoc) error {
	had := map[string]bool{}
	for _, w := range catalog.VocabularyWords(old) {
		had[w] = true
	}
	var fresh []string
	for _, w := range catalog.VocabularyWords(doc) {
		if !had[w] {
			fresh = append(fresh, w)
		}
	}
	for len(fresh) > 0 {
		batch := fresh[:min(len(fresh), 200)]
		fresh = fresh[len(batch):]
		in, args := sqlcore.InClause(batch)
		var known []string
		if err := tx.SelectContext(ctx, &known, tx.Rebind(`SELECT word FROM search_words WHERE word IN `+in), args...); err != nil {
			return fmt.Errorf("search vocabulary: %w", err)
		}
		for _, w := range batch {
			if slices.Contains(known, w) {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO search_words (word) VALUES (?) ON CONFLICT DO NOTHING`), w); err != nil {
				return fmt.Errorf("search vocabulary: %w", err)
			}
			dels := catalog.WordDeletes(w)
			vals := make([]string, len(dels))
			args := make([]any, 0, 2*len(dels))
			for i, d := range dels {
				vals[i] = "(?, ?)"
				args = append(args, d, w)
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO search_word_deletes (del, word) VALUES `+strings.Join(vals, ", ")+` ON CONFLICT DO NOTHING`), args...); err != nil {
				return fmt.Errorf("search vocabulary: %w", err)
			}
		}
	}
	return nil
}

// KnownWords implements catalog.SearchVocabulary.
func (db *Catalog) KnownWords(ctx context.Context, words []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(words) == 0 {
		return out, nil
	}
	in, args := sqlcore.InClause(words)
	var known []string
	if err := db.Read.SelectContext(ctx, &known, db.Read.Rebind(`SELECT word FROM search_words WHERE word IN `+in), args...); err != nil {
		return nil, fmt.Errorf("search vocabulary: %w", err)
	}
	for _, w := range known {
		out[w] = true
	}
	return out, nil
}

// HasPrefix implements catalog.SearchVocabulary: one range of the
// byte-ordered primary key.
func (db *Catalog) HasPrefix(ctx context.Context, prefix string) (bool, error) {
	var ws []string
	err := db.Read.SelectContext(ctx, &ws, db.Read.Rebind(`SELECT word FROM search_words WHERE word >= ? AND word < ? LIMIT 1`), prefix, prefix+"\U0010FFFF")
	if err != nil {
		return false, fmt.Errorf("search vocabulary: %w", err)
	}
	return len(ws) > 0, nil
}

// WordsByDeletes implements catalog.SearchVocabulary.
func (db *Catalog) WordsByDeletes(ctx context.Context, dels []string) ([]string, error) {
	if len(dels) == 0 {
		return nil, nil
	}
	in, args := sqlcore.InClause(dels)
	var ws []string
	if err := db.Read.SelectContext(ctx, &ws, db.Read.Rebind(`SELECT DISTINCT word FROM search_word_deletes WHERE del IN `+in+` LIMIT 500`), args...); err != nil {
		return nil, fmt.Errorf("search vocabulary: %w", err)
	}
	return ws, nil
}

// PlanSearch is the plan the store matches for a query (its corrections
// answer "Did you mean").
func (db *Catalog) PlanSearch(ctx context.Context, q string, syn catalog.Synonyms) (catalog.SearchPlan, error) {
	return catalog.PlanSearch(ctx, db, q, syn)
}

// RecordSearchMiss counts a search that found nothing, by its folded
// query, keeping at most catalog.SearchMissesMax queries (the least asked,
// then the oldest, make room).
func (db *Catalog) RecordSearchMiss(ctx context.Context, query string, at time.Time) error {
	q := strings.Join(catalog.SearchWords(query), " ")
	if q == "" {
		return nil
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE search_misses SET n = n + 1, last_seen = ? WHERE query = ?`), at.Unix(), q)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		var count int
		if err := tx.GetContext(ctx, &count, `SELECT COUNT(*) FROM search_misses`); err != nil {
			return err
		}
		if count >= catalog.SearchMissesMax {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM search_misses WHERE query IN (
				SELECT query FROM search_misses ORDER BY n, last_seen, query`+sqlcore.Limit(count-catalog.SearchMissesMax+1)+`)`)); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO search_misses (query, n, last_seen) VALUES (?, 1, ?)
			ON CONFLICT (query) DO UPDATE SET n = search_misses.n + 1, last_seen = excluded.last_seen`), q, at.Unix())
		return err
	})
}

// TopSearchMisses lists the most asked searches that found nothing.
func (db *Catalog) TopSearchMisses(ctx context.Context, limit int) ([]catalog.SearchMiss, error) {
	var rows []struct {
		Query string `db:"query"`
		N     int64  `db:"n"`
		Last  int64  `db:"last_seen"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT query, n, last_seen FROM search_misses ORDER BY n DESC, last_seen DESC, query`+sqlcore.Limit(limit))); err != nil {
		return nil, fmt.Errorf("search misses: %w", err)
	}
	out := make([]catalog.SearchMiss, len(rows))
	for i, r := range rows {
		out[i] = catalog.SearchMiss{Query: r.Query, Count: r.N, LastSeen: time.Unix(r.Last, 0).UTC()}
	}
	return out, nil
}
