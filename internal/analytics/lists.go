package analytics

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// ListOrderBys are the orderby values each list report takes (the first
// is its default).
var ListOrderBys = map[string][]string{
	"products":     {"date", "items_sold", "net_revenue", "orders_count", "product_name", "sku"},
	"variations":   {"date", "items_sold", "net_revenue", "orders_count", "sku"},
	"categories":   {"category_id", "items_sold", "net_revenue", "orders_count", "products_count", "category"},
	"coupons":      {"coupon_id", "code", "amount", "orders_count"},
	"customers":    {"date_last_order", "name", "orders_count", "total_spend", "avg_order_value", "username", "email"},
	"orders":       {"date", "num_items_sold", "net_total"},
	"taxes":        {"tax_rate_id", "tax_code", "rate", "order_tax", "total_tax", "shipping_tax", "orders_count"},
	"stock":        {"stock_status", "title", "sku", "stock_quantity"},
	"revenue":      {"date", "orders_count", "num_items_sold", "gross_sales", "total_sales", "coupons", "refunds", "taxes", "shipping", "net_revenue"},
	"leaderboards": {"date"},
}

// StatsOrderBys are the orderby values of a stats report.
var StatsOrderBys = []string{"date", "orders_count", "num_items_sold", "gross_sales", "total_sales", "coupons", "coupons_count",
	"refunds", "taxes", "shipping", "net_revenue", "avg_items_per_order", "avg_order_value", "total_customers"}

// statsOwnOrderBys are the route's own fields (RouteFields) a stats
// route also takes as orderby, as WooCommerce's stats controllers list
// them: the products and variations stats items_sold, the coupons stats
// amount, the taxes stats items_sold and products_count (fields it does
// not answer: every interval ties, in date order). Ours has no
// categories stats controller to follow: it takes items_sold as the
// products'.
var statsOwnOrderBys = map[string][]string{
	"products":   {"items_sold"},
	"variations": {"items_sold"},
	"categories": {"items_sold"},
	"coupons":    {"amount"},
	"taxes":      {"items_sold", "products_count"},
}

// StatsOrderBysOf are the orderby values report's stats route takes:
// StatsOrderBys and its own (an interval's own figure orders it:
// RouteStats).
func StatsOrderBysOf(report string) []string {
	return append(slices.Clip(StatsOrderBys), statsOwnOrderBys[report]...)
}

func (s *Service) prepare(ctx context.Context, q Query) (Filter, error) {
	if _, err := s.CatchUp(ctx, ReportCatchUp); err != nil {
		return Filter{}, err
	}
	return s.Filter(q, s.Period(q)), nil
}

func sortBy[T any](rows []T, desc bool, key func(a, b T) int) {
	slices.SortStableFunc(rows, func(a, b T) int {
		if desc {
			return key(b, a)
		}
		return key(a, b)
	})
}

// Items is the products (by "product"), variations or categories report.
func (s *Service) Items(ctx context.Context, q Query, by string) ([]ItemRow, error) {
	return s.items(ctx, q, by, false)
}

// TopItems is Items for a leaderboard: the items sold and net sales
// only (orders and latest dates may be left zero).
func (s *Service) TopItems(ctx context.Context, q Query, by string) ([]ItemRow, error) {
	return s.items(ctx, q, by, true)
}

// TopProductsAndCategories are TopItems by "product" and by "category"
// (the leaderboards), from one read of the store.
func (s *Service) TopProductsAndCategories(ctx context.Context, q Query) (products, categories []ItemRow, err error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	f.ItemSumsOnly = true
	if products, categories, err = s.Store.AnalyticsTopItems(ctx, f); err != nil {
		return nil, nil, err
	}
	sortItems(products, q)
	sortItems(categories, q)
	return products, categories, nil
}

func (s *Service) items(ctx context.Context, q Query, by string, top bool) ([]ItemRow, error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	f.ItemSumsOnly, f.CategoryLines = top, true
	rows, err := s.Store.AnalyticsItemSums(ctx, f, by)
	if err != nil {
		return nil, err
	}
	sortItems(rows, q)
	return rows, nil
}

func sortItems(rows []ItemRow, q Query) {
	sortBy(rows, q.Order != "asc", func(a, b ItemRow) int {
		switch q.OrderBy {
		case "items_sold":
			return cmp.Or(cmp.Compare(a.Items, b.Items), cmp.Compare(b.ID, a.ID))
		case "net_revenue":
			return cmp.Or(cmp.Compare(a.Net, b.Net), cmp.Compare(b.ID, a.ID))
		case "orders_count":
			return cmp.Or(cmp.Compare(a.Orders, b.Orders), cmp.Compare(b.ID, a.ID))
		case "products_count":
			return cmp.Or(cmp.Compare(a.Products, b.Products), cmp.Compare(b.ID, a.ID))
		case "product_name", "category":
			return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
		case "sku":
			return cmp.Or(strings.Compare(a.SKU, b.SKU), cmp.Compare(a.ID, b.ID))
		case "category_id":
			return cmp.Compare(a.ID, b.ID)
		}
		return cmp.Or(cmp.Compare(a.LastDate, b.LastDate), cmp.Compare(a.ID, b.ID))
	})
}

// Coupons is the coupons report.
func (s *Service) Coupons(ctx context.Context, q Query) ([]CouponRow, error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.Store.AnalyticsCouponSums(ctx, f)
	if err != nil {
		return nil, err
	}
	sortBy(rows, q.Order != "asc", func(a, b CouponRow) int {
		switch q.OrderBy {
		case "code":
			return strings.Compare(a.Code, b.Code)
		case "amount":
			return cmp.Or(cmp.Compare(a.Amount, b.Amount), cmp.Compare(a.CouponID, b.CouponID))
		case "orders_count":
			return cmp.Or(cmp.Compare(a.Orders, b.Orders), cmp.Compare(a.CouponID, b.CouponID))
		}
		return cmp.Compare(a.CouponID, b.CouponID)
	})
	return rows, nil
}

// Customers is the customers report: those with orders in the period,
// sorted. With a page asked (q.PerPage > 0) and an order other than by
// name, username or email, the sums come from the customer rollups
// (decision 0125) and only the rows of q's page carry their details and
// their exact latest order (the others' LastOrder may be the start of
// its hour: LastInHour); the order of all rows is exact either way.
func (s *Service) Customers(ctx context.Context, q Query) ([]CustomerRow, error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	if q.PerPage <= 0 || q.OrderBy == "name" || q.OrderBy == "username" || q.OrderBy == "email" {
		rows, err := s.Store.AnalyticsCustomerSums(ctx, f)
		if err != nil {
			return nil, err
		}
		s.sortCustomers(rows, q)
		return rows, nil
	}
	f.HourlyLastOrder, f.NoCustomerDetails = true, true
	rows, err := s.Store.AnalyticsCustomerSums(ctx, f)
	if err != nil {
		return nil, err
	}
	// The rows sort by the order's own key alone (the latest order by
	// its hour), unnamed; the rows sharing a key with the page's first
	// or last row (a block around the page) are named, made exact and
	// sorted in full: the others keep their places, a key apart.
	key := func(c *CustomerRow) float64 {
		switch q.OrderBy {
		case "orders_count":
			return float64(c.Orders)
		case "total_spend":
			return float64(c.Spend)
		case "avg_order_value":
			if c.Orders == 0 {
				return 0
			}
			return float64(c.Spend) / float64(c.Orders)
		}
		return float64(hourStart(c.LastOrder))
	}
	desc := q.Order != "asc"
	perm := make([]int32, len(rows))
	keys := make([]float64, len(rows))
	for i := range rows {
		perm[i], keys[i] = int32(i), key(&rows[i])
	}
	slices.SortFunc(perm, func(a, b int32) int {
		c := cmp.Or(cmp.Compare(keys[a], keys[b]), cmp.Compare(rows[a].No, rows[b].No))
		if desc {
			return -c
		}
		return c
	})
	sorted := make([]CustomerRow, len(rows))
	for i, p := range perm {
		sorted[i] = rows[p]
	}
	rows = sorted
	from := (q.Page - 1) * q.PerPage
	if from >= len(rows) {
		return rows, nil
	}
	to := min(len(rows), from+q.PerPage)
	g0, g1 := from, to
	for k := key(&rows[from]); g0 > 0 && key(&rows[g0-1]) == k; g0-- {
	}
	for k := key(&rows[to-1]); g1 < len(rows) && key(&rows[g1]) == k; g1++ {
	}
	if err := s.Store.AnalyticsCustomerLast(ctx, f, rows[g0:g1]); err != nil {
		return nil, err
	}
	s.sortCustomers(rows[g0:g1], q)
	return rows, s.Store.AnalyticsCustomerDetails(ctx, rows[from:to])
}

// hourStart is the start of the UTC hour of t (unix seconds).
func hourStart(t int64) int64 { return t - ((t%3600)+3600)%3600 }

// TopCustomers is the first n rows of Customers (all when n is 0). By
// total spend, descending (the leaderboard), the store ranks them from
// the customer rollups; by another order that needs no names, the sums
// are ranked and the names and addresses read for those n only.
func (s *Service) TopCustomers(ctx context.Context, q Query, n int) ([]CustomerRow, error) {
	switch {
	case q.OrderBy == "name" || q.OrderBy == "username" || q.OrderBy == "email" || n <= 0:
		all := q
		all.PerPage = 0 // every row with its details
		rows, err := s.Customers(ctx, all)
		if n > 0 && len(rows) > n {
			rows = rows[:n]
		}
		return rows, err
	}
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	if q.OrderBy == "total_spend" && q.Order != "asc" {
		return s.Store.AnalyticsTopCustomers(ctx, f, n)
	}
	f.NoCustomerDetails = true
	rows, err := s.Store.AnalyticsCustomerSums(ctx, f)
	if err != nil {
		return nil, err
	}
	s.sortCustomers(rows, q)
	if len(rows) > n {
		rows = rows[:n]
	}
	return rows, s.Store.AnalyticsCustomerDetails(ctx, rows)
}

func (s *Service) sortCustomers(rows []CustomerRow, q Query) {
	avg := func(c CustomerRow) float64 {
		if c.Orders == 0 {
			return 0
		}
		return float64(c.Spend) / float64(c.Orders)
	}
	sortBy(rows, q.Order != "asc", func(a, b CustomerRow) int {
		switch q.OrderBy {
		case "name":
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "username":
			return strings.Compare(a.Username, b.Username)
		case "email":
			return strings.Compare(a.Email, b.Email)
		case "orders_count":
			return cmp.Or(cmp.Compare(a.Orders, b.Orders), strings.Compare(a.Customer, b.Customer))
		case "total_spend":
			return cmp.Or(cmp.Compare(a.Spend, b.Spend), strings.Compare(a.Customer, b.Customer))
		case "avg_order_value":
			return cmp.Or(cmp.Compare(avg(a), avg(b)), strings.Compare(a.Customer, b.Customer))
		}
		return cmp.Or(cmp.Compare(a.LastOrder, b.LastOrder), strings.Compare(a.Customer, b.Customer))
	})
}

// Orders is the orders report.
func (s *Service) Orders(ctx context.Context, q Query) ([]OrderRow, error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.Store.AnalyticsOrders(ctx, f)
	if err != nil {
		return nil, err
	}
	sortBy(rows, q.Order != "asc", func(a, b OrderRow) int {
		switch q.OrderBy {
		case "num_items_sold":
			return cmp.Or(cmp.Compare(a.Items, b.Items), cmp.Compare(a.OrderID, b.OrderID))
		case "net_total":
			return cmp.Or(cmp.Compare(a.Net, b.Net), cmp.Compare(a.OrderID, b.OrderID))
		}
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.OrderID, b.OrderID))
	})
	return rows, nil
}

// Taxes is the taxes report.
func (s *Service) Taxes(ctx context.Context, q Query) ([]TaxRow, error) {
	f, err := s.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, _, err := s.Store.AnalyticsTaxSums(ctx, f)
	if err != nil {
		return nil, err
	}
	sortBy(rows, q.Order != "asc", func(a, b TaxRow) int {
		switch q.OrderBy {
		case "tax_code":
			return strings.Compare(a.Code, b.Code)
		case "rate":
			return strings.Compare(a.Rate, b.Rate)
		case "order_tax":
			return cmp.Compare(a.Order, b.Order)
		case "total_tax":
			return cmp.Compare(a.Total, b.Total)
		case "shipping_tax":
			return cmp.Compare(a.Shipping, b.Shipping)
		case "orders_count":
			return cmp.Compare(a.Orders, b.Orders)
		}
		return cmp.Compare(a.RateID, b.RateID)
	})
	return rows, nil
}

// StockStatuses are the stock report's type filter values.
var StockStatuses = []string{"", "instock", "outofstock", "onbackorder", "lowstock"}

// Stock is the stock report (the catalogue's current stock; not dated).
func (s *Service) Stock(ctx context.Context, q Query, status string) ([]StockRow, error) {
	st := status
	if st == "lowstock" {
		st = "instock"
	}
	rows, err := s.Store.AnalyticsStock(ctx, st)
	if err != nil {
		return nil, err
	}
	if status == "lowstock" {
		rows = slices.DeleteFunc(rows, func(r StockRow) bool { return !r.Manage || r.Quantity == nil || *r.Quantity > 2 })
	}
	sortBy(rows, q.Order != "asc", func(a, b StockRow) int {
		switch q.OrderBy {
		case "title":
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "sku":
			return strings.Compare(a.SKU, b.SKU)
		case "stock_quantity":
			qa, qb := int64(-1), int64(-1)
			if a.Quantity != nil {
				qa = *a.Quantity
			}
			if b.Quantity != nil {
				qb = *b.Quantity
			}
			return cmp.Or(cmp.Compare(qa, qb), cmp.Compare(a.ID, b.ID))
		}
		return cmp.Or(strings.Compare(a.Status, b.Status), cmp.Compare(a.ID, b.ID))
	})
	return rows, nil
}
