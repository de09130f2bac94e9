package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// What an order's personal data is replaced with, as WooCommerce's "remove
// personal data" writes it: text that was there reads "[deleted]" (so the
// admin sees something was removed, not that it was never given), an email
// a reserved address that never delivers, an IP address the unspecified one.
// A value that was empty stays empty.
const (
	AnonymisedText  = "[deleted]"
	AnonymisedEmail = "deleted@site.invalid"
	AnonymisedIP    = "0.0.0.0"
)

// AnonymisedNote is the note an anonymised order gets.
const AnonymisedNote = "Personal data removed."

// anonymiseBatch bounds one transaction of AnonymiseOrders.
const anonymiseBatch = 100

// Attribution fields that describe the visit of one person rather than the
// campaign that brought them (where they came from, what they read, when,
// their browser, per-person campaign ids): removed from an anonymised
// order. The rest (source type, origin, device type, utm source, medium,
// campaign…) stays, so reports by channel still count the order.
var personalAttribution = []string{"referrer", "session_entry", "session_start_time", "session_pages",
	"session_count", "user_agent", "utm_id", "utm_term", "utm_content"}

// AnonymiseOrders removes the personal data of the orders ids, in one
// transaction per batch of 100: billing and shipping names, companies,
// street addresses, cities, postcodes, email and phone; the customer's IP
// address and user agent; the customer's note; the attribution fields that
// describe the person's visit; coupon uses' email and account; any other
// meta value, order note or refund reason that quotes the person's data
// (notes are deleted, the others replaced). Country and state stay (the tax
// charged depends on them), as do amounts, lines, products, taxes, payment
// references and the order key. The order is unlinked from its account,
// marked anonymised (anonymised_at), noted and announced as order.updated.
//
// It answers how many orders it changed: unknown ids and orders already
// anonymised are skipped, so a rerun changes and counts nothing. On an
// error the batches before it stay done and are counted.
func (db *DB) AnonymiseOrders(ctx context.Context, ids []int64) (int, error) {
	done := 0
	for len(ids) > 0 {
		batch := ids[:min(len(ids), anonymiseBatch)]
		ids = ids[len(batch):]
		now := db.Now().UTC().Truncate(time.Second)
		n := 0
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			n = 0
			for _, id := range batch {
				changed, err := anonymiseOrderTx(ctx, tx, id, now)
				if err != nil {
					return fmt.Errorf("anonymise order %d: %w", id, err)
				}
				if changed {
					n++
				}
			}
			return nil
		})
		if err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

// anonymiseOrderTx anonymises one order inside tx; false when it is unknown
// or already anonymised.
func anonymiseOrderTx(ctx context.Context, tx *sqlx.Tx, id int64, now time.Time) (bool, error) {
	// Claiming the row first takes its lock (PostgreSQL) and makes a
	// concurrent or repeated run find it done.
	var row struct {
		Billing      string        `db:"billing"`
		Shipping     string        `db:"shipping"`
		BillingEmail string        `db:"billing_email"`
		CustomerNote string        `db:"customer_note"`
		CustomerID   sql.NullInt64 `db:"customer_id"`
	}
	err := tx.GetContext(ctx, &row, tx.Rebind(`UPDATE orders SET anonymised_at = ?, updated_at = ?
		WHERE id = ? AND anonymised_at IS NULL
		RETURNING billing, shipping, billing_email, customer_note, customer_id`), now.Unix(), now.Unix(), id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var billing, shipping cart.Address
	if err := json.Unmarshal([]byte(row.Billing), &billing); err != nil {
		return false, fmt.Errorf("billing: %w", err)
	}
	if err := json.Unmarshal([]byte(row.Shipping), &shipping); err != nil {
		return false, fmt.Errorf("shipping: %w", err)
	}
	meta := map[string]string{}
	rows, err := tx.QueryxContext(ctx, tx.Rebind(`SELECT meta_key, value FROM order_meta WHERE order_id = ?`), id)
	if err != nil {
		return false, err
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return false, err
		}
		meta[k] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}

	// What identifies the person, to find it quoted elsewhere on the order.
	p := personOf(billing, shipping, row.BillingEmail, meta["_customer_ip_address"])
	if row.CustomerID.Valid {
		var u struct {
			Email     string `db:"email"`
			FirstName string `db:"first_name"`
			LastName  string `db:"last_name"`
		}
		err := tx.GetContext(ctx, &u, tx.Rebind(`SELECT email, first_name, last_name FROM users WHERE id = ?`), row.CustomerID.Int64)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
		p.add(u.Email, u.FirstName, u.LastName, strings.TrimSpace(u.FirstName+" "+u.LastName))
	}

	b, _ := json.Marshal(anonymiseAddress(billing))
	s, _ := json.Marshal(anonymiseAddress(shipping))
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET billing = ?, shipping = ?, billing_email = ?, customer_note = ?,
		customer_id = NULL, cart_session = '' WHERE id = ?`),
		string(b), string(s), placeholder(row.BillingEmail, AnonymisedEmail), placeholder(row.CustomerNote, AnonymisedText), id); err != nil {
		return false, err
	}

	drop := map[string]bool{}
	for _, f := range personalAttribution {
		drop[checkout.AttributionMetaPrefix+f] = true
	}
	for k, v := range meta {
		var nv string
		switch {
		case drop[k]:
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM order_meta WHERE order_id = ? AND meta_key = ?`), id, k); err != nil {
				return false, err
			}
			continue
		case k == "_customer_ip_address":
			nv = placeholder(v, AnonymisedIP)
		case k == "_customer_user_agent" || p.quotedIn(v):
			nv = placeholder(v, AnonymisedText)
		default:
			continue
		}
		if nv != v {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_meta SET value = ? WHERE order_id = ? AND meta_key = ?`), nv, id, k); err != nil {
				return false, err
			}
		}
	}

	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_coupons SET customer_id = 0, email = '' WHERE order_id = ?`), id); err != nil {
		return false, err
	}
	if err := scrubQuotes(ctx, tx, p, "order_notes", "note", `DELETE FROM order_notes WHERE id = ?`, id); err != nil {
		return false, err
	}
	if err := scrubQuotes(ctx, tx, p, "order_refunds", "reason",
		`UPDATE order_refunds SET reason = '`+AnonymisedText+`' WHERE id = ?`, id); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at)
		VALUES (?, ?, ?, NULL, '', ?)`), id, AnonymisedNote, false, now.Unix()); err != nil {
		return false, err
	}
	return true, sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now)
}

// scrubQuotes runs change (one "?": the row's id) on each row of the
// order's table whose column quotes the person. table and column are
// constants of the callers.
func scrubQuotes(ctx context.Context, tx *sqlx.Tx, p person, table, column, change string, orderID int64) error {
	var rows []struct {
		ID   int64  `db:"id"`
		Text string `db:"text"`
	}
	if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT id, `+column+` AS text FROM `+table+` WHERE order_id = ?`), orderID); err != nil {
		return err
	}
	for _, r := range rows {
		if p.quotedIn(r.Text) {
			if _, err := tx.ExecContext(ctx, tx.Rebind(change), r.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// anonymiseAddress keeps an address's country and state (the tax charged
// depends on them) and replaces the rest.
func anonymiseAddress(a cart.Address) cart.Address {
	return cart.Address{
		FirstName: placeholder(a.FirstName, AnonymisedText),
		LastName:  placeholder(a.LastName, AnonymisedText),
		Company:   placeholder(a.Company, AnonymisedText),
		Address1:  placeholder(a.Address1, AnonymisedText),
		Address2:  placeholder(a.Address2, AnonymisedText),
		City:      placeholder(a.City, AnonymisedText),
		Postcode:  placeholder(a.Postcode, AnonymisedText),
		State:     a.State,
		Country:   a.Country,
		Email:     placeholder(a.Email, AnonymisedEmail),
		// A phone number is removed, not replaced: "[deleted]" is no number
		// a client could parse, and an empty one is the documented "none".
		Phone: "",
	}
}

// placeholder is with for a value that was given, "" for one that was not.
func placeholder(v, with string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	return with
}

// person is what identifies the customer of an order, lower-cased, to find
// it quoted in free text (a note, a refund reason, a meta value).
type person []string

// minQuoted is the shortest value looked for: shorter ones ("A", "12")
// would match unrelated text.
const minQuoted = 3

func personOf(billing, shipping cart.Address, email, ip string) person {
	var p person
	for _, a := range []cart.Address{billing, shipping} {
		p.add(a.FirstName, a.LastName, strings.TrimSpace(a.FirstName+" "+a.LastName), a.Company, a.Address1, a.Address2,
			a.Postcode, a.Email, a.Phone)
	}
	p.add(email, ip)
	return p
}

func (p *person) add(vs ...string) {
	for _, v := range vs {
		v = strings.ToLower(strings.TrimSpace(v))
		if len(v) >= minQuoted && v != strings.ToLower(AnonymisedText) && v != AnonymisedEmail && v != AnonymisedIP {
			*p = append(*p, v)
		}
	}
}

func (p person) quotedIn(text string) bool {
	text = strings.ToLower(text)
	for _, v := range p {
		if strings.Contains(text, v) {
			return true
		}
	}
	return false
}
