package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/analytics"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Analytics' facts (analytics.Store): the follower that recomputes the
// marked orders' facts (the migration's triggers mark them), and the
// reports' aggregates over a period of facts.

// AnalyticsCatchUp recomputes the facts of up to max marked orders in one
// transaction. On PostgreSQL the marks are locked (SKIP LOCKED), so two
// followers never compute the same order at once and a writer's newer
// mark waits for this one to end; a mark is removed only at the version
// read, so an order written meanwhile stays marked.
func (db *DB) AnalyticsCatchUp(ctx context.Context, c analytics.Converter, max int) (int, error) {
	// Nothing marked and every hour's item sums built (a report's usual
	// case): one read, no write transaction.
	var marked int
	if err := db.Read.GetContext(ctx, &marked, `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM analytics_dirty LIMIT 1) d)
		+ (SELECT COUNT(*) FROM (SELECT 1 FROM analytics_hours WHERE items IS NULL LIMIT 1) h)`); err != nil {
		return 0, err
	}
	if marked == 0 {
		return 0, nil
	}
	n := 0
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = db.AnalyticsCatchUpTx(ctx, tx, c, max)
		return err
	})
	return n, err
}

// AnalyticsCatchUpTx is one batch of the follower in the caller's
// transaction (a bulk load builds the facts of the orders it wrote as
// the follower does, before it commits): the marked orders' facts are
// recomputed, the rollups changed by the difference, the marks removed.
// With no order marked, it builds hours whose item sums are not built
// yet (migration 00056) instead; n counts those hours.
func (db *DB) AnalyticsCatchUpTx(ctx context.Context, tx *sqlx.Tx, c analytics.Converter, max int) (int, error) {
	q := `SELECT order_id, version FROM analytics_dirty ORDER BY order_id` + sqlcore.Limit(max)
	if db.Engine == sqlcore.Postgres {
		q += ` FOR UPDATE SKIP LOCKED`
		// The sources' correlated lookups are estimated dear enough
		// for PostgreSQL to compile them (about 2 s a batch); they
		// run in milliseconds.
		if _, err := tx.ExecContext(ctx, `SET LOCAL jit = off`); err != nil {
			return 0, err
		}
	}
	var marks []struct {
		OrderID int64 `db:"order_id"`
		Version int64 `db:"version"`
	}
	if err := tx.SelectContext(ctx, &marks, tx.Rebind(q)); err != nil {
		return 0, err
	}
	if len(marks) == 0 {
		return db.buildItemHours(ctx, tx)
	}
	ids := make([]int64, len(marks))
	for i, m := range marks {
		ids[i] = m.OrderID
	}
	srcs, err := analyticsSources(ctx, tx, ids)
	if err != nil {
		return 0, err
	}
	// The rollups change by the new facts less the old ones.
	old, err := oldFacts(ctx, tx, ids)
	if err != nil {
		return 0, err
	}
	change := newRollupChange()
	change.add(old, -1)
	in, args := sqlcore.InClause(ids)
	for _, t := range []string{"analytics_orders", "analytics_lines", "analytics_coupons"} {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM `+t+` WHERE order_id IN `+in), args...); err != nil {
			return 0, err
		}
	}
	var facts analytics.Facts
	for _, s := range srcs {
		f := c.Facts(s)
		facts.Orders = append(facts.Orders, f.Orders...)
		facts.Lines = append(facts.Lines, f.Lines...)
		facts.Coupons = append(facts.Coupons, f.Coupons...)
	}
	change.add(facts, 1)
	if err := insertFacts(ctx, tx, facts); err != nil {
		return 0, err
	}
	if err := db.applyRollups(ctx, tx, change); err != nil {
		return 0, err
	}
	for start := 0; start < len(marks); start += 200 {
		part := marks[start:min(len(marks), start+200)]
		var b strings.Builder
		var vals []any
		for i, m := range part {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString("(order_id = ? AND version = ?)")
			vals = append(vals, m.OrderID, m.Version)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM analytics_dirty WHERE `+b.String()), vals...); err != nil {
			return 0, err
		}
	}
	return len(marks), nil
}

// analyticsSources reads the orders ids (those that still exist) as the
// facts are computed from them.
func analyticsSources(ctx context.Context, tx *sqlx.Tx, ids []int64) ([]analytics.Source, error) {
	in, args := sqlcore.InClause(ids)
	var orders []struct {
		ID       int64          `db:"id"`
		Status   string         `db:"status"`
		Created  int64          `db:"created_at"`
		Customer sql.NullInt64  `db:"customer_id"`
		Email    string         `db:"billing_email"`
		Currency string         `db:"currency"`
		Rate     string         `db:"currency_rate"`
		Total    int64          `db:"total"`
		Tax      int64          `db:"total_tax"`
		Shipping int64          `db:"shipping_total"`
		ShipTax  int64          `db:"shipping_tax"`
		Discount int64          `db:"discount_total"`
		First    sql.NullString `db:"first"`
	}
	// first: the customer's earliest other order ("returning" when it is
	// older than this one).
	if err := tx.SelectContext(ctx, &orders, tx.Rebind(`SELECT o.id, o.status, o.created_at, o.customer_id, o.billing_email, o.currency,
		o.currency_rate, o.total, o.total_tax, o.shipping_total, o.shipping_tax, o.discount_total,
		CASE WHEN o.customer_id IS NOT NULL THEN
			(SELECT CAST(MIN(p.created_at) AS TEXT) FROM orders p WHERE p.customer_id = o.customer_id AND p.id <> o.id AND p.status <> 'checkout-draft')
		WHEN o.billing_email <> '' THEN
			(SELECT CAST(MIN(p.created_at) AS TEXT) FROM orders p WHERE p.customer_id IS NULL AND lower(p.billing_email) = lower(o.billing_email) AND p.id <> o.id AND p.status <> 'checkout-draft')
		END AS first
		FROM orders o WHERE o.id IN `+in+` ORDER BY o.id`), args...); err != nil {
		return nil, err
	}
	var lines []struct {
		OrderID   int64 `db:"order_id"`
		Position  int   `db:"position"`
		Product   int64 `db:"product_id"`
		Variation int64 `db:"variation_id"`
		Quantity  int64 `db:"quantity"`
		Total     int64 `db:"total"`
		Tax       int64 `db:"total_tax"`
		Subtotal  int64 `db:"subtotal"`
	}
	if err := tx.SelectContext(ctx, &lines, tx.Rebind(`SELECT order_id, position, product_id, variation_id, quantity, total, total_tax, subtotal
		FROM order_lines WHERE order_id IN `+in+` ORDER BY order_id, position`), args...); err != nil {
		return nil, err
	}
	var refunds []struct {
		ID        int64         `db:"id"`
		OrderID   int64         `db:"order_id"`
		Amount    int64         `db:"amount"`
		Lines     string        `db:"lines"`
		Created   int64         `db:"created_at"`
		Completed sql.NullInt64 `db:"completed_at"`
	}
	if err := tx.SelectContext(ctx, &refunds, tx.Rebind(`SELECT id, order_id, amount, lines, created_at, completed_at
		FROM order_refunds WHERE status = 'completed' AND order_id IN `+in+` ORDER BY order_id, id`), args...); err != nil {
		return nil, err
	}
	var coupons []struct {
		OrderID  int64         `db:"order_id"`
		Position int           `db:"position"`
		CouponID sql.NullInt64 `db:"coupon_id"`
		Code     string        `db:"code"`
		Discount int64         `db:"discount"`
	}
	if err := tx.SelectContext(ctx, &coupons, tx.Rebind(`SELECT order_id, position, coupon_id, code, discount
		FROM order_coupons WHERE order_id IN `+in+` ORDER BY order_id, position`), args...); err != nil {
		return nil, err
	}
	out := make([]analytics.Source, len(orders))
	at := map[int64]*analytics.Source{}
	for i, o := range orders {
		s := analytics.Source{OrderID: o.ID, Status: o.Status, CreatedAt: o.Created, Currency: o.Currency, Rate: o.Rate,
			Total: o.Total, Tax: o.Tax, Shipping: o.Shipping, ShippingTax: o.ShipTax, Discount: o.Discount}
		switch {
		case o.Customer.Valid:
			s.Customer = fmt.Sprintf("u%d", o.Customer.Int64)
		case o.Email != "":
			s.Customer = "g" + strings.ToLower(o.Email)
		}
		if o.First.Valid {
			var first int64
			fmt.Sscan(o.First.String, &first)
			s.Returning = first < o.Created || (first == o.Created && false)
		}
		out[i] = s
		at[o.ID] = &out[i]
	}
	for _, l := range lines {
		if s := at[l.OrderID]; s != nil {
			s.Lines = append(s.Lines, analytics.SourceLine{Position: l.Position, ProductID: l.Product, VariationID: l.Variation,
				Quantity: l.Quantity, Total: l.Total, Tax: l.Tax, Subtotal: l.Subtotal})
		}
	}
	for _, r := range refunds {
		s := at[r.OrderID]
		if s == nil {
			continue
		}
		when := r.Created
		if r.Completed.Valid {
			when = r.Completed.Int64
		}
		sr := analytics.SourceRefund{ID: r.ID, CreatedAt: when, Amount: r.Amount}
		if r.Lines != "" {
			if err := json.Unmarshal([]byte(r.Lines), &sr.Lines); err != nil {
				return nil, fmt.Errorf("refund %d lines: %w", r.ID, err)
			}
		}
		s.Refunds = append(s.Refunds, sr)
	}
	for _, c := range coupons {
		if s := at[c.OrderID]; s != nil {
			s.Coupons = append(s.Coupons, analytics.SourceCoupon{Position: c.Position, CouponID: c.CouponID.Int64, Code: c.Code, Discount: c.Discount})
		}
	}
	return out, nil
}

// insertFacts writes f in multi-row inserts.
func insertFacts(ctx context.Context, tx *sqlx.Tx, f analytics.Facts) error {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	var rows [][]any
	for _, o := range f.Orders {
		rows = append(rows, []any{o.OrderID, o.RefundID, o.CreatedAt, o.Status, o.Customer, b(o.Returning), o.Currency, o.Rate,
			o.Items, o.Gross, o.Tax, o.Shipping, o.Discount, o.Net})
	}
	if err := insertRows(ctx, tx, `analytics_orders (order_id, refund_id, created_at, status, customer, returning_customer, currency, rate,
		items, gross, tax, shipping, discount, net)`, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, l := range f.Lines {
		rows = append(rows, []any{l.OrderID, l.RefundID, l.Position, l.CreatedAt, l.Status, l.ProductID, l.VariationID, l.Quantity, l.Net,
			l.Tax, l.ShippingTax, l.Shipping, l.Coupon})
	}
	if err := insertRows(ctx, tx, `analytics_lines (order_id, refund_id, position, created_at, status, product_id, variation_id, quantity, net,
		tax, shipping_tax, shipping, coupon)`, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, c := range f.Coupons {
		rows = append(rows, []any{c.OrderID, c.Position, c.CreatedAt, c.Status, c.CouponID, c.Code, c.Discount})
	}
	return insertRows(ctx, tx, `analytics_coupons (order_id, position, created_at, status, coupon_id, code, discount)`, rows)
}

// insertRows inserts rows into table (with its column list) 100 at a time.
func insertRows(ctx context.Context, tx *sqlx.Tx, table string, rows [][]any) error {
	for start := 0; start < len(rows); start += 100 {
		part := rows[start:min(len(rows), start+100)]
		var q strings.Builder
		q.WriteString("INSERT INTO " + table + " VALUES ")
		var args []any
		for i, r := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + sqlcore.Placeholders(len(r)) + ")")
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
			return err
		}
	}
	return nil
}

// countedBy is the condition selecting the line or coupon facts (alias)
// of f's counted orders: their own status when f filters on nothing else
// (they carry their order's), else through the counted orders (any
// period: a refund's lines are dated by the refund).
func countedBy(f analytics.Filter, alias string) (string, []any) {
	if orderFiltered(f) {
		// Each fact's order looked up by its key (an IN list of every
		// counted order ever placed would be built first).
		where, wargs := factsWhere(f)
		return ` AND EXISTS (SELECT 1 FROM analytics_orders o WHERE o.order_id = ` + alias + `.order_id AND o.refund_id = 0` + where + `)`, wargs
	}
	if len(f.Statuses) == 0 {
		return ` AND 1 = 0`, nil
	}
	in, a := sqlcore.InClause(f.Statuses)
	return ` AND ` + alias + `.status IN ` + in, a
}

// orderFiltered reports whether f filters on more than the status and
// the period.
func orderFiltered(f analytics.Filter) bool {
	return len(f.Products) > 0 || len(f.Variations) > 0 || len(f.Categories) > 0 || len(f.Coupons) > 0 || f.CustomerType != ""
}

// factsWhere is the conditions of f on the order facts aliased o (the
// period excepted), with their arguments.
func factsWhere(f analytics.Filter) (string, []any) {
	var w strings.Builder
	var args []any
	if len(f.Statuses) == 0 {
		w.WriteString(" AND 1 = 0")
	} else {
		in, a := sqlcore.InClause(f.Statuses)
		w.WriteString(" AND o.status IN " + in)
		args = append(args, a...)
	}
	if len(f.Products) > 0 {
		in, a := sqlcore.InClause(f.Products)
		w.WriteString(" AND o.order_id IN (SELECT order_id FROM analytics_lines WHERE refund_id = 0 AND product_id IN " + in + ")")
		args = append(args, a...)
	}
	if len(f.Variations) > 0 {
		in, a := sqlcore.InClause(f.Variations)
		w.WriteString(" AND o.order_id IN (SELECT order_id FROM analytics_lines WHERE refund_id = 0 AND variation_id IN " + in + ")")
		args = append(args, a...)
	}
	if len(f.Categories) > 0 {
		in, a := sqlcore.InClause(f.Categories)
		w.WriteString(` AND o.order_id IN (SELECT l.order_id FROM analytics_lines l JOIN product_categories pc ON pc.product_id = l.product_id
			WHERE l.refund_id = 0 AND pc.category_id IN ` + in + ")")
		args = append(args, a...)
	}
	if len(f.Coupons) > 0 {
		in, a := sqlcore.InClause(f.Coupons)
		w.WriteString(" AND o.order_id IN (SELECT order_id FROM analytics_coupons WHERE coupon_id IN " + in + ")")
		args = append(args, a...)
	}
	switch f.CustomerType {
	case "new":
		w.WriteString(" AND o.returning_customer = 0")
	case "returning":
		w.WriteString(" AND o.returning_customer = 1")
	}
	return w.String(), args
}

const sumsColumns = `COUNT(CASE WHEN o.refund_id = 0 THEN 1 END) AS orders, COALESCE(SUM(o.items), 0) AS items,
	COALESCE(SUM(CASE WHEN o.refund_id = 0 THEN o.items ELSE 0 END), 0) AS order_items, COALESCE(SUM(o.gross), 0) AS gross,
	COALESCE(SUM(o.tax), 0) AS tax, COALESCE(SUM(o.shipping), 0) AS shipping, COALESCE(SUM(o.discount), 0) AS discount,
	COALESCE(SUM(o.net), 0) AS net, COALESCE(SUM(CASE WHEN o.refund_id = 0 THEN o.net ELSE 0 END), 0) AS order_net,
	COALESCE(SUM(CASE WHEN o.refund_id <> 0 THEN o.net ELSE 0 END), 0) AS refund_net,
	COUNT(DISTINCT NULLIF(o.customer, '')) AS customers`

type sumsRow struct {
	I          int64 `db:"i"`
	Orders     int64 `db:"orders"`
	Items      int64 `db:"items"`
	OrderItems int64 `db:"order_items"`
	Gross      int64 `db:"gross"`
	Tax        int64 `db:"tax"`
	Shipping   int64 `db:"shipping"`
	Discount   int64 `db:"discount"`
	Net        int64 `db:"net"`
	OrderNet   int64 `db:"order_net"`
	RefundNet  int64 `db:"refund_net"`
	Customers  int64 `db:"customers"`
}

func (r sumsRow) sums() analytics.Sums {
	return analytics.Sums{Orders: r.Orders, Items: r.Items, OrderItems: r.OrderItems, Gross: r.Gross, Tax: r.Tax, Shipping: r.Shipping,
		Discount: r.Discount, Net: r.Net, OrderNet: r.OrderNet, RefundNet: r.RefundNet, Customers: r.Customers}
}

// spansCTE is a WITH of the spans as (i, s, e) rows (integers written
// in the text: they are the service's own numbers).
func spansCTE(spans [][2]int64) string {
	var b strings.Builder
	b.WriteString("WITH iv (i, s, e) AS (VALUES ")
	for i, sp := range spans {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, %d, %d)", i, sp[0], sp[1])
	}
	b.WriteString(") ")
	return b.String()
}

// analyticsReader is a pool or a transaction.
type analyticsReader interface {
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error)
	Rebind(query string) string
}

// analyticsRead runs a report's queries in one read-only snapshot. On
// PostgreSQL without JIT (the planner's estimate of a period's scan makes
// it compile for longer than the query runs) and with room to sort the
// distinct counts in memory.
func (db *DB) analyticsRead(ctx context.Context, fn func(analyticsReader) error) error {
	if db.Engine != sqlcore.Postgres {
		return fn(db.Read)
	}
	tx, err := db.Read.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SET LOCAL jit = off; SET LOCAL work_mem = '32MB'`); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// AnalyticsOrderSums sums the order facts of f over its period and over
// each span: one query for the totals, one grouped by span (each span a
// range of the date index), and the coupons' and products' distinct
// counts.
func (db *DB) AnalyticsOrderSums(ctx context.Context, f analytics.Filter, spans [][2]int64) (total analytics.Sums, each []analytics.Sums, err error) {
	err = db.analyticsRead(ctx, func(r analyticsReader) error {
		var err error
		total, each, err = db.orderSums(ctx, r, f, spans)
		return err
	})
	return total, each, err
}

func (db *DB) orderSums(ctx context.Context, r analyticsReader, f analytics.Filter, spans [][2]int64) (analytics.Sums, []analytics.Sums, error) {
	if len(spans) == 0 {
		spans = [][2]int64{{f.From, f.To}}
	}
	total, each, ok, err := db.rollupSums(ctx, r, f, spans)
	if err != nil {
		return analytics.Sums{}, nil, err
	}
	if ok {
		return total, each, nil
	}
	if total, each, err = db.factSums(ctx, r, f, spans); err != nil {
		return analytics.Sums{}, nil, err
	}
	if err := couponCounts(ctx, r, f, spans, &total, each); err != nil {
		return analytics.Sums{}, nil, err
	}
	return total, each, nil
}

// factSums is orderSums from the facts (a filter or span edges the
// rollups cannot answer).
func (db *DB) factSums(ctx context.Context, r analyticsReader, f analytics.Filter, spans [][2]int64) (analytics.Sums, []analytics.Sums, error) {
	where, wargs := factsWhere(f)
	args := append([]any{f.From, f.To}, wargs...)
	// The spans cover the period: the totals are their sums, but for the
	// distinct customers.
	var total analytics.Sums
	if err := r.GetContext(ctx, &total.Customers, r.Rebind(`SELECT COUNT(DISTINCT NULLIF(o.customer, ''))
		FROM analytics_orders o WHERE o.created_at >= ? AND o.created_at < ?`+where), args...); err != nil {
		return analytics.Sums{}, nil, err
	}
	// The lines' and coupons' facts carry their order's status and date:
	// without an order-level filter they are selected on their own index;
	// with one, through the counted orders.
	sel := func(alias string) (string, []any) { return countedBy(f, alias) }
	lw, la := sel("l")
	if err := r.GetContext(ctx, &total.Products, r.Rebind(`SELECT COUNT(DISTINCT l.product_id) FROM analytics_lines l
		WHERE l.refund_id = 0 AND l.created_at >= ? AND l.created_at < ?`+lw), append([]any{f.From, f.To}, la...)...); err != nil {
		return analytics.Sums{}, nil, err
	}
	each := make([]analytics.Sums, len(spans))
	var rows []sumsRow
	// Each span a range of the date index: SQLite plans the join so;
	// PostgreSQL would scan the table once per span unless asked by LATERAL.
	q := spansCTE(spans) + `SELECT iv.i AS i, ` + sumsColumns + `
		FROM iv JOIN analytics_orders o ON o.created_at >= iv.s AND o.created_at < iv.e WHERE 1 = 1` + where + ` GROUP BY iv.i`
	if db.Engine == sqlcore.Postgres {
		q = spansCTE(spans) + `SELECT iv.i AS i, ` + sumsColumns + `
		FROM iv CROSS JOIN LATERAL (SELECT * FROM analytics_orders o WHERE o.created_at >= iv.s AND o.created_at < iv.e` + where + `) o
		GROUP BY iv.i`
	}
	if err := r.SelectContext(ctx, &rows, r.Rebind(q), wargs...); err != nil {
		return analytics.Sums{}, nil, err
	}
	for _, r := range rows {
		each[r.I] = r.sums()
		m := r.sums()
		total.AddAdditive(m)
	}
	return total, each, nil
}

// couponCounts counts the distinct coupons used (id and code) in the
// period and in each span: few rows, read from the coupon facts.
func couponCounts(ctx context.Context, r analyticsReader, f analytics.Filter, spans [][2]int64, total *analytics.Sums, each []analytics.Sums) error {
	cw, ca := countedBy(f, "c")
	var uses []struct {
		At       int64  `db:"created_at"`
		CouponID int64  `db:"coupon_id"`
		Code     string `db:"code"`
	}
	if err := r.SelectContext(ctx, &uses, r.Rebind(`SELECT c.created_at, c.coupon_id, c.code FROM analytics_coupons c
		WHERE c.created_at >= ? AND c.created_at < ?`+cw), append([]any{f.From, f.To}, ca...)...); err != nil {
		return err
	}
	key := func(u struct {
		At       int64  `db:"created_at"`
		CouponID int64  `db:"coupon_id"`
		Code     string `db:"code"`
	}) string {
		return fmt.Sprintf("%d|%s", u.CouponID, u.Code)
	}
	seen := map[string]bool{}
	perSpan := make([]map[string]bool, len(spans))
	for _, u := range uses {
		k := key(u)
		if !seen[k] {
			seen[k] = true
			total.Coupons++
		}
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > u.At })
		if i < len(spans) && u.At >= spans[i][0] {
			if perSpan[i] == nil {
				perSpan[i] = map[string]bool{}
			}
			if !perSpan[i][k] {
				perSpan[i][k] = true
				each[i].Coupons++
			}
		}
	}
	return nil
}

// AnalyticsItemSums groups the line facts of f's counted orders by
// product, variation or category, with the product's name and SKU: from
// the item rollups when f filters on the statuses only (decision 0122),
// else from the facts.
func (db *DB) AnalyticsItemSums(ctx context.Context, f analytics.Filter, by string) ([]analytics.ItemRow, error) {
	var rows []itemRowSums
	err := db.analyticsRead(ctx, func(r analyticsReader) error {
		var err error
		rows, err = db.itemSums(ctx, r, f, by)
		return err
	})
	if err != nil {
		return nil, err
	}
	return db.itemNames(ctx, rows, by)
}

// AnalyticsItemSegments are AnalyticsItemSums over f's period and over
// each span, without the latest dates: each span read as a period of its
// own (the rollups' whole hours and the facts of its edges).
func (db *DB) AnalyticsItemSegments(ctx context.Context, f analytics.Filter, by string, spans [][2]int64) ([]analytics.ItemRow, [][]analytics.ItemRow, error) {
	f.NoLastDates = true
	var tot []itemRowSums
	each := make([][]itemRowSums, len(spans))
	err := db.analyticsRead(ctx, func(r analyticsReader) error {
		var err error
		if tot, err = db.itemSums(ctx, r, f, by); err != nil {
			return err
		}
		for i, sp := range spans {
			fs := f
			fs.From, fs.To = sp[0], sp[1]
			if each[i], err = db.itemSums(ctx, r, fs, by); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	named, err := db.itemNames(ctx, tot, by)
	if err != nil {
		return nil, nil, err
	}
	names := map[int64]string{}
	for _, n := range named {
		names[n.ID] = n.Name
	}
	out := make([][]analytics.ItemRow, len(spans))
	for i, rows := range each {
		out[i] = make([]analytics.ItemRow, len(rows))
		for j, r := range rows {
			out[i][j] = r.row()
			out[i][j].LastDate, out[i][j].Name = 0, names[r.ID]
		}
	}
	for i := range named {
		named[i].LastDate = 0
	}
	return named, out, nil
}

// AnalyticsSegmentIDs are the segments WooCommerce lists whether or not
// they sold (its get_all_segments): the filter's ids when q has one for
// by, else the catalogue's products (not variations, not trashed), the
// variations of q's one product, the categories, the coupons.
func (db *DB) AnalyticsSegmentIDs(ctx context.Context, by string, q analytics.Query) ([]analytics.SegmentName, error) {
	var query string
	var args []any
	switch by {
	case "product":
		query = `SELECT id, name FROM products WHERE type <> 'variation' AND status <> 'trash'`
		if len(q.Products) > 0 {
			in, a := sqlcore.InClause(q.Products)
			query, args = `SELECT id, name FROM products WHERE id IN `+in, a
		}
	case "variation":
		switch {
		case len(q.Variations) > 0:
			in, a := sqlcore.InClause(q.Variations)
			query, args = `SELECT id, name FROM products WHERE id IN `+in, a
		case len(q.Products) == 1:
			query, args = `SELECT id, name FROM products WHERE type = 'variation' AND parent_id = ?`, []any{q.Products[0]}
		default:
			return nil, nil
		}
	case "category":
		query = `SELECT id, name FROM categories`
		if len(q.Categories) > 0 {
			in, a := sqlcore.InClause(q.Categories)
			query, args = `SELECT id, name FROM categories WHERE id IN `+in, a
		}
	case "coupon":
		query = `SELECT id, code AS name FROM coupons`
		if len(q.Coupons) > 0 {
			in, a := sqlcore.InClause(q.Coupons)
			query, args = `SELECT id, code AS name FROM coupons WHERE id IN `+in, a
		}
	default:
		return nil, nil
	}
	var out []analytics.SegmentName
	err := db.Read.SelectContext(ctx, &out, db.Read.Rebind(query+` ORDER BY id`), args...)
	return out, err
}

// itemSums is AnalyticsItemSums before the names.
func (db *DB) itemSums(ctx context.Context, r analyticsReader, f analytics.Filter, by string) ([]itemRowSums, error) {
	cond, wargs := countedBy(f, "l")
	// A report's own items filter its rows too (product_includes on the
	// products report lists those products only).
	own := map[string][]int64{"product": f.Products, "variation": f.Variations}[by]
	if len(own) > 0 {
		in, a := sqlcore.InClause(own)
		cond += ` AND l.` + by + `_id IN ` + in
		wargs = append(wargs, a...)
	}
	if by == "category" && len(f.Categories) > 0 {
		in, a := sqlcore.InClause(f.Categories)
		cond += ` AND pc.category_id IN ` + in
		wargs = append(wargs, a...)
	}
	if by != "category" && f.CategoryLines && len(f.Categories) > 0 {
		in, a := sqlcore.InClause(f.Categories)
		cond += ` AND l.product_id IN (SELECT product_id FROM product_categories WHERE category_id IN ` + in + `)`
		wargs = append(wargs, a...)
	}
	var q string
	// The product lookup sums (decision 0130).
	const lookup = `, SUM(l.tax + l.shipping_tax) AS tax, SUM(l.shipping) AS shipping, SUM(l.coupon) AS coupon,
		SUM(CASE WHEN l.refund_id <> 0 THEN l.net ELSE 0 END) AS refund_net`
	switch by {
	case "variation":
		q = `SELECT l.variation_id AS id, MAX(l.product_id) AS parent, SUM(l.quantity) AS items, SUM(l.net) AS net,
			COUNT(DISTINCT l.order_id) AS orders, 0 AS products, MAX(l.created_at) AS last` + lookup + `
			FROM analytics_lines l WHERE l.variation_id <> 0 AND l.created_at >= ? AND l.created_at < ?` + cond + `
			GROUP BY l.variation_id`
	case "category":
		q = `SELECT pc.category_id AS id, 0 AS parent, SUM(l.quantity) AS items, SUM(l.net) AS net,
			COUNT(DISTINCT l.order_id) AS orders, COUNT(DISTINCT l.product_id) AS products, MAX(l.created_at) AS last` + lookup + `
			FROM analytics_lines l JOIN product_categories pc ON pc.product_id = l.product_id
			WHERE l.created_at >= ? AND l.created_at < ?` + cond + ` GROUP BY pc.category_id`
	default:
		q = `SELECT l.product_id AS id, 0 AS parent, SUM(l.quantity) AS items, SUM(l.net) AS net,
			COUNT(DISTINCT l.order_id) AS orders, 0 AS products, MAX(l.created_at) AS last` + lookup + `
			FROM analytics_lines l WHERE l.created_at >= ? AND l.created_at < ?` + cond + ` GROUP BY l.product_id`
	}
	rows, ok, err := db.rollupItemSums(ctx, r, f, by)
	if ok || err != nil {
		return rows, err
	}
	err = r.SelectContext(ctx, &rows, r.Rebind(q), append([]any{f.From, f.To}, wargs...)...)
	return rows, err
}

// itemNames is rows as the report's rows, with the products' (or the
// categories') names and SKUs.
func (db *DB) itemNames(ctx context.Context, rows []itemRowSums, by string) ([]analytics.ItemRow, error) {
	out := make([]analytics.ItemRow, len(rows))
	ids := make([]int64, 0, len(rows))
	for i, r := range rows {
		out[i] = r.row()
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		return out, nil
	}
	names := map[int64][2]string{}
	in, args := sqlcore.InClause(ids)
	var nr []struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
		SKU  string `db:"sku"`
	}
	nq := `SELECT id, name, COALESCE(sku, '') AS sku FROM products WHERE id IN ` + in
	if by == "category" {
		nq = `SELECT id, name, '' AS sku FROM categories WHERE id IN ` + in
	}
	if err := db.Read.SelectContext(ctx, &nr, db.Read.Rebind(nq), args...); err != nil {
		return nil, err
	}
	for _, r := range nr {
		names[r.ID] = [2]string{r.Name, r.SKU}
	}
	for i := range out {
		out[i].Name, out[i].SKU = names[out[i].ID][0], names[out[i].ID][1]
	}
	return out, nil
}

// AnalyticsCouponSums sums the coupons used by f's counted orders (from
// the item rollups when f filters on the statuses only).
func (db *DB) AnalyticsCouponSums(ctx context.Context, f analytics.Filter) ([]analytics.CouponRow, error) {
	where, wargs := factsWhere(f)
	var rows []analytics.CouponRow
	err := db.analyticsRead(ctx, func(r analyticsReader) error {
		var ok bool
		var err error
		if rows, ok, err = db.rollupCouponSums(ctx, r, f); ok || err != nil {
			return err
		}
		return r.SelectContext(ctx, &rows, r.Rebind(`SELECT c.coupon_id AS couponid, MAX(c.code) AS code, SUM(c.discount) AS amount,
		COUNT(DISTINCT c.order_id) AS orders FROM analytics_coupons c
		WHERE c.created_at >= ? AND c.created_at < ? AND EXISTS (SELECT 1 FROM analytics_orders o WHERE o.order_id = c.order_id AND o.refund_id = 0`+where+`)
		GROUP BY c.coupon_id`), append([]any{f.From, f.To}, wargs...)...)
	})
	return rows, err
}

// AnalyticsCustomerSums sums f's order facts by customer, with the
// account's (or the guest order's) details.
func (db *DB) AnalyticsCustomerSums(ctx context.Context, f analytics.Filter) ([]analytics.CustomerRow, error) {
	if f.HourlyLastOrder {
		var out []analytics.CustomerRow
		ok := false
		if err := db.analyticsRead(ctx, func(r analyticsReader) error {
			var err error
			out, ok, err = db.rollupCustomerSums(ctx, r, f)
			return err
		}); err != nil {
			return nil, err
		}
		if ok {
			if f.NoCustomerDetails {
				return out, nil
			}
			if err := db.AnalyticsCustomerLast(ctx, f, out); err != nil {
				return nil, err
			}
			return out, db.AnalyticsCustomerDetails(ctx, out)
		}
	}
	where, wargs := factsWhere(f)
	var rows []struct {
		Customer string `db:"customer"`
		Orders   int64  `db:"orders"`
		Spend    int64  `db:"spend"`
		Last     int64  `db:"last"`
		OrderID  int64  `db:"order_id"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT o.customer, COUNT(CASE WHEN o.refund_id = 0 THEN 1 END) AS orders,
		SUM(o.net) AS spend, MAX(o.created_at) AS last, MAX(o.order_id) AS order_id
		FROM analytics_orders o WHERE o.customer <> '' AND o.created_at >= ? AND o.created_at < ?`+where+` GROUP BY o.customer`),
		append([]any{f.From, f.To}, wargs...)...); err != nil {
		return nil, err
	}
	out := make([]analytics.CustomerRow, len(rows))
	for i, r := range rows {
		out[i] = analytics.CustomerRow{Customer: r.Customer, Orders: r.Orders, Spend: r.Spend, LastOrder: r.Last, LastOrderID: r.OrderID}
		if strings.HasPrefix(r.Customer, "u") {
			fmt.Sscan(r.Customer[1:], &out[i].UserID)
		}
	}
	if f.NoCustomerDetails {
		return out, nil
	}
	return out, db.AnalyticsCustomerDetails(ctx, out)
}

// AnalyticsCustomerDetails adds to rows their account's (or their latest
// order's billing) name, email and address.
func (db *DB) AnalyticsCustomerDetails(ctx context.Context, out []analytics.CustomerRow) error {
	var users, orders []int64
	for _, c := range out {
		if c.UserID != 0 {
			users = append(users, c.UserID)
		}
		orders = append(orders, c.LastOrderID)
	}
	type person struct {
		ID      int64  `db:"id"`
		Email   string `db:"email"`
		Login   string `db:"login"`
		First   string `db:"first_name"`
		Last    string `db:"last_name"`
		Created int64  `db:"created_at"`
	}
	who := map[int64]person{}
	// A thousand ids a query: a period's customers run past the engines'
	// bound on a statement's parameters.
	for start := 0; start < len(users); start += 1000 {
		in, args := sqlcore.InClause(users[start:min(len(users), start+1000)])
		var ps []person
		if err := db.Read.SelectContext(ctx, &ps, db.Read.Rebind(`SELECT id, email, COALESCE(username, '') AS login, first_name, last_name, created_at FROM users WHERE id IN `+in), args...); err != nil {
			return err
		}
		for _, p := range ps {
			who[p.ID] = p
		}
	}
	bill := map[string]map[string]string{}
	for start := 0; start < len(orders); start += 1000 {
		in, args := sqlcore.InClause(orders[start:min(len(orders), start+1000)])
		var bs []struct {
			CustomerID sql.NullInt64 `db:"customer_id"`
			Email      string        `db:"billing_email"`
			Billing    string        `db:"billing"`
		}
		if err := db.Read.SelectContext(ctx, &bs, db.Read.Rebind(`SELECT customer_id, billing_email, billing FROM orders WHERE id IN `+in), args...); err != nil {
			return err
		}
		for _, b := range bs {
			key := "g" + strings.ToLower(b.Email)
			if b.CustomerID.Valid {
				key = fmt.Sprintf("u%d", b.CustomerID.Int64)
			}
			m := map[string]string{}
			_ = json.Unmarshal([]byte(b.Billing), &m)
			m["email"] = b.Email
			bill[key] = m
		}
	}
	for i := range out {
		c := &out[i]
		b := bill[c.Customer]
		c.First, c.Last, c.Email = b["first_name"], b["last_name"], b["email"]
		c.Country, c.City, c.State, c.Postcode = b["country"], b["city"], b["state"], b["postcode"]
		if p, ok := who[c.UserID]; ok && c.UserID != 0 {
			c.Email, c.Username, c.Created = p.Email, p.Login, p.Created
			if p.First != "" || p.Last != "" {
				c.First, c.Last = p.First, p.Last
			}
		}
		c.Name = strings.TrimSpace(c.First + " " + c.Last)
	}
	return nil
}

// AnalyticsOrders lists f's counted orders (order facts, refunds
// folded into their order's net).
func (db *DB) AnalyticsOrders(ctx context.Context, f analytics.Filter) ([]analytics.OrderRow, error) {
	where, wargs := factsWhere(f)
	var rows []struct {
		OrderID   int64  `db:"order_id"`
		Created   int64  `db:"created_at"`
		Status    string `db:"status"`
		Customer  string `db:"customer"`
		Returning int64  `db:"returning_customer"`
		Items     int64  `db:"items"`
		Net       int64  `db:"net"`
		Gross     int64  `db:"gross"`
	}
	err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT o.order_id, o.created_at, o.status, o.customer, o.returning_customer,
		o.items, o.net, o.gross FROM analytics_orders o WHERE o.refund_id = 0 AND o.created_at >= ? AND o.created_at < ?`+where+`
		ORDER BY o.created_at DESC, o.order_id DESC`), append([]any{f.From, f.To}, wargs...)...)
	out := make([]analytics.OrderRow, len(rows))
	for i, r := range rows {
		out[i] = analytics.OrderRow{OrderID: r.OrderID, CreatedAt: r.Created, Status: r.Status, Customer: r.Customer,
			Returning: r.Returning == 1, Items: r.Items, Net: r.Net, Gross: r.Gross}
	}
	return out, err
}

// AnalyticsTaxSums sums the tax lines of f's counted orders by rate (the
// orders' tax_lines; amounts in the order's currency are converted by the
// facts' ratio of the order's gross), each rate's orders counted
// distinct, and the distinct orders with a tax line of any rate.
func (db *DB) AnalyticsTaxSums(ctx context.Context, f analytics.Filter) ([]analytics.TaxRow, int64, error) {
	where, wargs := factsWhere(f)
	var rows []struct {
		OrderID  int64  `db:"order_id"`
		TaxLines string `db:"tax_lines"`
		Total    int64  `db:"total"`
		Gross    int64  `db:"gross"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT o.order_id, d.tax_lines, d.total, o.gross FROM analytics_orders o
		JOIN orders d ON d.id = o.order_id WHERE o.refund_id = 0 AND o.created_at >= ? AND o.created_at < ?`+where),
		append([]any{f.From, f.To}, wargs...)...); err != nil {
		return nil, 0, err
	}
	by := map[string]*analytics.TaxRow{}
	last := map[string]int64{} // the last order counted for a rate (an order's rows are together)
	var order []string
	var orders int64
	for _, r := range rows {
		var lines []struct {
			RateID   int64  `json:"rate_id"`
			Label    string `json:"label"`
			Percent  string `json:"rate"`
			Tax      int64  `json:"tax_total"`
			Shipping int64  `json:"shipping_tax_total"`
		}
		_ = json.Unmarshal([]byte(r.TaxLines), &lines)
		for _, l := range lines {
			key := fmt.Sprintf("%d|%s", l.RateID, l.Label)
			t := by[key]
			if t == nil {
				t = &analytics.TaxRow{RateID: l.RateID, Code: l.Label, Rate: strings.TrimSuffix(l.Percent, "%")}
				by[key] = t
				order = append(order, key)
			}
			conv := func(v int64) int64 {
				if r.Total == 0 {
					return v
				}
				return v * r.Gross / r.Total
			}
			t.Order += conv(l.Tax)
			t.Shipping += conv(l.Shipping)
			t.Total += conv(l.Tax + l.Shipping)
			if last[key] != r.OrderID {
				last[key] = r.OrderID
				t.Orders++
			}
		}
		if len(lines) > 0 {
			orders++
		}
	}
	out := make([]analytics.TaxRow, 0, len(order))
	for _, k := range order {
		out = append(out, *by[k])
	}
	return out, orders, nil
}

// AnalyticsStock lists the products and variations that keep stock, with
// their stock status ("" for all).
func (db *DB) AnalyticsStock(ctx context.Context, status string) ([]analytics.StockRow, error) {
	q := `SELECT id, COALESCE(parent_id, 0) AS parent, name, COALESCE(sku, '') AS sku, stock_status, stock_quantity, manage_stock
		FROM products WHERE status = 'publish'`
	var args []any
	if status != "" {
		q += ` AND stock_status = ?`
		args = append(args, status)
	}
	q += ` ORDER BY id`
	var rows []struct {
		ID     int64         `db:"id"`
		Parent int64         `db:"parent"`
		Name   string        `db:"name"`
		SKU    string        `db:"sku"`
		Status string        `db:"stock_status"`
		Qty    sql.NullInt64 `db:"stock_quantity"`
		Manage bool          `db:"manage_stock"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	out := make([]analytics.StockRow, len(rows))
	for i, r := range rows {
		out[i] = analytics.StockRow{ID: r.ID, Parent: r.Parent, Name: r.Name, SKU: r.SKU, Status: r.Status, Manage: r.Manage}
		if r.Qty.Valid {
			v := r.Qty.Int64
			out[i].Quantity = &v
		}
	}
	return out, nil
}

var _ analytics.Store = (*DB)(nil)
