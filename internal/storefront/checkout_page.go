package storefront

import (
	"context"
	"errors"
	"html"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/address"
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

func (f *Storefront) paymentViews() []pages.PaymentMethodView {
	out := []pages.PaymentMethodView{}
	for _, m := range f.d.Payments.List() {
		out = append(out, pages.PaymentMethodView{ID: m.ID(), Title: m.Title(), Description: m.Description(), Kind: payment.Kind(m)})
	}
	return out
}

// Checkout answers GET /checkout/.
func (f *Storefront) Checkout(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
	obj, c, ok := f.checkoutCart(w, r, sess, http.StatusFound)
	if !ok {
		return
	}
	values := pages.CheckoutValues{BillingAddress: pages.NewBillingAddress(c.Customer.Billing), ShippingAddress: c.Customer.Shipping}
	values.ShippingAddress.Email = ""
	// A new shopper starts in the shop's country, as WooCommerce does.
	if values.BillingAddress.Country == "" {
		values.BillingAddress.Country = f.d.CheckoutConfig.BaseCountry
	}
	if values.ShippingAddress.Country == "" {
		values.ShippingAddress.Country = f.d.CheckoutConfig.BaseCountry
	}
	if methods := f.d.Payments.List(); len(methods) > 0 {
		values.PaymentMethod = methods[0].ID()
	}
	values.ShipToDifferentAddress = c.Customer.Shipping != (cart.Address{}) && !address.Same(c.Customer.Billing, c.Customer.Shipping)
	f.fillFromAccount(r, &values, c)                                                        // a customer's saved addresses (checkout_account.go)
	f.renderCheckout(w, r, sess, obj, values, f.d.Wallet.CheckoutNotices(r), http.StatusOK) // ?wallet= notices (internal/walletapi)
}

// checkoutCart is the session's cart as the checkout page shows it. When
// it cannot be read (500) or is empty (a redirect to the cart page with
// the empty status) it answers, and ok is false.
func (f *Storefront) checkoutCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, empty int) (obj *storeapi.Cart, c *cart.Cart, ok bool) {
	obj, c, _, err := f.d.Store.CheckoutCart(r.Context(), sess.ID, sess.Currency)
	if err != nil {
		f.PageError(w, "checkout page", err)
		return nil, nil, false
	}
	if len(obj.Items) == 0 {
		http.Redirect(w, r, "/cart/", empty)
		return nil, nil, false
	}
	return obj, c, true
}

func (f *Storefront) renderCheckout(w http.ResponseWriter, r *http.Request, sess httpx.Session, obj *storeapi.Cart, values pages.CheckoutValues,
	errs *pages.CheckoutErrors, status int) {
	now := f.d.Now()
	tick := httpx.NonceTickAt(now)
	res, err := f.d.Loader.Checkout(f.PageContext(r), r.URL.RequestURI(), pages.CheckoutInput{Cart: obj, Nonce: f.d.Sessions.Nonce(sess.Scope(), tick),
		ProcessNonce: f.d.Sessions.ProcessNonce(sess.Scope(), tick), Values: values, Config: f.d.CheckoutConfig, PaymentMethods: f.paymentViews(),
		Errors: errs, Status: status, Wallet: f.d.Wallet.CheckoutView(sess, now), CanCreateAccount: httpx.UserOf(r) == nil && f.d.Accounts != nil,
		Terms: f.terms(r.Context())})
	f.SendPersonal(w, r, "checkout page", r.URL.RequestURI(), res, err)
}

// CheckoutPost answers the classic form's POST /checkout/.
func (f *Storefront) CheckoutPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
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
		if obj, _, ok := f.checkoutCart(w, r, sess, http.StatusSeeOther); ok {
			f.renderCheckout(w, r, sess, obj, values, errs, status)
		}
	}
	if !f.d.Sessions.VerifyProcessNonce(r.PostFormValue("woocommerce-process-checkout-nonce"), sess.Scope(), httpx.NonceTickAt(now)) {
		refuse(http.StatusForbidden, &pages.CheckoutErrors{Notices: []string{"We were unable to process your order, please try again."},
			Fields: map[string]string{}})
		return
	}
	if wait, ok := f.d.Checkout.Allow(ctx, sess.ID, f.d.ClientIP(r)); !ok {
		w.Header().Set("Retry-After", httpx.RetryAfter(wait))
		refuse(http.StatusTooManyRequests, &pages.CheckoutErrors{Notices: []string{"Too many requests. Please wait and try again."},
			Fields: map[string]string{}})
		return
	}
	// A no-script shopper may pick a shipping rate in the review table.
	if rate := strings.TrimSpace(r.PostFormValue("shipping_method[0]")); rate != "" {
		if err := f.d.Checkout.PickRate(ctx, sess.ID, rate); err != nil {
			f.PageError(w, "checkout rate", err)
			return
		}
	}
	pr := checkout.PlaceRequest{Session: sess.ID, Billing: billing, Note: values.CustomerNote, Method: strings.TrimSpace(values.PaymentMethod),
		Attribution: checkout.AttributionFromForm(r.PostForm), Consent: httpx.Consent(r), TermsRequired: f.terms(ctx) != nil,
		TermsAccepted: r.PostFormValue("terms") != "", Body: []byte(r.PostForm.Encode()), ClientIP: f.d.ClientIP(r),
		UserAgent: r.UserAgent(), InvalidPayment: "Invalid payment method.", Currency: sess.Currency,
		ShownCurrency: httpx.Clip(r.PostFormValue("wmc_currency"), 8)}
	if toDifferent {
		pr.Shipping = &shipping
	}
	o, r, err := f.PlaceForViewer(w, r, pr, values.CreateAccount, r.PostFormValue("account_password"))
	var ve *checkout.ValidationError
	var ce *cart.Error
	switch {
	case err == nil:
		if !sess.ViaToken {
			f.d.Sessions.SetSessionCookie(w, sess.ID, now.Add(f.d.CartLifetime))
		}
		f.d.SetCartCookies(w, r, false, "")
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
		f.PageError(w, "checkout", err)
	}
}

// OrderReceived answers GET /checkout/order-received/{id}/?key=….
func (f *Storefront) OrderReceived(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer") // the key is in the URL
	view, err := f.orderView(r.Context(), r.PathValue("id"), r.URL.Query().Get("key"))
	if err != nil {
		f.PageError(w, "order received", err)
		return
	}
	res, err := f.d.Loader.OrderReceived(f.PageContext(r), r.URL.RequestURI(), view)
	f.SendPersonal(w, r, "order received", r.URL.RequestURI(), res, err)
}

// orderView finds the order an id and key name together, or nil.
func (f *Storefront) orderView(ctx context.Context, rawID, key string) (*pages.OrderView, error) {
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil {
		return nil, nil
	}
	o, err := f.d.Checkout.OrderReceived(ctx, id, key)
	if errors.Is(err, checkout.ErrOrderNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	instructions, accounts := f.PaymentTexts(o.Order)
	v := pages.NewOrderView(o.Order, f.d.CurrencyOf(ctx, o.Currency), instructions)
	v.BankAccounts = accounts
	v.TestOrder, v.TestNotice = o.TestOrder(), f.d.TestNotice(o.Order)
	return v, nil
}

// PaymentTexts are what the order-received page and the mails show of an
// order's payment method: its instructions (an offline method's), and for
// a bank transfer the shop's accounts, the sort code named as the shop's
// country names it. Both read them here, so they never disagree.
func (f *Storefront) PaymentTexts(o *checkout.Order) (instructions string, accounts []pages.BankAccountView) {
	accounts = []pages.BankAccountView{}
	m, ok := f.d.Payments.Get(o.PaymentMethod)
	if !ok {
		return "", accounts
	}
	if om, ok := m.(payment.OfflineMethod); ok {
		instructions = om.Instructions()
	}
	if bt, ok := m.(payment.BankTransfer); ok {
		accounts = pages.NewBankAccounts(bt.Accounts, f.d.CheckoutConfig.BaseCountry)
	}
	return instructions, accounts
}
