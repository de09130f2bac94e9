package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/integration"
)

// WooCommerce Admin's analytics routes (/wp-json/wc-analytics/…) through
// the real server: each route's shape against WooCommerce 11's answers
// (reference: woocommerce-11-responses/wc-analytics-*.http), figures of
// orders placed through the REST API, paging headers, refusals in
// WordPress's shape, staff only (cookie with nonce, or a REST API key),
// and the CSV export; on both engines.

const refAnalyticsFigures = `{"orders_count":3,"num_items_sold":4,"gross_sales":180.5,"total_sales":95.1,"coupons":5.4,"coupons_count":1,
 "refunds":150,"taxes":0,"shipping":10,"net_revenue":30.1,"avg_items_per_order":2.3333,"avg_order_value":58.3,"total_customers":2,"segments":[]}`

var refAnalyticsStats = `{"totals":` + strings.Replace(refAnalyticsFigures, `"total_customers":2,`, `"total_customers":2,"products":5,`, 1) + `,
 "intervals":[{"interval":"2026-11-22","date_start":"2026-11-22 00:00:00","date_start_gmt":"2026-11-22 00:00:00",
  "date_end":"2026-11-22 23:59:59","date_end_gmt":"2026-11-22 23:59:59","subtotals":` + refAnalyticsFigures + `}]}`

const refAnalyticsProduct = `{"product_id":59,"items_sold":3,"net_revenue":56,"orders_count":2,"extended_info":{},
 "_links":{"product":[{"href":"x"}]}}`

const refAnalyticsCategory = `{"category_id":19,"items_sold":2,"net_revenue":32.4,"orders_count":3,"products_count":2,"extended_info":{},
 "_links":{"category":[{"href":"x"}]}}`

const refAnalyticsCoupon = `{"coupon_id":85,"amount":5.4,"orders_count":1,"extended_info":{},"_links":{"coupon":[{"href":"x"}]}}`

const refAnalyticsCustomer = `{"id":3,"user_id":4,"username":"alice.fixture","name":"Alice Archer","first_name":"Alice","last_name":"Archer",
 "email":"alice.fixture@example.com","country":"US","city":"San Francisco","state":"CA","postcode":"94105",
 "date_registered":"2026-11-29T04:07:40","date_last_active":"2026-11-29T04:07:42","date_last_order":"2026-11-29 04:07:43",
 "orders_count":2,"total_spend":39,"avg_order_value":19.5,"date_registered_gmt":"2026-11-29T04:07:40",
 "date_last_active_gmt":"2026-11-29T04:07:42","_links":{"customer":[{"href":"x"}],"collection":[{"href":"x"}]}}`

const refAnalyticsIndicator = `{"stat":"revenue/total_sales","chart":"total_sales","label":"Total sales","format":"currency","value":95.1,
 "_links":{"api":[{"href":"x"}],"report":[{"href":"/analytics/revenue"}]}}`

const refAnalyticsBoard = `{"id":"customers","label":"Top Customers - Total Spend","headers":[{"label":"Customer Name"}],
 "rows":[[{"display":"<a href='x'>Bob Baker</a>","value":"Bob Baker"},{"display":"1","value":1,"format":"number"}]]}`

func TestAnalyticsAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		staff := func(target string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", "GET", target, "")
		}
		const wc = "/wp-json/wc-analytics"
		tank, tee := f.shop.productID("cotton-tank-top"), f.shop.productID("mountain-line-tee")
		place := func(body string) map[string]any {
			t.Helper()
			a := f.staffCall("Mia", "POST", "/wp-json/wc/v3/orders", body)
			if a.status != 201 {
				t.Fatalf("order: %d %s", a.status, a.body)
			}
			return a.json(t)
		}
		billing := `"billing":{"first_name":"Ann","last_name":"Bee","email":"ann@example.com","country":"US","state":"CA","postcode":"95814","city":"Sacramento","address_1":"1 Main"}`
		o1 := place(fmt.Sprintf(`{"payment_method":"bacs","set_paid":true,"customer_id":%d,%s,"line_items":[{"product_id":%d,"quantity":2}]}`, f.users["Carla"], billing, tank))
		o2 := place(fmt.Sprintf(`{"status":"on-hold",%s,"line_items":[{"product_id":%d,"quantity":1}]}`, billing, tee))
		place(fmt.Sprintf(`{%s,"line_items":[{"product_id":%d,"quantity":5}]}`, billing, tee)) // pending: not counted
		if a := f.staffCall("Mia", "POST", fmt.Sprintf("/wp-json/wc/v3/orders/%v/refunds", o1["id"]), `{"amount":"5.00"}`); a.status != 201 {
			t.Fatalf("refund: %d %s", a.status, a.body)
		}
		amount := func(v any) float64 {
			var x float64
			fmt.Sscan(v.(string), &x)
			return x
		}
		day := f.db.Now().UTC()
		period := url.Values{"after": {day.AddDate(0, 0, -2).Format("2006-01-02") + "T00:00:00"}, "before": {day.Format("2006-01-02") + "T23:59:59"}}

		// Revenue stats by day: the reference's shape; three days, paged.
		q := url.Values{"interval": {"day"}, "per_page": {"2"}}
		for k, v := range period {
			q[k] = v
		}
		a := staff(wc + "/reports/revenue/stats?" + q.Encode())
		if a.status != 200 || a.header.Get("X-WP-Total") != "3" || a.header.Get("X-WP-TotalPages") != "2" {
			t.Fatalf("revenue stats: %d total %q pages %q %.300s", a.status, a.header.Get("X-WP-Total"), a.header.Get("X-WP-TotalPages"), a.body)
		}
		// A Link to the next page as WordPress sends it: the query in its
		// order, page added; the last page links back, and not further.
		if links := a.header.Values("Link"); len(links) != 1 || !strings.HasSuffix(links[0], `&page=2>; rel="next"`) ||
			!strings.Contains(links[0], wc+"/reports/revenue/stats?") || !strings.Contains(links[0], "after="+url.QueryEscape(period.Get("after"))) {
			t.Errorf("revenue stats page 1 Link: %q", links)
		}
		q.Set("page", "2")
		if links := staff(wc + "/reports/revenue/stats?" + q.Encode()).header.Values("Link"); len(links) != 1 || !strings.Contains(links[0], "page=1") ||
			!strings.HasSuffix(links[0], `>; rel="prev"`) {
			t.Errorf("revenue stats page 2 Link: %q", links)
		}
		q.Set("page", "7")
		if links := staff(wc + "/reports/revenue/stats?" + q.Encode()).header.Values("Link"); len(links) != 1 || !strings.Contains(links[0], "page=2>") {
			t.Errorf("revenue stats page 7 of 2 Link: %q", links)
		}
		q.Del("page")
		stats := a.json(t)
		if d := sameShape("revenue stats", any(stats), decodeAny(t, refAnalyticsStats)); len(d) > 0 {
			t.Errorf("revenue stats' shape differs from WooCommerce's:\n%s", strings.Join(d, "\n"))
		}
		tot := stats["totals"].(map[string]any)
		sales := amount(o1["total"]) + amount(o2["total"]) - 5
		if tot["orders_count"] != float64(2) || tot["num_items_sold"] != float64(3) || fmt.Sprintf("%.2f", tot["total_sales"]) != fmt.Sprintf("%.2f", sales) ||
			tot["refunds"].(float64) <= 0 || tot["total_customers"] != float64(2) {
			t.Errorf("revenue totals (want 2 orders, 3 items, sales %.2f, 2 customers): %v", sales, tot)
		}
		ivs := stats["intervals"].([]any)
		if len(ivs) != 2 || ivs[0].(map[string]any)["interval"] != day.Format("2006-01-02") {
			t.Errorf("intervals: newest first, two a page: %v", ivs)
		}
		if sub := ivs[0].(map[string]any)["subtotals"].(map[string]any); sub["orders_count"] != float64(2) {
			t.Errorf("today's subtotals: %v", sub)
		}
		// The orders stats speak the same figures; fields trims them.
		a = staff(wc + "/reports/orders/stats?fields=orders_count&" + period.Encode())
		if m := a.json(t)["totals"].(map[string]any); a.status != 200 || len(m) != 2 || m["orders_count"] != float64(2) {
			t.Errorf("orders stats with fields: %d %v", a.status, m)
		}
		// A status filter: on hold only.
		a = staff(wc + "/reports/revenue/stats?status_is=on-hold&" + period.Encode())
		if m := a.json(t)["totals"].(map[string]any); m["orders_count"] != float64(1) {
			t.Errorf("status_is=on-hold: %v", m)
		}

		lists := []struct{ path, ref string }{
			{"/reports/products?orderby=items_sold&", refAnalyticsProduct},
			{"/reports/categories?", refAnalyticsCategory},
			{"/reports/customers?", refAnalyticsCustomer},
		}
		for _, l := range lists {
			rows := list(t, staff(wc+l.path+period.Encode()))
			if len(rows) == 0 {
				t.Errorf("%s: no rows", l.path)
				continue
			}
			shapeOK(t, l.path, rows[0], l.ref)
		}
		products := list(t, staff(wc+"/reports/products?orderby=items_sold&"+period.Encode()))
		if len(products) != 2 || products[0].(map[string]any)["product_id"] != float64(tank) || products[0].(map[string]any)["items_sold"] != float64(2) {
			t.Errorf("products by items sold: %v", products)
		}
		if rows := list(t, staff(wc+fmt.Sprintf("/reports/products?product_includes=%d&", tee)+period.Encode())); len(rows) != 1 || rows[0].(map[string]any)["product_id"] != float64(tee) {
			t.Errorf("products with product_includes: %v", rows)
		}
		if rows := list(t, staff(wc+"/reports/coupons?"+period.Encode())); len(rows) != 0 {
			t.Errorf("coupons: %v", rows)
		}
		for _, p := range []string{"/reports/orders", "/reports/variations", "/reports/taxes", "/reports/stock", "/reports/revenue",
			"/reports/products/stats", "/reports/variations/stats", "/reports/categories/stats", "/reports/coupons/stats",
			"/reports/taxes/stats", "/reports/customers/stats", "/reports/stock/stats"} {
			if a := staff(wc + p + "?" + period.Encode()); a.status != 200 {
				t.Errorf("%s: %d %.200s", p, a.status, a.body)
			}
		}

		// Performance indicators, in the order asked.
		pi := list(t, staff(wc+"/reports/performance-indicators?stats=revenue/total_sales,orders/orders_count,orders/avg_order_value&"+period.Encode()))
		if len(pi) != 3 {
			t.Fatalf("indicators: %v", pi)
		}
		shapeOK(t, "indicator", pi[0], refAnalyticsIndicator)
		if pi[1].(map[string]any)["value"] != float64(2) || fmt.Sprintf("%.2f", pi[0].(map[string]any)["value"]) != fmt.Sprintf("%.2f", sales) {
			t.Errorf("indicator values: %v", pi)
		}
		boards := list(t, staff(wc+"/leaderboards?"+period.Encode()))
		if len(boards) != 4 {
			t.Fatalf("leaderboards: %v", boards)
		}
		shapeOK(t, "leaderboard", boards[0], refAnalyticsBoard)

		// Refusals: WordPress's rest_invalid_param naming the parameter.
		for _, bad := range []string{"interval=fortnight", "after=yesterday", "per_page=0", "orderby=price", "status_is=shipped",
			"product_includes=abc", "customer_type=old"} {
			a := staff(wc + "/reports/revenue/stats?" + bad)
			var e struct {
				Code string `json:"code"`
				Data struct {
					Status int               `json:"status"`
					Params map[string]string `json:"params"`
				} `json:"data"`
			}
			name, _, _ := strings.Cut(bad, "=")
			if json.Unmarshal([]byte(a.body), &e) != nil || a.status != 400 || e.Code != "rest_invalid_param" || e.Data.Params[name] == "" {
				t.Errorf("%s: %d %s", bad, a.status, a.body)
			}
		}
		if a := staff(wc + "/reports/performance-indicators?stats=revenue/nothing"); a.status != 400 {
			t.Errorf("unknown indicator: %d", a.status)
		}

		// Staff only: no one, a customer, and a cookie without its nonce.
		revenue := wc + "/reports/revenue/stats"
		if a := f.do("GET", revenue, nil, ""); a.status != 401 {
			t.Errorf("anonymous: %d %.100s", a.status, a.body)
		}
		if a := f.staffCall("Carla", "GET", revenue, ""); a.status != 403 {
			t.Errorf("customer: %d %.100s", a.status, a.body)
		}
		if a := f.do("GET", revenue, f.cookie("Mia"), ""); a.status != 401 {
			t.Errorf("cookie without nonce: %d %.100s", a.status, a.body)
		}
		// A read-only REST API key (OAuth 1.0a over HTTP, as the reference's calls).
		keys := &integration.Service{Store: f.db, Now: f.db.Now}
		ro, err := keys.Create(t.Context(), f.users["Mia"], "Reports", integration.Read)
		if err != nil {
			t.Fatal(err)
		}
		if a := f.do("GET", oauthTarget(f.db, ro, "GET", revenue, period, "n1"), nil, ""); a.status != 200 || !strings.Contains(a.body, `"totals"`) {
			t.Errorf("read key: %d %.200s", a.status, a.body)
		}

		// The whole report as CSV.
		a = staff(wc + "/reports/revenue/stats?_format=csv&interval=day&" + period.Encode())
		lines := strings.Split(strings.TrimSpace(a.body), "\n")
		if a.status != 200 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/csv") || len(lines) != 4 || !strings.HasPrefix(lines[0], "interval,") {
			t.Errorf("CSV: %d %q %q", a.status, a.header.Get("Content-Type"), a.body)
		}

		// Settings: a bad time zone is refused and changes nothing; a good one moves the days.
		set := wc + "/vitrine/settings"
		a = f.staffCall("Mia", "PUT", set, `{"time_zone":"Mars/Olympus","excluded_statuses":["pending"],"version":0}`)
		if a.status != 400 || !strings.Contains(a.body, "time_zone") {
			t.Errorf("bad time zone: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "PUT", set, `{"time_zone":"Pacific/Kiritimati","excluded_statuses":["pending","failed","cancelled","on-hold"],"version":0}`); a.status != 200 {
			t.Fatalf("settings: %d %s", a.status, a.body)
		}
		a = staff(wc + "/reports/revenue/stats?" + url.Values{"after": {time.Now().AddDate(0, 0, -30).Format("2006-01-02")}}.Encode())
		if m := a.json(t)["totals"].(map[string]any); m["orders_count"] != float64(1) {
			t.Errorf("on hold excluded: %v", m)
		}

		// The order's own paths keep the reports in step: a status change
		// and a deletion through the REST API.
		month := url.Values{"after": {time.Now().AddDate(0, 0, -30).Format("2006-01-02")}}.Encode()
		count := func() any {
			t.Helper()
			return staff(wc + "/reports/orders/stats?status_is=on-hold,processing,completed,refunded&" + month).json(t)["totals"].(map[string]any)["orders_count"]
		}
		if n := count(); n != float64(2) {
			t.Errorf("before: %v orders", n)
		}
		if a := f.staffCall("Mia", "PUT", fmt.Sprintf("/wp-json/wc/v3/orders/%v", o2["id"]), `{"status":"cancelled"}`); a.status != 200 {
			t.Fatalf("cancel: %d %.200s", a.status, a.body)
		}
		if n := count(); n != float64(1) {
			t.Errorf("after cancelling one: %v orders", n)
		}
		if a := f.staffCall("Mia", "DELETE", fmt.Sprintf("/wp-json/wc/v3/orders/%v?force=true", o1["id"]), ""); a.status != 200 {
			t.Fatalf("delete: %d %.200s", a.status, a.body)
		}
		if n := count(); n != float64(0) {
			t.Errorf("after deleting the other: %v orders", n)
		}
	})
}
