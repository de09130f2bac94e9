package orderstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/orders"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Orders moved in from another shop (orders.History, internal/wcimport):
// written as they were, in one transaction per order, with no stock
// taken, no mail queued, no webhook raised and no change logged. A new
// order keeps its old number as its id when that id is free; the id
// sequence then continues after it, so the next order placed here gets a
// higher number (SQLite's AUTOINCREMENT follows an explicit id by itself;
// PostgreSQL's sequence is moved under an advisory lock, never back).

// orderSeqLock is the advisory lock key that serializes moving the
// PostgreSQL order id sequence forward.
const orderSeqLock = 7_363_001

// ImportOrder implements orders.HistoryStore.
func (db *Orders) ImportOrder(ctx context.Context, h orders.History) (id int64, refundIDs []int64, err error) {
	o := h.Order
	if o == nil {
		return 0, nil, errors.New("import order: no order")
	}
	for i, l := range o.Lines {
		if l.Quantity <= 0 {
			return 0, nil, fmt.Errorf("import order: line %d has quantity %d", i+1, l.Quantity)
		}
	}
	if o.Total < 0 {
		return 0, nil, fmt.Errorf("import order: total %d is negative", o.Total)
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		id, refundIDs = 0, nil
		var err error
		if o.ID != 0 {
			id, err = db.replaceOrderTx(ctx, tx, o)
		} else {
			id, err = db.insertHistoryOrderTx(ctx, tx, o)
		}
		if err != nil {
			return err
		}
		refundIDs, err = writeHistoryPartsTx(ctx, tx, id, h)
		return err
	})
	if sqlcore.UniqueViolation(err) && strings.Contains(err.Error(), "order_key") {
		return 0, nil, fmt.Errorf("%w: %v", orders.ErrHistoryKeyTaken, err)
	}
	if err != nil {
		return 0, nil, err
	}
	return id, refundIDs, nil
}

func historyJSON(o *checkout.Order) (billing, shipping, shipLines, taxLines, feeLines string) {
	b, _ := json.Marshal(o.Billing)
	s, _ := json.Marshal(o.Shipping)
	sl, _ := json.Marshal(orEmptySlice(o.ShippingLines))
	tl, _ := json.Marshal(orEmptySlice(o.TaxLines))
	fl, _ := json.Marshal(orEmptySlice(o.FeeLines))
	return string(b), string(s), string(sl), string(tl), string(fl)
}

func paidArg(o *checkout.Order) sql.NullInt64 {
	if o.PaidAt == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: o.PaidAt.Unix(), Valid: true}
}

func (db *Orders) insertHistoryOrderTx(ctx context.Context, tx *sqlx.Tx, o *checkout.Order) (int64, error) {
	number, _ := strconv.ParseInt(o.Number, 10, 64)
	if number > 0 {
		var taken int
		err := tx.GetContext(ctx, &taken, tx.Rebind(`SELECT 1 FROM orders WHERE id = ?`), number)
		switch {
		case err == nil:
			number = 0 // given here already: the next free one
		case !errors.Is(err, sql.ErrNoRows):
			return 0, err
		}
	}
	if number == 0 && o.Number != "" {
		if o.Meta == nil {
			o.Meta = map[string]string{}
		}
		o.Meta[orders.MetaOldNumber] = o.Number
	}
	billing, shipping, shipLines, taxLines, feeLines := historyJSON(o)
	cols := `order_key, status, currency, currency_rate, base_currency, prices_include_tax, billing, shipping,
		billing_email, customer_note, payment_method, payment_method_title, transaction_id, shipping_lines, tax_lines, fee_lines,
		items_subtotal, items_tax, shipping_total, shipping_tax, discount_total, discount_tax, total_tax, total, cart_session,
		created_at, updated_at, payment_state, customer_id, paid_at`
	args := []any{o.Key, o.Status, o.Currency, o.CurrencyRate, o.BaseCurrency, o.PricesIncludeTax, billing, shipping,
		strings.ToLower(o.Billing.Email), o.CustomerNote, o.PaymentMethod, o.PaymentMethodTitle, o.TransactionID, shipLines, taxLines, feeLines,
		o.ItemsSubtotal, o.ItemsTax, o.ShippingTotal, o.ShippingTax, o.DiscountTotal, o.DiscountTax, o.TotalTax, o.Total, "",
		o.CreatedAt.Unix(), o.UpdatedAt.Unix(), o.PaymentState, sqlcore.NullID(o.CustomerID), paidArg(o)}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")
	var id int64
	if number > 0 {
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO orders (id, `+cols+`) VALUES (?, `+marks+`) RETURNING id`),
			append([]any{number}, args...)...); err != nil {
			return 0, fmt.Errorf("insert order: %w", err)
		}
		if db.Engine == sqlcore.Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, orderSeqLock); err != nil {
				return 0, err
			}
			// The highest id given so far: last_value, or one less while
			// the sequence has never been called (its first nextval
			// answers last_value itself).
			if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('orders', 'id'), $1)
				WHERE $1 > (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM orders_id_seq)`, id); err != nil {
				return 0, fmt.Errorf("continue order numbers: %w", err)
			}
		}
	} else if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO orders (`+cols+`) VALUES (`+marks+`) RETURNING id`), args...); err != nil {
		return 0, fmt.Errorf("insert order: %w", err)
	}
	return id, nil
}

// replaceOrderTx writes o over the order it was moved in as, and clears
// its parts (writeHistoryPartsTx writes them again).
func (db *Orders) replaceOrderTx(ctx context.Context, tx *sqlx.Tx, o *checkout.Order) (int64, error) {
	billing, shipping, shipLines, taxLines, feeLines := historyJSON(o)
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ?, currency = ?, prices_include_tax = ?, billing = ?, shipping = ?,
			billing_email = ?, customer_note = ?, payment_method = ?, payment_method_title = ?, transaction_id = ?, shipping_lines = ?,
			tax_lines = ?, fee_lines = ?, items_subtotal = ?, items_tax = ?, shipping_total = ?, shipping_tax = ?, discount_total = ?,
			discount_tax = ?, total_tax = ?, total = ?, created_at = ?, updated_at = ?, payment_state = ?, customer_id = ?, paid_at = ?
		WHERE id = ?`),
		o.Status, o.Currency, o.PricesIncludeTax, billing, shipping, strings.ToLower(o.Billing.Email), o.CustomerNote, o.PaymentMethod,
		o.PaymentMethodTitle, o.TransactionID, shipLines, taxLines, feeLines, o.ItemsSubtotal, o.ItemsTax, o.ShippingTotal, o.ShippingTax,
		o.DiscountTotal, o.DiscountTax, o.TotalTax, o.Total, o.CreatedAt.Unix(), o.UpdatedAt.Unix(), o.PaymentState,
		sqlcore.NullID(o.CustomerID), paidArg(o), o.ID)
	if err != nil {
		return 0, fmt.Errorf("update order: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, ErrOrderNotFound
	}
	// The old number meta is kept: the order keeps its id.
	for _, table := range []string{"order_lines", "order_coupons", "order_notes", "order_refunds"} {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM `+table+` WHERE order_id = ?`), o.ID); err != nil {
			return 0, err
		}
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM order_meta WHERE order_id = ? AND meta_key <> ?`), o.ID, orders.MetaOldNumber); err != nil {
		return 0, err
	}
	return o.ID, nil
}

// writeHistoryPartsTx writes an imported order's lines, meta, coupons,
// notes and refunds.
func writeHistoryPartsTx(ctx context.Context, tx *sqlx.Tx, id int64, h orders.History) ([]int64, error) {
	o := h.Order
	for i, l := range o.Lines {
		attrs, _ := json.Marshal(orEmptySlice(l.Variation))
		var restocked int64
		if i < len(h.Restocked) {
			restocked = min(max(h.Restocked[i], 0), l.Quantity)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_lines (order_id, position, product_id, variation_id, name, sku,
				attributes, quantity, unit_price, subtotal, subtotal_tax, total, total_tax, restocked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			id, i, l.ProductID, l.VariationID, l.Name, l.SKU, string(attrs), l.Quantity, l.UnitPrice, l.Subtotal, l.SubtotalTax,
			l.Total, l.TotalTax, restocked); err != nil {
			return nil, fmt.Errorf("insert order line: %w", err)
		}
	}
	keys := make([]string, 0, len(o.Meta))
	for k := range o.Meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_meta (order_id, meta_key, value) VALUES (?, ?, ?)
			ON CONFLICT (order_id, meta_key) DO UPDATE SET value = excluded.value`), id, k, o.Meta[k]); err != nil {
			return nil, err
		}
	}
	released := 0
	if h.CouponsReleased {
		released = 1
	}
	for i, ca := range o.Coupons {
		var cid any
		if c := h.CouponIDs[coupon.Normalize(ca.Code)]; c != 0 {
			cid = c
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_coupons (order_id, position, coupon_id, code, discount_type,
				discount, discount_tax, customer_id, email, released) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			id, i, cid, ca.Code, ca.Type, ca.Discount, ca.DiscountTax, o.CustomerID, strings.ToLower(o.Billing.Email), released); err != nil {
			return nil, fmt.Errorf("insert order coupon: %w", err)
		}
	}
	for _, n := range h.Notes {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at)
			VALUES (?, ?, ?, NULL, ?, ?)`), id, n.Note, n.Customer, n.Author, n.Created.Unix()); err != nil {
			return nil, fmt.Errorf("insert order note: %w", err)
		}
	}
	refundIDs := make([]int64, 0, len(h.Refunds))
	for i, r := range h.Refunds {
		if r.Amount <= 0 {
			return nil, fmt.Errorf("refund %d: amount %d is not positive", i+1, r.Amount)
		}
		lines, _ := json.Marshal(orEmptySlice(r.Lines))
		key := r.ProviderRequestID // the old shop's refund id, as the idempotency key
		if key == "" {
			key = "moved-in-" + strconv.Itoa(i)
		}
		var rid int64
		if err := tx.GetContext(ctx, &rid, tx.Rebind(`INSERT INTO order_refunds (order_id, idem_key, request_hash, amount, reason, method,
				status, provider_refund_id, lines, restock, author, created_at, completed_at)
			VALUES (?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			id, key, r.Amount, r.Reason, r.Method, orders.RefundCompleted, r.ProviderRefundID, string(lines), r.Restock, r.Author,
			r.Created.Unix(), r.Created.Unix()); err != nil {
			return nil, fmt.Errorf("insert refund: %w", err)
		}
		refundIDs = append(refundIDs, rid)
	}
	return refundIDs, nil
}

// SetCouponUsage sets a coupon's usage count to what the shop it was
// moved from counted (its orders there are history here: placing them
// did not count).
func (db *Orders) SetCouponUsage(ctx context.Context, id, count int64) error {
	if count < 0 {
		return fmt.Errorf("coupon usage %d is negative", count)
	}
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE coupons SET usage_count = ? WHERE id = ?`), count, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return coupon.ErrNotFound
	}
	return nil
}
