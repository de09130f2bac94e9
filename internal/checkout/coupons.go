package checkout

import (
	"context"
	"errors"
	"slices"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/coupon"
	"vitrine/internal/currency"
)

// Coupons on a cart. The session keeps the codes applied
// (cart.Customer.Coupons, in order); every pricing of the cart loads them,
// converts their fixed amounts into the cart's currency, checks them
// against the cart now (coupon.Check, and the per-customer limit by
// account or billing email), and quotes with the ones that pass. One that
// no longer passes is left out of the quote and reported
// (PricedCart.CouponErrors); a read drops it from the session, as
// WooCommerce drops invalid coupons when the cart is loaded. The order's
// transaction counts each coupon's use (sqlstore.PlaceOrder).

// CouponStore is what the checkout reads of coupons (the SQL store).
type CouponStore interface {
	CouponByCode(ctx context.Context, code string) (*coupon.Coupon, error)
	CouponUses(ctx context.Context, couponID, customerID int64, email string) (int64, error)
}

// Coupon errors of the Store API besides coupon's own.
var (
	// ErrCouponsDisabled: the shop has no coupons (no CouponStore).
	ErrCouponsDisabled = &cart.Error{Status: 404, Code: "woocommerce_rest_cart_coupon_disabled", Message: "Coupons are disabled."}
	// ErrCouponInvalid: a removal names a code no coupon has.
	ErrCouponInvalid = &cart.Error{Status: 400, Code: coupon.CodeError, Message: "Invalid coupon code."}
	// ErrCouponNotApplied: a removal names a coupon the cart does not hold.
	ErrCouponNotApplied = &cart.Error{Status: 409, Code: coupon.CodeInvalidCode,
		Message: "Coupon cannot be removed because it is not already applied to the cart."}
	// ErrCouponNotInCart: GET /cart/coupons/{code} of a coupon the cart
	// does not hold.
	ErrCouponNotInCart = &cart.Error{Status: 404, Code: coupon.CodeInvalidCode, Message: "Coupon does not exist in the cart."}
)

// ConvertCoupon is c with its fixed amounts (discount, minimum spend) in
// the currency t converts into (rounded to its minor unit, no price
// ending: they are not product prices); c itself in the base currency.
// baseMinor is the base currency's minor unit.
func ConvertCoupon(c *coupon.Coupon, t *currency.Table, baseMinor int) (*coupon.Coupon, error) {
	if t == nil || t.IsBase() {
		return c, nil
	}
	plain := t.Currency
	plain.Rounding, plain.Step, plain.Ending = currency.RoundNone, 1, 0
	out := *c
	var err error
	if c.Type != coupon.Percent {
		if out.Amount, err = currency.Convert(c.Amount, baseMinor, plain); err != nil {
			return nil, err
		}
	}
	if out.MinimumAmount, err = currency.Convert(c.MinimumAmount, baseMinor, plain); err != nil {
		return nil, err
	}
	return &out, nil
}

// couponLines are the priced cart's lines as coupon rules see them.
func couponLines(items []Item) []coupon.Line {
	out := make([]coupon.Line, len(items))
	for i, it := range items {
		out[i] = it.couponLine()
	}
	return out
}

// couponsFor loads the codes applied to a cart and checks them against its
// items now (prices in pr's currency): the coupons that pass, converted,
// and the refusals of those that do not. customerID and email name the
// shopper for per-customer limits.
func (s *Service) couponsFor(ctx context.Context, codes []string, items []Item, pr *Pricing, customerID int64, email string) ([]*coupon.Coupon, []*cart.Error, error) {
	if s.Coupons == nil || len(codes) == 0 {
		return nil, nil, nil
	}
	var ok []*coupon.Coupon
	var refused []*cart.Error
	lines := couponLines(items)
	for _, code := range codes {
		c, err := s.Coupons.CouponByCode(ctx, code)
		if errors.Is(err, coupon.ErrNotFound) {
			refused = append(refused, coupon.ErrNotExist(code))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if c, err = ConvertCoupon(c, pr.Table, s.config().Currency.MinorUnit); err != nil {
			return nil, nil, err
		}
		if err := s.checkCoupon(ctx, c, ok, lines, pr, customerID, email); err != nil {
			var ce *cart.Error
			if !errors.As(err, &ce) {
				return nil, nil, err
			}
			refused = append(refused, ce)
			continue
		}
		ok = append(ok, c)
	}
	return ok, refused, nil
}

// checkCoupon checks one coupon (converted) for a cart that holds applied.
func (s *Service) checkCoupon(ctx context.Context, c *coupon.Coupon, applied []*coupon.Coupon, lines []coupon.Line, pr *Pricing,
	customerID int64, email string) error {
	if _, err := coupon.Combine(applied, c); err != nil {
		return err
	}
	if err := coupon.Check(c, lines, s.now(), pr.Config.Currency.Format); err != nil {
		return err
	}
	if c.UsageLimitPerUser > 0 && (customerID > 0 || email != "") {
		uses, err := s.Coupons.CouponUses(ctx, c.ID, customerID, strings.ToLower(email))
		if err != nil {
			return err
		}
		return coupon.CheckUses(c, uses)
	}
	return nil
}

// codesOf are the coupons' codes.
func codesOf(cs []*coupon.Coupon) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Code
	}
	return out
}

// ApplyCoupon applies a code to the session's cart priced in code's
// currency (cur): refused with coupon's errors (WooCommerce's messages)
// when it does not exist, is already applied, cannot be combined, or does
// not pass its rules on this cart now. A coupon for individual use
// replaces the others.
func (s *Service) ApplyCoupon(ctx context.Context, session, code, cur string) error {
	if s.Coupons == nil {
		return ErrCouponsDisabled
	}
	raw := strings.TrimSpace(code)
	code = coupon.Normalize(code)
	if code == "" {
		return coupon.ErrEmptyCode()
	}
	if len(code) > coupon.MaxCodeLength {
		return coupon.ErrNotExist(strings.ToValidUTF8(raw[:coupon.MaxCodeLength], ""))
	}
	stored, pc, err := s.priced(ctx, session, cur, false)
	if err != nil {
		return err
	}
	c, err := s.Coupons.CouponByCode(ctx, code)
	if errors.Is(err, coupon.ErrNotFound) {
		return coupon.ErrNotExist(raw)
	}
	if err != nil {
		return err
	}
	if c, err = ConvertCoupon(c, pc.Pricing.Table, s.config().Currency.MinorUnit); err != nil {
		return err
	}
	if err := s.checkCoupon(ctx, c, pc.Coupons, couponLines(pc.items), pc.Pricing, cart.SessionCustomer(session),
		stored.Customer.Billing.Email); err != nil {
		return err
	}
	all, _ := coupon.Combine(pc.Coupons, c)
	cust := stored.Customer
	cust.Coupons = codesOf(all)
	return s.Carts.SetCustomer(ctx, session, cust)
}

// RemoveCoupon takes a code off the session's cart.
func (s *Service) RemoveCoupon(ctx context.Context, session, code string) error {
	if s.Coupons == nil {
		return ErrCouponsDisabled
	}
	code = coupon.Normalize(code)
	stored, err := s.Carts.Get(ctx, session)
	if err != nil {
		return err
	}
	i := slices.Index(stored.Customer.Coupons, code)
	if i < 0 {
		if _, err := s.Coupons.CouponByCode(ctx, code); errors.Is(err, coupon.ErrNotFound) || code == "" || len(code) > coupon.MaxCodeLength {
			return ErrCouponInvalid
		} else if err != nil {
			return err
		}
		return ErrCouponNotApplied
	}
	cust := stored.Customer
	cust.Coupons = slices.Delete(slices.Clone(cust.Coupons), i, i+1)
	return s.Carts.SetCustomer(ctx, session, cust)
}

// RemoveCoupons takes every coupon off the session's cart.
func (s *Service) RemoveCoupons(ctx context.Context, session string) error {
	if s.Coupons == nil {
		return ErrCouponsDisabled
	}
	stored, err := s.Carts.Get(ctx, session)
	if err != nil {
		return err
	}
	if len(stored.Customer.Coupons) == 0 {
		return nil
	}
	cust := stored.Customer
	cust.Coupons = nil
	return s.Carts.SetCustomer(ctx, session, cust)
}

// couponRefusal is a coupon's refusal at checkout: 409, as the cart
// changed under the review (the adapters answer the cart, so the review
// shows the new total).
func couponRefusal(e *cart.Error) *cart.Error {
	return &cart.Error{Status: 409, Code: e.Code, Message: e.Message}
}

// ErrCouponUsedUp refuses an order whose coupon reached its usage limit
// (in all or for this customer) while it was placed: another order took
// the last use.
func ErrCouponUsedUp(code string) *cart.Error { return couponRefusal(coupon.ErrUsageLimit(code)) }
