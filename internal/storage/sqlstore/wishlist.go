package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/wishlist"
)

// Wishlists (internal/wishlist): a guest's or a customer's list and its
// items. Times are unix seconds; a guest's list past its expires_at is
// absent to every read and replaced on a write.

const wishlistColumns = `id, session_key, customer_id, share_enabled, created_at, updated_at, expires_at`

type wishlistRow struct {
	ID           int64          `db:"id"`
	SessionKey   sql.NullString `db:"session_key"`
	CustomerID   sql.NullInt64  `db:"customer_id"`
	ShareEnabled bool           `db:"share_enabled"`
	CreatedAt    int64          `db:"created_at"`
	UpdatedAt    int64          `db:"updated_at"`
	ExpiresAt    sql.NullInt64  `db:"expires_at"`
}

type wishlistItemRow struct {
	ProductID   int64 `db:"product_id"`
	VariationID int64 `db:"variation_id"`
	PriceAdded  int64 `db:"price_added"`
	AddedAt     int64 `db:"added_at"`
}

// wishlistOwner is the WHERE condition naming the owner's list and its
// argument, and the column of its unique key.
func wishlistOwner(o wishlist.Owner) (cond string, arg any, column string) {
	if o.CustomerID > 0 {
		return "customer_id = ?", o.CustomerID, "customer_id"
	}
	return "session_key = ?", o.SessionKey, "session_key"
}

// wishlistRead reads the owner's live list and its items through q (the
// read pool or a write transaction); nil when none.
func wishlistRead(ctx context.Context, q sqlx.QueryerContext, cond string, arg any, now time.Time) (*wishlist.List, error) {
	var r wishlistRow
	err := sqlx.GetContext(ctx, q, &r, q.(interface{ Rebind(string) string }).Rebind(`SELECT `+wishlistColumns+
		` FROM wishlists WHERE `+cond+` AND (expires_at IS NULL OR expires_at > ?)`), arg, now.Unix())
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return wishlistWithItems(ctx, q, r)
}

func wishlistWithItems(ctx context.Context, q sqlx.QueryerContext, r wishlistRow) (*wishlist.List, error) {
	l := &wishlist.List{ID: r.ID, ShareEnabled: r.ShareEnabled, CreatedAt: sqlcore.UnixUTC(r.CreatedAt),
		UpdatedAt: sqlcore.UnixUTC(r.UpdatedAt), ExpiresAt: unixPtr(r.ExpiresAt),
		Owner: wishlist.Owner{SessionKey: r.SessionKey.String, CustomerID: r.CustomerID.Int64}}
	var items []wishlistItemRow
	if err := sqlx.SelectContext(ctx, q, &items, q.(interface{ Rebind(string) string }).Rebind(
		`SELECT product_id, variation_id, price_added, added_at FROM wishlist_items WHERE wishlist_id = ?
		 ORDER BY added_at DESC, product_id DESC, variation_id DESC`), r.ID); err != nil {
		return nil, err
	}
	l.Items = make([]wishlist.Item, len(items))
	for i, it := range items {
		l.Items[i] = wishlist.Item{ProductID: it.ProductID, VariationID: it.VariationID, PriceAdded: it.PriceAdded,
			AddedAt: sqlcore.UnixUTC(it.AddedAt)}
	}
	return l, nil
}

func emptyWishlist(o wishlist.Owner) *wishlist.List {
	return &wishlist.List{Owner: o, Items: []wishlist.Item{}}
}

// Wishlist implements wishlist.Store.
func (db *DB) Wishlist(ctx context.Context, o wishlist.Owner, now time.Time) (*wishlist.List, error) {
	cond, arg, _ := wishlistOwner(o)
	l, err := wishlistRead(ctx, db.Read, cond, arg, now)
	if l == nil && err == nil {
		l = emptyWishlist(o)
	}
	return l, err
}

// wishlistIDTx finds the owner's live list in tx, deleting an expired
// one; with create, a missing list is made (an upsert, so two first adds
// at once make one list). 0 when none and not created.
func wishlistIDTx(ctx context.Context, tx *sqlx.Tx, o wishlist.Owner, create bool, now time.Time, expires *time.Time) (int64, error) {
	cond, arg, column := wishlistOwner(o)
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM wishlists WHERE `+cond+` AND expires_at IS NOT NULL AND expires_at <= ?`),
		arg, now.Unix()); err != nil {
		return 0, err
	}
	var id int64
	if !create {
		err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM wishlists WHERE `+cond), arg)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return id, err
	}
	var exp any
	if expires != nil {
		exp = expires.Unix()
	}
	err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO wishlists (session_key, customer_id, created_at, updated_at, expires_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (`+column+`) DO UPDATE SET updated_at = excluded.updated_at, expires_at = excluded.expires_at
		RETURNING id`), sqlcore.NullString(o.SessionKey), sqlcore.NullID(o.CustomerID), now.Unix(), now.Unix(), exp)
	return id, err
}

// SetWishlistItem implements wishlist.Store.
func (db *DB) SetWishlistItem(ctx context.Context, o wishlist.Owner, it wishlist.Item, on bool, max int, now time.Time, expires *time.Time) (changed bool, l *wishlist.List, err error) {
	cond, arg, _ := wishlistOwner(o)
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		changed, l = false, nil
		id, err := wishlistIDTx(ctx, tx, o, on, now, expires)
		if err != nil || id == 0 {
			return err
		}
		var res sql.Result
		if on {
			// The limit is checked before the insert: on PostgreSQL two adds
			// at once to a nearly full list may both pass it, by one each.
			var n, held int
			if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM wishlist_items WHERE wishlist_id = ?`), id); err != nil {
				return err
			}
			if n >= max {
				if err := tx.GetContext(ctx, &held, tx.Rebind(`SELECT COUNT(*) FROM wishlist_items
					WHERE wishlist_id = ? AND product_id = ? AND variation_id = ?`), id, it.ProductID, it.VariationID); err != nil {
					return err
				}
				if held == 0 {
					return wishlist.ErrFull
				}
			}
			res, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, price_added, added_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (wishlist_id, product_id, variation_id) DO NOTHING`),
				id, it.ProductID, it.VariationID, it.PriceAdded, it.AddedAt.Unix())
			if err != nil {
				return err
			}
		} else {
			res, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM wishlist_items WHERE wishlist_id = ? AND product_id = ? AND variation_id = ?`),
				id, it.ProductID, it.VariationID)
			if err != nil {
				return err
			}
		}
		k, _ := res.RowsAffected()
		changed = k > 0
		if changed {
			var exp any
			if expires != nil {
				exp = expires.Unix()
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE wishlists SET updated_at = ?, expires_at = ? WHERE id = ?`),
				now.Unix(), exp, id); err != nil {
				return err
			}
		}
		l, err = wishlistRead(ctx, tx, cond, arg, now)
		return err
	})
	if err == nil && l == nil {
		l = emptyWishlist(o)
	}
	return changed, l, err
}

// MergeWishlist implements wishlist.Store.
func (db *DB) MergeWishlist(ctx context.Context, guestKey string, customerID int64, max int, now time.Time) (*wishlist.List, error) {
	to := wishlist.Customer(customerID)
	cond, arg, _ := wishlistOwner(to)
	var l *wishlist.List
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		l = nil
		from, err := wishlistIDTx(ctx, tx, wishlist.Guest(guestKey), false, now, nil)
		if err != nil {
			return err
		}
		if from != 0 {
			id, err := wishlistIDTx(ctx, tx, to, true, now, nil)
			if err != nil {
				return err
			}
			var n int
			if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM wishlist_items WHERE wishlist_id = ?`), id); err != nil {
				return err
			}
			if room := max - n; room > 0 {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, price_added, added_at)
					SELECT ?, g.product_id, g.variation_id, g.price_added, g.added_at FROM wishlist_items g
					WHERE g.wishlist_id = ? AND NOT EXISTS (SELECT 1 FROM wishlist_items c
						WHERE c.wishlist_id = ? AND c.product_id = g.product_id AND c.variation_id = g.variation_id)
					ORDER BY g.added_at DESC, g.product_id DESC, g.variation_id DESC`+sqlcore.Limit(room)+`
					ON CONFLICT (wishlist_id, product_id, variation_id) DO NOTHING`), id, from, id); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM wishlists WHERE id = ?`), from); err != nil {
				return err
			}
		}
		l, err = wishlistRead(ctx, tx, cond, arg, now)
		return err
	})
	if err == nil && l == nil {
		l = emptyWishlist(to)
	}
	return l, err
}

// SetWishlistShare implements wishlist.Store.
func (db *DB) SetWishlistShare(ctx context.Context, o wishlist.Owner, hash string, enabled bool, now time.Time) error {
	cond, arg, _ := wishlistOwner(o)
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE wishlists SET share_token = ?, share_enabled = ?, updated_at = ?
		WHERE `+cond+` AND (expires_at IS NULL OR expires_at > ?)`), sqlcore.NullString(hash), enabled, now.Unix(), arg, now.Unix())
	if err != nil {
		return err
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return wishlist.ErrNoList
	}
	return nil
}

// WishlistByShare implements wishlist.Store.
func (db *DB) WishlistByShare(ctx context.Context, hash string, now time.Time) (*wishlist.List, error) {
	if hash == "" {
		return nil, wishlist.ErrNotShared
	}
	l, err := wishlistRead(ctx, db.Read, "share_token = ? AND share_enabled", hash, now)
	if err == nil && l == nil {
		err = wishlist.ErrNotShared
	}
	return l, err
}

// DeleteExpiredWishlists implements wishlist.Store.
func (db *DB) DeleteExpiredWishlists(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM wishlists WHERE expires_at IS NOT NULL AND expires_at <= ?`), now.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// WishlistCounts implements wishlist.Store.
func (db *DB) WishlistCounts(ctx context.Context, productIDs []int64) (map[int64]int64, error) {
	in, args := sqlcore.InClause(productIDs)
	var rows []struct {
		ProductID int64 `db:"product_id"`
		N         int64 `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT product_id, COUNT(DISTINCT wishlist_id) AS n
		FROM wishlist_items WHERE product_id IN `+in+` GROUP BY product_id`), args...); err != nil {
		return nil, err
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r.ProductID] = r.N
	}
	return out, nil
}

// MostWished implements wishlist.Store.
func (db *DB) MostWished(ctx context.Context, limit int) ([]wishlist.ProductCount, error) {
	var rows []struct {
		ProductID int64 `db:"product_id"`
		N         int64 `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT product_id, COUNT(DISTINCT wishlist_id) AS n
		FROM wishlist_items GROUP BY product_id ORDER BY n DESC, product_id`+sqlcore.Limit(limit))); err != nil {
		return nil, err
	}
	out := make([]wishlist.ProductCount, len(rows))
	for i, r := range rows {
		out[i] = wishlist.ProductCount{ProductID: r.ProductID, Lists: r.N}
	}
	return out, nil
}
