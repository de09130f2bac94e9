package server

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// The wallet (WooCommerce PayPal Payments' wire surface, protocol notes
// section 15) on PayPal's Orders v2 API: the wc-ajax ppc-* endpoints
// (wallet_ajax.go), the buyer's return from the approval page and the order
// life (wallet_flow.go), the webhook receiver (wallet_webhook.go) and the
// reconciler (wallet_reconcile.go). Amounts always come from the shop's own
// order or checkout.Quote; every amount, price or currency a client sends
// is ignored.

// WalletConfig enables the PayPal wallet.
type WalletConfig struct {
	// PayPal is the API client (its BaseURL points at PayPal or at the
	// built-in sandbox); its WebhookID and certificate allow-list verify
	// webhook deliveries.
	PayPal *paypal.Client
	// BrandName is shown on the approval page (default: the site name).
	BrandName string
	// ReconcileEvery is how often unfinished payments are looked up at
	// PayPal (default 1 min); ReconcileAfter is how long a payment must
	// have been unfinished to be looked up (default 1 min; at start every
	// unfinished payment is). AbandonAfter is when an unpaid wallet order
	// the buyer walked away from is cancelled and its stock restored
	// (default 60 min).
	ReconcileEvery time.Duration
	ReconcileAfter time.Duration
	AbandonAfter   time.Duration
	// CallTimeout bounds each PayPal call (default 30 s).
	CallTimeout time.Duration
	// TestPayments, when set, says the API is a sandbox where no money
	// moves (TestPaymentsBuiltinSandbox, TestPaymentsPayPalSandbox): every
	// wallet order is stored as a test order (checkout.MetaTestPayment) and
	// shown as one on its page, in its mails and in the API.
	TestPayments string
}

// Values of WalletConfig.TestPayments.
const (
	TestPaymentsBuiltinSandbox = "built-in sandbox"
	TestPaymentsPayPalSandbox  = "PayPal sandbox"
)

// SandboxPrefix is where Config.Sandbox (the built-in PayPal sandbox, demo
// mode only) is mounted, behind the shop's middleware.
const SandboxPrefix = "/_sandbox/paypal"

// markTestPayment adds the test-order meta to a wallet order's meta when
// the wallet pays in a sandbox.
func (s *Server) markTestPayment(meta map[string]string, m payment.Method) {
	if s.wallet == nil || s.wallet.cfg.TestPayments == "" || m == nil || m.ID() != walletMethod.ID() {
		return
	}
	meta[checkout.MetaTestPayment] = s.wallet.cfg.TestPayments
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

// wallet is the server's wallet state.
type wallet struct {
	pp    *paypal.Client
	cfg   WalletConfig
	locks [64]sync.Mutex // create-order per session, striped
	// started is closed once the reconciler's startup pass has run.
	started chan struct{}
}

// walletMethod is the gateway the wallet's orders carry.
var walletMethod = payment.Wallet{}

// initWallet registers the wallet method when the wallet is configured.
func (s *Server) initWallet() {
	wc := s.cfg.Wallet
	if wc == nil || wc.PayPal == nil {
		return
	}
	cfg := *wc
	if cfg.BrandName == "" {
		cfg.BrandName = s.cfg.SiteName
	}
	if cfg.ReconcileEvery <= 0 {
		cfg.ReconcileEvery = time.Minute
	}
	if cfg.ReconcileAfter <= 0 {
		cfg.ReconcileAfter = time.Minute
	}
	if cfg.AbandonAfter <= 0 {
		cfg.AbandonAfter = 60 * time.Minute
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 30 * time.Second
	}
	s.wallet = &wallet{pp: cfg.PayPal, cfg: cfg, started: make(chan struct{})}
	s.payments.Add(walletMethod)
}

// sessionLock serializes one session's order creations.
func (wl *wallet) sessionLock(id string) *sync.Mutex {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return &wl.locks[h.Sum32()%uint32(len(wl.locks))]
}

// callCtx bounds one PayPal call; it is detached from the request so a
// buyer closing the tab does not cut a capture short.
func (wl *wallet) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), wl.cfg.CallTimeout)
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
	return hex.EncodeToString(s.mac("nonce", strconv.FormatInt(tick, 10)+"|wallet:"+action+"|"+scope))[:10]
}

// verifyWalletNonce accepts the endpoint's nonce of the request's session
// for the current or the previous 12-hour tick.
func (s *Server) verifyWalletNonce(n, endpoint string, sess cartSession, now time.Time) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	tick := nonceTickAt(now)
	action := walletNonceAction(endpoint)
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(s.walletNonce(action, sess.scope(), t))) {
			return true
		}
	}
	return false
}

// WalletNonces are the nonces of every wallet endpoint for a session
// (nil without the wallet).
func (s *Server) walletNonces(sess cartSession, now time.Time) map[string]string {
	if s.wallet == nil {
		return nil
	}
	tick := nonceTickAt(now)
	out := make(map[string]string, len(walletEndpoints))
	for _, e := range walletEndpoints {
		out[e] = s.walletNonce(walletNonceAction(e), sess.scope(), tick)
	}
	return out
}

// --- the envelope (protocol notes 15.1) ---

// Messages of the wallet surface.
const (
	msgWalletNonce     = "Could not validate nonce."
	msgWalletGeneric   = "Something went wrong. Please try again or choose another payment source."
	msgWalletDeclined  = "Your payment was declined by PayPal. Please choose another payment source."
	msgWalletCancelled = "You cancelled the payment with PayPal. Your cart is as you left it."
	msgWalletUnknown   = "This PayPal order is unknown to the shop."
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
	wcAjaxWrite(w, r, b)
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

// walletFailFrom turns an error of the flow into the failure envelope:
// PayPal's own error name, message and details when PayPal refused.
func (s *Server) walletFailFrom(w http.ResponseWriter, r *http.Request, what string, err error) {
	var ae *paypal.APIError
	var ve *paypal.ValidationError
	var we *walletError
	switch {
	case errors.As(err, &we):
		walletFail(w, r, walletFailure{Name: we.name, Message: we.message, Details: we.details})
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

// walletError is a refusal of the flow with its envelope name.
type walletError struct {
	name    string
	message string
	details []paypal.ErrorDetail
}

func (e *walletError) Error() string { return "wallet: " + e.name + ": " + e.message }

var (
	errWalletUnknownOrder = &walletError{name: "RESOURCE_NOT_FOUND", message: msgWalletUnknown}
	errWalletNotApproved  = &walletError{name: "ORDER_NOT_APPROVED", message: "The payment has not been approved at PayPal yet.",
		details: []paypal.ErrorDetail{{Issue: paypal.IssueOrderNotApproved}}}
	errWalletDeclined = &walletError{name: "UNPROCESSABLE_ENTITY", message: msgWalletDeclined,
		details: []paypal.ErrorDetail{{Issue: paypal.IssueInstrumentDeclined}}}
	errWalletClosed = &walletError{name: "ORDER_CLOSED", message: "This order is no longer awaiting payment. Please place a new order."}
	errWalletState  = &walletError{name: "ORDER_STATE", message: msgWalletGeneric}
)

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

// rawNumber reads a JSON number or a numeric string.
func rawNumber(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

var errWalletBody = &walletError{name: "INVALID_REQUEST", message: "The request could not be read."}

// readWalletRequest reads a wallet endpoint's JSON body.
func readWalletRequest(r *http.Request) (*walletRequest, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, errWalletBody
	}
	var wr walletRequest
	if len(strings.TrimSpace(string(body))) == 0 || !utf8.Valid(body) || json.Unmarshal(body, &wr) != nil {
		return nil, errWalletBody
	}
	return &wr, nil
}

// --- purchase units from the shop's own amounts ---

// truncateRunes cuts s to n characters.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// orderPurchaseUnit is the PayPal purchase unit of a placed order: its own
// totals to the minor unit, its lines when each divides evenly into unit
// amounts, its shipping address, custom_id = order id, invoice_id = order
// number.
func orderPurchaseUnit(o *checkout.Order) (paypal.PurchaseUnit, error) {
	spec := paypal.UnitSpec{Currency: o.Currency, ItemTotal: o.ItemsSubtotal, Shipping: o.ShippingTotal, TaxTotal: o.TotalTax,
		Discount: o.DiscountTotal, Total: o.Total, CustomID: strconv.FormatInt(o.ID, 10), InvoiceID: o.Number}
	even := true
	for _, l := range o.Lines {
		if l.Quantity <= 0 || l.Subtotal%l.Quantity != 0 {
			even = false
		}
	}
	if even && len(o.Lines) <= 100 {
		for _, l := range o.Lines {
			name := l.Name
			for _, a := range l.Variation {
				name += ", " + a.Value
			}
			spec.Items = append(spec.Items, paypal.ItemSpec{Name: truncateRunes(name, 127), SKU: truncateRunes(l.SKU, 127),
				Quantity: l.Quantity, UnitAmount: l.Subtotal / l.Quantity})
		}
	}
	if ship := shipTo(o.Shipping); ship != nil {
		spec.ShipTo = ship
	}
	return paypal.NewPurchaseUnit(spec)
}

// shipTo is an address in PayPal's shape, or nil without a country.
func shipTo(a cart.Address) *paypal.ShippingDetail {
	if a.Country == "" || a.Address1 == "" {
		return nil
	}
	name := strings.TrimSpace(a.FirstName + " " + a.LastName)
	d := &paypal.ShippingDetail{Address: &paypal.Address{AddressLine1: truncateRunes(a.Address1, 300), AddressLine2: truncateRunes(a.Address2, 300),
		AdminArea2: truncateRunes(a.City, 120), AdminArea1: truncateRunes(a.State, 300), PostalCode: truncateRunes(a.Postcode, 60), CountryCode: a.Country}}
	if name != "" {
		d.Name = &paypal.Name{FullName: truncateRunes(name, 300)}
	}
	return d
}

// cartPurchaseUnit quotes a session's cart and answers it with its
// purchase unit (change-cart, update-shipping answers): no ids, the
// quote's totals.
func (s *Server) cartPurchaseUnit(ctx context.Context, sessID string) (*cartObject, paypal.PurchaseUnit, error) {
	obj, _, q, err := s.checkoutCart(ctx, sessID)
	if err != nil {
		return nil, paypal.PurchaseUnit{}, err
	}
	pu, err := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: s.cfg.Checkout.Currency.Code, ItemTotal: q.ItemsSubtotal,
		Shipping: q.Shipping, TaxTotal: q.TotalTax, Total: q.Total})
	return obj, pu, err
}

// formatAmount is minor units as PayPal's decimal string.
func (s *Server) formatAmount(minor int64) string {
	v, err := paypal.FormatValue(s.cfg.Checkout.Currency.Code, minor)
	if err != nil {
		return "0"
	}
	return v
}
