package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/adminapi"
	"vitrine/internal/analytics"
	"vitrine/internal/analyticsapi"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
)

// Orders for the analytics benchmark: -orders N writes N orders spread
// over -days days ending now (statuses, currencies, lines, coupons and
// refunds in realistic shares) with multi-row inserts, 500 orders a
// transaction; the analytics triggers mark each, and the follower's own
// batch (sqlstore.AnalyticsCatchUpTx) builds their facts and rollups in
// that transaction. -measure-analytics times the dashboard's calls.

// GenerateOrders writes n orders over days days ending at end, with their
// analytics facts.
func GenerateOrders(ctx context.Context, db *sqlstore.DB, n, days int, seed uint64, end time.Time, progress func(int)) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x51ed27))
	var first int64
	if err := db.Read.GetContext(ctx, &first, `SELECT COALESCE(MAX(id), 0) FROM orders`); err != nil {
		return err
	}
	var rid int64
	if err := db.Read.GetContext(ctx, &rid, `SELECT COALESCE(MAX(id), 0) FROM order_refunds`); err != nil {
		return err
	}
	span := int64(days) * 86400
	statuses := []string{"completed", "completed", "completed", "processing", "processing", "on-hold", "pending", "cancelled", "failed", "refunded"}
	const batch = 500
	conv := analytics.Converter{Base: money.Currency{Code: "USD", MinorUnit: 2}}
	for done := 0; done < n; done += batch {
		k := min(batch, n-done)
		var orders, lines, refunds, coupons [][]any
		for i := 0; i < k; i++ {
			id := first + int64(done+i) + 1
			at := end.Unix() - rng.Int64N(span)
			st := statuses[rng.IntN(len(statuses))]
			cur, rate := "USD", "1"
			if rng.IntN(5) == 0 {
				cur, rate = "EUR", "0.92"
			}
			var items, tax int64
			nl := 1 + rng.IntN(3)
			for p := 0; p < nl; p++ {
				q := int64(1 + rng.IntN(3))
				total := q * int64(800+rng.IntN(6000))
				t := total / 10
				items += total
				tax += t
				lines = append(lines, []any{id, p, 1 + rng.Int64N(2000), 0, "Product", q, total / q, total, t, total, t})
			}
			ship := int64(rng.IntN(3)) * 495
			disc := int64(0)
			if rng.IntN(8) == 0 {
				disc = 500
				coupons = append(coupons, []any{id, 0, fmt.Sprintf("save%d", rng.IntN(20)), "fixed_cart", disc, 0})
			}
			total := items + tax + ship
			cust := fmt.Sprintf("c%d@example.com", rng.IntN(n/3+1))
			orders = append(orders, []any{id, fmt.Sprintf("wc_order_gen_%d", id), st, cur, rate, "USD", cust, items, tax, ship, 0, disc, tax, total, at, at})
			if st == "refunded" || rng.IntN(25) == 0 {
				rid++
				amt := total / 2
				if st == "refunded" {
					amt = total
				}
				refunds = append(refunds, []any{rid, id, fmt.Sprint(rid), "h", amt, "manual", "completed", "[]", at + 3600, at + 3600})
			}
		}
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			for _, part := range []struct {
				table string
				rows  [][]any
			}{
				{`orders (id, order_key, status, currency, currency_rate, base_currency, billing_email, items_subtotal, items_tax, shipping_total,
					shipping_tax, discount_total, total_tax, total, created_at, updated_at)`, orders},
				{`order_lines (order_id, position, product_id, variation_id, name, quantity, unit_price, subtotal, subtotal_tax, total, total_tax)`, lines},
				{`order_coupons (order_id, position, code, discount_type, discount, discount_tax)`, coupons},
				{`order_refunds (id, order_id, idem_key, request_hash, amount, method, status, lines, created_at, completed_at)`, refunds},
			} {
				for s := 0; s < len(part.rows); s += 200 {
					rows := part.rows[s:min(len(part.rows), s+200)]
					var q strings.Builder
					var args []any
					q.WriteString("INSERT INTO " + part.table + " VALUES ")
					for j, r := range rows {
						if j > 0 {
							q.WriteString(", ")
						}
						q.WriteString("(" + strings.TrimSuffix(strings.Repeat("?, ", len(r)), ", ") + ")")
						args = append(args, r...)
					}
					if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
						return err
					}
				}
			}
			// The facts and rollups of the orders written, by the
			// follower's own batch, before the orders commit.
			for {
				n, err := db.AnalyticsCatchUpTx(ctx, tx, conv, batch)
				if err != nil || n == 0 {
					return err
				}
			}
		})
		if err != nil {
			return err
		}
		if progress != nil {
			progress(done + k)
		}
	}
	if db.Engine == "postgres" {
		// Statistics and the visibility map, as autovacuum would leave
		// them after a bulk load (index-only scans need the latter).
		defer db.Write.ExecContext(ctx, `VACUUM ANALYZE`)
		for _, t := range []string{"orders", "order_refunds"} {
			if _, err := db.Write.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'), (SELECT MAX(id) FROM `+t+`))`); err != nil {
				return err
			}
		}
	}
	return nil
}

func analyticsService(db *sqlstore.DB, now time.Time, tz string) *analytics.Service {
	return &analytics.Service{Store: db, Base: money.Currency{Code: "USD", MinorUnit: 2},
		Settings: func() analytics.Settings { return analytics.Settings{TimeZone: tz} }, Now: func() time.Time { return now }}
}

// cpuTime is this process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type values map[string]string

func (v values) Get(k string) string { return v[k] }
func (v values) Has(k string) bool   { _, ok := v[k]; return ok }

// AnalyticsOnly, when set, limits MeasureAnalytics to the calls whose
// name contains it (-only).
var AnalyticsOnly string

// MeasureAnalytics catches up the facts, then times rounds of the admin
// dashboard's analytics calls through the API's handlers, as the
// dashboard asks for a 90-day range (custom dates ending at end's day)
// against the 90 days before: the revenue stats by day, the performance
// indicators, the new and returning customers (orders stats), the
// leaderboards, the products, variations, categories, coupons and
// customers lists; a pair is the range and its comparison. It prints p50
// and p99 of each, wall time and this process's CPU.
func MeasureAnalytics(ctx context.Context, db *sqlstore.DB, end time.Time, tz string, rounds int, w io.Writer) error {
	svc := analyticsService(db, end, tz)
	loc := svc.Location()
	start := time.Now()
	n, err := svc.CatchUp(ctx, 0)
	if err != nil {
		return err
	}
	if n > 0 {
		fmt.Fprintf(w, "catch-up (facts of %d orders) %s\n", n, time.Since(start).Round(time.Millisecond))
	}
	handlers := map[string]adminapi.Handler{}
	for _, r := range analyticsapi.New(analyticsapi.Deps{Analytics: svc}).Routes() {
		handlers[strings.TrimPrefix(r.Pattern, "GET "+analyticsapi.Prefix)] = r.Handler
	}
	endDay := end.In(loc)
	from := time.Date(endDay.Year(), endDay.Month(), endDay.Day()-89, 0, 0, 0, 0, loc)
	cmpFrom := from.AddDate(0, 0, -90)
	dates := func(a, b time.Time) string {
		return "after=" + a.Format("2006-01-02") + "T00:00:00&before=" + b.Format("2006-01-02") + "T23:59:59"
	}
	span, cmpSpan := dates(from, endDay), dates(cmpFrom, from.AddDate(0, 0, -1))
	calls := []struct {
		name  string
		path  string
		query []string // one request each, timed together
	}{
		{"revenue stats by day, pair", "/reports/revenue/stats", []string{span, cmpSpan}},
		{"performance indicators, pair", "/reports/performance-indicators", []string{span, cmpSpan}},
		{"new and returning customers", "/reports/orders/stats", []string{span + "&customer_type=new", span + "&customer_type=returning"}},
		{"leaderboards", "/leaderboards", []string{span}},
		// The lists' first pages (their default order, date).
		{"products report", "/reports/products", []string{span + "&per_page=25"}},
		{"variations report", "/reports/variations", []string{span + "&per_page=25"}},
		{"categories report", "/reports/categories", []string{span + "&per_page=25"}},
		{"coupons report", "/reports/coupons", []string{span + "&per_page=25"}},
		{"customers report", "/reports/customers", []string{span + "&per_page=25"}},
		// The revenue stats by day segmented (no comparison).
		{"revenue stats by day, segmentby=product", "/reports/revenue/stats", []string{span + "&interval=day&per_page=100&segmentby=product"}},
		{"revenue stats by day, segmentby=category", "/reports/revenue/stats", []string{span + "&interval=day&per_page=100&segmentby=category"}},
	}
	calls[0].query = []string{span + "&interval=day&orderby=date&order=asc&per_page=100", cmpSpan + "&interval=day&orderby=date&order=asc&per_page=100"}
	calls[1].query = []string{span + "&stats=revenue/net_revenue,orders/orders_count,orders/avg_order_value,products/items_sold,revenue/refunds",
		cmpSpan + "&stats=revenue/net_revenue,orders/orders_count,orders/avg_order_value,products/items_sold,revenue/refunds"}
	calls[2].query[0] += "&per_page=1"
	calls[2].query[1] += "&per_page=1"
	calls[3].query[0] += "&per_page=5"
	p := func(d []time.Duration, q float64) time.Duration {
		return d[min(len(d)-1, int(q*float64(len(d))))].Round(100 * time.Microsecond)
	}
	for _, c := range calls {
		if AnalyticsOnly != "" && !strings.Contains(c.name, AnalyticsOnly) {
			continue
		}
		h := handlers[c.path]
		if h == nil {
			return fmt.Errorf("no handler for %s", c.path)
		}
		var took, cpu []time.Duration
		var orders int64
		for i := 0; i < rounds; i++ {
			t0, c0 := time.Now(), cpuTime()
			for j, q := range c.query {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("GET", analyticsapi.Prefix+c.path+"?"+q, nil).WithContext(ctx)
				if err := h(rec, req, adminapi.Staff{ID: 1, Role: "administrator"}); err != nil {
					return fmt.Errorf("%s: %w", c.path, err)
				}
				if rec.Code != 200 {
					return fmt.Errorf("%s: %d %s", c.path, rec.Code, rec.Body.String())
				}
				if j == 0 && c.path == "/reports/revenue/stats" && !strings.Contains(q, "segmentby") {
					var a struct {
						Totals struct {
							Orders int64 `json:"orders_count"`
						} `json:"totals"`
					}
					_ = json.Unmarshal(rec.Body.Bytes(), &a)
					orders = a.Totals.Orders
				}
			}
			took = append(took, time.Since(t0))
			cpu = append(cpu, cpuTime()-c0)
		}
		slices.Sort(took)
		slices.Sort(cpu)
		counted := ""
		if c.path == "/reports/revenue/stats" && orders > 0 {
			counted = fmt.Sprintf(" (%d orders counted in the period)", orders)
		}
		fmt.Fprintf(w, "%s%s, %d rounds: wall p50 %s, p99 %s; this process's CPU (user+sys) p50 %s, p99 %s\n",
			c.name, counted, rounds, p(took, 0.5), p(took, 0.99), p(cpu, 0.5), p(cpu, 0.99))
	}
	return nil
}
