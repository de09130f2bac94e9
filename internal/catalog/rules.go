package catalog

import "time"

// SaleActive reports whether the sale price applies at t: a sale price is set,
// lower than the regular price, and t is inside the optional sale dates
// (inclusive of the start, exclusive of the end).
func (p *Product) SaleActive(t time.Time) bool {
	if p.SalePrice == nil {
		return false
	}
	if p.RegularPrice != nil && *p.SalePrice >= *p.RegularPrice {
		return false
	}
	if p.SaleFrom != nil && t.Before(*p.SaleFrom) {
		return false
	}
	if p.SaleTo != nil && !t.Before(*p.SaleTo) {
		return false
	}
	return true
}

// Price is the price a shopper pays at t, and whether one is set at all.
func (p *Product) Price(t time.Time) (int64, bool) {
	if p.SaleActive(t) {
		return *p.SalePrice, true
	}
	if p.RegularPrice != nil {
		return *p.RegularPrice, true
	}
	return 0, false
}

// InStock reports whether the product can be bought now as far as stock goes.
func (p *Product) InStock() bool {
	switch p.StockStatus {
	case StockOutOfStock:
		return false
	case StockOnBackorder:
		return true
	}
	if p.ManageStock && p.StockQuantity != nil && *p.StockQuantity <= 0 {
		return p.Backorders != BackordersNo && p.Backorders != ""
	}
	return true
}

// OnBackorder reports whether a purchase now would be a backorder.
func (p *Product) OnBackorder() bool {
	if p.StockStatus == StockOnBackorder {
		return true
	}
	return p.ManageStock && p.StockQuantity != nil && *p.StockQuantity <= 0 &&
		(p.Backorders == BackordersYes || p.Backorders == BackordersNotify)
}

// Published reports whether shoppers may see the product at all.
func (p *Product) Published() bool { return p.Status == StatusPublish }

// IsPurchasable follows WooCommerce: a published product (or an active
// variation) with a price, not external or grouped, and not switched off.
func (p *Product) IsPurchasable(t time.Time) bool {
	if !p.Purchasable || !p.Published() {
		return false
	}
	switch p.Type {
	case TypeExternal, TypeGrouped, TypeVariable:
		return p.Type == TypeVariable // a variable product is purchasable through its variations
	case TypeVariation:
		if !p.Active {
			return false
		}
	}
	_, ok := p.Price(t)
	return ok
}

// ShownInCatalog reports whether listings (shop, categories) include it.
func (p *Product) ShownInCatalog() bool {
	return p.Published() && p.ParentID == 0 &&
		(p.CatalogVisibility == VisibilityVisible || p.CatalogVisibility == VisibilityCatalog || p.CatalogVisibility == "")
}

// LowStockRemaining is the stock left to show as "only N left", or nil when
// the count is not worth showing (not managed, or above the threshold).
func (p *Product) LowStockRemaining(threshold int64) *int64 {
	if !p.ManageStock || p.StockQuantity == nil || *p.StockQuantity <= 0 {
		return nil
	}
	limit := threshold
	if p.LowStockAmount != nil {
		limit = *p.LowStockAmount
	}
	if *p.StockQuantity > limit {
		return nil
	}
	q := *p.StockQuantity
	return &q
}

// QuantityLimits are the bounds a cart line of this product must respect.
type QuantityLimits struct {
	Minimum    int64
	Maximum    int64 // 0: unlimited
	MultipleOf int64
}

// Limits derives the quantity bounds from min/max, step, sold-individually
// and managed stock without backorders.
func (p *Product) Limits() QuantityLimits {
	l := QuantityLimits{Minimum: 1, MultipleOf: 1}
	if p.MinQty > 1 {
		l.Minimum = p.MinQty
	}
	if p.Step > 1 {
		l.MultipleOf = p.Step
	}
	if p.MaxQty > 0 {
		l.Maximum = p.MaxQty
	}
	if p.SoldIndividually {
		l.Minimum, l.Maximum = 1, 1
	}
	if p.ManageStock && p.StockQuantity != nil && (p.Backorders == BackordersNo || p.Backorders == "") {
		if l.Maximum == 0 || *p.StockQuantity < l.Maximum {
			l.Maximum = max(*p.StockQuantity, 0)
		}
	}
	return l
}

// PriceRange is the lowest and highest current price among variations (or
// grouped children), computed by the caller over the children it loaded.
type PriceRange struct {
	Min, Max int64
	// RegularMin/RegularMax are the same over regular prices.
	RegularMin, RegularMax int64
	Set                    bool
}

// RangeOf computes the price range of children that have a price and are
// purchasable-looking (published, active variations).
func RangeOf(children []*Product, t time.Time) PriceRange {
	var r PriceRange
	for _, c := range children {
		if !c.Published() || (c.Type == TypeVariation && !c.Active) {
			continue
		}
		price, ok := c.Price(t)
		if !ok {
			continue
		}
		regular := price
		if c.RegularPrice != nil {
			regular = *c.RegularPrice
		}
		if !r.Set {
			r = PriceRange{Min: price, Max: price, RegularMin: regular, RegularMax: regular, Set: true}
			continue
		}
		r.Min, r.Max = min(r.Min, price), max(r.Max, price)
		r.RegularMin, r.RegularMax = min(r.RegularMin, regular), max(r.RegularMax, regular)
	}
	return r
}

// MatchVariation returns the first variation, in the order given (menu
// order), whose every attribute equals the chosen value or is empty ("any").
// chosen maps attribute keys ("pa_color") to values.
func MatchVariation(variations []*Product, chosen map[string]string) *Product {
	for _, v := range variations {
		ok := true
		for _, a := range v.Variation {
			if a.Value == "" {
				continue
			}
			if chosen[a.Name] != a.Value {
				ok = false
				break
			}
		}
		if ok {
			return v
		}
	}
	return nil
}
