package analytics_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
		l := analytics.SourceLine{Position: i, ProductID: int64(1 + r.IntN(6)), Quantity: q, Total: total, Tax: tax}
		if l.ProductID <= 3 { // variable products: two variations each
			l.VariationID = l.ProductID*10 + q%2
		}
		o.src.Lines = append(o.src.Lines, l)
		items += total
		itemsTax += tax
	}
	ship := int64(r.IntN(3)) * 500
	disc := int64(0)
	if r.IntN(3) == 0 {
		disc = 100 + int64(r.IntN(400))
	}
	// The shipping taxed at 10%; a discount taken off the first line
	// (its subtotal before it).
	shipTax := ship / 10
	o.src.Shipping, o.src.ShippingTax, o.src.Tax, o.src.Discount = ship, shipTax, itemsTax+shipTax, disc
	o.src.Total = items + itemsTax + ship + shipTax
	for i := range o.src.Lines {
		o.src.Lines[i].Subtotal = o.src.Lines[i].Total
	}
	o.src.Lines[0].Subtotal += disc
	var id int64
	if err := s.db.Write.Get(&id, s.db.Write.Rebind(`INSERT INTO orders (order_key, status, currency, currency_rate, base_currency, billing_email,
		items_subtotal, items_tax, shipping_total, shipping_tax, discount_total, total_tax, total, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		fmt.Sprintf("wc_order_%d_%d", at.UnixNano(), r.Int()), o.src.Status, cur, rate, o.src.Customer[1:], items, itemsTax, ship, shipTax, disc,
		o.src.Tax, o.src.Total, at.Unix(), at.Unix()); err != nil {
		s.t.Fatal(err)
	}
	o.src.OrderID = id
	// Its tax lines: the first line's tax and the shipping's at rate 1,
	// the other lines' at rate 2 (an order of two lines or more has both).
	var other int64
	for _, l := range o.src.Lines[1:] {
		other += l.Tax
	}
	taxLines := fmt.Sprintf(`[{"rate_id":1,"label":"US-CA-TAX-1","rate":"10","tax_total":%d,"shipping_tax_total":%d}`, o.src.Lines[0].Tax, shipTax)
	if len(o.src.Lines) > 1 {
		taxLines += fmt.Sprintf(`,{"rate_id":2,"label":"US-CA-CITY-2","rate":"10","tax_total":%d,"shipping_tax_total":0}`, other)
	}
	s.exec(`UPDATE orders SET tax_lines = ? WHERE id = ?`, taxLines+"]", id)
	for _, l := range o.src.Lines {
		s.exec(`INSERT INTO order_lines (order_id, position, product_id, variation_id, name, quantity, unit_price, subtotal, subtotal_tax, total, total_tax)
			VALUES (?, ?, ?, ?, 'Thing', ?, 1, ?, ?, ?, ?)`, id, l.Position, l.ProductID, l.VariationID, l.Quantity, l.Subtotal, l.Tax, l.Total, l.Tax)
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

// productCategories are the test's categories of products 1…6 (product
// 3 in two, product 6 in none).
var productCategories = map[int64][]int64{1: {1}, 2: {1}, 3: {1, 2}, 4: {2}, 5: {3}}

// expectedItems recomputes an item report (by "product", "variation" or
// "category") from the test's own orders: their lines' facts dated in
// [from, to), the orders and products counted distinct.
func (s *shop) expectedItems(conv analytics.Converter, counted map[string]bool, from, to time.Time, by string) map[int64]analytics.ItemRow {
	out := map[int64]analytics.ItemRow{}
	orders := map[int64]map[int64]bool{}
	products := map[int64]map[int64]bool{}
	for _, o := range s.orders {
		if o.deleted || !counted[o.src.Status] {
			continue
		}
		for _, l := range conv.Facts(o.src).Lines {
			if l.CreatedAt < from.Unix() || l.CreatedAt >= to.Unix() {
				continue
			}
			ids := []int64{l.ProductID}
			switch by {
			case "variation":
				if l.VariationID == 0 {
					continue
				}
				ids = []int64{l.VariationID}
			case "category":
				ids = productCategories[l.ProductID]
			}
			for _, id := range ids {
				r := out[id]
				r.ID = id
				r.Items += l.Quantity
				r.Net += l.Net
				r.Tax += l.Tax + l.ShippingTax
				r.Shipping += l.Shipping
				r.Coupon += l.Coupon
				if l.RefundID != 0 {
					r.RefundNet += l.Net
				}
				r.LastDate = max(r.LastDate, l.CreatedAt)
				if by == "variation" {
					r.Parent = max(r.Parent, l.ProductID)
				}
				if orders[id] == nil {
					orders[id], products[id] = map[int64]bool{}, map[int64]bool{}
				}
				orders[id][l.OrderID] = true
				products[id][l.ProductID] = true
				r.Orders = int64(len(orders[id]))
				if by == "category" {
					r.Products = int64(len(products[id]))
				}
				out[id] = r
			}
		}
	}
	return out
}

// expectedCoupons recomputes the coupons report from the test's orders.
func (s *shop) expectedCoupons(conv analytics.Converter, counted map[string]bool, from, to time.Time) map[int64]analytics.CouponRow {
	out := map[int64]analytics.CouponRow{}
	orders := map[int64]map[int64]bool{}
	for _, o := range s.orders {
		if o.deleted || !counted[o.src.Status] {
			continue
		}
		for _, c := range conv.Facts(o.src).Coupons {
			if c.CreatedAt < from.Unix() || c.CreatedAt >= to.Unix() {
				continue
			}
			r := out[c.CouponID]
			r.CouponID = c.CouponID
			r.Amount += c.Discount
			r.Code = max(r.Code, c.Code)
			if orders[c.CouponID] == nil {
				orders[c.CouponID] = map[int64]bool{}
			}
			orders[c.CouponID][c.OrderID] = true
			r.Orders = int64(len(orders[c.CouponID]))
			out[c.CouponID] = r
		}
	}
	return out
}

// checkItems compares the item reports, the coupons report and the
// leaderboards' lists over [after, before] with the recomputation from
// the orders.
func (s *shop) checkItems(ctx context.Context, svc *analytics.Service, conv analytics.Converter, counted map[string]bool, label string, after, before time.Time, loc *time.Location) {
	t := s.t
	t.Helper()
	q, err := analytics.ParseQuery(params{"after": after.In(loc).Format("2006-01-02T15:04:05"), "before": before.In(loc).Format("2006-01-02T15:04:05")},
		loc, analytics.ListOrderBys["products"], "date")
	if err != nil {
		t.Fatal(err)
	}
	q.PerPage = 0
	to := before.Add(time.Second)
	for _, by := range []string{"product", "variation", "category", "top category", "top product"} {
		var got []analytics.ItemRow
		kind := by
		if len(by) > 4 && by[:4] == "top " {
			kind = by[4:]
			got, err = svc.TopItems(ctx, q, kind)
		} else {
			got, err = svc.Items(ctx, q, by)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := s.expectedItems(conv, counted, after, to, kind)
		top := kind != by
		if top {
			for id, w := range want {
				w.Orders, w.LastDate = 0, 0 // a leaderboard shows items and net only
				want[id] = w
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s %s: %d rows, want %d", label, by, len(got), len(want))
		}
		for i, g := range got {
			if !top && i > 0 && (g.LastDate > got[i-1].LastDate || (g.LastDate == got[i-1].LastDate && g.ID > got[i-1].ID)) {
				t.Errorf("%s %s: row %d out of the date order", label, by, i)
			}
			w := want[g.ID]
			g.Name, g.SKU = "", ""
			if g != w {
				t.Errorf("%s %s %d\n got %+v\nwant %+v", label, by, g.ID, g, w)
			}
		}
	}
	// The leaderboards' one read of both.
	tq := q
	tq.OrderBy = "items_sold"
	prods, cats, err := svc.TopProductsAndCategories(ctx, tq)
	if err != nil {
		t.Fatal(err)
	}
	for by, got := range map[string][]analytics.ItemRow{"product": prods, "category": cats} {
		want, err := svc.TopItems(ctx, tq, by)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
			t.Errorf("%s top %ss in one read\n got %+v\nwant %+v", label, by, got, want)
		}
	}
	cq := q
	cq.OrderBy = "coupon_id"
	cps, err := svc.Coupons(ctx, cq)
	if err != nil {
		t.Fatal(err)
	}
	wantC := s.expectedCoupons(conv, counted, after, to)
	if len(cps) != len(wantC) {
		t.Errorf("%s coupons: %d rows, want %d", label, len(cps), len(wantC))
	}
	for _, c := range cps {
		if c != wantC[c.CouponID] {
			t.Errorf("%s coupon %d\n got %+v\nwant %+v", label, c.CouponID, c, wantC[c.CouponID])
		}
	}
	s.checkCustomers(ctx, svc, conv, counted, label, q, after, to)
	s.checkSegments(ctx, svc, conv, counted, label, after, before, loc)
	// The customers' leaderboard: the first rows of the report by spend,
	// their details read for those only.
	sq := q
	sq.OrderBy = "total_spend"
	all, err := svc.Customers(ctx, sq)
	if err != nil {
		t.Fatal(err)
	}
	top, err := svc.TopCustomers(ctx, sq, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := all[:min(3, len(all))]; fmt.Sprint(top) != fmt.Sprint(want) || len(top) == 0 || top[0].Email == "" {
		t.Errorf("%s top customers\n got %+v\nwant %+v", label, top, want)
	}
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
			for id := int64(1); id <= 3; id++ {
				db.Write.Exec(db.Write.Rebind(`INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)`), id, fmt.Sprint("Category ", id), fmt.Sprint("category-", id))
			}
			for id := int64(1); id <= 6; id++ {
				db.Write.Exec(db.Write.Rebind(`INSERT INTO products (id, type, name, slug, regular_price, sort_price, created_at, updated_at)
					VALUES (?, 'simple', ?, ?, 900, 900, ?, ?)`), id, fmt.Sprint("Product ", id), fmt.Sprint("product-", id), season, season)
				for _, c := range productCategories[id] {
					db.Write.Exec(db.Write.Rebind(`INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)`), id, c)
				}
			}
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
				// The item reports, coupons and leaderboards, over whole
				// days, over partial hours at both ends, and in a zone
				// whose days start on the half hour.
				s.checkItems(ctx, svc, conv, counted, phase+" items by day", from, last, ny)
				s.checkItems(ctx, svc, conv, counted, phase+" items partial hours", from.Add(17*time.Minute+23*time.Second), last.Add(-41*time.Minute), ny)
				kolkata, _ := time.LoadLocation("Asia/Kolkata")
				s.checkItems(ctx, svc, conv, counted, phase+" items Kolkata", from.Add(-90*time.Minute), last.Add(-3*time.Hour), kolkata)
				checkRollups(t, db)
			}
			checkAll("placed")
			// Hours whose item sums are not built (as migration 00056
			// leaves every hour): a report reads their facts and
			// answers the same; the follower builds them (touched by a
			// change below, or in its backfill), checked by checkAll.
			f := analytics.Filter{From: from.Unix() + 1000, To: from.AddDate(0, 0, 7).Unix() - 1000, Statuses: []string{"processing", "completed", "on-hold", "refunded"}}
			read := func() string {
				t.Helper()
				var out []any
				for _, by := range []string{"product", "variation"} {
					rows, err := db.AnalyticsItemSums(ctx, f, by)
					if err != nil {
						t.Fatal(err)
					}
					slices.SortFunc(rows, func(a, b analytics.ItemRow) int { return cmp.Compare(a.ID, b.ID) })
					out = append(out, rows)
				}
				cps, err := db.AnalyticsCouponSums(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				top, err := db.AnalyticsTopCustomers(ctx, f, 4)
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(append(out, cps, top))
			}
			built := read()
			s.exec(`UPDATE analytics_hours SET items = NULL, coupon_sums = NULL, customer_sums = NULL WHERE hour % 7200 = 0`)
			if unbuilt := read(); unbuilt != built {
				t.Errorf("%s: reports with hours not built\n got %s\nwant %s", season.Month(), unbuilt, built)
			}
			// Migration 00057's backfill: from line facts without their
			// product lookup sums and hours built from them, every order
			// marked and every hour unbuilt (the migration's statements),
			// the follower brings back the same reports.
			s.exec(`UPDATE analytics_lines SET tax = 0, shipping_tax = 0, shipping = 0, coupon = 0`)
			s.exec(`UPDATE analytics_hours SET items = NULL, coupon_sums = NULL, customer_sums = NULL`)
			if _, err := svc.CatchUp(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if before := read(); before == built {
				t.Errorf("%s: the reports of line facts without their lookup sums are today's", season.Month())
			}
			s.exec(`UPDATE analytics_hours SET items = NULL, coupon_sums = NULL, customer_sums = NULL`)
			s.exec(`INSERT INTO analytics_dirty (order_id, version) SELECT id, 1 FROM orders WHERE true
				ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1`)
			if _, err := svc.CatchUp(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if after := read(); after != built {
				t.Errorf("%s: reports after the backfill\n got %s\nwant %s", season.Month(), after, built)
			}
			checkRollups(t, db)
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
