package adminapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/coupon"
)

// Coupons: WooCommerce REST v3's /wc/v3/coupons with its field names. The
// rules are internal/coupon's.

// couponJSON is a coupon as WooCommerce's REST API answers it.
type couponJSON struct {
	ID                        int64    `json:"id"`
	Code                      string   `json:"code"`
	Amount                    string   `json:"amount"`
	Status                    string   `json:"status"`
	DateCreated               string   `json:"date_created"`
	DateCreatedGMT            string   `json:"date_created_gmt"`
	DateModified              string   `json:"date_modified"`
	DateModifiedGMT           string   `json:"date_modified_gmt"`
	DiscountType              string   `json:"discount_type"`
	Description               string   `json:"description"`
	DateExpires               *string  `json:"date_expires"`
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
	UsedBy                    []string `json:"used_by"`
	MetaData                  []any    `json:"meta_data"`
}

const wpDate = "2006-01-02T15:04:05"

func (a *API) couponOut(c *coupon.Coupon) couponJSON {
	limit := func(v int64) *int64 {
		if v == 0 {
			return nil
		}
		return &v
	}
	out := couponJSON{ID: c.ID, Code: c.Code, Amount: a.d.Coupons.FormatAmount(c), Status: "publish",
		DateCreated: c.Created.Format(wpDate), DateCreatedGMT: c.Created.Format(wpDate),
		DateModified: c.Updated.Format(wpDate), DateModifiedGMT: c.Updated.Format(wpDate),
		DiscountType: c.Type, Description: c.Description, UsageCount: c.UsageCount, IndividualUse: c.IndividualUse,
		ProductIDs: orNoIDs(c.ProductIDs), ExcludedProductIDs: orNoIDs(c.ExcludedProductIDs),
		UsageLimit: limit(c.UsageLimit), UsageLimitPerUser: limit(c.UsageLimitPerUser),
		ProductCategories: orNoIDs(c.CategoryIDs), ExcludedProductCategories: orNoIDs(c.ExcludedCategoryIDs),
		MinimumAmount: a.d.Coupons.FormatMoney(c.MinimumAmount), MaximumAmount: a.d.Coupons.FormatMoney(0),
		EmailRestrictions: []string{}, UsedBy: []string{}, MetaData: []any{}}
	if c.Expires != nil {
		d := c.Expires.UTC().Format(wpDate)
		out.DateExpires, out.DateExpiresGMT = &d, &d
	}
	return out
}

func orNoIDs(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// couponInput reads a create or edit body: absent fields stay as they
// are; null clears date_expires and the limits; amounts may be strings or
// numbers, as WooCommerce takes them.
func couponInput(r *http.Request) (coupon.Input, error) {
	var raw map[string]json.RawMessage
	if err := Decode(r, &raw); err != nil {
		return coupon.Input{}, err
	}
	var in coupon.Input
	isNull := func(v json.RawMessage) bool { return strings.TrimSpace(string(v)) == "null" }
	str := func(name string) (*string, error) {
		v, ok := raw[name]
		if !ok || isNull(v) {
			return nil, nil
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return &s, nil
		}
		var n json.Number
		if json.Unmarshal(v, &n) == nil {
			s = n.String()
			return &s, nil
		}
		return nil, InvalidParam(name, name+" is not of type string.")
	}
	var err error
	for _, f := range []struct {
		name string
		dst  **string
	}{{"code", &in.Code}, {"description", &in.Description}, {"discount_type", &in.Type}, {"amount", &in.Amount},
		{"minimum_amount", &in.MinimumAmount}} {
		if *f.dst, err = str(f.name); err != nil {
			return in, err
		}
	}
	if v, ok := raw["date_expires"]; ok {
		in.DateExpires.Set, in.DateExpires.Null = true, isNull(v)
		if !in.DateExpires.Null && json.Unmarshal(v, &in.DateExpires.Value) != nil {
			return in, InvalidParam("date_expires", "date_expires is not of type string,null.")
		}
	}
	for _, f := range []struct {
		name string
		dst  *coupon.Optional[int64]
	}{{"usage_limit", &in.UsageLimit}, {"usage_limit_per_user", &in.UsageLimitPerUser}} {
		v, ok := raw[f.name]
		if !ok {
			continue
		}
		f.dst.Set, f.dst.Null = true, isNull(v)
		if f.dst.Null {
			continue
		}
		if n, ok := wholeNumber(v); ok {
			f.dst.Value = n
			continue
		}
		return in, InvalidParam(f.name, f.name+" is not of type integer,null.")
	}
	if v, ok := raw["individual_use"]; ok && !isNull(v) {
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return in, InvalidParam("individual_use", "individual_use is not of type boolean.")
		}
		in.IndividualUse = &b
	}
	for _, f := range []struct {
		name string
		dst  **[]int64
	}{{"product_ids", &in.ProductIDs}, {"excluded_product_ids", &in.ExcludedProductIDs},
		{"product_categories", &in.CategoryIDs}, {"excluded_product_categories", &in.ExcludedCategoryIDs}} {
		v, ok := raw[f.name]
		if !ok || isNull(v) {
			continue
		}
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return in, InvalidParam(f.name, f.name+" is not of type array.")
		}
		ids := make([]int64, 0, len(items))
		for _, it := range items {
			n, ok := wholeNumber(it)
			if !ok {
				return in, InvalidParam(f.name, f.name+"[] is not of type integer.")
			}
			ids = append(ids, n)
		}
		*f.dst = &ids
	}
	return in, nil
}

// wholeNumber reads a JSON integer (or a string holding one).
func wholeNumber(v json.RawMessage) (int64, bool) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		s = string(v)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// GET /wp-json/wc/v3/coupons?search=&code=&page=&per_page= (code= is an
// exact match, search= a part; the totals are the search's)
func (a *API) couponList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var search, code string
	return List[*coupon.Coupon, couponJSON]{
		Search:  &search,
		Filters: []Filter{Text("code", &code)},
		Fetch: func(ctx context.Context, p Paging) ([]*coupon.Coupon, int, error) {
			if code != "" {
				search = code
			}
			list, total, err := a.d.Coupons.List(ctx, coupon.Filter{Search: search, Offset: p.Offset(), Limit: p.PerPage})
			if err != nil || code == "" {
				return list, total, err
			}
			return slices.DeleteFunc(list, func(c *coupon.Coupon) bool { return c.Code != coupon.Normalize(code) }), total, nil
		},
		Row: a.couponOut,
	}.Serve(w, r)
}

// GET /wp-json/wc/v3/coupons/{id}
func (a *API) couponGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := couponID(r)
	if err != nil {
		return err
	}
	c, err := a.d.Coupons.Get(r.Context(), id)
	return answer(w, http.StatusOK, c, err, a.couponOut)
}

// POST /wp-json/wc/v3/coupons
func (a *API) couponCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	in, err := couponInput(r)
	if err != nil {
		return err
	}
	c, err := a.d.Coupons.Create(r.Context(), in)
	return a.couponWritten(w, r, http.StatusCreated, "coupon.create", c, err, func(c *coupon.Coupon) string {
		return "Created coupon " + c.Code + " (" + c.Type + " " + a.d.Coupons.FormatAmount(c) + ")"
	})
}

// PUT/PATCH/POST /wp-json/wc/v3/coupons/{id}
func (a *API) couponUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := couponID(r)
	if err != nil {
		return err
	}
	in, err := couponInput(r)
	if err != nil {
		return err
	}
	c, err := a.d.Coupons.Update(r.Context(), id, in)
	return a.couponWritten(w, r, http.StatusOK, "coupon.update", c, err, func(c *coupon.Coupon) string { return "Edited coupon " + c.Code })
}

// DELETE /wp-json/wc/v3/coupons/{id}: deleted for good (there is no trash;
// force is accepted and changes nothing).
func (a *API) couponDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := couponID(r)
	if err != nil {
		return err
	}
	c, err := a.d.Coupons.Delete(r.Context(), id)
	return a.couponWritten(w, r, http.StatusOK, "coupon.delete", c, err, func(c *coupon.Coupon) string { return "Deleted coupon " + c.Code })
}

// couponWritten ends a coupon's write: the use case's error, or the audit
// note (action, and what summary says of c) and c answered with status.
func (a *API) couponWritten(w http.ResponseWriter, r *http.Request, status int, action string, c *coupon.Coupon, err error,
	summary func(*coupon.Coupon) string) error {
	if err != nil {
		return err
	}
	Note(r, action, "coupon", c.ID, summary(c))
	WriteJSON(w, status, a.couponOut(c))
	return nil
}

var errCouponID = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_shop_coupon_invalid_id", Message: "Invalid ID."}

func couponID(r *http.Request) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		return 0, errCouponID
	}
	return n, nil
}

// couponError maps coupon's errors (asError).
func couponError(err error) (*Error, bool) {
	var ie *coupon.InputError
	switch {
	case errors.Is(err, coupon.ErrNotFound):
		return errCouponID, true
	case errors.Is(err, coupon.ErrCodeTaken):
		return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_coupon_code_already_exists",
			Message: "The coupon code already exists"}, true
	case errors.As(err, &ie):
		return InvalidParam(ie.Field, ie.Message), true
	}
	return nil, false
}
