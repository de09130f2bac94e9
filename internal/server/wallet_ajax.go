package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/storage/sqlstore"
)

// The wallet's wc-ajax endpoints (protocol notes 15.2). Every POST body is
// JSON with the endpoint's nonce for the visitor's session (a bad one:
// "Could not validate nonce.", nothing changes); answers use the 15.1
// envelope. update_shipping_method is WooCommerce core's (a form with the
// nonce in security).

// walletAjax is the handler of a wallet endpoint, or nil (not a wallet
// endpoint, or the wallet is off).
func (s *Server) walletAjax(endpoint string) http.HandlerFunc {
	if s.wallet == nil {
		return nil
	}
	switch endpoint {
	case "ppc-cart-script-params":
		return s.walletScriptParams
	case "update_shipping_method":
		return s.wcUpdateShippingMethod
	case "ppc-vault-paypal", "ppc-create-setup-token", "ppc-create-payment-token", "ppc-update-customer-id", "ppc-approve-subscription":
		return s.walletVault
	}
	h, ok := map[string]walletHandler{
		"ppc-create-order":       s.walletCreateOrder,
		"ppc-approve-order":      s.walletApproveOrder,
		"ppc-get-order":          s.walletGetOrder,
		"ppc-simulate-cart":      s.walletSimulateCart,
		"ppc-change-cart":        s.walletChangeCart,
		"ppc-validate-checkout":  s.walletValidateCheckout,
		"ppc-save-checkout-form": s.walletSaveCheckoutForm,
		"ppc-data-client-id":     s.walletDataClientID,
		"ppc-update-shipping":    s.walletUpdateShipping,
	}[endpoint]
	if !ok {
		return nil
	}
	return s.walletPost(endpoint, h)
}

// walletHandler is a wallet endpoint: it answers itself, or returns the
// error that walletPost answers in the envelope.
type walletHandler func(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error

// walletPost reads the JSON body and checks the nonce before h runs.
func (s *Server) walletPost(endpoint string, h walletHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			walletFail(w, r, walletFailure{Name: "METHOD_NOT_ALLOWED", Message: "This endpoint takes a POST request."})
			return
		}
		now := s.now()
		sess := s.cartSessionOf(r, now)
		wr, err := readWalletRequest(r)
		if err != nil {
			s.walletFailFrom(w, r, endpoint, err)
			return
		}
		if !s.verifyWalletNonce(wr.nonce(), endpoint, sess, now) {
			walletFail(w, r, walletFailure{Message: msgWalletNonce})
			return
		}
		if err := h(w, r, sess, wr); err != nil {
			s.walletFailFrom(w, r, endpoint, err)
		}
	}
}

// walletRefuseEmpty refuses a wallet call on an empty cart (the page
// refreshes).
func walletRefuseEmpty(w http.ResponseWriter, r *http.Request) {
	walletRefuse(w, r, sqlstore.ErrCartEmpty.Message, []string{sqlstore.ErrCartEmpty.Message}, true)
}

// walletCartError is a cart refusal (a product, a quantity) as a wallet
// failure named by its code; other errors are kept.
func walletCartError(err error) error {
	var ce *cart.Error
	if errors.As(err, &ce) {
		return &walletError{name: ce.Code, message: html.UnescapeString(ce.Message)}
	}
	return err
}

// walletVault answers the vaulting endpoints (saving a payment method):
// not supported, whatever is posted.
func (s *Server) walletVault(w http.ResponseWriter, r *http.Request) {
	walletFail(w, r, walletFailure{Name: "NOT_SUPPORTED", Message: msgWalletVault})
}

// --- forms ---

// formAddress reads billing_* or shipping_* fields of a posted form.
func formAddress(form url.Values, group string) cart.Address {
	var a cart.Address
	for _, k := range checkout.AddressFields {
		checkout.SetAddressValue(&a, k, form.Get(group+"_"+k))
	}
	return a
}

// checkoutForm is the classic checkout form as the wallet receives it
// (form_encoded).
type checkoutForm struct {
	values      url.Values
	billing     cart.Address
	shipping    *cart.Address
	terms       bool
	rate        string
	note        string
	attribution map[string]string
}

func parseCheckoutForm(raw string) (*checkoutForm, error) {
	if len(raw) > 64<<10 {
		return nil, errWalletBody
	}
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, errWalletBody
	}
	f := &checkoutForm{values: v, billing: formAddress(v, "billing"), terms: v.Get("terms") != "",
		rate: strings.TrimSpace(v.Get("shipping_method[0]")), note: v.Get("order_comments"),
		attribution: checkout.AttributionFromForm(v)}
	if v.Get("ship_to_different_address") != "" {
		sh := formAddress(v, "shipping")
		f.shipping = &sh
	}
	return f, nil
}

// validateCheckoutForm checks the form as placing the order would (the
// same address rules and terms), without placing anything.
func (s *Server) validateCheckoutForm(f *checkoutForm) *checkout.ValidationError {
	rules := s.cfg.Checkout.AddressRules()
	verr := &checkout.ValidationError{}
	billing := f.billing
	verr.Fields = append(verr.Fields, checkout.ValidateAddress("billing", &billing, rules)...)
	if f.shipping != nil {
		shipping := *f.shipping
		verr.Fields = append(verr.Fields, checkout.ValidateAddress("shipping", &shipping, checkout.AddressRules{Allowed: rules.Allowed})...)
	}
	if s.cfg.Checkout.Terms != nil && !f.terms {
		verr.Notices = append(verr.Notices, checkout.MsgTerms)
	}
	if len(verr.Fields) == 0 && len(verr.Notices) == 0 {
		return nil
	}
	return verr
}

const msgWalletInvalid = "Please check the checkout form."

// walletValidateCheckout answers ppc-validate-checkout: {} or the
// validation envelope with every message (early validation before the
// buyer is sent to PayPal).
func (s *Server) walletValidateCheckout(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	f, err := parseCheckoutForm(wr.FormEncoded)
	if err != nil {
		return err
	}
	c, err := s.db.Cart(r.Context(), sess.id, s.now())
	if err != nil {
		return err
	}
	if len(c.Lines) == 0 {
		walletRefuseEmpty(w, r)
		return nil
	}
	if verr := s.validateCheckoutForm(f); verr != nil {
		walletRefuse(w, r, msgWalletInvalid, verr.Messages(), false)
		return nil
	}
	walletOK(w, r, map[string]any{})
	return nil
}

// walletSaveCheckoutForm answers ppc-save-checkout-form: the entered
// addresses are kept on the session, so the checkout shows them again after
// a redirect.
func (s *Server) walletSaveCheckoutForm(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	f, err := parseCheckoutForm(wr.FormEncoded)
	if err != nil {
		return err
	}
	ctx, now := r.Context(), s.now()
	c, err := s.db.Cart(ctx, sess.id, now)
	if err != nil {
		return err
	}
	if !c.Exists {
		walletRefuseEmpty(w, r)
		return nil
	}
	cust := c.Customer
	cust.Billing = cleanAddress(f.billing)
	if f.shipping != nil {
		cust.Shipping = cleanAddress(*f.shipping)
		cust.Shipping.Email = ""
	} else {
		cust.Shipping = cust.Billing
		cust.Shipping.Email = ""
	}
	if f.rate != "" && len(f.rate) <= 64 {
		cust.ShippingRate = f.rate
	}
	if err := s.db.SetCustomer(ctx, sess.id, cust, now, now.Add(s.cfg.CartLifetime)); err != nil {
		return err
	}
	walletOK(w, r, map[string]any{})
	return nil
}

// cleanAddress trims and bounds every field.
func cleanAddress(a cart.Address) cart.Address {
	for _, k := range checkout.AddressFields {
		checkout.SetAddressValue(&a, k, truncateRunes(checkout.Clean(checkout.AddressValue(&a, k)), 200))
	}
	return a
}

// --- creating and approving ---

var (
	errWalletContext = &walletError{name: "INVALID_CONTEXT", message: "PayPal is not offered here."}
	errWalletFunding = &walletError{name: "INVALID_FUNDING_SOURCE", message: "This payment source is not available. Please choose PayPal or Pay Later."}
	errWalletMethod  = &walletError{name: "INVALID_PAYMENT_METHOD", message: "Card payments are not available. Please choose PayPal or Pay Later."}
)

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// walletCreateOrder answers ppc-create-order: places the shop's order
// (status pending, stock held, no mails yet) and creates the PayPal order
// from the order's own totals; the answer carries the approval URL.
//
// context checkout: the posted form is validated like the classic
// checkout. product, cart and cart-block: the order is the session's cart
// with the session's addresses (the payer's fill the rest at approval).
// The cart is kept until the order is paid; the session's earlier unpaid
// wallet orders are cancelled first (their stock comes back).
func (s *Server) walletCreateOrder(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	switch wr.PaymentMethod {
	case "", payment.WalletGatewayID:
	default:
		return errWalletMethod
	}
	switch wr.FundingSource {
	case "", "paypal", "paylater":
	default:
		return errWalletFunding
	}
	var form *checkoutForm
	switch wr.Context {
	case "checkout":
		f, err := parseCheckoutForm(wr.FormEncoded)
		if err != nil {
			return err
		}
		form = f
	case "product", "cart", "cart-block":
	default:
		return errWalletContext
	}
	ctx, now := r.Context(), s.now()
	lock := s.wallet.sessionLock(sess.id)
	lock.Lock()
	defer lock.Unlock()
	stored, err := s.db.Cart(ctx, sess.id, now)
	if err != nil {
		return err
	}
	if len(stored.Lines) == 0 {
		walletRefuseEmpty(w, r)
		return nil
	}
	if form != nil {
		if verr := s.validateCheckoutForm(form); verr != nil {
			walletRefuse(w, r, msgWalletInvalid, verr.Messages(), false)
			return nil
		}
	}
	// The buyer starts over: earlier unpaid wallet orders of this session
	// give their stock back before the new order takes it.
	if open, err := s.db.OpenWalletOrders(ctx, sess.id, payment.WalletGatewayID); err == nil {
		for _, o := range open {
			if _, err := s.db.CancelUnpaidOrder(ctx, o.ID, now); err != nil {
				s.log.Warn("wallet: cancel an earlier order", "order", o.ID, "err", err)
			}
		}
	} else {
		s.log.Warn("wallet: earlier orders", "err", err)
	}
	var o *checkout.Order
	shipPref := paypal.ShippingPreferenceProvided
	if form != nil {
		if form.rate != "" && form.rate != stored.Customer.ShippingRate && len(form.rate) <= 64 {
			cust := stored.Customer
			cust.ShippingRate = form.rate
			if err := s.db.SetCustomer(ctx, sess.id, cust, now, now.Add(s.cfg.CartLifetime)); err != nil {
				return err
			}
		}
		o, err = s.placeOrder(ctx, placeRequest{sess: sess, billing: form.billing, shipping: form.shipping, note: form.note,
			method: payment.WalletGatewayID, attribution: form.attribution, termsRequired: s.cfg.Checkout.Terms != nil,
			termsAccepted: form.terms, idempotencyKey: "wallet-" + randomKey(), body: []byte(wr.FormEncoded + "|" + wr.FundingSource),
			remote: r.RemoteAddr, userAgent: r.UserAgent(), invalidPayment: "Invalid payment method."})
	} else {
		shipPref = paypal.ShippingPreferenceFromFile
		o, err = s.placeCartWalletOrder(ctx, r, sess, stored, now)
	}
	var ve *checkout.ValidationError
	var ce *cart.Error
	switch {
	case errors.As(err, &ve):
		walletRefuse(w, r, msgWalletInvalid, ve.Messages(), false)
		return nil
	case errors.As(err, &ce):
		msg := html.UnescapeString(ce.Message)
		walletRefuse(w, r, msg, []string{msg}, true)
		return nil
	case err != nil:
		return err
	}
	// The cart stays until the order is paid.
	if err := s.db.RestoreCartLines(ctx, sess.id, stored.Lines, now, now.Add(s.cfg.CartLifetime)); err != nil {
		s.log.Warn("wallet: keep the cart", "err", err)
	}
	ppo, err := s.startWalletPayment(ctx, o, shipPref)
	if err != nil {
		if _, cerr := s.db.CancelUnpaidOrder(ctx, o.ID, s.now()); cerr != nil {
			s.log.Error("wallet: cancel an order PayPal refused", "order", o.ID, "err", cerr)
		}
		return err
	}
	if !sess.viaToken {
		s.setSessionCookie(w, sess.id, now.Add(s.cfg.CartLifetime))
	}
	walletOK(w, r, map[string]any{"id": ppo.ID, "custom_id": strconv.FormatInt(o.ID, 10), "approve_url": ppo.ApproveURL()})
	return nil
}

// placeCartWalletOrder places the session's cart as a wallet order with the
// session's addresses, without the checkout form (product and cart
// buttons). The totals are those of the session's address, or of the
// shop's base country when it has none.
func (s *Server) placeCartWalletOrder(ctx context.Context, r *http.Request, sess cartSession, stored *cart.Cart, now time.Time) (*checkout.Order, error) {
	cust := stored.Customer
	billing, shipping := cleanAddress(cust.Billing), cleanAddress(cust.Shipping)
	if shipping.Country == "" {
		shipping = billing
	}
	shipping.Email = ""
	meta := map[string]string{}
	s.markTestPayment(meta, walletMethod)
	if ip := clientIP(r.RemoteAddr); ip != "" {
		meta["_customer_ip_address"] = ip
	}
	if ua := truncateRunes(checkout.Clean(r.UserAgent()), 512); ua != "" {
		meta["_customer_user_agent"] = ua
	}
	o, _, err := s.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: sess.id,
		Customer: checkout.Customer{Billing: billing, Shipping: shipping, RateID: cust.ShippingRate},
		Method:   walletMethod, Status: checkout.StatusPending, Config: &s.cfg.Checkout, Meta: meta,
		IdempotencyScope: "wallet:" + sess.id, IdempotencyKey: randomKey(), RequestHash: "cart", Now: now})
	return o, err
}

// walletOwnOrder finds the shop order of a PayPal order id posted by a
// session; another session's order is unknown to it.
func (s *Server) walletOwnOrder(ctx context.Context, sess cartSession, wr *walletRequest) (*checkout.Order, error) {
	id := wr.orderIDString()
	if id == "" || len(id) > 64 {
		return nil, errWalletUnknownOrder
	}
	o, err := s.db.OrderByProviderOrderID(ctx, id)
	if errors.Is(err, sqlstore.ErrOrderNotFound) || err == nil && o.CartSession != sess.id {
		return nil, errWalletUnknownOrder
	}
	return o, err
}

// walletApproveOrder answers ppc-approve-order: the buyer approved in
// PayPal's window; the order is captured and paid at once (there is no
// final review page) and the answer names the order-received page.
func (s *Server) walletApproveOrder(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	ctx := r.Context()
	o, err := s.walletOwnOrder(ctx, sess, wr)
	if err != nil {
		return err
	}
	done, err := s.completeWalletOrder(ctx, o)
	if err != nil {
		return err
	}
	walletOK(w, r, map[string]any{"order_received_url": orderReceivedURL(done)})
	return nil
}

// walletGetOrder answers ppc-get-order: the PayPal order of one of the
// session's orders, as PayPal has it now.
func (s *Server) walletGetOrder(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	ctx := r.Context()
	o, err := s.walletOwnOrder(ctx, sess, wr)
	if err != nil {
		return err
	}
	cctx, cancel := s.wallet.callCtx(ctx)
	ppo, err := s.wallet.pp.GetOrder(cctx, o.ProviderOrderID)
	cancel()
	if err != nil {
		return err
	}
	out := map[string]any{"id": ppo.ID, "status": ppo.Status, "intent": ppo.Intent, "custom_id": strconv.FormatInt(o.ID, 10),
		"payment_state": o.PaymentState}
	if len(ppo.PurchaseUnits) > 0 {
		out["amount"] = ppo.PurchaseUnits[0].Amount
	}
	walletOK(w, r, out)
	return nil
}

// --- the cart from product and cart buttons ---

// walletLines resolves posted products into priced cart lines (catalogue
// prices; anything else posted is ignored), with the products by id.
func (s *Server) walletLines(ctx context.Context, products []walletProduct, now time.Time) ([]cart.Line, map[int64]*catalog.Product, error) {
	if len(products) == 0 || len(products) > 20 {
		return nil, nil, &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "No product to buy was given."}
	}
	byID := map[int64]*catalog.Product{}
	var lines []cart.Line
	for _, p := range products {
		id, err := strconv.ParseInt(rawNumber(p.ID), 10, 64)
		if err != nil || id <= 0 {
			return nil, nil, errBadProductID
		}
		qty := int64(1)
		if q := rawNumber(p.Quantity); q != "" && q != "null" {
			if qty, err = cart.ParseQuantity(q); err != nil {
				return nil, nil, err
			}
		}
		var attrs []cart.Attr
		for _, v := range p.Variations {
			attrs = append(attrs, cart.Attr{Attribute: v.Name, Value: v.Value})
		}
		sell, parent, line, err := s.resolveLine(ctx, id, attrs, now)
		if err != nil {
			return nil, nil, err
		}
		if err := cart.CheckQuantityHeld(cart.WithStock(sell, parent), qty, 0, 0, true); err != nil {
			return nil, nil, err
		}
		line.Quantity = qty
		byID[sell.ID] = sell
		if parent != nil {
			byID[parent.ID] = parent
		}
		lines = append(lines, line)
	}
	return lines, byID, nil
}

// walletSimulateCart answers ppc-simulate-cart: what the cart would cost
// if it held only the posted products, priced on a copy that is never
// written (the product page's Pay Later message and button state).
func (s *Server) walletSimulateCart(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	ctx, now := r.Context(), s.now()
	lines, byID, err := s.walletLines(ctx, wr.Products, now)
	if err != nil {
		return walletCartError(err)
	}
	c, err := s.db.Cart(ctx, sess.id, now)
	if err != nil {
		return err
	}
	q, err := s.quoteCart(lines, byID, c.Customer)
	if err != nil {
		return err
	}
	walletOK(w, r, map[string]any{
		"total":         json.Number(s.formatAmount(q.Total)),
		"shipping_fee":  json.Number(s.formatAmount(q.Shipping + q.ShippingTax)),
		"currency_code": s.cfg.Checkout.Currency.Code,
		"country_code":  s.cfg.Checkout.BaseCountry,
		"funding":       map[string]any{"paylater": map[string]bool{"enabled": true}},
		"button":        map[string]bool{"is_disabled": false},
		"messages":      map[string]bool{"is_hidden": false},
	})
	return nil
}

// walletChangeCart answers ppc-change-cart: the cart becomes the posted
// products (the product page's button buys what is on the page); the
// answer is the new cart's purchase units.
func (s *Server) walletChangeCart(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	ctx, now := r.Context(), s.now()
	// Check everything before the cart changes.
	if _, _, err := s.walletLines(ctx, wr.Products, now); err != nil {
		return walletCartError(err)
	}
	c, err := s.db.Cart(ctx, sess.id, now)
	if err != nil {
		return err
	}
	for _, l := range c.Lines {
		if err := s.db.RemoveLine(ctx, sess.id, l.Key, now, now.Add(s.cfg.CartLifetime)); err != nil && !errors.Is(err, cart.ErrNoLine) {
			return err
		}
	}
	for _, p := range wr.Products {
		id, _ := strconv.ParseInt(rawNumber(p.ID), 10, 64)
		qty := int64(1)
		if q := rawNumber(p.Quantity); q != "" && q != "null" {
			qty, _ = cart.ParseQuantity(q)
		}
		var attrs []cart.Attr
		for _, v := range p.Variations {
			attrs = append(attrs, cart.Attr{Attribute: v.Name, Value: v.Value})
		}
		if _, _, err := s.addLine(ctx, sess, id, qty, attrs, now); err != nil {
			return walletCartError(err)
		}
	}
	obj, pu, err := s.cartPurchaseUnit(ctx, sess.id)
	if err != nil {
		return err
	}
	if !sess.viaToken {
		s.setSessionCookie(w, sess.id, now.Add(s.cfg.CartLifetime))
	}
	s.setCartCookies(w, r, len(obj.Items) > 0, cartHash(obj))
	walletOK(w, r, []paypal.PurchaseUnit{pu})
	return nil
}

// --- shipping ---

// walletUpdateShipping answers ppc-update-shipping: a shipping address or
// option chosen in PayPal's window updates the session's customer (only
// country, state, postcode and city of the address), and the answer is the
// re-priced cart's purchase units. Placed orders are never re-priced here.
func (s *Server) walletUpdateShipping(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	ctx, now := r.Context(), s.now()
	c, err := s.db.Cart(ctx, sess.id, now)
	if err != nil {
		return err
	}
	if len(c.Lines) == 0 {
		walletRefuseEmpty(w, r)
		return nil
	}
	cust := c.Customer
	if a := wr.ShippingAddress; a != nil {
		country := strings.ToUpper(strings.TrimSpace(a.CountryCode))
		if _, ok := checkout.LookupCountry(country); !ok {
			walletFail(w, r, walletFailure{Name: "UNPROCESSABLE_ENTITY", Message: "The shop does not ship to this country.",
				Details: []paypal.ErrorDetail{{Issue: "COUNTRY_ERROR", Field: "address/country_code"}}})
			return nil
		}
		cust.Shipping.Country = country
		cust.Shipping.State = truncateRunes(checkout.Clean(a.AdminArea1), 100)
		cust.Shipping.Postcode = truncateRunes(checkout.Clean(a.PostalCode), 20)
		cust.Shipping.City = truncateRunes(checkout.Clean(a.AdminArea2), 100)
	}
	if o := wr.ShippingOption; o != nil && o.ID != "" && len(o.ID) <= 64 {
		cust.ShippingRate = o.ID
	}
	if err := s.db.SetCustomer(ctx, sess.id, cust, now, now.Add(s.cfg.CartLifetime)); err != nil {
		return err
	}
	_, pu, err := s.cartPurchaseUnit(ctx, sess.id)
	if err != nil {
		return err
	}
	walletOK(w, r, map[string]any{"purchase_units": []paypal.PurchaseUnit{pu}})
	return nil
}

// wcUpdateShippingMethod answers WooCommerce core's update_shipping_method
// (a form: security = the update-shipping-method nonce,
// shipping_method[<package>] = rate id): the session's rate changes and the
// answer is the cart totals' HTML. A bad nonce answers -1 with 403, as
// check_ajax_referer does.
func (s *Server) wcUpdateShippingMethod(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	sess := s.cartSessionOf(r, now)
	_ = r.ParseForm()
	if r.Method != http.MethodPost || !s.verifyWalletNonce(r.PostFormValue("security"), "update_shipping_method", sess, now) {
		wcAjaxHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("-1"))
		return
	}
	ctx := r.Context()
	rate := strings.TrimSpace(r.PostFormValue("shipping_method[0]"))
	if rate == "" {
		for k, v := range r.PostForm {
			if strings.HasPrefix(k, "shipping_method[") && len(v) > 0 {
				rate = strings.TrimSpace(v[0])
				break
			}
		}
	}
	c, err := s.db.Cart(ctx, sess.id, now)
	if err == nil && rate != "" && len(rate) <= 64 && c.Exists && c.Customer.ShippingRate != rate {
		cust := c.Customer
		cust.ShippingRate = rate
		err = s.db.SetCustomer(ctx, sess.id, cust, now, now.Add(s.cfg.CartLifetime))
	}
	var q checkout.Quotation
	if err == nil {
		_, _, q, err = s.checkoutCart(ctx, sess.id)
	}
	if err != nil {
		s.wcCartFailed(w, "update_shipping_method", err)
		return
	}
	cur := s.cfg.Checkout.Currency
	var b strings.Builder
	row := func(class, label, value string) {
		b.WriteString(`<tr class="` + class + `"><th>` + html.EscapeString(label) + `</th><td data-title="` + html.EscapeString(label) + `">` +
			html.EscapeString(value) + `</td></tr>`)
	}
	b.WriteString(`<div class="cart_totals"><h2>Cart totals</h2><table class="shop_table shop_table_responsive"><tbody>`)
	row("cart-subtotal", "Subtotal", cur.Format(q.ItemsSubtotal))
	if q.NeedsShipping {
		name := "Shipping"
		if q.Selected != nil {
			name = q.Selected.Name
		}
		row("shipping", name, cur.Format(q.Shipping))
	}
	for _, t := range q.TaxLines {
		row("tax-rate", t.Label, cur.Format(t.Amount()))
	}
	row("order-total", "Total", cur.Format(q.Total))
	b.WriteString(`</tbody></table></div>`)
	wcAjaxHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(b.String()))
}

// --- page data ---

// walletScriptParams answers GET ppc-cart-script-params: the cart's amount
// for the buttons and messages, the shipping packages with ?shipping=1,
// and the session's wallet nonces (the product page is cached, so its
// buttons fetch their nonces here on first use; a JSON GET answer is only
// readable by the shop's own pages).
func (s *Server) walletScriptParams(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	sess := s.cartSessionOf(r, now)
	obj, _, q, err := s.checkoutCart(r.Context(), sess.id)
	if err != nil {
		s.walletFailFrom(w, r, "ppc-cart-script-params", err)
		return
	}
	cur := s.cfg.Checkout.Currency
	empty := len(obj.Items) == 0
	clientID := ""
	if s.wallet.pp != nil {
		clientID = s.wallet.pp.ClientID
	}
	data := map[string]any{
		"url_params": map[string]string{"client-id": clientID, "currency": cur.Code, "intent": "capture",
			"components": "buttons,funding-eligibility,messages", "enable-funding": "paylater", "disable-funding": "card,venmo"},
		"button":                  map[string]bool{"is_disabled": empty},
		"messages":                map[string]bool{"is_hidden": empty},
		"amount":                  json.Number(s.formatAmount(q.Total)),
		"total":                   json.Number(s.formatAmount(q.Total)),
		"total_str":               cur.Format(q.Total),
		"currency_code":           cur.Code,
		"country_code":            s.cfg.Checkout.BaseCountry,
		"chosen_shipping_methods": []string{},
		"nonces":                  s.walletNonces(sess, now),
	}
	if q.Selected != nil {
		data["chosen_shipping_methods"] = []string{q.Selected.ID}
	}
	if r.URL.Query().Get("shipping") == "1" {
		pkgs := []map[string]any{}
		for _, p := range q.Packages {
			for _, rt := range p.Rates {
				pkgs = append(pkgs, map[string]any{"id": rt.ID, "label": rt.Name, "cost": json.Number(s.formatAmount(rt.Cost + rt.Taxes)),
					"cost_str": cur.Format(rt.Cost + rt.Taxes), "description": ""})
			}
		}
		data["shipping_packages"] = pkgs
	}
	walletOK(w, r, data)
}

// walletDataClientID answers ppc-data-client-id as plain JSON (not in the
// envelope): this shop uses no PayPal SDK, so there is no client token
// (vaulting and card fields are off) and the token is empty.
func (s *Server) walletDataClientID(w http.ResponseWriter, r *http.Request, sess cartSession, wr *walletRequest) error {
	walletWrite(w, r, map[string]any{"token": "", "expiration": 0, "user": 0})
	return nil
}
