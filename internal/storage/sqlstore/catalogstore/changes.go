package catalogstore

import (
	"context"

	"github.com/jmoiron/sqlx"
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
	var rows []struct {
		ID        int64  `db:"id"`
		ProductID int64  `db:"product_id"`
		Kind      string `db:"kind"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	out := make([]Change, len(rows))
	for i, r := range rows {
		out[i] = Change{ID: r.ID, ProductID: r.ProductID, Kind: r.Kind}
	}
	return out, nil
}
