package analytics

import (
	"context"
	"slices"
)

// RouteFields are the fields each stats route answers beyond the revenue
// figures (Figures' first fields, which every route keeps for the
// admin's screens): WooCommerce Admin's own fields of that route
// (decision 0129). WooCommerce has no categories stats route: ours adds
// the items sold its products report reads.
var RouteFields = map[string][]string{
	"revenue":    {},
	"orders":     {},
	"products":   {"items_sold", "products_count", "variations_count"},
	"variations": {"items_sold", "variations_count"},
	"categories": {"items_sold"},
	"coupons":    {"amount"},
	"taxes":      {"total_tax", "order_tax", "shipping_tax", "tax_codes"},
	"customers":  {"customers_count", "avg_orders_count", "avg_total_spend", "avg_avg_order_value"},
}

// RouteStats is report's stats route: Stats, then the route's own
// figures (RouteFields) over the period and over the intervals shown
// (not every interval of the period), with WooCommerce's meaning:
//
//   - products, variations, categories: items_sold and net_revenue are
//     the sums of the lines of the filtered products (variations,
//     categories), not of their whole orders; products_count and
//     variations_count the distinct ones sold;
//   - coupons: amount is the coupons' discount, orders_count the orders
//     with a coupon (of the filter's), coupons_count the coupons used;
//   - taxes: total_tax, order_tax and shipping_tax the tax sums of the
//     taxes report, tax_codes its distinct rates, orders_count the
//     distinct orders with a tax line (WooCommerce's); by tax_rate_id, a
//     segment per rate (taxSegments);
//   - customers: customers_count the customers with orders in the span,
//     avg_orders_count, avg_total_spend and avg_avg_order_value the means
//     of the customers report's orders_count, total_spend and
//     avg_order_value.
func (s *Service) RouteStats(ctx context.Context, report string, q Query) (Stats, error) {
	// Ordered by a figure other than the date, every interval's route
	// figures first (the route's own may be the one ordered by, or take
	// the place of a revenue figure of the same name).
	var pre func(f Filter, spans [][2]int64, figs []*Figures) error
	if q.OrderBy != "" && q.OrderBy != "date" && len(RouteFields[report]) > 0 {
		pre = func(f Filter, spans [][2]int64, figs []*Figures) error {
			_, err := s.routeFigures(ctx, report, q, f, spans, figs)
			return err
		}
	}
	st, err := s.stats(ctx, q, pre)
	if err != nil {
		return Stats{}, err
	}
	f := s.Filter(q, st.Period)
	spans := make([][2]int64, len(st.Intervals))
	for i, iv := range st.Intervals {
		spans[i] = [2]int64{iv.Start.Unix(), iv.End.Unix()}
	}
	figs := make([]*Figures, len(st.Intervals)+1) // the totals, then the intervals shown
	figs[0] = &st.Totals
	for i := range st.Intervals {
		figs[i+1] = &st.Intervals[i].Figures
	}
	// The figures of the intervals shown (already set when ordered by a
	// figure, but for the tax rates' rows of the segments).
	var taxRows [][]TaxRow
	if pre == nil || q.SegmentBy == "tax_rate_id" {
		if taxRows, err = s.routeFigures(ctx, report, q, f, spans, figs); err != nil {
			return Stats{}, err
		}
	}
	segs := func(fn func(f *Figures)) {
		for i := range st.Segments {
			fn(&st.Segments[i].Figures)
		}
		for _, iv := range st.Intervals {
			for i := range iv.Segments {
				fn(&iv.Segments[i].Figures)
			}
		}
	}
	switch report {
	case "products", "variations", "categories":
		segs(func(f *Figures) { f.ItemsSold = f.NumItemsSold })
	case "coupons":
		// A coupon (order-level) segment's amount is its orders' discount;
		// an item segment's its lines' coupon discount (decision 0130).
		segs(func(f *Figures) { f.Amount = f.Coupons })
	case "taxes":
		if q.SegmentBy == "tax_rate_id" {
			s.taxSegments(taxRows, &st)
		}
	}
	return st, nil
}

// routeFigures sets report's own figures of figs: the totals (f's
// period), then the intervals spans; the taxes' rows of each (taxes
// only).
func (s *Service) routeFigures(ctx context.Context, report string, q Query, f Filter, spans [][2]int64, figs []*Figures) ([][]TaxRow, error) {
	switch report {
	case "products", "variations", "categories":
		return nil, s.itemRouteFigures(ctx, report, q, f, spans, figs)
	case "coupons":
		return nil, s.couponRouteFigures(ctx, q, f, spans, figs)
	case "taxes":
		perFig := make([][]TaxRow, len(figs))
		for i, fp := range figs {
			fs := f
			if i > 0 {
				fs.From, fs.To = spans[i-1][0], spans[i-1][1]
			}
			rows, orders, err := s.Store.AnalyticsTaxSums(ctx, fs)
			if err != nil {
				return nil, err
			}
			perFig[i] = rows
			var tot, order, ship int64
			rates := map[int64]bool{}
			for _, r := range rows {
				tot, order, ship = tot+r.Total, order+r.Order, ship+r.Shipping
				rates[r.RateID] = true
			}
			fp.TotalTax, fp.OrderTax, fp.ShippingTax, fp.TaxCodes = s.Major(tot), s.Major(order), s.Major(ship), int64(len(rates))
			fp.OrdersCount = orders
		}
		return perFig, nil
	case "customers":
		for i, fp := range figs {
			fs := f
			if i > 0 {
				fs.From, fs.To = spans[i-1][0], spans[i-1][1]
			}
			fs.NoCustomerDetails, fs.HourlyLastOrder = true, true
			rows, err := s.Store.AnalyticsCustomerSums(ctx, fs)
			if err != nil {
				return nil, err
			}
			fp.CustomersCount = int64(len(rows))
			fp.AvgOrdersCount, fp.AvgTotalSpend, fp.AvgAvgOrderValue = 0, 0, 0
			if len(rows) == 0 {
				continue
			}
			var orders, spend, avg float64
			for _, r := range rows {
				orders += float64(r.Orders)
				spend += s.Major(r.Spend)
				if r.Orders > 0 {
					avg += s.Major(r.Spend) / float64(r.Orders)
				}
			}
			n := float64(len(rows))
			fp.AvgOrdersCount, fp.AvgTotalSpend, fp.AvgAvgOrderValue = orders/n, spend/n, avg/n
		}
	}
	return nil, nil
}

// itemRouteFigures sets the products (variations, categories) stats'
// line figures: items sold and net revenue of the filtered lines, the
// distinct products and variations sold.
func (s *Service) itemRouteFigures(ctx context.Context, report string, q Query, f Filter, spans [][2]int64, figs []*Figures) error {
	by := map[string]string{"products": "product", "variations": "variation", "categories": "product"}[report]
	if report == "categories" && len(q.Categories) > 0 {
		by = "category" // the filtered categories' lines
	}
	keep := func(r ItemRow) bool {
		switch by {
		case "product":
			return len(q.Products) == 0 || slices.Contains(q.Products, r.ID)
		case "variation":
			return (len(q.Variations) == 0 || slices.Contains(q.Variations, r.ID)) &&
				(len(q.Products) == 0 || slices.Contains(q.Products, r.Parent))
		}
		return slices.Contains(q.Categories, r.ID)
	}
	sum := func(fp *Figures, rows []ItemRow) {
		var items, net, n int64
		for _, r := range rows {
			if keep(r) {
				items, net, n = items+r.Items, net+r.Net, n+1
			}
		}
		fp.ItemsSold, fp.NetRevenue = items, s.Major(net)
		switch by {
		case "product":
			fp.ProductsCount = n
		case "variation":
			fp.VariationsCount = n
		}
	}
	f.CategoryLines = true // the filtered categories' products' lines only
	t, e, err := s.Store.AnalyticsItemSegments(ctx, f, by, spans)
	if err != nil {
		return err
	}
	sum(figs[0], t)
	for i := range e {
		sum(figs[i+1], e[i])
	}
	if report == "products" { // the distinct variations sold too
		t, e, err := s.Store.AnalyticsItemSegments(ctx, f, "variation", spans)
		if err != nil {
			return err
		}
		count := func(fp *Figures, rows []ItemRow) {
			fp.VariationsCount = 0
			for _, r := range rows {
				if r.ID != 0 && (len(q.Products) == 0 || slices.Contains(q.Products, r.Parent)) {
					fp.VariationsCount++
				}
			}
		}
		count(figs[0], t)
		for i := range e {
			count(figs[i+1], e[i])
		}
	}
	return nil
}

// couponRouteFigures sets the coupons stats' figures: the discount of
// the coupons used (of the filter's), and the orders with one of them.
func (s *Service) couponRouteFigures(ctx context.Context, q Query, f Filter, spans [][2]int64, figs []*Figures) error {
	cs, err := s.Store.AnalyticsCouponSums(ctx, f)
	if err != nil {
		return err
	}
	var ids []int64
	var amount int64
	for _, c := range cs {
		if len(q.Coupons) == 0 || slices.Contains(q.Coupons, c.CouponID) {
			ids = append(ids, c.CouponID)
			amount += c.Amount
		}
	}
	for _, fp := range figs {
		fp.Amount, fp.OrdersCount, fp.CouponsCount = 0, 0, 0
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	fc := f
	fc.Coupons = ids
	tot, each, err := s.Store.AnalyticsOrderSums(ctx, fc, spans)
	if err != nil {
		return err
	}
	figs[0].Amount, figs[0].OrdersCount, figs[0].CouponsCount = s.Major(amount), tot.Orders, int64(len(ids))
	for i := range each {
		figs[i+1].Amount, figs[i+1].OrdersCount, figs[i+1].CouponsCount = s.Major(each[i].Discount), each[i].Orders, each[i].Coupons
	}
	return nil
}

// taxSegments sets the taxes stats' segments by tax_rate_id from the
// rates' sums of the period (perFig[0]) and of each interval shown:
// WooCommerce's subtotals of a rate (total_tax, order_tax, shipping_tax,
// tax_codes, its distinct orders), the revenue figures 0 (the tax lines
// are not split into them); a segment for every rate with a tax line in
// the period, labelled with its code, in id order, zeros where an
// interval has none. WooCommerce also lists the shop's rates that taxed
// nothing: their figures would be zeros.
func (s *Service) taxSegments(perFig [][]TaxRow, st *Stats) {
	fig := func(rows []TaxRow) map[int64]Figures {
		m := map[int64]Figures{}
		for _, r := range rows {
			f := m[r.RateID]
			f.TotalTax += s.Major(r.Total)
			f.OrderTax += s.Major(r.Order)
			f.ShippingTax += s.Major(r.Shipping)
			f.OrdersCount += r.Orders // a rate's rows differ by label only
			f.TaxCodes = 1
			m[r.RateID] = f
		}
		return m
	}
	labels := map[int64]string{}
	var ids []int64
	for _, r := range perFig[0] {
		if _, ok := labels[r.RateID]; !ok {
			ids = append(ids, r.RateID)
			labels[r.RateID] = r.Code
		}
	}
	slices.Sort(ids)
	st.Segments = segmentList(ids, labels, fig(perFig[0]))
	for i := range st.Intervals {
		st.Intervals[i].Segments = segmentList(ids, labels, fig(perFig[i+1]))
	}
}
