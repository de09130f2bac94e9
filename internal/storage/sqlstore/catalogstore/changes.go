package catalogstore

import (
	"context"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore/sqlcore"
)

// ChangesIn returns the change-log entries among ids, oldest first. A
// follower asks again for ids it skipped (a gap in the sequence): on
// PostgreSQL ids are taken when a row is inserted, not when its
// transaction commits, so a lower id can become visible after a higher one
// was read. An id that never shows up was rolled back.
func (db *Catalog) ChangesIn(ctx context.Context, ids []int64) ([]Change, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT id, product_id, kind FROM catalog_changes WHERE id IN (?) ORDER BY id`, ids)
	if err != nil {
		return nil, err
	}
	return sqlcore.SelectAs(ctx, db.Read, changeRow.change, q, args...)
}
