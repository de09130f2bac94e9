package adminapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"vitrine/internal/reports"
)

// Reports: WooCommerce REST v3's legacy /wc/v3/reports (reference:
// wc-v3-reports-sales.http, wc-v3-reports-top_sellers.http), computed by
// the reports service from SQL aggregates. The orders' totals are
// orders.go's.

const reportsPath = wcPrefix + "/reports"

// topSellersLimit is how many products the top sellers list.
const topSellersLimit = 12

type reportJSON struct {
	Slug        string           `json:"slug"`
	Description string           `json:"description"`
	Links       map[string][]any `json:"_links"`
}

// GET /wp-json/wc/v3/reports
func (a *API) reportsList(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	var out []reportJSON
	for _, r := range [][2]string{{"sales", "List of sales reports."}, {"top_sellers", "List of top sellers products."},
		{"orders/totals", "Orders totals."}, {"products/totals", "Products totals."}, {"customers/totals", "Customers totals."},
		{"coupons/totals", "Coupons totals."}, {"reviews/totals", "Reviews totals."}} {
		out = append(out, reportJSON{Slug: r[0], Description: r[1], Links: map[string][]any{
			"self": {link(a.d.BaseURL + reportsPath + "/" + r[0])}, "collection": {link(a.d.BaseURL + reportsPath)}}})
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

func reportQuery(r *http.Request) reports.Query {
	q := r.URL.Query()
	return reports.Query{Period: q.Get("period"), DateMin: q.Get("date_min"), DateMax: q.Get("date_max")}
}

func reportError(err error) error {
	var ie *reports.InputError
	if errors.As(err, &ie) {
		return InvalidParam(ie.Field, ie.Message)
	}
	return err
}

type salesBucketJSON struct {
	Sales     string `json:"sales"`
	Orders    int    `json:"orders"`
	Items     int    `json:"items"`
	Tax       string `json:"tax"`
	Shipping  string `json:"shipping"`
	Discount  string `json:"discount"`
	Customers int    `json:"customers"`
	Refunds   string `json:"refunds"`
}

type salesJSON struct {
	TotalSales      string                     `json:"total_sales"`
	NetSales        string                     `json:"net_sales"`
	AverageSales    string                     `json:"average_sales"`
	TotalOrders     int                        `json:"total_orders"`
	TotalItems      int                        `json:"total_items"`
	TotalTax        string                     `json:"total_tax"`
	TotalShipping   string                     `json:"total_shipping"`
	TotalRefunds    float64                    `json:"total_refunds"`
	TotalDiscount   string                     `json:"total_discount"`
	TotalsGroupedBy string                     `json:"totals_grouped_by"`
	Totals          map[string]salesBucketJSON `json:"totals"` // keys sort as dates
	TotalCustomers  int                        `json:"total_customers"`
	Links           map[string][]any           `json:"_links"`
}

// GET /wp-json/wc/v3/reports/sales?period=week|month|last_month|year&date_min=&date_max=
func (a *API) reportSales(w http.ResponseWriter, r *http.Request, _ Staff) error {
	s, err := a.d.Reports.Sales(r.Context(), reportQuery(r))
	if err != nil {
		return reportError(err)
	}
	c := a.d.Base
	net := s.Total.Sales - s.Total.Refunds - s.Total.Shipping - s.Total.Tax
	out := salesJSON{
		TotalSales: plain(c, s.Total.Sales-s.Total.Refunds), NetSales: plain(c, net),
		AverageSales: plain(c, net/int64(max(s.Days(), 1))), TotalOrders: s.Total.Orders, TotalItems: s.Total.Items,
		TotalTax: plain(c, s.Total.Tax), TotalShipping: plain(c, s.Total.Shipping), TotalDiscount: plain(c, s.Total.Discount),
		TotalsGroupedBy: "day", Totals: map[string]salesBucketJSON{}, TotalCustomers: s.Total.Customers,
		Links: map[string][]any{"about": {link(a.d.BaseURL + reportsPath)}},
	}
	out.TotalRefunds, _ = strconv.ParseFloat(plain(c, s.Total.Refunds), 64)
	if s.ByMonth {
		out.TotalsGroupedBy = "month"
	}
	for _, b := range s.Buckets {
		out.Totals[b.Key] = salesBucketJSON{Sales: plain(c, b.Sales-b.Refunds), Orders: b.Orders,
			Items: b.Items, Tax: plain(c, b.Tax), Shipping: plain(c, b.Shipping), Discount: plain(c, b.Discount),
			Customers: b.Customers, Refunds: plain(c, b.Refunds)}
	}
	WriteJSON(w, http.StatusOK, []salesJSON{out})
	return nil
}

type topSellerJSON struct {
	Name      string           `json:"name"`
	ProductID int64            `json:"product_id"`
	Quantity  int              `json:"quantity"`
	Links     map[string][]any `json:"_links"`
}

// GET /wp-json/wc/v3/reports/top_sellers?period=&date_min=&date_max=
func (a *API) reportTopSellers(w http.ResponseWriter, r *http.Request, _ Staff) error {
	sellers, err := a.d.Reports.TopSellers(r.Context(), reportQuery(r), topSellersLimit)
	if err != nil {
		return reportError(err)
	}
	out := []topSellerJSON{}
	for _, s := range sellers {
		out = append(out, topSellerJSON{Name: s.Name, ProductID: s.ProductID, Quantity: s.Quantity, Links: map[string][]any{
			"about":   {link(a.d.BaseURL + reportsPath)},
			"product": {link(a.d.BaseURL + wcPrefix + "/products/" + strconv.FormatInt(s.ProductID, 10))},
		}})
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

type totalJSON struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Total int    `json:"total"`
}

// reportTotals answers a totals report (products, customers, coupons,
// reviews).
func reportTotals(count func(context.Context) ([]reports.Total, error)) Handler {
	return func(w http.ResponseWriter, r *http.Request, _ Staff) error {
		ts, err := count(r.Context())
		if err != nil {
			return err
		}
		out := []totalJSON{}
		for _, t := range ts {
			out = append(out, totalJSON{t.Slug, t.Name, t.Total})
		}
		WriteJSON(w, http.StatusOK, out)
		return nil
	}
}
