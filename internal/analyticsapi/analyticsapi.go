// Package analyticsapi is WooCommerce Admin's analytics REST routes
// (/wp-json/wc-analytics/…) over the analytics service: parameters in,
// the reference answers' shapes out (totals and intervals with subtotals,
// X-WP-Total and X-WP-TotalPages), rest_invalid_param for a bad
// parameter, and the whole of a report as CSV with ?_format=csv. The
// server guards every route as the admin API's (staff by cookie and nonce,
// or a REST API key).
package analyticsapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/adminapi"
	"vitrine/internal/analytics"
	"vitrine/internal/settings"
)

// Prefix is the routes' namespace.
const Prefix = "/wp-json/wc-analytics"

// Deps is what the routes use.
type Deps struct {
	Analytics *analytics.Service
	BaseURL   string
}

// API is the routes.
type API struct{ d Deps }

// New builds the routes.
func New(d Deps) *API { return &API{d: d} }

// Route is one route: its pattern and handler.
type Route struct {
	Pattern string
	Handler adminapi.Handler
}

// Routes are every route.
func (a *API) Routes() []Route {
	r := []Route{
		{"GET " + Prefix + "/reports/revenue/stats", a.stats("revenue")},
		{"GET " + Prefix + "/reports/orders/stats", a.stats("orders")},
		{"GET " + Prefix + "/reports/products/stats", a.stats("products")},
		{"GET " + Prefix + "/reports/variations/stats", a.stats("variations")},
		{"GET " + Prefix + "/reports/categories/stats", a.stats("categories")},
		{"GET " + Prefix + "/reports/coupons/stats", a.stats("coupons")},
		{"GET " + Prefix + "/reports/taxes/stats", a.stats("taxes")},
		{"GET " + Prefix + "/reports/customers/stats", a.stats("customers")},
		{"GET " + Prefix + "/reports/stock/stats", a.stockStats},
		{"GET " + Prefix + "/reports/performance-indicators", a.indicators},
		{"GET " + Prefix + "/leaderboards", a.leaderboards},
		{"GET " + Prefix + "/reports/revenue", a.revenueList},
		{"GET " + Prefix + "/reports/orders", a.ordersList},
		{"GET " + Prefix + "/reports/products", a.itemsList("products", "product")},
		{"GET " + Prefix + "/reports/variations", a.itemsList("variations", "variation")},
		{"GET " + Prefix + "/reports/categories", a.itemsList("categories", "category")},
		{"GET " + Prefix + "/reports/coupons", a.couponsList},
		{"GET " + Prefix + "/reports/taxes", a.taxesList},
		{"GET " + Prefix + "/reports/stock", a.stockList},
		{"GET " + Prefix + "/reports/customers", a.customersList},
	}
	return r
}

func (a *API) fail(err error) error {
	var ie *analytics.InputError
	if errors.As(err, &ie) {
		return adminapi.InvalidParam(ie.Field, ie.Message)
	}
	return err
}

func (a *API) query(r *http.Request, orderBys []string) (analytics.Query, error) {
	q, err := analytics.ParseQuery(r.URL.Query(), a.d.Analytics.Location(), orderBys, orderBys[0])
	return q, a.fail(err)
}

func csvWanted(r *http.Request) bool { return r.URL.Query().Get("_format") == "csv" }

func money(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// headers writes the list headers of n rows at per a page, page asked:
// X-WP-Total, X-WP-TotalPages, and a Link to the previous and next pages
// as the WordPress REST API sends them (the request's own query with its
// page set, in order; the previous page no further than the last).
func (a *API) headers(w http.ResponseWriter, r *http.Request, n, per, page int) {
	pages := 1
	if per > 0 {
		pages = (n + per - 1) / per
	}
	if pages == 0 {
		pages = 1
	}
	w.Header().Set("X-WP-Total", strconv.Itoa(n))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
	if page > 1 {
		w.Header().Add("Link", "<"+a.pageURL(r, min(page-1, pages))+`>; rel="prev"`)
	}
	if pages > page {
		w.Header().Add("Link", "<"+a.pageURL(r, page+1)+`>; rel="next"`)
	}
}

// pageURL is r's address on the site with page set to page: the query's
// parameters in their order, each encoded as WordPress encodes them, page
// replaced where it is or added last.
func (a *API) pageURL(r *http.Request, page int) string {
	var parts []string
	set := false
	for _, kv := range strings.Split(r.URL.RawQuery, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			continue
		}
		if k == "page" {
			if set {
				continue
			}
			v, set = strconv.Itoa(page), true
		}
		parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
	}
	if !set {
		parts = append(parts, "page="+strconv.Itoa(page))
	}
	return a.d.BaseURL + r.URL.Path + "?" + strings.Join(parts, "&")
}

func writeCSV(w http.ResponseWriter, name string, head []string, rows [][]string) {
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=UTF-8")
	h.Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	h.Set("Cache-Control", "no-store, private")
	cw := csv.NewWriter(w)
	_ = cw.Write(head)
	for _, r := range rows {
		for i, c := range r { // a spreadsheet must not run a cell as a formula
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				if _, err := strconv.ParseFloat(c, 64); err != nil {
					r[i] = "'" + c
				}
			}
		}
		_ = cw.Write(r)
	}
	cw.Flush()
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// figures is f as JSON: the revenue figures and report's own
// (analytics.RouteFields), only the fields asked for (all when none).
func figures(f analytics.Figures, report string, fields []string, withProducts bool) map[string]any {
	m := map[string]any{
		"orders_count": f.OrdersCount, "num_items_sold": f.NumItemsSold, "gross_sales": money(f.GrossSales),
		"total_sales": money(f.TotalSales), "coupons": money(f.Coupons), "coupons_count": f.CouponsCount,
		"refunds": money(f.Refunds), "taxes": money(f.Taxes), "shipping": money(f.Shipping), "net_revenue": money(f.NetRevenue),
		"avg_items_per_order": f.AvgItemsPerOrder, "avg_order_value": money(f.AvgOrderValue), "total_customers": f.TotalCustomers,
	}
	if withProducts {
		m["products"] = f.Products
	}
	for _, k := range analytics.RouteFields[report] {
		if intField(k) {
			m[k] = int64(f.Figure(k))
		} else {
			m[k] = money(f.Figure(k))
		}
	}
	if len(fields) > 0 {
		for k := range m {
			if !slices.Contains(fields, k) {
				delete(m, k)
			}
		}
	}
	return m
}

// intField: the figure is a count (written as an integer).
func intField(k string) bool {
	switch k {
	case "orders_count", "num_items_sold", "coupons_count", "total_customers", "products",
		"items_sold", "products_count", "variations_count", "tax_codes", "customers_count":
		return true
	}
	return false
}

// segmentEncoder writes segments as JSON (a report by day of every
// product has hundreds of thousands: written directly, as
// encoding/json would write the figures' maps, keys in order).
type segmentEncoder struct {
	fields []string
	keys   []string // the subtotals' keys written, in order
	labels map[int64][]byte
}

func newSegmentEncoder(report string, fields []string) *segmentEncoder {
	e := &segmentEncoder{fields: fields, labels: map[int64][]byte{}}
	for k := range figures(analytics.Figures{}, report, fields, false) {
		e.keys = append(e.keys, k)
	}
	slices.Sort(e.keys)
	return e
}

// withSegments appends obj (a JSON object) to b with "segments": segs
// as its last member.
func (e *segmentEncoder) withSegments(b []byte, obj map[string]any, segs []analytics.Segment) []byte {
	o, _ := json.Marshal(obj)
	b = append(b, o[:len(o)-1]...)
	if len(o) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"segments":`...)
	return append(e.appendSegments(b, segs), '}')
}

// appendSegments appends segs as a JSON array to b.
func (e *segmentEncoder) appendSegments(b []byte, segs []analytics.Segment) []byte {
	b = append(b, '[')
	for i, s := range segs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"segment_id":`...)
		b = strconv.AppendInt(b, s.ID, 10)
		b = append(b, `,"segment_label":`...)
		lb, ok := e.labels[s.ID]
		if !ok {
			lb, _ = json.Marshal(s.Label)
			e.labels[s.ID] = lb
		}
		b = append(b, lb...)
		b = append(b, `,"subtotals":{`...)
		f := s.Figures
		for j, k := range e.keys {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, k...)
			b = append(b, '"', ':')
			switch {
			case k == "avg_items_per_order":
				b = strconv.AppendFloat(b, f.AvgItemsPerOrder, 'f', -1, 64)
			case intField(k):
				b = strconv.AppendInt(b, int64(f.Figure(k)), 10)
			default:
				b = strconv.AppendFloat(b, money(f.Figure(k)), 'f', -1, 64)
			}
		}
		b = append(b, '}', '}')
	}
	return append(b, ']')
}

const wpDate = "2006-01-02 15:04:05"

// stats is a /stats route: the revenue and orders figures of the period
// and its intervals (every report's stats come from the same facts, its
// filters applied) and the route's own WooCommerce fields
// (analytics.RouteStats).
func (a *API) stats(report string) adminapi.Handler {
	return func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		q, err := a.query(r, analytics.StatsOrderBysOf(report))
		if err != nil {
			return err
		}
		if err := analytics.CheckSegmentBy(report, q); err != nil {
			return a.fail(err)
		}
		if csvWanted(r) {
			q.PerPage = 0
			q.SegmentBy = "" // the CSV has no segments' columns
		}
		st, err := a.d.Analytics.RouteStats(r.Context(), report, q)
		if err != nil {
			return a.fail(err)
		}
		own := analytics.RouteFields[report]
		if csvWanted(r) {
			head := append([]string{"interval", "date_start", "date_end", "orders_count", "num_items_sold", "gross_sales", "total_sales",
				"coupons", "refunds", "taxes", "shipping", "net_revenue", "avg_order_value", "total_customers"}, own...)
			var rows [][]string
			for _, iv := range st.Intervals {
				f := iv.Figures
				rows = append(rows, []string{iv.ID, iv.Start.Format(wpDate), iv.End.Add(-time.Second).Format(wpDate),
					strconv.FormatInt(f.OrdersCount, 10), strconv.FormatInt(f.NumItemsSold, 10), num(money(f.GrossSales)),
					num(money(f.TotalSales)), num(money(f.Coupons)), num(money(f.Refunds)), num(money(f.Taxes)),
					num(money(f.Shipping)), num(money(f.NetRevenue)), num(money(f.AvgOrderValue)), strconv.FormatInt(f.TotalCustomers, 10)})
				for _, k := range own {
					rows[len(rows)-1] = append(rows[len(rows)-1], num(money(f.Figure(k))))
				}
			}
			writeCSV(w, report+"-stats", head, rows)
			return nil
		}
		// Written by hand: {"totals": {…, "segments": […]}, "intervals":
		// [{…, "subtotals": {…, "segments": […]}}]}.
		enc := newSegmentEncoder(report, q.Fields)
		size := 4096 + len(st.Intervals)*600 + (len(st.Intervals)+1)*len(st.Segments)*(64+24*len(enc.keys))
		b := append(make([]byte, 0, size), `{"totals":`...)
		b = enc.withSegments(b, figures(st.Totals, report, q.Fields, true), st.Segments)
		b = append(b, `,"intervals":[`...)
		for i, iv := range st.Intervals {
			if i > 0 {
				b = append(b, ',')
			}
			end := iv.End.Add(-time.Second)
			head, _ := json.Marshal(map[string]any{
				"interval": iv.ID, "date_start": iv.Start.Format(wpDate), "date_start_gmt": iv.Start.UTC().Format(wpDate),
				"date_end": end.Format(wpDate), "date_end_gmt": end.UTC().Format(wpDate),
			})
			b = append(b, head[:len(head)-1]...)
			b = append(b, `,"subtotals":`...)
			b = enc.withSegments(b, figures(iv.Figures, report, q.Fields, false), iv.Segments)
			b = append(b, '}')
		}
		b = append(b, ']', '}')
		a.headers(w, r, st.Total, q.PerPage, q.Page)
		adminapi.WriteRawJSON(w, http.StatusOK, b)
		return nil
	}
}

// revenueList is /reports/revenue: the stats' intervals as a list.
func (a *API) revenueList(w http.ResponseWriter, r *http.Request, st adminapi.Staff) error {
	return a.stats("revenue")(w, r, st)
}

func (a *API) link(rel, path string) map[string][]map[string]string {
	return map[string][]map[string]string{rel: {{"href": a.d.BaseURL + "/wp-json" + path}}}
}

// list writes rows (already sorted) as JSON a page at a time, or all of
// them as CSV.
func list[T any](a *API, w http.ResponseWriter, r *http.Request, q analytics.Query, name string, rows []T,
	toJSON func(T) map[string]any, head []string, toCSV func(T) []string) error {
	if csvWanted(r) {
		out := make([][]string, len(rows))
		for i, row := range rows {
			out[i] = toCSV(row)
		}
		writeCSV(w, name, head, out)
		return nil
	}
	pageRows, n := analytics.Page(rows, q)
	a.headers(w, r, n, q.PerPage, q.Page)
	out := make([]map[string]any, 0, len(pageRows))
	for _, row := range pageRows {
		out = append(out, toJSON(row))
	}
	adminapi.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *API) major(v int64) float64 { return money(a.d.Analytics.Major(v)) }

func (a *API) itemsList(report, by string) adminapi.Handler {
	return func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		q, err := a.query(r, analytics.ListOrderBys[report])
		if err != nil {
			return err
		}
		rows, err := a.d.Analytics.Items(r.Context(), q, by)
		if err != nil {
			return a.fail(err)
		}
		toJSON := func(it analytics.ItemRow) map[string]any {
			ext := map[string]any{}
			if q.ExtendedInfo {
				ext = map[string]any{"name": it.Name, "sku": it.SKU}
			}
			switch by {
			case "variation":
				return map[string]any{"product_id": it.Parent, "variation_id": it.ID, "items_sold": it.Items, "net_revenue": a.major(it.Net),
					"orders_count": it.Orders, "extended_info": ext, "_links": a.link("product", fmt.Sprintf("/wc-analytics/products/%d", it.Parent))}
			case "category":
				if q.ExtendedInfo {
					ext = map[string]any{"name": it.Name}
				}
				return map[string]any{"category_id": it.ID, "items_sold": it.Items, "net_revenue": a.major(it.Net), "orders_count": it.Orders,
					"products_count": it.Products, "extended_info": ext,
					"_links": a.link("category", fmt.Sprintf("/wc-analytics/products/categories/%d", it.ID))}
			}
			return map[string]any{"product_id": it.ID, "items_sold": it.Items, "net_revenue": a.major(it.Net), "orders_count": it.Orders,
				"extended_info": ext, "_links": a.link("product", fmt.Sprintf("/wc-analytics/products/%d", it.ID))}
		}
		return list(a, w, r, q, report, rows, toJSON, []string{"id", "name", "sku", "items_sold", "net_revenue", "orders_count"},
			func(it analytics.ItemRow) []string {
				return []string{strconv.FormatInt(it.ID, 10), it.Name, it.SKU, strconv.FormatInt(it.Items, 10), num(a.major(it.Net)), strconv.FormatInt(it.Orders, 10)}
			})
	}
}

func (a *API) couponsList(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["coupons"])
	if err != nil {
		return err
	}
	rows, err := a.d.Analytics.Coupons(r.Context(), q)
	if err != nil {
		return a.fail(err)
	}
	return list(a, w, r, q, "coupons", rows, func(c analytics.CouponRow) map[string]any {
		ext := map[string]any{}
		if q.ExtendedInfo {
			ext = map[string]any{"code": c.Code}
		}
		return map[string]any{"coupon_id": c.CouponID, "amount": a.major(c.Amount), "orders_count": c.Orders, "extended_info": ext,
			"_links": a.link("coupon", fmt.Sprintf("/wc-analytics/coupons/%d", c.CouponID))}
	}, []string{"coupon_id", "code", "amount", "orders_count"}, func(c analytics.CouponRow) []string {
		return []string{strconv.FormatInt(c.CouponID, 10), c.Code, num(a.major(c.Amount)), strconv.FormatInt(c.Orders, 10)}
	})
}

func wpTime(unix int64, loc *time.Location) any {
	if unix == 0 {
		return nil
	}
	return time.Unix(unix, 0).In(loc).Format("2006-01-02T15:04:05")
}

func (a *API) customersList(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["customers"])
	if err != nil {
		return err
	}
	if csvWanted(r) {
		q.PerPage = 0 // every row, each with its details
	}
	rows, err := a.d.Analytics.Customers(r.Context(), q)
	if err != nil {
		return a.fail(err)
	}
	loc := a.d.Analytics.Location()
	avg := func(c analytics.CustomerRow) float64 {
		if c.Orders == 0 {
			return 0
		}
		return money(a.d.Analytics.Major(c.Spend) / float64(c.Orders))
	}
	return list(a, w, r, q, "customers", rows, func(c analytics.CustomerRow) map[string]any {
		last := any(nil)
		if c.LastOrder != 0 {
			last = time.Unix(c.LastOrder, 0).In(loc).Format(wpDate)
		}
		gmt := func(v int64) any {
			if v == 0 {
				return nil
			}
			return time.Unix(v, 0).UTC().Format("2006-01-02T15:04:05")
		}
		return map[string]any{"id": c.UserID, "user_id": c.UserID, "username": c.Username, "name": c.Name, "first_name": c.First,
			"last_name": c.Last, "email": c.Email, "country": c.Country, "city": c.City, "state": c.State, "postcode": c.Postcode,
			"date_registered": wpTime(c.Created, loc), "date_last_active": wpTime(c.LastOrder, loc), "date_last_order": last,
			"orders_count": c.Orders, "total_spend": a.major(c.Spend), "avg_order_value": avg(c),
			"date_registered_gmt": gmt(c.Created), "date_last_active_gmt": gmt(c.LastOrder),
			"_links": map[string]any{"customer": []map[string]string{{"href": fmt.Sprintf("%s/wp-json/wc-analytics/customers/%d", a.d.BaseURL, c.UserID)}},
				"collection": []map[string]string{{"href": a.d.BaseURL + "/wp-json/wc-analytics/customers"}}},
		}
	}, []string{"name", "username", "email", "orders_count", "total_spend", "avg_order_value", "country", "city", "state", "postcode"},
		func(c analytics.CustomerRow) []string {
			return []string{c.Name, c.Username, c.Email, strconv.FormatInt(c.Orders, 10), num(a.major(c.Spend)), num(avg(c)), c.Country, c.City, c.State, c.Postcode}
		})
}

func (a *API) ordersList(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["orders"])
	if err != nil {
		return err
	}
	rows, err := a.d.Analytics.Orders(r.Context(), q)
	if err != nil {
		return a.fail(err)
	}
	loc := a.d.Analytics.Location()
	ctype := func(o analytics.OrderRow) string {
		if o.Returning {
			return "returning"
		}
		return "new"
	}
	return list(a, w, r, q, "orders", rows, func(o analytics.OrderRow) map[string]any {
		t := time.Unix(o.CreatedAt, 0)
		return map[string]any{"order_id": o.OrderID, "order_number": strconv.FormatInt(o.OrderID, 10),
			"date_created": t.In(loc).Format("2006-01-02T15:04:05"), "date_created_gmt": t.UTC().Format("2006-01-02T15:04:05"),
			"date": t.In(loc).Format("2006-01-02T15:04:05"), "status": o.Status, "customer_id": o.Customer, "num_items_sold": o.Items,
			"net_total": a.major(o.Net), "total_sales": a.major(o.Gross), "customer_type": ctype(o), "extended_info": map[string]any{},
			"_links": a.link("order", fmt.Sprintf("/wc/v3/orders/%d", o.OrderID))}
	}, []string{"date", "order_number", "status", "customer_type", "num_items_sold", "net_total"}, func(o analytics.OrderRow) []string {
		return []string{time.Unix(o.CreatedAt, 0).In(loc).Format(wpDate), strconv.FormatInt(o.OrderID, 10), o.Status, ctype(o),
			strconv.FormatInt(o.Items, 10), num(a.major(o.Net))}
	})
}

func (a *API) taxesList(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["taxes"])
	if err != nil {
		return err
	}
	rows, err := a.d.Analytics.Taxes(r.Context(), q)
	if err != nil {
		return a.fail(err)
	}
	return list(a, w, r, q, "taxes", rows, func(t analytics.TaxRow) map[string]any {
		return map[string]any{"tax_rate_id": t.RateID, "name": t.Code, "tax_rate": t.Rate, "country": "", "state": "", "priority": 1,
			"total_tax": a.major(t.Total), "order_tax": a.major(t.Order), "shipping_tax": a.major(t.Shipping), "orders_count": t.Orders,
			"_links": a.link("tax", fmt.Sprintf("/wc/v3/taxes/%d", t.RateID))}
	}, []string{"tax_rate_id", "name", "tax_rate", "total_tax", "order_tax", "shipping_tax", "orders_count"}, func(t analytics.TaxRow) []string {
		return []string{strconv.FormatInt(t.RateID, 10), t.Code, t.Rate, num(a.major(t.Total)), num(a.major(t.Order)), num(a.major(t.Shipping)), strconv.FormatInt(t.Orders, 10)}
	})
}

func (a *API) stockType(r *http.Request) (string, error) {
	t := r.URL.Query().Get("type")
	if !slices.Contains(analytics.StockStatuses, t) {
		return "", adminapi.InvalidParam("type", "type is not one of instock, outofstock, onbackorder, lowstock.")
	}
	return t, nil
}

func (a *API) stockList(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["stock"])
	if err != nil {
		return err
	}
	t, err := a.stockType(r)
	if err != nil {
		return err
	}
	rows, err := a.d.Analytics.Stock(r.Context(), q, t)
	if err != nil {
		return a.fail(err)
	}
	qty := func(s analytics.StockRow) any {
		if s.Quantity == nil {
			return nil
		}
		return *s.Quantity
	}
	return list(a, w, r, q, "stock", rows, func(s analytics.StockRow) map[string]any {
		return map[string]any{"id": s.ID, "parent_id": s.Parent, "name": s.Name, "sku": s.SKU, "stock_status": s.Status,
			"stock_quantity": qty(s), "manage_stock": s.Manage, "_links": a.link("product", fmt.Sprintf("/wc/v3/products/%d", s.ID))}
	}, []string{"id", "name", "sku", "stock_status", "stock_quantity"}, func(s analytics.StockRow) []string {
		q := ""
		if s.Quantity != nil {
			q = strconv.FormatInt(*s.Quantity, 10)
		}
		return []string{strconv.FormatInt(s.ID, 10), s.Name, s.SKU, s.Status, q}
	})
}

func (a *API) stockStats(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q := analytics.Query{PerPage: 0, Order: "asc"}
	rows, err := a.d.Analytics.Stock(r.Context(), q, "")
	if err != nil {
		return err
	}
	tot := map[string]int{"products": len(rows), "lowstock": 0, "instock": 0, "outofstock": 0, "onbackorder": 0}
	for _, s := range rows {
		tot[s.Status]++
		if s.Manage && s.Quantity != nil && *s.Quantity <= 2 && s.Status == "instock" {
			tot["lowstock"]++
		}
	}
	adminapi.WriteJSON(w, http.StatusOK, map[string]any{"totals": tot})
	return nil
}

// indicator is a performance indicator WooCommerce's dashboard offers.
type indicator struct{ label, format, report string }

var indicators = map[string]indicator{
	"revenue/total_sales":        {"Total sales", "currency", "revenue"},
	"revenue/net_revenue":        {"Net sales", "currency", "revenue"},
	"revenue/gross_sales":        {"Gross sales", "currency", "revenue"},
	"revenue/refunds":            {"Returns", "currency", "revenue"},
	"revenue/coupons":            {"Coupons", "currency", "revenue"},
	"revenue/taxes":              {"Taxes", "currency", "revenue"},
	"revenue/shipping":           {"Shipping", "currency", "revenue"},
	"orders/orders_count":        {"Orders", "number", "orders"},
	"orders/avg_order_value":     {"Average order value", "currency", "orders"},
	"orders/avg_items_per_order": {"Average items per order", "average", "orders"},
	"products/items_sold":        {"Items sold", "number", "products"},
	"coupons/amount":             {"Discounted amount", "currency", "coupons"},
	"coupons/orders_count":       {"Discounted orders", "number", "coupons"},
	"customers/total_customers":  {"Customers", "number", "customers"},
	ConversionStat:               conversionIndicator, // conversion.go
}

// DefaultIndicators are the dashboard's default indicators.
var DefaultIndicators = []string{"revenue/total_sales", "revenue/net_revenue", "orders/orders_count", "orders/avg_order_value", "products/items_sold"}

func (a *API) indicators(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.StatsOrderBys)
	if err != nil {
		return err
	}
	stats := q.Stats
	if len(stats) == 0 {
		stats = DefaultIndicators
	}
	for _, s := range stats {
		if _, ok := indicators[s]; !ok {
			return adminapi.InvalidParam("stats", "stats is a list of indicators such as revenue/total_sales, orders/orders_count.")
		}
	}
	q.PerPage, q.Interval, q.SegmentBy = 1, "year", ""
	st, err := a.d.Analytics.Stats(r.Context(), q)
	if err != nil {
		return a.fail(err)
	}
	f := st.Totals
	var discounted struct{ amount, orders int64 }
	if slices.Contains(stats, "coupons/amount") || slices.Contains(stats, "coupons/orders_count") {
		cs, err := a.d.Analytics.Coupons(r.Context(), q)
		if err != nil {
			return err
		}
		for _, c := range cs {
			discounted.amount += c.Amount
			discounted.orders += c.Orders
		}
	}
	out := []map[string]any{}
	for _, s := range stats {
		in := indicators[s]
		_, field, _ := strings.Cut(s, "/")
		var v any
		switch s {
		case "products/items_sold":
			v = f.NumItemsSold
		case "coupons/amount":
			v = a.major(discounted.amount)
		case "coupons/orders_count":
			v = discounted.orders
		case ConversionStat:
			if v, err = a.conversion(r.Context(), st); err != nil {
				return err
			}
		default:
			switch in.format {
			case "number":
				v = int64(f.Figure(field))
			default:
				v = money(f.Figure(field))
			}
		}
		out = append(out, map[string]any{"stat": s, "chart": field, "label": in.label, "format": in.format, "value": v,
			"_links": map[string]any{"api": []map[string]string{{"href": a.d.BaseURL + Prefix + "/reports/" + in.report + "/stats"}},
				"report": []map[string]string{{"href": "/analytics/" + in.report}}}})
	}
	a.headers(w, r, len(out), len(out), 1)
	adminapi.WriteJSON(w, http.StatusOK, out)
	return nil
}

type cell map[string]any

func (a *API) price(v int64) cell {
	c := a.d.Analytics.Base
	return cell{"display": `<span class="woocommerce-Price-amount amount">` + html.EscapeString(c.Format(v)) + `</span>`,
		"value": a.major(v), "format": "currency"}
}

func count(n int64) cell {
	return cell{"display": strconv.FormatInt(n, 10), "value": n, "format": "number"}
}

func (a *API) named(path, filter, param string, id int64, name string) cell {
	href := fmt.Sprintf("%s/wp-admin/admin.php?page=wc-admin&path=/analytics/%s&filter=%s&%s=%d", a.d.BaseURL, path, filter, param, id)
	return cell{"display": "<a href='" + html.EscapeString(href) + "'>" + html.EscapeString(name) + "</a>", "value": name}
}

// leaderboards: top customers (spend), coupons (orders), categories and
// products (items sold), per_page rows each (5 by default).
func (a *API) leaderboards(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
	q, err := a.query(r, analytics.ListOrderBys["leaderboards"])
	if err != nil {
		return err
	}
	if r.URL.Query().Get("per_page") == "" {
		q.PerPage = 5
	}
	ctx := r.Context()
	board := func(id, label string, heads []string, rows [][]cell) map[string]any {
		hs := make([]map[string]string, len(heads))
		for i, h := range heads {
			hs[i] = map[string]string{"label": h}
		}
		if rows == nil {
			rows = [][]cell{}
		}
		return map[string]any{"id": id, "label": label, "headers": hs, "rows": rows}
	}
	top := func(ctx context.Context, orderBy string) analytics.Query {
		c := q
		c.OrderBy, c.Order, c.Page = orderBy, "desc", 1
		return c
	}
	cus, err := a.d.Analytics.TopCustomers(ctx, top(ctx, "total_spend"), q.PerPage)
	if err != nil {
		return err
	}
	var crow [][]cell
	for _, c := range cus {
		name := c.Name
		if name == "" {
			name = c.Email
		}
		crow = append(crow, []cell{a.named("customers", "single_customer", "customers", c.UserID, name), count(c.Orders), a.price(c.Spend)})
	}
	cps, err := a.d.Analytics.Coupons(ctx, top(ctx, "orders_count"))
	if err != nil {
		return err
	}
	var cprow [][]cell
	for _, c := range first(cps, q.PerPage) {
		cprow = append(cprow, []cell{a.named("coupons", "single_coupon", "coupons", c.CouponID, c.Code), count(c.Orders), a.price(c.Amount)})
	}
	prods, cats, err := a.d.Analytics.TopProductsAndCategories(ctx, top(ctx, "items_sold"))
	if err != nil {
		return err
	}
	var catrow [][]cell
	for _, c := range first(cats, q.PerPage) {
		catrow = append(catrow, []cell{a.named("categories", "single_category", "categories", c.ID, c.Name), count(c.Items), a.price(c.Net)})
	}
	var prow [][]cell
	for _, p := range first(prods, q.PerPage) {
		prow = append(prow, []cell{a.named("products", "single_product", "products", p.ID, p.Name), count(p.Items), a.price(p.Net)})
	}
	adminapi.WriteJSON(w, http.StatusOK, []map[string]any{
		board("customers", "Top Customers - Total Spend", []string{"Customer Name", "Orders", "Total Spend"}, crow),
		board("coupons", "Top Coupons - Number of Orders", []string{"Coupon code", "Orders", "Amount discounted"}, cprow),
		board("categories", "Top categories - Items sold", []string{"Category", "Items sold", "Net sales"}, catrow),
		board("products", "Top products - Items sold", []string{"Product", "Items sold", "Net sales"}, prow),
	})
	return nil
}

func first[T any](rows []T, n int) []T {
	if n > 0 && len(rows) > n {
		return rows[:n]
	}
	return rows
}

// SettingsPath is the analytics settings' route (the shop's time zone
// and excluded statuses): GET answers them with their version, PUT saves
// {"time_zone", "excluded_statuses", "version"}.
const SettingsPath = Prefix + "/vitrine/settings"

// SettingsRoutes are the settings' routes, when the server has them.
func (a *API) SettingsRoutes(s *settings.Analytics) []Route {
	answer := func(w http.ResponseWriter, d settings.Doc[analytics.Settings]) {
		v := d.Value
		if v.ExcludedStatuses == nil {
			v.ExcludedStatuses = analytics.DefaultExcluded
		}
		if v.TimeZone == "" {
			v.TimeZone = "UTC"
		}
		adminapi.WriteJSON(w, http.StatusOK, map[string]any{"time_zone": v.TimeZone, "excluded_statuses": v.ExcludedStatuses,
			"statuses": analytics.Statuses, "version": d.Version})
	}
	get := func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		d, err := s.Load(r.Context())
		if err != nil {
			return err
		}
		answer(w, d)
		return nil
	}
	put := func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		var in struct {
			analytics.Settings
			Version int64 `json:"version"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return adminapi.InvalidParam("body", "The body is a JSON object of time_zone, excluded_statuses and version.")
		}
		if in.ExcludedStatuses == nil {
			in.ExcludedStatuses = []string{}
		}
		d, err := s.Update(r.Context(), in.Settings, in.Version)
		if errors.Is(err, settings.ErrStale) {
			return adminapi.Conflict("vitrine_stale_settings", "The settings were changed meanwhile; reload them.", map[string]any{"status": http.StatusConflict})
		}
		if err != nil {
			return a.fail(err)
		}
		answer(w, d)
		return nil
	}
	return []Route{{"GET " + SettingsPath, get}, {"PUT " + SettingsPath, put}}
}
