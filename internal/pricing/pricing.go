// Package pricing is prices in the shopper's currency: the read use cases
// that put together the catalogue (products, a variable product's
// variations, a grouped product's children), the currency capability (a
// loaded currency.Table: a fixed price where the product has one, else
// the conversion with the currency's rounding) and WooCommerce's price
// markup (storeapi.Builder). The price call (wmc_get_products_price) and
// the live search's suggestions answer through it; it speaks no HTTP.
package pricing

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/clock"
	"vitrine/internal/currency"
	"vitrine/internal/storeapi"
)

// Products is what the service reads products through: catalog.Cache (the
// server's in-memory product cache) or a catalog.Store.
type Products interface {
	// Products answers products by id, skipping missing ones.
	Products(ctx context.Context, ids []int64) ([]*catalog.Product, error)
	// Variations answers a variable product's variations in menu order.
	Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error)
}

// Service is the shopper's-currency price reads.
type Service struct {
	Products   Products
	Currencies *currency.Service
	Now        func() time.Time // nil: time.Now
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

// Table is the converter for a shopper's currency code: code's when the
// shop sells in it, else the base currency's (a currency disabled since
// the shopper chose it shows base prices, never an error).
func (s *Service) Table(ctx context.Context, code string) (*currency.Table, error) {
	t, err := s.Currencies.Table(ctx, code)
	if errors.Is(err, currency.ErrUnknown) {
		return s.Currencies.Table(ctx, s.Currencies.Base.Code)
	}
	return t, err
}

// PriceHTMLs answers WooCommerce's price_html of each published product or
// active variation of ids in t's currency, by id: a range for a variable
// or grouped product (taken after conversion), del/ins on sale; byte for
// byte the Store API's price_html in that currency. Unknown ids, and
// products without a price, are left out. The fixed prices of every
// product and of all their variations and children are one Load of t. A
// conversion that overflows fails the whole answer (t.Err), never a wrong
// price.
func (s *Service) PriceHTMLs(ctx context.Context, t *currency.Table, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ps, err := s.Products.Products(ctx, ids)
	if err != nil {
		return nil, err
	}
	children := make(map[int64][]*catalog.Product)
	all := slices.Clone(ids)
	for _, p := range ps {
		var kids []*catalog.Product
		switch p.Type {
		case catalog.TypeVariable:
			kids, err = s.Products.Variations(ctx, p.ID)
		case catalog.TypeGrouped:
			kids, err = s.Products.Products(ctx, p.Children)
		}
		if err != nil {
			return nil, err
		}
		children[p.ID] = kids
		for _, k := range kids {
			all = append(all, k.ID)
		}
	}
	if err := t.Load(ctx, all); err != nil {
		return nil, err
	}
	b := &storeapi.Builder{Currency: t.Currency.Money(), Now: s.now(), Convert: t}
	for _, p := range ps {
		if !p.Published() || (p.Type == catalog.TypeVariation && !p.Active) {
			continue
		}
		if h := b.PriceHTMLOf(p, children[p.ID]); h != "" {
			out[p.ID] = h
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// ExchangeRequest is one "price in another currency" entry: Amount, in
// minor units of the base currency, shown in Code ("", or a currency the
// shop does not sell in: the shopper's). ProductID > 0 applies that
// product's fixed price in Code (its regular price).
type ExchangeRequest struct {
	Code      string
	ProductID int64
	Amount    int64
}

// Exchanged is one entry's answer: Amount in minor units of Currency. Err
// is a conversion that failed (an overflow), for that entry alone.
type Exchanged struct {
	Currency currency.Currency
	Amount   int64
	Err      error
}

// Exchange converts each entry into its currency (the shopper's table,
// already made, for entries in the shopper's currency or in none the shop
// sells in). One table per currency, and one fixed-price read per table
// for all of its entries' products.
func (s *Service) Exchange(ctx context.Context, shopper *currency.Table, reqs []ExchangeRequest) ([]Exchanged, error) {
	tables := make([]*currency.Table, len(reqs))
	byCode := map[string]*currency.Table{shopper.Currency.Code: shopper}
	ids := map[*currency.Table][]int64{}
	for i, r := range reqs {
		code := strings.ToUpper(strings.TrimSpace(r.Code))
		t, ok := byCode[code]
		if !ok && code != "" {
			other, err := s.Currencies.Table(ctx, code)
			switch {
			case err == nil:
				t = other
			case errors.Is(err, currency.ErrUnknown):
				t = shopper
			default:
				return nil, err
			}
			byCode[code] = t
		}
		if t == nil {
			t = shopper
		}
		tables[i] = t
		if r.ProductID > 0 {
			ids[t] = append(ids[t], r.ProductID)
		}
	}
	for t, list := range ids {
		slices.Sort(list)
		if err := t.Load(ctx, slices.Compact(list)); err != nil {
			return nil, err
		}
	}
	out := make([]Exchanged, len(reqs))
	for i, r := range reqs {
		t := tables[i]
		pid := max(r.ProductID, 0)
		v, err := t.Converted(pid, r.Amount, false)
		out[i] = Exchanged{Currency: t.Currency, Amount: v, Err: err}
	}
	return out, nil
}
