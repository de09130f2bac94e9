package storeapi

import (
	"context"
	"net/http"

	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
)

// The Store API's coupon routes: apply-coupon and remove-coupon
// answer the cart; /cart/coupons[/{code}] answer coupons. The rules are
// checkout's (coupons.go) and coupon's; these handlers parse the code,
// call one use case and shape the answer.

// ApplyCoupon serves POST /cart/apply-coupon.
func (a *API) ApplyCoupon(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartApplyCoupon)
}

// RemoveCoupon serves POST /cart/remove-coupon.
func (a *API) RemoveCoupon(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartRemoveCoupon)
}

// ListCoupons serves GET /cart/coupons.
func (a *API) ListCoupons(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, false, a.cartCouponsGet)
}

// AddCoupon serves POST /cart/coupons.
func (a *API) AddCoupon(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartCouponsPost)
}

// DeleteCoupons serves DELETE /cart/coupons.
func (a *API) DeleteCoupons(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartCouponsDelete)
}

// GetCoupon serves GET /cart/coupons/{code}.
func (a *API) GetCoupon(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, false, a.cartCouponGet)
}

// DeleteCoupon serves DELETE /cart/coupons/{code}.
func (a *API) DeleteCoupon(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartCouponDelete)
}

// cartCoupon is a coupon as the cart shows it (WooCommerce's cart coupon
// schema).
type cartCoupon struct {
	Code         string       `json:"code"`
	DiscountType string       `json:"discount_type"`
	Totals       couponTotals `json:"totals"`
}

type couponTotals struct {
	TotalDiscount    string `json:"total_discount"`
	TotalDiscountTax string `json:"total_discount_tax"`
	money.Currency
}

// POST /cart/apply-coupon {code}: the cart with the coupon.
func (a *API) cartApplyCoupon(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	return a.cartAfter(ctx, sess, a.d.Checkout.ApplyCoupon(ctx, sess.ID, in.get("code"), sess.Currency))
}

// POST /cart/remove-coupon {code}: the cart without it.
func (a *API) cartRemoveCoupon(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	return a.cartAfter(ctx, sess, a.d.Checkout.RemoveCoupon(ctx, sess.ID, in.get("code")))
}

// GET /cart/coupons: the coupons applied.
func (a *API) cartCouponsGet(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, withCart{c.Coupons, c}, nil
}

// POST /cart/coupons {code}: applies it and answers it (201).
func (a *API) cartCouponsPost(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	if err := a.d.Checkout.ApplyCoupon(ctx, sess.ID, in.get("code"), sess.Currency); err != nil {
		return 0, nil, err
	}
	return a.couponResponse(ctx, sess, in.get("code"), http.StatusCreated)
}

// DELETE /cart/coupons: removes them all (an empty list).
func (a *API) cartCouponsDelete(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	if err := a.d.Checkout.RemoveCoupons(ctx, sess.ID); err != nil {
		return 0, nil, err
	}
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, withCart{c.Coupons, c}, nil
}

// GET /cart/coupons/{code}: one coupon of the cart.
func (a *API) cartCouponGet(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	return a.couponResponse(ctx, sess, r.PathValue("code"), http.StatusOK)
}

// DELETE /cart/coupons/{code}: removes it (204).
func (a *API) cartCouponDelete(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	if err := a.d.Checkout.RemoveCoupon(ctx, sess.ID, r.PathValue("code")); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (a *API) couponResponse(ctx context.Context, sess httpx.Session, code string, status int) (int, any, error) {
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		return 0, nil, err
	}
	code = coupon.Normalize(code)
	for _, cc := range c.Coupons {
		if cc.Code == code {
			return status, withCart{cc, c}, nil
		}
	}
	return 0, nil, checkout.ErrCouponNotInCart
}
