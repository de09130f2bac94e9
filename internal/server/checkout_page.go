package server

import (
	"context"
	"errors"
	"html"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/storeapi"
)

// The checkout page, its no-script form, and the order-received page. All
// are per visitor: rendered per request, Cache-Control "no-store, private",
// noindex, never in the page cache.
//
// Without scripts the form posts WooCommerce's classic fields to
// POST /checkout/ with the woocommerce-process-checkout-nonce; success is a
// 303 to the order-received page, a refusal re-renders the page (400, or
// 403 for a bad nonce) with the notices and the entered values.
//
// The order-received page shows an order only with its key: an unknown id
// or a missing or wrong key answers 404 with no order data (never 200 with
// a notice), so an order id alone reveals nothing about any order.

func (s *Server) paymentViews() []pages.PaymentMethodView {
	out := []pages.PaymentMethodView{}
	for _, m := range s.payments.List() {
		out = append(out, pages.PaymentMethodView{ID: m.ID(), Title: m.Title(), Description: m.Description(), Kind: payment.Kind(m)})
	}
	return out
}

// handleCheckout answers GET /checkout/.
func (s *Server) handleCheckout(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	now := s.now()
	sess := s.CartSessionOf(r, now)
	obj, c, _, err := s.storeAPI.CheckoutCart(r.Context(), sess.ID, sess.Currency)
	if err != nil {
		s.PageError(w, "checkout page", err)
		return
	}
	if len(obj.Items) == 0 {
		http.Redirect(w, r, "/cart/", http.StatusFound)
		return
	}
	values := pages.CheckoutValues{BillingAddress: pages.NewBillingAddress(c.Customer.Billing), ShippingAddress: c.Customer.Shipping}
	values.ShippingAddress.Email = ""
	// A new shopper starts in the shop's country, as WooCommerce does.
	if values.BillingAddress.Country == "" {
		values.BillingAddress.Country = s.cfg.Checkout.BaseCountry
	}
	if values.ShippingAddress.Country == "" {
		values.ShippingAddress.Country = s.cfg.Checkout.BaseCountry
	}
	if methods := s.payments.List(); len(methods) > 0 {
		values.PaymentMethod = methods[0].ID()
	}
	values.ShipToDifferentAddress = c.Customer.Shipping != (cart.Address{}) && !sameAddress(c.Customer.Billing, c.Customer.Shipping)
	s.fillFromAccount(r, &values, c)                                                         // a customer's saved addresses (checkout_account.go)
	s.renderCheckout(w, r, sess, obj, values, s.walletAPI.CheckoutNotices(r), http.StatusOK) // ?wallet= notices (internal/walletapi)
}

func sameAddress(b, s cart.Address) bool {
	b.Email, b.Phone, s.Email, s.Phone = "", "", "", ""
	return b == s
}

func (s *Server) renderCheckout(w http.ResponseWriter, r *http.Request, sess httpx.Session, obj *storeapi.Cart, values pages.CheckoutValues,
	errs *pages.CheckoutErrors, status int) {
	now := s.now()
	tick := httpx.NonceTickAt(now)
	res, err := s.loader.Checkout(s.PageContext(r), r.URL.RequestURI(), pages.CheckoutInput{Cart: obj, Nonce: s.Nonce(sess.Scope(), tick),
		ProcessNonce: s.ProcessNonce(sess.Scope(), tick), Values: values, Config: &s.cfg.Checkout, PaymentMethods: s.paymentViews(),
		Errors: errs, Status: status, Wallet: s.walletAPI.CheckoutView(sess, now), CanCreateAccount: httpx.UserOf(r) == nil && s.accounts != nil,
		Terms: s.terms(r.Context())})
	s.SendPersonal(w, r, "checkout page", r.URL.RequestURI(), res, err)
}

// PageError logs a page that could not be shown (what names it) and
// answers a plain 500.
func (s *Server) PageError(w http.ResponseWriter, what string, err error) {
	s.log.Error(what, "err", err)
	http.Error(w, "The shop could not show this page. Please try again.", http.StatusInternalServerError)
}

// handleCheckoutPost answers the classic form's POST /checkout/.
func (s *Server) handleCheckoutPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := s.now()
	sess := s.CartSessionOf(r, now)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form could not be read.", http.StatusBadRequest)
		return
	}
	billing := httpx.FormAddress(r, "billing")
	shipping := httpx.FormAddress(r, "shipping")
	toDifferent := r.PostFormValue("ship_to_different_address") != ""
	values := pages.CheckoutValues{BillingAddress: pages.NewBillingAddress(billing), ShippingAddress: shipping,
		CustomerNote: r.PostFormValue("order_comments"), PaymentMethod: r.PostFormValue("payment_method"), ShipToDifferentAddress: toDifferent,
		CreateAccount: r.PostFormValue("createaccount") != ""}
	values.ShippingAddress.Email = ""
	refuse := func(status int, errs *pages.CheckoutErrors) {
		obj, _, _, err := s.storeAPI.CheckoutCart(ctx, sess.ID, sess.Currency)
		if err != nil {
			s.PageError(w, "checkout page", err)
			return
		}
		if len(obj.Items) == 0 {
			http.Redirect(w, r, "/cart/", http.StatusSeeOther)
			return
		}
		s.renderCheckout(w, r, sess, obj, values, errs, status)
	}
	if !s.VerifyProcessNonce(r.PostFormValue("woocommerce-process-checkout-nonce"), sess.Scope(), httpx.NonceTickAt(now)) {
		refuse(http.StatusForbidden, &pages.CheckoutErrors{Notices: []string{"We were unable to process your order, please try again."},
			Fields: map[string]string{}})
		return
	}
	if wait, ok := s.checkout.Allow(ctx, sess.ID, s.clientIP(r)); !ok {
		w.Header().Set("Retry-After", httpx.RetryAfter(wait))
		refuse(http.StatusTooManyRequests, &pages.CheckoutErrors{Notices: []string{"Too many requests. Please wait and try again."},
			Fields: map[string]string{}})
		return
	}
	// A no-script shopper may pick a shipping rate in the review table.
	if rate := strings.TrimSpace(r.PostFormValue("shipping_method[0]")); rate != "" {
		if err := s.checkout.PickRate(ctx, sess.ID, rate); err != nil {
			s.PageError(w, "checkout rate", err)
			return
		}
	}
	pr := checkout.PlaceRequest{Session: sess.ID, Billing: billing, Note: values.CustomerNote, Method: strings.TrimSpace(values.PaymentMethod),
		Attribution: checkout.AttributionFromForm(r.PostForm), TermsRequired: s.terms(ctx) != nil,
		TermsAccepted: r.PostFormValue("terms") != "", Body: []byte(r.PostForm.Encode()), ClientIP: s.clientIP(r),
		UserAgent: r.UserAgent(), InvalidPayment: "Invalid payment method.", Currency: sess.Currency,
		ShownCurrency: httpx.Clip(r.PostFormValue("wmc_currency"), 8)}
	if toDifferent {
		pr.Shipping = &shipping
	}
	o, r, err := s.placeForViewer(w, r, pr, values.CreateAccount, r.PostFormValue("account_password"))
	var ve *checkout.ValidationError
	var ce *cart.Error
	switch {
	case err == nil:
		if !sess.ViaToken {
			s.SetSessionCookie(w, sess.ID, now.Add(s.cfg.CartLifetime))
		}
		s.setCartCookies(w, r, false, "")
		http.Redirect(w, r, storeapi.OrderReceivedURL(o), http.StatusSeeOther)
	case errors.As(err, &ve):
		errs := &pages.CheckoutErrors{Notices: ve.Messages(), Fields: map[string]string{}}
		for _, f := range ve.Fields {
			errs.Fields[f.Field] = f.Message
		}
		refuse(http.StatusBadRequest, errs)
	case errors.Is(err, checkout.ErrCartEmpty):
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
	case errors.As(err, &ce):
		errs := &pages.CheckoutErrors{Notices: []string{html.UnescapeString(ce.Message)}, Fields: map[string]string{}}
		if strings.HasPrefix(ce.Code, "registration-error-") {
			// "Create an account" refused: tie the message to its field.
			field := "account_password"
			if ce.Code == errCheckoutEmailExists.Code {
				field = "billing_email"
			}
			errs.Fields[field] = errs.Notices[0]
		}
		refuse(ce.Status, errs)
	default:
		s.PageError(w, "checkout", err)
	}
}

// handleOrderReceived answers GET /checkout/order-received/{id}/?key=….
func (s *Server) handleOrderReceived(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer") // the key is in the URL
	view, err := s.orderView(r.Context(), r.PathValue("id"), r.URL.Query().Get("key"))
	if err != nil {
		s.PageError(w, "order received", err)
		return
	}
	res, err := s.loader.OrderReceived(s.PageContext(r), r.URL.RequestURI(), view)
	s.SendPersonal(w, r, "order received", r.URL.RequestURI(), res, err)
}

// orderView finds the order an id and key name together, or nil.
func (s *Server) orderView(ctx context.Context, rawID, key string) (*pages.OrderView, error) {
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil {
		return nil, nil
	}
	o, err := s.checkout.OrderReceived(ctx, id, key)
	if errors.Is(err, checkout.ErrOrderNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	instructions, accounts := s.paymentTexts(o.Order)
	v := pages.NewOrderView(o.Order, s.currencyOf(ctx, o.Currency), instructions)
	v.BankAccounts = accounts
	v.TestOrder, v.TestNotice = o.TestOrder(), testOrderNotice(o.Order)
	return v, nil
}
