package analytics

import (
	"context"
	"math"
	"slices"
	"sort"
	"time"

	"vitrine/internal/clock"
	"vitrine/internal/money"
)

// Filter selects facts: the period [From, To) in unix seconds, the
// statuses counted, and the optional filters.
type Filter struct {
	From, To     int64
	Statuses     []string
	Products     []int64
	Variations   []int64
	Categories   []int64
	Coupons      []int64
	CustomerType string
	// ItemSumsOnly: an item report's items sold and net sales only (the
	// leaderboards): its orders and latest date may be left zero (a
	// category's orders are counted distinct over its products, which
	// only the facts answer).
	ItemSumsOnly bool
	// NoCustomerDetails: the customers' sums without their names and
	// addresses (AnalyticsCustomerDetails adds them to the rows shown).
	NoCustomerDetails bool
	// NoLastDates: an item report's rows without their latest date (the
	// segments).
	NoLastDates bool
	// CategoryLines: an item report by product or variation sums only
	// the lines of Categories' products (WooCommerce's products and
	// variations reports and stats), not every line of the orders with
	// one.
	CategoryLines bool
	// HourlyLastOrder: the customers' latest order may be left at the
	// start of its hour (LastInHour; AnalyticsCustomerLast makes it
	// exact for the rows that need it).
	HourlyLastOrder bool
}

// Sums are the order facts' aggregates over a span (base minor units).
type Sums struct {
	Orders     int64 // orders (not refunds)
	Items      int64 // items sold, less refunded ones
	OrderItems int64 // the orders' items
	Gross      int64 // totals less refunds
	Tax        int64
	Shipping   int64
	Discount   int64
	Net        int64
	OrderNet   int64 // the orders' net (refunds left out)
	RefundNet  int64 // the refunds' net (negative)
	Customers  int64 // distinct customers
	Coupons    int64 // distinct coupons used
	Products   int64 // distinct products sold (totals only)
}

// AddAdditive adds o's additive figures (the money and counts, not the
// distinct counts, which do not add up) to s.
func (s *Sums) AddAdditive(o Sums) {
	s.Orders += o.Orders
	s.Items += o.Items
	s.OrderItems += o.OrderItems
	s.Gross += o.Gross
	s.Tax += o.Tax
	s.Shipping += o.Shipping
	s.Discount += o.Discount
	s.Net += o.Net
	s.OrderNet += o.OrderNet
	s.RefundNet += o.RefundNet
}

// ItemRow is a product's (variation's, category's) figures.
type ItemRow struct {
	ID       int64 // product, variation or category id
	Parent   int64 // a variation's product
	Items    int64
	Net      int64
	Orders   int64
	Products int64 // a category's distinct products
	// The lines' WooCommerce product lookup sums (decision 0130): tax
	// (the shipping's share included), shipping, coupons, and the
	// refunded lines' net (negative).
	Tax, Shipping, Coupon, RefundNet int64
	Name                             string
	SKU                              string
	Stock                            string // stock status
	StockQty                         *int64
	LastDate                         int64
}

// CouponRow is a coupon's figures.
type CouponRow struct {
	CouponID int64
	Code     string
	Amount   int64
	Orders   int64
}

// CustomerRow is a customer's figures over the period.
type CustomerRow struct {
	Customer  string // 'u<id>' or 'g<email>'
	UserID    int64
	Name      string
	Email     string
	Username  string
	Orders    int64
	Spend     int64 // net revenue
	LastOrder int64
	First     string
	Last      string
	Country   string
	City      string
	State     string
	Postcode  string
	Created   int64
	// LastOrderID is the customer's latest order in the period (its
	// billing details name a guest).
	LastOrderID int64
	// LastInHour: LastOrder is the start of the hour of the latest
	// order, LastOrderID unknown (summed with HourlyLastOrder).
	LastInHour bool
	// No is the customer's number (analytics_names) when Customer is
	// not read yet (summed with HourlyLastOrder; AnalyticsCustomerLast
	// names the row).
	No int64
}

// OrderRow is one order of the orders report.
type OrderRow struct {
	OrderID   int64
	CreatedAt int64
	Status    string
	Customer  string
	Returning bool
	Items     int64
	Net       int64
	Gross     int64
}

// TaxRow is a tax rate's figures.
type TaxRow struct {
	RateID   int64
	Code     string
	Rate     string
	Total    int64
	Order    int64
	Shipping int64
	Orders   int64
}

// StockRow is a product's stock.
type StockRow struct {
	ID, Parent int64
	Name, SKU  string
	Status     string
	Quantity   *int64
	Manage     bool
}

// Store keeps and reads the facts (sqlstore/analytics.go).
type Store interface {
	// CatchUp recomputes the facts of up to max orders marked written
	// since their last computation; n is how many.
	AnalyticsCatchUp(ctx context.Context, c Converter, max int) (n int, err error)
	// OrderSums are the sums over [f.From, f.To) and over each span.
	AnalyticsOrderSums(ctx context.Context, f Filter, spans [][2]int64) (Sums, []Sums, error)
	// ItemSums are the lines' figures grouped by "product", "variation"
	// or "category".
	AnalyticsItemSums(ctx context.Context, f Filter, by string) ([]ItemRow, error)
	// TopItems are the products' and the categories' item sums for the
	// leaderboards (items sold and net sales; orders and dates may be
	// left zero).
	AnalyticsTopItems(ctx context.Context, f Filter) (products, categories []ItemRow, err error)
	AnalyticsCouponSums(ctx context.Context, f Filter) ([]CouponRow, error)
	AnalyticsCustomerSums(ctx context.Context, f Filter) ([]CustomerRow, error)
	// CustomerDetails adds the names and addresses to rows summed with
	// NoCustomerDetails.
	AnalyticsCustomerDetails(ctx context.Context, rows []CustomerRow) error
	// TopCustomers are the first n customers by total spend (descending;
	// ties by customer descending), with their details.
	AnalyticsTopCustomers(ctx context.Context, f Filter, n int) ([]CustomerRow, error)
	AnalyticsOrders(ctx context.Context, f Filter) ([]OrderRow, error)
	// TaxSums are the tax lines' sums by rate, and the distinct orders
	// with a tax line.
	AnalyticsTaxSums(ctx context.Context, f Filter) (rows []TaxRow, orders int64, err error)
	AnalyticsStock(ctx context.Context, status string) ([]StockRow, error)
	// ItemSegments are the item sums by "product", "variation" or
	// "category" over f's period and over each span (items, net and
	// distinct orders; names; no latest dates).
	AnalyticsItemSegments(ctx context.Context, f Filter, by string, spans [][2]int64) ([]ItemRow, [][]ItemRow, error)
	// SegmentIDs are the segments WooCommerce lists for by whether or
	// not they sold: the filter's products (variations, categories,
	// coupons) when q has one, else the catalogue's (the variations of
	// q's one product only).
	AnalyticsSegmentIDs(ctx context.Context, by string, q Query) ([]SegmentName, error)
	// CustomerLast names the rows summed without their name (No) and
	// sets the exact latest order of those with LastInHour (from the
	// facts of their latest hour).
	AnalyticsCustomerLast(ctx context.Context, f Filter, rows []CustomerRow) error
}

// Service answers the reports.
type Service struct {
	Store    Store
	Base     money.Currency
	Settings func() Settings
	Now      func() time.Time
	// Sessions counts the storefront's sessions, for the conversion rate
	// (conversion.go); nil: no rate.
	Sessions Sessions
}

func (s *Service) settings() Settings {
	if s.Settings == nil {
		return Settings{}
	}
	return s.Settings()
}

// Location is the shop's time zone.
func (s *Service) Location() *time.Location { return s.settings().Location() }

// ReportCatchUp bounds the orders a report recomputes before it answers:
// beyond it (a whole history marked by the migration) the server's
// backfill does the rest.
const ReportCatchUp = 20000

// CatchUp brings every order's facts up to date (before a report, and in
// the upkeep loop); it stops after max orders when max > 0.
func (s *Service) CatchUp(ctx context.Context, max int) (int, error) {
	total := 0
	for {
		n, err := s.Store.AnalyticsCatchUp(ctx, Converter{Base: s.Base}, 500)
		total += n
		if err != nil || n == 0 || (max > 0 && total >= max) {
			return total, err
		}
	}
}

// Period is q's range: after (default: the start of the day six days
// before now) to before (default: now), inclusive.
func (s *Service) Period(q Query) Period {
	loc := s.Location()
	now := clock.Now(s.Now).In(loc)
	p := Period{From: q.After, To: q.Before}
	if p.To.IsZero() {
		p.To = now
	}
	if p.From.IsZero() {
		y, m, d := p.To.Date()
		p.From = time.Date(y, m, d-6, 0, 0, 0, 0, loc)
	}
	p.From, p.To = p.From.In(loc), p.To.In(loc).Add(time.Second).Truncate(time.Second)
	return p
}

// Filter is q's filter over p.
func (s *Service) Filter(q Query, p Period) Filter {
	f := Filter{From: p.From.Unix(), To: p.To.Unix(), Products: q.Products, Variations: q.Variations,
		Categories: q.Categories, Coupons: q.Coupons, CustomerType: q.CustomerType}
	if len(q.StatusIs) > 0 {
		f.Statuses = slices.Clone(q.StatusIs)
	} else {
		ex := s.settings().Excluded()
		for _, st := range Statuses {
			if !slices.Contains(ex, st) {
				f.Statuses = append(f.Statuses, st)
			}
		}
	}
	f.Statuses = slices.DeleteFunc(f.Statuses, func(st string) bool { return slices.Contains(q.StatusIsNot, st) })
	if f.Statuses == nil {
		f.Statuses = []string{}
	}
	return f
}

// Figures are a stats report's figures (WooCommerce's names; amounts in
// the base currency's major units).
type Figures struct {
	OrdersCount      int64   `json:"orders_count"`
	NumItemsSold     int64   `json:"num_items_sold"`
	GrossSales       float64 `json:"gross_sales"`
	TotalSales       float64 `json:"total_sales"`
	Coupons          float64 `json:"coupons"`
	CouponsCount     int64   `json:"coupons_count"`
	Refunds          float64 `json:"refunds"`
	Taxes            float64 `json:"taxes"`
	Shipping         float64 `json:"shipping"`
	NetRevenue       float64 `json:"net_revenue"`
	AvgItemsPerOrder float64 `json:"avg_items_per_order"`
	AvgOrderValue    float64 `json:"avg_order_value"`
	TotalCustomers   int64   `json:"total_customers"`
	Products         int64   `json:"products"`

	// A route's own figures (RouteFields, RouteStats).
	ItemsSold        int64   `json:"items_sold"`
	ProductsCount    int64   `json:"products_count"`
	VariationsCount  int64   `json:"variations_count"`
	Amount           float64 `json:"amount"`
	TotalTax         float64 `json:"total_tax"`
	OrderTax         float64 `json:"order_tax"`
	ShippingTax      float64 `json:"shipping_tax"`
	TaxCodes         int64   `json:"tax_codes"`
	CustomersCount   int64   `json:"customers_count"`
	AvgOrdersCount   float64 `json:"avg_orders_count"`
	AvgTotalSpend    float64 `json:"avg_total_spend"`
	AvgAvgOrderValue float64 `json:"avg_avg_order_value"`
}

// Major is minor units of the base currency as a number of major units.
func (s *Service) Major(v int64) float64 {
	return float64(v) / math.Pow10(s.Base.MinorUnit)
}

// FiguresOf derives WooCommerce's figures from sums: total sales are the
// totals less refunds; refunds the refunds' net; net revenue the net of
// orders and refunds (total − tax − shipping); gross sales total sales +
// coupons − taxes − shipping + refunds; the averages over the orders
// (their own items and net, refunds left out).
func (s *Service) FiguresOf(m Sums) Figures {
	f := Figures{OrdersCount: m.Orders, NumItemsSold: m.Items, TotalSales: s.Major(m.Gross), Coupons: s.Major(m.Discount),
		CouponsCount: m.Coupons, Refunds: s.Major(-m.RefundNet), Taxes: s.Major(m.Tax), Shipping: s.Major(m.Shipping),
		NetRevenue: s.Major(m.Net), TotalCustomers: m.Customers, Products: m.Products}
	f.GrossSales = s.Major(m.Gross + m.Discount - m.Tax - m.Shipping - m.RefundNet)
	if m.Orders > 0 {
		f.AvgItemsPerOrder = math.Round(float64(m.OrderItems)/float64(m.Orders)*10000) / 10000
		f.AvgOrderValue = s.Major(m.OrderNet) / float64(m.Orders)
	}
	return f
}

// Interval is one interval of a stats report.
type Interval struct {
	Bucket
	Figures  Figures
	Segments []Segment // with segmentby
}

// Stats is a stats report.
type Stats struct {
	Period    Period
	Totals    Figures
	Segments  []Segment  // the totals' segments, with segmentby
	Intervals []Interval // the page asked for, in the order asked
	Total     int        // all intervals
}

// Stats computes the revenue (or orders) stats of q.
func (s *Service) Stats(ctx context.Context, q Query) (Stats, error) {
	return s.stats(ctx, q, nil)
}

// stats is Stats; pre, when not nil, sets a route's own figures of the
// totals and of every interval (figs, in the order of spans) before the
// intervals are ordered and paged (RouteStats, for an orderby other than
// the date).
func (s *Service) stats(ctx context.Context, q Query, pre func(f Filter, spans [][2]int64, figs []*Figures) error) (Stats, error) {
	if _, err := s.CatchUp(ctx, ReportCatchUp); err != nil {
		return Stats{}, err
	}
	p := s.Period(q)
	buckets, err := Buckets(p, q.Interval)
	if err != nil {
		return Stats{}, err
	}
	spans := make([][2]int64, len(buckets))
	for i, b := range buckets {
		spans[i] = [2]int64{b.Start.Unix(), b.End.Unix()}
	}
	f := s.Filter(q, p)
	tot, each, err := s.Store.AnalyticsOrderSums(ctx, f, spans)
	if err != nil {
		return Stats{}, err
	}
	out := Stats{Period: p, Totals: s.FiguresOf(tot), Total: len(buckets)}
	all := make([]Interval, len(buckets))
	for i, b := range buckets {
		all[i] = Interval{Bucket: b, Figures: s.FiguresOf(each[i])}
		all[i].Figures.Products = 0
	}
	if pre != nil {
		figs := []*Figures{&out.Totals}
		for i := range all {
			figs = append(figs, &all[i].Figures)
		}
		if err := pre(f, spans, figs); err != nil {
			return Stats{}, err
		}
	}
	if q.Order != "asc" {
		slices.Reverse(all)
	}
	if q.OrderBy != "" && q.OrderBy != "date" {
		key := func(f Figures) float64 { return f.Figure(q.OrderBy) }
		sort.SliceStable(all, func(i, j int) bool {
			if q.Order == "asc" {
				return key(all[i].Figures) < key(all[j].Figures)
			}
			return key(all[i].Figures) > key(all[j].Figures)
		})
	}
	out.Intervals = page(all, q.Page, q.PerPage)
	// The segments of the totals and of the page's intervals only (an
	// hourly quarter by product would be millions). The taxes stats'
	// segments by rate are RouteStats' (from the tax sums it reads).
	if q.SegmentBy != "" && q.SegmentBy != "tax_rate_id" {
		at := make(map[int64]int, len(spans))
		for i, sp := range spans {
			at[sp[0]] = i
		}
		shown := make([]int, len(out.Intervals))
		for i, iv := range out.Intervals {
			shown[i] = at[iv.Start.Unix()]
		}
		segTot, segEach, err := s.segments(ctx, q, f, spans, shown)
		if err != nil {
			return Stats{}, err
		}
		out.Segments = segTot
		for i := range out.Intervals {
			out.Intervals[i].Segments = segEach[i]
		}
	}
	return out, nil
}

// Figure is f's figure named by its WooCommerce Admin field name
// ("net_revenue", "orders_count"…; 0 for an unknown name).
func (f Figures) Figure(name string) float64 {
	switch name {
	case "orders_count":
		return float64(f.OrdersCount)
	case "num_items_sold":
		return float64(f.NumItemsSold)
	case "items_sold":
		return float64(f.ItemsSold)
	case "products_count":
		return float64(f.ProductsCount)
	case "variations_count":
		return float64(f.VariationsCount)
	case "amount":
		return f.Amount
	case "total_tax":
		return f.TotalTax
	case "order_tax":
		return f.OrderTax
	case "shipping_tax":
		return f.ShippingTax
	case "tax_codes":
		return float64(f.TaxCodes)
	case "customers_count":
		return float64(f.CustomersCount)
	case "avg_orders_count":
		return f.AvgOrdersCount
	case "avg_total_spend":
		return f.AvgTotalSpend
	case "avg_avg_order_value":
		return f.AvgAvgOrderValue
	case "gross_sales":
		return f.GrossSales
	case "total_sales":
		return f.TotalSales
	case "coupons":
		return f.Coupons
	case "coupons_count":
		return float64(f.CouponsCount)
	case "refunds":
		return f.Refunds
	case "taxes":
		return f.Taxes
	case "shipping":
		return f.Shipping
	case "net_revenue":
		return f.NetRevenue
	case "avg_items_per_order":
		return f.AvgItemsPerOrder
	case "avg_order_value":
		return f.AvgOrderValue
	case "total_customers":
		return float64(f.TotalCustomers)
	case "products":
		return float64(f.Products)
	}
	return 0
}

// page is the page of all (1 up, per rows a page); per 0 is all of it.
func page[T any](all []T, pg, per int) []T {
	if per <= 0 {
		return all
	}
	from := (pg - 1) * per
	if from >= len(all) {
		return []T{}
	}
	return all[from:min(len(all), from+per)]
}

// Page is a list's page and its size.
func Page[T any](all []T, q Query) ([]T, int) { return page(all, q.Page, q.PerPage), len(all) }
