package server_test

import (
	"fmt"
	"net/url"
	"testing"
)

// Each analytics stats route answers WooCommerce Admin's own fields for
// that route in its totals and interval subtotals, with WooCommerce's
// meaning (decision 0129): the products stats' items of the filtered
// products' lines, the coupons stats' discount, the taxes stats' sums of
// the taxes report, the customers stats' means of the customers report;
// fields= selects among them; on both engines.
func TestAnalyticsRouteShapes(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const wc = "/wp-json/wc-analytics"
		staff := func(target string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", "GET", target, "")
		}
		post := func(path, body string) map[string]any {
			t.Helper()
			a := f.staffCall("Mia", "POST", path, body)
			if a.status != 201 {
				t.Fatalf("%s: %d %s", path, a.status, a.body)
			}
			return a.json(t)
		}
		tank, tee := f.shop.productID("cotton-tank-top"), f.shop.productID("mountain-line-tee")
		coupon := post("/wp-json/wc/v3/coupons", `{"code":"shape10","discount_type":"percent","amount":"10"}`)
		billing := `"billing":{"first_name":"Ann","last_name":"Bee","email":"ann@example.com","country":"US","state":"CA","postcode":"95814","city":"Sacramento","address_1":"1 Main"}`
		o1 := post("/wp-json/wc/v3/orders", fmt.Sprintf(`{"payment_method":"bacs","set_paid":true,"customer_id":%d,%s,"line_items":[{"product_id":%d,"quantity":2}],"coupon_lines":[{"code":"shape10"}]}`,
			f.users["Carla"], billing, tank))
		post("/wp-json/wc/v3/orders", fmt.Sprintf(`{"status":"on-hold",%s,"line_items":[{"product_id":%d,"quantity":3},{"product_id":%d,"quantity":1}]}`, billing, tee, tank))
		day := f.db.Now().UTC()
		period := url.Values{"after": {day.AddDate(0, 0, -2).Format("2006-01-02") + "T00:00:00"}, "before": {day.Format("2006-01-02") + "T23:59:59"},
			"interval": {"day"}, "per_page": {"100"}}.Encode()
		stats := func(route, extra string) (map[string]any, []map[string]any) {
			t.Helper()
			a := staff(wc + "/reports/" + route + "/stats?" + extra + period)
			if a.status != 200 {
				t.Fatalf("%s stats: %d %.300s", route, a.status, a.body)
			}
			m := a.json(t)
			var subs []map[string]any
			for _, iv := range m["intervals"].([]any) {
				subs = append(subs, iv.(map[string]any)["subtotals"].(map[string]any))
			}
			return m["totals"].(map[string]any), subs
		}
		// sumOf is the intervals' sum of a field (every interval carries it).
		sumOf := func(route, k string, subs []map[string]any) float64 {
			t.Helper()
			s := 0.0
			for _, sub := range subs {
				v, ok := sub[k].(float64)
				if !ok {
					t.Errorf("%s stats: a subtotal without %s: %v", route, k, sub)
				}
				s += v
			}
			return s
		}
		money := func(v any) string { return fmt.Sprintf("%.2f", v) }

		// Products: the lines of the filtered product, not its orders' items.
		tot, subs := stats("products", fmt.Sprintf("product_includes=%d&", tank))
		if tot["items_sold"] != float64(3) || tot["products_count"] != float64(1) || tot["orders_count"] != float64(2) || tot["num_items_sold"] == nil {
			t.Errorf("products stats of the tank (want 3 items of 1 product in 2 orders, the revenue figures kept): %v", tot)
		}
		if sumOf("products", "items_sold", subs) != 3 || sumOf("products", "products_count", subs) != 1 {
			t.Errorf("products stats' subtotals: %v", subs)
		}
		tanks := list(t, staff(wc+fmt.Sprintf("/reports/products?product_includes=%d&", tank)+period))
		if len(tanks) != 1 || money(tot["net_revenue"]) != money(tanks[0].(map[string]any)["net_revenue"]) {
			t.Errorf("products stats' net revenue %v is not the products report's: %v", tot["net_revenue"], tanks)
		}
		if tot, _ := stats("products", ""); tot["items_sold"] != float64(6) || tot["products_count"] != float64(2) || tot["variations_count"] != float64(0) {
			t.Errorf("products stats of all: %v", tot)
		}
		if tot, subs := stats("variations", ""); tot["items_sold"] == nil || tot["variations_count"] != float64(0) || sumOf("variations", "items_sold", subs) != tot["items_sold"] {
			t.Errorf("variations stats: %v %v", tot, subs)
		}
		// fields= selects among the route's fields.
		if tot, subs := stats("products", "fields=items_sold,products_count&"); len(tot) != 3 || tot["items_sold"] != float64(6) || len(subs[0]) != 3 {
			t.Errorf("products stats with fields (items_sold, products_count, segments): %v %v", tot, subs[0])
		}

		// Coupons: the discount, the discounted orders, the coupons used.
		cps := list(t, staff(wc+"/reports/coupons?"+period))
		if len(cps) != 1 {
			t.Fatalf("coupons report: %v", cps)
		}
		tot, subs = stats("coupons", "")
		if money(tot["amount"]) != money(cps[0].(map[string]any)["amount"]) || tot["amount"].(float64) <= 0 || tot["orders_count"] != float64(1) ||
			tot["coupons_count"] != float64(1) || money(sumOf("coupons", "amount", subs)) != money(tot["amount"]) {
			t.Errorf("coupons stats (want the report's %v in 1 order): %v %v", cps[0], tot, subs)
		}
		if tot, _ := stats("coupons", fmt.Sprintf("coupon_includes=%v&", coupon["id"])); tot["orders_count"] != float64(1) {
			t.Errorf("coupons stats with coupon_includes: %v", tot)
		}
		_ = o1

		// Segments' subtotals carry the route's fields too.
		segOf := func(route, extra string) map[string]any {
			t.Helper()
			m := staff(wc + "/reports/" + route + "/stats?" + extra + period).json(t)
			segs, _ := m["totals"].(map[string]any)["segments"].([]any)
			if len(segs) != 1 {
				t.Fatalf("%s stats' segments (%s): %v", route, extra, m["totals"])
			}
			return segs[0].(map[string]any)["subtotals"].(map[string]any)
		}
		if sub := segOf("products", fmt.Sprintf("segmentby=product&product_includes=%d&", tank)); sub["items_sold"] != float64(3) {
			t.Errorf("products stats' product segment: %v", sub)
		}
		if sub := segOf("coupons", fmt.Sprintf("segmentby=coupon&coupon_includes=%v&", coupon["id"])); money(sub["amount"]) != money(tot["amount"]) {
			t.Errorf("coupons stats' coupon segment (want amount %v): %v", tot["amount"], sub)
		}

		// Taxes: the taxes report's sums; its orders counted once (both
		// orders are taxed).
		var want = map[string]float64{}
		taxes := list(t, staff(wc+"/reports/taxes?"+period))
		for _, r := range taxes {
			for _, k := range []string{"total_tax", "order_tax", "shipping_tax"} {
				want[k] += r.(map[string]any)[k].(float64)
			}
		}
		tot, subs = stats("taxes", "")
		for _, k := range []string{"total_tax", "order_tax", "shipping_tax"} {
			if money(tot[k]) != money(want[k]) || money(sumOf("taxes", k, subs)) != money(want[k]) {
				t.Errorf("taxes stats' %s: %v (subtotals %v), the report's %v", k, tot[k], sumOf("taxes", k, subs), want[k])
			}
		}
		if len(taxes) == 0 || tot["tax_codes"] != float64(len(taxes)) || tot["orders_count"] != float64(2) || sumOf("taxes", "orders_count", subs) != 2 {
			t.Errorf("taxes stats' tax_codes %v (the report's %d rates), orders_count %v (want 2)", tot["tax_codes"], len(taxes), tot["orders_count"])
		}
		// By tax rate: the report's rows as segments.
		sub := segOf("taxes", "segmentby=tax_rate_id&")
		if r := taxes[0].(map[string]any); len(taxes) != 1 || money(sub["total_tax"]) != money(r["total_tax"]) || sub["orders_count"] != r["orders_count"] ||
			sub["tax_codes"] != float64(1) {
			t.Errorf("taxes stats' rate segment %v, the report's %v", sub, taxes)
		}

		// Customers: the customers report's count and means.
		cus := list(t, staff(wc+"/reports/customers?per_page=100&"+period))
		orders, spend := 0.0, 0.0
		for _, c := range cus {
			orders += c.(map[string]any)["orders_count"].(float64)
			spend += c.(map[string]any)["total_spend"].(float64)
		}
		tot, subs = stats("customers", "")
		if len(cus) != 2 || tot["customers_count"] != float64(len(cus)) || money(tot["avg_orders_count"]) != money(orders/float64(len(cus))) ||
			money(tot["avg_total_spend"]) != money(spend/float64(len(cus))) || tot["avg_avg_order_value"] == nil || sumOf("customers", "customers_count", subs) < 1 {
			t.Errorf("customers stats (want the report's %d customers): %v %v", len(cus), tot, subs)
		}
	})
}
