package analytics

import (
	"context"
	"math"
	"slices"
	"strings"
)

// SegmentBys are the segmentby values each stats report takes, as
// WooCommerce Admin's (decision 0125): the revenue and orders stats by
// product, category, variation, coupon or customer type; the products,
// variations and categories stats by product, category or variation; the
// coupons stats by product, variation, category or coupon; the taxes
// stats by tax rate (RouteStats' own: taxSegments); the customers stats
// by none.
var SegmentBys = map[string][]string{
	"revenue":    {"product", "category", "variation", "coupon", "customer_type"},
	"orders":     {"product", "category", "variation", "coupon", "customer_type"},
	"products":   {"product", "category", "variation"},
	"variations": {"product", "category", "variation"},
	"categories": {"product", "category", "variation"},
	"coupons":    {"product", "variation", "category", "coupon"},
	"taxes":      {"tax_rate_id"},
	"customers":  {},
}

// CheckSegmentBy refuses q's segmentby when report does not take it.
func CheckSegmentBy(report string, q Query) error {
	if q.SegmentBy == "" || slices.Contains(SegmentBys[report], q.SegmentBy) {
		return nil
	}
	if len(SegmentBys[report]) == 0 {
		return &InputError{"segmentby", "This report cannot be segmented."}
	}
	return &InputError{"segmentby", "segmentby is not one of " + strings.Join(SegmentBys[report], ", ") + "."}
}

// Segment is one segment of a stats report's totals or interval.
type Segment struct {
	ID      int64
	Label   string
	Figures Figures
}

// SegmentName is a segment's id and label (a product's, variation's or
// category's name, a coupon's code).
type SegmentName struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

// CustomerTypeSegments are the customer_type segments' ids and labels,
// as WooCommerce numbers them (0 new, 1 returning).
var CustomerTypeSegments = []SegmentName{{0, "New"}, {1, "Returning"}}

// segments are the segments of the period (f) and of the spans shown
// (indexes of spans, which cover the period in order), by q.SegmentBy;
// nil when q has none. Which segments: those with figures
// in the period, and those WooCommerce lists whether or not they sold
// (the filter's products, variations, categories or coupons when
// given, else the catalogue's; the customer types), each with zeros
// where it has none, in id order.
func (s *Service) segments(ctx context.Context, q Query, f Filter, spans [][2]int64, shown []int) ([]Segment, [][]Segment, error) {
	by := q.SegmentBy
	if by == "" {
		return nil, nil, nil
	}
	names := map[int64]string{}
	tot := map[int64]Figures{}
	each := make([]map[int64]Figures, len(shown)) // per span shown
	for i := range each {
		each[i] = map[int64]Figures{}
	}
	switch by {
	case "product", "variation", "category":
		// Each span shown read as a period of its own.
		ownSpans := make([][2]int64, len(shown))
		for i, j := range shown {
			ownSpans[i] = spans[j]
		}
		t, e, err := s.Store.AnalyticsItemSegments(ctx, f, by, ownSpans)
		if err != nil {
			return nil, nil, err
		}
		own := map[string][]int64{"product": q.Products, "variation": q.Variations, "category": q.Categories}[by]
		put := func(m map[int64]Figures, rows []ItemRow) {
			for _, r := range rows {
				if len(own) > 0 && !slices.Contains(own, r.ID) {
					continue
				}
				if by == "variation" && len(q.Products) > 0 && !slices.Contains(q.Products, r.Parent) {
					continue // the filtered products' variations only
				}
				m[r.ID] = s.itemFigures(r)
				if r.Name != "" {
					names[r.ID] = r.Name
				}
			}
		}
		put(tot, t)
		for i := range e {
			put(each[i], e[i])
		}
	case "coupon":
		cs, err := s.Store.AnalyticsCouponSums(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		ids := map[int64]bool{}
		for _, c := range cs {
			if len(q.Coupons) == 0 || slices.Contains(q.Coupons, c.CouponID) {
				ids[c.CouponID] = true
				names[c.CouponID] = c.Code
			}
		}
		for id := range ids {
			fc := f
			fc.Coupons = []int64{id}
			t, e, err := s.Store.AnalyticsOrderSums(ctx, fc, spans)
			if err != nil {
				return nil, nil, err
			}
			tot[id] = s.segmentFigures(t)
			for i, j := range shown {
				if e[j] != (Sums{}) {
					each[i][id] = s.segmentFigures(e[j])
				}
			}
		}
	case "customer_type":
		for _, seg := range CustomerTypeSegments {
			ct := map[int64]string{0: "new", 1: "returning"}[seg.ID]
			if q.CustomerType != "" && q.CustomerType != ct {
				continue
			}
			fc := f
			fc.CustomerType = ct
			t, e, err := s.Store.AnalyticsOrderSums(ctx, fc, spans)
			if err != nil {
				return nil, nil, err
			}
			tot[seg.ID] = s.segmentFigures(t)
			for i, j := range shown {
				each[i][seg.ID] = s.segmentFigures(e[j])
			}
		}
	default:
		return nil, nil, &InputError{"segmentby", "segmentby is not one of product, category, variation, coupon, customer_type."}
	}
	// The segments listed whether or not they have figures.
	var listed []SegmentName
	switch by {
	case "customer_type":
		listed = CustomerTypeSegments
	default:
		var err error
		if listed, err = s.Store.AnalyticsSegmentIDs(ctx, by, q); err != nil {
			return nil, nil, err
		}
	}
	ids := map[int64]bool{}
	for id := range tot {
		ids[id] = true
	}
	for _, l := range listed {
		ids[l.ID] = true
		if names[l.ID] == "" {
			names[l.ID] = l.Name
		}
	}
	order := make([]int64, 0, len(ids))
	for id := range ids {
		order = append(order, id)
	}
	slices.Sort(order)
	perSpan := make([][]Segment, len(shown))
	for i := range shown {
		perSpan[i] = segmentList(order, names, each[i])
	}
	return segmentList(order, names, tot), perSpan, nil
}

// segmentList is the segments ids (in order) named by names, with their
// figures in m (zeros where m has none).
func segmentList(ids []int64, names map[int64]string, m map[int64]Figures) []Segment {
	out := make([]Segment, len(ids))
	for i, id := range ids {
		out[i] = Segment{ID: id, Label: names[id], Figures: m[id]}
	}
	return out
}

// segmentFigures are an order-level segment's figures (those of its
// orders, as the stats'; no distinct products, as the intervals').
func (s *Service) segmentFigures(m Sums) Figures {
	f := s.FiguresOf(m)
	f.Products = 0
	return f
}

// itemFigures are a product's, variation's or category's segment
// figures from its lines' product lookup sums (decision 0130), as the
// order-level figures are derived from the orders' (FiguresOf): total
// sales the lines' gross (net, tax, shipping and its tax); taxes the
// lines' tax with their share of the shipping's; shipping their share;
// coupons their discount; refunds the refunded lines' net; net revenue
// the lines' net; gross sales from those as the totals'. The orders are
// the distinct orders of its lines, the averages over them; customers
// are not counted per line (0).
func (s *Service) itemFigures(r ItemRow) Figures {
	f := s.FiguresOf(Sums{Items: r.Items, Gross: r.Net + r.Tax + r.Shipping, Tax: r.Tax, Shipping: r.Shipping, Discount: r.Coupon,
		Net: r.Net, RefundNet: r.RefundNet})
	f.OrdersCount = r.Orders
	if r.Orders > 0 {
		f.AvgItemsPerOrder = math.Round(float64(r.Items)/float64(r.Orders)*10000) / 10000
		f.AvgOrderValue = s.Major(r.Net) / float64(r.Orders)
	}
	return f
}
