package walletapi

import (
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/wallet"
)

// The wallet's wc-ajax endpoints (protocol notes 15.2). Every POST body is
// JSON with the endpoint's nonce for the visitor's session (a bad one:
// "Could not validate nonce.", nothing changes); answers use the 15.1
// envelope. update_shipping_method is WooCommerce core's (a form with the
// nonce in security). Each handler reads its fields, calls one method of
// the wallet service and shapes the answer; errors go to failFrom.

// Ajax is the handler of a wallet endpoint, or nil (not a wallet
// endpoint, or the wallet is off).
func (a *API) Ajax(endpoint string) http.HandlerFunc {
	if a.d.Wallet == nil {
		return nil
	}
	switch endpoint {
	case "ppc-cart-script-params":
		return a.scriptParams
	case "update_shipping_method":
		return a.updateShippingMethod
	case "ppc-vault-paypal", "ppc-create-setup-token", "ppc-create-payment-token", "ppc-update-customer-id", "ppc-approve-subscription":
		return a.vault
	}
	h, ok := map[string]handler{
		"ppc-create-order":       a.createOrder,
		"ppc-approve-order":      a.approveOrder,
		"ppc-get-order":          a.getOrder,
		"ppc-simulate-cart":      a.simulateCart,
		"ppc-change-cart":        a.changeCart,
		"ppc-validate-checkout":  a.validateCheckout,
		"ppc-save-checkout-form": a.saveCheckoutForm,
		"ppc-data-client-id":     a.dataClientID,
		"ppc-update-shipping":    a.updateShipping,
	}[endpoint]
	if !ok {
		return nil
	}
	return a.post(endpoint, h)
}

// handler is a wallet endpoint: it answers itself, or returns the error
// that post answers in the envelope.
type handler func(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error

// post reads the JSON body and checks the nonce before h runs.
func (a *API) post(endpoint string, h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			fail(w, r, failure{Name: "METHOD_NOT_ALLOWED", Message: "This endpoint takes a POST request."})
			return
		}
		now := a.d.Now()
		sess := a.d.Sessions.CartSessionOf(r, now)
		wr, err := readRequest(r)
		if err != nil {
			a.failFrom(w, r, endpoint, err)
			return
		}
		if !a.verifyNonce(wr.nonce(), endpoint, sess, now) {
			fail(w, r, failure{Message: msgNonce})
			return
		}
		if err := h(w, r, sess, wr); err != nil {
			a.failFrom(w, r, endpoint, err)
		}
	}
}

// vault answers the vaulting endpoints (saving a payment method):
// not supported, whatever is posted.
func (a *API) vault(w http.ResponseWriter, r *http.Request) {
	fail(w, r, failure{Name: "NOT_SUPPORTED", Message: msgVault})
}

// validateCheckout answers ppc-validate-checkout: {} or the
// validation envelope with every message (early validation before the
// buyer is sent to PayPal).
func (a *API) validateCheckout(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	if err := a.d.Wallet.ValidateForm(r.Context(), sess.ID, wr.FormEncoded); err != nil {
		return err
	}
	succeed(w, r, map[string]any{})
	return nil
}

// saveCheckoutForm answers ppc-save-checkout-form: the entered
// addresses are kept on the session, so the checkout shows them again after
// a redirect.
func (a *API) saveCheckoutForm(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	if err := a.d.Wallet.SaveForm(r.Context(), sess.ID, wr.FormEncoded); err != nil {
		return err
	}
	succeed(w, r, map[string]any{})
	return nil
}

// createOrder answers ppc-create-order: the service places the
// shop's order and creates the PayPal order; the answer carries the
// approval URL.
func (a *API) createOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	c, err := a.d.Wallet.CreateOrder(r.Context(), wallet.CreateRequest{Session: sess.ID, Context: wr.Context, PaymentMethod: wr.PaymentMethod,
		FundingSource: wr.FundingSource, FormEncoded: wr.FormEncoded, Remote: r.RemoteAddr, UserAgent: r.UserAgent(), Consent: httpx.Consent(r), Currency: sess.Currency})
	if err != nil {
		return err
	}
	if !sess.ViaToken {
		a.d.Sessions.SetSessionCookie(w, sess.ID, a.d.Now().Add(a.d.CartLifetime))
	}
	succeed(w, r, map[string]any{"id": c.PayPal.ID, "custom_id": strconv.FormatInt(c.Order.ID, 10), "approve_url": c.ApproveURL})
	return nil
}

// approveOrder answers ppc-approve-order: the buyer approved in
// PayPal's window; the order is captured and paid at once and the answer
// names the order-received page.
func (a *API) approveOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	done, err := a.d.Wallet.Approve(r.Context(), sess.ID, wr.orderIDString())
	if err != nil {
		return err
	}
	a.clearEmptiedCartCookies(w, r, done)
	succeed(w, r, map[string]any{"order_received_url": a.d.OrderReceivedURL(done)})
	return nil
}

// getOrder answers ppc-get-order: the PayPal order of one of the
// session's orders, as PayPal has it now.
func (a *API) getOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	o, ppo, err := a.d.Wallet.PayPalOrder(r.Context(), sess.ID, wr.orderIDString())
	if err != nil {
		return err
	}
	out := map[string]any{"id": ppo.ID, "status": ppo.Status, "intent": ppo.Intent, "custom_id": strconv.FormatInt(o.ID, 10),
		"payment_state": o.PaymentState}
	if len(ppo.PurchaseUnits) > 0 {
		out["amount"] = ppo.PurchaseUnits[0].Amount
	}
	succeed(w, r, out)
	return nil
}

// simulateCart answers ppc-simulate-cart: what the cart would cost
// if it held only the posted products (never written), in the currency the
// wallet would sell in.
func (a *API) simulateCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	qc, err := a.d.Wallet.Simulate(r.Context(), sess.ID, sess.Currency, wr.products())
	if err != nil {
		return err
	}
	q, cur := qc.Quote, qc.Currency
	succeed(w, r, map[string]any{
		"total":         json.Number(amount(cur, q.Total)),
		"shipping_fee":  json.Number(amount(cur, q.Shipping+q.ShippingTax)),
		"currency_code": cur.Code,
		"country_code":  a.d.BaseCountry,
		"funding":       map[string]any{"paylater": map[string]bool{"enabled": true}},
		"button":        map[string]bool{"is_disabled": false},
		"messages":      map[string]bool{"is_hidden": false},
	})
	return nil
}

// changeCart answers ppc-change-cart: the cart becomes the posted
// products; the answer is the new cart's purchase units.
func (a *API) changeCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	qc, pu, err := a.d.Wallet.ChangeCart(r.Context(), sess.ID, sess.Currency, wr.products())
	if err != nil {
		return err
	}
	if !sess.ViaToken {
		a.d.Sessions.SetSessionCookie(w, sess.ID, a.d.Now().Add(a.d.CartLifetime))
	}
	a.d.SetCartCookies(w, r, !qc.Empty, qc.Hash)
	succeed(w, r, []paypal.PurchaseUnit{pu})
	return nil
}

// updateShipping answers ppc-update-shipping: a shipping address or
// option chosen in PayPal's window re-prices the session's cart; the
// answer is its purchase units.
func (a *API) updateShipping(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	ch := wallet.ShippingChange{Address: wr.ShippingAddress}
	if o := wr.ShippingOption; o != nil {
		ch.OptionID = o.ID
	}
	pu, err := a.d.Wallet.UpdateShipping(r.Context(), sess.ID, sess.Currency, ch)
	if err != nil {
		return err
	}
	succeed(w, r, map[string]any{"purchase_units": []paypal.PurchaseUnit{pu}})
	return nil
}

// updateShippingMethod answers WooCommerce core's update_shipping_method
// (a form: security = the update-shipping-method nonce,
// shipping_method[<package>] = rate id): the session's rate changes and the
// answer is the cart totals' HTML. A bad nonce answers -1 with 403, as
// check_ajax_referer does.
func (a *API) updateShippingMethod(w http.ResponseWriter, r *http.Request) {
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	_ = r.ParseForm()
	if r.Method != http.MethodPost || !a.verifyNonce(r.PostFormValue("security"), "update_shipping_method", sess, now) {
		httpx.WCAjaxHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte("-1"))
		return
	}
	rate := strings.TrimSpace(r.PostFormValue("shipping_method[0]"))
	if rate == "" {
		for k, v := range r.PostForm {
			if strings.HasPrefix(k, "shipping_method[") && len(v) > 0 {
				rate = strings.TrimSpace(v[0])
				break
			}
		}
	}
	qc, err := a.d.Wallet.SetShippingRate(r.Context(), sess.ID, sess.Currency, rate)
	if err != nil {
		a.d.CartFailed(w, "update_shipping_method", err)
		return
	}
	q, cur := qc.Quote, qc.Currency
	var b strings.Builder
	row := func(class, label, value string) {
		b.WriteString(`<tr class="` + class + `"><th>` + html.EscapeString(label) + `</th><td data-title="` + html.EscapeString(label) + `">` +
			html.EscapeString(value) + `</td></tr>`)
	}
	b.WriteString(`<div class="cart_totals"><h2>Cart totals</h2><table class="shop_table shop_table_responsive"><tbody>`)
	row("cart-subtotal", "Subtotal", cur.Format(q.ItemsSubtotal))
	for _, c := range q.Coupons {
		row("cart-discount", "Coupon: "+c.Code, "-"+cur.Format(c.Discount))
	}
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
	httpx.WCAjaxHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(b.String()))
}

// --- page data ---

// scriptParams answers GET ppc-cart-script-params: the cart's amount
// for the buttons and messages, the shipping packages with ?shipping=1,
// and the session's wallet nonces (the product page is cached, so its
// buttons fetch their nonces here on first use; a JSON GET answer is only
// readable by the shop's own pages).
func (a *API) scriptParams(w http.ResponseWriter, r *http.Request) {
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	qc, err := a.d.Wallet.Cart(r.Context(), sess.ID, sess.Currency)
	if err != nil {
		a.failFrom(w, r, "ppc-cart-script-params", err)
		return
	}
	q, cur := qc.Quote, qc.Currency
	empty := qc.Empty
	data := map[string]any{
		"url_params": map[string]string{"client-id": a.d.Wallet.ClientID(), "currency": cur.Code, "intent": "capture",
			"components": "buttons,funding-eligibility,messages", "enable-funding": "paylater", "disable-funding": "card,venmo"},
		"button":                  map[string]bool{"is_disabled": empty},
		"messages":                map[string]bool{"is_hidden": empty},
		"amount":                  json.Number(amount(cur, q.Total)),
		"total":                   json.Number(amount(cur, q.Total)),
		"total_str":               cur.Format(q.Total),
		"currency_code":           cur.Code,
		"country_code":            a.d.BaseCountry,
		"chosen_shipping_methods": []string{},
		"nonces":                  a.nonces(sess, now),
	}
	if q.Selected != nil {
		data["chosen_shipping_methods"] = []string{q.Selected.ID}
	}
	if r.URL.Query().Get("shipping") == "1" {
		pkgs := []map[string]any{}
		for _, p := range q.Packages {
			for _, rt := range p.Rates {
				pkgs = append(pkgs, map[string]any{"id": rt.ID, "label": rt.Name, "cost": json.Number(amount(cur, rt.Cost+rt.Taxes)),
					"cost_str": cur.Format(rt.Cost + rt.Taxes), "description": ""})
			}
		}
		data["shipping_packages"] = pkgs
	}
	succeed(w, r, data)
}

// dataClientID answers ppc-data-client-id as plain JSON (not in the
// envelope): this shop uses no PayPal SDK, so there is no client token
// (vaulting and card fields are off) and the token is empty.
func (a *API) dataClientID(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *request) error {
	write(w, r, map[string]any{"token": "", "expiration": 0, "user": 0})
	return nil
}
