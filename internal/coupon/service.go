package coupon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vitrine/internal/clock"
	"vitrine/internal/money"
)

// Store is what coupons need of storage (the SQL store implements it).
type Store interface {
	// CreateCoupon stores a new coupon and answers its id: ErrCodeTaken
	// when another coupon has its code.
	CreateCoupon(ctx context.Context, c *Coupon) (int64, error)
	// UpdateCoupon saves every field but the usage count: ErrNotFound,
	// ErrCodeTaken.
	UpdateCoupon(ctx context.Context, c *Coupon) error
	DeleteCoupon(ctx context.Context, id int64) error
	Coupon(ctx context.Context, id int64) (*Coupon, error)
	// CouponByCode finds a normalized code: ErrNotFound.
	CouponByCode(ctx context.Context, code string) (*Coupon, error)
	Coupons(ctx context.Context, f Filter) ([]*Coupon, int, error)
	// CouponUses counts the orders placed with the coupon by an account
	// (customerID > 0) or a billing email ("" : none).
	CouponUses(ctx context.Context, couponID, customerID int64, email string) (int64, error)
}

// Filter is a page of the coupon list: a search in codes, newest first.
type Filter struct {
	Search string
	Offset int
	Limit  int
}

// Errors of the store and the use cases.
var (
	ErrNotFound  = errors.New("coupon not found")
	ErrCodeTaken = errors.New("coupon code already exists")
)

// InputError is a field the admin sent that the rules refuse.
type InputError struct{ Field, Message string }

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Service is the admin's use cases on coupons: list, read, create, update
// and delete, with every field checked.
type Service struct {
	Store Store
	// Currency is the shop's base currency: fixed amounts are written in
	// it.
	Currency money.Currency
	Now      func() time.Time
}

func (s *Service) now() time.Time { return clock.Now(s.Now) }

// Input is a create or an edit as the admin sends it, in WooCommerce's
// field names (amounts as decimal strings); nil fields are left as they
// are (on create: their defaults). A null date_expires, usage_limit or
// usage_limit_per_user clears it.
type Input struct {
	Code                *string
	Description         *string
	Type                *string
	Amount              *string
	DateExpires         Optional[string]
	MinimumAmount       *string
	UsageLimit          Optional[int64]
	UsageLimitPerUser   Optional[int64]
	IndividualUse       *bool
	ProductIDs          *[]int64
	ExcludedProductIDs  *[]int64
	CategoryIDs         *[]int64
	ExcludedCategoryIDs *[]int64
}

// Optional is a field that may be absent (Set false), null (Null) or a
// value.
type Optional[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// maxIDs bounds each restriction list.
const maxIDs = 1000

// apply writes in onto c, checking each field.
func (s *Service) apply(c *Coupon, in Input) error {
	if in.Code != nil {
		code := Normalize(*in.Code)
		switch {
		case code == "":
			return &InputError{"code", "A coupon needs a code."}
		case len(code) > MaxCodeLength:
			return &InputError{"code", fmt.Sprintf("The code is longer than %d characters.", MaxCodeLength)}
		case strings.ContainsAny(code, "\x00\r\n\t<>"):
			return &InputError{"code", "The code has characters a shopper cannot type."}
		}
		c.Code = code
	}
	if in.Description != nil {
		if len(*in.Description) > 2000 {
			return &InputError{"description", "The description is longer than 2000 characters."}
		}
		c.Description = strings.TrimSpace(*in.Description)
	}
	if in.Type != nil {
		switch *in.Type {
		case Percent, FixedCart, FixedProduct:
			c.Type = *in.Type
		default:
			return &InputError{"discount_type", "discount_type is not one of percent, fixed_cart and fixed_product."}
		}
	}
	if in.Amount != nil {
		a, err := s.parseAmount(c.Type, *in.Amount)
		if err != nil {
			return &InputError{"amount", err.Error()}
		}
		c.Amount = a
	} else if in.Type != nil && c.Type == Percent && c.Amount > MaxPercent {
		return &InputError{"amount", "A percentage discount cannot be over 100."}
	}
	if in.DateExpires.Set {
		if in.DateExpires.Null || strings.TrimSpace(in.DateExpires.Value) == "" {
			c.Expires = nil
		} else {
			t, err := ParseDate(in.DateExpires.Value)
			if err != nil {
				return &InputError{"date_expires", "date_expires is not a date (2026-12-31 or 2026-12-31T00:00:00)."}
			}
			c.Expires = &t
		}
	}
	if in.MinimumAmount != nil {
		v := strings.TrimSpace(*in.MinimumAmount)
		var m int64
		if v != "" {
			var err error
			if m, err = money.Parse(v, s.Currency.MinorUnit); err != nil || m < 0 || m > maxFixed {
				return &InputError{"minimum_amount", "minimum_amount is not an amount of money."}
			}
		}
		c.MinimumAmount = m
	}
	for _, f := range []struct {
		name string
		in   Optional[int64]
		dst  *int64
	}{{"usage_limit", in.UsageLimit, &c.UsageLimit}, {"usage_limit_per_user", in.UsageLimitPerUser, &c.UsageLimitPerUser}} {
		if !f.in.Set {
			continue
		}
		if f.in.Null {
			*f.dst = 0
			continue
		}
		if f.in.Value < 0 || f.in.Value > 1_000_000_000 {
			return &InputError{f.name, f.name + " must be a whole number of 0 (no limit) or more."}
		}
		*f.dst = f.in.Value
	}
	if in.IndividualUse != nil {
		c.IndividualUse = *in.IndividualUse
	}
	for _, f := range []struct {
		name string
		in   *[]int64
		dst  *[]int64
	}{{"product_ids", in.ProductIDs, &c.ProductIDs}, {"excluded_product_ids", in.ExcludedProductIDs, &c.ExcludedProductIDs},
		{"product_categories", in.CategoryIDs, &c.CategoryIDs}, {"excluded_product_categories", in.ExcludedCategoryIDs, &c.ExcludedCategoryIDs}} {
		if f.in == nil {
			continue
		}
		if len(*f.in) > maxIDs {
			return &InputError{f.name, fmt.Sprintf("%s holds more than %d ids.", f.name, maxIDs)}
		}
		ids := make([]int64, 0, len(*f.in))
		for _, id := range *f.in {
			if id <= 0 {
				return &InputError{f.name, f.name + " must hold positive ids."}
			}
			if !containsID(ids, id) {
				ids = append(ids, id)
			}
		}
		*f.dst = ids
	}
	return nil
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// maxFixed bounds fixed amounts and minimums (10⁹ minor units, the price
// function's unit-price bound).
const maxFixed = 1_000_000_000

// parseAmount reads an amount for a discount type: a percentage of up to
// three decimals (at most 100) or money in the base currency.
func (s *Service) parseAmount(typ, v string) (int64, error) {
	v = strings.TrimSpace(v)
	if typ == Percent {
		p, err := money.Parse(v, 3)
		if err != nil || p < 0 {
			return 0, errors.New("amount is not a percentage (up to three decimals).")
		}
		if p > MaxPercent {
			return 0, errors.New("A percentage discount cannot be over 100.")
		}
		return p, nil
	}
	a, err := money.Parse(v, s.Currency.MinorUnit)
	if err != nil || a < 0 || a > maxFixed {
		return 0, fmt.Errorf("amount is not an amount of %s.", s.Currency.Code)
	}
	return a, nil
}

// ParseDate reads an expiry date: "2026-12-31" (that day's start),
// "2026-12-31T00:00:00" (UTC, the shop's time) or RFC 3339.
func ParseDate(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: %q", v)
}

// FormatAmount writes a coupon's amount as WooCommerce does ("10.00"):
// percentages with two to three decimals, fixed amounts in the base
// currency's decimals.
func (s *Service) FormatAmount(c *Coupon) string {
	if c.Type == Percent {
		out := money.Currency{MinorUnit: 3, DecimalSeparator: "."}.FormatNumber(c.Amount)
		return strings.TrimSuffix(out, "0")
	}
	return s.FormatMoney(c.Amount)
}

// FormatMoney writes a base-currency amount as a plain decimal ("1234.50").
func (s *Service) FormatMoney(v int64) string {
	return money.Currency{MinorUnit: s.Currency.MinorUnit, DecimalSeparator: "."}.FormatNumber(v)
}

// List is a page of coupons and how many match in all.
func (s *Service) List(ctx context.Context, f Filter) ([]*Coupon, int, error) {
	f.Search = Normalize(f.Search)
	return s.Store.Coupons(ctx, f)
}

// Get reads one coupon: ErrNotFound.
func (s *Service) Get(ctx context.Context, id int64) (*Coupon, error) { return s.Store.Coupon(ctx, id) }

// Create makes a coupon: a code and a type are required (the type
// defaults to fixed_cart, as WooCommerce's).
func (s *Service) Create(ctx context.Context, in Input) (*Coupon, error) {
	if in.Code == nil {
		return nil, &InputError{"code", "A coupon needs a code."}
	}
	now := s.now().Truncate(time.Second)
	c := &Coupon{Type: FixedCart, Created: now, Updated: now}
	if in.Type != nil {
		c.Type = *in.Type // the amount is read in its type; apply checks it
	}
	if err := s.apply(c, in); err != nil {
		return nil, err
	}
	id, err := s.Store.CreateCoupon(ctx, c)
	if err != nil {
		return nil, err
	}
	c.ID = id
	return c, nil
}

// Update edits a coupon: ErrNotFound, ErrCodeTaken, *InputError.
func (s *Service) Update(ctx context.Context, id int64, in Input) (*Coupon, error) {
	c, err := s.Store.Coupon(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Type != nil {
		c.Type = *in.Type // the amount is read in the new type; apply checks it
	}
	if err := s.apply(c, in); err != nil {
		return nil, err
	}
	c.Updated = s.now().Truncate(time.Second)
	if err := s.Store.UpdateCoupon(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// Delete removes a coupon and answers it as it was. Orders placed with it
// keep its code and discount.
func (s *Service) Delete(ctx context.Context, id int64) (*Coupon, error) {
	c, err := s.Store.Coupon(ctx, id)
	if err != nil {
		return nil, err
	}
	return c, s.Store.DeleteCoupon(ctx, id)
}
