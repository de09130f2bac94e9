package wcimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/coupon"
)

type wcCustomer struct {
	ID             int64        `json:"id"`
	DateCreatedGMT string       `json:"date_created_gmt"`
	Email          string       `json:"email"`
	FirstName      string       `json:"first_name"`
	LastName       string       `json:"last_name"`
	Username       string       `json:"username"`
	Billing        cart.Address `json:"billing"` // the REST API's address is the Store API's
	Shipping       cart.Address `json:"shipping"`
}

// importCustomer moves a customer in with both addresses. The REST API
// carries no password: the account gets an unusable random one (its owner
// sets theirs). An account here with the same email is linked, not
// duplicated, and keeps its own details.
func importCustomer(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var c wcCustomer
	if err := json.Unmarshal(raw, &c); err != nil || c.ID <= 0 {
		return Refused, refuse("", "not a customer record")
	}
	name := strings.TrimSpace(c.Email)
	if name == "" {
		return Refused, refuse(fmt.Sprintf("customer %d", c.ID), "the customer has no email address")
	}
	prev, unchanged, err := r.seen(ctx, "customer", c.ID, raw)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	billing, shipping := c.Billing, c.Shipping
	edit := account.CustomerEdit{Email: &c.Email, FirstName: &c.FirstName, LastName: &c.LastName, Billing: &billing, Shipping: &shipping}
	w := r.deps.History.Customers
	if r.dry {
		if prev == 0 { // an account here with the email would be linked
			found, _, err := w.Customers(ctx, account.CustomerQuery{Email: c.Email, Role: account.RoleAll, Limit: 1})
			if err != nil {
				return 0, err
			}
			if len(found) > 0 {
				prev = found[0].ID
			}
		}
		return outcome(prev), r.remember(ctx, "customer", c.ID, prev, "", raw)
	}
	// update writes the old shop's names and addresses onto account id;
	// a staff account here is linked but keeps its own.
	update := func(id int64) (bool, error) {
		_, err := w.UpdateCustomer(ctx, id, edit)
		switch {
		case err == nil, errors.Is(err, account.ErrStaffOnly):
			return true, r.remember(ctx, "customer", c.ID, id, "", raw)
		case errors.Is(err, account.ErrNoUser):
			return false, nil
		}
		return false, refusalOf(name, err)
	}
	if prev > 0 {
		if ok, err := update(prev); ok || err != nil {
			return Updated, err
		}
		// Deleted here since: moved in again below.
	}
	found, _, err := w.Customers(ctx, account.CustomerQuery{Email: c.Email, Role: account.RoleAll, Limit: 1})
	if err != nil {
		return 0, err
	}
	if len(found) > 0 { // an account here has the email: linked
		if ok, err := update(found[0].ID); ok || err != nil {
			return Updated, err
		}
	}
	edit.Username = &c.Username
	made, err := w.CreateCustomer(ctx, edit)
	if err != nil && (errors.Is(err, account.ErrUsernameTaken) || isField(err, "username")) {
		// A username this shop cannot take (taken, or with characters it
		// does not allow): the account logs in by email.
		edit.Username = nil
		made, err = w.CreateCustomer(ctx, edit)
	}
	if err != nil {
		return 0, refusalOf(name, err)
	}
	if since, err := wcTime(c.DateCreatedGMT); err == nil && !since.IsZero() {
		if err := r.deps.History.CustomerDates.SetUserCreated(ctx, made.ID, since); err != nil {
			return 0, err
		}
	}
	return Created, r.remember(ctx, "customer", c.ID, made.ID, "", raw)
}

func isField(err error, field string) bool {
	var ie *account.InputError
	return errors.As(err, &ie) && ie.Field == field
}

// outcome is a dry run's count: Updated when the record was imported
// before.
func outcome(prev int64) Outcome {
	if prev != 0 {
		return Updated
	}
	return Created
}

type wcCoupon struct {
	ID                        int64    `json:"id"`
	Code                      string   `json:"code"`
	Amount                    string   `json:"amount"`
	Status                    string   `json:"status"`
	DiscountType              string   `json:"discount_type"`
	Description               string   `json:"description"`
	DateExpiresGMT            *string  `json:"date_expires_gmt"`
	UsageCount                int64    `json:"usage_count"`
	IndividualUse             bool     `json:"individual_use"`
	ProductIDs                []int64  `json:"product_ids"`
	ExcludedProductIDs        []int64  `json:"excluded_product_ids"`
	UsageLimit                *int64   `json:"usage_limit"`
	UsageLimitPerUser         *int64   `json:"usage_limit_per_user"`
	LimitUsageToXItems        *int64   `json:"limit_usage_to_x_items"`
	FreeShipping              bool     `json:"free_shipping"`
	ProductCategories         []int64  `json:"product_categories"`
	ExcludedProductCategories []int64  `json:"excluded_product_categories"`
	ExcludeSaleItems          bool     `json:"exclude_sale_items"`
	MinimumAmount             string   `json:"minimum_amount"`
	MaximumAmount             string   `json:"maximum_amount"`
	EmailRestrictions         []string `json:"email_restrictions"`
}

// importCoupon moves a coupon in with its limits and usage count. A rule
// this shop's coupons do not have (free shipping, a maximum spend, allowed
// emails, sale items excluded, a cap on the items discounted) refuses the
// coupon, naming the rule: moved without it, it would discount more than
// it did. A coupon here with the same code is linked and takes the old
// shop's fields.
func importCoupon(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var c wcCoupon
	if err := json.Unmarshal(raw, &c); err != nil || c.ID <= 0 {
		return Refused, refuse("", "not a coupon record")
	}
	name := c.Code
	prev, unchanged, err := r.seen(ctx, "coupon", c.ID, raw)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	var missing []string
	if c.FreeShipping {
		missing = append(missing, "free shipping")
	}
	if c.ExcludeSaleItems {
		missing = append(missing, "excluding sale items")
	}
	if m := strings.TrimSpace(c.MaximumAmount); m != "" && strings.Trim(m, "0.") != "" {
		missing = append(missing, "a maximum spend ("+m+")")
	}
	if len(c.EmailRestrictions) > 0 {
		missing = append(missing, "allowed emails ("+strings.Join(c.EmailRestrictions, ", ")+")")
	}
	if c.LimitUsageToXItems != nil && *c.LimitUsageToXItems > 0 {
		missing = append(missing, fmt.Sprintf("a limit of %d discounted items", *c.LimitUsageToXItems))
	}
	if len(missing) > 0 {
		return Refused, refuse(name, "this shop's coupons have no "+strings.Join(missing, ", no "))
	}
	if c.Status != "" && c.Status != "publish" {
		return Refused, refuse(name, "the coupon is "+c.Status+" in the old shop (coupons here are in use once they exist)")
	}
	in := coupon.Input{Code: &c.Code, Description: &c.Description, Type: &c.DiscountType, Amount: &c.Amount,
		IndividualUse: &c.IndividualUse, MinimumAmount: &c.MinimumAmount}
	if m := strings.TrimSpace(c.MinimumAmount); m == "" || strings.Trim(m, "0.") == "" {
		zero := "0"
		in.MinimumAmount = &zero
	}
	in.DateExpires.Set = true
	if c.DateExpiresGMT == nil || *c.DateExpiresGMT == "" {
		in.DateExpires.Null = true
	} else {
		in.DateExpires.Value = *c.DateExpiresGMT
	}
	in.UsageLimit = coupon.Optional[int64]{Set: true, Null: c.UsageLimit == nil}
	if c.UsageLimit != nil {
		in.UsageLimit.Value = *c.UsageLimit
	}
	in.UsageLimitPerUser = coupon.Optional[int64]{Set: true, Null: c.UsageLimitPerUser == nil}
	if c.UsageLimitPerUser != nil {
		in.UsageLimitPerUser.Value = *c.UsageLimitPerUser
	}
	for _, l := range []struct {
		field string
		old   []int64
		kinds []string
		dst   **[]int64
	}{
		{"product_ids", c.ProductIDs, []string{"product", "variation"}, &in.ProductIDs},
		{"excluded_product_ids", c.ExcludedProductIDs, []string{"product", "variation"}, &in.ExcludedProductIDs},
		{"product_categories", c.ProductCategories, []string{"category"}, &in.CategoryIDs},
		{"excluded_product_categories", c.ExcludedProductCategories, []string{"category"}, &in.ExcludedCategoryIDs},
	} {
		ids := make([]int64, 0, len(l.old))
		for _, old := range l.old {
			var id int64
			for _, k := range l.kinds {
				if id, err = r.newID(ctx, k, old); err != nil {
					return 0, err
				} else if id != 0 {
					break
				}
			}
			if id == 0 {
				return Refused, refuse(name, fmt.Sprintf("%s names %s %d, which was not moved in", l.field, l.kinds[0], old))
			}
			ids = append(ids, id)
		}
		*l.dst = &ids
	}
	out := Updated
	id := prev
	if id == 0 {
		if have, err := r.deps.History.CouponStore.CouponByCode(ctx, coupon.Normalize(c.Code)); err == nil {
			id = have.ID // a coupon here with that code: linked
		} else if !errors.Is(err, coupon.ErrNotFound) {
			return 0, err
		}
	}
	if r.dry {
		return outcome(id), r.remember(ctx, "coupon", c.ID, id, "", raw)
	}
	var saved *coupon.Coupon
	if id != 0 {
		saved, err = r.deps.History.Coupons.Update(ctx, id, in)
		if errors.Is(err, coupon.ErrNotFound) { // deleted here since
			id = 0
		}
	}
	if id == 0 {
		out = Created
		saved, err = r.deps.History.Coupons.Create(ctx, in)
	}
	if err != nil {
		return 0, refusalOf(name, err)
	}
	if err := r.deps.History.CouponStore.SetCouponUsage(ctx, saved.ID, c.UsageCount); err != nil {
		return 0, err
	}
	return out, r.remember(ctx, "coupon", c.ID, saved.ID, "", raw)
}
