// Package coupon owns discount coupons: what a coupon is, the
// rules that decide whether one may be used on a cart (expiry, minimum
// spend, usage limits per coupon and per customer, product and category
// restrictions, individual use) with WooCommerce's messages, and the
// admin's use cases (Service). The amounts a coupon takes off are computed
// by checkout.Quote, the shop's one price function, so taxes are computed
// after discounts there and the totals' parts still sum to the total.
//
// A coupon's usage is counted when an order is placed, in the order's
// transaction (sqlstore.PlaceOrder): a conditional UPDATE on the coupon's
// row, so a single-use coupon raced by many checkouts is used once.
package coupon

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"vitrine/internal/cart"
)

// Discount types (WooCommerce's discount_type).
const (
	Percent      = "percent"       // a percentage off each eligible line
	FixedCart    = "fixed_cart"    // an amount off the eligible lines together
	FixedProduct = "fixed_product" // an amount off each eligible unit
)

// Types lists the discount types.
var Types = []string{Percent, FixedCart, FixedProduct}

// Coupon is a discount code.
type Coupon struct {
	ID          int64
	Code        string // normalized (Normalize): trimmed and lower case
	Description string
	Type        string
	// Amount is, for Percent, thousandths of a percent (12.5 % = 12500,
	// the unit of tax rates); for fixed types, minor units of the shop's
	// base currency, as entered (including tax when prices are entered
	// with tax). A cart in another currency converts fixed amounts
	// (checkout.Pricing).
	Amount int64
	// Expires is the moment the coupon stops working (nil: never).
	Expires *time.Time
	// MinimumAmount is the least the eligible cart must cost, prices as
	// entered, in minor units of the base currency (0: none).
	MinimumAmount     int64
	UsageLimit        int64 // uses in all (0: unlimited)
	UsageLimitPerUser int64 // uses per customer, by account or billing email (0: unlimited)
	UsageCount        int64 // orders placed with it
	IndividualUse     bool  // cannot be combined with other coupons
	// Restrictions: a line is eligible when its product (or variation) is
	// in ProductIDs and/or one of its categories in CategoryIDs (when set),
	// and neither is excluded.
	ProductIDs          []int64
	ExcludedProductIDs  []int64
	CategoryIDs         []int64
	ExcludedCategoryIDs []int64
	Created             time.Time
	Updated             time.Time
}

// MaxPercent is 100 % in Amount's unit.
const MaxPercent = 100_000

// MaxCodeLength bounds a code (WordPress's post title is longer, but a
// code is typed by shoppers).
const MaxCodeLength = 100

// Normalize is a code as it is stored and compared: trimmed, lower case
// (WooCommerce's codes are case-insensitive).
func Normalize(code string) string { return strings.ToLower(strings.TrimSpace(code)) }

// Line is a cart line as the rules see it: what it sells and its amount
// (unit price as entered × quantity, in the cart's currency).
type Line struct {
	Name        string
	ProductID   int64
	VariationID int64
	CategoryIDs []int64
	Amount      int64
}

// Applies reports whether the coupon discounts line l.
func (c *Coupon) Applies(l Line) bool {
	if c.excludedProduct(l) || c.excludedCategory(l) {
		return false
	}
	if len(c.ProductIDs) == 0 && len(c.CategoryIDs) == 0 {
		return true
	}
	return c.includedProduct(l) || c.includedCategory(l)
}

func (c *Coupon) includedProduct(l Line) bool {
	return slices.Contains(c.ProductIDs, l.ProductID) || (l.VariationID != 0 && slices.Contains(c.ProductIDs, l.VariationID))
}

func (c *Coupon) includedCategory(l Line) bool {
	for _, id := range l.CategoryIDs {
		if slices.Contains(c.CategoryIDs, id) {
			return true
		}
	}
	return false
}

func (c *Coupon) excludedProduct(l Line) bool {
	return slices.Contains(c.ExcludedProductIDs, l.ProductID) || (l.VariationID != 0 && slices.Contains(c.ExcludedProductIDs, l.VariationID))
}

func (c *Coupon) excludedCategory(l Line) bool {
	for _, id := range l.CategoryIDs {
		if slices.Contains(c.ExcludedCategoryIDs, id) {
			return true
		}
	}
	return false
}

// Expired reports whether the coupon has expired at now.
func (c *Coupon) Expired(now time.Time) bool { return c.Expires != nil && !now.Before(*c.Expires) }

// The Store API's coupon error code (every refusal of a coupon) and the
// code of an unknown or absent one on removal.
const (
	CodeError       = "woocommerce_rest_cart_coupon_error"
	CodeInvalidCode = "woocommerce_rest_cart_coupon_invalid_code"
)

func refuse(format string, args ...any) *cart.Error {
	return &cart.Error{Status: 400, Code: CodeError, Message: fmt.Sprintf(format, args...)}
}

func q(code string) string { return html.EscapeString(code) }

// Refusals, with WooCommerce's messages (codes HTML-escaped, as
// WooCommerce writes them).
func ErrEmptyCode() *cart.Error { return refuse("Please enter a coupon code.") }

// ErrNotExist: no coupon has that code.
func ErrNotExist(code string) *cart.Error {
	return refuse("Coupon \"%s\" cannot be applied because it does not exist.", q(code))
}

// ErrAlreadyApplied: the cart has it.
func ErrAlreadyApplied(code string) *cart.Error {
	return refuse("Coupon code \"%s\" has already been applied.", q(code))
}

// ErrIndividualUse: a coupon already in the cart cannot be combined.
func ErrIndividualUse(code string) *cart.Error {
	return refuse("Sorry, coupon \"%s\" has already been applied and cannot be used in conjunction with other coupons.", q(code))
}

// ErrExpired: past its date.
func ErrExpired(code string) *cart.Error { return refuse("Coupon \"%s\" has expired.", q(code)) }

// ErrUsageLimit: used as often as it may be (in all, or by this customer).
func ErrUsageLimit(code string) *cart.Error {
	return refuse("Usage limit for coupon \"%s\" has been reached.", q(code))
}

// ErrMinimumSpend: the cart costs less than the minimum (min formatted).
func ErrMinimumSpend(code, min string) *cart.Error {
	return refuse("The minimum spend for coupon \"%s\" is %s.", q(code), html.EscapeString(min))
}

// ErrNotApplicable: no line of the cart is eligible.
func ErrNotApplicable(code string) *cart.Error {
	return refuse("Sorry, coupon \"%s\" is not applicable to selected products.", q(code))
}

// ErrExcludedProducts: a cart coupon and excluded products in the cart.
func ErrExcludedProducts(code string, names []string) *cart.Error {
	return refuse("Sorry, coupon \"%s\" is not applicable to the products: %s.", q(code), html.EscapeString(strings.Join(names, ", ")))
}

// ErrExcludedCategories: a cart coupon and products of excluded
// categories in the cart.
func ErrExcludedCategories(code string, names []string) *cart.Error {
	return refuse("Sorry, coupon \"%s\" is not applicable to the categories: %s.", q(code), html.EscapeString(strings.Join(names, ", ")))
}

// Check decides whether c may be used on lines at now (c's amounts in the
// lines' currency; format writes the minimum spend for the message):
// expiry, the usage limit, the minimum spend (the lines' amounts as
// entered, before discounts) and the restrictions. A fixed-cart coupon is
// refused when the cart holds an excluded product or category (it would
// apply to the whole cart); the other types need one eligible line.
// Per-customer limits are CheckUses'.
func Check(c *Coupon, lines []Line, now time.Time, format func(int64) string) error {
	if c.Expired(now) {
		return ErrExpired(c.Code)
	}
	if c.UsageLimit > 0 && c.UsageCount >= c.UsageLimit {
		return ErrUsageLimit(c.Code)
	}
	var total int64
	eligible := false
	var exProducts, exCategories []string
	for _, l := range lines {
		total += l.Amount
		if c.Applies(l) {
			eligible = true
		}
		if c.excludedProduct(l) {
			exProducts = append(exProducts, l.Name)
		} else if c.excludedCategory(l) {
			exCategories = append(exCategories, l.Name)
		}
	}
	if c.MinimumAmount > 0 && total < c.MinimumAmount {
		return ErrMinimumSpend(c.Code, format(c.MinimumAmount))
	}
	if len(c.ProductIDs) > 0 || len(c.CategoryIDs) > 0 {
		matched := false
		for _, l := range lines {
			matched = matched || c.includedProduct(l) || c.includedCategory(l)
		}
		if !matched {
			return ErrNotApplicable(c.Code)
		}
	}
	if c.Type == FixedCart {
		if len(exProducts) > 0 {
			return ErrExcludedProducts(c.Code, exProducts)
		}
		if len(exCategories) > 0 {
			return ErrExcludedCategories(c.Code, exCategories)
		}
	}
	if !eligible {
		return ErrNotApplicable(c.Code)
	}
	return nil
}

// CheckUses refuses a coupon the customer has used as often as it allows
// (uses: their orders with it, by account or billing email).
func CheckUses(c *Coupon, uses int64) error {
	if c.UsageLimitPerUser > 0 && uses >= c.UsageLimitPerUser {
		return ErrUsageLimit(c.Code)
	}
	return nil
}

// Combine decides the coupons a cart holds after adding add to applied
// (in application order): refused when add is already there or an applied
// coupon is for individual use; an individual-use add replaces the others.
func Combine(applied []*Coupon, add *Coupon) ([]*Coupon, error) {
	for _, c := range applied {
		if c.Code == add.Code {
			return nil, ErrAlreadyApplied(add.Code)
		}
	}
	for _, c := range applied {
		if c.IndividualUse {
			return nil, ErrIndividualUse(c.Code)
		}
	}
	if add.IndividualUse {
		return []*Coupon{add}, nil
	}
	return append(slices.Clone(applied), add), nil
}
