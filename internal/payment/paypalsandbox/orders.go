package paypalsandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"vitrine/internal/payment/paypal"
)

func (s *Sandbox) orderLinks(base, id string, approve bool) []paypal.Link {
	self := base + "/v2/checkout/orders/" + id
	links := []paypal.Link{{Href: self, Rel: "self", Method: "GET"}}
	if approve {
		u := base + "/checkoutnow?token=" + url.QueryEscape(id)
		links = append(links,
			paypal.Link{Href: u, Rel: "approve", Method: "GET"},
			paypal.Link{Href: u, Rel: "payer-action", Method: "GET"},
		)
	}
	links = append(links,
		paypal.Link{Href: self, Rel: "update", Method: "PATCH"},
		paypal.Link{Href: self + "/capture", Rel: "capture", Method: "POST"},
	)
	return links
}

// create is POST /v2/checkout/orders (called with s.mu held).
func (s *Sandbox) create(r *http.Request, body []byte) (int, any) {
	var req paypal.CreateOrderRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return fail(http.StatusBadRequest, paypal.ErrorDetail{Location: "body", Issue: "MALFORMED_REQUEST_JSON", Description: "The request JSON is not well formed."})
	}
	if len(req.PurchaseUnits) == 1 && req.PurchaseUnits[0].ReferenceID == "" {
		req.PurchaseUnits[0].ReferenceID = "default"
	}
	if errs := paypal.CheckCreateOrder(req); len(errs) > 0 {
		return failDetails(errs)
	}
	id := newID(17, true)
	o := &order{shipPref: paypal.ShippingPreferenceFromFile, brand: s.cfg.BrandName}
	ctxs := []*paypal.ExperienceContext{req.ApplicationContext}
	if req.PaymentSource != nil && req.PaymentSource.PayPal != nil {
		ctxs = append(ctxs, req.PaymentSource.PayPal.ExperienceContext)
	}
	for _, ec := range ctxs { // the newer place wins
		if ec == nil {
			continue
		}
		if ec.ReturnURL != "" {
			o.returnURL = ec.ReturnURL
		}
		if ec.CancelURL != "" {
			o.cancelURL = ec.CancelURL
		}
		if ec.ShippingPreference != "" {
			o.shipPref = ec.ShippingPreference
		}
		if ec.BrandName != "" {
			o.brand = ec.BrandName
		}
	}
	for _, u := range []string{o.returnURL, o.cancelURL} {
		if u == "" {
			continue
		}
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return fail(http.StatusBadRequest, paypal.ErrorDetail{Field: "/payment_source/paypal/experience_context", Value: u, Location: "body", Issue: "INVALID_PARAMETER_SYNTAX", Description: "return_url and cancel_url must be absolute http(s) URLs."})
		}
	}
	now := s.stamp()
	o.o = paypal.Order{
		ID:            id,
		Status:        paypal.StatusCreated,
		Intent:        req.Intent,
		PurchaseUnits: req.PurchaseUnits,
		CreateTime:    now,
		UpdateTime:    now,
		Links:         s.orderLinks(s.base(r), id, true),
	}
	for i := range o.o.PurchaseUnits {
		o.o.PurchaseUnits[i].Payments = nil
		if o.o.PurchaseUnits[i].Payee == nil {
			o.o.PurchaseUnits[i].Payee = &paypal.Payee{EmailAddress: "merchant@example.com", MerchantID: "VITRINESHOP01"}
		}
	}
	if req.PaymentSource != nil && req.PaymentSource.PayPal != nil {
		o.o.PaymentSource = &paypal.PaymentSource{PayPal: &paypal.PayPalSource{}}
	}
	s.orders[id] = o
	return http.StatusCreated, s.answer(r, o.o)
}

// answer honours Prefer: return=minimal (id, status, links; PayPal's
// default) or return=representation (the whole order).
func (s *Sandbox) answer(r *http.Request, o paypal.Order) any {
	if strings.Contains(r.Header.Get("Prefer"), "return=representation") {
		return cloneOrder(o)
	}
	return map[string]any{"id": o.ID, "status": o.Status, "links": o.Links}
}

func notFound(id string) (int, any) {
	return fail(http.StatusNotFound, paypal.ErrorDetail{Field: "order_id", Value: id, Location: "path", Issue: "INVALID_RESOURCE_ID", Description: "Specified resource ID does not exist. Please check the resource ID and try again."})
}

// get is GET /v2/checkout/orders/{id}.
func (s *Sandbox) get(id string) (int, any) {
	o, ok := s.orders[id]
	if !ok {
		return notFound(id)
	}
	return http.StatusOK, cloneOrder(o.o)
}

// patchable are the purchase-unit fields PATCH may change.
var patchable = map[string]bool{
	"amount": true, "items": true, "shipping/name": true, "shipping/address": true, "shipping/options": true,
	"shipping/type": true, "custom_id": true, "invoice_id": true, "description": true, "soft_descriptor": true, "payee": true,
}

// patch is PATCH /v2/checkout/orders/{id}: JSON Patch on /intent and on
// /purchase_units/@reference_id=='…'/<field>; the result must still add up.
func (s *Sandbox) patch(id string, body []byte) (int, any) {
	o, ok := s.orders[id]
	if !ok {
		return notFound(id)
	}
	if o.o.Status != paypal.StatusCreated && o.o.Status != paypal.StatusApproved {
		return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: "order_id", Value: id, Location: "path", Issue: "ORDER_ALREADY_COMPLETED", Description: "The order cannot be patched after it is completed or voided."})
	}
	var ops []paypal.PatchOp
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&ops); err != nil || len(ops) == 0 {
		return fail(http.StatusBadRequest, paypal.ErrorDetail{Location: "body", Issue: "MALFORMED_REQUEST_JSON", Description: "The body must be a non-empty JSON Patch array."})
	}
	raw, _ := json.Marshal(o.o)
	var doc map[string]any
	_ = json.Unmarshal(raw, &doc)
	for i, op := range ops {
		field := fmt.Sprintf("/%d", i)
		if op.Op != "add" && op.Op != "replace" && op.Op != "remove" {
			return fail(http.StatusBadRequest, paypal.ErrorDetail{Field: field + "/op", Value: op.Op, Location: "body", Issue: "INVALID_PATCH_OPERATION", Description: "Only add, replace and remove are supported."})
		}
		if op.Op != "remove" && op.Value == nil {
			return fail(http.StatusBadRequest, paypal.ErrorDetail{Field: field + "/value", Location: "body", Issue: "MISSING_REQUIRED_PARAMETER", Description: "A value is required."})
		}
		if op.Path == "/intent" {
			if op.Op == "remove" {
				return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: field + "/path", Value: op.Path, Location: "body", Issue: "FIELD_NOT_PATCHABLE"})
			}
			doc["intent"] = op.Value
			continue
		}
		ref, sub, ok := splitUnitPath(op.Path)
		if !ok || !patchable[sub] {
			return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: field + "/path", Value: op.Path, Location: "body", Issue: "FIELD_NOT_PATCHABLE", Description: "This field cannot be patched."})
		}
		units, _ := doc["purchase_units"].([]any)
		var unit map[string]any
		for _, u := range units {
			if m, _ := u.(map[string]any); m != nil && m["reference_id"] == ref {
				unit = m
			}
		}
		if unit == nil {
			return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: field + "/path", Value: op.Path, Location: "body", Issue: "INVALID_PATCH_PATH", Description: "No purchase unit has this reference id."})
		}
		target := unit
		keys := strings.Split(sub, "/")
		for _, k := range keys[:len(keys)-1] {
			next, _ := target[k].(map[string]any)
			if next == nil {
				next = map[string]any{}
				target[k] = next
			}
			target = next
		}
		last := keys[len(keys)-1]
		if op.Op == "remove" {
			if last == "amount" {
				return fail(http.StatusUnprocessableEntity, paypal.ErrorDetail{Field: field + "/path", Value: op.Path, Location: "body", Issue: "FIELD_NOT_PATCHABLE", Description: "The amount cannot be removed."})
			}
			delete(target, last)
		} else {
			target[last] = op.Value
		}
	}
	raw, _ = json.Marshal(doc)
	var next paypal.Order
	if err := json.Unmarshal(raw, &next); err != nil {
		return fail(http.StatusBadRequest, paypal.ErrorDetail{Location: "body", Issue: "INVALID_PARAMETER_SYNTAX", Description: "A patched value has the wrong type: " + err.Error()})
	}
	if errs := paypal.CheckCreateOrder(paypal.CreateOrderRequest{Intent: next.Intent, PurchaseUnits: next.PurchaseUnits}); len(errs) > 0 {
		return failDetails(errs)
	}
	next.UpdateTime = s.stamp()
	o.o = next
	return http.StatusNoContent, nil
}

// splitUnitPath reads "/purchase_units/@reference_id=='X'/field/sub".
func splitUnitPath(p string) (ref, field string, ok bool) {
	rest, ok := strings.CutPrefix(p, "/purchase_units/@reference_id=='")
	if !ok {
		return "", "", false
	}
	ref, field, ok = strings.Cut(rest, "'/")
	return ref, field, ok && ref != "" && field != ""
}

// capture is POST /v2/checkout/orders/{id}/capture.
func (s *Sandbox) capture(r *http.Request, id string, body []byte) (int, any) {
	if len(bytes.TrimSpace(body)) > 0 && !json.Valid(body) {
		return fail(http.StatusBadRequest, paypal.ErrorDetail{Location: "body", Issue: "MALFORMED_REQUEST_JSON", Description: "The request JSON is not well formed."})
	}
	o, ok := s.orders[id]
	if !ok {
		return notFound(id)
	}
	detail := func(issue, desc string) paypal.ErrorDetail {
		return paypal.ErrorDetail{Issue: issue, Description: desc}
	}
	switch {
	case o.o.Intent != paypal.IntentCapture:
		return fail(http.StatusUnprocessableEntity, detail("ACTION_DOES_NOT_MATCH_INTENT", "The order was created with intent AUTHORIZE; authorize it instead."))
	case o.o.Status == paypal.StatusCompleted:
		return fail(http.StatusUnprocessableEntity, detail(paypal.IssueOrderAlreadyCaptured, "Order already captured. If intent is CAPTURE only one capture per order is allowed."))
	case o.o.Status == paypal.StatusVoided:
		return fail(http.StatusUnprocessableEntity, detail("ORDER_VOIDED", "The order was cancelled by the buyer and cannot be captured."))
	case o.o.Status != paypal.StatusApproved:
		return fail(http.StatusUnprocessableEntity, detail(paypal.IssueOrderNotApproved, "Payer has not yet approved the Order for payment."))
	case o.funding == FundingDeclined:
		st, v := fail(http.StatusUnprocessableEntity, detail(paypal.IssueInstrumentDeclined, "The instrument presented was either declined by the processor or bank, or it can't be used for this payment."))
		e := v.(apiError)
		e.Links = []paypal.Link{{Href: s.base(r) + "/checkoutnow?token=" + id, Rel: "redirect", Method: "GET"}}
		return st, e
	case o.funding == FundingPayerAction:
		return fail(http.StatusUnprocessableEntity, detail(paypal.IssuePayerActionRequired, "Payer needs to perform the following action before proceeding with payment."))
	}
	now := s.stamp()
	base := s.base(r)
	for i := range o.o.PurchaseUnits {
		pu := &o.o.PurchaseUnits[i]
		c := s.newCapture(base, id, pu, o.funding, now)
		c.SupplementaryData = nil // only webhook resources carry it
		pu.Payments = &paypal.Payments{Captures: []paypal.Capture{c}}
	}
	o.o.Status = paypal.StatusCompleted
	o.o.UpdateTime = now
	o.o.Links = s.orderLinks(base, id, false)[:1]
	s.captures[id]++
	for _, c := range o.o.Captures() {
		ev := paypal.EventCaptureCompleted
		if c.Status == paypal.CaptureStatusPending {
			ev = paypal.EventCapturePending
		}
		s.emitCapture(ev, id, c)
	}
	return http.StatusCreated, s.answer(r, o.o)
}

// newCapture builds the capture of a purchase unit's full amount.
func (s *Sandbox) newCapture(base, orderID string, pu *paypal.PurchaseUnit, funding, now string) paypal.Capture {
	cur := pu.Amount.CurrencyCode
	gross, _ := paypal.ParseValue(cur, pu.Amount.Value)
	fee := gross * 349 / 10000
	if n, _ := paypal.Decimals(cur); n == 0 {
		fee += 40 // a fixed fee of 40 whole units (JPY)
	} else {
		fee += 49
	}
	if fee > gross {
		fee = gross
	}
	m := func(v int64) *paypal.Money { x, _ := paypal.NewMoney(cur, v); return &x }
	id := newID(17, true)
	c := paypal.Capture{
		ID:           id,
		Status:       paypal.CaptureStatusCompleted,
		Amount:       m(gross),
		FinalCapture: true,
		SellerProtection: &paypal.SellerProtection{
			Status:            "ELIGIBLE",
			DisputeCategories: []string{"ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"},
		},
		SellerReceivableBreakdown: &paypal.SellerReceivableBreakdown{GrossAmount: m(gross), PayPalFee: m(fee), NetAmount: m(gross - fee)},
		InvoiceID:                 pu.InvoiceID,
		CustomID:                  pu.CustomID,
		SupplementaryData:         &paypal.SupplementaryData{RelatedIDs: paypal.RelatedIDs{OrderID: orderID}},
		CreateTime:                now,
		UpdateTime:                now,
		Links: []paypal.Link{
			{Href: base + "/v2/payments/captures/" + id, Rel: "self", Method: "GET"},
			{Href: base + "/v2/payments/captures/" + id + "/refund", Rel: "refund", Method: "POST"},
			{Href: base + "/v2/checkout/orders/" + orderID, Rel: "up", Method: "GET"},
		},
	}
	if funding == FundingPending {
		c.Status = paypal.CaptureStatusPending
		c.StatusDetails = &paypal.StatusDetails{Reason: "PENDING_REVIEW"}
	}
	return c
}

// Approve approves an order as a buyer would on the approval page, with a
// funding source (FundingPayPal, FundingPayLater, FundingDeclined,
// FundingPending, FundingPayerAction), and returns the URL the buyer is sent
// back to ("" when the order has no return URL). An order already approved
// may be approved again with another funding source (after a decline).
func (s *Sandbox) Approve(orderID, funding string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.approve(orderID, funding, DemoPayerEmail)
}

func (s *Sandbox) approve(id, funding, email string) (string, error) {
	o, ok := s.orders[id]
	if !ok {
		return "", errNotFound
	}
	switch funding {
	case FundingPayPal, FundingPayLater, FundingDeclined, FundingPending, FundingPayerAction:
	default:
		return "", fmt.Errorf("paypalsandbox: unknown funding source %q", funding)
	}
	if o.o.Status != paypal.StatusCreated && o.o.Status != paypal.StatusApproved {
		return "", fmt.Errorf("paypalsandbox: order %s is %s and cannot be approved", id, o.o.Status)
	}
	name := &paypal.Name{GivenName: "Demo", Surname: "Buyer"}
	home := &paypal.Address{AddressLine1: "2211 North First Street", AdminArea2: "San Jose", AdminArea1: "CA", PostalCode: "95131", CountryCode: "US"}
	o.funding = funding
	o.o.Status = paypal.StatusApproved
	o.o.UpdateTime = s.stamp()
	o.o.Payer = &paypal.Payer{Name: name, EmailAddress: email, PayerID: DemoPayerID, Address: &paypal.Address{CountryCode: "US"}}
	o.o.PaymentSource = &paypal.PaymentSource{PayPal: &paypal.PayPalSource{
		EmailAddress: email, AccountID: DemoPayerID, AccountStatus: "VERIFIED", Name: name, Address: &paypal.Address{CountryCode: "US"},
	}}
	if o.shipPref != paypal.ShippingPreferenceNone {
		for i := range o.o.PurchaseUnits {
			pu := &o.o.PurchaseUnits[i]
			if pu.Shipping == nil {
				pu.Shipping = &paypal.ShippingDetail{}
			}
			if pu.Shipping.Name == nil {
				pu.Shipping.Name = &paypal.Name{FullName: "Demo Buyer"}
			}
			if pu.Shipping.Address == nil || o.shipPref == paypal.ShippingPreferenceFromFile && pu.Shipping.Address.AddressLine1 == "" {
				a := *home
				pu.Shipping.Address = &a
			}
		}
	}
	s.emitOrder(paypal.EventOrderApproved, o.o)
	if o.returnURL == "" {
		return "", nil
	}
	return withQuery(o.returnURL, url.Values{"token": {id}, "PayerID": {DemoPayerID}}), nil
}

// cancel voids an order the buyer walked away from and returns the cancel URL.
func (s *Sandbox) cancelOrder(id string) (string, error) {
	o, ok := s.orders[id]
	if !ok {
		return "", errNotFound
	}
	if o.o.Status == paypal.StatusCompleted {
		return "", fmt.Errorf("paypalsandbox: order %s is already paid", id)
	}
	o.o.Status = paypal.StatusVoided
	o.o.UpdateTime = s.stamp()
	if o.cancelURL == "" {
		return "", nil
	}
	return withQuery(o.cancelURL, url.Values{"token": {id}}), nil
}

// withQuery adds parameters to a URL's query.
func withQuery(u string, add url.Values) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	for k, v := range add {
		q[k] = v
	}
	p.RawQuery = q.Encode()
	return p.String()
}
