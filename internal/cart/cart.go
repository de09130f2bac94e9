// Package cart holds server-side shopping carts: the cart and its lines, and
// the rules that decide what may go in (quantity limits, stock, purchasable,
// variation choice) as plain functions. Prices always come from the
// catalogue, never from the client; money is integer minor units.
package cart

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
)

// Lifetime is how long a cart session lives after its last write; Renew is
// how close to expiry a read pushes the expiry forward (WooCommerce: 48 h and
// the 47 h "expiring" mark).
const (
	Lifetime = 48 * time.Hour
	Renew    = time.Hour
)

// MaxQuantity bounds any line's quantity (WooCommerce's default maximum is 9999).
const MaxQuantity = 9999

// MaxLines bounds how many lines one cart holds. The store refuses the add
// that would pass it (ErrTooManyLines) inside the add's transaction, and
// the price function (checkout.Quote) is bounded by it.
const MaxLines = 500

// ErrTooManyLines refuses an add that would give a cart more than MaxLines
// lines (Store API shape: 400).
var ErrTooManyLines = &Error{Status: 400, Code: "woocommerce_rest_cart_too_many_items",
	Message: fmt.Sprintf("Your cart cannot hold more than %d different items. Please remove some before adding more.", MaxLines)}

// Attr is one chosen variation attribute ("pa_color" = "rust").
type Attr struct {
	Attribute string `json:"attribute"`
	Value     string `json:"value"`
}

// CustomerSession is the cart session id of a customer's cart: a
// logged-in customer's cart belongs to the account (WooCommerce keys it by
// user id), the same on every device and kept across logouts.
func CustomerSession(userID int64) string { return "u_" + strconv.FormatInt(userID, 10) }

// SessionCustomer is the account whose cart session id is id (the inverse
// of CustomerSession); 0 for a guest's session.
func SessionCustomer(id string) int64 {
	rest, ok := strings.CutPrefix(id, "u_")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n <= 0 || CustomerSession(n) != id {
		return 0
	}
	return n
}

// Line is one cart line: a product (or variation) with its chosen options.
type Line struct {
	Key         string
	ProductID   int64 // the parent for variations, else the product
	VariationID int64 // 0 for simple products
	Variation   []Attr
	Quantity    int64
	UnitPrice   int64 // minor units, copied from the catalogue at add time, refreshed on read
	Position    int
}

// ItemID is the id the Store API shows: the variation's when set.
func (l Line) ItemID() int64 {
	if l.VariationID != 0 {
		return l.VariationID
	}
	return l.ProductID
}

// Subtotal is unit price × quantity.
func (l Line) Subtotal() int64 { return l.UnitPrice * l.Quantity }

// Address is a billing or shipping address as the Store API sends it.
type Address struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Company   string `json:"company"`
	Address1  string `json:"address_1"`
	Address2  string `json:"address_2"`
	City      string `json:"city"`
	State     string `json:"state"`
	Postcode  string `json:"postcode"`
	Country   string `json:"country"`
	Email     string `json:"email,omitempty"`
	Phone     string `json:"phone"`
}

// Customer is what a session keeps besides lines.
type Customer struct {
	Billing      Address `json:"billing_address"`
	Shipping     Address `json:"shipping_address"`
	ShippingRate string  `json:"shipping_rate,omitempty"`
	// Coupons are the codes applied, in order (checkout's coupons.go).
	Coupons []string `json:"coupons,omitempty"`
}

// Cart is one session's cart.
type Cart struct {
	ID       string // session id, "t_" + 30 hex for guests
	Created  time.Time
	Updated  time.Time
	Expires  time.Time
	Lines    []Line
	Customer Customer
	Exists   bool // a row is stored (false: a new, empty cart)
}

// Line returns the line with key, or nil.
func (c *Cart) Line(key string) *Line {
	for i := range c.Lines {
		if c.Lines[i].Key == key {
			return &c.Lines[i]
		}
	}
	return nil
}

// Totals are a cart's sums in minor units.
type Totals struct {
	Items      int64 // sum of line subtotals
	ItemsCount int64 // sum of quantities
}

// Sum computes the totals.
func Sum(lines []Line) Totals {
	var t Totals
	for _, l := range lines {
		t.Items += l.Subtotal()
		t.ItemsCount += l.Quantity
	}
	return t
}

// LineKey is the hex md5 of the product id, the variation id and the sorted
// attributes: the same product with the same options is always one line.
func LineKey(productID, variationID int64, attrs []Attr) string {
	sorted := slices.Clone(attrs)
	slices.SortFunc(sorted, func(a, b Attr) int { return strings.Compare(a.Attribute, b.Attribute) })
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d", productID, variationID)
	for _, a := range sorted {
		b.WriteString("|" + a.Attribute + "=" + a.Value)
	}
	sum := md5.Sum([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Error is a refusal with the Store API's code, HTTP status and message
// (HTML entities as WooCommerce writes them).
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func fail(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrNoLine is returned by stores for an unknown line key.
var ErrNoLine = errors.New("no such cart line")

// ParseQuantity reads a quantity as the client sent it (a JSON number or a
// string): a whole number from 1 to MaxQuantity. Zero, negative, fractional,
// huge and non-numeric values are refused.
func ParseQuantity(raw string) (int64, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return 0, fail(400, "woocommerce_rest_product_invalid_quantity", "Quantity is required.")
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(raw, 64)
		if ferr != nil || math.IsNaN(f) || f != math.Trunc(f) || math.Abs(f) > MaxQuantity {
			return 0, fail(400, "woocommerce_rest_product_invalid_quantity", "Quantity must be a whole number.")
		}
		n = int64(f)
	}
	if n < 1 || n > MaxQuantity {
		return 0, fail(400, "woocommerce_rest_product_invalid_quantity", "Quantity must be between 1 and %d.", MaxQuantity)
	}
	return n, nil
}

// CheckQuantity validates the quantity a line would have (the new total)
// against the product's limits. existing is what the line held before the
// add (for the stock message); adding reports an add (not an update).
func CheckQuantity(p *catalog.Product, total, existing int64, adding bool) error {
	return CheckQuantityHeld(p, total, existing, 0, adding)
}

// CheckQuantityHeld is CheckQuantity when other lines of the cart draw on the
// same stock (variations whose stock the parent manages): held is what those
// lines hold, and the line's total plus held must fit the stock.
func CheckQuantityHeld(p *catalog.Product, total, existing, held int64, adding bool) error {
	name := html.EscapeString(p.Name)
	if p.SoldIndividually && adding && existing > 0 {
		return fail(400, "woocommerce_rest_cart_product_sold_individually", "You cannot add another &quot;%s&quot; to your cart.", name)
	}
	l := p.Limits()
	if p.ManageStock && p.StockQuantity != nil && !backordersAllowed(p) && total+held > *p.StockQuantity {
		return fail(400, "woocommerce_rest_product_partially_out_of_stock",
			"You cannot add that amount to the cart &mdash; we have %d in stock and you already have %d in your cart.",
			max(*p.StockQuantity, 0), existing+held)
	}
	if total < l.Minimum {
		return fail(400, "woocommerce_rest_product_invalid_quantity", "The minimum quantity of &quot;%s&quot; is %d.", name, l.Minimum)
	}
	if l.Maximum > 0 && total > l.Maximum {
		return fail(400, "woocommerce_rest_product_invalid_quantity", "The maximum quantity of &quot;%s&quot; is %d.", name, l.Maximum)
	}
	if l.MultipleOf > 1 && total%l.MultipleOf != 0 {
		return fail(400, "woocommerce_rest_product_invalid_quantity", "The quantity of &quot;%s&quot; must be a multiple of %d.", name, l.MultipleOf)
	}
	if total > MaxQuantity {
		return fail(400, "woocommerce_rest_product_invalid_quantity", "The maximum quantity of &quot;%s&quot; is %d.", name, MaxQuantity)
	}
	return nil
}

// StockOwner is the product whose stock a line of p draws on: the parent
// when p is a variation that does not manage its own stock and the parent
// does (WooCommerce's "stock managed by parent"), else p itself.
func StockOwner(p, parent *catalog.Product) *catalog.Product {
	if parent != nil && p != parent && !p.ManageStock && parent.ManageStock {
		return parent
	}
	return p
}

// WithStock is p as the stock rules see it: for a variation whose parent
// manages its stock, a copy of p carrying the parent's stock quantity,
// status, backorder policy and low-stock amount; else p itself (not copied).
func WithStock(p, parent *catalog.Product) *catalog.Product {
	owner := StockOwner(p, parent)
	if owner == p {
		return p
	}
	c := *p
	c.ManageStock, c.StockQuantity, c.StockStatus = true, owner.StockQuantity, owner.StockStatus
	c.Backorders, c.LowStockAmount = owner.Backorders, owner.LowStockAmount
	return &c
}

func backordersAllowed(p *catalog.Product) bool {
	return p.Backorders == catalog.BackordersYes || p.Backorders == catalog.BackordersNotify
}

// CheckSellable refuses products that cannot go in a cart at all: missing,
// unpublished, not purchasable, out of stock. p is what the line sells (the
// variation for variable products); parent is its parent or nil.
func CheckSellable(p, parent *catalog.Product, now time.Time) error {
	if p == nil || !p.Published() || (parent != nil && !parent.Published()) {
		return fail(400, "woocommerce_rest_cart_invalid_product", "This product cannot be added to the cart.")
	}
	if p.Type == catalog.TypeVariable {
		return fail(400, "woocommerce_rest_missing_variation_data", "Missing variation data for variable product.")
	}
	if !p.IsPurchasable(now) || (parent != nil && !parent.Purchasable) {
		return fail(400, "woocommerce_rest_product_not_purchasable", "The &quot;%s&quot; product cannot be purchased.", html.EscapeString(p.Name))
	}
	if !WithStock(p, parent).InStock() {
		return fail(400, "woocommerce_rest_product_out_of_stock", "You cannot add &quot;%s&quot; to the cart because the product is out of stock.", html.EscapeString(p.Name))
	}
	return nil
}

// AttrKey normalizes an attribute name as clients send it: "attribute_pa_color"
// and "pa_color" are the same attribute.
func AttrKey(s string) string {
	return strings.TrimPrefix(strings.TrimSpace(s), "attribute_")
}

// ChooseVariation picks the variation of parent the shopper chose by
// attributes and returns it with the line's attributes (every variation
// attribute of the parent, "any" ones filled from the choice). Values may be
// term slugs or names.
func ChooseVariation(parent *catalog.Product, variations []*catalog.Product, chosen []Attr) (*catalog.Product, []Attr, error) {
	want := map[string]string{}
	for _, a := range chosen {
		want[AttrKey(a.Attribute)] = strings.TrimSpace(a.Value)
	}
	var missing []string
	for _, pa := range parent.Attributes {
		if !pa.Variation {
			continue
		}
		k := pa.Key()
		v, ok := want[k]
		if !ok || v == "" {
			missing = append(missing, pa.Name)
			continue
		}
		for _, val := range pa.Values { // a term name stands for its slug
			if val.Name == v || strings.EqualFold(val.Slug, v) {
				want[k] = val.Slug
			}
		}
	}
	if len(missing) > 0 {
		return nil, nil, fail(400, "woocommerce_rest_missing_variation_data",
			"Missing variation data for variable product. %s is a required field.", html.EscapeString(strings.Join(missing, ", ")))
	}
	var usable []*catalog.Product
	for _, v := range variations {
		if v.Published() && v.Active {
			usable = append(usable, v)
		}
	}
	v := catalog.MatchVariation(usable, want)
	if v == nil {
		return nil, nil, fail(400, "woocommerce_rest_variation_id_from_variation_data", "No matching variation found.")
	}
	return v, VariationAttrs(v, want), nil
}

// VariationAttrs lists a variation's attributes, "any" values taken from chosen.
func VariationAttrs(v *catalog.Product, chosen map[string]string) []Attr {
	out := make([]Attr, 0, len(v.Variation))
	for _, a := range v.Variation {
		val := a.Value
		if val == "" {
			val = chosen[a.Name]
		}
		out = append(out, Attr{Attribute: a.Name, Value: val})
	}
	return out
}

// Store keeps carts. Every mutation runs in one transaction that re-reads
// the line it changes, so concurrent writes to one session lose nothing.
// AddLine and SetQuantity answer the cart as the mutation left it (read in
// the same transaction), so a response needs no second read.
type Store interface {
	// Cart loads a session's cart; a missing or expired session is an
	// empty cart with Exists false.
	Cart(ctx context.Context, id string, now time.Time) (*Cart, error)
	// AddLine adds qty to the line with l.Key (creating the session and the
	// line when missing). check sees the cart as it is before the add, the
	// quantity the line held and the total it would hold, and may refuse;
	// then nothing changes.
	AddLine(ctx context.Context, id string, l Line, now, expires time.Time, check func(c *Cart, existing, total int64) error) (*Cart, error)
	// SetQuantity sets a line's quantity after check (which sees the cart
	// before the change and the line); ErrNoLine when unknown.
	SetQuantity(ctx context.Context, id, key string, qty int64, now, expires time.Time, check func(c *Cart, l Line) error) (*Cart, error)
	// RemoveLine deletes a line; ErrNoLine when unknown.
	RemoveLine(ctx context.Context, id, key string, now, expires time.Time) error
	// SetCustomer stores addresses and the chosen rate on the session.
	SetCustomer(ctx context.Context, id string, c Customer, now, expires time.Time) error
	// Extend pushes a session's expiry forward.
	Extend(ctx context.Context, id string, expires time.Time) error
	// DeleteExpiredCarts removes sessions (and their lines) expired at now.
	DeleteExpiredCarts(ctx context.Context, now time.Time) (int64, error)
	// RestoreCartLines puts lines back into a session's cart when it is
	// empty (a cart with lines again is left alone).
	RestoreCartLines(ctx context.Context, id string, lines []Line, now, expires time.Time) error
	// ClearCart empties a session's cart.
	ClearCart(ctx context.Context, id string) error
}

// DisplayAttrs shows a line's attributes as WooCommerce does: the
// attribute's label and the term's name.
func DisplayAttrs(parent *catalog.Product, attrs []Attr) []Attr {
	out := make([]Attr, 0, len(attrs))
	for _, a := range attrs {
		label, value := a.Attribute, a.Value
		if parent != nil {
			for _, pa := range parent.Attributes {
				if pa.Key() != a.Attribute {
					continue
				}
				label = pa.Name
				for _, v := range pa.Values {
					if v.Slug == a.Value {
						value = v.Name
					}
				}
			}
		}
		out = append(out, Attr{Attribute: label, Value: value})
	}
	return out
}
