package storeapi

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
)

// Checkout: the Store API's GET and POST /checkout. The use cases
// (pricing, placing an order, the rate limit) are checkout.Service's; the
// no-script form is the server's (checkout_page.go).

// --- the cart's prices ---

// applyQuote writes a quotation into a cart object: line taxes, totals
// with shipping and tax, tax lines, and the shipping packages with their
// rates. out.Items must be in the quoted lines' order.
func (a *API) applyQuote(out *Cart, q checkout.Quotation) {
	cur := out.Totals.Currency
	for i := range out.Items {
		if i >= len(q.Lines) {
			break
		}
		la := q.Lines[i]
		out.Items[i].Totals.LineSubtotal = amountString(la.Subtotal)
		out.Items[i].Totals.LineSubtotalTax = amountString(la.SubtotalTax)
		out.Items[i].Totals.LineTotal = amountString(la.Total)
		out.Items[i].Totals.LineTotalTax = amountString(la.TotalTax)
	}
	taxLines := []any{}
	for _, tl := range q.TaxLines {
		taxLines = append(taxLines, map[string]string{"name": tl.Label, "price": amountString(tl.Amount()), "rate": tl.Rate})
	}
	t := &out.Totals
	t.TotalItems, t.TotalItemsTax = amountString(q.ItemsSubtotal), amountString(q.ItemsSubtotalTax)
	t.TotalDiscount, t.TotalDiscountTax = amountString(q.Discount), amountString(q.DiscountTax)
	out.Coupons = make([]cartCoupon, 0, len(q.Coupons))
	for _, c := range q.Coupons {
		out.Coupons = append(out.Coupons, cartCoupon{Code: c.Code, DiscountType: c.Type,
			Totals: couponTotals{TotalDiscount: amountString(c.Discount), TotalDiscountTax: amountString(c.DiscountTax), Currency: cur}})
	}
	t.TotalShipping, t.TotalShippingTax = amountString(q.Shipping), amountString(q.ShippingTax)
	t.TotalTax, t.TotalPrice = amountString(q.TotalTax), amountString(q.Total)
	t.TaxLines = taxLines
	out.NeedsShipping = q.NeedsShipping
	out.HasCalculatedShipping = q.NeedsShipping
	out.NeedsPayment = q.Total > 0
	out.ShippingRates = []shippingPackage{}
	for _, p := range q.Packages {
		d := p.Destination
		pkg := shippingPackage{PackageID: p.ID, Name: p.Name,
			Destination: map[string]any{"address_1": d.Address1, "address_2": d.Address2, "city": d.City,
				"state": d.State, "postcode": d.Postcode, "country": d.Country},
			Items: []packageItem{}, ShippingRates: []shippingRate{}}
		for _, it := range out.Items {
			pkg.Items = append(pkg.Items, packageItem{Key: it.Key, Name: it.Name, Quantity: it.Quantity})
		}
		for _, r := range p.Rates {
			pkg.ShippingRates = append(pkg.ShippingRates, shippingRate{RateID: r.ID, Name: r.Name, Price: amountString(r.Cost),
				Taxes: amountString(r.Taxes), InstanceID: r.InstanceID, MethodID: r.MethodID, MetaData: []any{},
				Selected: r.Selected, Currency: cur})
		}
		out.ShippingRates = append(out.ShippingRates, pkg)
	}
	methods := []string{}
	for _, m := range a.d.Payments.List() {
		methods = append(methods, m.ID())
	}
	out.PaymentMethods = methods
}

// CheckoutCart is the session's cart object priced by Quote in the
// currency code, and the stored cart (lines and customer) it came from.
func (a *API) CheckoutCart(ctx context.Context, id, code string) (*Cart, *cart.Cart, checkout.Quotation, error) {
	pc, err := a.d.Checkout.Cart(ctx, id, code)
	if err != nil {
		return nil, nil, checkout.Quotation{}, err
	}
	return a.CartOf(pc), pc.Cart, pc.Quote, nil
}

// --- placing an order ---

// OrderReceivedURL is where a placed order is shown.
func OrderReceivedURL(o *checkout.Order) string {
	return "/checkout/order-received/" + strconv.FormatInt(o.ID, 10) + "/?key=" + o.Key
}

// --- Store API ---

type paymentResult struct {
	PaymentStatus  string `json:"payment_status"`
	PaymentDetails []any  `json:"payment_details"`
	RedirectURL    string `json:"redirect_url"`
}

type checkoutResponse struct {
	OrderID         int64          `json:"order_id"`
	Status          string         `json:"status"`
	OrderKey        string         `json:"order_key"`
	OrderNumber     string         `json:"order_number"`
	CustomerNote    string         `json:"customer_note"`
	CustomerID      int64          `json:"customer_id"`
	BillingAddress  billingAddress `json:"billing_address"`
	ShippingAddress cart.Address   `json:"shipping_address"`
	PaymentMethod   string         `json:"payment_method"`
	PaymentResult   paymentResult  `json:"payment_result"`
	Extensions      map[string]any `json:"extensions"`
}

func toBilling(a cart.Address) billingAddress {
	email := a.Email
	a.Email = ""
	return billingAddress{Address: a, Email: email}
}

// Draft serves GET /checkout (checkoutGet).
func (a *API) Draft(w http.ResponseWriter, r *http.Request) { a.serveCheckout(w, r, a.checkoutGet) }

// PlaceOrder serves POST /checkout (checkoutPost).
func (a *API) PlaceOrder(w http.ResponseWriter, r *http.Request) {
	a.serveCheckout(w, r, a.checkoutPost)
}

// serveCheckout runs a checkout handler: session, nonce (required on
// every checkout call unless a Cart-Token names the session), rate limit,
// headers, error shapes.
func (a *API) serveCheckout(w http.ResponseWriter, r *http.Request, h func(w http.ResponseWriter, r *http.Request, sess httpx.Session) (int, any, error)) {
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	if a.nonceRefused(w, r, sess, now) {
		return
	}
	if r.Method == http.MethodPost {
		if wait, ok := a.d.Checkout.Allow(r.Context(), sess.ID, a.d.ClientIP(r)); !ok {
			a.cartHeaders(w, sess, now)
			w.Header().Set("Retry-After", httpx.RetryAfter(wait))
			httpx.WriteErrorRaw(w, http.StatusTooManyRequests, "woocommerce_rest_rate_limited",
				"Too many requests. Please wait and try again.", nil)
			return
		}
	}
	status, body, err := h(w, r, sess)
	a.cartHeaders(w, sess, now)
	if err == nil {
		httpx.WriteJSON(w, status, body)
		return
	}
	a.writeCheckoutError(w, r, sess, err)
}

// writeCheckoutError answers a refused checkout in the Store API's shapes.
func (a *API) writeCheckoutError(w http.ResponseWriter, r *http.Request, sess httpx.Session, err error) {
	var ve *checkout.ValidationError
	var ce *cart.Error
	switch {
	case errors.As(err, &ve):
		params := map[string]string{}
		details := map[string]any{}
		fields := map[string]string{}
		var names []string
		for _, f := range ve.Fields {
			fields[f.Field] = f.Message
			if _, ok := params[f.Group]; ok {
				continue
			}
			names = append(names, f.Group)
			params[f.Group] = f.Message
			details[f.Group] = map[string]any{"code": f.Code, "message": f.Message, "data": map[string]any{"key": f.Key}}
		}
		if len(ve.Fields) == 0 {
			// Only notices (an invalid payment method on the form).
			httpx.WriteErrorRaw(w, http.StatusBadRequest, "woocommerce_rest_checkout_invalid", html.EscapeString(strings.Join(ve.Notices, " ")), nil)
			return
		}
		httpx.WriteErrorRaw(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): "+strings.Join(names, ", "),
			map[string]any{"params": params, "details": details, "fields": fields})
	case errors.As(err, &ce):
		var extra map[string]any
		if ce.Status == http.StatusConflict {
			if c, _, _, cerr := a.CheckoutCart(r.Context(), sess.ID, sess.Currency); cerr == nil {
				extra = map[string]any{"cart": c}
			}
		}
		httpx.WriteErrorRaw(w, ce.Status, ce.Code, ce.Message, extra)
	default:
		a.writeOtherError(w, r, "checkout", err)
	}
}

// writeOtherError answers an error the surface has no answer of its own
// for: a bad parameter's 400, else a 500 whose detail is logged (what
// names the surface), never sent.
func (a *API) writeOtherError(w http.ResponseWriter, r *http.Request, what string, err error) {
	var pe httpx.ParamError
	if errors.As(err, &pe) {
		httpx.WriteParamError(w, pe)
		return
	}
	a.d.Log.Error(what, "path", r.URL.Path, "err", err)
	httpx.WriteError(w, http.StatusInternalServerError, "woocommerce_rest_unknown_server_error", "The request could not be completed.", nil)
}

// checkoutGet answers GET /checkout: the draft order for the session's cart.
// No draft row is stored: the order is created, in one transaction, by POST.
func (a *API) checkoutGet(w http.ResponseWriter, r *http.Request, sess httpx.Session) (int, any, error) {
	c, err := a.d.Checkout.Draft(r.Context(), sess.ID)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, checkoutResponse{Status: checkout.StatusDraft, BillingAddress: toBilling(c.Customer.Billing),
		ShippingAddress: c.Customer.Shipping, PaymentResult: paymentResult{PaymentDetails: []any{}}, Extensions: map[string]any{}}, nil
}

// checkoutRequest is POST /checkout's body. Anything else the client sends
// (totals, prices, currency) is ignored.
type checkoutRequest struct {
	BillingAddress  *cart.Address              `json:"billing_address"`
	ShippingAddress *cart.Address              `json:"shipping_address"`
	CustomerNote    string                     `json:"customer_note"`
	PaymentMethod   string                     `json:"payment_method"`
	PaymentData     json.RawMessage            `json:"payment_data"`
	Extensions      map[string]json.RawMessage `json:"extensions"`
	// A visitor's "create an account" (Deps.PlaceOrder).
	CreateAccount    bool   `json:"create_account"`
	CustomerPassword string `json:"customer_password"`
}

// checkoutPost answers POST /checkout: validates, places the order, and
// answers the order with payment_result.
func (a *API) checkoutPost(w http.ResponseWriter, r *http.Request, sess httpx.Session) (int, any, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return 0, nil, &cart.Error{Status: http.StatusRequestEntityTooLarge, Code: "rest_request_too_large", Message: "The request body is too large."}
		}
		return 0, nil, httpx.ParamError{Param: "body", Msg: "The request body could not be read."}
	}
	var req checkoutRequest
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, nil, &cart.Error{Status: 400, Code: "rest_invalid_json", Message: "Invalid JSON body passed."}
		}
	}
	if req.BillingAddress == nil {
		return 0, nil, &cart.Error{Status: 400, Code: "rest_missing_callback_param", Message: "Missing parameter(s): billing_address"}
	}
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if len(key) > 255 || strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		return 0, nil, httpx.ParamError{Param: "Idempotency-Key", Msg: "The Idempotency-Key header must be 1 to 255 visible ASCII characters."}
	}
	pr := checkout.PlaceRequest{Session: sess.ID, Billing: *req.BillingAddress, Shipping: req.ShippingAddress, Note: req.CustomerNote,
		Method: strings.TrimSpace(req.PaymentMethod), Attribution: checkout.AttributionFromExtension(req.Extensions[checkout.AttributionExtension]), Consent: httpx.Consent(r),
		IdempotencyKey: key, Body: body, ClientIP: a.d.ClientIP(r), UserAgent: r.UserAgent(), Currency: sess.Currency,
		MissingPayment: &cart.Error{Status: 400, Code: "woocommerce_rest_checkout_missing_payment_method", Message: "No payment method provided."}}
	if pr.Shipping != nil && *pr.Shipping == (cart.Address{}) {
		pr.Shipping = nil
	}
	// The currency the order review showed (our checkout sends it): an
	// order in another one is refused with the cart in the new currency.
	var shown struct {
		Currency string `json:"currency"`
	}
	if raw := req.Extensions[wmcNamespace]; len(raw) > 0 && json.Unmarshal(raw, &shown) == nil && len(shown.Currency) <= 8 {
		pr.ShownCurrency = shown.Currency
	}
	o, err := a.d.PlaceOrder(w, r, pr, req.CreateAccount, req.CustomerPassword)
	if err != nil {
		return 0, nil, err
	}
	if !sess.ViaToken {
		a.d.Sessions.SetSessionCookie(w, sess.ID, a.d.Now().Add(a.d.CartLifetime))
	}
	a.d.SetCartCookies(w, r, false, "")
	return http.StatusOK, a.orderResponse(o), nil
}

// orderResponse is a placed order in the checkout response's shape.
func (a *API) orderResponse(o *checkout.Order) checkoutResponse {
	result := paymentResult{PaymentStatus: "success", PaymentDetails: []any{}, RedirectURL: OrderReceivedURL(o)}
	if m, ok := a.d.Payments.Get(o.PaymentMethod); ok && !m.Offline() && !o.Paid() {
		result.PaymentStatus = "pending"
	}
	ext := map[string]any{}
	if o.TestOrder() {
		// A test order (paid in a sandbox): the Store API's place for
		// extensions' data, under the shop's namespace.
		ext["vitrine"] = map[string]any{"test_order": true, "test_payment": o.TestPayment()}
	}
	return checkoutResponse{OrderID: o.ID, Status: o.Status, OrderKey: o.Key, OrderNumber: o.Number, CustomerNote: o.CustomerNote, CustomerID: o.CustomerID,
		BillingAddress: toBilling(o.Billing), ShippingAddress: o.Shipping, PaymentMethod: o.PaymentMethod,
		PaymentResult: result, Extensions: ext}
}
