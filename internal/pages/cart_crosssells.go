package pages

import (
	"context"

	"vitrine/internal/catalog"
	"vitrine/internal/money"
	"vitrine/internal/storeapi"
)

// MaxCrossSells is how many cross-sells the cart page shows at most: one
// row of the listing's grid (WooCommerce's classic cart shows two; four
// fill the row the product cards are laid out in).
const MaxCrossSells = 4

// CrossSells is what the cart page's "You may also like" is made from:
// the candidate product ids in order (cart.Priced.CrossSellIDs: the cart
// lines' cross-sells, without what is in the cart) and the shopper's
// currency, in which the cards' prices are written (Convert nil: the
// base, prices as stored).
type CrossSells struct {
	IDs      []int64
	Currency money.Currency
	Convert  storeapi.Converter
}

// crossSells are the cards of the first MaxCrossSells candidates a shopper
// can buy from the card or its page: published, shown in the catalogue,
// purchasable and in stock (a variable product: one of its variations).
// The cards' prices are in in.Currency.
func (l *Loader) crossSells(ctx context.Context, e *env, in CrossSells) ([]storeapi.Product, error) {
	out := []storeapi.Product{}
	if len(in.IDs) == 0 {
		return out, nil
	}
	ps, err := l.Store.Products(ctx, in.IDs)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*catalog.Product, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	now := e.b.Now
	var cands []*catalog.Product
	for _, id := range in.IDs {
		if p := byID[id]; p != nil && p.ShownInCatalog() && p.IsPurchasable(now) {
			cands = append(cands, p)
		}
	}
	b := *e.b
	if in.Currency.Code != "" {
		b.Currency = in.Currency
	}
	b.Convert = in.Convert
	// Cards are built a few at a time: stock of a variable product is
	// known once its variations are read, and most carts fill the row
	// from their first candidates.
	for len(cands) > 0 && len(out) < MaxCrossSells {
		n := min(len(cands), MaxCrossSells-len(out))
		cards, err := l.cards(ctx, &b, cands[:n])
		if err != nil {
			return nil, err
		}
		cands = cands[n:]
		for _, c := range cards {
			if c.IsPurchasable && c.IsInStock {
				out = append(out, c)
			}
		}
	}
	return out, nil
}
