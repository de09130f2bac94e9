package catalogstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
)

// Admin saves and the stock count (catalog.StockEdit). Orders move
// stock_quantity with conditional UPDATEs and count each move in
// stock_moves (migration 00032) without making a new version; every
// versioned write of a row's stock sets stock_moves back to 0. So a save
// based on the current version knows, from stock_moves = 0, that the count
// its editor read is still the stored one.
//
// Each statement below is one UPDATE of the row, so an order that takes
// stock at the same moment is serialized with it (PostgreSQL's row lock,
// SQLite's single writer): its units are never overwritten.

// writeStock writes an admin save's stock edit of the row p, after the rest
// of the row (writeProduct), then sets the stock status from the count the
// row holds now when the stock is managed.
func (db *Catalog) writeStock(ctx context.Context, tx *sqlx.Tx, p *catalog.Product) error {
	e := p.StockEdit
	switch {
	case !e.Set:
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET stock_moves = 0 WHERE id = ?`), p.ID); err != nil {
			return fmt.Errorf("stock of %d: %w", p.ID, err)
		}
	case e.Original != nil:
		// The difference the editor made, on the count orders left; a
		// row without a count (stock not managed until now) takes the
		// count as it is: no order moves a missing count.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET
				stock_quantity = CASE WHEN stock_quantity IS NULL THEN ? ELSE stock_quantity + ? END,
				stock_moves = 0
			WHERE id = ?`), e.Quantity, e.Quantity-*e.Original, p.ID); err != nil {
			return fmt.Errorf("stock of %d: %w", p.ID, err)
		}
	default:
		// A count as it is: only if no order moved the stock since the
		// version the save is based on, or if it is the count already.
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET stock_quantity = ?, stock_moves = 0
			WHERE id = ? AND (stock_moves = 0 OR stock_quantity IS NULL OR stock_quantity = ?)`), e.Quantity, p.ID, e.Quantity)
		if err != nil {
			return fmt.Errorf("stock of %d: %w", p.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var now sql.NullInt64
			if err := tx.GetContext(ctx, &now, tx.Rebind(`SELECT stock_quantity FROM products WHERE id = ?`), p.ID); err != nil {
				return err
			}
			c := &catalog.StockConflict{ID: p.ID}
			if now.Valid {
				c.Stock = &now.Int64
			}
			return c
		}
	}
	// A managed count decides the status, as an order's move does.
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET stock_status = CASE
			WHEN stock_quantity > 0 THEN 'instock' WHEN backorders = 'no' THEN 'outofstock' ELSE 'onbackorder' END
		WHERE id = ? AND manage_stock = ? AND stock_quantity IS NOT NULL`), p.ID, true); err != nil {
		return fmt.Errorf("stock status of %d: %w", p.ID, err)
	}
	return nil
}
