package server

import (
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storeapi"
)

// The wallet's wc-ajax endpoints (protocol notes 15.2). Every POST body is
// JSON with the endpoint's nonce for the visitor's session (a bad one:
// "Could not validate nonce.", nothing changes); answers use the 15.1
// envelope. update_shipping_method is WooCommerce core's (a form with the
// nonce in security). Each handler reads its fields, calls one method of
// the wallet service and shapes the answer; errors go to walletFailFrom.

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
type walletHandler func(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error

// walletPost reads the JSON body and checks the nonce before h runs.
func (s *Server) walletPost(endpoint string, h walletHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			walletFail(w, r, walletFailure{Name: "METHOD_NOT_ALLOWED", Message: "This endpoint takes a POST request."})
			return
		}
		now := s.now()
		sess := s.CartSessionOf(r, now)
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

// walletVault answers the vaulting endpoints (saving a payment method):
// not supported, whatever is posted.
func (s *Server) walletVault(w http.ResponseWriter, r *http.Request) {
	walletFail(w, r, walletFailure{Name: "NOT_SUPPORTED", Message: msgWalletVault})
}

// walletValidateCheckout answers ppc-validate-checkout: {} or the
// validation envelope with every message (early validation before the
// buyer is sent to PayPal).
func (s *Server) walletValidateCheckout(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	if err := s.wallet.ValidateForm(r.Context(), sess.ID, wr.FormEncoded); err != nil {
		return err
	}
	walletOK(w, r, map[string]any{})
	return nil
}

// walletSaveCheckoutForm answers ppc-save-checkout-form: the entered
// addresses are kept on the session, so the checkout shows them again after
// a redirect.
func (s *Server) walletSaveCheckoutForm(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	if err := s.wallet.SaveForm(r.Context(), sess.ID, wr.FormEncoded); err != nil {
		return err
	}
	walletOK(w, r, map[string]any{})
	return nil
}

// walletCreateOrder answers ppc-create-order: the service places the
// shop's order and creates the PayPal order; the answer carries the
// approval URL.
func (s *Server) walletCreateOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	c, err := s.wallet.CreateOrder(r.Context(), wallet.CreateRequest{Session: sess.ID, Context: wr.Context, PaymentMethod: wr.PaymentMethod,
		FundingSource: wr.FundingSource, FormEncoded: wr.FormEncoded, Remote: r.RemoteAddr, UserAgent: r.UserAgent(), Currency: sess.Currency})
	if err != nil {
		return err
	}
	if !sess.ViaToken {
		s.SetSessionCookie(w, sess.ID, s.now().Add(s.cfg.CartLifetime))
	}
	walletOK(w, r, map[string]any{"id": c.PayPal.ID, "custom_id": strconv.FormatInt(c.Order.ID, 10), "approve_url": c.ApproveURL})
	return nil
}

// walletApproveOrder answers ppc-approve-order: the buyer approved in
// PayPal's window; the order is captured and paid at once and the answer
// names the order-received page.
func (s *Server) walletApproveOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	done, err := s.wallet.Approve(r.Context(), sess.ID, wr.orderIDString())
	if err != nil {
		return err
	}
	s.clearEmptiedCartCookies(w, r, done)
	walletOK(w, r, map[string]any{"order_received_url": storeapi.OrderReceivedURL(done)})
	return nil
}

// walletGetOrder answers ppc-get-order: the PayPal order of one of the
// session's orders, as PayPal has it now.
func (s *Server) walletGetOrder(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	o, ppo, err := s.wallet.PayPalOrder(r.Context(), sess.ID, wr.orderIDString())
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

// walletSimulateCart answers ppc-simulate-cart: what the cart would cost
// if it held only the posted products (never written), in the currency the
// wallet would sell in.
func (s *Server) walletSimulateCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	qc, err := s.wallet.Simulate(r.Context(), sess.ID, sess.Currency, wr.products())
	if err != nil {
		return err
	}
	q, cur := qc.Quote, qc.Currency
	walletOK(w, r, map[string]any{
		"total":         json.Number(walletAmount(cur, q.Total)),
		"shipping_fee":  json.Number(walletAmount(cur, q.Shipping+q.ShippingTax)),
		"currency_code": cur.Code,
		"country_code":  s.cfg.Checkout.BaseCountry,
		"funding":       map[string]any{"paylater": map[string]bool{"enabled": true}},
		"button":        map[string]bool{"is_disabled": false},
		"messages":      map[string]bool{"is_hidden": false},
	})
	return nil
}

// walletChangeCart answers ppc-change-cart: the cart becomes the posted
// products; the answer is the new cart's purchase units.
func (s *Server) walletChangeCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	qc, pu, err := s.wallet.ChangeCart(r.Context(), sess.ID, sess.Currency, wr.products())
	if err != nil {
		return err
	}
	if !sess.ViaToken {
		s.SetSessionCookie(w, sess.ID, s.now().Add(s.cfg.CartLifetime))
	}
	s.setCartCookies(w, r, !qc.Empty, qc.Hash)
	walletOK(w, r, []paypal.PurchaseUnit{pu})
	return nil
}

// walletUpdateShipping answers ppc-update-shipping: a shipping address or
// option chosen in PayPal's window re-prices the session's cart; the
// answer is its purchase units.
func (s *Server) walletUpdateShipping(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	ch := wallet.ShippingChange{Address: wr.ShippingAddress}
	if o := wr.ShippingOption; o != nil {
		ch.OptionID = o.ID
	}
	pu, err := s.wallet.UpdateShipping(r.Context(), sess.ID, sess.Currency, ch)
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
	sess := s.CartSessionOf(r, now)
	_ = r.ParseForm()
	if r.Method != http.MethodPost || !s.verifyWalletNonce(r.PostFormValue("security"), "update_shipping_method", sess, now) {
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
	qc, err := s.wallet.SetShippingRate(r.Context(), sess.ID, sess.Currency, rate)
	if err != nil {
		s.wcCartFailed(w, "update_shipping_method", err)
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

// walletScriptParams answers GET ppc-cart-script-params: the cart's amount
// for the buttons and messages, the shipping packages with ?shipping=1,
// and the session's wallet nonces (the product page is cached, so its
// buttons fetch their nonces here on first use; a JSON GET answer is only
// readable by the shop's own pages).
func (s *Server) walletScriptParams(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	sess := s.CartSessionOf(r, now)
	qc, err := s.wallet.Cart(r.Context(), sess.ID, sess.Currency)
	if err != nil {
		s.walletFailFrom(w, r, "ppc-cart-script-params", err)
		return
	}
	q, cur := qc.Quote, qc.Currency
	empty := qc.Empty
	data := map[string]any{
		"url_params": map[string]string{"client-id": s.wallet.ClientID(), "currency": cur.Code, "intent": "capture",
			"components": "buttons,funding-eligibility,messages", "enable-funding": "paylater", "disable-funding": "card,venmo"},
		"button":                  map[string]bool{"is_disabled": empty},
		"messages":                map[string]bool{"is_hidden": empty},
		"amount":                  json.Number(walletAmount(cur, q.Total)),
		"total":                   json.Number(walletAmount(cur, q.Total)),
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
				pkgs = append(pkgs, map[string]any{"id": rt.ID, "label": rt.Name, "cost": json.Number(walletAmount(cur, rt.Cost+rt.Taxes)),
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
func (s *Server) walletDataClientID(w http.ResponseWriter, r *http.Request, sess httpx.Session, wr *walletRequest) error {
	walletWrite(w, r, map[string]any{"token": "", "expiration": 0, "user": 0})
	return nil
}
