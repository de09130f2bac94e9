package adminapi

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/address"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/webhook"
)

// Orders (WooCommerce REST v3's /orders, /orders/{id}/notes and
// /orders/{id}/refunds, with their field names; amounts are decimal
// strings in the order's currency, as WooCommerce writes them) and the
// resend of an order's mails (/vitrine/v1/admin/orders/{id}/emails). The
// rules are the orders service's.

// orderJSON is an order as the list and the detail answer it.
type orderJSON struct {
	ID                 int64             `json:"id"`
	Number             string            `json:"number"`
	Status             string            `json:"status"`
	Currency           string            `json:"currency"`
	CurrencyDecimals   int               `json:"currency_decimals"`
	DateCreated        string            `json:"date_created_gmt"`
	DatePaid           *string           `json:"date_paid_gmt"`
	DiscountTotal      string            `json:"discount_total"`
	ShippingTotal      string            `json:"shipping_total"`
	ShippingTax        string            `json:"shipping_tax"`
	TotalTax           string            `json:"total_tax"`
	Total              string            `json:"total"`
	PaymentMethod      string            `json:"payment_method"`
	PaymentMethodTitle string            `json:"payment_method_title"`
	TransactionID      string            `json:"transaction_id"`
	CustomerID         int64             `json:"customer_id"`
	CustomerNote       string            `json:"customer_note"`
	Billing            any               `json:"billing"`
	Shipping           any               `json:"shipping"`
	LineItems          []lineJSON        `json:"line_items"`
	ShippingLines      []shippingJSON    `json:"shipping_lines"`
	CouponLines        []couponLineJSON  `json:"coupon_lines"`
	Attribution        map[string]string `json:"attribution"`
	TestPayment        string            `json:"test_payment,omitempty"`
	// DateAnonymised is when the order's personal data was removed
	// (sqlstore.AnonymiseOrders); absent while it holds it.
	DateAnonymised *string `json:"date_anonymised_gmt,omitempty"`
	wcOrderFields
}

// wcOrderFields are the rest of WooCommerce's order fields (reference:
// woocommerce-11-responses/wc-v3-orders-create.http), so integrations
// read the keys they expect: the dates in site time (UTC here), the
// order key, what the order's meta records, the flags WooCommerce derives
// from the status, and the links.
type wcOrderFields struct {
	ParentID          int64            `json:"parent_id"`
	Version           string           `json:"version"` // the WooCommerce version the API answers as
	PricesIncludeTax  bool             `json:"prices_include_tax"`
	DateCreatedSite   string           `json:"date_created"`
	DateModified      string           `json:"date_modified"`
	DateModifiedGMT   string           `json:"date_modified_gmt"`
	DatePaidSite      *string          `json:"date_paid"`
	DateCompleted     *string          `json:"date_completed"` // not recorded: null
	DateCompletedGMT  *string          `json:"date_completed_gmt"`
	DiscountTax       string           `json:"discount_tax"`
	CartTax           string           `json:"cart_tax"`
	OrderKey          string           `json:"order_key"`
	CustomerIPAddress string           `json:"customer_ip_address"`
	CustomerUserAgent string           `json:"customer_user_agent"`
	CreatedVia        string           `json:"created_via"`
	CartHash          string           `json:"cart_hash"`
	MetaData          []any            `json:"meta_data"`
	TaxLines          []taxLineJSON    `json:"tax_lines"`
	FeeLines          []any            `json:"fee_lines"`
	PaymentURL        string           `json:"payment_url"`
	IsEditable        bool             `json:"is_editable"`
	NeedsPayment      bool             `json:"needs_payment"`
	NeedsProcessing   bool             `json:"needs_processing"`
	CurrencySymbol    string           `json:"currency_symbol"`
	Links             map[string][]any `json:"_links,omitempty"`
}

type taxLineJSON struct {
	ID               int64  `json:"id"` // the line's position + 1
	RateCode         string `json:"rate_code"`
	RateID           int    `json:"rate_id"`
	Label            string `json:"label"`
	Compound         bool   `json:"compound"`
	TaxTotal         string `json:"tax_total"`
	ShippingTaxTotal string `json:"shipping_tax_total"`
	RatePercent      string `json:"rate_percent"`
	MetaData         []any  `json:"meta_data"`
}

// orderLinks are an order's _links (base: the shop's address).
func orderLinks(base string, o *checkout.Order) map[string][]any {
	self := base + wcPrefix + "/orders/" + strconv.FormatInt(o.ID, 10)
	links := map[string][]any{
		"self":       {map[string]any{"href": self, "targetHints": map[string]any{"allow": []string{"GET", "POST", "PUT", "PATCH", "DELETE"}}}},
		"collection": {map[string]string{"href": base + wcPrefix + "/orders"}},
	}
	if o.CustomerID != 0 {
		links["customer"] = []any{map[string]string{"href": base + customersPath + "/" + strconv.FormatInt(o.CustomerID, 10)}}
	}
	return links
}

type lineJSON struct {
	ID          int64  `json:"id"` // the line's position + 1
	Name        string `json:"name"`
	SKU         string `json:"sku"`
	ProductID   int64  `json:"product_id"`
	VariationID int64  `json:"variation_id"`
	Quantity    int64  `json:"quantity"`
	Price       string `json:"price"`
	Subtotal    string `json:"subtotal"`
	Total       string `json:"total"`
	TotalTax    string `json:"total_tax"`
	Meta        []kv   `json:"meta_data"`
	// Refunded and restocked so far (detail only).
	RefundedQuantity int64  `json:"refunded_quantity"`
	RefundedTotal    string `json:"refunded_total"`
	Restocked        int64  `json:"restocked"`
}

type kv struct {
	Key   string `json:"display_key"`
	Value string `json:"display_value"`
}

type shippingJSON struct {
	MethodTitle string `json:"method_title"`
	MethodID    string `json:"method_id"`
	Total       string `json:"total"`
	TotalTax    string `json:"total_tax"`
}

// couponLineJSON is a coupon the order used (WooCommerce's coupon_lines),
// its discount as it was when the order was placed.
type couponLineJSON struct {
	Code        string `json:"code"`
	Discount    string `json:"discount"`
	DiscountTax string `json:"discount_tax"`
}

// detailJSON is an order with what the admin's order screen shows.
type detailJSON struct {
	orderJSON
	Refunds       []refundJSON       `json:"refunds"`
	Notes         []orders.Note      `json:"notes"`
	Mails         []orders.MailEntry `json:"mails"`
	TotalRefunded string             `json:"total_refunded"`
	RefundLeft    string             `json:"refund_left"`
	RefundMethod  string             `json:"refund_method"` // "manual" or the gateway refunds go through
	Statuses      []string           `json:"next_statuses"`
	MailKinds     []string           `json:"mail_kinds"`
	// AddressLines are the billing and shipping addresses as their
	// countries write them (internal/address, the lines the storefront and
	// the mails show); WooCommerce's REST orders have no such field, hence
	// the vitrine_ prefix. Shipping is empty when the order has no
	// shipping address.
	AddressLines addressLinesJSON `json:"vitrine_address_lines"`
}

type addressLinesJSON struct {
	Billing  []string `json:"billing"`
	Shipping []string `json:"shipping"`
}

type refundJSON struct {
	ID               int64            `json:"id"`
	Amount           string           `json:"amount"`
	Reason           string           `json:"reason"`
	RefundedPayment  bool             `json:"refunded_payment"`
	Method           string           `json:"method"`
	Status           string           `json:"status"`
	ProviderRefundID string           `json:"provider_refund_id"`
	Author           string           `json:"author"`
	Error            string           `json:"error,omitempty"`
	DateCreated      string           `json:"date_created_gmt"`
	LineItems        []refundLineJSON `json:"line_items"`
	RestockItems     bool             `json:"restock_items"`
}

type refundLineJSON struct {
	ID       int64  `json:"id"`
	Quantity int64  `json:"quantity"`
	Total    string `json:"refund_total"`
}

func gmt(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

// plain writes an amount as WooCommerce's REST API does: "12.50".
func plain(c money.Currency, v int64) string {
	c.ThousandSeparator, c.DecimalSeparator = "", "."
	return c.FormatNumber(v)
}

func orderOf(o *checkout.Order, c money.Currency) orderJSON {
	out := orderJSON{ID: o.ID, Number: o.Number, Status: o.Status, Currency: o.Currency, CurrencyDecimals: c.MinorUnit,
		DateCreated: gmt(o.CreatedAt), DiscountTotal: plain(c, o.DiscountTotal), ShippingTotal: plain(c, o.ShippingTotal),
		ShippingTax: plain(c, o.ShippingTax), TotalTax: plain(c, o.TotalTax), Total: plain(c, o.Total), PaymentMethod: o.PaymentMethod,
		PaymentMethodTitle: o.PaymentMethodTitle, TransactionID: o.TransactionID, CustomerID: o.CustomerID, CustomerNote: o.CustomerNote,
		Billing: o.Billing, Shipping: o.Shipping, LineItems: []lineJSON{}, ShippingLines: []shippingJSON{}, CouponLines: []couponLineJSON{}, Attribution: map[string]string{},
		TestPayment: o.TestPayment()}
	if o.PaidAt != nil {
		p := gmt(*o.PaidAt)
		out.DatePaid = &p
	}
	if o.AnonymisedAt != nil {
		a := gmt(*o.AnonymisedAt)
		out.DateAnonymised = &a
	}
	createdVia := o.Meta["_created_via"]
	if createdVia == "" {
		createdVia = "checkout"
	}
	out.wcOrderFields = wcOrderFields{PricesIncludeTax: o.PricesIncludeTax, DateCreatedSite: out.DateCreated, DateModified: gmt(o.UpdatedAt),
		DateModifiedGMT: gmt(o.UpdatedAt), DatePaidSite: out.DatePaid, DiscountTax: plain(c, o.DiscountTax), CartTax: plain(c, o.ItemsTax),
		OrderKey: o.Key, CustomerIPAddress: o.Meta["_customer_ip_address"], CustomerUserAgent: o.Meta["_customer_user_agent"],
		CreatedVia: createdVia, Version: webhook.WooCommerceVersion, MetaData: []any{}, TaxLines: []taxLineJSON{}, FeeLines: []any{}, CurrencySymbol: c.Symbol,
		IsEditable:      o.Status == checkout.StatusPending || o.Status == checkout.StatusOnHold || o.Status == checkout.StatusDraft,
		NeedsPayment:    (o.Status == checkout.StatusPending || o.Status == checkout.StatusFailed) && o.Total > 0,
		NeedsProcessing: true}
	for i, tl := range o.TaxLines {
		out.TaxLines = append(out.TaxLines, taxLineJSON{ID: int64(i + 1), RateCode: tl.Label, RateID: tl.RateID, Label: tl.Label,
			TaxTotal: plain(c, tl.ItemsTax), ShippingTaxTotal: plain(c, tl.ShippingTax), RatePercent: strings.TrimSuffix(tl.Rate, "%"), MetaData: []any{}})
	}
	for i, f := range o.FeeLines { // orders moved in from WooCommerce keep theirs
		out.FeeLines = append(out.FeeLines, map[string]any{"id": int64(len(o.Lines) + len(o.ShippingLines) + i + 1), "name": f.Name,
			"tax_class": "", "tax_status": f.TaxStatus, "amount": plain(c, f.Total), "total": plain(c, f.Total),
			"total_tax": plain(c, f.TotalTax), "taxes": []any{}, "meta_data": []any{}})
	}
	for i, l := range o.Lines {
		lj := lineJSON{ID: int64(i + 1), Name: l.Name, SKU: l.SKU, ProductID: l.ProductID, VariationID: l.VariationID, Quantity: l.Quantity,
			Price: plain(c, l.UnitPrice), Subtotal: plain(c, l.Subtotal), Total: plain(c, l.Total), TotalTax: plain(c, l.TotalTax),
			Meta: []kv{}, RefundedTotal: plain(c, 0)}
		for _, a := range l.Variation {
			lj.Meta = append(lj.Meta, kv{a.Attribute, a.Value})
		}
		out.LineItems = append(out.LineItems, lj)
	}
	for _, s := range o.ShippingLines {
		out.ShippingLines = append(out.ShippingLines, shippingJSON{MethodTitle: s.Title, MethodID: s.MethodID, Total: plain(c, s.Total), TotalTax: plain(c, s.TotalTax)})
	}
	for _, cp := range o.Coupons {
		out.CouponLines = append(out.CouponLines, couponLineJSON{Code: cp.Code, Discount: plain(c, cp.Discount), DiscountTax: plain(c, cp.DiscountTax)})
	}
	for k, v := range o.Meta {
		if name, ok := strings.CutPrefix(k, "_wc_order_attribution_"); ok {
			out.Attribution[name] = v
		}
	}
	return out
}

func refundOf(r orders.Refund, c money.Currency) refundJSON {
	out := refundJSON{ID: r.ID, Amount: plain(c, r.Amount), Reason: r.Reason, RefundedPayment: r.Method != orders.MethodManual, Method: r.Method,
		Status: r.Status, ProviderRefundID: r.ProviderRefundID, Author: r.Author, Error: r.Error, DateCreated: gmt(r.Created),
		LineItems: []refundLineJSON{}, RestockItems: r.Restock}
	for _, l := range r.Lines {
		out.LineItems = append(out.LineItems, refundLineJSON{ID: int64(l.Line + 1), Quantity: l.Quantity, Total: plain(c, l.Total)})
	}
	return out
}

func (a *API) detailOf(d *orders.Detail) detailJSON {
	c := d.Money
	oj := orderOf(d.Order, c)
	oj.Links = orderLinks(a.d.BaseURL, d.Order)
	out := detailJSON{orderJSON: oj, Refunds: []refundJSON{}, Notes: d.Notes, Mails: d.Mails,
		TotalRefunded: plain(c, d.Refunded), RefundLeft: plain(c, d.Left()), RefundMethod: orders.MethodManual, MailKinds: orders.Resendable}
	if out.Notes == nil {
		out.Notes = []orders.Note{}
	}
	if out.Mails == nil {
		out.Mails = []orders.MailEntry{}
	}
	for _, r := range d.Refunds {
		out.Refunds = append(out.Refunds, refundOf(r, c))
	}
	for i := range out.LineItems {
		lr := d.LineRefunds[i]
		out.LineItems[i].RefundedQuantity, out.LineItems[i].RefundedTotal = lr.Quantity, plain(c, lr.Total)
		out.LineItems[i].Restocked = d.Restocked[i]
	}
	if a.d.Orders.Refunders[d.PaymentMethod] != nil {
		out.RefundMethod = d.PaymentMethod
	}
	out.AddressLines = addressLinesJSON{Billing: address.Format(d.Billing, a.d.BaseCountry), Shipping: []string{}}
	if out.AddressLines.Billing == nil {
		out.AddressLines.Billing = []string{}
	}
	if !address.Blank(d.Shipping) {
		out.AddressLines.Shipping = address.Format(d.Shipping, a.d.BaseCountry)
	}
	out.Statuses = []string{}
	for _, s := range orders.Targets {
		if s != d.Status && (checkout.CanTransition(d.Status, s) && d.Status != checkout.StatusCancelled && d.Status != checkout.StatusRefunded) {
			out.Statuses = append(out.Statuses, s)
		}
	}
	return out
}

// GET /wp-json/wc/v3/orders?status=&search=&page=&per_page= (status: one
// or more, "wc-" prefixed or not; "any" is every status)
func (a *API) ordersList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q orders.Query
	var statuses []string
	return List[*checkout.Order, orderJSON]{
		Search:  &q.Search,
		Filters: []Filter{Strings("status", &statuses)},
		Fetch: func(ctx context.Context, p Paging) ([]*checkout.Order, int, error) {
			for _, s := range statuses {
				if s = strings.TrimPrefix(s, "wc-"); s != "" && s != "any" {
					q.Statuses = append(q.Statuses, s)
				}
			}
			q.Offset, q.Limit = p.Offset(), p.PerPage
			return a.d.Orders.List(ctx, q)
		},
		Row: func(o *checkout.Order) orderJSON {
			oj := orderOf(o, a.d.Currency(r.Context(), o.Currency))
			oj.Links = orderLinks(a.d.BaseURL, o)
			return oj
		},
	}.Serve(w, r)
}

// GET /wp-json/wc/v3/reports/orders/totals: how many orders each status
// has (WooCommerce's report shape), drafts left out.
func (a *API) orderTotals(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return Tabs{
		Count:    a.d.Orders.Counts,
		Statuses: slices.DeleteFunc(slices.Clone(checkout.Statuses), func(s string) bool { return s == checkout.StatusDraft }),
		Label:    orders.Label,
	}.Serve(w, r)
}

// GET /wp-json/wc/v3/orders/{id}
func (a *API) orderGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return getByID(w, r, a.d.Orders.Get, a.detailOf)
}

// PUT /wp-json/wc/v3/orders/{id} {"status"}: a status change.
func (a *API) orderUpdate(w http.ResponseWriter, r *http.Request, st Staff) error {
	id, status, err := idAndStatus(r, nil, "Give the order's new status.")
	if err != nil {
		return err
	}
	to := strings.TrimPrefix(status, "wc-")
	d, err := a.d.Orders.SetStatus(r.Context(), id, to, orders.Staff{ID: st.ID, Name: st.Name})
	if err != nil {
		return err
	}
	Note(r, "order.status", "order", id, "Order #"+d.Number+" is now "+orders.Label(d.Status))
	WriteJSON(w, http.StatusOK, a.detailOf(d))
	return nil
}

// GET /wp-json/wc/v3/orders/{id}/notes
func (a *API) orderNotes(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return getByID(w, r, a.d.Orders.Get, func(d *orders.Detail) []orders.Note {
		if d.Notes == nil {
			return []orders.Note{}
		}
		return d.Notes
	})
}

// POST /wp-json/wc/v3/orders/{id}/notes {"note", "customer_note"}
func (a *API) orderNoteAdd(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Note     string `json:"note"`
		Customer bool   `json:"customer_note"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	n, err := a.d.Orders.AddNote(r.Context(), id, body.Note, body.Customer, orders.Staff{ID: st.ID, Name: st.Name})
	if err != nil {
		return err
	}
	kind := "private note"
	if n.Customer {
		kind = "note to the customer"
	}
	Note(r, "order.note", "order", id, "Added a "+kind+" to order #"+strconv.FormatInt(id, 10))
	WriteJSON(w, http.StatusCreated, n)
	return nil
}

// GET /wp-json/wc/v3/orders/{id}/refunds
func (a *API) orderRefunds(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return getByID(w, r, a.d.Orders.Get, func(d *orders.Detail) []refundJSON {
		out := []refundJSON{}
		for _, rf := range d.Refunds {
			out = append(out, refundOf(rf, d.Money))
		}
		return out
	})
}

// POST /wp-json/wc/v3/orders/{id}/refunds {"amount", "reason",
// "line_items": [{"id", "quantity", "refund_total"}], "restock_items",
// "idempotency_key"} (or an Idempotency-Key header): 201 with the refund,
// 200 for a double submit answered with the first refund.
func (a *API) orderRefund(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Amount    string `json:"amount"`
		Reason    string `json:"reason"`
		LineItems []struct {
			ID       int64  `json:"id"`
			Quantity int64  `json:"quantity"`
			Total    string `json:"refund_total"`
		} `json:"line_items"`
		Restock *bool  `json:"restock_items"`
		Key     string `json:"idempotency_key"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	if len(body.LineItems) > 500 {
		return InvalidParam("line_items", "Too many lines.")
	}
	in := orders.RefundRequest{OrderID: id, Key: body.Key, Reason: body.Reason, Restock: body.Restock == nil || *body.Restock,
		By: orders.Staff{ID: st.ID, Name: st.Name}, Texts: &orders.RefundTexts{Amount: body.Amount, Lines: map[int]string{}}}
	if in.Key == "" {
		in.Key = r.Header.Get("Idempotency-Key")
	}
	for _, l := range body.LineItems {
		if l.ID <= 0 || l.ID > 100000 {
			return InvalidParam("line_items", "A refunded line is not a line of this order.")
		}
		in.Lines = append(in.Lines, orders.RefundLine{Line: int(l.ID - 1), Quantity: l.Quantity})
		in.Texts.Lines[int(l.ID-1)] = l.Total
	}
	rf, err := a.d.Orders.Refund(r.Context(), in)
	if err != nil {
		return err
	}
	d, err := a.d.Orders.Get(r.Context(), id)
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if rf.Replayed {
		status = http.StatusOK
	}
	Note(r, "order.refund", "order", id, "Refunded "+d.Money.Format(rf.Amount)+" of order #"+d.Number+" ("+rf.Method+")")
	WriteJSON(w, status, refundOf(rf, d.Money))
	return nil
}

// POST /wp-json/vitrine/v1/admin/orders/{id}/refunds/{refund_id}/finish:
// asks the provider again for a refund left pending (its answer was lost),
// with the refund's stored request id; answers the order.
func (a *API) orderRefundFinish(w http.ResponseWriter, r *http.Request, st Staff) error {
	id, refundID, err := twoIDs(r, "refund_id")
	if err != nil {
		return err
	}
	rf, err := a.d.Orders.FinishRefund(r.Context(), id, refundID, orders.Staff{ID: st.ID, Name: st.Name})
	if err != nil {
		return err
	}
	d, err := a.d.Orders.Get(r.Context(), id)
	if err != nil {
		return err
	}
	Note(r, "order.refund", "order", id, "Finished refund "+strconv.FormatInt(refundID, 10)+" of order #"+d.Number+": "+rf.Status)
	WriteJSON(w, http.StatusOK, a.detailOf(d))
	return nil
}

// POST /wp-json/vitrine/v1/admin/orders/{id}/emails {"kind"}: sends an
// order mail again (order_confirmation to the customer, new_order to the
// shop).
func (a *API) orderEmail(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Kind string `json:"kind"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	if err := a.d.Orders.ResendMail(r.Context(), id, body.Kind, orders.Staff{ID: st.ID, Name: st.Name}); err != nil {
		return err
	}
	Note(r, "order.email", "order", id, "Sent the "+body.Kind+" mail of order #"+strconv.FormatInt(id, 10)+" again")
	WriteJSON(w, http.StatusAccepted, map[string]any{"queued": true, "kind": body.Kind})
	return nil
}

// orderError maps the orders service's errors (asError).
func orderError(err error) (*Error, bool) {
	var inv *orders.Invalid
	var pe *orders.ProviderError
	switch {
	case errors.As(err, &inv):
		return InvalidParam(inv.Field, inv.Message), true
	case errors.Is(err, orders.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_shop_order_invalid_id", Message: "Invalid ID."}, true
	case errors.Is(err, orders.ErrStale):
		return Conflict("vitrine_order_changed", "The order was changed meanwhile. Reload it and try again.", nil), true
	case errors.Is(err, orders.ErrRefundTooMuch):
		return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_invalid_refund_amount",
			Message: "Invalid refund amount: it is more than what is left to refund."}, true
	case errors.Is(err, orders.ErrKeyReused):
		return &Error{Status: http.StatusUnprocessableEntity, Code: "vitrine_idempotency_key_reused",
			Message: "This refund form was already used for another refund. Reload the order and try again."}, true
	case errors.Is(err, orders.ErrRefundUnknown):
		return &Error{Status: http.StatusServiceUnavailable, Code: "vitrine_refund_pending",
			Message: "PayPal did not answer. The refund is pending: send the same form again to finish it; it will not refund twice."}, true
	case errors.As(err, &pe):
		return &Error{Status: http.StatusUnprocessableEntity, Code: "woocommerce_rest_cannot_create_order_refund", Message: "The refund was refused: " + pe.Message}, true
	}
	return nil, false
}
