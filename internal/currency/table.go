package currency

import (
	"context"
	"fmt"

	"vitrine/internal/money"
)

// Table converts a set of products' base prices into one currency: a
// product's fixed price there when it has one, else Convert. It is made by
// Service.Table, loaded with the ids it will convert (one store read per
// Load), then used without further reads — the Store API and the price
// call build whole pages of prices through it. Not safe for concurrent
// Loads; Amount may be called concurrently once loading is done.
type Table struct {
	Currency     Currency
	base         bool // Currency is the base: amounts pass unchanged
	baseDecimals int
	store        Store
	fixed        map[int64]FixedPrice
	err          error
}

// Table answers a Table for code (an enabled currency or the base);
// ErrUnknown otherwise.
func (s *Service) Table(ctx context.Context, code string) (*Table, error) {
	c, err := s.Currency(ctx, code)
	if err != nil {
		return nil, err
	}
	return &Table{Currency: c, base: c.Code == s.Base.Code, baseDecimals: s.Base.MinorUnit, store: s.Store,
		fixed: map[int64]FixedPrice{}}, nil
}

// IsBase reports whether the table's currency is the base currency.
func (t *Table) IsBase() bool { return t.base }

// Load reads the fixed prices of ids (those not loaded yet) in one query.
func (t *Table) Load(ctx context.Context, ids []int64) error {
	if t.base || len(ids) == 0 {
		return nil
	}
	fixed, err := t.store.FixedPrices(ctx, t.Currency.Code, ids)
	if err != nil {
		return err
	}
	for id, f := range fixed {
		t.fixed[id] = f
	}
	return nil
}

// Amount is productID's base amount in the table's currency. sale says
// amount is the product's sale price (a fixed sale price replaces it; a
// fixed regular price without a fixed sale price leaves the sale price
// converted). A conversion that overflows answers 0 and is kept in Err.
func (t *Table) Amount(productID, amount int64, sale bool) int64 {
	v, err := t.Converted(productID, amount, sale)
	if err != nil {
		if t.err == nil {
			t.err = err
		}
		return 0
	}
	return v
}

// Converted is Amount answering its own error instead of keeping it in
// Err, for a caller that handles each amount's failure on its own (the
// price call's exchange snippets: one bad entry does not blank the rest).
func (t *Table) Converted(productID, amount int64, sale bool) (int64, error) {
	if t.base {
		return amount, nil
	}
	if f, ok := t.fixed[productID]; ok {
		if !sale {
			return f.Regular, nil
		}
		if f.Sale != nil {
			return *f.Sale, nil
		}
	}
	v, err := Convert(amount, t.baseDecimals, t.Currency)
	if err != nil {
		return 0, fmt.Errorf("product %d: %w", productID, err)
	}
	return v, nil
}

// Err is the first conversion error Amount met (nil: none).
func (t *Table) Err() error { return t.err }

// switcherNames are where the switcher's names differ from WooCommerce's
// (money.Name): the plugin's switcher shows the dollar without "(US)".
var switcherNames = map[string]string{"USD": "United States dollar"}

// Name is the currency's English name (its code when unknown).
func Name(code string) string {
	if n, ok := switcherNames[code]; ok {
		return n
	}
	if n := money.Name(code); n != "" {
		return n
	}
	return code
}
