package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/alerts"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Back-in-stock and price-drop alerts (internal/alerts, migration 00048).
// Restocks and price falls are queued by triggers on products in the
// transaction of whatever wrote them; the worker's claims are conditional
// updates, so across instances an alert is marked sent, and its mail
// queued, once. Times are unix seconds.

type alertItemRow struct {
	ID       int64         `db:"id"`
	ParentID sql.NullInt64 `db:"parent_id"`
	Type     string        `db:"type"`
	Name     string        `db:"name"`
	Slug     string        `db:"slug"`
	Status   string        `db:"status"`
	Stock    string        `db:"stock_status"`
}

// AlertItem implements alerts.Store.
func (db *DB) AlertItem(ctx context.Context, id int64) (*alerts.Item, error) {
	var r alertItemRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT p.id, p.parent_id, p.type, p.name,
		COALESCE(pp.slug, p.slug) AS slug,
		CASE WHEN pp.id IS NULL OR p.status <> 'publish' THEN p.status ELSE pp.status END AS status,
		p.stock_status
		FROM products p LEFT JOIN products pp ON pp.id = p.parent_id WHERE p.id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, alerts.ErrUnknownItem
	}
	if err != nil {
		return nil, err
	}
	return &alerts.Item{ID: r.ID, ParentID: r.ParentID.Int64, Type: r.Type, Name: r.Name, Slug: r.Slug,
		Status: r.Status, InStock: r.Stock != "outofstock"}, nil
}

const stockAlertColumns = `id, product_id, email, user_id, status, COALESCE(confirm_hash, '') AS confirm_hash, confirm_sealed, confirm_expires, created_at`

type stockAlertRow struct {
	ID             int64  `db:"id"`
	ProductID      int64  `db:"product_id"`
	Email          string `db:"email"`
	UserID         int64  `db:"user_id"`
	Status         string `db:"status"`
	ConfirmHash    string `db:"confirm_hash"`
	ConfirmSealed  string `db:"confirm_sealed"`
	ConfirmExpires int64  `db:"confirm_expires"`
	CreatedAt      int64  `db:"created_at"`
}

func (r stockAlertRow) alert() *alerts.Alert {
	return &alerts.Alert{ID: r.ID, ProductID: r.ProductID, Email: r.Email, UserID: r.UserID, Status: r.Status,
		ConfirmHash: r.ConfirmHash, ConfirmSealed: r.ConfirmSealed, ConfirmExpires: sqlcore.UnixUTC(r.ConfirmExpires),
		CreatedAt: sqlcore.UnixUTC(r.CreatedAt)}
}

// InsertStockAlert implements alerts.Store.
func (db *DB) InsertStockAlert(ctx context.Context, a *alerts.NewAlert) (int64, bool, error) {
	var id int64
	var created bool
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		id, created = 0, false
		now := a.CreatedAt.Unix()
		// A pending alert whose link expired no longer holds the address.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM stock_alerts
			WHERE product_id = ? AND email = ? AND status = 'pending' AND confirm_expires <= ?`), a.ProductID, a.Email, now); err != nil {
			return err
		}
		var hash any
		if a.ConfirmHash != "" {
			hash = a.ConfirmHash
		}
		var expires int64
		if !a.ConfirmExpires.IsZero() {
			expires = a.ConfirmExpires.Unix()
		}
		err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO stock_alerts
			(product_id, email, user_id, status, confirm_hash, confirm_sealed, confirm_expires, created_at, confirmed_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (product_id, email) WHERE status IN ('pending', 'waiting') DO NOTHING RETURNING id`),
			a.ProductID, a.Email, a.UserID, a.Status, hash, a.ConfirmSealed, expires, now, confirmedAt(a))
		if errors.Is(err, sql.ErrNoRows) {
			if err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM stock_alerts
				WHERE product_id = ? AND email = ? AND status IN ('pending', 'waiting')`), a.ProductID, a.Email); err != nil {
				return err
			}
			if a.Status == alerts.StatusWaiting {
				// A customer's one click confirms a guest's pending alert of
				// their own address.
				_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE stock_alerts SET status = 'waiting', user_id = ?,
					confirm_hash = NULL, confirm_sealed = '', confirmed_at = ? WHERE id = ? AND status = 'pending'`), a.UserID, now, id)
				return err
			}
			return nil
		}
		if err != nil {
			return err
		}
		created = true
		if a.Status == alerts.StatusPending {
			return enqueueMailOnce(ctx, tx, alerts.MailConfirm, strconv.FormatInt(id, 10), a.CreatedAt)
		}
		return nil
	})
	return id, created, err
}

func confirmedAt(a *alerts.NewAlert) any {
	if a.Status == alerts.StatusWaiting {
		return a.CreatedAt.Unix()
	}
	return nil
}

// StockAlert implements alerts.Store.
func (db *DB) StockAlert(ctx context.Context, id int64) (*alerts.Alert, error) {
	return db.stockAlertWhere(ctx, `id = ?`, id)
}

// StockAlertByConfirm implements alerts.Store.
func (db *DB) StockAlertByConfirm(ctx context.Context, hash string) (*alerts.Alert, error) {
	return db.stockAlertWhere(ctx, `confirm_hash = ?`, hash)
}

func (db *DB) stockAlertWhere(ctx context.Context, where string, arg any) (*alerts.Alert, error) {
	var r stockAlertRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+stockAlertColumns+` FROM stock_alerts WHERE `+where), arg)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, alerts.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return r.alert(), nil
}

// ConfirmStockAlert implements alerts.Store. An item already back in stock
// when the link is opened is queued as a restock, so the alert is mailed
// at once instead of at the next restock.
func (db *DB) ConfirmStockAlert(ctx context.Context, hash string, now time.Time) (*alerts.Alert, bool, error) {
	var out *alerts.Alert
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		out = nil
		var r stockAlertRow
		err := tx.GetContext(ctx, &r, tx.Rebind(`UPDATE stock_alerts SET status = 'waiting', confirmed_at = ?,
			confirm_hash = NULL, confirm_sealed = ''
			WHERE confirm_hash = ? AND status = 'pending' AND confirm_expires > ? RETURNING `+stockAlertColumns), now.Unix(), hash, now.Unix())
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		out = r.alert()
		_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO stock_restocks (product_id)
			SELECT id FROM products WHERE id = ? AND stock_status <> 'outofstock'`), r.ProductID)
		return err
	})
	return out, out != nil, err
}

// UnsubscribeStockAlert implements alerts.Store.
func (db *DB) UnsubscribeStockAlert(ctx context.Context, id int64, now time.Time) (bool, error) {
	found := false
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var email string
		err := tx.GetContext(ctx, &email, tx.Rebind(`SELECT email FROM stock_alerts WHERE id = ?`), id)
		if errors.Is(err, sql.ErrNoRows) {
			found = false
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE stock_alerts SET status = 'unsubscribed', confirm_hash = NULL, confirm_sealed = ''
			WHERE (id = ? AND status <> 'unsubscribed') OR (email = ? AND status IN ('pending', 'waiting'))`), id, email)
		return err
	})
	return found, err
}

// ClaimRestocks implements alerts.Store.
func (db *DB) ClaimRestocks(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]alerts.Restock, error) {
	// The worker asks every few seconds on every instance: an empty queue
	// costs one read, no write transaction.
	var any []int64
	if err := db.Read.SelectContext(ctx, &any, db.Read.Rebind(`SELECT id FROM stock_restocks WHERE claimed_until <= ? LIMIT 1`), now.Unix()); err != nil || len(any) == 0 {
		return nil, err
	}
	var out []alerts.Restock
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		out = out[:0]
		rows, err := tx.QueryxContext(ctx, tx.Rebind(`UPDATE stock_restocks SET claimed_until = ?
			WHERE id IN (SELECT id FROM stock_restocks WHERE claimed_until <= ? ORDER BY id`+sqlcore.Limit(limit)+`) AND claimed_until <= ?
			RETURNING id, product_id`), leaseEnd(now, lease), now.Unix(), now.Unix())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r alerts.Restock
			if err := rows.Scan(&r.ID, &r.ItemID); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// QueueRestockMails implements alerts.Store: the conditional UPDATE takes
// only alerts still waiting, so of two instances on one item each alert
// goes to one; the mails are queued in the same transaction.
func (db *DB) QueueRestockMails(ctx context.Context, item int64, now time.Time, limit int) (int, error) {
	var n int
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var ids []int64
		if err := tx.SelectContext(ctx, &ids, tx.Rebind(`UPDATE stock_alerts SET status = 'sent', sent_at = ?
			WHERE id IN (SELECT id FROM stock_alerts WHERE product_id = ? AND status = 'waiting' ORDER BY id`+sqlcore.Limit(limit)+`)
			  AND status = 'waiting' RETURNING id`), now.Unix(), item); err != nil {
			return err
		}
		n = len(ids)
		const per = 100 // rows per INSERT: 500 parameters
		for start := 0; start < len(ids); start += per {
			chunk := ids[start:min(start+per, len(ids))]
			var q strings.Builder
			args := make([]any, 0, 5*len(chunk))
			q.WriteString(`INSERT INTO mail_outbox (dedupe_key, kind, ref, created_at, next_attempt_at) VALUES `)
			for i, id := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?)")
				ref := strconv.FormatInt(id, 10)
				args = append(args, alerts.MailBackInStock+":"+ref, alerts.MailBackInStock, ref, now.Unix(), now.Unix())
			}
			q.WriteString(` ON CONFLICT (dedupe_key) DO NOTHING`)
			if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// QueueWishlistRestockMails implements alerts.Store (the wishlist's tables,
// migration 00047): one mail per restock and customer, its dedupe key
// naming both.
func (db *DB) QueueWishlistRestockMails(ctx context.Context, restockID, item int64, now time.Time) (int, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO mail_outbox (dedupe_key, kind, ref, created_at, next_attempt_at)
			SELECT DISTINCT CAST(? AS TEXT) || CAST(w.customer_id AS TEXT), CAST(? AS TEXT), CAST(w.customer_id AS TEXT) || CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
			FROM products pr
			JOIN wishlist_items i ON i.product_id = COALESCE(pr.parent_id, pr.id)
			    AND i.variation_id = CASE WHEN pr.parent_id IS NULL THEN 0 ELSE pr.id END
			JOIN wishlists w ON w.id = i.wishlist_id
			JOIN alert_prefs p ON p.user_id = w.customer_id AND p.back_in_stock = ?
			WHERE pr.id = ? AND w.customer_id > 0
			ON CONFLICT (dedupe_key) DO NOTHING`),
			alerts.MailWishlistBack+":"+strconv.FormatInt(restockID, 10)+":", alerts.MailWishlistBack,
			"."+strconv.FormatInt(item, 10), now.Unix(), now.Unix(), true, item)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// DoneRestock implements alerts.Store.
func (db *DB) DoneRestock(ctx context.Context, id int64) error {
	return db.Exec(ctx, `DELETE FROM stock_restocks WHERE id = ?`, id)
}

// AlertPrefs implements alerts.Store.
func (db *DB) AlertPrefs(ctx context.Context, userID int64) (alerts.Prefs, error) {
	var p struct {
		Back  bool `db:"back_in_stock"`
		Price bool `db:"price_drop"`
	}
	err := db.Read.GetContext(ctx, &p, db.Read.Rebind(`SELECT back_in_stock, price_drop FROM alert_prefs WHERE user_id = ?`), userID)
	if errors.Is(err, sql.ErrNoRows) {
		return alerts.Prefs{}, nil
	}
	return alerts.Prefs{BackInStock: p.Back, PriceDrop: p.Price}, err
}

// SetAlertPrefs implements alerts.Store.
func (db *DB) SetAlertPrefs(ctx context.Context, userID int64, p alerts.Prefs) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO alert_prefs (user_id, back_in_stock, price_drop)
			SELECT id, ?, ? FROM users WHERE id = ?
			ON CONFLICT (user_id) DO UPDATE SET back_in_stock = excluded.back_in_stock, price_drop = excluded.price_drop`),
			p.BackInStock, p.PriceDrop, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return alerts.ErrNotFound
		}
		if !p.PriceDrop {
			_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM price_drop_due WHERE user_id = ?`), userID)
		}
		return err
	})
}

type alertCountRow struct {
	ID      int64  `db:"id"`
	Name    string `db:"name"`
	Pending int    `db:"pending"`
	Waiting int    `db:"waiting"`
	Sent    int    `db:"sent"`
	Unsub   int    `db:"unsubscribed"`
}

func (r alertCountRow) counts() alerts.Counts {
	return alerts.Counts{ProductID: r.ID, Name: r.Name, Pending: r.Pending, Waiting: r.Waiting, Sent: r.Sent, Unsubscribed: r.Unsub}
}

const alertSums = `COALESCE(SUM(CASE WHEN a.status = 'pending' THEN 1 ELSE 0 END), 0) AS pending,
	COALESCE(SUM(CASE WHEN a.status = 'waiting' THEN 1 ELSE 0 END), 0) AS waiting,
	COALESCE(SUM(CASE WHEN a.status = 'sent' THEN 1 ELSE 0 END), 0) AS sent,
	COALESCE(SUM(CASE WHEN a.status = 'unsubscribed' THEN 1 ELSE 0 END), 0) AS unsubscribed`

// AlertCounts implements alerts.Store: the product's row and its
// variations', each with its counts.
func (db *DB) AlertCounts(ctx context.Context, productID int64) ([]alerts.Counts, error) {
	return sqlcore.SelectAs(ctx, db.Read, alertCountRow.counts, `SELECT p.id, p.name, `+alertSums+`
		FROM products p LEFT JOIN stock_alerts a ON a.product_id = p.id
		WHERE p.id = ? OR p.parent_id = ? GROUP BY p.id, p.name ORDER BY p.id`, productID, productID)
}

// AlertTotals implements alerts.Store.
func (db *DB) AlertTotals(ctx context.Context, limit int) ([]alerts.Counts, error) {
	return sqlcore.SelectAs(ctx, db.Read, alertCountRow.counts, `SELECT p.id, p.name, `+alertSums+`
		FROM stock_alerts a JOIN products p ON p.id = a.product_id
		GROUP BY p.id, p.name ORDER BY waiting DESC, pending DESC, p.id`+sqlcore.Limit(limit))
}

// DrainPriceChecks implements alerts.Store.
func (db *DB) DrainPriceChecks(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var last sql.NullInt64
		if err := tx.GetContext(ctx, &last, `SELECT MAX(id) FROM price_checks`); err != nil || !last.Valid {
			return err
		}
		// (An idle pass, once a minute, is this one read in its transaction.)
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO price_drop_due (user_id, since)
			SELECT DISTINCT w.customer_id, CAST(? AS BIGINT) FROM price_checks c
			JOIN products pr ON pr.id = c.product_id
			JOIN wishlist_items i ON i.product_id = COALESCE(pr.parent_id, pr.id)
			    AND i.variation_id = CASE WHEN pr.parent_id IS NULL THEN 0 ELSE pr.id END
			JOIN wishlists w ON w.id = i.wishlist_id
			JOIN alert_prefs p ON p.user_id = w.customer_id AND p.price_drop = ?
			WHERE c.id <= ? AND w.customer_id > 0
			ON CONFLICT (user_id) DO NOTHING`), now.Unix(), true, last.Int64)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM price_checks WHERE id <= ?`), last.Int64)
		return err
	})
	return int(n), err
}

// DuePriceDrops implements alerts.Store.
func (db *DB) DuePriceDrops(ctx context.Context, day string, limit int) ([]int64, error) {
	var ids []int64
	err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT d.user_id FROM price_drop_due d
		WHERE NOT EXISTS (SELECT 1 FROM price_drop_days x WHERE x.user_id = d.user_id AND x.day = ?)
		ORDER BY d.user_id`+sqlcore.Limit(limit)), day)
	return ids, err
}

// DropCandidates implements alerts.Store: each wishlisted item (the
// variation when one was chosen) with its price now (sort_price, which the
// schedule pass keeps at a sale's boundaries) and its reference.
func (db *DB) DropCandidates(ctx context.Context, userID int64) ([]alerts.DropCandidate, error) {
	type row struct {
		ID    int64  `db:"id"`
		Name  string `db:"name"`
		Slug  string `db:"slug"`
		Ref   int64  `db:"ref"`
		Price int64  `db:"price"`
	}
	return sqlcore.SelectAs(ctx, db.Read, func(r row) alerts.DropCandidate {
		return alerts.DropCandidate{ProductID: r.ID, Name: r.Name, Slug: r.Slug, Reference: r.Ref, Price: r.Price}
	}, `SELECT p.id, p.name, COALESCE(pp.slug, p.slug) AS slug, MIN(COALESCE(m.price, i.price_added)) AS ref, p.sort_price AS price
		FROM wishlists w
		JOIN wishlist_items i ON i.wishlist_id = w.id
		JOIN products p ON p.id = CASE WHEN i.variation_id > 0 THEN i.variation_id ELSE i.product_id END
		LEFT JOIN products pp ON pp.id = p.parent_id
		LEFT JOIN price_drop_mailed m ON m.user_id = w.customer_id AND m.product_id = p.id
		WHERE w.customer_id = ? AND p.sort_price IS NOT NULL AND p.status = 'publish'
		GROUP BY p.id, p.name, pp.slug, p.slug, p.sort_price ORDER BY p.id`, userID)
}

// RecordPriceDigest implements alerts.Store.
func (db *DB) RecordPriceDigest(ctx context.Context, userID int64, day string, drops []alerts.Drop, now time.Time) (bool, error) {
	queued := false
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		queued = false
		if len(drops) > 0 {
			b, err := json.Marshal(drops)
			if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO price_drop_days (user_id, day, drops) VALUES (?, ?, ?)
				ON CONFLICT (user_id, day) DO NOTHING`), userID, day, string(b))
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // mailed today already: stays due until tomorrow
			}
			for _, d := range drops {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO price_drop_mailed (user_id, product_id, price) VALUES (?, ?, ?)
					ON CONFLICT (user_id, product_id) DO UPDATE SET price = excluded.price`), userID, d.ProductID, d.To); err != nil {
					return err
				}
			}
			if err := enqueueMailOnce(ctx, tx, alerts.MailPriceDrop, strconv.FormatInt(userID, 10)+"."+day, now); err != nil {
				return err
			}
			queued = true
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM price_drop_due WHERE user_id = ?`), userID)
		return err
	})
	return queued, err
}

// PriceDigest implements alerts.Store.
func (db *DB) PriceDigest(ctx context.Context, userID int64, day string) ([]alerts.Drop, error) {
	var s string
	err := db.Read.GetContext(ctx, &s, db.Read.Rebind(`SELECT drops FROM price_drop_days WHERE user_id = ? AND day = ?`), userID, day)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, alerts.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var out []alerts.Drop
	return out, json.Unmarshal([]byte(s), &out)
}

// AlertUser implements alerts.Store.
func (db *DB) AlertUser(ctx context.Context, userID int64) (string, error) {
	var email string
	err := db.Read.GetContext(ctx, &email, db.Read.Rebind(`SELECT email FROM users WHERE id = ?`), userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", alerts.ErrNotFound
	}
	return email, err
}
