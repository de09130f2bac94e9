// Package wallet is the PayPal wallet's use cases: the whole payment state
// machine of a wallet order on PayPal's Orders v2 API (start a payment,
// approve, capture, settle, reset after a decline), the reconciler, the
// effects of verified webhook events, creating an order for a session, and
// the cart calls of the product and cart buttons (simulate, change cart,
// shipping changes). Amounts always come from the shop's own order or
// checkout.Quote; every amount, price or currency a client sends is
// ignored.
//
// The service knows nothing of HTTP: the wc-ajax ppc-* endpoints, the
// buyer's return page and the webhook receiver are thin adapters in package
// server (protocol notes section 15). It persists through Store (implemented
// by sqlstore.DB) and reaches the cart and checkout use cases through the
// Checkout port.
package wallet

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// Config enables the PayPal wallet.
type Config struct {
	// PayPal is the API client (its BaseURL points at PayPal or at the
	// built-in sandbox); its WebhookID and certificate allow-list verify
	// webhook deliveries.
	PayPal *paypal.Client
	// BrandName is shown on the approval page (the server defaults it to
	// the site name).
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

// Values of Config.TestPayments.
const (
	TestPaymentsBuiltinSandbox = "built-in sandbox"
	TestPaymentsPayPalSandbox  = "PayPal sandbox"
)

// Where the buyer is sent back to from the approval page (paths under the
// shop's base URL).
const (
	ReturnPath = "/checkout/paypal-return/"
	CancelPath = "/checkout/?wallet=cancelled"
)

// Gateway is the wallet's payment method (ppcp-gateway): payment.Wallet
// taking the currencies PayPal takes (payment.CurrencyLimited), so an
// order paid with it is placed in the shopper's currency when PayPal takes
// it and in the shop's base currency otherwise (checkout.SaleCurrency).
type Gateway struct {
	payment.Wallet
	// Decimals is how many decimals the shop writes a currency with (its
	// configured currencies'; ok false: unknown, the ISO number is used).
	// Nil: the ISO numbers.
	Decimals func(code string) (n int, ok bool)
}

var _ payment.CurrencyLimited = Gateway{}

// TakesCurrency: PayPal takes code, and the shop's amounts in it can be
// written exactly at PayPal — a shop writing forints with two decimals
// cannot be paid in HUF, which PayPal takes in whole forints only.
func (g Gateway) TakesCurrency(code string) bool {
	pp, ok := paypal.Decimals(code)
	if !ok {
		return false
	}
	n, known := 0, false
	if g.Decimals != nil {
		n, known = g.Decimals(code)
	}
	if !known {
		m, iso := money.Lookup(code)
		if !iso {
			return false
		}
		n = m.MinorUnit
	}
	return n <= pp
}

// Method is the gateway the wallet's orders carry when Deps.Method is not
// set (ISO decimals).
var Method = Gateway{}

// Store is what the wallet persists: orders and their payment state, and
// the webhook events seen. sqlstore.DB implements it. Order lookups answer
// checkout.ErrOrderNotFound for an unknown order; SetPaymentState is a
// compare-and-set that answers payment.ErrPaymentState when the order is
// no longer in from.
type Store interface {
	Order(ctx context.Context, id int64) (*checkout.Order, error)
	OrderByProviderOrderID(ctx context.Context, providerOrderID string) (*checkout.Order, error)
	SetPaymentState(ctx context.Context, id int64, from, to string, f payment.ProviderIDs, now time.Time) error
	MarkOrderPaid(ctx context.Context, id int64, captureID string, now time.Time) (changed bool, err error)
	HoldOrderForCapture(ctx context.Context, id int64, captureID string, now time.Time) (changed bool, err error)
	FailOrderPayment(ctx context.Context, id int64, now time.Time) (changed bool, err error)
	SetOrderAddresses(ctx context.Context, id int64, billing, shipping cart.Address, now time.Time) (bool, error)
	OrdersInPaymentState(ctx context.Context, state string, olderThan time.Time) ([]*checkout.Order, error)
	StaleWalletOrders(ctx context.Context, method string, olderThan time.Time) ([]*checkout.Order, error)
	OpenWalletOrders(ctx context.Context, session, method string) ([]*checkout.Order, error)
	CancelUnpaidOrder(ctx context.Context, id int64, now time.Time) (cancelled bool, err error)
	RecordWebhookEvent(ctx context.Context, eventID string) (isNew bool, err error)
	ForgetWebhookEvent(ctx context.Context, eventID string) error
}

// Checkout is what the wallet needs from the cart and checkout use cases,
// named for those use cases. Sessions are cart session ids. Shop is its
// implementation on the cart and checkout services.
type Checkout interface {
	// Cart is the session's stored cart (lines and customer).
	Cart(ctx context.Context, session string) (*cart.Cart, error)
	// SetCustomer stores the session's customer (addresses, chosen rate).
	SetCustomer(ctx context.Context, session string, c cart.Customer) error
	// QuoteCart is the session's cart as the cart and checkout show it,
	// priced by checkout.Quote in code's currency ("": the base).
	QuoteCart(ctx context.Context, session, code string) (QuotedCart, error)
	// QuoteCartFor is QuoteCart with other addresses, on a copy that is
	// never written: what the session's cart costs shipped there.
	QuoteCartFor(ctx context.Context, session, code string, billing, shipping cart.Address) (QuotedCart, error)
	// QuoteLines quotes lines (catalogue prices in the base currency) for
	// a customer in code's currency, as a cart holding only them.
	QuoteLines(ctx context.Context, lines []cart.Line, byID map[int64]*catalog.Product, cust cart.Customer, code string) (QuotedCart, error)
	// Currency is how the shop writes code's amounts (its minor unit): an
	// order's amounts are in it.
	Currency(ctx context.Context, code string) (money.Currency, error)
	// ResolveLine finds what an add of id sells (the variation of a
	// variable product), checks it can be sold and builds its priced line.
	ResolveLine(ctx context.Context, id int64, chosen []cart.Attr) (sell, parent *catalog.Product, line cart.Line, err error)
	// AddToCart adds qty of a product to the session's cart with the cart's
	// quantity and stock rules.
	AddToCart(ctx context.Context, session string, id, qty int64, chosen []cart.Attr) error
	// RemoveLine removes a line of the session's cart (cart.ErrInvalidKey
	// when it is gone).
	RemoveLine(ctx context.Context, session, key string) error
	// RestoreLines puts lines back in the session's cart (placing an order
	// empties it; a wallet order keeps the cart until it is paid).
	RestoreLines(ctx context.Context, session string, lines []cart.Line) error
	// ClearCart empties the session's cart.
	ClearCart(ctx context.Context, session string) error
	// PlaceFormOrder validates a classic checkout form and places its
	// order (a *checkout.ValidationError or a *cart.Error refuses it).
	PlaceFormOrder(ctx context.Context, in checkout.PlaceRequest) (*checkout.Order, error)
	// PlaceCartOrder places the session's cart as it is, with the given
	// customer (product and cart buttons: no form).
	PlaceCartOrder(ctx context.Context, in checkout.PendingOrder) (*checkout.Order, error)
}

// QuotedCart is a session's priced cart.
type QuotedCart struct {
	Empty bool   // no line
	Hash  string // the cart's hash (the woocommerce_cart_hash cookie)
	Quote checkout.Quotation
	// Currency is the quote's currency, as the shop writes it: every
	// amount of Quote is in its minor units.
	Currency money.Currency
}

// Shop is the Checkout port on the cart and checkout services.
type Shop struct {
	Carts    *cart.Service
	Checkout *checkout.Service
}

var _ Checkout = Shop{}

func (p Shop) Cart(ctx context.Context, session string) (*cart.Cart, error) {
	return p.Carts.Get(ctx, session)
}

func (p Shop) SetCustomer(ctx context.Context, session string, c cart.Customer) error {
	return p.Carts.SetCustomer(ctx, session, c)
}

func (p Shop) QuoteCart(ctx context.Context, session, code string) (QuotedCart, error) {
	pc, err := p.Checkout.Cart(ctx, session, code)
	if err != nil {
		return QuotedCart{}, err
	}
	return QuotedCart{Empty: len(pc.Lines) == 0, Hash: pc.Hash(), Quote: pc.Quote, Currency: pc.Pricing.Config.Currency}, nil
}

func (p Shop) QuoteCartFor(ctx context.Context, session, code string, billing, shipping cart.Address) (QuotedCart, error) {
	c, err := p.Carts.Get(ctx, session)
	if err != nil {
		return QuotedCart{}, err
	}
	c.Customer.Billing, c.Customer.Shipping = billing, shipping
	pc, err := p.Checkout.Price(ctx, c, false, code)
	if err != nil {
		return QuotedCart{}, err
	}
	return QuotedCart{Empty: len(pc.Lines) == 0, Hash: pc.Hash(), Quote: pc.Quote, Currency: pc.Pricing.Config.Currency}, nil
}

func (p Shop) QuoteLines(ctx context.Context, lines []cart.Line, byID map[int64]*catalog.Product, cust cart.Customer, code string) (QuotedCart, error) {
	q, pr, err := p.Checkout.QuoteLinesIn(ctx, lines, byID, cust, code)
	if err != nil {
		return QuotedCart{}, err
	}
	return QuotedCart{Empty: len(lines) == 0, Quote: q, Currency: pr.Config.Currency}, nil
}

// Currency is the base currency, a currency the shop sells in (enabled or
// not, as configured), else the ISO defaults of code.
func (p Shop) Currency(ctx context.Context, code string) (money.Currency, error) {
	base := p.Checkout.Config.Currency
	if code == "" || code == base.Code {
		return base, nil
	}
	if p.Checkout.Currencies != nil {
		c, ok, err := p.Checkout.Currencies.Configured(ctx, code)
		if err != nil {
			return money.Currency{}, err
		}
		if ok {
			return c.Money(), nil
		}
	}
	if c, ok := money.Lookup(code); ok {
		return c, nil
	}
	return money.Currency{}, fmt.Errorf("wallet: unknown currency %q", code)
}

func (p Shop) ResolveLine(ctx context.Context, id int64, chosen []cart.Attr) (*catalog.Product, *catalog.Product, cart.Line, error) {
	return p.Carts.Resolve(ctx, id, chosen)
}

func (p Shop) AddToCart(ctx context.Context, session string, id, qty int64, chosen []cart.Attr) error {
	_, _, err := p.Carts.Add(ctx, session, id, qty, chosen)
	return err
}

func (p Shop) RemoveLine(ctx context.Context, session, key string) error {
	return p.Carts.Remove(ctx, session, key)
}

func (p Shop) RestoreLines(ctx context.Context, session string, lines []cart.Line) error {
	return p.Carts.RestoreLines(ctx, session, lines)
}

func (p Shop) ClearCart(ctx context.Context, session string) error {
	return p.Carts.Clear(ctx, session)
}

func (p Shop) PlaceFormOrder(ctx context.Context, in checkout.PlaceRequest) (*checkout.Order, error) {
	return p.Checkout.PlaceOrder(ctx, in)
}

func (p Shop) PlaceCartOrder(ctx context.Context, in checkout.PendingOrder) (*checkout.Order, error) {
	return p.Checkout.PlacePending(ctx, in)
}

// Deps is what the service is composed of.
type Deps struct {
	Store    Store
	Checkout Checkout
	// Config is the shop's checkout configuration (currency, base
	// country, address rules, terms).
	Config *checkout.Config
	// BaseURL is the shop's public URL (the approval page's return and
	// cancel links).
	BaseURL string
	Log     *slog.Logger
	Now     func() time.Time
	// Kick is called after a change that queued order mail (may be nil).
	Kick func()
	// Method is the wallet's payment method as the shop's payment
	// registry holds it (the currencies it takes); nil: Method.
	Method payment.CurrencyLimited
}

// Service is the wallet's use cases.
type Service struct {
	pp     *paypal.Client
	cfg    Config
	d      Deps
	method payment.CurrencyLimited
	log    *slog.Logger
	locks  [64]sync.Mutex // create-order per session, striped
	// started is closed once the reconciler's startup pass has run.
	started chan struct{}
}

// New makes the service; zero durations take their defaults.
func New(cfg Config, d Deps) *Service {
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
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	m := d.Method
	if m == nil {
		m = Method
	}
	return &Service{pp: cfg.PayPal, cfg: cfg, d: d, method: m, log: d.Log, started: make(chan struct{})}
}

// SaleCurrency is the currency the wallet quotes and places in for a
// shopper's currency code: code when PayPal takes it (Gateway), else the
// shop's base currency (checkout.Service.SaleCurrency's rule).
func (s *Service) SaleCurrency(code string) string {
	if code != "" && !s.method.TakesCurrency(code) {
		return s.d.Config.Currency.Code
	}
	return code
}

// Config is the service's configuration with its defaults.
func (s *Service) Config() Config { return s.cfg }

// ClientID is the PayPal client id ("" without a client).
func (s *Service) ClientID() string {
	if s.pp == nil {
		return ""
	}
	return s.pp.ClientID
}

func (s *Service) now() time.Time { return s.d.Now() }

func (s *Service) kickMail() {
	if s.d.Kick != nil {
		s.d.Kick()
	}
}

// MarkTestPayment adds the test-order meta to a wallet order's meta when
// the wallet pays in a sandbox (a nil service: no wallet, nothing).
func (s *Service) MarkTestPayment(meta map[string]string, m payment.Method) {
	if s == nil || s.cfg.TestPayments == "" || m == nil || m.ID() != Method.ID() {
		return
	}
	meta[checkout.MetaTestPayment] = s.cfg.TestPayments
}

// sessionLock serializes one session's order creations.
func (s *Service) sessionLock(id string) *sync.Mutex {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return &s.locks[h.Sum32()%uint32(len(s.locks))]
}

// callCtx bounds one PayPal call; it is detached from the request so a
// buyer closing the tab does not cut a capture short.
func (s *Service) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.cfg.CallTimeout)
}

// --- errors ---

// Messages of the wallet surface.
const (
	MsgGeneric   = "Something went wrong. Please try again or choose another payment source."
	MsgDeclined  = "Your payment was declined by PayPal. Please choose another payment source."
	MsgCancelled = "You cancelled the payment with PayPal. Your cart is as you left it."
	MsgUnknown   = "This PayPal order is unknown to the shop."
	MsgInvalid   = "Please check the checkout form."
	// MsgTotalChanged: the address chosen at PayPal prices the order
	// otherwise than the amount the buyer approved (ErrTotalChanged).
	MsgTotalChanged = "The address you chose at PayPal changes the taxes or shipping of your order, so nothing was charged. Please check the new total and pay again."
)

// Error is a refusal of the flow with its envelope name (protocol notes
// 15.1: success false, data {name, message, details}).
type Error struct {
	Name    string
	Message string
	Details []paypal.ErrorDetail
}

func (e *Error) Error() string { return "wallet: " + e.Name + ": " + e.Message }

// Code is the error's kind in the shop's vocabulary (not_found, invalid,
// conflict).
func (e *Error) Code() string {
	switch e.Name {
	case "RESOURCE_NOT_FOUND":
		return "not_found"
	case "ORDER_NOT_APPROVED", "ORDER_CLOSED", "ORDER_STATE", "TOTAL_CHANGED":
		return "conflict"
	}
	return "invalid"
}

// Refusal is a request the shop refuses with messages for the buyer
// (15.1's validation envelope: message, errors, refresh).
type Refusal struct {
	Message string
	Errors  []string
	Refresh bool // the page should reload (the cart changed)
}

func (e *Refusal) Error() string { return "wallet: refused: " + e.Message }

// Code is invalid: the request cannot be served as it is.
func (e *Refusal) Code() string { return "invalid" }

// Errors of the flow.
var (
	ErrBadRequest   = &Error{Name: "INVALID_REQUEST", Message: "The request could not be read."}
	ErrUnknownOrder = &Error{Name: "RESOURCE_NOT_FOUND", Message: MsgUnknown}
	ErrNotApproved  = &Error{Name: "ORDER_NOT_APPROVED", Message: "The payment has not been approved at PayPal yet.",
		Details: []paypal.ErrorDetail{{Issue: paypal.IssueOrderNotApproved}}}
	ErrDeclined = &Error{Name: "UNPROCESSABLE_ENTITY", Message: MsgDeclined,
		Details: []paypal.ErrorDetail{{Issue: paypal.IssueInstrumentDeclined}}}
	ErrClosed  = &Error{Name: "ORDER_CLOSED", Message: "This order is no longer awaiting payment. Please place a new order."}
	ErrState   = &Error{Name: "ORDER_STATE", Message: MsgGeneric}
	ErrContext = &Error{Name: "INVALID_CONTEXT", Message: "PayPal is not offered here."}
	ErrFunding = &Error{Name: "INVALID_FUNDING_SOURCE", Message: "This payment source is not available. Please choose PayPal or Pay Later."}
	ErrMethod  = &Error{Name: "INVALID_PAYMENT_METHOD", Message: "Card payments are not available. Please choose PayPal or Pay Later."}
	// ErrTotalChanged: the buyer's PayPal address changes the order's
	// total; the order was cancelled uncharged and the cart shows the new
	// total (prepareCapture).
	ErrTotalChanged = &Error{Name: "TOTAL_CHANGED", Message: MsgTotalChanged}
	ErrCountry      = &Error{Name: "UNPROCESSABLE_ENTITY", Message: "The shop does not ship to this country.",
		Details: []paypal.ErrorDetail{{Issue: "COUNTRY_ERROR", Field: "address/country_code"}}}
)

// errEmptyCart is the empty cart's checkout refusal (the page refreshes).
var errEmptyCart = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_empty", Message: "Cannot create order from empty cart."}

func refuseEmpty() *Refusal {
	return &Refusal{Message: errEmptyCart.Message, Errors: []string{errEmptyCart.Message}, Refresh: true}
}

func isNotFound(err error) bool { return errors.Is(err, checkout.ErrOrderNotFound) }

func idString(id int64) string { return strconv.FormatInt(id, 10) }
