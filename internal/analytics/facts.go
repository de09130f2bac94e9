// Package analytics is the shop's analytics (WooCommerce Admin's
// Analytics): revenue, orders, products, variations, categories, coupons,
// taxes, stock and customers over a period, by hour, day, week, month,
// quarter or year in the shop's time zone, with the performance indicators
// and leaderboards of the dashboard.
//
// Every order is kept as facts (Facts): one row per order and per
// completed refund (negative), one per line and refunded line, one per
// coupon used, amounts converted to the shop's base currency at the rate
// stored with the order. The store keeps them in step with the orders
// (a trigger marks a written order in its own transaction; CatchUp
// recomputes the marked orders' facts before each report), so a report
// reads only the facts of its period (decision 0111). The money rules
// (what counts, net revenue, days) are decision 0112.
package analytics

import (
	"math/big"
	"sort"

	"vitrine/internal/currency"
	"vitrine/internal/money"
)

// Source is an order as the facts are computed from it (amounts in minor
// units of the order's Currency).
type Source struct {
	OrderID   int64
	Status    string
	CreatedAt int64 // unix seconds
	Customer  string
	Returning bool
	Currency  string
	Rate      string // units of Currency for one unit of the base currency
	Total     int64
	Tax       int64 // all tax, shipping's included
	Shipping  int64 // shipping without its tax
	// ShippingTax is the shipping's tax (part of Tax).
	ShippingTax int64
	Discount    int64
	Lines       []SourceLine
	Refunds     []SourceRefund // completed refunds
	Coupons     []SourceCoupon
}

// SourceLine is an order line.
type SourceLine struct {
	Position               int
	ProductID, VariationID int64
	Quantity               int64
	Total, Tax             int64 // after discounts
	Subtotal               int64 // before discounts, without tax
}

// SourceRefund is a completed refund.
type SourceRefund struct {
	ID        int64
	CreatedAt int64
	Amount    int64
	Lines     []RefundLine
}

// RefundLine is a refunded line: its position, quantity and amount.
type RefundLine struct {
	Line     int
	Quantity int64
	Total    int64
}

// SourceCoupon is a coupon the order used.
type SourceCoupon struct {
	Position int
	CouponID int64
	Code     string
	Discount int64
}

// OrderFact is one row per order (RefundID 0) or refund.
type OrderFact struct {
	OrderID, RefundID  int64
	CreatedAt          int64
	Status, Customer   string
	Returning          bool
	Currency, Rate     string
	Items              int64
	Gross, Tax         int64
	Shipping, Discount int64
	Net                int64 // Gross - Tax - Shipping
}

// LineFact is a line or a refunded line, with WooCommerce's product
// lookup figures (decision 0130): Tax is the line's own tax; Shipping
// and ShippingTax its share of the order's, by quantity; Coupon its
// discount (subtotal less total). A refunded line is negative and carries
// its own net and tax only.
type LineFact struct {
	OrderID, RefundID      int64
	Position               int
	CreatedAt              int64
	Status                 string
	ProductID, VariationID int64
	Quantity, Net          int64
	Tax, ShippingTax       int64
	Shipping, Coupon       int64
}

// Gross is the line's gross revenue: net, its tax, its shipping and the
// shipping's tax.
func (l LineFact) Gross() int64 { return l.Net + l.Tax + l.Shipping + l.ShippingTax }

// CouponFact is a coupon used.
type CouponFact struct {
	OrderID   int64
	Position  int
	CreatedAt int64
	Status    string
	CouponID  int64
	Code      string
	Discount  int64
}

// Facts are an order's rows, amounts in the base currency.
type Facts struct {
	Orders  []OrderFact
	Lines   []LineFact
	Coupons []CouponFact
}

// Converter turns an order's amounts into the base currency.
type Converter struct {
	Base money.Currency
}

// factor is the exact multiplier from minor units of code at rate to
// minor units of the base; an unknown currency or a bad rate counts as
// the base's own (rate 1, same decimals).
func (c Converter) factor(code, rate string) *big.Rat {
	f := big.NewRat(1, 1)
	if code == "" || code == c.Base.Code {
		return f
	}
	if r, err := currency.ParseRate(rate); err == nil {
		f.Quo(f, r.Rat())
	}
	dec := c.Base.MinorUnit
	if cur, ok := money.Lookup(code); ok {
		dec = cur.MinorUnit
	}
	for d := dec; d < c.Base.MinorUnit; d++ {
		f.Mul(f, big.NewRat(10, 1))
	}
	for d := c.Base.MinorUnit; d < dec; d++ {
		f.Quo(f, big.NewRat(10, 1))
	}
	return f
}

// round is x rounded half away from zero.
func round(x *big.Rat) int64 {
	n, d := new(big.Int).Set(x.Num()), x.Denom()
	neg := n.Sign() < 0
	n.Abs(n)
	n.Mul(n, big.NewInt(2))
	n.Add(n, d)
	n.Quo(n, new(big.Int).Mul(d, big.NewInt(2)))
	if neg {
		n.Neg(n)
	}
	return n.Int64()
}

func scale(v int64, f *big.Rat) int64 {
	return round(new(big.Rat).Mul(big.NewRat(v, 1), f))
}

// share is part × num / den rounded (0 when den is 0).
func share(part, num, den int64) int64 {
	if den == 0 {
		return 0
	}
	return round(new(big.Rat).Mul(big.NewRat(part, 1), big.NewRat(num, den)))
}

// Facts computes s's rows. A refund takes the order's tax and shipping in
// proportion to its amount (rounded on the running sum, so refunding the
// whole order takes exactly all of them); a refunded line takes its own
// tax in proportion (no shipping: the refund's own row carries it). Each
// amount is converted on its own and net is what is left, so gross = net
// + tax + shipping holds in the base currency. A line's shipping and its
// tax are the order's split by quantity (decision 0130).
func (c Converter) Facts(s Source) Facts {
	f := c.factor(s.Currency, s.Rate)
	var out Facts
	var items, linesTax int64
	lines := map[int]SourceLine{}
	for _, l := range s.Lines {
		items += l.Quantity
		linesTax += l.Tax
		lines[l.Position] = l
	}
	gross, tax, ship := scale(s.Total, f), scale(s.Tax, f), scale(s.Shipping, f)
	// The shipping and its tax are split over the lines by quantity
	// (WooCommerce's rule), in the base currency and rounded on the
	// running sum, so the lines' shares add up to the order's exactly;
	// the shipping's tax is what is left of the lines' and shipping's
	// tax once each line's own is converted, so the lines' taxes add up
	// to the order's too (when it has no taxed fee).
	var baseLinesTax int64
	for _, l := range s.Lines {
		baseLinesTax += scale(l.Tax, f)
	}
	shipTax := scale(linesTax+s.ShippingTax, f) - baseLinesTax
	var cumQty, lineShip, lineShipTax int64
	for _, l := range s.Lines {
		cumQty += l.Quantity
		sh, st := share(ship, cumQty, items)-lineShip, share(shipTax, cumQty, items)-lineShipTax
		lineShip, lineShipTax = lineShip+sh, lineShipTax+st
		out.Lines = append(out.Lines, LineFact{OrderID: s.OrderID, Position: l.Position, CreatedAt: s.CreatedAt, Status: s.Status,
			ProductID: l.ProductID, VariationID: l.VariationID, Quantity: l.Quantity, Net: scale(l.Total, f),
			Tax: scale(l.Tax, f), Shipping: sh, ShippingTax: st, Coupon: scale(max(l.Subtotal-l.Total, 0), f)})
	}
	out.Orders = append(out.Orders, OrderFact{OrderID: s.OrderID, CreatedAt: s.CreatedAt, Status: s.Status, Customer: s.Customer,
		Returning: s.Returning, Currency: s.Currency, Rate: s.Rate, Items: items, Gross: gross, Tax: tax, Shipping: ship,
		Discount: scale(s.Discount, f), Net: gross - tax - ship})
	refunds := append([]SourceRefund(nil), s.Refunds...)
	sort.Slice(refunds, func(i, j int) bool {
		if refunds[i].CreatedAt != refunds[j].CreatedAt {
			return refunds[i].CreatedAt < refunds[j].CreatedAt
		}
		return refunds[i].ID < refunds[j].ID
	})
	var cum, taxDone, shipDone int64
	for _, r := range refunds {
		cum += r.Amount
		t := share(cum, s.Tax, s.Total) - taxDone
		sh := share(cum, s.Shipping, s.Total) - shipDone
		taxDone += t
		shipDone += sh
		g, tb, sb := scale(r.Amount, f), scale(t, f), scale(sh, f)
		var qty int64
		for i, rl := range r.Lines {
			l := lines[rl.Line]
			net := rl.Total
			if l.Total+l.Tax != 0 {
				net = share(rl.Total, l.Total, l.Total+l.Tax)
			}
			qty += rl.Quantity
			out.Lines = append(out.Lines, LineFact{OrderID: s.OrderID, RefundID: r.ID, Position: i, CreatedAt: r.CreatedAt, Status: s.Status,
				ProductID: l.ProductID, VariationID: l.VariationID, Quantity: -rl.Quantity, Net: -scale(net, f),
				Tax: -(scale(rl.Total, f) - scale(net, f))})
		}
		out.Orders = append(out.Orders, OrderFact{OrderID: s.OrderID, RefundID: r.ID, CreatedAt: r.CreatedAt, Status: s.Status,
			Customer: s.Customer, Returning: s.Returning, Currency: s.Currency, Rate: s.Rate, Items: -qty,
			Gross: -g, Tax: -tb, Shipping: -sb, Net: -(g - tb - sb)})
	}
	for _, cp := range s.Coupons {
		out.Coupons = append(out.Coupons, CouponFact{OrderID: s.OrderID, Position: cp.Position, CreatedAt: s.CreatedAt, Status: s.Status,
			CouponID: cp.CouponID, Code: cp.Code, Discount: scale(cp.Discount, f)})
	}
	return out
}
