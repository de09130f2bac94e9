package cart

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/clock"
)

// Catalog is what the cart reads products through: the catalogue's product
// cache (catalog.Cache), brought up to the change log by Synced before a
// use case reads it, so stock rules see the stock as stored.
type Catalog interface {
	Synced(ctx context.Context) error
	Product(ctx context.Context, id int64) (*catalog.Product, error)
	Products(ctx context.Context, ids []int64) ([]*catalog.Product, error)
	Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error)
}

// Service is the cart's use cases: read a cart, add, update and remove
// lines with the quantity, stock and variation rules, store the customer,
// and the cart as it can be sold now (Priced). Carts are named by their
// session id; sessions themselves (cookies, tokens) belong to the caller.
type Service struct {
	Store    Store
	Catalog  Catalog
	Lifetime time.Duration // a cart lives this long after its last write (Lifetime when 0)
	Now      func() time.Time
	Log      *slog.Logger
}

// Errors of the cart's use cases (Store API shapes).
var (
	// ErrInvalidKey: the line key names no line of the cart.
	ErrInvalidKey = &Error{Status: 409, Code: "woocommerce_rest_cart_invalid_key", Message: "Cart item does not exist."}
	// ErrInvalidProduct: what the add names cannot be sold (unknown,
	// unpublished, not a positive id).
	ErrInvalidProduct = &Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "This product cannot be added to the cart."}
)

func (s *Service) now() time.Time { return clock.Now(s.Now) }

func (s *Service) expires(now time.Time) time.Time {
	if s.Lifetime > 0 {
		return now.Add(s.Lifetime)
	}
	return now.Add(Lifetime)
}

// Get loads a session's cart (an empty one with Exists false when none).
func (s *Service) Get(ctx context.Context, id string) (*Cart, error) {
	return s.Store.Cart(ctx, id, s.now())
}

// ParseAdd reads an add's product id and quantity as a form or the query
// sends them: the id must be a positive number (else ErrInvalidProduct and
// id 0); an empty quantity is 1.
func ParseAdd(rawID, rawQty string) (id, qty int64, err error) {
	id, err = strconv.ParseInt(strings.TrimSpace(rawID), 10, 64)
	if err != nil || id <= 0 {
		return 0, 0, ErrInvalidProduct
	}
	qty = 1
	if q := strings.TrimSpace(rawQty); q != "" {
		if qty, err = ParseQuantity(q); err != nil {
			return id, 0, err
		}
	}
	return id, qty, nil
}

// Add resolves what productID (a product or a variation, with the chosen
// attributes) sells and adds qty of it to the session's cart, the quantity
// and stock rules checked against the cart inside the store's write. It
// answers the cart after the add (read in the same transaction) and the
// line added to. Refusals are *Error.
func (s *Service) Add(ctx context.Context, id string, productID, qty int64, chosen []Attr) (*Cart, Line, error) {
	now := s.now()
	sell, parent, line, err := s.Resolve(ctx, productID, chosen)
	if err != nil {
		return nil, line, err
	}
	line.Quantity = qty
	c, err := s.Store.AddLine(ctx, id, line, now, s.expires(now), func(c *Cart, existing, total int64) error {
		return CheckQuantityHeld(WithStock(sell, parent), total, existing, s.heldElsewhere(ctx, c, line.Key, sell, parent), true)
	})
	return c, line, err
}

// heldElsewhere is what the cart's other lines hold of the stock sell draws
// on: for a variation whose parent manages the stock, the other lines of
// variations of that parent that draw on it too; else 0 (a line is the only
// one of its product).
func (s *Service) heldElsewhere(ctx context.Context, c *Cart, key string, sell, parent *catalog.Product) int64 {
	if parent == nil || StockOwner(sell, parent) != parent {
		return 0
	}
	var held int64
	for _, l := range c.Lines {
		if l.Key == key || l.ProductID != parent.ID || l.VariationID == 0 {
			continue
		}
		if v, err := s.Catalog.Product(ctx, l.VariationID); err == nil && StockOwner(v, parent) != parent {
			continue // that variation has stock of its own
		}
		held += l.Quantity
	}
	return held
}

// Resolve finds what an add sells (the variation for variable products),
// checks it can be sold, and builds the line with the catalogue's price:
// sell is what the line sells, parent its variable product (nil for simple
// products). Products come from the catalogue cache, brought up to the
// change log first.
func (s *Service) Resolve(ctx context.Context, productID int64, chosen []Attr) (sell, parent *catalog.Product, l Line, err error) {
	if err := s.Catalog.Synced(ctx); err != nil {
		return nil, nil, Line{}, err
	}
	now := s.now()
	p, err := s.Catalog.Product(ctx, productID)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, nil, Line{}, ErrInvalidProduct
	}
	if err != nil {
		return nil, nil, Line{}, err
	}
	sell = p
	var attrs []Attr
	switch p.Type {
	case catalog.TypeVariation:
		if parent, err = s.Catalog.Product(ctx, p.ParentID); err != nil {
			if errors.Is(err, catalog.ErrNotFound) {
				return nil, nil, Line{}, ErrInvalidProduct
			}
			return nil, nil, Line{}, err
		}
		want := map[string]string{}
		for _, a := range chosen {
			want[AttrKey(a.Attribute)] = strings.TrimSpace(a.Value)
		}
		attrs = VariationAttrs(p, want)
		for _, a := range attrs {
			if a.Value == "" {
				return nil, nil, Line{}, &Error{Status: 400, Code: "woocommerce_rest_missing_variation_data",
					Message: "Missing variation data for variable product. " + a.Attribute + " is a required field."}
			}
		}
	case catalog.TypeVariable:
		if !p.Published() {
			return nil, nil, Line{}, ErrInvalidProduct
		}
		if len(chosen) == 0 {
			return nil, nil, Line{}, &Error{Status: 400, Code: "woocommerce_rest_missing_variation_data",
				Message: "Missing variation data for variable product."}
		}
		vars, err := s.Catalog.Variations(ctx, p.ID)
		if err != nil {
			return nil, nil, Line{}, err
		}
		parent = p
		if sell, attrs, err = ChooseVariation(p, vars, chosen); err != nil {
			return nil, nil, Line{}, err
		}
	}
	if err := CheckSellable(sell, parent, now); err != nil {
		return nil, nil, Line{}, err
	}
	price, _ := sell.Price(now)
	l = Line{ProductID: sell.ID, Variation: attrs, UnitPrice: price}
	if parent != nil {
		l.ProductID, l.VariationID = parent.ID, sell.ID
	}
	l.Key = LineKey(l.ProductID, l.VariationID, l.Variation)
	return sell, parent, l, nil
}

// SetQuantity sets a line's quantity (at least 1: removing is Remove)
// after the quantity and stock rules allow it, checked inside the store's
// write; it answers the cart after the change. An unknown key is
// ErrInvalidKey.
func (s *Service) SetQuantity(ctx context.Context, id, key string, qty int64) (*Cart, error) {
	now := s.now()
	if key == "" {
		return nil, ErrInvalidKey
	}
	if err := s.Catalog.Synced(ctx); err != nil {
		return nil, err
	}
	c, err := s.Store.SetQuantity(ctx, id, key, qty, now, s.expires(now), func(c *Cart, l Line) error {
		p, err := s.Catalog.Product(ctx, l.ItemID())
		if errors.Is(err, catalog.ErrNotFound) {
			return ErrInvalidProduct
		}
		if err != nil {
			return err
		}
		var parent *catalog.Product
		if l.VariationID != 0 {
			if parent, err = s.Catalog.Product(ctx, l.ProductID); errors.Is(err, catalog.ErrNotFound) {
				return ErrInvalidProduct
			} else if err != nil {
				return err
			}
		}
		return CheckQuantityHeld(WithStock(p, parent), qty, l.Quantity, s.heldElsewhere(ctx, c, key, p, parent), false)
	})
	if errors.Is(err, ErrNoLine) {
		return nil, ErrInvalidKey
	}
	return c, err
}

// Remove deletes a line; an unknown or empty key is ErrInvalidKey.
func (s *Service) Remove(ctx context.Context, id, key string) error {
	now := s.now()
	if key == "" {
		return ErrInvalidKey
	}
	err := s.Store.RemoveLine(ctx, id, key, now, s.expires(now))
	if errors.Is(err, ErrNoLine) {
		return ErrInvalidKey
	}
	return err
}

// SetCustomer stores the session's addresses and chosen shipping rate.
// Choosing a rate the destination offers is checkout's use case
// (checkout.Service.SelectRate): it needs the quote.
func (s *Service) SetCustomer(ctx context.Context, id string, cust Customer) error {
	now := s.now()
	return s.Store.SetCustomer(ctx, id, cust, now, s.expires(now))
}

// UpdateCustomer changes the session's billing and shipping addresses
// (nil: unchanged), keeping the chosen rate; a shipping address carries no
// email.
func (s *Service) UpdateCustomer(ctx context.Context, id string, billing, shipping *Address) error {
	c, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	cust := c.Customer
	if billing != nil {
		cust.Billing = *billing
	}
	if shipping != nil {
		sh := *shipping
		sh.Email = ""
		cust.Shipping = sh
	}
	return s.SetCustomer(ctx, id, cust)
}

// RestoreLines puts lines back into the session's cart if it is empty:
// placing an order empties the cart, and an order paid elsewhere (the
// wallet) keeps the cart until it is paid, so a buyer who walks away finds
// it as it was.
func (s *Service) RestoreLines(ctx context.Context, id string, lines []Line) error {
	now := s.now()
	return s.Store.RestoreCartLines(ctx, id, lines, now, s.expires(now))
}

// Merge moves the lines of cart from into cart to: a guest's cart into the
// customer's when they log in (as WooCommerce merges the persistent cart).
// Each line is added as the shopper would add it, so quantity and stock
// rules hold against what the customer's cart already has; a line that
// cannot be sold any more (or not in that quantity) is left out, as it
// would be on the next read. Then from is emptied. Only a store failure is
// an error (from is then left as it was).
func (s *Service) Merge(ctx context.Context, from, to string) error {
	if from == to {
		return nil
	}
	c, err := s.Get(ctx, from)
	if err != nil {
		return err
	}
	if len(c.Lines) == 0 {
		return nil
	}
	for _, l := range c.Lines {
		if _, _, err := s.Add(ctx, to, l.ItemID(), l.Quantity, l.Variation); err != nil {
			var ce *Error
			if errors.As(err, &ce) {
				continue
			}
			return err
		}
	}
	return s.Clear(ctx, from)
}

// Clear empties the session's cart (its order was paid).
func (s *Service) Clear(ctx context.Context, id string) error {
	return s.Store.ClearCart(ctx, id)
}

// DeleteExpired removes the carts expired now; it reports how many.
func (s *Service) DeleteExpired(ctx context.Context) (int64, error) {
	return s.Store.DeleteExpiredCarts(ctx, s.now())
}

// Priced is a cart as it can be sold now: the lines whose product (and
// parent) is still on sale, with prices refreshed from the catalogue, in
// cart order; the products they sell and their parents by id; and how
// many lines were left out because their product is gone or unpublished.
type Priced struct {
	Cart     *Cart
	Lines    []Line
	Products map[int64]*catalog.Product
	LeftOut  int
	// Weight is the lines' weight (each line's product's, else its
	// parent's), rounded to 4 decimals.
	Weight float64
}

// Product is what line l sells (p) and its product (parent: p itself for
// simple products).
func (p *Priced) Product(l Line) (sells, parent *catalog.Product) {
	sells = p.Products[l.ItemID()]
	parent = sells
	if l.VariationID != 0 {
		parent = p.Products[l.ProductID]
	}
	return sells, parent
}

// CrossSellIDs are the products the cart suggests, as WooCommerce's cart
// does: the union of the cross-sells of each line's product (a
// variation's: its parent's), in cart order and each product's own order,
// without the products already in the cart (a variable product counts as
// in the cart when one of its variations is). Whether each can be shown
// (published, visible, purchasable) is the caller's to check.
func (p *Priced) CrossSellIDs() []int64 {
	in := make(map[int64]bool, len(p.Lines))
	for _, l := range p.Lines {
		in[l.ProductID], in[l.ItemID()] = true, true
	}
	var out []int64
	for _, l := range p.Lines {
		_, parent := p.Product(l)
		if parent == nil {
			continue
		}
		for _, id := range parent.CrossSells {
			if !in[id] {
				in[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// Price sees c as it can be sold now (Priced), with products from the
// catalogue cache brought up to the change log. extend: a read pushes a
// cart near its expiry forward (a write already did); a failure to do so
// is logged, not returned.
func (s *Service) Price(ctx context.Context, c *Cart, extend bool) (*Priced, error) {
	now := s.now()
	if err := s.Catalog.Synced(ctx); err != nil {
		return nil, err
	}
	if extend && c.Exists && c.Expires.Sub(now) < Renew {
		if err := s.Store.Extend(ctx, c.ID, s.expires(now)); err != nil && s.Log != nil {
			s.Log.Warn("extend cart", "err", err)
		}
	}
	ids := make([]int64, 0, 2*len(c.Lines))
	for _, l := range c.Lines {
		ids = append(ids, l.ItemID())
		if l.VariationID != 0 {
			ids = append(ids, l.ProductID)
		}
	}
	products, err := s.Catalog.Products(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := &Priced{Cart: c, Products: make(map[int64]*catalog.Product, len(products))}
	for _, p := range products {
		out.Products[p.ID] = p
	}
	var weight float64
	for _, l := range c.Lines {
		p, parent := out.Product(l)
		if p == nil || parent == nil || !p.Published() || !parent.Published() {
			out.LeftOut++
			continue
		}
		if price, ok := p.Price(now); ok {
			l.UnitPrice = price
		}
		out.Lines = append(out.Lines, l)
		if w, err := strconv.ParseFloat(p.Weight, 64); err == nil {
			weight += w * float64(l.Quantity)
		} else if w, err := strconv.ParseFloat(parent.Weight, 64); err == nil {
			weight += w * float64(l.Quantity)
		}
	}
	out.Weight = roundWeight(weight)
	return out, nil
}

// Load is Get then Price with extend: the session's cart as it can be sold
// now.
func (s *Service) Load(ctx context.Context, id string) (*Priced, error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.Price(ctx, c, true)
}

// RefusedProduct is the product whose page explains a refused add of id
// (the parent for a variation), or nil when it has none to show (unknown
// or unpublished).
func (s *Service) RefusedProduct(ctx context.Context, id int64) *catalog.Product {
	if id <= 0 {
		return nil
	}
	p, err := s.Catalog.Product(ctx, id)
	if err == nil && p.Type == catalog.TypeVariation {
		p, err = s.Catalog.Product(ctx, p.ParentID)
	}
	if err != nil || !p.Published() {
		return nil
	}
	return p
}

func roundWeight(w float64) float64 { return math.Round(w*10000) / 10000 }
