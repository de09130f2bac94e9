package adminapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/orders"
)

// Creating orders: POST /wc/v3/orders on the checkout's staff orders
// (checkout.Service.PlaceStaffOrder), priced by the shop's own price
// function and placed by the checkout's transaction (stock, the
// order.created webhook, the order mails).

// orderCreateBody is WooCommerce's order create, the fields the shop
// takes (others are ignored, as WordPress ignores unknown fields).
type orderCreateBody struct {
	Status             string        `json:"status"`
	SetPaid            bool          `json:"set_paid"`
	CustomerID         int64         `json:"customer_id"`
	CustomerNote       string        `json:"customer_note"`
	PaymentMethod      string        `json:"payment_method"`
	PaymentMethodTitle string        `json:"payment_method_title"`
	Billing            cart.Address  `json:"billing"`
	Shipping           *cart.Address `json:"shipping"`
	LineItems          []struct {
		ProductID   int64 `json:"product_id"`
		VariationID int64 `json:"variation_id"`
		Quantity    int64 `json:"quantity"`
	} `json:"line_items"`
	ShippingLines []struct {
		MethodID   string `json:"method_id"`
		InstanceID string `json:"instance_id"`
	} `json:"shipping_lines"`
	CouponLines []struct {
		Code string `json:"code"`
	} `json:"coupon_lines"`
}

func (b orderCreateBody) order() checkout.StaffOrder {
	o := checkout.StaffOrder{CustomerID: b.CustomerID, Billing: b.Billing, Shipping: b.Shipping,
		Status: strings.TrimPrefix(b.Status, "wc-"), SetPaid: b.SetPaid, Method: b.PaymentMethod, MethodTitle: b.PaymentMethodTitle,
		Note: b.CustomerNote}
	for _, l := range b.LineItems {
		o.Lines = append(o.Lines, checkout.StaffLine{ProductID: l.ProductID, VariationID: l.VariationID, Quantity: l.Quantity})
	}
	if len(b.ShippingLines) > 0 && b.ShippingLines[0].MethodID != "" {
		o.RateID = b.ShippingLines[0].MethodID
		if b.ShippingLines[0].InstanceID != "" {
			o.RateID += ":" + b.ShippingLines[0].InstanceID
		}
	}
	for _, c := range b.CouponLines {
		if c.Code != "" {
			o.Coupons = append(o.Coupons, c.Code)
		}
	}
	return o
}

var errCustomerIDInvalid = &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_invalid_customer_id", Message: "Customer ID is invalid."}

// createOrder places one order: the customer must exist.
func (a *API) createOrder(r *http.Request, b orderCreateBody) (*checkout.Order, error) {
	if b.CustomerID < 0 {
		return nil, errCustomerIDInvalid
	}
	if b.CustomerID > 0 {
		if _, err := a.d.Accounts.User(r.Context(), b.CustomerID); errors.Is(err, account.ErrNoUser) {
			return nil, errCustomerIDInvalid
		} else if err != nil {
			return nil, err
		}
	}
	return a.d.Checkout.PlaceStaffOrder(r.Context(), b.order())
}

// POST /wp-json/wc/v3/orders
func (a *API) orderCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b orderCreateBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	o, err := a.createOrder(r, b)
	if err != nil {
		return err
	}
	d, err := a.d.Orders.Get(r.Context(), o.ID)
	if err != nil {
		return err
	}
	Note(r, "order.create", "order", o.ID, "Created order #"+d.Number+" ("+orders.Label(d.Status)+")")
	w.Header().Set("Location", a.d.BaseURL+wcPrefix+"/orders/"+strconv.FormatInt(o.ID, 10))
	WriteJSON(w, http.StatusCreated, a.detailOf(d))
	return nil
}

// staffOrderError maps the staff orders' refusals (asError).
func staffOrderError(err error) (*Error, bool) {
	var ce *cart.Error
	switch {
	case errors.Is(err, checkout.ErrStaffStatus):
		return InvalidParam("status", "status is not one of "+strings.Join(checkout.StaffStatuses, ", ")+"."), true
	case errors.Is(err, checkout.ErrStaffLine):
		return InvalidParam("line_items", "Each line item needs a product_id (or variation_id) and a quantity of at least 1."), true
	case errors.As(err, &ce):
		return &Error{Status: ce.Status, Code: ce.Code, Message: ce.Message}, true
	}
	return nil, false
}

var errOrderTrash = &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported",
	Message: "Orders have no trash here: delete with force=true to delete the order for good."}

// DELETE /wp-json/wc/v3/orders/{id}?force=true: deleted for good (the
// shop has no order trash, so force is required).
func (a *API) orderDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	if !forced(r) {
		return errOrderTrash
	}
	d, err := a.d.Orders.Delete(r.Context(), id)
	if err != nil {
		return err
	}
	Note(r, "order.delete", "order", id, "Deleted order #"+d.Number)
	WriteJSON(w, http.StatusOK, a.detailOf(d).orderJSON)
	return nil
}

// POST /wp-json/wc/v3/orders/batch {create: [...], update: [{id, status}],
// delete: [id, ...]}: WooCommerce's batch, up to 100 items, each answered
// or refused on its own; deletes are for good; an update changes the
// status, as PUT /orders/{id} does.
func (a *API) ordersBatch(w http.ResponseWriter, r *http.Request, st Staff) error {
	var b struct {
		Create []orderCreateBody `json:"create"`
		Update []struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
		} `json:"update"`
		Delete []int64 `json:"delete"`
	}
	if err := Decode(r, &b); err != nil {
		return err
	}
	ans, err := newBatch(len(b.Create)+len(b.Update)+len(b.Delete), asError)
	if err != nil {
		return err
	}
	ctx := r.Context()
	item := func(list string, id int64, d *orders.Detail, err error) error {
		return ans.add(list, id, err, func() any { return a.detailOf(d).orderJSON })
	}
	for _, c := range b.Create {
		var d *orders.Detail
		o, err := a.createOrder(r, c)
		if err == nil {
			d, err = a.d.Orders.Get(ctx, o.ID)
		}
		if err := item("create", 0, d, err); err != nil {
			return err
		}
	}
	for _, u := range b.Update {
		var d *orders.Detail
		var err error
		if u.Status == "" {
			d, err = a.d.Orders.Get(ctx, u.ID)
		} else {
			d, err = a.d.Orders.SetStatus(ctx, u.ID, strings.TrimPrefix(u.Status, "wc-"), orders.Staff{ID: st.ID, Name: st.Name})
		}
		if err := item("update", u.ID, d, err); err != nil {
			return err
		}
	}
	for _, id := range b.Delete {
		d, err := a.d.Orders.Delete(ctx, id)
		if err := item("delete", id, d, err); err != nil {
			return err
		}
	}
	Note(r, "order.batch", "order", 0, ans.summary("Orders"))
	WriteJSON(w, http.StatusOK, ans.out)
	return nil
}
