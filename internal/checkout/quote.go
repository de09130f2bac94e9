package checkout

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/coupon"
)

// Item is one priced cart line as Quote sees it. UnitPrice is the
// catalogue's price as entered (including tax when the shop enters prices
// with tax), in minor units.
type Item struct {
	Key       string
	Name      string
	Quantity  int64
	UnitPrice int64
	// Taxable is false for products whose tax status is "none" (or
	// "shipping": only their shipping is taxed).
	Taxable bool
	// What the line sells, for coupons' restrictions: the product (the
	// parent of a variation), the variation, the product's categories.
	ProductID   int64
	VariationID int64
	CategoryIDs []int64
}

// couponLine is the item as coupon rules see it.
func (it Item) couponLine() coupon.Line {
	return coupon.Line{Name: it.Name, ProductID: it.ProductID, VariationID: it.VariationID, CategoryIDs: it.CategoryIDs,
		Amount: it.UnitPrice * it.Quantity}
}

// Limits that keep every product and sum far from int64 overflow.
const (
	MaxUnitPrice = 1_000_000_000 // minor units
	MaxQuantity  = 9999
	MaxLines     = cart.MaxLines // the cart's own bound
	maxRate      = 100_000       // 100 %
)

// ErrLimits is returned for items outside the limits above.
var ErrLimits = errors.New("checkout: a line's price or quantity is out of bounds")

// Customer is what Quote needs of the shopper: the addresses, the chosen
// shipping rate and the coupons applied (checked already, in application
// order, their fixed amounts in the quote's currency).
type Customer struct {
	Billing  Address
	Shipping Address
	RateID   string
	Coupons  []*coupon.Coupon
}

// Rate is one shipping rate offered for a package.
type Rate struct {
	ID         string `json:"rate_id"`
	MethodID   string `json:"method_id"`
	InstanceID int    `json:"instance_id"`
	Name       string `json:"name"`
	Cost       int64  `json:"cost"`  // excluding tax
	Taxes      int64  `json:"taxes"` // shipping tax for this rate
	Selected   bool   `json:"selected"`
	taxBy      []rateAmount
}

// Package is one shipment: every item, to one destination.
type Package struct {
	ID          int
	Name        string
	Destination Address
	Items       []string // item keys
	Rates       []Rate
}

// LineAmounts are one line's totals in minor units, excluding tax:
// Subtotal before discounts, Total after (SubtotalTax and TotalTax are
// their taxes).
type LineAmounts struct {
	Subtotal    int64
	SubtotalTax int64
	Total       int64
	TotalTax    int64
}

// TaxLine is one tax rate's total over the order.
type TaxLine struct {
	RateID      int    `json:"rate_id"`
	Label       string `json:"label"`
	Rate        string `json:"rate"` // "7.25%"
	ItemsTax    int64  `json:"tax_total"`
	ShippingTax int64  `json:"shipping_tax_total"`
}

// Amount is the rate's tax on items and shipping.
func (t TaxLine) Amount() int64 { return t.ItemsTax + t.ShippingTax }

// Quotation is everything the cart and an order need to show and charge.
type Quotation struct {
	Lines         []LineAmounts // aligned with the items
	Packages      []Package
	NeedsShipping bool
	// Selected is the chosen rate (nil when there is no rate).
	Selected *Rate
	// TaxLocation is the address taxes were computed for.
	TaxLocation      Location
	PricesIncludeTax bool

	ItemsSubtotal    int64 // Σ line subtotals, excluding tax, before discounts
	ItemsSubtotalTax int64 // their tax, before discounts
	// Discount is what coupons take off, excluding tax (Σ line subtotal −
	// line total); DiscountTax the tax it takes off with it.
	Discount    int64
	DiscountTax int64
	// Coupons are the coupons applied, in order, with their discounts.
	Coupons     []CouponAmount
	ItemsTax    int64 // tax on the items after discounts (Σ line total tax)
	Shipping    int64 // excluding tax
	ShippingTax int64
	TotalTax    int64
	Total       int64
	TaxLines    []TaxLine
	// FreeShipping is how far the cart is from the zone's free shipping
	// (nil: the destination's zone has no free-shipping minimum).
	FreeShipping *FreeShippingProgress
}

// FreeShippingProgress compares the cart with the lowest free-shipping
// minimum of the destination's zone, by the rule that offers the rate:
// Amount is the items' prices as entered (with tax when prices are entered
// with tax), after coupons, before shipping. Both are in the quote's
// currency (the minimum converted by Config.In).
type FreeShippingProgress struct {
	MinAmount int64
	Amount    int64
}

// Reached reports whether free shipping is offered.
func (f FreeShippingProgress) Reached() bool { return f.Amount >= f.MinAmount }

// Remaining is what the items must still be worth for free shipping (0
// once reached).
func (f FreeShippingProgress) Remaining() int64 { return max(0, f.MinAmount-f.Amount) }

// CouponAmount is one coupon's part of the discount.
type CouponAmount struct {
	Code        string `json:"code"`
	Type        string `json:"discount_type"`
	Discount    int64  `json:"discount"` // excluding tax
	DiscountTax int64  `json:"discount_tax"`
}

type rateAmount struct {
	rate   *TaxRate
	amount int64
}

// Quote prices a cart. It is the single price function of the shop: the
// cart response, the checkout and the wallet all call it, so what is shown
// is what is charged.
//
// Rounding: every tax is computed per line and per tax rate, in exact
// integer arithmetic, and rounded once to the minor unit, half away from
// zero (WooCommerce's default of rounding per line). With prices entered
// including tax, a line's tax is carved out of its gross amount and the net
// subtotal is the gross minus that tax, so the gross is never changed by
// rounding. Totals are plain sums of the rounded parts, so
// Σ(line total + line total tax) + shipping + shipping tax == Total always
// holds.
//
// Coupons (Customer.Coupons) come first: each takes its amount off the
// prices as entered (discounts), then every line's tax is computed on its
// discounted amount, so taxes follow discounts; a line's subtotal and its
// tax are the undiscounted ones. Free shipping's minimum is compared with
// the discounted amount (WooCommerce's default).
func Quote(items []Item, cust Customer, cfg *Config) (Quotation, error) {
	if len(items) > MaxLines {
		return Quotation{}, ErrLimits
	}
	for _, it := range items {
		if it.Quantity < 1 || it.Quantity > MaxQuantity || it.UnitPrice < 0 || it.UnitPrice > MaxUnitPrice {
			return Quotation{}, ErrLimits
		}
	}
	off, byCoupon := discounts(items, cust.Coupons)
	var gross int64 // prices as entered, after discounts
	for i, it := range items {
		gross += it.UnitPrice*it.Quantity - off[i]
	}
	q := Quotation{Lines: make([]LineAmounts, len(items)), PricesIncludeTax: cfg.PricesIncludeTax, TaxLines: []TaxLine{},
		Coupons: []CouponAmount{}}
	dest := destination(cust, cfg)
	q.NeedsShipping = len(items) > 0
	if q.NeedsShipping {
		pkg := Package{ID: 0, Name: "Shipment 1", Destination: dest}
		for _, it := range items {
			pkg.Items = append(pkg.Items, it.Key)
		}
		zone := zoneFor(dest, cfg)
		// The progress line and the rate read the same comparison.
		q.FreeShipping = freeShippingProgress(zone, gross)
		for _, m := range zone.Methods {
			if m.Type == FreeShipping && !(FreeShippingProgress{m.MinAmount, gross}).Reached() {
				continue
			}
			r := Rate{ID: m.RateID(), MethodID: m.Type, InstanceID: m.InstanceID, Name: m.Title}
			if m.Type != FreeShipping {
				r.Cost = m.Cost
			}
			if m.Taxable && r.Cost > 0 {
				loc := Location{Country: dest.Country, State: dest.State}
				if m.Type == LocalPickup {
					loc = Location{Country: cfg.BaseCountry, State: cfg.BaseState}
				}
				for _, tr := range ratesFor(loc, cfg) {
					if tr.Shipping {
						t := mulDivRound(r.Cost, tr.Rate, 100_000)
						r.taxBy = append(r.taxBy, rateAmount{tr, t})
						r.Taxes += t
					}
				}
			}
			pkg.Rates = append(pkg.Rates, r)
		}
		sel := -1
		for i := range pkg.Rates {
			if pkg.Rates[i].ID == cust.RateID {
				sel = i
			}
		}
		if sel < 0 && len(pkg.Rates) > 0 {
			sel = 0
		}
		if sel >= 0 {
			pkg.Rates[sel].Selected = true
			r := pkg.Rates[sel]
			q.Selected = &r
		}
		q.Packages = []Package{pkg}
	}
	// Taxes follow the shipping address, or the shop's for local pickup.
	q.TaxLocation = Location{Country: dest.Country, State: dest.State}
	if q.Selected != nil && q.Selected.MethodID == LocalPickup {
		q.TaxLocation = Location{Country: cfg.BaseCountry, State: cfg.BaseState}
	}
	rates := ratesFor(q.TaxLocation, cfg)
	byRate := map[int]*TaxLine{}
	line := func(tr *TaxRate) *TaxLine {
		if tl, ok := byRate[tr.ID]; ok {
			return tl
		}
		tl := &TaxLine{RateID: tr.ID, Label: tr.Label, Rate: RatePercent(tr.Rate)}
		byRate[tr.ID] = tl
		return tl
	}
	var sumRates int64
	for _, tr := range rates {
		sumRates += tr.Rate
	}
	// taxOf is an amount as entered split into net and tax, per rate.
	taxOf := func(it Item, amount int64, each func(*TaxRate, int64)) (net, tax int64) {
		if it.Taxable {
			for _, tr := range rates {
				var t int64
				if cfg.PricesIncludeTax {
					t = mulDivRound(amount, tr.Rate, 100_000+sumRates)
				} else {
					t = mulDivRound(amount, tr.Rate, 100_000)
				}
				tax += t
				if each != nil {
					each(tr, t)
				}
			}
		}
		net = amount
		if cfg.PricesIncludeTax {
			net = amount - tax
		}
		return net, tax
	}
	for i, it := range items {
		amount := it.UnitPrice * it.Quantity
		sub, subTax := taxOf(it, amount, nil)
		tot, totTax := sub, subTax
		if off[i] > 0 {
			tot, totTax = taxOf(it, amount-off[i], func(tr *TaxRate, t int64) { line(tr).ItemsTax += t })
		} else {
			taxOf(it, amount, func(tr *TaxRate, t int64) { line(tr).ItemsTax += t })
		}
		q.Lines[i] = LineAmounts{Subtotal: sub, SubtotalTax: subTax, Total: tot, TotalTax: totTax}
		q.ItemsSubtotal += sub
		q.ItemsSubtotalTax += subTax
		q.Discount += sub - tot
		q.ItemsTax += totTax
	}
	q.DiscountTax = q.ItemsSubtotalTax - q.ItemsTax
	q.Coupons = couponAmounts(cust.Coupons, byCoupon, q.DiscountTax, cfg.PricesIncludeTax)
	if q.Selected != nil {
		q.Shipping = q.Selected.Cost
		q.ShippingTax = q.Selected.Taxes
		for _, ra := range q.Selected.taxBy {
			line(ra.rate).ShippingTax += ra.amount
		}
	}
	for _, tl := range byRate {
		if tl.Amount() != 0 {
			q.TaxLines = append(q.TaxLines, *tl)
		}
	}
	slices.SortFunc(q.TaxLines, func(a, b TaxLine) int { return a.RateID - b.RateID })
	q.TotalTax = q.ItemsTax + q.ShippingTax
	q.Total = q.ItemsSubtotal - q.Discount + q.ItemsTax + q.Shipping + q.ShippingTax
	return q, nil
}

// discounts is what the coupons take off each item (off, prices as
// entered) and what each coupon takes in all, never more than an item
// costs. Coupons apply in order: a percentage is of the undiscounted
// amount (WooCommerce's default, not sequential) but takes at most what
// earlier coupons left; a fixed-product amount is per unit; a fixed-cart
// amount is spread over the eligible items in proportion to what is left
// of each, remainders to the first items with room, so the parts sum to
// the amount exactly.
func discounts(items []Item, coupons []*coupon.Coupon) (off, byCoupon []int64) {
	off = make([]int64, len(items))
	byCoupon = make([]int64, len(coupons))
	if len(coupons) == 0 {
		return off, byCoupon
	}
	left := func(i int) int64 { return items[i].UnitPrice*items[i].Quantity - off[i] }
	take := func(ci, i int, d int64) {
		d = max(0, min(d, left(i)))
		off[i] += d
		byCoupon[ci] += d
	}
	for ci, c := range coupons {
		var eligible []int
		for i, it := range items {
			if c.Applies(it.couponLine()) {
				eligible = append(eligible, i)
			}
		}
		switch c.Type {
		case coupon.Percent:
			for _, i := range eligible {
				take(ci, i, mulDivRound(items[i].UnitPrice*items[i].Quantity, min(c.Amount, coupon.MaxPercent), 100_000))
			}
		case coupon.FixedProduct:
			for _, i := range eligible {
				take(ci, i, mulSat(c.Amount, items[i].Quantity))
			}
		case coupon.FixedCart:
			var pool int64
			for _, i := range eligible {
				pool += left(i)
			}
			total := min(max(c.Amount, 0), pool)
			if total <= 0 {
				continue
			}
			shares := make([]int64, len(eligible))
			var given int64
			for k, i := range eligible {
				shares[k] = mulDivFloor(total, left(i), pool)
				given += shares[k]
			}
			for k := range eligible {
				if given == total {
					break
				}
				if shares[k] < left(eligible[k]) {
					shares[k]++
					given++
				}
			}
			for k, i := range eligible {
				take(ci, i, shares[k])
			}
		}
	}
	return off, byCoupon
}

// couponAmounts splits the discount among the coupons: each coupon's part
// as entered, and the discount's tax shared in proportion (the last
// coupon with a discount takes the remainder, so the parts sum exactly);
// with prices entered including tax the net part is the rest.
func couponAmounts(coupons []*coupon.Coupon, byCoupon []int64, discountTax int64, inclTax bool) []CouponAmount {
	out := make([]CouponAmount, len(coupons))
	var all int64
	last := -1
	for i, d := range byCoupon {
		all += d
		if d > 0 {
			last = i
		}
	}
	taxLeft := discountTax
	for i, c := range coupons {
		out[i] = CouponAmount{Code: c.Code, Type: c.Type}
		d := byCoupon[i]
		if d == 0 {
			continue
		}
		t := mulDivFloor(discountTax, d, all)
		if i == last {
			t = taxLeft
		}
		taxLeft -= t
		out[i].DiscountTax = t
		out[i].Discount = d
		if inclTax {
			out[i].Discount = d - t
		}
	}
	return out
}

// mulSat is a×b for a, b ≥ 0, saturated at MaxInt64.
func mulSat(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(max(a, 0)), uint64(max(b, 0)))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// mulDivFloor is a×num/den rounded down, for a, num ≥ 0 and den > 0, in
// 128 bits; num ≤ den keeps the result within a.
func mulDivFloor(a, num, den int64) int64 {
	if a <= 0 || num <= 0 || den <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(num))
	if hi >= uint64(den) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	return int64(q)
}

// destination is where the package goes: the shipping address, else the
// billing address, else the shop's own country (WooCommerce's default
// customer location).
func destination(c Customer, cfg *Config) Address {
	a := c.Shipping
	if a.Country == "" {
		a = c.Billing
		a.Email = ""
	}
	if a.Country == "" {
		a = Address{Country: cfg.BaseCountry}
	}
	a.Country = strings.ToUpper(a.Country)
	a.State = strings.ToUpper(a.State)
	return a
}

// freeShippingProgress is the cart (gross) against z's lowest
// free-shipping minimum; nil when z has no free-shipping method, or one
// without a minimum (free shipping is then always offered: nothing to
// reach).
func freeShippingProgress(z *Zone, gross int64) *FreeShippingProgress {
	var out *FreeShippingProgress
	for _, m := range z.Methods {
		if m.Type != FreeShipping {
			continue
		}
		if m.MinAmount <= 0 {
			return nil
		}
		if out == nil || m.MinAmount < out.MinAmount {
			out = &FreeShippingProgress{MinAmount: m.MinAmount, Amount: gross}
		}
	}
	return out
}

func zoneFor(dest Address, cfg *Config) *Zone {
	for i := range cfg.Zones {
		for _, l := range cfg.Zones[i].Locations {
			if strings.EqualFold(l.Country, dest.Country) && (l.State == "" || strings.EqualFold(l.State, dest.State)) {
				return &cfg.Zones[i]
			}
		}
	}
	return &cfg.RestOfWorld
}

// ratesFor picks the tax rates that apply at loc: per priority, the most
// specific match (state before whole country).
func ratesFor(loc Location, cfg *Config) []*TaxRate {
	best := map[int]*TaxRate{}
	var prios []int
	for i := range cfg.TaxRates {
		tr := &cfg.TaxRates[i]
		if tr.Rate <= 0 || tr.Rate > maxRate || !strings.EqualFold(tr.Country, loc.Country) {
			continue
		}
		if tr.State != "" && !strings.EqualFold(tr.State, loc.State) {
			continue
		}
		have, ok := best[tr.Priority]
		if !ok {
			prios = append(prios, tr.Priority)
		}
		if !ok || (have.State == "" && tr.State != "") {
			best[tr.Priority] = tr
		}
	}
	slices.Sort(prios)
	out := make([]*TaxRate, 0, len(prios))
	for _, p := range prios {
		out = append(out, best[p])
	}
	return out
}

// mulDivRound is a×num/den rounded half away from zero, for a ≥ 0 and
// 0 < num, den, computed in 128 bits so no product overflows.
func mulDivRound(a, num, den int64) int64 {
	if a <= 0 || num <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(num))
	if hi >= uint64(den) {
		return math.MaxInt64 // unreachable within the limits above
	}
	q, r := bits.Div64(hi, lo, uint64(den))
	if 2*r >= uint64(den) {
		q++
	}
	return int64(q)
}

// RatePercent writes a rate in thousandths of a percent as "7.25%".
func RatePercent(r int64) string {
	whole := strconv.FormatInt(r/1000, 10)
	frac := strings.TrimRight(strconv.FormatInt(1000+r%1000, 10)[1:], "0")
	if frac == "" {
		return whole + "%"
	}
	return whole + "." + frac + "%"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
