package checkout

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/cart"
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

// Customer is what Quote needs of the shopper: the addresses and the chosen
// shipping rate.
type Customer struct {
	Billing  Address
	Shipping Address
	RateID   string
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

// LineAmounts are one line's totals in minor units. Subtotal and Total are
// excluding tax (equal: there are no discounts yet).
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

	ItemsSubtotal int64 // Σ line subtotals, excluding tax
	ItemsTax      int64
	Shipping      int64 // excluding tax
	ShippingTax   int64
	TotalTax      int64
	Total         int64
	TaxLines      []TaxLine
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
// Σ(subtotal + tax) + shipping + shipping tax == Total always holds.
func Quote(items []Item, cust Customer, cfg *Config) (Quotation, error) {
	if len(items) > MaxLines {
		return Quotation{}, ErrLimits
	}
	var gross int64 // prices as entered
	for _, it := range items {
		if it.Quantity < 1 || it.Quantity > MaxQuantity || it.UnitPrice < 0 || it.UnitPrice > MaxUnitPrice {
			return Quotation{}, ErrLimits
		}
		gross += it.UnitPrice * it.Quantity
	}
	q := Quotation{Lines: make([]LineAmounts, len(items)), PricesIncludeTax: cfg.PricesIncludeTax, TaxLines: []TaxLine{}}
	dest := destination(cust, cfg)
	q.NeedsShipping = len(items) > 0
	if q.NeedsShipping {
		pkg := Package{ID: 0, Name: "Shipment 1", Destination: dest}
		for _, it := range items {
			pkg.Items = append(pkg.Items, it.Key)
		}
		for _, m := range zoneFor(dest, cfg).Methods {
			if m.Type == FreeShipping && gross < m.MinAmount {
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
	for i, it := range items {
		amount := it.UnitPrice * it.Quantity
		var tax int64
		if it.Taxable {
			for _, tr := range rates {
				var t int64
				if cfg.PricesIncludeTax {
					t = mulDivRound(amount, tr.Rate, 100_000+sumRates)
				} else {
					t = mulDivRound(amount, tr.Rate, 100_000)
				}
				tax += t
				line(tr).ItemsTax += t
			}
		}
		net := amount
		if cfg.PricesIncludeTax {
			net = amount - tax
		}
		q.Lines[i] = LineAmounts{Subtotal: net, SubtotalTax: tax, Total: net, TotalTax: tax}
		q.ItemsSubtotal += net
		q.ItemsTax += tax
	}
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
	q.Total = q.ItemsSubtotal + q.ItemsTax + q.Shipping + q.ShippingTax
	return q, nil
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
