package server_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/money"
)

// The REST API's legacy reports (/wp-json/wc/v3/reports/…): WooCommerce
// 11's shapes (reference: woocommerce-11-responses/wc-v3-reports-*.http),
// the figures the store's aggregates give for orders placed through the
// API, on both engines.

// refSales is WooCommerce 11's GET /wc/v3/reports/sales row.
const refSales = `{"total_sales":"0.00","net_sales":"0.00","average_sales":"0.00","total_orders":0,"total_items":0,"total_tax":"0.00",
 "total_shipping":"0.00","total_refunds":0,"total_discount":"0.00","totals_grouped_by":"day",
 "totals":{"2026-11-29":{"sales":"0.00","orders":0,"items":0,"tax":"0.00","shipping":"0.00","discount":"0.00","customers":0,"refunds":"0.00"}},
 "total_customers":0,"_links":{"about":[{"href":"x"}]}}`

// refTopSeller is a row of GET /wc/v3/reports/top_sellers (the recording's
// list is empty: the row WooCommerce's schema documents).
const refTopSeller = `{"name":"Beanie","product_id":16,"quantity":2,"_links":{"about":[{"href":"x"}],"product":[{"href":"x"}]}}`

// refTotal is a row of GET /wc/v3/reports/orders/totals.
const refTotal = `{"slug":"pending","name":"Pending payment","total":0}`

func TestRESTReports(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/reports"
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		var slugs []string
		for _, r := range list(t, staff("GET", path, "")) {
			slugs = append(slugs, r.(map[string]any)["slug"].(string))
		}
		if strings.Join(slugs, ",") != "sales,top_sellers,orders/totals,products/totals,customers/totals,coupons/totals,reviews/totals" {
			t.Errorf("reports: %v", slugs)
		}
		totals := func(report string) map[string]int {
			t.Helper()
			out := map[string]int{}
			for _, r := range list(t, staff("GET", path+"/"+report+"/totals", "")) {
				shapeOK(t, report+" total", r, refTotal)
				m := r.(map[string]any)
				out[m["slug"].(string)] = int(m["total"].(float64))
			}
			return out
		}
		couponsBefore, customersBefore := totals("coupons"), totals("customers")

		// Orders through the API: two counted (processing, paid, for
		// Carla; on hold, a guest's), a pending one not counted; a refund.
		tank, tee := f.shop.productID("cotton-tank-top"), f.shop.productID("mountain-line-tee")
		place := func(body string) map[string]any {
			t.Helper()
			a := staff("POST", "/wp-json/wc/v3/orders", body)
			if a.status != 201 {
				t.Fatalf("order: %d %s", a.status, a.body)
			}
			return a.json(t)
		}
		billing := `"billing":{"first_name":"A","last_name":"B","email":"a@example.com","country":"US","state":"CA","postcode":"95814","city":"Sacramento","address_1":"1 Main"}`
		o1 := place(fmt.Sprintf(`{"payment_method":"bacs","set_paid":true,"customer_id":%d,%s,"line_items":[{"product_id":%d,"quantity":2}]}`, f.users["Carla"], billing, tank))
		o2 := place(fmt.Sprintf(`{"status":"on-hold",%s,"line_items":[{"product_id":%d,"quantity":1}]}`, billing, tee))
		place(fmt.Sprintf(`{%s,"line_items":[{"product_id":%d,"quantity":5}]}`, billing, tee))
		if a := staff("POST", fmt.Sprintf("/wp-json/wc/v3/orders/%v/refunds", o1["id"]), `{"amount":"5.00"}`); a.status != 201 {
			t.Fatalf("refund: %d %s", a.status, a.body)
		}
		minor := func(v any) int64 {
			n, err := money.Parse(v.(string), 2)
			if err != nil {
				t.Fatalf("amount %v", v)
			}
			return n
		}
		usd := money.Currency{MinorUnit: 2, DecimalSeparator: "."}
		sum := func(key string) string { return usd.FormatNumber(minor(o1[key]) + minor(o2[key])) }
		sales := usd.FormatNumber(minor(o1["total"]) + minor(o2["total"]) - 500)
		net := usd.FormatNumber(minor(o1["total"]) + minor(o2["total"]) - 500 - minor(o1["shipping_total"]) - minor(o2["shipping_total"]) -
			minor(o1["total_tax"]) - minor(o2["total_tax"]))

		// Today's sales (no period): one day.
		report := func(query string) map[string]any {
			t.Helper()
			rows := list(t, staff("GET", path+"/sales"+query, ""))
			if len(rows) != 1 {
				t.Fatalf("sales%s: %v", query, rows)
			}
			shapeOK(t, "sales"+query, rows[0], refSales)
			return rows[0].(map[string]any)
		}
		today := report("")
		days := today["totals"].(map[string]any)
		if len(days) != 1 {
			t.Fatalf("today: %v", days)
		}
		var key string
		var day map[string]any
		for k, v := range days {
			key, day = k, v.(map[string]any)
		}
		newToday := 0
		for _, c := range list(t, staff("GET", "/wp-json/wc/v3/customers?per_page=100", "")) {
			if strings.HasPrefix(c.(map[string]any)["date_created"].(string), key) {
				newToday++
			}
		}
		if today["total_sales"] != sales || today["net_sales"] != net || today["average_sales"] != net || today["total_orders"] != float64(2) ||
			today["total_items"] != float64(3) || today["total_tax"] != sum("total_tax") || today["total_shipping"] != sum("shipping_total") ||
			today["total_refunds"] != float64(5) || today["total_discount"] != sum("discount_total") || today["totals_grouped_by"] != "day" ||
			today["total_customers"] != float64(newToday) {
			t.Errorf("today's sales (want sales %s, net %s, %d new customers): %v", sales, net, newToday, today)
		}
		if day["sales"] != sales || day["orders"] != float64(2) || day["items"] != float64(3) || day["refunds"] != "5.00" || day["customers"] != float64(newToday) {
			t.Errorf("today's bucket %s: %v", key, day)
		}
		week := report("?period=week")
		if len(week["totals"].(map[string]any)) != 7 || week["total_orders"] != float64(2) || week["totals"].(map[string]any)[key] == nil {
			t.Errorf("week: %v", week["totals"])
		}
		year := report("?period=year")
		if year["totals_grouped_by"] != "month" || year["totals"].(map[string]any)[key[:7]] == nil || year["total_sales"] != sales {
			t.Errorf("year: %v", year)
		}
		past := report("?date_min=2020-01-01&date_max=2020-01-03")
		if len(past["totals"].(map[string]any)) != 3 || past["total_orders"] != float64(0) || past["total_sales"] != "0.00" {
			t.Errorf("a past range: %v", past)
		}
		if r := report("?date_min=" + key + "&date_max=" + key); r["total_sales"] != sales {
			t.Errorf("today as a range: %v", r)
		}
		for q, param := range map[string]string{"?period=decade": "period", "?date_min=2026-13-01": "date_min", "?date_min=2026-02-01&date_max=2026-01-01": "date_max"} {
			a := staff("GET", path+"/sales"+q, "")
			if a.status != 400 || a.json(t)["code"] != "rest_invalid_param" || !strings.Contains(a.body, `"`+param+`"`) {
				t.Errorf("%s: %d %s", q, a.status, a.body)
			}
		}

		// Top sellers: the pending order's five tees do not count.
		sellers := list(t, staff("GET", path+"/top_sellers?period=week", ""))
		if len(sellers) != 2 {
			t.Fatalf("top sellers: %v", sellers)
		}
		for _, s := range sellers {
			shapeOK(t, "top seller", s, refTopSeller)
		}
		first, second := sellers[0].(map[string]any), sellers[1].(map[string]any)
		if first["product_id"] != float64(tank) || first["quantity"] != float64(2) || second["product_id"] != float64(tee) || second["quantity"] != float64(1) {
			t.Errorf("top sellers: %v", sellers)
		}
		if s := list(t, staff("GET", path+"/top_sellers?date_min=2020-01-01&date_max=2020-01-02", "")); len(s) != 0 {
			t.Errorf("top sellers of a past range: %v", s)
		}

		// Totals.
		for typ, n := range totals("products") {
			a := staff("GET", "/wp-json/wc/v3/products?status=publish&per_page=1&type="+typ, "")
			if got, _ := strconv.Atoi(a.header.Get("X-WP-Total")); got != n {
				t.Errorf("products of type %s: report %d, list %d", typ, n, got)
			}
		}
		if c := totals("customers"); c["paying"] != customersBefore["paying"]+1 || c["paying"]+c["non_paying"] != customersBefore["paying"]+customersBefore["non_paying"] {
			t.Errorf("customers: %v, before %v", c, customersBefore)
		}
		if a := staff("POST", "/wp-json/wc/v3/coupons", `{"code":"report10","discount_type":"percent","amount":"10"}`); a.status != 201 {
			t.Fatalf("coupon: %d %s", a.status, a.body)
		}
		if c := totals("coupons"); c["percent"] != couponsBefore["percent"]+1 || c["fixed_cart"] != couponsBefore["fixed_cart"] {
			t.Errorf("coupons: %v, before %v", c, couponsBefore)
		}
		reviews := totals("reviews")
		var approved []map[string]any
		a := staff("GET", "/wp-json/wc/v3/products/reviews?status=approved&per_page=100", "")
		if err := json.Unmarshal([]byte(a.body), &approved); err != nil {
			t.Fatal(err)
		}
		byRating := map[string]int{}
		for _, r := range approved {
			if n := int(r["rating"].(float64)); n > 0 {
				byRating[fmt.Sprintf("rated_%d_out_of_5", n)]++
			}
		}
		if len(reviews) != 5 || fmt.Sprint(reviews) != fmt.Sprint(fillRatings(byRating)) {
			t.Errorf("reviews: %v, the list has %v", reviews, byRating)
		}
		if o := totals("orders"); o["processing"] < 1 || o["on-hold"] < 1 || o["pending"] < 1 {
			t.Errorf("orders: %v", o)
		}
		newKeyCalls(f).readOnlyKey(t, path+"/sales", "POST", "/wp-json/wc/v3/coupons", `{"code":"keycode","discount_type":"percent","amount":"5"}`)
	})
}

func fillRatings(m map[string]int) map[string]int {
	out := map[string]int{}
	for r := 1; r <= 5; r++ {
		k := fmt.Sprintf("rated_%d_out_of_5", r)
		out[k] = m[k]
	}
	return out
}
