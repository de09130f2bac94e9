// Package walletapi is the PayPal wallet's HTTP surface (WooCommerce PayPal
// Payments' wire surface, protocol notes section 15) over the wallet
// service (internal/payment/wallet, which owns the payment state machine):
// the wc-ajax ppc-* endpoints (ajax.go), the buyer's return from the
// approval page (return.go) and the webhook receiver (webhook.go), and the
// wallet's data in the checkout page (its nonces and notices). This file
// holds the nonces, the 15.1 envelope, the request bodies and the one
// error mapping of the surface.
package walletapi

import (
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/wallet"
)

// Deps are what the surface uses; the server builds them.
type Deps struct {
	// Wallet is the wallet service, nil when the shop has no wallet: the
	// ppc-* endpoints are then unknown wc-ajax endpoints, the return the
	// 404 page and the webhook an unknown REST route.
	Wallet *wallet.Service
	// Carts tells whether a paid order emptied the buyer's cart.
	Carts *cart.Service
	// Sessions names the request's cart session and signs its cookie and
	// the wallet's nonces.
	Sessions *httpx.Sessions
	// CartLifetime is how long a cart session cookie lives after a write.
	CartLifetime time.Duration
	// BaseCountry is the shop's country (the buttons' country_code).
	BaseCountry string
	// Pages answers with the server's pages.
	Pages Pages
	// NoRoute answers a REST path the shop does not serve.
	NoRoute http.HandlerFunc
	// SetCartCookies writes woocommerce_items_in_cart and
	// woocommerce_cart_hash when they differ from the request's.
	SetCartCookies func(w http.ResponseWriter, r *http.Request, nonEmpty bool, hash string)
	// CartFailed answers a wc-ajax cart call that failed.
	CartFailed func(w http.ResponseWriter, what string, err error)
	// OrderReceivedURL is where a placed order is shown.
	OrderReceivedURL func(*checkout.Order) string
	Log              *slog.Logger
	Now              func() time.Time
}

// Pages is what the surface needs of the server's page rendering.
type Pages interface {
	// NotFound answers the shop's 404 page.
	NotFound(w http.ResponseWriter, r *http.Request)
	// PageError logs a page that could not be shown and answers 500.
	PageError(w http.ResponseWriter, what string, err error)
}

// API serves the wallet's endpoints.
type API struct{ d Deps }

// New builds the surface.
func New(d Deps) *API {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}

// --- nonces ---

// nonceEndpoints are the endpoints whose nonce the pages carry; each has
// its own nonce (the action is the endpoint's name).
var nonceEndpoints = []string{"ppc-create-order", "ppc-approve-order", "ppc-get-order", "ppc-simulate-cart", "ppc-change-cart",
	"ppc-validate-checkout", "ppc-save-checkout-form", "ppc-data-client-id", "ppc-update-shipping", "update_shipping_method"}

// nonceAction is the nonce action of an endpoint (WooCommerce core's
// update_shipping_method checks "update-shipping-method").
func nonceAction(endpoint string) string {
	if endpoint == "update_shipping_method" {
		return "update-shipping-method"
	}
	return endpoint
}

// nonceFor is the nonce of an action for a session's scope in a tick.
func (a *API) nonceFor(action, scope string, tick int64) string {
	return hex.EncodeToString(a.d.Sessions.MAC("nonce", strconv.FormatInt(tick, 10)+"|wallet:"+action+"|"+scope))[:10]
}

// verifyNonce accepts the endpoint's nonce of the request's session
// for the current or the previous 12-hour tick.
func (a *API) verifyNonce(n, endpoint string, sess httpx.Session, now time.Time) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	tick := httpx.NonceTickAt(now)
	action := nonceAction(endpoint)
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(a.nonceFor(action, sess.Scope(), t))) {
			return true
		}
	}
	return false
}

// nonces are the nonces of every wallet endpoint for a session
// (nil without the wallet).
func (a *API) nonces(sess httpx.Session, now time.Time) map[string]string {
	if a.d.Wallet == nil {
		return nil
	}
	tick := httpx.NonceTickAt(now)
	out := make(map[string]string, len(nonceEndpoints))
	for _, e := range nonceEndpoints {
		out[e] = a.nonceFor(nonceAction(e), sess.Scope(), tick)
	}
	return out
}

// --- the envelope (protocol notes 15.1) ---

// Messages of the wallet surface.
const (
	msgNonce     = "Could not validate nonce."
	msgGeneric   = wallet.MsgGeneric
	msgDeclined  = wallet.MsgDeclined
	msgCancelled = wallet.MsgCancelled
	msgVault     = "Saving a payment method for later is not supported by this shop."
)

type failure struct {
	Name    string               `json:"name"`
	Message string               `json:"message"`
	Code    int                  `json:"code"`
	Details []paypal.ErrorDetail `json:"details"`
}

type invalid struct {
	Message string   `json:"message"`
	Errors  []string `json:"errors"`
	Refresh bool     `json:"refresh"`
}

func write(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"success":false,"data":{"name":"","message":"` + msgGeneric + `","code":0,"details":[]}}`)
	}
	httpx.WCAjaxWrite(w, r, b)
}

func succeed(w http.ResponseWriter, r *http.Request, data any) {
	write(w, r, map[string]any{"success": true, "data": data})
}

func fail(w http.ResponseWriter, r *http.Request, f failure) {
	if f.Details == nil {
		f.Details = []paypal.ErrorDetail{}
	}
	write(w, r, map[string]any{"success": false, "data": f})
}

func refuse(w http.ResponseWriter, r *http.Request, message string, errs []string, refresh bool) {
	if errs == nil {
		errs = []string{}
	}
	write(w, r, map[string]any{"success": false, "data": invalid{Message: message, Errors: errs, Refresh: refresh}})
}

// failFrom is the wallet surface's one error mapping: a refusal
// with messages is the validation envelope; a refusal of the flow its
// name; PayPal's own error name, message and details when PayPal refused;
// anything else the generic failure.
func (a *API) failFrom(w http.ResponseWriter, r *http.Request, what string, err error) {
	var rf *wallet.Refusal
	var ae *paypal.APIError
	var ve *paypal.ValidationError
	var we *wallet.Error
	switch {
	case errors.As(err, &rf):
		refuse(w, r, rf.Message, rf.Errors, rf.Refresh)
	case errors.As(err, &we):
		fail(w, r, failure{Name: we.Name, Message: we.Message, Details: we.Details})
	case errors.As(err, &ae):
		a.d.Log.Warn("wallet: paypal refused", "op", what, "status", ae.Status, "name", ae.Name, "debug_id", ae.DebugID)
		msg := msgGeneric
		if ae.HasIssue(paypal.IssueInstrumentDeclined) {
			msg = msgDeclined
		}
		fail(w, r, failure{Name: ae.Name, Message: msg, Code: ae.Status, Details: ae.Details})
	case errors.As(err, &ve):
		a.d.Log.Error("wallet: request refused before sending", "op", what, "err", err)
		fail(w, r, failure{Name: "INVALID_REQUEST", Message: msgGeneric, Details: ve.Details})
	default:
		a.d.Log.Error("wallet", "op", what, "err", err)
		fail(w, r, failure{Message: msgGeneric})
	}
}

// --- request bodies ---

// request is a wallet endpoint's JSON body. Only these fields are
// read; amounts, prices and currencies a client adds are never looked at.
type request struct {
	Nonce         json.RawMessage `json:"nonce"`
	Context       string          `json:"context"`
	PaymentMethod string          `json:"payment_method"`
	FundingSource string          `json:"funding_source"`
	FormEncoded   string          `json:"form_encoded"`
	OrderID       json.RawMessage `json:"order_id"`
	Products      []product       `json:"products"`
	KeepShipping  bool            `json:"keepShipping"`
	Payer         *paypal.Payer   `json:"payer"`
	// ppc-update-shipping
	ShippingAddress *paypal.Address `json:"shipping_address"`
	ShippingOption  *struct {
		ID string `json:"id"`
	} `json:"shipping_option"`
}

// product is one product of ppc-change-cart and ppc-simulate-cart.
type product struct {
	ID         json.RawMessage `json:"id"`
	Quantity   json.RawMessage `json:"quantity"`
	Variations []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"variations"`
}

// nonce is the posted nonce ("" unless a string).
func (wr *request) nonce() string {
	var s string
	if json.Unmarshal(wr.Nonce, &s) != nil {
		return ""
	}
	return s
}

// orderIDString reads order_id, a string (or a number for a shop order).
func (wr *request) orderIDString() string {
	raw := strings.TrimSpace(string(wr.OrderID))
	if raw == "" || raw == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(wr.OrderID, &s) == nil {
		return strings.TrimSpace(s)
	}
	return raw
}

// products are the posted products as the service reads them.
func (wr *request) products() []wallet.Product {
	out := make([]wallet.Product, 0, len(wr.Products))
	for _, p := range wr.Products {
		wp := wallet.Product{ID: rawNumber(p.ID), Quantity: rawNumber(p.Quantity)}
		for _, v := range p.Variations {
			wp.Variations = append(wp.Variations, cart.Attr{Attribute: v.Name, Value: v.Value})
		}
		out = append(out, wp)
	}
	return out
}

// rawNumber reads a JSON number or a numeric string.
func rawNumber(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

// readRequest reads a wallet endpoint's JSON body.
func readRequest(r *http.Request) (*request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, wallet.ErrBadRequest
	}
	var wr request
	if len(strings.TrimSpace(string(body))) == 0 || !utf8.Valid(body) || json.Unmarshal(body, &wr) != nil {
		return nil, wallet.ErrBadRequest
	}
	return &wr, nil
}

// amount is minor units of cur (as the shop writes it) as PayPal's
// decimal string ("0" when PayPal cannot write it).
func amount(cur money.Currency, minor int64) string {
	v, err := paypal.ToPayPal(cur.Code, cur.MinorUnit, minor)
	if err != nil {
		return "0"
	}
	out, err := paypal.FormatValue(cur.Code, v)
	if err != nil {
		return "0"
	}
	return out
}
