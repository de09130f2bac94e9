package storeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"mime"
	"net/http"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/payment"
)

// The Store API's cart/extensions route (WooCommerce Blocks'
// extensionCartUpdate): POST /wp-json/wc/store/v1/cart/extensions with
// {"namespace": NS, "data": {...}} runs NS's handler on the session's cart
// and answers the cart. One namespace is registered, woo-multi-currency:
// the checkout's currency switch for a payment method that does not take
// the shopper's currency (spec section 7, protocol notes section 7).
//
// Choosing such a method (the wallet, for a currency PayPal does not take)
// makes the base currency the checkout's: wmc_current_currency becomes the
// base and wmc_current_currency_old keeps the shopper's code. Choosing a
// method that takes the old currency again restores it and clears the old
// cookie. The answer is the cart in the new currency with
// extensions["woo-multi-currency"] = {current_currency, wmc_update_checkout
// (the currency changed: re-read every amount), notice (why the order is
// in the base currency; "" when it is not)}.

const (
	wmcNamespace      = "woo-multi-currency"
	currencyOldCookie = "wmc_current_currency_old"
	// msgNoNamespace and msgUnknownNamespace are WooCommerce's
	// (ExtendSchema::get_update_callback), code
	// woocommerce_rest_cart_extensions_error.
	msgNoNamespace      = "You must provide a plugin namespace when extending a Store REST endpoint."
	msgUnknownNamespace = "There is no such namespace registered: %s."
)

// CartExtensions serves POST /cart/extensions: a cart write (nonce
// rules, session cookie) whose body is read strictly here.
func (a *API) CartExtensions(w http.ResponseWriter, r *http.Request) {
	now := a.d.Now()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		body = nil // serveCart's reader answers the unreadable body
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	a.serveCart(w, r, true, func(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
		req, err := parseExtensions(r, body, in)
		if err != nil {
			return 0, nil, err
		}
		if req.namespace != wmcNamespace {
			return 0, nil, &cart.Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_cart_extensions_error",
				Message: strings.Replace(msgUnknownNamespace, "%s", html.EscapeString(httpx.Clip(req.namespace, 100)), 1)}
		}
		return a.wmcChooseMethod(ctx, w, r, sess, req.paymentMethod)
	}, a.d.Sessions.CartSessionOf(r, now), now, true)
}

// extensionsRequest is a cart/extensions body as the woo-multi-currency
// handler reads it.
type extensionsRequest struct {
	namespace     string
	paymentMethod string
}

var errExtData = httpx.ParamError{Param: "data", Msg: "data.payment_method must be the id of a payment method the checkout offers."}

// parseExtensions reads namespace and data.payment_method from a JSON body
// (types checked as WordPress checks the route's schema: namespace a
// string, data an object) or a form (namespace, data[payment_method]).
func parseExtensions(r *http.Request, body []byte, in *cartInput) (extensionsRequest, error) {
	var req extensionsRequest
	var data map[string]json.RawMessage
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/x-www-form-urlencoded" || ct == "multipart/form-data" {
		req.namespace = in.get("namespace")
		if v := in.vals["data[payment_method]"]; len(v) > 0 {
			req.paymentMethod = strings.TrimSpace(v[0])
		}
	} else if len(bytes.TrimSpace(body)) > 0 {
		var top map[string]json.RawMessage
		if json.Unmarshal(body, &top) != nil {
			return req, httpx.ParamError{Param: "body", Msg: "The request body is not valid JSON."}
		}
		if raw, ok := top["namespace"]; ok && string(raw) != "null" {
			if json.Unmarshal(raw, &req.namespace) != nil {
				return req, httpx.ParamError{Param: "namespace", Msg: "namespace is not of type string."}
			}
		}
		if raw, ok := top["data"]; ok && string(raw) != "null" {
			if json.Unmarshal(raw, &data) != nil || data == nil {
				return req, httpx.ParamError{Param: "data", Msg: "data is not of type object."}
			}
		}
		if raw, ok := data["payment_method"]; ok && json.Unmarshal(raw, &req.paymentMethod) != nil {
			return req, errExtData
		}
	}
	req.namespace = strings.TrimSpace(req.namespace)
	if req.namespace == "" {
		return req, &cart.Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_cart_extensions_error", Message: msgNoNamespace}
	}
	req.paymentMethod = strings.TrimSpace(req.paymentMethod)
	return req, nil
}

// wmcExtension is the cart's extensions["woo-multi-currency"].
type wmcExtension struct {
	CurrentCurrency string  `json:"current_currency"`
	UpdateCheckout  *bool   `json:"wmc_update_checkout,omitempty"`
	Notice          *string `json:"notice,omitempty"`
}

// wmcChooseMethod is the woo-multi-currency handler: the checkout's
// currency for payment method id (see the file comment). Nothing changes
// for an unknown method.
func (a *API) wmcChooseMethod(ctx context.Context, w http.ResponseWriter, r *http.Request, sess httpx.Session, id string) (int, any, error) {
	m, ok := a.d.Payments.Get(id)
	if id == "" || !ok {
		return 0, nil, errExtData
	}
	base := a.d.Currency.Code
	shopper := a.d.ShopperCurrency(r).Code
	// The currency the checkout left for the base, if it is still sold.
	old, oldCookie := "", false
	if ck, err := r.Cookie(currencyOldCookie); err == nil && ck.Value != "" {
		oldCookie = true
		if c, err := a.d.Currencies.Currency(ctx, ck.Value); err == nil && c.Code != base {
			old = c.Code
		}
	}
	ch := a.d.Checkout.ChooseCurrency(m, shopper, old, oldCookie)
	pc, err := a.d.Checkout.Cart(ctx, sess.ID, ch.Next)
	if err != nil {
		return 0, nil, err
	}
	out := a.CartOf(pc)
	notice := ""
	if ch.Left != "" {
		cur := pc.Pricing.Config.Currency
		notice = decodeTitle(m) + " cannot take this order in " + currency.Name(ch.Left) + " (" + ch.Left + "), so it is in " +
			currency.Name(cur.Code) + " (" + cur.Code + "): " + cur.Format(pc.Quote.Total) + "."
	}
	changed := ch.Changed
	out.Extensions[wmcNamespace] = wmcExtension{CurrentCurrency: pc.Pricing.Currency.Code, UpdateCheckout: &changed, Notice: &notice}
	// The cookies go with the answer only now that it is ready.
	if ch.Changed {
		a.d.SetCurrencyCookie(w, ch.Next)
	}
	if ch.SetOld != "" || ch.ClearOld {
		a.setOldCurrencyCookie(w, ch.SetOld)
	}
	return http.StatusOK, out, nil
}

// setOldCurrencyCookie remembers the currency the checkout left for the
// base for a cart's lifetime ("" deletes the cookie). Not HttpOnly: the
// checkout reads it to restore the currency on its next visit.
func (a *API) setOldCurrencyCookie(w http.ResponseWriter, code string) {
	ck := &http.Cookie{Name: currencyOldCookie, Value: code, Path: "/", MaxAge: int(a.d.CartLifetime.Seconds()),
		Secure: a.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode}
	if code == "" {
		ck.MaxAge = -1
	}
	http.SetCookie(w, ck)
}

// ForgetOldCurrency deletes the currency the checkout left for the base,
// when r carries one: the shopper chose a currency themselves, there is
// nothing to restore.
func (a *API) ForgetOldCurrency(w http.ResponseWriter, r *http.Request) {
	if _, err := r.Cookie(currencyOldCookie); err == nil {
		a.setOldCurrencyCookie(w, "")
	}
}

// decodeTitle is a method's title as text.
func decodeTitle(m payment.Method) string { return html.UnescapeString(m.Title()) }
