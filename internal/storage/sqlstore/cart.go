package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Cart storage (cart.Store). Every mutation runs in one write transaction
// that first upserts the session row: on PostgreSQL that takes the row's lock
// until commit, so concurrent writes to one session run one after another and
// each re-reads the line it changes (no lost update); on SQLite the single
// writer connection and BEGIN IMMEDIATE serialize all writes anyway. The
// upsert also pushes the session's expiry forward: a cart lives
// cart.Lifetime after its last write. An expired session still on disk is
// treated as empty and its old lines are dropped by the next write.
// expires_at is unix seconds so both engines compare it the same way.

var _ cart.Store = (*DB)(nil)

// The cart SQL, prepared once and reused (sqlcore/stmt.go).
const (
	sqlCartSession = `SELECT customer, created_at, updated_at, expires_at FROM cart_sessions WHERE id = ? AND expires_at > ?`
	sqlDropExpired = `DELETE FROM cart_sessions WHERE id = ? AND expires_at <= ?`
	sqlTouch       = `INSERT INTO cart_sessions (id, customer, created_at, updated_at, expires_at) VALUES (?, '{}', ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, expires_at = excluded.expires_at
		RETURNING customer, created_at`
	sqlLineUpdate = `UPDATE cart_lines SET quantity = ?, unit_price = ? WHERE session_id = ? AND line_key = ?`
	sqlLineInsert = `INSERT INTO cart_lines (session_id, line_key, product_id, variation_id, attributes, quantity, unit_price, position)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	sqlLineQty        = `UPDATE cart_lines SET quantity = ? WHERE session_id = ? AND line_key = ?`
	sqlLineDelete     = `DELETE FROM cart_lines WHERE session_id = ? AND line_key = ?`
	sqlCustomer       = `UPDATE cart_sessions SET customer = ? WHERE id = ?`
	sqlExtend         = `UPDATE cart_sessions SET expires_at = ? WHERE id = ? AND expires_at < ?`
	sqlCatalogVersion = `SELECT MAX(id) FROM catalog_changes`
)

// sqlCartLines reads at most cart.MaxLines lines: a cart stored before the
// limit shows its first lines instead of failing.
var sqlCartLines = `SELECT line_key, product_id, variation_id, attributes, quantity, unit_price, position
		FROM cart_lines WHERE session_id = ? ORDER BY position, line_key` + sqlcore.Limit(cart.MaxLines)

// cartWriteSQL is what cart mutations run inside their transaction.
var cartWriteSQL = []string{sqlDropExpired, sqlTouch, sqlCartLines, sqlLineUpdate, sqlLineInsert, sqlLineQty,
	sqlLineDelete, sqlCustomer, sqlExtend}

type lineRow struct {
	Key         string `db:"line_key"`
	ProductID   int64  `db:"product_id"`
	VariationID int64  `db:"variation_id"`
	Attributes  string `db:"attributes"`
	Quantity    int64  `db:"quantity"`
	UnitPrice   int64  `db:"unit_price"`
	Position    int    `db:"position"`
}

func linesOf(rows []lineRow) ([]cart.Line, error) {
	out := make([]cart.Line, 0, len(rows))
	for _, l := range rows {
		line := cart.Line{Key: l.Key, ProductID: l.ProductID, VariationID: l.VariationID, Quantity: l.Quantity,
			UnitPrice: l.UnitPrice, Position: l.Position}
		if err := json.Unmarshal([]byte(l.Attributes), &line.Variation); err != nil {
			return nil, fmt.Errorf("cart line attributes: %w", err)
		}
		out = append(out, line)
	}
	return out, nil
}

// Cart loads a session's cart.
func (db *DB) Cart(ctx context.Context, id string, now time.Time) (*cart.Cart, error) {
	c := &cart.Cart{ID: id}
	var row struct {
		Customer string    `db:"customer"`
		Created  time.Time `db:"created_at"`
		Updated  time.Time `db:"updated_at"`
		Expires  int64     `db:"expires_at"`
	}
	st, err := db.Stmt(ctx, false, sqlCartSession)
	if err != nil {
		return nil, err
	}
	err = st.GetContext(ctx, &row, id, now.Unix())
	if errors.Is(err, sql.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load cart: %w", err)
	}
	c.Exists, c.Created, c.Updated, c.Expires = true, row.Created, row.Updated, time.Unix(row.Expires, 0).UTC()
	if err := json.Unmarshal([]byte(row.Customer), &c.Customer); err != nil {
		return nil, fmt.Errorf("cart customer: %w", err)
	}
	if st, err = db.Stmt(ctx, false, sqlCartLines); err != nil {
		return nil, err
	}
	var rows []lineRow
	if err := st.SelectContext(ctx, &rows, id); err != nil {
		return nil, fmt.Errorf("load cart lines: %w", err)
	}
	if c.Lines, err = linesOf(rows); err != nil {
		return nil, err
	}
	if len(c.Lines) == 0 {
		c.Lines = nil
	}
	return c, nil
}

// touchSession drops an expired session's leftovers, then creates the
// session or pushes its expiry forward (locking its row until commit on
// PostgreSQL), and reads the cart as it is now inside tx.
func (db *DB) touchSession(ctx context.Context, tx *sqlx.Tx, id string, now, expires time.Time) (*cart.Cart, error) {
	st, err := db.TxStmt(ctx, tx, sqlDropExpired)
	if err != nil {
		return nil, err
	}
	if _, err := st.ExecContext(ctx, id, now.Unix()); err != nil {
		return nil, err
	}
	if st, err = db.TxStmt(ctx, tx, sqlTouch); err != nil {
		return nil, err
	}
	var sess struct {
		Customer string    `db:"customer"`
		Created  time.Time `db:"created_at"`
	}
	if err := st.GetContext(ctx, &sess, id, now, now, expires.Unix()); err != nil {
		return nil, err
	}
	c := &cart.Cart{ID: id, Exists: true, Created: sess.Created.UTC(), Updated: now, Expires: time.Unix(expires.Unix(), 0).UTC()}
	if err := json.Unmarshal([]byte(sess.Customer), &c.Customer); err != nil {
		return nil, fmt.Errorf("cart customer: %w", err)
	}
	if st, err = db.TxStmt(ctx, tx, sqlCartLines); err != nil {
		return nil, err
	}
	var rows []lineRow
	if err := st.SelectContext(ctx, &rows, id); err != nil {
		return nil, err
	}
	if c.Lines, err = linesOf(rows); err != nil {
		return nil, err
	}
	return c, nil
}

// AddLine adds to a line, re-reading the cart inside the transaction, and
// answers the cart after the add.
func (db *DB) AddLine(ctx context.Context, id string, l cart.Line, now, expires time.Time, check func(c *cart.Cart, existing, total int64) error) (*cart.Cart, error) {
	attrs, err := json.Marshal(orEmpty(l.Variation))
	if err != nil {
		return nil, err
	}
	var out *cart.Cart
	err = db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		c, err := db.touchSession(ctx, tx, id, now, expires)
		if err != nil {
			return err
		}
		var existing int64
		pos := 0
		for _, cl := range c.Lines {
			if cl.Key == l.Key {
				existing = cl.Quantity
			}
			pos = max(pos, cl.Position)
		}
		total := existing + l.Quantity
		// The line limit, decided inside the transaction that writes: two
		// concurrent adds at MaxLines-1 lines cannot both pass.
		if existing == 0 && len(c.Lines) >= cart.MaxLines {
			return cart.ErrTooManyLines
		}
		if check != nil {
			if err := check(c, existing, total); err != nil {
				return err
			}
		}
		if existing > 0 {
			st, err := db.TxStmt(ctx, tx, sqlLineUpdate)
			if err != nil {
				return err
			}
			if _, err = st.ExecContext(ctx, total, l.UnitPrice, id, l.Key); err != nil {
				return err
			}
			line := c.Line(l.Key)
			line.Quantity, line.UnitPrice = total, l.UnitPrice
		} else {
			st, err := db.TxStmt(ctx, tx, sqlLineInsert)
			if err != nil {
				return err
			}
			if _, err = st.ExecContext(ctx, id, l.Key, l.ProductID, l.VariationID, string(attrs), total, l.UnitPrice, pos+1); err != nil {
				return err
			}
			nl := l
			nl.Variation, nl.Quantity, nl.Position = orEmpty(l.Variation), total, pos+1
			c.Lines = append(c.Lines, nl)
		}
		out = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func orEmpty(a []cart.Attr) []cart.Attr {
	if a == nil {
		return []cart.Attr{}
	}
	return a
}

// SetQuantity sets a line's quantity and answers the cart after the change.
func (db *DB) SetQuantity(ctx context.Context, id, key string, qty int64, now, expires time.Time, check func(c *cart.Cart, l cart.Line) error) (*cart.Cart, error) {
	var out *cart.Cart
	err := db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		c, err := db.touchSession(ctx, tx, id, now, expires)
		if err != nil {
			return err
		}
		line := c.Line(key)
		if line == nil {
			return cart.ErrNoLine
		}
		if check != nil {
			if err := check(c, *line); err != nil {
				return err
			}
		}
		st, err := db.TxStmt(ctx, tx, sqlLineQty)
		if err != nil {
			return err
		}
		if _, err = st.ExecContext(ctx, qty, id, key); err != nil {
			return err
		}
		line.Quantity = qty
		out = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RemoveLine deletes a line.
func (db *DB) RemoveLine(ctx context.Context, id, key string, now, expires time.Time) error {
	return db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		if err := db.touchOnly(ctx, tx, id, now, expires); err != nil {
			return err
		}
		st, err := db.TxStmt(ctx, tx, sqlLineDelete)
		if err != nil {
			return err
		}
		res, err := st.ExecContext(ctx, id, key)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return cart.ErrNoLine
		}
		return nil
	})
}

// touchOnly is touchSession without reading the cart back.
func (db *DB) touchOnly(ctx context.Context, tx *sqlx.Tx, id string, now, expires time.Time) error {
	st, err := db.TxStmt(ctx, tx, sqlDropExpired)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, id, now.Unix()); err != nil {
		return err
	}
	if st, err = db.TxStmt(ctx, tx, sqlTouch); err != nil {
		return err
	}
	var sess struct {
		Customer string    `db:"customer"`
		Created  time.Time `db:"created_at"`
	}
	return st.GetContext(ctx, &sess, id, now, now, expires.Unix())
}

// SetCustomer stores the session's customer data.
func (db *DB) SetCustomer(ctx context.Context, id string, c cart.Customer, now, expires time.Time) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		if err := db.touchOnly(ctx, tx, id, now, expires); err != nil {
			return err
		}
		st, err := db.TxStmt(ctx, tx, sqlCustomer)
		if err != nil {
			return err
		}
		_, err = st.ExecContext(ctx, string(b), id)
		return err
	})
}

// Extend pushes a live session's expiry forward.
func (db *DB) Extend(ctx context.Context, id string, expires time.Time) error {
	return db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		st, err := db.TxStmt(ctx, tx, sqlExtend)
		if err != nil {
			return err
		}
		_, err = st.ExecContext(ctx, expires.Unix(), id, expires.Unix())
		return err
	})
}

// CatalogVersion is the newest catalogue change-log id (0 when empty): a
// prepared LastChange for per-request freshness checks.
func (db *DB) CatalogVersion(ctx context.Context) (int64, error) {
	st, err := db.Stmt(ctx, false, sqlCatalogVersion)
	if err != nil {
		return 0, err
	}
	var id sql.NullInt64
	err = st.GetContext(ctx, &id)
	return id.Int64, err
}

// DeleteExpiredCarts removes sessions expired at now, with their lines.
func (db *DB) DeleteExpiredCarts(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM cart_sessions WHERE expires_at <= ?`), now.Unix())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// Secret returns the named server secret, creating a random 32-byte one on
// first use. Every instance on the store reads the same value.
func (db *DB) Secret(ctx context.Context, name string) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	var value string
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`),
			name, hex.EncodeToString(b)); err != nil {
			return err
		}
		return tx.GetContext(ctx, &value, tx.Rebind(`SELECT value FROM settings WHERE name = ?`), name)
	})
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", name, err)
	}
	return hex.DecodeString(value)
}

// RestoreCartLines puts lines back into a session's cart when it is empty
// (PlaceOrder empties it; a wallet order keeps the cart until it is paid,
// so a buyer who cancels at the provider finds it as it was). A cart that
// has lines again is left alone.
func (db *DB) RestoreCartLines(ctx context.Context, session string, lines []cart.Line, now, expires time.Time) error {
	if len(lines) == 0 {
		return nil
	}
	return db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		c, err := db.touchSession(ctx, tx, session, now, expires)
		if err != nil {
			return err
		}
		if len(c.Lines) > 0 {
			return nil
		}
		for i, l := range lines {
			attrs, err := json.Marshal(orEmpty(l.Variation))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(sqlLineInsert), session, l.Key, l.ProductID, l.VariationID, string(attrs),
				l.Quantity, l.UnitPrice, i); err != nil {
				return fmt.Errorf("restore cart line: %w", err)
			}
		}
		return nil
	})
}

// ClearCart empties a session's cart (a wallet order was paid).
func (db *DB) ClearCart(ctx context.Context, session string) error {
	if session == "" {
		return nil
	}
	return db.cartWrite(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM cart_lines WHERE session_id = ?`), session)
		return err
	})
}
