// Package reports computes the shop's sales reports (the REST API's
// legacy /wc/v3/reports): sales over a period by day or month, the top
// sellers, and totals of orders, products, customers, coupons and reviews.
// Every figure is an aggregate the store computes (SQL GROUP BY on either
// engine); the sales and top sellers read analytics' order facts
// (internal/analytics, decision 0111), caught up first, so the shop has
// one aggregation of its orders; no report loads the orders themselves.
//
// The shop's day is UTC (as its order dates). Sales count the orders that
// were paid or are being paid (completed, processing, on hold) and the
// refunded ones, less their refunds; amounts are in the shop's base
// currency, so orders placed in another currency are left out of the
// amounts and counts of the sales report (decision 0090). Quantities (top
// sellers) count every such order.
package reports

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// SalesStatuses are the order statuses the sales reports count.
var SalesStatuses = []string{"completed", "processing", "on-hold", "refunded"}

// Day is one day's figures (amounts in minor units of the base currency).
type Day struct {
	Day       time.Time // midnight UTC
	Orders    int
	Items     int
	Sales     int64 // the orders' totals
	Tax       int64
	Shipping  int64
	Discount  int64
	Refunds   int64 // completed refunds made that day
	Customers int   // customer accounts created that day
}

// Seller is a product's quantity sold.
type Seller struct {
	ProductID int64
	Name      string
	Quantity  int
}

// Store computes the aggregates (sqlstore/reports.go).
type Store interface {
	// SalesByDay sums the orders of currency with one of statuses placed
	// in [from, to), their lines' quantities and their refunds, and the
	// customer accounts created, per UTC day; days without any are left
	// out.
	SalesByDay(ctx context.Context, currency string, statuses []string, from, to time.Time) ([]Day, error)
	// TopSellers are the products most sold (quantity) in orders with one
	// of statuses placed in [from, to), most first, at most limit.
	TopSellers(ctx context.Context, statuses []string, from, to time.Time, limit int) ([]Seller, error)
	// ProductTypeCounts counts the published products by type (simple,
	// variable, grouped, external).
	ProductTypeCounts(ctx context.Context) (map[string]int, error)
	// CustomerCounts counts the customer accounts with and without a paid
	// (processing or completed) order.
	CustomerCounts(ctx context.Context) (paying, nonPaying int, err error)
	// CouponTypeCounts counts the coupons by discount type.
	CouponTypeCounts(ctx context.Context) (map[string]int, error)
	// ReviewRatingCounts counts the approved reviews by rating (1 to 5).
	ReviewRatingCounts(ctx context.Context) (map[int]int, error)
}

// Service answers the reports.
type Service struct {
	Store Store
	// Currency is the shop's base currency: the sales report's amounts.
	Currency string
	Now      func() time.Time
	// CatchUp brings the order facts the sales and top sellers read up to
	// date (analytics.Service.CatchUp); nil: they are read as they are.
	CatchUp func(context.Context) error
}

func (s *Service) catchUp(ctx context.Context) error {
	if s.CatchUp == nil {
		return nil
	}
	return s.CatchUp(ctx)
}

// InputError is a query parameter the reports cannot take.
type InputError struct {
	Field, Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Query is a report's period: one of Periods, or the days DateMin to
// DateMax (YYYY-MM-DD, both included); neither: today.
type Query struct {
	Period           string
	DateMin, DateMax string
}

// Periods are the named periods: the last 7 days, this month, last month,
// this year.
var Periods = []string{"week", "month", "last_month", "year"}

// Range is a report's days: [From, To) at UTC midnights, by day or by
// month.
type Range struct {
	From, To time.Time
	ByMonth  bool
}

func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// RangeOf reads q.
func (s *Service) RangeOf(q Query) (Range, error) {
	today := midnight(s.Now())
	tomorrow := today.AddDate(0, 0, 1)
	if q.DateMin != "" || q.DateMax != "" {
		day := func(field, v string, def time.Time) (time.Time, error) {
			if v == "" {
				return def, nil
			}
			t, err := time.Parse("2006-01-02", v)
			if err != nil {
				return t, &InputError{field, field + " is a date such as 2026-11-29 (YYYY-MM-DD)."}
			}
			return t, nil
		}
		from, err := day("date_min", q.DateMin, today)
		if err != nil {
			return Range{}, err
		}
		to, err := day("date_max", q.DateMax, today)
		if err != nil {
			return Range{}, err
		}
		if to.Before(from) {
			return Range{}, &InputError{"date_max", "date_max is before date_min."}
		}
		if to.Sub(from) > 3660*24*time.Hour {
			return Range{}, &InputError{"date_min", "A report covers at most ten years."}
		}
		// WooCommerce groups a range of more than about three months by
		// month.
		return Range{From: from, To: to.AddDate(0, 0, 1), ByMonth: to.Sub(from) > 92*24*time.Hour}, nil
	}
	switch q.Period {
	case "":
		return Range{From: today, To: tomorrow}, nil
	case "week":
		return Range{From: today.AddDate(0, 0, -6), To: tomorrow}, nil
	case "month":
		return Range{From: today.AddDate(0, 0, 1-today.Day()), To: tomorrow}, nil
	case "last_month":
		first := today.AddDate(0, 0, 1-today.Day())
		return Range{From: first.AddDate(0, -1, 0), To: first}, nil
	case "year":
		return Range{From: time.Date(today.Year(), 1, 1, 0, 0, 0, 0, time.UTC), To: tomorrow, ByMonth: true}, nil
	}
	return Range{}, &InputError{"period", "period is one of week, month, last_month or year."}
}

// Bucket is one day's or month's figures, Key "2026-11-29" or "2026-11".
type Bucket struct {
	Key string
	Day
}

// Sales is the sales report of a range.
type Sales struct {
	Range
	Total   Day      // the sums (Total.Day is zero)
	Buckets []Bucket // every day (or month) of the range, in order
}

// Sales computes the sales report of q.
func (s *Service) Sales(ctx context.Context, q Query) (Sales, error) {
	rg, err := s.RangeOf(q)
	if err != nil {
		return Sales{}, err
	}
	if err := s.catchUp(ctx); err != nil {
		return Sales{}, err
	}
	days, err := s.Store.SalesByDay(ctx, s.Currency, SalesStatuses, rg.From, rg.To)
	if err != nil {
		return Sales{}, err
	}
	key := func(t time.Time) string {
		if rg.ByMonth {
			return t.Format("2006-01")
		}
		return t.Format("2006-01-02")
	}
	out := Sales{Range: rg}
	index := map[string]int{}
	for d := rg.From; d.Before(rg.To); d = d.AddDate(0, 0, 1) {
		k := key(d)
		if _, ok := index[k]; !ok {
			index[k] = len(out.Buckets)
			out.Buckets = append(out.Buckets, Bucket{Key: k, Day: Day{Day: d}})
		}
	}
	for _, d := range days {
		i, ok := index[key(d.Day)]
		if !ok {
			return Sales{}, fmt.Errorf("reports: day %s outside the range", d.Day)
		}
		add(&out.Buckets[i].Day, d)
		add(&out.Total, d)
	}
	return out, nil
}

func add(to *Day, d Day) {
	to.Orders += d.Orders
	to.Items += d.Items
	to.Sales += d.Sales
	to.Tax += d.Tax
	to.Shipping += d.Shipping
	to.Discount += d.Discount
	to.Refunds += d.Refunds
	to.Customers += d.Customers
}

// Days is how many days the range covers (the average's divisor).
func (r Range) Days() int { return int(r.To.Sub(r.From) / (24 * time.Hour)) }

// TopSellers are the range's best-selling products, at most limit.
func (s *Service) TopSellers(ctx context.Context, q Query, limit int) ([]Seller, error) {
	rg, err := s.RangeOf(q)
	if err != nil {
		return nil, err
	}
	if err := s.catchUp(ctx); err != nil {
		return nil, err
	}
	return s.Store.TopSellers(ctx, SalesStatuses, rg.From, rg.To, limit)
}

// Total is one line of a totals report.
type Total struct {
	Slug, Name string
	Total      int
}

// ProductTotals counts the published products by type, WooCommerce's types
// in its order.
func (s *Service) ProductTotals(ctx context.Context) ([]Total, error) {
	m, err := s.Store.ProductTypeCounts(ctx)
	if err != nil {
		return nil, err
	}
	return totals(m, "external", "External product", "grouped", "Grouped product", "simple", "Simple product", "variable", "Variable product"), nil
}

// CustomerTotals counts the paying and non-paying customers.
func (s *Service) CustomerTotals(ctx context.Context) ([]Total, error) {
	paying, non, err := s.Store.CustomerCounts(ctx)
	if err != nil {
		return nil, err
	}
	return []Total{{"paying", "Paying customer", paying}, {"non_paying", "Non-paying customer", non}}, nil
}

// CouponTotals counts the coupons by discount type.
func (s *Service) CouponTotals(ctx context.Context) ([]Total, error) {
	m, err := s.Store.CouponTypeCounts(ctx)
	if err != nil {
		return nil, err
	}
	return totals(m, "percent", "Percentage discount", "fixed_cart", "Fixed cart discount", "fixed_product", "Fixed product discount"), nil
}

// ReviewTotals counts the approved reviews by rating, 1 to 5.
func (s *Service) ReviewTotals(ctx context.Context) ([]Total, error) {
	m, err := s.Store.ReviewRatingCounts(ctx)
	if err != nil {
		return nil, err
	}
	var out []Total
	for r := 1; r <= 5; r++ {
		out = append(out, Total{fmt.Sprintf("rated_%d_out_of_5", r), fmt.Sprintf("Rated %d out of 5", r), m[r]})
	}
	return out, nil
}

// totals lists m's counts under the slugs and names of kv, in its order,
// then any other slug m holds (sorted).
func totals(m map[string]int, kv ...string) []Total {
	var out []Total
	seen := map[string]bool{}
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Total{kv[i], kv[i+1], m[kv[i]]})
		seen[kv[i]] = true
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, Total{k, k, m[k]})
	}
	return out
}
