package orderstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/checkout"
	"vitrine/internal/orders"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Orders in the shop admin (orders.Store): the list, notes, refunds, the
// mail log and status changes. Every write that moves stock or money first
// updates the order's row (lockOrderTx), so two staff members, a refund
// and a cancellation, or two instances, change one order one after the
// other; what is left to refund and what is left to restock are read after
// that lock.

var _ orders.Store = (*Orders)(nil)

// orderSearchWhere is the list's filter: statuses (drafts hidden when none
// is named) and the search on the number, billing name and email.
func (db *Orders) orderSearchWhere(q orders.Query) (string, []any) {
	var where []string
	var args []any
	if len(q.Statuses) > 0 {
		in, a := sqlcore.InClause(q.Statuses)
		where, args = append(where, "status IN "+in), append(args, a...)
	} else {
		where, args = append(where, "status <> ?"), append(args, checkout.StatusDraft)
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		like := "%" + sqlcore.LikeEscape(strings.ToLower(strings.TrimPrefix(s, "#"))) + "%"
		first, last := `json_extract(billing, '$.first_name')`, `json_extract(billing, '$.last_name')`
		if db.Engine == sqlcore.Postgres {
			first, last = `(billing::json->>'first_name')`, `(billing::json->>'last_name')`
		}
		cond := `lower(billing_email) LIKE ? ESCAPE '\' OR lower(` + first + ` || ' ' || ` + last + `) LIKE ? ESCAPE '\'`
		a := []any{like, like}
		if n, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64); err == nil && n > 0 {
			cond += ` OR id = ?`
			a = append(a, n)
		}
		where, args = append(where, "("+cond+")"), append(args, a...)
	}
	return strings.Join(where, " AND "), args
}

// ListOrders answers a page of orders, newest first, and how many match.
func (db *Orders) ListOrders(ctx context.Context, q orders.Query) ([]*checkout.Order, int, error) {
	where, args := db.orderSearchWhere(q)
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*) FROM orders WHERE `+where), args...); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	list, err := db.ordersWhere(ctx, where+` ORDER BY id DESC`+sqlcore.Limit(limit)+` OFFSET ?`, append(args, max(q.Offset, 0))...)
	return list, total, err
}

// OrderStatusCounts counts orders by status, drafts left out.
func (db *Orders) OrderStatusCounts(ctx context.Context) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT status, COUNT(*) AS n FROM orders WHERE status <> ? GROUP BY status`),
		checkout.StatusDraft); err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// --- notes ---

type noteRow struct {
	ID       int64         `db:"id"`
	OrderID  int64         `db:"order_id"`
	Note     string        `db:"note"`
	Customer bool          `db:"customer_note"`
	AddedBy  sql.NullInt64 `db:"added_by"`
	Author   string        `db:"author"`
	Created  int64         `db:"created_at"`
}

func (r noteRow) note() orders.Note {
	return orders.Note{ID: r.ID, OrderID: r.OrderID, Note: r.Note, Customer: r.Customer, AddedBy: r.AddedBy.Int64, Author: r.Author,
		Created: sqlcore.UnixUTC(r.Created)}
}

// OrderNotes lists an order's notes, newest first.
func (db *Orders) OrderNotes(ctx context.Context, orderID int64) ([]orders.Note, error) {
	return sqlcore.SelectAs(ctx, db.Read, noteRow.note, `SELECT id, order_id, note, customer_note, added_by, author, created_at
		FROM order_notes WHERE order_id = ? ORDER BY id DESC`, orderID)
}

// OrderNote is one note (the customer-note mail renders it).
func (db *Orders) OrderNote(ctx context.Context, id int64) (orders.Note, error) {
	var r noteRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT id, order_id, note, customer_note, added_by, author, created_at
		FROM order_notes WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return orders.Note{}, ErrOrderNotFound
	}
	return r.note(), err
}

// AddOrderNote records a note; a customer note queues its mail (kind
// customer_note, ref the note id) in the same transaction.
func (db *Orders) AddOrderNote(ctx context.Context, n orders.Note) (orders.Note, error) {
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = addNoteTx(ctx, tx, n)
		return err
	})
	return n, err
}

func addNoteTx(ctx context.Context, tx *sqlx.Tx, n orders.Note) (orders.Note, error) {
	n.Created = n.Created.UTC().Truncate(time.Second)
	err := tx.GetContext(ctx, &n.ID, tx.Rebind(`INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at)
		SELECT id, ?, ?, ?, ?, ? FROM orders WHERE id = ? RETURNING id`),
		n.Note, n.Customer, sqlcore.NullID(n.AddedBy), n.Author, n.Created.Unix(), n.OrderID)
	if err != nil {
		return n, sqlcore.NoRow(err, ErrOrderNotFound)
	}
	if n.Customer {
		ref := strconv.FormatInt(n.ID, 10)
		if err := sqlcore.EnqueueMailTx(ctx, tx, orders.MailCustomerNote, ref, "order-note:"+ref, n.Created); err != nil {
			return n, err
		}
	}
	return n, nil
}

// --- the mail log ---

// OrderMails lists the outbox rows about an order: its own mails (ref the
// order id) and the mails of its customer notes (ref the note id), oldest
// first.
func (db *Orders) OrderMails(ctx context.Context, orderID int64) ([]orders.MailEntry, error) {
	in, args := sqlcore.InClause(orders.OrderMailKinds)
	args = append(append([]any{strconv.FormatInt(orderID, 10)}, args...), orders.MailCustomerNote, orderID)
	var rows []struct {
		ID        int64         `db:"id"`
		Kind      string        `db:"kind"`
		Created   int64         `db:"created_at"`
		Attempts  int           `db:"attempts"`
		Sent      sql.NullInt64 `db:"sent_at"`
		Failed    sql.NullInt64 `db:"failed_at"`
		LastError string        `db:"last_error"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT id, kind, created_at, attempts, sent_at, failed_at, last_error FROM mail_outbox
		WHERE (ref = ? AND kind IN `+in+`) OR (kind = ? AND ref IN (SELECT CAST(id AS TEXT) FROM order_notes WHERE order_id = ?))
		ORDER BY id`), args...); err != nil {
		return nil, err
	}
	out := make([]orders.MailEntry, len(rows))
	for i, r := range rows {
		e := orders.MailEntry{ID: r.ID, Kind: r.Kind, Created: sqlcore.UnixUTC(r.Created), Attempts: r.Attempts, LastError: r.LastError}
		if r.Sent.Valid {
			t := sqlcore.UnixUTC(r.Sent.Int64)
			e.Sent = &t
		}
		if r.Failed.Valid {
			t := sqlcore.UnixUTC(r.Failed.Int64)
			e.Failed = &t
		}
		out[i] = e
	}
	return out, nil
}

// QueueOrderMail queues one more message of kind about an order (a
// resend): its dedupe key is new each time.
func (db *Orders) QueueOrderMail(ctx context.Context, orderID int64, kind string, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var n int64
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM mail_outbox WHERE ref = ? AND kind = ?`), strconv.FormatInt(orderID, 10), kind); err != nil {
			return err
		}
		ref := strconv.FormatInt(orderID, 10)
		return sqlcore.EnqueueMailTx(ctx, tx, kind, ref, fmt.Sprintf("order:%s:%s:resend:%d:%d", ref, kind, n, now.UnixNano()), now)
	})
}

// --- stock put back ---

// OrderRestocked is the units put back per line position.
func (db *Orders) OrderRestocked(ctx context.Context, orderID int64) (map[int]int64, error) {
	var rows []struct {
		Position  int   `db:"position"`
		Restocked int64 `db:"restocked"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT position, restocked FROM order_lines WHERE order_id = ?`), orderID); err != nil {
		return nil, err
	}
	out := map[int]int64{}
	for _, r := range rows {
		out[r.Position] = r.Restocked
	}
	return out, nil
}

// lockOrderTx takes the order's row for the transaction (an UPDATE: on
// PostgreSQL its row lock until commit; SQLite has one writer) and answers
// its status and total.
func lockOrderTx(ctx context.Context, tx *sqlx.Tx, id int64, now time.Time) (status string, total int64, err error) {
	var row struct {
		Status string `db:"status"`
		Total  int64  `db:"total"`
	}
	err = tx.GetContext(ctx, &row, tx.Rebind(`UPDATE orders SET updated_at = ? WHERE id = ? RETURNING status, total`), now.Unix(), id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, ErrOrderNotFound
	}
	if err == nil {
		err = sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now)
	}
	return row.Status, row.Total, err
}

// ChangeOrderStatus moves an order's status as c says, in one transaction
// with its note, the payment recorded (MarkPaid) and the units put back
// (Restock). orders.ErrStale when the order is no longer in c.From.
func (db *Orders) ChangeOrderStatus(ctx context.Context, c orders.StatusChange) error {
	now := c.Now.UTC().Truncate(time.Second)
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		status, _, err := lockOrderTx(ctx, tx, c.OrderID, now)
		if err != nil {
			return err
		}
		if status != c.From {
			return orders.ErrStale
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ?,
				paid_at = CASE WHEN ? AND paid_at IS NULL THEN ? ELSE paid_at END
			WHERE id = ?`), c.To, c.MarkPaid, now.Unix(), c.OrderID); err != nil {
			return err
		}
		if c.Restock {
			if err := db.restoreStockTx(ctx, tx, c.OrderID, now); err != nil {
				return err
			}
		}
		if c.To == checkout.StatusCancelled {
			if err := releaseCouponsTx(ctx, tx, c.OrderID); err != nil {
				return err
			}
		}
		if c.To == checkout.StatusCompleted {
			ref := strconv.FormatInt(c.OrderID, 10)
			if err := sqlcore.EnqueueMailTx(ctx, tx, orders.MailOrderCompleted, ref, "order:"+ref+":completed", now); err != nil {
				return err
			}
		}
		if c.Note != "" {
			if _, err := addNoteTx(ctx, tx, orders.Note{OrderID: c.OrderID, Note: c.Note, Created: now}); err != nil {
				return err
			}
		}
		return nil
	})
}

// --- refunds ---

const refundColumns = `id, order_id, amount, reason, method, status, provider_refund_id, provider_request_id, lines, restock,
	refunded_by, author, error, created_at, completed_at`

type refundRow struct {
	ID                int64         `db:"id"`
	OrderID           int64         `db:"order_id"`
	Amount            int64         `db:"amount"`
	Reason            string        `db:"reason"`
	Method            string        `db:"method"`
	Status            string        `db:"status"`
	ProviderRefundID  string        `db:"provider_refund_id"`
	ProviderRequestID string        `db:"provider_request_id"`
	Lines             string        `db:"lines"`
	Restock           bool          `db:"restock"`
	RefundedBy        sql.NullInt64 `db:"refunded_by"`
	Author            string        `db:"author"`
	Error             string        `db:"error"`
	Created           int64         `db:"created_at"`
	Completed         sql.NullInt64 `db:"completed_at"`
}

func (r refundRow) refund() (orders.Refund, error) {
	out := orders.Refund{ID: r.ID, OrderID: r.OrderID, Amount: r.Amount, Reason: r.Reason, Method: r.Method, Status: r.Status,
		ProviderRefundID: r.ProviderRefundID, ProviderRequestID: r.ProviderRequestID, Restock: r.Restock, RefundedBy: r.RefundedBy.Int64,
		Author: r.Author, Error: r.Error, Created: sqlcore.UnixUTC(r.Created), Lines: []orders.RefundLine{}}
	if r.Completed.Valid {
		t := sqlcore.UnixUTC(r.Completed.Int64)
		out.Completed = &t
	}
	if err := json.Unmarshal([]byte(r.Lines), &out.Lines); err != nil {
		return out, fmt.Errorf("refund %d lines: %w", r.ID, err)
	}
	return out, nil
}

// OrderRefunds lists an order's refunds, newest first.
func (db *Orders) OrderRefunds(ctx context.Context, orderID int64) ([]orders.Refund, error) {
	var rows []refundRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT `+refundColumns+` FROM order_refunds WHERE order_id = ? ORDER BY id DESC`), orderID); err != nil {
		return nil, err
	}
	out := make([]orders.Refund, 0, len(rows))
	for _, r := range rows {
		rf, err := r.refund()
		if err != nil {
			return nil, err
		}
		out = append(out, rf)
	}
	return out, nil
}

func refundTx(ctx context.Context, tx *sqlx.Tx, where string, args ...any) (orders.Refund, error) {
	var r refundRow
	if err := tx.GetContext(ctx, &r, tx.Rebind(`SELECT `+refundColumns+` FROM order_refunds WHERE `+where), args...); err != nil {
		return orders.Refund{}, err
	}
	return r.refund()
}

// BeginRefund records a refund (orders.Store): under the order's lock,
// the key's earlier refund is answered again (Replayed) when it asked the
// same, refused (orders.ErrKeyReused) when not; else the amount must fit
// what is left (the total less pending and completed refunds). A manual
// refund is completed in the same transaction.
func (db *Orders) BeginRefund(ctx context.Context, in orders.NewRefund) (orders.Refund, error) {
	now := in.Now.UTC().Truncate(time.Second)
	var out orders.Refund
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		status, total, err := lockOrderTx(ctx, tx, in.OrderID, now)
		if err != nil {
			return err
		}
		prev, err := refundTx(ctx, tx, `order_id = ? AND idem_key = ?`, in.OrderID, in.Key)
		if err == nil {
			var hash string
			if err := tx.GetContext(ctx, &hash, tx.Rebind(`SELECT request_hash FROM order_refunds WHERE id = ?`), prev.ID); err != nil {
				return err
			}
			if hash != in.RequestHash {
				return orders.ErrKeyReused
			}
			out = prev
			out.Replayed = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var reserved int64
		if err := tx.GetContext(ctx, &reserved, tx.Rebind(`SELECT COALESCE(SUM(amount), 0) FROM order_refunds WHERE order_id = ? AND status <> ?`),
			in.OrderID, orders.RefundFailed); err != nil {
			return err
		}
		if in.Amount <= 0 || in.Amount > total-reserved {
			return orders.ErrRefundTooMuch
		}
		lines, err := json.Marshal(orEmptySlice(in.Lines))
		if err != nil {
			return err
		}
		var id int64
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO order_refunds (order_id, idem_key, request_hash, amount, reason, method, status,
				lines, restock, refunded_by, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			in.OrderID, in.Key, in.RequestHash, in.Amount, in.Reason, in.Method, orders.RefundPending, string(lines), in.Restock,
			sqlcore.NullID(in.By.ID), in.By.Name, now.Unix()); err != nil {
			return err
		}
		// The provider's idempotency key, stored before the provider is
		// asked: every attempt of this refund sends it.
		reqID := fmt.Sprintf("vitrine-%d-refund-%d", in.OrderID, id)
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_refunds SET provider_request_id = ? WHERE id = ?`), reqID, id); err != nil {
			return err
		}
		if in.Method == orders.MethodManual {
			out, err = completeRefundTx(ctx, db, tx, id, "", in.Note, status, total, now)
			return err
		}
		out, err = refundTx(ctx, tx, `id = ?`, id)
		return err
	})
	return out, err
}

// CompleteRefund completes a pending refund (orders.Store).
func (db *Orders) CompleteRefund(ctx context.Context, refundID int64, providerRefundID, note string, now time.Time) (orders.Refund, error) {
	now = now.UTC().Truncate(time.Second)
	var out orders.Refund
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var orderID int64
		if err := tx.GetContext(ctx, &orderID, tx.Rebind(`SELECT order_id FROM order_refunds WHERE id = ?`), refundID); err != nil {
			return err
		}
		status, total, err := lockOrderTx(ctx, tx, orderID, now)
		if err != nil {
			return err
		}
		out, err = completeRefundTx(ctx, db, tx, refundID, providerRefundID, note, status, total, now)
		return err
	})
	return out, err
}

// completeRefundTx completes a pending refund once (its conditional UPDATE
// decides): the units it restocks are put back, a note says what was
// refunded (note, with the provider's refund id added), and an order with
// nothing left to refund becomes refunded. The caller holds the order's
// lock; status and total are the order's.
func completeRefundTx(ctx context.Context, db *Orders, tx *sqlx.Tx, refundID int64, providerRefundID, note, status string, total int64, now time.Time) (orders.Refund, error) {
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_refunds SET status = ?, provider_refund_id = ?, completed_at = ? WHERE id = ? AND status = ?`),
		orders.RefundCompleted, providerRefundID, now.Unix(), refundID, orders.RefundPending)
	if err != nil {
		return orders.Refund{}, err
	}
	r, err := refundTx(ctx, tx, `id = ?`, refundID)
	if err != nil {
		return r, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return r, nil // completed (or failed) already
	}
	if r.Restock && len(r.Lines) > 0 {
		want := map[int]int64{}
		for _, l := range r.Lines {
			want[l.Line] += l.Quantity
		}
		if err := db.restockLinesTx(ctx, tx, r.OrderID, want, now); err != nil {
			return r, err
		}
	}
	var refunded int64
	if err := tx.GetContext(ctx, &refunded, tx.Rebind(`SELECT COALESCE(SUM(amount), 0) FROM order_refunds WHERE order_id = ? AND status = ?`),
		r.OrderID, orders.RefundCompleted); err != nil {
		return r, err
	}
	if r.ProviderRefundID != "" {
		note += " Refund id: " + r.ProviderRefundID + "."
	}
	if refunded >= total && status != checkout.StatusRefunded && checkout.CanTransition(status, checkout.StatusRefunded) {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ? WHERE id = ?`), checkout.StatusRefunded, r.OrderID); err != nil {
			return r, err
		}
		note += " The order is fully refunded."
	}
	if _, err := addNoteTx(ctx, tx, orders.Note{OrderID: r.OrderID, Note: note, Created: now}); err != nil {
		return r, err
	}
	ref := strconv.FormatInt(r.OrderID, 10)
	if err := sqlcore.EnqueueMailTx(ctx, tx, orders.MailOrderRefunded, ref, fmt.Sprintf("order:%s:refunded:%d", ref, r.ID), now); err != nil {
		return r, err
	}
	return r, nil
}

// FailRefund gives a pending refund up (orders.Store): its amount is free
// again. A refund no longer pending is answered as it is.
func (db *Orders) FailRefund(ctx context.Context, refundID int64, why string, now time.Time) (orders.Refund, error) {
	now = now.UTC().Truncate(time.Second)
	var out orders.Refund
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_refunds SET status = ?, error = ? WHERE id = ? AND status = ?`),
			orders.RefundFailed, why, refundID, orders.RefundPending)
		if err != nil {
			return err
		}
		out, err = refundTx(ctx, tx, `id = ?`, refundID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			_, err = addNoteTx(ctx, tx, orders.Note{OrderID: out.OrderID, Note: "A refund through " + out.Method + " was refused: " + why, Created: now})
		}
		return err
	})
	return out, err
}
