package catalogstore

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/richtext"
)

// richTextVersion is the migration after which stored rich text is
// sanitized; Migrate runs sanitizeStoredRichText once, when it applies it.
const richTextVersion = 8

// sanitizeStoredRichText passes the policy of internal/richtext over the
// rich text stored before writes were sanitized: product and variation
// descriptions and short descriptions, category descriptions. Only rows
// whose text changes are written (and products reindexed for search); products are
// read in pages of ids so a large catalogue is not held in memory.
func (db *Catalog) sanitizeStoredRichText(ctx context.Context) (int, error) {
	changed := 0
	var last int64
	for {
		var rows []struct {
			ID        int64  `db:"id"`
			Variation bool   `db:"variation"`
			Short     string `db:"short_description"`
			Desc      string `db:"description"`
		}
		if err := db.Write.SelectContext(ctx, &rows, db.Write.Rebind(`SELECT id, parent_id IS NOT NULL AS variation, short_description, description FROM products WHERE id > ? ORDER BY id LIMIT 500`), last); err != nil {
			return changed, fmt.Errorf("read descriptions: %w", err)
		}
		if len(rows) == 0 {
			break
		}
		last = rows[len(rows)-1].ID
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			for _, r := range rows {
				short, desc := richtext.Sanitize(r.Short), richtext.Sanitize(r.Desc)
				if short == r.Short && desc == r.Desc {
					continue
				}
				if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET short_description = ?, description = ? WHERE id = ?`), short, desc, r.ID); err != nil {
					return err
				}
				if !r.Variation { // a variation's text is not in the search index
					if _, err := db.indexProduct(ctx, tx, r.ID); err != nil {
						return err
					}
				}
				changed++
			}
			return nil
		})
		if err != nil {
			return changed, fmt.Errorf("sanitize descriptions: %w", err)
		}
	}
	var cats []struct {
		ID   int64  `db:"id"`
		Desc string `db:"description"`
	}
	if err := db.Write.SelectContext(ctx, &cats, `SELECT id, description FROM categories WHERE description <> ''`); err != nil {
		return changed, fmt.Errorf("read category descriptions: %w", err)
	}
	for _, c := range cats {
		if d := richtext.Sanitize(c.Desc); d != c.Desc {
			if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE categories SET description = ? WHERE id = ?`), d, c.ID); err != nil {
				return changed, fmt.Errorf("sanitize category %d: %w", c.ID, err)
			}
			changed++
		}
	}
	return changed, nil
}
