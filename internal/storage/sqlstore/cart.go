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

// Cart loads a session's cart.
func (db *DB) Cart(ctx context.Context, id string, now time.Time) (*cart.Cart, error) {
	c := &cart.Cart{ID: id}
	var row struct {
		Customer string    `db:"customer"`
		Created  time.Time `db:"created_at"`
		Updated  time.Time `db:"updated_at"`
		Expires  int64     `db:"expires_at"`
	}
	err := db.read.GetContext(ctx, &row, db.read.Rebind(
		`SELECT customer, created_at, updated_at, expires_at FROM cart_sessions WHERE id = ? AND expires_at > ?`), id, now.Unix())
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
	var lines []struct {
		Key         string `db:"line_key"`
		ProductID   int64  `db:"product_id"`
		VariationID int64  `db:"variation_id"`
		Attributes  string `db:"attributes"`
		Quantity    int64  `db:"quantity"`
		UnitPrice   int64  `db:"unit_price"`
		Position    int    `db:"position"`
	}
	if err := db.read.SelectContext(ctx, &lines, db.read.Rebind(
		`SELECT line_key, product_id, variation_id, attributes, quantity, unit_price, position
		 FROM cart_lines WHERE session_id = ? ORDER BY position, line_key`), id); err != nil {
		return nil, fmt.Errorf("load cart lines: %w", err)
	}
	for _, l := range lines {
		line := cart.Line{Key: l.Key, ProductID: l.ProductID, VariationID: l.VariationID, Quantity: l.Quantity,
			UnitPrice: l.UnitPrice, Position: l.Position}
		if err := json.Unmarshal([]byte(l.Attributes), &line.Variation); err != nil {
			return nil, fmt.Errorf("cart line attributes: %w", err)
		}
		c.Lines = append(c.Lines, line)
	}
	return c, nil
}

// touchSession drops an expired session's leftovers, then creates the
// session or pushes its expiry forward, locking its row until commit.
func touchSession(ctx context.Context, tx *sqlx.Tx, id string, now, expires time.Time) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM cart_sessions WHERE id = ? AND expires_at <= ?`), id, now.Unix()); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(
		`INSERT INTO cart_sessions (id, customer, created_at, updated_at, expires_at) VALUES (?, '{}', ?, ?, ?)
		 ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, expires_at = excluded.expires_at`),
		id, now, now, expires.Unix())
	return err
}

// AddLine adds to a line, re-reading it inside the transaction.
func (db *DB) AddLine(ctx context.Context, id string, l cart.Line, now, expires time.Time, check func(existing, total int64) error) error {
	attrs, err := json.Marshal(orEmpty(l.Variation))
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := touchSession(ctx, tx, id, now, expires); err != nil {
			return err
		}
		var existing int64
		err := tx.GetContext(ctx, &existing, tx.Rebind(`SELECT quantity FROM cart_lines WHERE session_id = ? AND line_key = ?`), id, l.Key)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		total := existing + l.Quantity
		if check != nil {
			if err := check(existing, total); err != nil {
				return err
			}
		}
		if existing > 0 {
			_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_lines SET quantity = ?, unit_price = ? WHERE session_id = ? AND line_key = ?`),
				total, l.UnitPrice, id, l.Key)
			return err
		}
		var pos int
		if err := tx.GetContext(ctx, &pos, tx.Rebind(`SELECT COALESCE(MAX(position), 0) + 1 FROM cart_lines WHERE session_id = ?`), id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(
			`INSERT INTO cart_lines (session_id, line_key, product_id, variation_id, attributes, quantity, unit_price, position)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
			id, l.Key, l.ProductID, l.VariationID, string(attrs), total, l.UnitPrice, pos)
		return err
	})
}

func orEmpty(a []cart.Attr) []cart.Attr {
	if a == nil {
		return []cart.Attr{}
	}
	return a
}

// lineIn re-reads a line inside a transaction.
func lineIn(ctx context.Context, tx *sqlx.Tx, id, key string) (cart.Line, error) {
	var row struct {
		ProductID   int64  `db:"product_id"`
		VariationID int64  `db:"variation_id"`
		Attributes  string `db:"attributes"`
		Quantity    int64  `db:"quantity"`
		UnitPrice   int64  `db:"unit_price"`
	}
	err := tx.GetContext(ctx, &row, tx.Rebind(
		`SELECT product_id, variation_id, attributes, quantity, unit_price FROM cart_lines WHERE session_id = ? AND line_key = ?`), id, key)
	if errors.Is(err, sql.ErrNoRows) {
		return cart.Line{}, cart.ErrNoLine
	}
	if err != nil {
		return cart.Line{}, err
	}
	l := cart.Line{Key: key, ProductID: row.ProductID, VariationID: row.VariationID, Quantity: row.Quantity, UnitPrice: row.UnitPrice}
	err = json.Unmarshal([]byte(row.Attributes), &l.Variation)
	return l, err
}

// SetQuantity sets a line's quantity.
func (db *DB) SetQuantity(ctx context.Context, id, key string, qty int64, now, expires time.Time, check func(l cart.Line) error) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := touchSession(ctx, tx, id, now, expires); err != nil {
			return err
		}
		l, err := lineIn(ctx, tx, id, key)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(l); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_lines SET quantity = ? WHERE session_id = ? AND line_key = ?`), qty, id, key)
		return err
	})
}

// RemoveLine deletes a line.
func (db *DB) RemoveLine(ctx context.Context, id, key string, now, expires time.Time) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := touchSession(ctx, tx, id, now, expires); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM cart_lines WHERE session_id = ? AND line_key = ?`), id, key)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return cart.ErrNoLine
		}
		return nil
	})
}

// SetCustomer stores the session's customer data.
func (db *DB) SetCustomer(ctx context.Context, id string, c cart.Customer, now, expires time.Time) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := touchSession(ctx, tx, id, now, expires); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_sessions SET customer = ? WHERE id = ?`), string(b), id)
		return err
	})
}

// Extend pushes a live session's expiry forward.
func (db *DB) Extend(ctx context.Context, id string, expires time.Time) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_sessions SET expires_at = ? WHERE id = ? AND expires_at < ?`),
			expires.Unix(), id, expires.Unix())
		return err
	})
}

// DeleteExpiredCarts removes sessions expired at now, with their lines.
func (db *DB) DeleteExpiredCarts(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
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
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
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
