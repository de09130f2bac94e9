package wcimport

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/money"
	"vitrine/internal/orders"
)

type wcMeta struct {
	Key          string `json:"key"`
	Value        any    `json:"value"`
	DisplayKey   string `json:"display_key"`
	DisplayValue any    `json:"display_value"`
}

func metaText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

type wcLine struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	ProductID   int64    `json:"product_id"`
	VariationID int64    `json:"variation_id"`
	Quantity    float64  `json:"quantity"`
	Subtotal    string   `json:"subtotal"`
	SubtotalTax string   `json:"subtotal_tax"`
	Total       string   `json:"total"`
	TotalTax    string   `json:"total_tax"`
	SKU         string   `json:"sku"`
	MetaData    []wcMeta `json:"meta_data"`
}

type wcOrder struct {
	ID                 int64        `json:"id"`
	Number             string       `json:"number"`
	OrderKey           string       `json:"order_key"`
	Status             string       `json:"status"`
	Currency           string       `json:"currency"`
	PricesIncludeTax   bool         `json:"prices_include_tax"`
	DateCreatedGMT     string       `json:"date_created_gmt"`
	DateModifiedGMT    string       `json:"date_modified_gmt"`
	DatePaidGMT        *string      `json:"date_paid_gmt"`
	DateCompletedGMT   *string      `json:"date_completed_gmt"`
	CreatedVia         string       `json:"created_via"`
	CustomerIPAddress  string       `json:"customer_ip_address"`
	CustomerUserAgent  string       `json:"customer_user_agent"`
	DiscountTotal      string       `json:"discount_total"`
	DiscountTax        string       `json:"discount_tax"`
	ShippingTotal      string       `json:"shipping_total"`
	ShippingTax        string       `json:"shipping_tax"`
	CartTax            string       `json:"cart_tax"`
	Total              string       `json:"total"`
	TotalTax           string       `json:"total_tax"`
	CustomerID         int64        `json:"customer_id"`
	Billing            cart.Address `json:"billing"`
	Shipping           cart.Address `json:"shipping"`
	PaymentMethod      string       `json:"payment_method"`
	PaymentMethodTitle string       `json:"payment_method_title"`
	TransactionID      string       `json:"transaction_id"`
	CustomerNote       string       `json:"customer_note"`
	MetaData           []wcMeta     `json:"meta_data"`
	LineItems          []wcLine     `json:"line_items"`
	TaxLines           []struct {
		RateID           int     `json:"rate_id"`
		Label            string  `json:"label"`
		TaxTotal         string  `json:"tax_total"`
		ShippingTaxTotal string  `json:"shipping_tax_total"`
		RatePercent      float64 `json:"rate_percent"`
	} `json:"tax_lines"`
	ShippingLines []struct {
		MethodTitle string `json:"method_title"`
		MethodID    string `json:"method_id"`
		InstanceID  any    `json:"instance_id"` // "" or "3" or 3
		Total       string `json:"total"`
		TotalTax    string `json:"total_tax"`
	} `json:"shipping_lines"`
	FeeLines []struct {
		Name      string `json:"name"`
		TaxStatus string `json:"tax_status"`
		Total     string `json:"total"`
		TotalTax  string `json:"total_tax"`
	} `json:"fee_lines"`
	CouponLines []struct {
		Code         string `json:"code"`
		Discount     string `json:"discount"`
		DiscountTax  string `json:"discount_tax"`
		DiscountType string `json:"discount_type"`
	} `json:"coupon_lines"`
}

type wcNote struct {
	ID             int64  `json:"id"`
	Author         string `json:"author"`
	DateCreatedGMT string `json:"date_created_gmt"`
	Note           string `json:"note"`
	CustomerNote   bool   `json:"customer_note"`
}

type wcRefund struct {
	ID              int64    `json:"id"`
	DateCreatedGMT  string   `json:"date_created_gmt"`
	Amount          string   `json:"amount"`
	Reason          string   `json:"reason"`
	RefundedPayment bool     `json:"refunded_payment"`
	LineItems       []wcLine `json:"line_items"`
}

// MetaOldCustomer is the order meta naming the old shop's customer of an
// order whose customer was not moved in (the order is a guest's here).
const MetaOldCustomer = "_vitrine_old_customer_id"

// orderStatuses are WooCommerce's order statuses this shop keeps.
var orderStatuses = checkout.Statuses

// notReduced are the statuses whose lines never took stock in
// WooCommerce, or gave it back (used when a line does not say).
var notReduced = []string{checkout.StatusPending, checkout.StatusFailed, checkout.StatusDraft, checkout.StatusCancelled}

// listAll reads every page of a sub-collection.
func (r *Run) listAll(ctx context.Context, path string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for page := 1; ; page++ {
		items, pages, err := r.src.List(ctx, path, nil, page)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if page >= pages || len(items) == 0 {
			return out, nil
		}
	}
}

// importOrder moves an order in as history, with its notes and refunds
// (read from the order's sub-collections; a new note or refund is a
// change of the order). A line whose product was deleted in the old shop
// (product_id 0) or was not moved in keeps its name, SKU and prices with
// no product link.
func importOrder(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var w wcOrder
	if err := json.Unmarshal(raw, &w); err != nil || w.ID <= 0 {
		return Refused, refuse("", "not an order record")
	}
	name := orderName(w)
	if w.Status == "trash" {
		return Refused, refuse(name, "the order is in the old shop's trash; orders here have no trash (restore it there to move it)")
	}
	if !slices.Contains(orderStatuses, w.Status) {
		return Refused, refuse(name, fmt.Sprintf("status %q is not one of WooCommerce's order statuses", w.Status))
	}
	base := fmt.Sprintf("wc/v3/orders/%d/", w.ID)
	noteRaws, err := r.listAll(ctx, base+"notes")
	if err != nil {
		return 0, err
	}
	refundRaws, err := r.listAll(ctx, base+"refunds")
	if err != nil {
		return 0, err
	}
	// The digest covers the order with its notes and refunds.
	whole, _ := json.Marshal([]any{raw, noteRaws, refundRaws})
	prev, unchanged, err := r.seen(ctx, "order", w.ID, whole)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	h, refunds, err := r.historyOrder(ctx, w, noteRaws, refundRaws)
	if err != nil {
		return 0, err
	}
	h.Order.ID = prev
	if r.dry {
		for _, rf := range refunds {
			if err := r.remember(ctx, "refund", rf.oldID, 0, "", rf.raw); err != nil {
				return 0, err
			}
		}
		return outcome(prev), r.remember(ctx, "order", w.ID, prev, "", whole)
	}
	id, refundIDs, err := r.deps.History.Orders.ImportOrder(ctx, h)
	if errors.Is(err, checkout.ErrOrderNotFound) && prev != 0 { // deleted here since: moved in again
		h.Order.ID, prev = 0, 0
		id, refundIDs, err = r.deps.History.Orders.ImportOrder(ctx, h)
	}
	if errors.Is(err, orders.ErrHistoryKeyTaken) {
		return Refused, refuse(name, fmt.Sprintf("another order here has its order key %q", h.Order.Key))
	}
	if err != nil {
		return 0, err
	}
	for i, rf := range refunds {
		if err := r.remember(ctx, "refund", rf.oldID, refundIDs[i], "", rf.raw); err != nil {
			return 0, err
		}
	}
	return outcome(prev), r.remember(ctx, "order", w.ID, id, "", whole)
}

// historyOrder maps an order, its notes and refunds.
func (r *Run) historyOrder(ctx context.Context, w wcOrder, noteRaws, refundRaws []json.RawMessage) (orders.History, []movedRefund, error) {
	name := orderName(w)
	cur, ok := money.Lookup(w.Currency)
	if !ok {
		return orders.History{}, nil, refuse(name, fmt.Sprintf("currency %q is not one this shop knows", w.Currency))
	}
	a := &amounts{minor: cur.MinorUnit}
	created, err := wcTime(w.DateCreatedGMT)
	if err != nil {
		return orders.History{}, nil, refuse(name, "date_created_gmt: "+err.Error())
	}
	modified, err := wcTime(w.DateModifiedGMT)
	if err != nil || modified.IsZero() {
		modified = created
	}
	o := &checkout.Order{Number: cmp.Or(w.Number, strconv.FormatInt(w.ID, 10)), Key: w.OrderKey, Status: w.Status,
		Currency: strings.ToUpper(w.Currency), CurrencyRate: "1", BaseCurrency: strings.ToUpper(w.Currency), PricesIncludeTax: w.PricesIncludeTax,
		Billing: w.Billing, Shipping: w.Shipping, CustomerNote: w.CustomerNote,
		PaymentMethod: w.PaymentMethod, PaymentMethodTitle: w.PaymentMethodTitle, TransactionID: w.TransactionID,
		ShippingTotal: a.read("shipping_total", w.ShippingTotal), ShippingTax: a.read("shipping_tax", w.ShippingTax),
		DiscountTotal: a.read("discount_total", w.DiscountTotal), DiscountTax: a.read("discount_tax", w.DiscountTax),
		ItemsTax: a.read("cart_tax", w.CartTax), TotalTax: a.read("total_tax", w.TotalTax), Total: a.read("total", w.Total),
		CreatedAt: created, UpdatedAt: modified, PaymentState: checkout.PayNone, Meta: map[string]string{orders.MetaMovedFrom: "woocommerce"}}
	if o.Key == "" {
		o.Key = checkout.NewOrderKey()
	}
	if w.DatePaidGMT != nil && *w.DatePaidGMT != "" {
		paid, err := wcTime(*w.DatePaidGMT)
		if err != nil {
			return orders.History{}, nil, refuse(name, "date_paid_gmt: "+err.Error())
		}
		o.PaidAt, o.PaymentState = &paid, checkout.PayPaid
	}
	if w.CustomerID > 0 {
		if o.CustomerID, err = r.newID(ctx, "customer", w.CustomerID); err != nil {
			return orders.History{}, nil, err
		}
		if o.CustomerID == 0 { // not moved in: a guest's order here, saying whose it was
			o.Meta[MetaOldCustomer] = strconv.FormatInt(w.CustomerID, 10)
		}
		o.CustomerID = max(o.CustomerID, 0) // a dry run's stand-in
	}
	// Fields the REST API answers from the order's meta (adminapi).
	for k, v := range map[string]string{"_created_via": w.CreatedVia, "_customer_ip_address": w.CustomerIPAddress,
		"_customer_user_agent": w.CustomerUserAgent} {
		if v != "" {
			o.Meta[k] = v
		}
	}
	if w.DateCompletedGMT != nil && *w.DateCompletedGMT != "" {
		done, err := wcTime(*w.DateCompletedGMT)
		if err != nil {
			return orders.History{}, nil, refuse(name, "date_completed_gmt: "+err.Error())
		}
		o.Meta["_date_completed"] = strconv.FormatInt(done.Unix(), 10) // WooCommerce's own meta, unix seconds
	}
	for _, m := range w.MetaData {
		if m.Key != "" && m.Key != orders.MetaMovedFrom && m.Key != orders.MetaOldNumber {
			o.Meta[m.Key] = metaText(m.Value)
		}
	}
	h := orders.History{Order: o, CouponIDs: map[string]int64{}}
	position := map[int64]int{} // the old shop's line item id → line position
	for i, l := range w.LineItems {
		q := int64(l.Quantity)
		if float64(q) != l.Quantity || q <= 0 {
			return orders.History{}, nil, refuse(name, fmt.Sprintf("line %q has quantity %v", l.Name, l.Quantity))
		}
		position[l.ID] = i
		line := checkout.Line{Name: l.Name, SKU: l.SKU, Quantity: q,
			Subtotal: a.read("subtotal", l.Subtotal), SubtotalTax: a.read("subtotal_tax", l.SubtotalTax),
			Total: a.read("total", l.Total), TotalTax: a.read("total_tax", l.TotalTax)}
		entered := line.Subtotal
		if w.PricesIncludeTax {
			entered += line.SubtotalTax
		}
		line.UnitPrice = (entered + q/2) / q
		if l.ProductID > 0 {
			if line.ProductID, err = r.newID(ctx, "product", l.ProductID); err != nil {
				return orders.History{}, nil, err
			}
			if line.ProductID > 0 && l.VariationID > 0 {
				if line.VariationID, err = r.newID(ctx, "variation", l.VariationID); err != nil {
					return orders.History{}, nil, err
				}
			}
			line.ProductID, line.VariationID = max(line.ProductID, 0), max(line.VariationID, 0)
		}
		restocked := int64(-1)
		for _, m := range l.MetaData {
			if m.Key == "_reduced_stock" {
				if n, err := strconv.ParseInt(metaText(m.Value), 10, 64); err == nil {
					restocked = max(q-n, 0)
				}
				continue
			}
			if strings.HasPrefix(m.Key, "_") {
				continue
			}
			line.Variation = append(line.Variation, cart.Attr{Attribute: cmp.Or(m.DisplayKey, m.Key), Value: plainText(cmp.Or(metaText(m.DisplayValue), metaText(m.Value)))})
		}
		if restocked < 0 {
			restocked = 0
			if slices.Contains(notReduced, w.Status) {
				restocked = q
			}
		}
		o.ItemsSubtotal += line.Subtotal
		o.Lines = append(o.Lines, line)
		h.Restocked = append(h.Restocked, restocked)
	}
	for _, t := range w.TaxLines {
		o.TaxLines = append(o.TaxLines, checkout.TaxLine{RateID: t.RateID, Label: t.Label,
			Rate:     strconv.FormatFloat(t.RatePercent, 'f', -1, 64) + "%",
			ItemsTax: a.read("tax_total", t.TaxTotal), ShippingTax: a.read("shipping_tax_total", t.ShippingTaxTotal)})
	}
	for _, s := range w.ShippingLines {
		inst, _ := strconv.Atoi(metaText(s.InstanceID))
		rate := s.MethodID
		if inst > 0 {
			rate += ":" + strconv.Itoa(inst)
		}
		o.ShippingLines = append(o.ShippingLines, checkout.ShippingLine{RateID: rate, MethodID: s.MethodID, InstanceID: inst,
			Title: s.MethodTitle, Total: a.read("shipping total", s.Total), TotalTax: a.read("shipping total_tax", s.TotalTax)})
	}
	for _, f := range w.FeeLines {
		o.FeeLines = append(o.FeeLines, checkout.FeeLine{Name: f.Name, TaxStatus: f.TaxStatus,
			Total: a.read("fee total", f.Total), TotalTax: a.read("fee total_tax", f.TotalTax)})
	}
	for _, c := range w.CouponLines {
		o.Coupons = append(o.Coupons, checkout.CouponAmount{Code: coupon.Normalize(c.Code), Type: c.DiscountType,
			Discount: a.read("coupon discount", c.Discount), DiscountTax: a.read("coupon discount_tax", c.DiscountTax)})
		if !r.dry {
			if have, err := r.deps.History.CouponStore.CouponByCode(ctx, coupon.Normalize(c.Code)); err == nil {
				h.CouponIDs[have.Code] = have.ID
			}
		}
	}
	h.CouponsReleased = w.Status == checkout.StatusCancelled
	for _, nr := range noteRaws {
		var n wcNote
		if err := json.Unmarshal(nr, &n); err != nil {
			return orders.History{}, nil, refuse(name, "a note is not a note record")
		}
		at, err := wcTime(n.DateCreatedGMT)
		if err != nil {
			return orders.History{}, nil, refuse(name, fmt.Sprintf("note %d: %v", n.ID, err))
		}
		h.Notes = append(h.Notes, orders.Note{ID: n.ID, Note: n.Note, Customer: n.CustomerNote, Author: n.Author, Created: at})
	}
	// Oldest first, so the notes' ids here follow their order there.
	slices.SortStableFunc(h.Notes, func(x, y orders.Note) int {
		if c := x.Created.Compare(y.Created); c != 0 {
			return c
		}
		return int(x.ID - y.ID)
	})
	var moved []movedRefund
	for _, rr := range refundRaws {
		var rf wcRefund
		if err := json.Unmarshal(rr, &rf); err != nil || rf.ID <= 0 {
			return orders.History{}, nil, refuse(name, "a refund is not a refund record")
		}
		at, err := wcTime(rf.DateCreatedGMT)
		if err != nil {
			return orders.History{}, nil, refuse(name, fmt.Sprintf("refund %d: %v", rf.ID, err))
		}
		amount := a.read("refund amount", rf.Amount)
		if amount <= 0 {
			return orders.History{}, nil, refuse(name, fmt.Sprintf("refund %d is of %q; a refund here gives back an amount", rf.ID, rf.Amount))
		}
		method := orders.MethodManual
		if rf.RefundedPayment && w.PaymentMethod != "" {
			method = w.PaymentMethod
		}
		ref := orders.Refund{Amount: amount, Reason: rf.Reason, Method: method, Status: orders.RefundCompleted,
			ProviderRequestID: "woocommerce-refund-" + strconv.FormatInt(rf.ID, 10), Created: at, Completed: &at}
		for _, l := range rf.LineItems {
			var item int64
			for _, m := range l.MetaData {
				if m.Key == "_refunded_item_id" {
					item, _ = strconv.ParseInt(metaText(m.Value), 10, 64)
				}
			}
			pos, ok := position[item]
			if !ok {
				continue // a line the order no longer has: the amount stands
			}
			ref.Lines = append(ref.Lines, orders.RefundLine{Line: pos, Quantity: -int64(l.Quantity), Total: -a.read("refund line total", l.Total)})
		}
		moved = append(moved, movedRefund{oldID: rf.ID, raw: rr, refund: ref})
	}
	// Oldest first, as they were made (the API lists newest first).
	slices.SortStableFunc(moved, func(x, y movedRefund) int {
		if c := x.refund.Created.Compare(y.refund.Created); c != 0 {
			return c
		}
		return int(x.oldID - y.oldID)
	})
	for _, m := range moved {
		h.Refunds = append(h.Refunds, m.refund)
	}
	if a.err != nil {
		return orders.History{}, nil, refuse(name, a.err.Error())
	}
	return h, moved, nil
}

// movedRefund is a refund of an order moved in: its old id and record,
// and the refund written.
type movedRefund struct {
	oldID  int64
	raw    json.RawMessage
	refund orders.Refund
}

// orderName is an order as its owner knows it: "#88".
func orderName(w wcOrder) string {
	return "#" + strings.TrimPrefix(cmp.Or(w.Number, strconv.FormatInt(w.ID, 10)), "#")
}
