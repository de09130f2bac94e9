package sqlstore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/reports"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The sales reports' aggregates (reports.Store): GROUP BY on either
// engine, a day being the unix seconds rounded down to a multiple of
// 86400 (UTC, the orders' clock).

// SalesByDay sums orders, their lines, their refunds and new customer
// accounts per day of [from, to).
func (db *DB) SalesByDay(ctx context.Context, currency string, statuses []string, from, to time.Time) ([]reports.Day, error) {
	days := map[int64]*reports.Day{}
	at := func(day int64) *reports.Day {
		d, ok := days[day]
		if !ok {
			d = &reports.Day{Day: time.Unix(day, 0).UTC()}
			days[day] = d
		}
		return d
	}
	lo, hi := from.Unix(), to.Unix()
	run := func(q string, args []any, dest any) error {
		q, args, err := sqlx.In(q, args...)
		if err != nil {
			return err
		}
		return db.Read.SelectContext(ctx, dest, db.Read.Rebind(q), args...)
	}
	// The orders and refunds are analytics' facts (analytics.go; the
	// service catches them up first): the orders of the base currency by
	// the day placed, the completed refunds of any of its orders by the day
	// they completed.
	var orders []struct {
		Day      int64 `db:"day"`
		Orders   int   `db:"orders"`
		Items    int   `db:"items"`
		Sales    int64 `db:"sales"`
		Tax      int64 `db:"tax"`
		Shipping int64 `db:"shipping"`
		Discount int64 `db:"discount"`
	}
	if err := run(`SELECT created_at - created_at % 86400 AS day, COUNT(*) AS orders, COALESCE(SUM(items), 0) AS items,
		COALESCE(SUM(gross), 0) AS sales, COALESCE(SUM(tax), 0) AS tax, COALESCE(SUM(shipping), 0) AS shipping,
		COALESCE(SUM(discount), 0) AS discount
		FROM analytics_orders WHERE refund_id = 0 AND currency = ? AND status IN (?) AND created_at >= ? AND created_at < ? GROUP BY 1`,
		[]any{currency, statuses, lo, hi}, &orders); err != nil {
		return nil, err
	}
	for _, r := range orders {
		d := at(r.Day)
		d.Orders, d.Items, d.Sales, d.Tax, d.Shipping, d.Discount = r.Orders, r.Items, r.Sales, r.Tax, r.Shipping, r.Discount
	}
	var sums []struct {
		Day int64 `db:"day"`
		N   int64 `db:"n"`
	}
	if err := run(`SELECT created_at - created_at % 86400 AS day, COALESCE(-SUM(gross), 0) AS n
		FROM analytics_orders WHERE refund_id <> 0 AND currency = ? AND created_at >= ? AND created_at < ? GROUP BY 1`,
		[]any{currency, lo, hi}, &sums); err != nil {
		return nil, err
	}
	for _, r := range sums {
		at(r.Day).Refunds = r.N
	}
	sums = nil
	if err := run(`SELECT created_at - created_at % 86400 AS day, COUNT(*) AS n FROM users
		WHERE role = 'customer' AND created_at >= ? AND created_at < ? GROUP BY 1`, []any{lo, hi}, &sums); err != nil {
		return nil, err
	}
	for _, r := range sums {
		at(r.Day).Customers = int(r.N)
	}
	out := make([]reports.Day, 0, len(days))
	for _, d := range days {
		out = append(out, *d)
	}
	return out, nil
}

// TopSellers sums the line facts' quantities per product (refunded
// units are not taken back, as before), with the product's name.
func (db *DB) TopSellers(ctx context.Context, statuses []string, from, to time.Time, limit int) ([]reports.Seller, error) {
	q, args, err := sqlx.In(`SELECT l.product_id, COALESCE(MIN(p.name), '') AS name, SUM(l.quantity) AS quantity
		FROM analytics_lines l LEFT JOIN products p ON p.id = l.product_id
		WHERE l.refund_id = 0 AND l.status IN (?) AND l.created_at >= ? AND l.created_at < ?
		GROUP BY l.product_id ORDER BY quantity DESC, l.product_id`+sqlcore.Limit(limit), statuses, from.Unix(), to.Unix())
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ProductID int64  `db:"product_id"`
		Name      string `db:"name"`
		Quantity  int64  `db:"quantity"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	out := make([]reports.Seller, 0, len(rows))
	for _, r := range rows {
		out = append(out, reports.Seller{ProductID: r.ProductID, Name: r.Name, Quantity: int(r.Quantity)})
	}
	return out, nil
}

func (db *DB) countBy(ctx context.Context, q string) (map[string]int, error) {
	var rows []struct {
		Key string `db:"k"`
		N   int    `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, q); err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Key] = r.N
	}
	return out, nil
}

// ProductTypeCounts counts the published products (not variations) by type.
func (db *DB) ProductTypeCounts(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT type AS k, COUNT(*) AS n FROM products WHERE status = 'publish' AND type <> 'variation' GROUP BY type`)
}

// CustomerCounts counts the customer accounts with and without a paid order.
func (db *DB) CustomerCounts(ctx context.Context) (paying, nonPaying int, err error) {
	var r struct {
		All    int `db:"all_n"`
		Paying int `db:"paying"`
	}
	err = db.Read.GetContext(ctx, &r, `SELECT COUNT(*) AS all_n, COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM orders o
		WHERE o.customer_id = users.id AND o.status IN ('processing', 'completed')) THEN 1 ELSE 0 END), 0) AS paying
		FROM users WHERE role = 'customer'`)
	return r.Paying, r.All - r.Paying, err
}

// CouponTypeCounts counts the coupons by discount type.
func (db *DB) CouponTypeCounts(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT discount_type AS k, COUNT(*) AS n FROM coupons GROUP BY discount_type`)
}

// ReviewRatingCounts counts the approved reviews by rating.
func (db *DB) ReviewRatingCounts(ctx context.Context) (map[int]int, error) {
	var rows []struct {
		Rating int `db:"rating"`
		N      int `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, `SELECT rating, COUNT(*) AS n FROM reviews WHERE status = 'approved' AND rating > 0 GROUP BY rating`); err != nil {
		return nil, err
	}
	out := map[int]int{}
	for _, r := range rows {
		out[r.Rating] = r.N
	}
	return out, nil
}

var _ reports.Store = (*DB)(nil)
