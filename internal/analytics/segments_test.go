package analytics_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/adminapi"
	"vitrine/internal/analytics"
	"vitrine/internal/analyticsapi"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// expectedCustomers recomputes the customers report from the test's
// orders: per customer, the orders placed (not refunds), the spend (net,
// refunds negative) and the latest fact, dated in [from, to).
func (s *shop) expectedCustomers(conv analytics.Converter, counted map[string]bool, from, to time.Time) map[string]analytics.CustomerRow {
	out := map[string]analytics.CustomerRow{}
	for _, o := range s.orders {
		if o.deleted || !counted[o.src.Status] {
			continue
		}
		for _, f := range conv.Facts(o.src).Orders {
			if f.Customer == "" || f.CreatedAt < from.Unix() || f.CreatedAt >= to.Unix() {
				continue
			}
			c := out[f.Customer]
			c.Customer = f.Customer
			if f.RefundID == 0 {
				c.Orders++
			}
			c.Spend += f.Net
			c.LastOrder = max(c.LastOrder, f.CreatedAt)
			out[f.Customer] = c
		}
	}
	return out
}

// checkCustomers compares the customers list (every row; and page by
// page from the customer rollups, in each order) with the recomputation.
func (s *shop) checkCustomers(ctx context.Context, svc *analytics.Service, conv analytics.Converter, counted map[string]bool, label string,
	q analytics.Query, after, to time.Time) {
	t := s.t
	t.Helper()
	want := s.expectedCustomers(conv, counted, after, to)
	brief := func(c analytics.CustomerRow) string {
		return fmt.Sprintf("%s orders %d spend %d last %d", c.Customer, c.Orders, c.Spend, c.LastOrder)
	}
	for _, by := range []string{"date_last_order", "orders_count", "total_spend", "avg_order_value"} {
		for _, order := range []string{"desc", "asc"} {
			cq := q
			cq.OrderBy, cq.Order, cq.PerPage = by, order, 0
			all, err := svc.Customers(ctx, cq)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != len(want) || len(all) == 0 {
				t.Errorf("%s customers by %s: %d rows, want %d", label, by, len(all), len(want))
			}
			for _, c := range all {
				w := want[c.Customer]
				if c.Orders != w.Orders || c.Spend != w.Spend || c.LastOrder != w.LastOrder || c.Email == "" || c.LastInHour {
					t.Errorf("%s customer %s by %s\n got %s\nwant %s", label, c.Customer, by, brief(c), brief(w))
				}
			}
			// Page by page (two rows a page): the rollups' rows, the
			// page's made exact and detailed, in the same order.
			cq.PerPage = 2
			for pg := 1; (pg-1)*2 < len(all); pg++ {
				cq.Page = pg
				rows, err := svc.Customers(ctx, cq)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := analytics.Page(rows, cq)
				exp, _ := analytics.Page(all, cq)
				if len(rows) != len(all) || len(got) != len(exp) {
					t.Fatalf("%s customers by %s %s page %d: %d of %d rows, want %d of %d", label, by, order, pg, len(got), len(rows), len(exp), len(all))
				}
				for i := range got {
					if brief(got[i]) != brief(exp[i]) || got[i].Email != exp[i].Email || got[i].LastInHour {
						t.Errorf("%s customers by %s %s page %d row %d\n got %s %s\nwant %s %s", label, by, order, pg, i,
							brief(got[i]), got[i].Email, brief(exp[i]), exp[i].Email)
					}
				}
			}
		}
	}
}

// itemSegmentFigures are a product's (variation's, category's) segment
// figures recomputed from its row: items, net, orders and the averages,
// and the lines' product lookup sums: total sales their gross, taxes
// (the shipping's share included), shipping, coupons, refunds (the
// refunded lines' net), gross sales net + coupons + refunds.
func itemSegmentFigures(svc *analytics.Service, r analytics.ItemRow) analytics.Figures {
	f := analytics.Figures{OrdersCount: r.Orders, NumItemsSold: r.Items, NetRevenue: svc.Major(r.Net),
		TotalSales: svc.Major(r.Net + r.Tax + r.Shipping), Taxes: svc.Major(r.Tax), Shipping: svc.Major(r.Shipping),
		Coupons: svc.Major(r.Coupon), Refunds: svc.Major(-r.RefundNet), GrossSales: svc.Major(r.Net + r.Coupon - r.RefundNet)}
	if r.Orders > 0 {
		f.AvgItemsPerOrder = math.Round(float64(r.Items)/float64(r.Orders)*10000) / 10000
		f.AvgOrderValue = svc.Major(r.Net) / float64(r.Orders)
	}
	return f
}

// checkSegments compares the revenue stats' segments by product,
// variation and category (totals and each day) with the recomputation
// from the orders, and those by customer type and coupon with the
// stats of the orders they select.
func (s *shop) checkSegments(ctx context.Context, svc *analytics.Service, conv analytics.Converter, counted map[string]bool, label string,
	after, before time.Time, loc *time.Location) {
	t := s.t
	t.Helper()
	for _, by := range []string{"product", "variation", "category"} {
		q, err := analytics.ParseQuery(params{"interval": "day", "segmentby": by, "after": after.In(loc).Format("2006-01-02T15:04:05"),
			"before": before.In(loc).Format("2006-01-02T15:04:05")}, loc, analytics.StatsOrderBys, "date")
		if err != nil {
			t.Fatal(err)
		}
		q.PerPage = 0
		st, err := svc.Stats(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		compare := func(where string, got []analytics.Segment, want map[int64]analytics.ItemRow) {
			t.Helper()
			seen := map[int64]bool{}
			for i, g := range got {
				if i > 0 && g.ID <= got[i-1].ID {
					t.Errorf("%s %s segments out of id order: %d after %d", label, where, g.ID, got[i-1].ID)
				}
				seen[g.ID] = true
				if w := itemSegmentFigures(svc, want[g.ID]); g.Figures != w {
					t.Errorf("%s %s segment %d\n got %+v\nwant %+v", label, where, g.ID, g.Figures, w)
				}
			}
			for id := range want {
				if !seen[id] {
					t.Errorf("%s %s: no segment %d", label, where, id)
				}
			}
		}
		compare(by+" totals", st.Segments, s.expectedItems(conv, counted, after, before.Add(time.Second), by))
		if by == "product" {
			s.checkLineShares(conv, counted, label, st.Segments, after, before.Add(time.Second), svc)
		}
		if by == "product" && len(st.Segments) < 6 { // the catalogue's six, sold or not
			t.Errorf("%s product segments: %d, want the catalogue's 6 at least", label, len(st.Segments))
		}
		for _, iv := range st.Intervals {
			compare(by+" "+iv.ID, iv.Segments, s.expectedItems(conv, counted, iv.Start, iv.End, by))
			if len(iv.Segments) != len(st.Segments) {
				t.Errorf("%s %s %s: %d segments, the totals %d", label, by, iv.ID, len(iv.Segments), len(st.Segments))
			}
		}
	}
	// By customer type and by coupon: each segment is the stats of its
	// orders (the filter), and the customer types add up to the totals.
	for _, by := range []string{"customer_type", "coupon"} {
		p := params{"interval": "day", "segmentby": by, "after": after.In(loc).Format("2006-01-02T15:04:05"),
			"before": before.In(loc).Format("2006-01-02T15:04:05")}
		q, err := analytics.ParseQuery(p, loc, analytics.StatsOrderBys, "date")
		if err != nil {
			t.Fatal(err)
		}
		q.PerPage = 0
		st, err := svc.Stats(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var orders, items int64
		for _, seg := range st.Segments {
			fq := q
			fq.SegmentBy = ""
			if by == "customer_type" {
				fq.CustomerType = map[int64]string{0: "new", 1: "returning"}[seg.ID]
			} else {
				fq.Coupons = []int64{seg.ID}
			}
			want, err := svc.Stats(ctx, fq)
			if err != nil {
				t.Fatal(err)
			}
			w := want.Totals
			w.Products = 0
			if seg.Figures != w {
				t.Errorf("%s %s segment %d\n got %+v\nwant %+v", label, by, seg.ID, seg.Figures, w)
			}
			orders += seg.Figures.OrdersCount
			items += seg.Figures.NumItemsSold
		}
		if by == "customer_type" && (len(st.Segments) != 2 || orders != st.Totals.OrdersCount || items != st.Totals.NumItemsSold) {
			t.Errorf("%s customer types: %d segments, %d orders %d items, the totals %d %d", label, len(st.Segments), orders, items,
				st.Totals.OrdersCount, st.Totals.NumItemsSold)
		}
	}
}

// checkLineShares checks that the product segments share out the orders'
// money: their taxes add up to the orders' tax (their lines' and their
// shipping's; the test's orders have no taxed fee) and the refunded
// lines' own tax, their shipping to the orders' shipping, their coupons
// to the orders' discount (the orders placed in [from, to) and the
// refunded lines dated there).
func (s *shop) checkLineShares(conv analytics.Converter, counted map[string]bool, label string, segs []analytics.Segment, from, to time.Time,
	svc *analytics.Service) {
	t := s.t
	t.Helper()
	var tax, ship, disc int64
	for _, o := range s.orders {
		if o.deleted || !counted[o.src.Status] {
			continue
		}
		f := conv.Facts(o.src)
		for _, of := range f.Orders {
			if of.RefundID == 0 && of.CreatedAt >= from.Unix() && of.CreatedAt < to.Unix() {
				tax, ship, disc = tax+of.Tax, ship+of.Shipping, disc+of.Discount
			}
		}
		for _, l := range f.Lines {
			if l.RefundID != 0 && l.CreatedAt >= from.Unix() && l.CreatedAt < to.Unix() {
				tax += l.Tax
			}
		}
	}
	var gotTax, gotShip, gotDisc float64
	for _, g := range segs {
		gotTax, gotShip, gotDisc = gotTax+g.Figures.Taxes, gotShip+g.Figures.Shipping, gotDisc+g.Figures.Coupons
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"taxes", gotTax, svc.Major(tax)}, {"shipping", gotShip, svc.Major(ship)}, {"coupons", gotDisc, svc.Major(disc)}} {
		if math.Abs(c.got-c.want) > 1e-6 {
			t.Errorf("%s product segments' %s add up to %.2f, the orders' %.2f", label, c.what, c.got, c.want)
		}
	}
	if tax == 0 || ship == 0 {
		t.Errorf("%s: no tax (%d) or shipping (%d) to share out", label, tax, ship)
	}
}

// The stats routes' segments through the handlers: WooCommerce's shape
// (totals and every interval's subtotals carry segments of
// {segment_id, segment_label, subtotals} with the totals' fields), the
// segments listed (the catalogue's, or the filter's), the product
// segments' items adding up to the totals, and segmentby values a route
// does not take refused as rest_invalid_param; on both engines.
func TestStatsSegmentsRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		day := time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)
		now := day.AddDate(0, 0, 3)
		svc := &analytics.Service{Store: db, Base: usd, Now: func() time.Time { return now }}
		s := &shop{t: t, db: db}
		for id := int64(1); id <= 3; id++ {
			s.exec(`INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)`, id, fmt.Sprint("Category ", id), fmt.Sprint("category-", id))
		}
		for id := int64(1); id <= 7; id++ { // product 7 never sells
			s.exec(`INSERT INTO products (id, type, name, slug, regular_price, sort_price, created_at, updated_at)
				VALUES (?, 'simple', ?, ?, 900, 900, ?, ?)`, id, fmt.Sprint("Product ", id), fmt.Sprint("product-", id), day, day)
			for _, c := range productCategories[id] {
				s.exec(`INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)`, id, c)
			}
		}
		r := rand.New(rand.NewPCG(5, 11))
		for i := 0; i < 40; i++ {
			o := s.place(r, day.Add(time.Duration(r.IntN(3*24*3600))*time.Second))
			if o.src.Status == "pending" || o.src.Status == "failed" {
				s.status(o, "completed")
			}
			if i%5 == 0 {
				s.refund(o, o.src.Total/3, time.Unix(o.src.CreatedAt, 0).Add(time.Hour), true)
			}
		}
		api := analyticsapi.New(analyticsapi.Deps{Analytics: svc, BaseURL: "https://shop.example"})
		call := func(path string) (map[string]any, error) {
			t.Helper()
			target := analyticsapi.Prefix + path
			route, _, _ := strings.Cut(target, "?")
			for _, rt := range api.Routes() {
				if rt.Pattern == "GET "+route {
					w := httptest.NewRecorder()
					if err := rt.Handler(w, httptest.NewRequest(http.MethodGet, target, nil).WithContext(ctx), adminapi.Staff{}); err != nil {
						return nil, err
					}
					var m map[string]any
					if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
						t.Fatalf("%s: %v %s", path, err, w.Body.String())
					}
					return m, nil
				}
			}
			t.Fatalf("no route %s", route)
			return nil, nil
		}
		period := "&after=2026-06-10T00:00:00&before=2026-06-12T23:59:59&interval=day"
		fieldsOf := func(m map[string]any) []string {
			var ks []string
			for k := range m {
				if k != "segments" && k != "products" {
					ks = append(ks, k)
				}
			}
			slices.Sort(ks)
			return ks
		}
		for report, bys := range analytics.SegmentBys {
			for _, by := range bys {
				m, err := call("/reports/" + report + "/stats?segmentby=" + by + period)
				if err != nil {
					t.Fatalf("%s by %s: %v", report, by, err)
				}
				tot := m["totals"].(map[string]any)
				segs, _ := tot["segments"].([]any)
				if len(segs) == 0 {
					t.Errorf("%s by %s: no segments in the totals", report, by)
					continue
				}
				var ids []float64
				var items float64
				for _, sg := range segs {
					seg := sg.(map[string]any)
					sub, _ := seg["subtotals"].(map[string]any)
					if _, ok := seg["segment_label"].(string); !ok || sub == nil || fmt.Sprint(fieldsOf(sub)) != fmt.Sprint(fieldsOf(tot)) {
						t.Errorf("%s by %s: segment %v not {segment_id, segment_label, subtotals} with the totals' fields", report, by, seg)
						continue
					}
					ids = append(ids, seg["segment_id"].(float64))
					items += sub["num_items_sold"].(float64)
				}
				if !slices.IsSorted(ids) {
					t.Errorf("%s by %s: segment ids %v not in order", report, by, ids)
				}
				switch by {
				case "product":
					if len(ids) != 7 || items != tot["num_items_sold"] {
						t.Errorf("%s by product: %d segments (want the catalogue's 7), items %v, the totals %v", report, len(ids), items, tot["num_items_sold"])
					}
				case "category":
					if len(ids) != 3 {
						t.Errorf("%s by category: ids %v, want 1, 2, 3", report, ids)
					}
				case "customer_type":
					if len(ids) != 2 || items != tot["num_items_sold"] {
						t.Errorf("%s by customer type: ids %v, items %v, the totals %v", report, ids, items, tot["num_items_sold"])
					}
				}
				ivs := m["intervals"].([]any)
				if len(ivs) != 3 {
					t.Fatalf("%s by %s: %d intervals", report, by, len(ivs))
				}
				for _, iv := range ivs {
					sub := iv.(map[string]any)["subtotals"].(map[string]any)
					isegs, _ := sub["segments"].([]any)
					var iitems float64
					for _, sg := range isegs {
						iitems += sg.(map[string]any)["subtotals"].(map[string]any)["num_items_sold"].(float64)
					}
					if len(isegs) != len(segs) || ((by == "product" || by == "customer_type") && iitems != sub["num_items_sold"]) {
						t.Errorf("%s by %s interval %v: %d segments (totals %d), items %v of %v", report, by, iv.(map[string]any)["interval"],
							len(isegs), len(segs), iitems, sub["num_items_sold"])
					}
				}
			}
		}
		// A product segment is the products report's row of it.
		m, err := call("/reports/revenue/stats?segmentby=product" + period)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := analytics.ParseQuery(params{"after": "2026-06-10T00:00:00", "before": "2026-06-12T23:59:59"}, time.UTC, analytics.ListOrderBys["products"], "date")
		q.PerPage = 0
		rows, err := svc.Items(ctx, q, "product")
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(rows, func(a, b analytics.ItemRow) int { return cmp.Compare(a.ID, b.ID) })
		var taxes, shipping, refunds float64
		for _, sg := range m["totals"].(map[string]any)["segments"].([]any) {
			seg := sg.(map[string]any)
			id := int64(seg["segment_id"].(float64))
			sub := seg["subtotals"].(map[string]any)
			i := slices.IndexFunc(rows, func(r analytics.ItemRow) bool { return r.ID == id })
			var want analytics.ItemRow
			if i >= 0 {
				want = rows[i]
			}
			if sub["num_items_sold"] != float64(want.Items) || sub["orders_count"] != float64(want.Orders) || seg["segment_label"] != fmt.Sprint("Product ", id) ||
				math.Abs(sub["net_revenue"].(float64)-svc.Major(want.Net)) > 1e-6 {
				t.Errorf("product segment %d: %v, the products report's row %+v", id, seg, want)
			}
			// Its money from its lines' product lookup sums.
			for k, w := range map[string]int64{"taxes": want.Tax, "shipping": want.Shipping, "coupons": want.Coupon, "refunds": -want.RefundNet,
				"total_sales": want.Net + want.Tax + want.Shipping, "gross_sales": want.Net + want.Coupon - want.RefundNet} {
				if math.Abs(sub[k].(float64)-svc.Major(w)) > 1e-6 {
					t.Errorf("product segment %d: %s %v, its lines' %v", id, k, sub[k], svc.Major(w))
				}
			}
			taxes, shipping, refunds = taxes+sub["taxes"].(float64), shipping+sub["shipping"].(float64), refunds+sub["refunds"].(float64)
		}
		if taxes == 0 || shipping == 0 || refunds == 0 {
			t.Errorf("product segments: taxes %v, shipping %v, refunds %v: none shared out", taxes, shipping, refunds)
		}
		// The products and variations stats (and reports) with
		// category_includes=2 sum the lines of that category's products
		// (3 and 4, and product 3's variations) only, not every line of
		// the orders with one.
		vq := q
		vrows, err := svc.Items(ctx, vq, "variation")
		if err != nil {
			t.Fatal(err)
		}
		var catItems, catNet, catProducts, varItems, varCount, allItems int64
		for _, r := range rows {
			allItems += r.Items
			if r.ID == 3 || r.ID == 4 {
				catItems, catNet, catProducts = catItems+r.Items, catNet+r.Net, catProducts+1
			}
		}
		for _, r := range vrows {
			if r.Parent == 3 {
				varItems, varCount = varItems+r.Items, varCount+1
			}
		}
		if catItems == 0 || catItems == allItems || varItems == 0 {
			t.Fatalf("category 2's products sold %d items of %d, variations %d: nothing to tell apart", catItems, allItems, varItems)
		}
		pm, err := call("/reports/products/stats?category_includes=2" + period)
		if err != nil {
			t.Fatal(err)
		}
		ptot := pm["totals"].(map[string]any)
		if ptot["items_sold"] != float64(catItems) || ptot["products_count"] != float64(catProducts) || math.Abs(ptot["net_revenue"].(float64)-svc.Major(catNet)) > 1e-6 ||
			ptot["variations_count"] != float64(varCount) {
			t.Errorf("products stats of category 2: %v, want items %d, products %d, net %v, variations %d", ptot, catItems, catProducts, svc.Major(catNet), varCount)
		}
		vm, err := call("/reports/variations/stats?category_includes=2" + period)
		if err != nil {
			t.Fatal(err)
		}
		if vtot := vm["totals"].(map[string]any); vtot["items_sold"] != float64(varItems) || vtot["variations_count"] != float64(varCount) {
			t.Errorf("variations stats of category 2: %v, want items %d of %d variations", vtot, varItems, varCount)
		}
		cq := q
		cq.Categories = []int64{2}
		if crows, err := svc.Items(ctx, cq, "product"); err != nil || len(crows) != int(catProducts) {
			t.Errorf("products report of category 2: %v %v, want products 3 and 4's rows", crows, err)
		}
		// A route's own figure as orderby: the intervals in the order of
		// their own figure (the products stats' items of category 2's
		// lines, the coupons stats' discount), a page at a time; refused
		// where WooCommerce's route does not take it.
		for _, c := range []struct{ route, by, extra string }{
			{"products", "items_sold", "&category_includes=2"}, {"coupons", "amount", ""},
		} {
			whole, err := call("/reports/" + c.route + "/stats?order=asc" + c.extra + period)
			if err != nil {
				t.Fatal(err)
			}
			var want []float64
			for _, iv := range whole["intervals"].([]any) {
				want = append(want, iv.(map[string]any)["subtotals"].(map[string]any)[c.by].(float64))
			}
			dateOrder := slices.Clone(want)
			slices.SortStableFunc(want, func(a, b float64) int { return cmp.Compare(b, a) })
			newest := slices.Clone(dateOrder)
			slices.Reverse(newest)
			if slices.Equal(want, newest) {
				t.Fatalf("%s stats' %s %v: already in date order (newest first)", c.route, c.by, dateOrder)
			}
			var got []float64
			for pg := 1; pg <= len(want); pg++ {
				pm, err := call(fmt.Sprintf("/reports/%s/stats?orderby=%s&per_page=1&page=%d%s", c.route, c.by, pg, c.extra) + period)
				if err != nil {
					t.Fatalf("%s stats by %s: %v", c.route, c.by, err)
				}
				got = append(got, pm["intervals"].([]any)[0].(map[string]any)["subtotals"].(map[string]any)[c.by].(float64))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s stats by %s: pages %v, want %v", c.route, c.by, got, want)
			}
		}
		for _, bad := range []string{"/reports/revenue/stats?orderby=items_sold", "/reports/products/stats?orderby=amount",
			"/reports/coupons/stats?orderby=items_sold"} {
			if _, err := call(bad + period); err == nil || !strings.Contains(err.Error(), "orderby") {
				t.Errorf("%s: %v, want a refusal of orderby", bad, err)
			}
		}
		// The taxes stats: orders counted once however many rates taxed
		// them (every order here is taxed: as many as the revenue stats
		// count); by tax rate, a segment per rate with its code, its
		// orders and sums, the sums adding up to the totals'.
		rev, err := call("/reports/revenue/stats?" + period[1:])
		if err != nil {
			t.Fatal(err)
		}
		tm, err := call("/reports/taxes/stats?segmentby=tax_rate_id" + period)
		if err != nil {
			t.Fatal(err)
		}
		ttot := tm["totals"].(map[string]any)
		orders := rev["totals"].(map[string]any)["orders_count"]
		if ttot["orders_count"] != orders || ttot["tax_codes"] != float64(2) {
			t.Errorf("taxes stats: orders_count %v (want the %v orders), tax_codes %v (want 2)", ttot["orders_count"], orders, ttot["tax_codes"])
		}
		checkTaxSegs := func(where string, sub map[string]any) {
			t.Helper()
			segs := sub["segments"].([]any)
			var tax, rateOrders float64
			for i, sg := range segs {
				seg := sg.(map[string]any)
				ss := seg["subtotals"].(map[string]any)
				if seg["segment_id"] != float64(i+1) || seg["segment_label"] != []string{"US-CA-TAX-1", "US-CA-CITY-2"}[i] {
					t.Errorf("taxes %s: segment %d is %v %v", where, i, seg["segment_id"], seg["segment_label"])
				}
				if ss["orders_count"].(float64) > 0 && ss["tax_codes"] != float64(1) {
					t.Errorf("taxes %s: segment %v tax_codes %v", where, seg["segment_id"], ss["tax_codes"])
				}
				tax += ss["total_tax"].(float64)
				rateOrders += ss["orders_count"].(float64)
			}
			if len(segs) != 2 || math.Abs(tax-sub["total_tax"].(float64)) > 1e-6 || rateOrders < sub["orders_count"].(float64) {
				t.Errorf("taxes %s: segments %v: total_tax %v of %v, orders %v of %v", where, segs, tax, sub["total_tax"], rateOrders, sub["orders_count"])
			}
		}
		checkTaxSegs("totals", ttot)
		var rateOrders float64
		for _, sg := range ttot["segments"].([]any) {
			rateOrders += sg.(map[string]any)["subtotals"].(map[string]any)["orders_count"].(float64)
		}
		if rateOrders <= ttot["orders_count"].(float64) {
			t.Errorf("taxes: the rates' orders %v, the orders %v: no order taxed at both rates to count once", rateOrders, ttot["orders_count"])
		}
		for _, iv := range tm["intervals"].([]any) {
			checkTaxSegs(fmt.Sprint(iv.(map[string]any)["interval"]), iv.(map[string]any)["subtotals"].(map[string]any))
		}
		// A page of intervals (by net revenue): each with the segments
		// the whole report gives it.
		byID := map[any]string{}
		for _, iv := range m["intervals"].([]any) {
			sub := iv.(map[string]any)["subtotals"].(map[string]any)
			byID[iv.(map[string]any)["interval"]] = fmt.Sprint(sub["segments"])
		}
		for pg := 1; pg <= 3; pg++ {
			pm, err := call(fmt.Sprintf("/reports/revenue/stats?segmentby=product&per_page=1&orderby=net_revenue&page=%d", pg) + period)
			if err != nil {
				t.Fatal(err)
			}
			ivs := pm["intervals"].([]any)
			if len(ivs) != 1 {
				t.Fatalf("page %d: %d intervals", pg, len(ivs))
			}
			iv := ivs[0].(map[string]any)
			if got := fmt.Sprint(iv["subtotals"].(map[string]any)["segments"]); got != byID[iv["interval"]] || got == "[]" {
				t.Errorf("page %d interval %v segments\n got %s\nwant %s", pg, iv["interval"], got, byID[iv["interval"]])
			}
		}
		// The filter lists its own segments only.
		m, err = call("/reports/revenue/stats?segmentby=product&product_includes=2,7" + period)
		if err != nil {
			t.Fatal(err)
		}
		if segs := m["totals"].(map[string]any)["segments"].([]any); len(segs) != 2 || segs[0].(map[string]any)["segment_id"] != float64(2) ||
			segs[1].(map[string]any)["subtotals"].(map[string]any)["num_items_sold"] != float64(0) {
			t.Errorf("product_includes=2,7: segments %v", segs)
		}
		// Variations of the one product filtered (product 1's are 10 and 11).
		m, err = call("/reports/revenue/stats?segmentby=variation&product_includes=1" + period)
		if err != nil {
			t.Fatal(err)
		}
		if segs := m["totals"].(map[string]any)["segments"].([]any); len(segs) == 0 || len(segs) > 2 {
			t.Errorf("variations of product 1: %v", segs)
		} else {
			for _, sg := range segs {
				if id := sg.(map[string]any)["segment_id"]; id != float64(10) && id != float64(11) {
					t.Errorf("variations of product 1: segment %v", id)
				}
			}
		}
		// Without segmentby, empty segments (the reference's).
		m, err = call("/reports/revenue/stats?" + period[1:])
		if err != nil {
			t.Fatal(err)
		}
		if segs, ok := m["totals"].(map[string]any)["segments"].([]any); !ok || len(segs) != 0 {
			t.Errorf("no segmentby: segments %v", m["totals"])
		}
		// Refusals: WordPress's rest_invalid_param naming segmentby.
		for _, bad := range []string{"/reports/revenue/stats?segmentby=colour", "/reports/products/stats?segmentby=coupon",
			"/reports/products/stats?segmentby=customer_type", "/reports/customers/stats?segmentby=product",
			"/reports/taxes/stats?segmentby=product", "/reports/variations/stats?segmentby=coupon"} {
			_, err := call(bad + period)
			var e *adminapi.Error
			if !errors.As(err, &e) || e.Status != 400 || e.Code != "rest_invalid_param" || e.Data["params"].(map[string]string)["segmentby"] == "" {
				t.Errorf("%s: %v, want rest_invalid_param for segmentby", bad, err)
			}
		}
	})
}
