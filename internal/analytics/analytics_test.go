package analytics_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"vitrine/internal/analytics"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var usd = money.Currency{Code: "USD", MinorUnit: 2}

// order is the test's own record of an order it wrote.
type order struct {
	src     analytics.Source
	deleted bool
}

type shop struct {
	t      *testing.T
	db     *sqlstore.DB
	orders []*order
	nextRf int
}

func (s *shop) exec(q string, args ...any) {
	s.t.Helper()
	if _, err := s.db.Write.Exec(s.db.Write.Rebind(q), args...); err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
}

// place writes an order as the checkout would (the columns the facts read).
func (s *shop) place(r *rand.Rand, at time.Time) *order {
	cur, rate := "USD", "1"
	switch r.IntN(4) {
	case 0:
		cur, rate = "EUR", "0.92"
	case 1:
		cur, rate = "JPY", "151.3"
	}
	o := &order{src: analytics.Source{Status: []string{"processing", "completed", "on-hold", "pending", "failed"}[r.IntN(5)],
		CreatedAt: at.Unix(), Currency: cur, Rate: rate, Customer: fmt.Sprintf("g%c@example.com", 'a'+r.IntN(5))}}
	var items, itemsTax int64
	n := 1 + r.IntN(3)
	for i := 0; i < n; i++ {
		q := int64(1 + r.IntN(3))
		total := q * int64(500+r.IntN(5000))
		tax := total / 10
		o.src.Lines = append(o.src.Lines, analytics.SourceLine{Position: i, ProductID: int64(1 + r.IntN(6)), Quantity: q, Total: total, Tax: tax})
		items += total
		itemsTax += tax
	}
	ship := int64(r.IntN(3)) * 500
	disc := int64(0)
	if r.IntN(3) == 0 {
		disc = 100 + int64(r.IntN(400))
	}
	o.src.Shipping, o.src.Tax, o.src.Discount = ship, itemsTax, disc
	o.src.Total = items + itemsTax + ship
	var id int64
	if err := s.db.Write.Get(&id, s.db.Write.Rebind(`INSERT INTO orders (order_key, status, currency, currency_rate, base_currency, billing_email,
		items_subtotal, items_tax, shipping_total, shipping_tax, discount_total, total_tax, total, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'USD', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?) RETURNING id`),
		fmt.Sprintf("wc_order_%d_%d", at.UnixNano(), r.Int()), o.src.Status, cur, rate, o.src.Customer[1:], items, itemsTax, ship, disc,
		itemsTax, o.src.Total, at.Unix(), at.Unix()); err != nil {
		s.t.Fatal(err)
	}
	o.src.OrderID = id
	for _, l := range o.src.Lines {
		s.exec(`INSERT INTO order_lines (order_id, position, product_id, variation_id, name, quantity, unit_price, subtotal, subtotal_tax, total, total_tax)
			VALUES (?, ?, ?, 0, 'Thing', ?, 1, ?, ?, ?, ?)`, id, l.Position, l.ProductID, l.Quantity, l.Total, l.Tax, l.Total, l.Tax)
	}
	if disc > 0 {
		code := []string{"save", "spring", "vip"}[r.IntN(3)]
		s.exec(`INSERT INTO order_coupons (order_id, position, code, discount_type, discount, discount_tax) VALUES (?, 0, ?, 'fixed_cart', ?, 0)`, id, code, disc)
		o.src.Coupons = []analytics.SourceCoupon{{Position: 0, Code: code, Discount: disc}}
	}
	s.orders = append(s.orders, o)
	return o
}

func (s *shop) refund(o *order, amount int64, at time.Time, line bool) {
	s.nextRf++
	lines := "[]"
	var rl []analytics.RefundLine
	if line {
		l := o.src.Lines[0]
		lines = fmt.Sprintf(`[{"line":0,"quantity":1,"total":%d}]`, min(amount, l.Total/l.Quantity))
		rl = []analytics.RefundLine{{Line: 0, Quantity: 1, Total: min(amount, l.Total/l.Quantity)}}
	}
	var id int64
	if err := s.db.Write.Get(&id, s.db.Write.Rebind(`INSERT INTO order_refunds (order_id, idem_key, request_hash, amount, method, status, lines, created_at, completed_at)
		VALUES (?, ?, 'h', ?, 'manual', 'completed', ?, ?, ?) RETURNING id`), o.src.OrderID, fmt.Sprint(s.nextRf), amount, lines, at.Unix(), at.Unix()); err != nil {
		s.t.Fatal(err)
	}
	o.src.Refunds = append(o.src.Refunds, analytics.SourceRefund{ID: id, CreatedAt: at.Unix(), Amount: amount, Lines: rl})
}

func (s *shop) status(o *order, st string) {
	s.exec(`UPDATE orders SET status = ? WHERE id = ?`, st, o.src.OrderID)
	o.src.Status = st
}

// expected recomputes the stats from the test's own orders: the facts of
// each, kept when counted and dated in [from, to), by local day.
func (s *shop) expected(conv analytics.Converter, counted map[string]bool, from, to time.Time, loc *time.Location) (analytics.Sums, map[string]analytics.Sums) {
	return s.expectedBy(conv, counted, from, to, func(at int64) string { return time.Unix(at, 0).In(loc).Format("2006-01-02") })
}

// expectedBy is expected with the intervals named by interval.
func (s *shop) expectedBy(conv analytics.Converter, counted map[string]bool, from, to time.Time, interval func(int64) string) (analytics.Sums, map[string]analytics.Sums) {
	var tot analytics.Sums
	days := map[string]analytics.Sums{}
	cust := map[string]bool{}
	dayCust := map[string]map[string]bool{}
	products := map[int64]bool{}
	coupons := map[string]bool{}
	dayCoupons := map[string]map[string]bool{}
	for _, o := range s.orders {
		if o.deleted || !counted[o.src.Status] {
			continue
		}
		// returning: an earlier order by the same customer (any status).
		src := o.src
		for _, p := range s.orders {
			if !p.deleted && p != o && p.src.Customer == src.Customer && p.src.CreatedAt < src.CreatedAt {
				src.Returning = true
			}
		}
		facts := conv.Facts(src)
		for _, l := range facts.Lines {
			if l.RefundID == 0 && l.CreatedAt >= from.Unix() && l.CreatedAt < to.Unix() && !products[l.ProductID] {
				products[l.ProductID] = true
				tot.Products++
			}
		}
		for _, c := range facts.Coupons {
			if c.CreatedAt < from.Unix() || c.CreatedAt >= to.Unix() {
				continue
			}
			key, day := fmt.Sprintf("%d|%s", c.CouponID, c.Code), interval(c.CreatedAt)
			if !coupons[key] {
				coupons[key] = true
				tot.Coupons++
			}
			if dayCoupons[day] == nil {
				dayCoupons[day] = map[string]bool{}
			}
			if !dayCoupons[day][key] {
				dayCoupons[day][key] = true
				d := days[day]
				d.Coupons++
				days[day] = d
			}
		}
		for _, f := range facts.Orders {
			if f.CreatedAt < from.Unix() || f.CreatedAt >= to.Unix() {
				continue
			}
			day := interval(f.CreatedAt)
			d := days[day]
			for _, m := range []*analytics.Sums{&tot, &d} {
				if f.RefundID == 0 {
					m.Orders++
					m.OrderItems += f.Items
					m.OrderNet += f.Net
				} else {
					m.RefundNet += f.Net
				}
				m.Items += f.Items
				m.Gross += f.Gross
				m.Tax += f.Tax
				m.Shipping += f.Shipping
				m.Discount += f.Discount
				m.Net += f.Net
			}
			if !cust[f.Customer] {
				cust[f.Customer] = true
				tot.Customers++
			}
			if dayCust[day] == nil {
				dayCust[day] = map[string]bool{}
			}
			if !dayCust[day][f.Customer] {
				dayCust[day][f.Customer] = true
				d.Customers++
			}
			days[day] = d
		}
	}
	return tot, days
}

type params map[string]string

func (p params) Get(k string) string { return p[k] }
func (p params) Has(k string) bool   { _, ok := p[k]; return ok }

// Random orders in several currencies, partial and whole refunds,
// cancellations, status changes and deletions, over the March and November
// clock changes in New York: every day's figures and the totals equal the
// recomputation from the orders themselves.
func TestStatsEqualOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		ny, _ := time.LoadLocation("America/New_York")
		for _, season := range []time.Time{time.Date(2026, 3, 5, 0, 0, 0, 0, ny), time.Date(2026, 10, 29, 0, 0, 0, 0, ny)} {
			r := rand.New(rand.NewPCG(uint64(season.Unix()), 7))
			s := &shop{t: t, db: db}
			now := season.AddDate(0, 0, 10)
			set := analytics.Settings{TimeZone: "America/New_York"}
			svc := &analytics.Service{Store: db, Base: usd, Settings: func() analytics.Settings { return set }, Now: func() time.Time { return now }}
			db.Write.Exec(`DELETE FROM orders`)
			for i := 0; i < 120; i++ {
				// Around the clock: some orders within an hour of local midnight.
				at := season.Add(time.Duration(r.IntN(9*24*3600)) * time.Second)
				o := s.place(r, at)
				switch r.IntN(6) {
				case 0:
					s.refund(o, o.src.Total/3, at.Add(time.Duration(r.IntN(48))*time.Hour), true)
				case 1:
					s.refund(o, o.src.Total/4, at.Add(time.Hour), false)
					s.refund(o, o.src.Total-o.src.Total/4, at.Add(30*time.Hour), false)
					s.status(o, "refunded")
				case 2:
					s.status(o, "cancelled")
				case 3:
					if i%10 == 3 {
						s.exec(`DELETE FROM orders WHERE id = ?`, o.src.OrderID)
						o.deleted = true
					}
				}
				if i == 60 { // a report in the middle catches up what was written so far
					q, _ := analytics.ParseQuery(params{"interval": "day"}, ny, analytics.StatsOrderBys, "date")
					if _, err := svc.Stats(ctx, q); err != nil {
						t.Fatal(err)
					}
				}
			}
			counted := map[string]bool{"processing": true, "completed": true, "on-hold": true, "refunded": true}
			conv := analytics.Converter{Base: usd}
			from := season.AddDate(0, 0, 1)
			byDay := func(at int64) string { return time.Unix(at, 0).In(ny).Format("2006-01-02") }
			check := func(label string, after, before time.Time, interval string, name func(*analytics.Interval) string, intervals int) {
				t.Helper()
				q, err := analytics.ParseQuery(params{"interval": interval, "after": after.Format("2006-01-02T15:04:05"),
					"before": before.Format("2006-01-02T15:04:05")}, ny, analytics.StatsOrderBys, "date")
				if err != nil {
					t.Fatal(err)
				}
				q.PerPage = 0
				st, err := svc.Stats(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				key := byDay
				if interval == "hour" {
					key = func(at int64) string { return fmt.Sprint(at - at%3600) } // New York's offsets are whole hours
				}
				tot, each := s.expectedBy(conv, counted, after, before.Add(time.Second), key)
				want := svc.FiguresOf(tot)
				got := st.Totals
				if got != want {
					t.Errorf("%s %s totals\n got %+v\nwant %+v", season.Month(), label, got, want)
				}
				if len(st.Intervals) != intervals {
					t.Fatalf("%s: %d intervals, want %d", label, len(st.Intervals), intervals)
				}
				for i := range st.Intervals {
					iv := &st.Intervals[i]
					w := svc.FiguresOf(each[name(iv)])
					w.Products = 0
					g := iv.Figures
					if g != w {
						t.Errorf("%s %s interval %s\n got %+v\nwant %+v", season.Month(), label, iv.ID, g, w)
					}
					if interval == "day" && i > 0 && i < len(st.Intervals)-1 {
						if h := iv.End.Sub(iv.Start); h != 24*time.Hour && !(h == 23*time.Hour && iv.ID == "2026-03-08") && !(h == 25*time.Hour && iv.ID == "2026-11-01") {
							t.Errorf("day %s lasts %s", iv.ID, h)
						}
					}
				}
			}
			dayName := func(iv *analytics.Interval) string { return iv.ID }
			checkAll := func(phase string) {
				t.Helper()
				last := from.AddDate(0, 0, 7).Add(-time.Second)
				check(phase+" by day", from, last, "day", dayName, 7)
				check(phase+" by hour", from, last, "hour", func(iv *analytics.Interval) string { return fmt.Sprint(iv.Start.Unix()) },
					int(last.Add(time.Second).Sub(from)/time.Hour))
				// Ends inside an hour: the partial hours come from the facts.
				check(phase+" partial hours", from.Add(17*time.Minute+23*time.Second), last.Add(-41*time.Minute), "day", dayName, 7)
				checkRollups(t, db)
			}
			checkAll("placed")
			// Orders already counted change: refunds, status changes,
			// deletions, another customer, another date. The rollups follow.
			for _, o := range s.orders {
				if o.deleted {
					continue
				}
				switch r.IntN(7) {
				case 0:
					s.refund(o, o.src.Total/5, time.Unix(o.src.CreatedAt, 0).Add(time.Duration(r.IntN(30))*time.Hour), true)
				case 1:
					s.status(o, []string{"completed", "cancelled", "processing", "refunded"}[r.IntN(4)])
				case 2:
					s.exec(`DELETE FROM orders WHERE id = ?`, o.src.OrderID)
					o.deleted = true
				case 3:
					email := fmt.Sprintf("%c@example.com", 'a'+r.IntN(7))
					s.exec(`UPDATE orders SET billing_email = ? WHERE id = ?`, email, o.src.OrderID)
					o.src.Customer = "g" + email
				case 4:
					at := o.src.CreatedAt + int64(r.IntN(20*3600)) - 10*3600
					s.exec(`UPDATE orders SET created_at = ? WHERE id = ?`, at, o.src.OrderID)
					o.src.CreatedAt = at
				}
			}
			checkAll("changed")
			// Nothing left marked: the report caught up every order.
			var left int
			db.Read.Get(&left, `SELECT COUNT(*) FROM analytics_dirty`)
			if left != 0 {
				t.Errorf("%d orders still marked", left)
			}
		}
	})
}

// A bad parameter is an InputError naming it.
func TestParseQueryRefusals(t *testing.T) {
	for _, p := range []params{{"interval": "fortnight"}, {"after": "yesterday"}, {"per_page": "0"}, {"per_page": "101"},
		{"order": "up"}, {"orderby": "nope"}, {"status_is": "shipped"}, {"product_includes": "1,x"}, {"customer_type": "old"},
		{"after": "2026-02-01", "before": "2026-01-01"}} {
		_, err := analytics.ParseQuery(p, time.UTC, analytics.StatsOrderBys, "date")
		if _, ok := err.(*analytics.InputError); !ok {
			t.Errorf("%v: %v, want an InputError", p, err)
		}
	}
}

// checkRollups compares every hour's rollup with the facts it sums.
func checkRollups(t *testing.T, db *sqlstore.DB) {
	t.Helper()
	if err := db.AnalyticsCheckRollups(context.Background()); err != nil {
		t.Error(err)
	}
	var hours int
	if err := db.Read.Get(&hours, `SELECT COUNT(*) FROM analytics_hours`); err != nil || hours == 0 {
		t.Errorf("%d hours rolled up: %v", hours, err)
	}
}
