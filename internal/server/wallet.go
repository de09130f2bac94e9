package server

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/wallet"
)

// The wallet's HTTP adapters (WooCommerce PayPal Payments' wire surface,
// protocol notes section 15) over the wallet service
// (internal/payment/wallet, which owns the payment state machine): the
// wc-ajax ppc-* endpoints (wallet_ajax.go), the buyer's return from the
// approval page (wallet_return.go) and the webhook receiver
// (wallet_webhook.go). This file holds the nonces, the 15.1 envelope, the
// request bodies and the one error mapping of the surface. The service
// reaches the cart and checkout use cases through wallet.Shop.

// WalletConfig enables the PayPal wallet (the wallet service's
// configuration).
type WalletConfig = wallet.Config

// Values of WalletConfig.TestPayments.
const (
	TestPaymentsBuiltinSandbox = wallet.TestPaymentsBuiltinSandbox
	TestPaymentsPayPalSandbox  = wallet.TestPaymentsPayPalSandbox
)

// SandboxPrefix is where Config.Sandbox (the built-in PayPal sandbox, demo
// mode only) is mounted, behind the shop's middleware.
const SandboxPrefix = "/_sandbox/paypal"

// markTestPayment adds the test-order meta to a wallet order's meta when
// the wallet pays in a sandbox.
func (s *Server) markTestPayment(meta map[string]string, m payment.Method) {
	s.wallet.MarkTestPayment(meta, m)
}

// testOrderNotice is what the order's page and mails say of a test order
// ("" for a real one).
func testOrderNotice(o *checkout.Order) string {
	where := o.TestPayment()
	if where == "" {
		return ""
	}
	if o.Paid() {
		return "Test order: paid in the " + where + ", no money was taken."
	}
	return "Test order: to be paid in the " + where + ", no money will be taken."
}

// initWallet composes the wallet service and registers its method when the
// wallet is configured.
func (s *Server) initWallet() {
	s.flagWallet = s.cfg.Wallet
	s.walletFromSettings() // payments.go
	s.useSettings(s.settings.Current())
	wc := s.cfg.Wallet
	if wc == nil || wc.PayPal == nil {
		return
	}
	cfg := *wc
	if cfg.BrandName == "" {
		cfg.BrandName = s.siteName()
	}
	// The method knows the decimals the shop writes each currency with:
	// PayPal takes HUF only in whole forints, so a shop writing forints
	// with decimals sells wallet orders in the base currency.
	m := wallet.Gateway{Decimals: s.shopDecimals}
	s.wallet = wallet.New(cfg, wallet.Deps{Store: s.db, Checkout: wallet.Shop{Carts: s.carts, Checkout: s.checkout}, Config: &s.cfg.Checkout,
		BaseURL: s.cfg.BaseURL, Log: s.log, Now: s.now, Kick: s.kickMail, Method: m})
	s.payments.Add(m)
}

// shopDecimals is how many decimals the shop writes code with (the base's,
// or a configured currency's from the in-memory list); ok false when the
// shop does not know it.
func (s *Server) shopDecimals(code string) (int, bool) {
	if code == s.cfg.Currency.Code {
		return s.cfg.Currency.MinorUnit, true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, ok, err := s.currencies.Configured(ctx, code)
	if err != nil || !ok {
		return 0, false
	}
	return c.Decimals, true
}

// startWallet runs the wallet's reconciler until ctx ends.
func (s *Server) startWallet(ctx context.Context) {
	if s.wallet != nil {
		s.wallet.Start(ctx)
	}
}

// WalletStarted is closed once the wallet reconciler's startup pass has
// run (at once without the wallet).
func (s *Server) WalletStarted() <-chan struct{} {
	if s.wallet == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return s.wallet.Started()
}

// ReconcileWallet runs one pass of the wallet's reconciler (all unfinished
// payments when all is set, else those older than ReconcileAfter) and
// reports how many orders it paid, put on-hold or failed, and how many it
// cancelled.
func (s *Server) ReconcileWallet(ctx context.Context, all bool) (settled, cancelled int) {
	if s.wallet == nil {
		return 0, 0
	}
	return s.wallet.Reconcile(ctx, all)
}

// --- nonces ---

// walletEndpoints are the endpoints whose nonce the pages carry; each has
// its own nonce (the action is the endpoint's name).
var walletEndpoints = []string{"ppc-create-order", "ppc-approve-order", "ppc-get-order", "ppc-simulate-cart", "ppc-change-cart",
	"ppc-validate-checkout", "ppc-save-checkout-form", "ppc-data-client-id", "ppc-update-shipping", "update_shipping_method"}

// walletNonceAction is the nonce action of an endpoint (WooCommerce core's
// update_shipping_method checks "update-shipping-method").
func walletNonceAction(endpoint string) string {
	if endpoint == "update_shipping_method" {
		return "update-shipping-method"
	}
	return endpoint
}

func (s *Server) walletNonce(action, scope string, tick int64) string {
	return hex.EncodeToString(s.MAC("nonce", strconv.FormatInt(tick, 10)+"|wallet:"+action+"|"+scope))[:10]
}

// verifyWalletNonce accepts the endpoint's nonce of the request's session
// for the current or the previous 12-hour tick.
func (s *Server) verifyWalletNonce(n, endpoint string, sess httpx.Session, now time.Time) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	tick := httpx.NonceTickAt(now)
	action := walletNonceAction(endpoint)
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(s.walletNonce(action, sess.Scope(), t))) {
			return true
		}
	}
	return false
}

// WalletNonces are the nonces of every wallet endpoint for a session
// (nil without the wallet).
func (s *Server) walletNonces(sess httpx.Session, now time.Time) map[string]string {
	if s.wallet == nil {
		return nil
	}
	tick := httpx.NonceTickAt(now)
	out := make(map[string]string, len(walletEndpoints))
	for _, e := range walletEndpoints {
		out[e] = s.walletNonce(walletNonceAction(e), sess.Scope(), tick)
	}
	return out
}

// --- the envelope (protocol notes 15.1) ---

// Messages of the wallet surface.
const (
	msgWalletNonce     = "Could not validate nonce."
	msgWalletGeneric   = wallet.MsgGeneric
	msgWalletDeclined  = wallet.MsgDeclined
	msgWalletCancelled = wallet.MsgCancelled
	msgWalletVault     = "Saving a payment method for later is not supported by this shop."
)

type walletFailure struct {
	Name    string               `json:"name"`
	Message string               `json:"message"`
	Code    int                  `json:"code"`
	Details []paypal.ErrorDetail `json:"details"`
}

type walletInvalid struct {
	Message string   `json:"message"`
	Errors  []string `json:"errors"`
	Refresh bool     `json:"refresh"`
}

func walletWrite(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"success":false,"data":{"name":"","message":"` + msgWalletGeneric + `","code":0,"details":[]}}`)
	}
	httpx.WCAjaxWrite(w, r, b)
}

func walletOK(w http.ResponseWriter, r *http.Request, data any) {
	walletWrite(w, r, map[string]any{"success": true, "data": data})
}

func walletFail(w http.ResponseWriter, r *http.Request, f walletFailure) {
	if f.Details == nil {
		f.Details = []paypal.ErrorDetail{}
	}
	walletWrite(w, r, map[string]any{"success": false, "data": f})
}

func walletRefuse(w http.ResponseWriter, r *http.Request, message string, errs []string, refresh bool) {
	if errs == nil {
		errs = []string{}
	}
	walletWrite(w, r, map[string]any{"success": false, "data": walletInvalid{Message: message, Errors: errs, Refresh: refresh}})
}

// walletFailFrom is the wallet surface's one error mapping: a refusal
// with messages is the validation envelope; a refusal of the flow its
// name; PayPal's own error name, message and details when PayPal refused;
// anything else the generic failure.
func (s *Server) walletFailFrom(w http.ResponseWriter, r *http.Request, what string, err error) {
	var rf *wallet.Refusal
	var ae *paypal.APIError
	var ve *paypal.ValidationError
	var we *wallet.Error
	switch {
	case errors.As(err, &rf):
		walletRefuse(w, r, rf.Message, rf.Errors, rf.Refresh)
	case errors.As(err, &we):
		walletFail(w, r, walletFailure{Name: we.Name, Message: we.Message, Details: we.Details})
	case errors.As(err, &ae):
		s.log.Warn("wallet: paypal refused", "op", what, "status", ae.Status, "name", ae.Name, "debug_id", ae.DebugID)
		msg := msgWalletGeneric
		if ae.HasIssue(paypal.IssueInstrumentDeclined) {
			msg = msgWalletDeclined
		}
		walletFail(w, r, walletFailure{Name: ae.Name, Message: msg, Code: ae.Status, Details: ae.Details})
	case errors.As(err, &ve):
		s.log.Error("wallet: request refused before sending", "op", what, "err", err)
		walletFail(w, r, walletFailure{Name: "INVALID_REQUEST", Message: msgWalletGeneric, Details: ve.Details})
	default:
		s.log.Error("wallet", "op", what, "err", err)
		walletFail(w, r, walletFailure{Message: msgWalletGeneric})
	}
}

// --- request bodies ---

// walletRequest is a wallet endpoint's JSON body. Only these fields are
// read; amounts, prices and currencies a client adds are never looked at.
type walletRequest struct {
	Nonce         json.RawMessage `json:"nonce"`
	Context       string          `json:"context"`
	PaymentMethod string          `json:"payment_method"`
	FundingSource string          `json:"funding_source"`
	FormEncoded   string          `json:"form_encoded"`
	OrderID       json.RawMessage `json:"order_id"`
	Products      []walletProduct `json:"products"`
	KeepShipping  bool            `json:"keepShipping"`
	Payer         *paypal.Payer   `json:"payer"`
	// ppc-update-shipping
	ShippingAddress *paypal.Address `json:"shipping_address"`
	ShippingOption  *struct {
		ID string `json:"id"`
	} `json:"shipping_option"`
}

// walletProduct is one product of ppc-change-cart and ppc-simulate-cart.
type walletProduct struct {
	ID         json.RawMessage `json:"id"`
	Quantity   json.RawMessage `json:"quantity"`
	Variations []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"variations"`
}

// nonce is the posted nonce ("" unless a string).
func (wr *walletRequest) nonce() string {
	var s string
	if json.Unmarshal(wr.Nonce, &s) != nil {
		return ""
	}
	return s
}

// orderIDString reads order_id, a string (or a number for a shop order).
func (wr *walletRequest) orderIDString() string {
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
func (wr *walletRequest) products() []wallet.Product {
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

// readWalletRequest reads a wallet endpoint's JSON body.
func readWalletRequest(r *http.Request) (*walletRequest, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, wallet.ErrBadRequest
	}
	var wr walletRequest
	if len(strings.TrimSpace(string(body))) == 0 || !utf8.Valid(body) || json.Unmarshal(body, &wr) != nil {
		return nil, wallet.ErrBadRequest
	}
	return &wr, nil
}

// walletAmount is minor units of cur (as the shop writes it) as PayPal's
// decimal string ("0" when PayPal cannot write it).
func walletAmount(cur money.Currency, minor int64) string {
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
