package checkout

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/clock"
	"vitrine/internal/consent"
	"vitrine/internal/coupon"
	"vitrine/internal/currency"
	"vitrine/internal/payment"
)

// Store is what the checkout's use cases need of storage (the SQL store
// implements it): the session's cart and customer, placing an order in one
// transaction, orders by key, the shared rate-limit counters and the held
// stock of unpaid orders.
type Store interface {
	Cart(ctx context.Context, id string, now time.Time) (*cart.Cart, error)
	SetCustomer(ctx context.Context, id string, c cart.Customer, now, expires time.Time) error
	// PlaceOrder turns the session's cart into an order in one write
	// transaction (idempotency key, stock, prices re-read, the cart
	// emptied, the mails queued); replayed reports an earlier order
	// returned for the same attempt.
	PlaceOrder(ctx context.Context, in PlaceOrderInput) (o *Order, replayed bool, err error)
	// OrderByKey is ErrOrderNotFound for an unknown key.
	OrderByKey(ctx context.Context, key string) (*Order, error)
	HitRateLimits(ctx context.Context, hits []RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
	DeleteExpiredRateLimits(ctx context.Context, now time.Time) (int64, error)
	AwaitingPaymentOrders(ctx context.Context, methods []string, olderThan time.Time) ([]*Order, error)
	ReleaseHeldOrder(ctx context.Context, id int64, methods []string, olderThan, now time.Time) (bool, error)
}

// Errors of the checkout's use cases and its store.
var (
	// ErrOrderNotFound: no order has that id, key or provider order id.
	ErrOrderNotFound = errors.New("order not found")
	// ErrCartEmpty refuses a checkout of an empty cart.
	ErrCartEmpty = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_empty", Message: "Cannot create order from empty cart."}
	// ErrIdempotencyReused: the key was used for a different request.
	ErrIdempotencyReused = &cart.Error{Status: 422, Code: "woocommerce_rest_idempotency_key_reused",
		Message: "This idempotency key was already used for a different checkout request."}
	// ErrInvalidRate: the rate is not one the cart's destination offers.
	ErrInvalidRate = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_rate", Message: "Invalid shipping rate."}
	// ErrInvalidPackage: the shipping package is not the cart's one (0).
	ErrInvalidPackage = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_package", Message: "Invalid package ID."}
)

// PlaceOrderInput is a checkout for the store to place.
type PlaceOrderInput struct {
	Session      string
	CustomerID   int64    // the logged-in account placing it; 0 for a guest
	Customer     Customer // validated addresses and the chosen rate
	CustomerNote string
	Method       payment.Method
	// Status is the order's status when placed: the offline method's
	// (on-hold, processing), pending for a wallet.
	Status string
	Config *Config
	// Currency converts the lines' base prices (re-read in the
	// transaction) into Config's currency: loaded for the cart's items;
	// nil sells in the base currency.
	Currency *currency.Table
	Meta     map[string]string // attribution and other meta
	// Coupons are the coupons the cart applies, checked by the service
	// (amounts in Config's currency, in order). The transaction counts a
	// use of each, refusing the order when one has reached its usage
	// limit in all or for this customer (by CustomerID or the billing
	// email) meanwhile, and prices with them.
	Coupons []*coupon.Coupon
	// IdempotencyScope and IdempotencyKey name the attempt; RequestHash is
	// what the request said. A replay with the same hash returns the first
	// order; a different hash is refused with ErrIdempotencyReused.
	IdempotencyScope string
	IdempotencyKey   string
	RequestHash      string
	// ReplayWindow > 0: when the cart is already empty, the session's latest
	// order placed within the window by a request with the same hash is
	// returned (a double-submitted form whose first submit emptied the cart).
	ReplayWindow time.Duration
	// Paid records the payment as made when the order is placed (staff
	// creating an order they were paid for: PlaceStaffOrder's SetPaid).
	Paid bool
	Now  time.Time
}

// RateHit is one counter a request counts against: its key and the most
// hits the key may have per window (0 or less: not limited, not counted).
type RateHit struct {
	Key   string
	Limit int
}

// Service is the checkout's use cases: the cart priced by Quote, choosing
// a shipping rate, placing an order, the order-received access check, the
// checkout rate limit and the release of held stock. Carts are named by
// their session id.
type Service struct {
	Store  Store
	Carts  *cart.Service
	Config *Config
	// Live, when set, is the Config in force: the server swaps it whole
	// when staff change the shipping zones or tax rates (Rules) in the
	// admin. Otherwise Config is.
	Live     func() *Config
	Payments *payment.Registry
	// Currencies sells in the shopper's currency (currency.go); nil sells
	// in the base currency only.
	Currencies *currency.Service
	// Coupons reads the coupons a cart applies (coupons.go); nil: the
	// shop has no coupons.
	Coupons  CouponStore
	Lifetime time.Duration // a cart's lifetime after a write (cart.Lifetime when 0)
	// HoldStock is how long an unpaid bank-transfer order holds its stock
	// (ReleaseHeldStock); 0 never releases.
	HoldStock time.Duration
	// Placed, when set, is called after an order commits (the mail
	// outbox's Kick: its mails go out at once).
	Placed func()
	// Meta, when set, adds meta for the method an order is placed with
	// (the wallet marks sandbox payments).
	Meta func(meta map[string]string, m payment.Method)
	// ConsentAsked, when set, says whether the shop asks shoppers for
	// consent to non-essential storage (its consent banner is on): then an
	// order keeps its attribution only with the shopper's Accept
	// (PlaceRequest.Consent). Global Privacy Control always refuses.
	ConsentAsked func() bool
	Now          func() time.Time
	Log          *slog.Logger
}

func (s *Service) now() time.Time { return clock.Now(s.Now) }

func (s *Service) expires(now time.Time) time.Time {
	if s.Lifetime > 0 {
		return now.Add(s.Lifetime)
	}
	return now.Add(cart.Lifetime)
}

func (s *Service) warn(msg string, args ...any) {
	if s.Log != nil {
		s.Log.Warn(msg, args...)
	}
}

// --- the cart's prices ---

// QuoteItems turns priced cart lines into Quote's items. byID holds the
// lines' products (and parents).
func QuoteItems(lines []cart.Line, byID map[int64]*catalog.Product) []Item {
	items := make([]Item, 0, len(lines))
	for _, l := range lines {
		status := "taxable"
		if p := byID[l.ItemID()]; p != nil && p.TaxStatus != "" {
			status = p.TaxStatus
		} else if p := byID[l.ProductID]; p != nil && p.TaxStatus != "" {
			status = p.TaxStatus
		}
		it := Item{Key: l.Key, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Taxable: status != "none" && status != "shipping",
			ProductID: l.ProductID, VariationID: l.VariationID}
		if p := byID[l.ProductID]; p != nil {
			it.Name, it.CategoryIDs = p.Name, CategoryIDs(p)
		}
		items = append(items, it)
	}
	return items
}

// CategoryIDs are a product's category ids (coupons' restrictions).
func CategoryIDs(p *catalog.Product) []int64 {
	ids := make([]int64, len(p.Categories))
	for i, c := range p.Categories {
		ids[i] = c.ID
	}
	return ids
}

// QuoteLines prices cart lines (prices already refreshed from the
// catalogue) for a customer: the single price function of the cart, the
// checkout and the wallet.
func QuoteLines(lines []cart.Line, byID map[int64]*catalog.Product, cust cart.Customer, cfg *Config) (Quotation, error) {
	return Quote(QuoteItems(lines, byID), Customer{Billing: cust.Billing, Shipping: cust.Shipping, RateID: cust.ShippingRate}, cfg)
}

// PricedCart is a cart as it can be sold now with its quotation: Quote's
// lines are in the priced lines' order. The lines' unit prices and every
// amount of the quotation are in Pricing's currency.
type PricedCart struct {
	*cart.Priced
	Quote   Quotation
	Pricing *Pricing
	// Coupons are the coupons applied that pass their rules now (fixed
	// amounts in Pricing's currency), in order; CouponErrors say why the
	// others were left out.
	Coupons      []*coupon.Coupon
	CouponErrors []*cart.Error
	items        []Item
}

// LineTotal is the quoted total of the i-th priced line.
func (p *PricedCart) LineTotal(i int) int64 {
	if i < len(p.Quote.Lines) {
		return p.Quote.Lines[i].Total
	}
	return p.Lines[i].Subtotal()
}

// Hash is the cart's hash (the Cart-Hash header, the woocommerce_cart_hash
// cookie): empty for a cart with no line on sale, else the hex md5 of
//
//	JSON([{"key","id","quantity","variation","line_total"} for each line in cart order]) + total_price
//
// where id is the item id (the variation's for variations), variation the
// chosen attributes as shown, line_total and total_price minor units as
// decimal strings. Any change of lines, quantities or prices changes it.
func (p *PricedCart) Hash() string {
	if len(p.Lines) == 0 {
		return ""
	}
	type hashLine struct {
		Key       string      `json:"key"`
		ID        int64       `json:"id"`
		Quantity  int64       `json:"quantity"`
		Variation []cart.Attr `json:"variation"`
		LineTotal string      `json:"line_total"`
	}
	lines := make([]hashLine, 0, len(p.Lines))
	for i, l := range p.Lines {
		_, parent := p.Product(l)
		lines = append(lines, hashLine{l.Key, l.ItemID(), l.Quantity, cart.DisplayAttrs(parent, l.Variation),
			strconv.FormatInt(p.LineTotal(i), 10)})
	}
	b, _ := json.Marshal(lines)
	sum := md5.Sum(append(b, strconv.FormatInt(p.Quote.Total, 10)...))
	return hex.EncodeToString(sum[:])
}

// Price prices a cart as it can be sold now (cart.Service.Price) with
// Quote, in the currency code names ("": the base currency; see
// currency.go). extend: a read pushes a cart near its expiry forward.
func (s *Service) Price(ctx context.Context, c *cart.Cart, extend bool, code string) (*PricedCart, error) {
	p, err := s.Carts.Price(ctx, c, extend)
	if err != nil {
		return nil, err
	}
	pr, err := s.pricing(ctx, p, code)
	if err != nil {
		return nil, err
	}
	items := QuoteItems(p.Lines, p.Products)
	coupons, refused, err := s.couponsFor(ctx, c.Customer.Coupons, items, pr, cart.SessionCustomer(c.ID), c.Customer.Billing.Email)
	if err != nil {
		return nil, err
	}
	q, err := Quote(items, Customer{Billing: c.Customer.Billing, Shipping: c.Customer.Shipping, RateID: c.Customer.ShippingRate,
		Coupons: coupons}, pr.Config)
	if err != nil {
		return nil, err
	}
	if extend && len(refused) > 0 && c.Exists {
		// A read drops the coupons that no longer pass (this answer says
		// why in its errors).
		cust := c.Customer
		cust.Coupons = codesOf(coupons)
		if err := s.Carts.SetCustomer(ctx, c.ID, cust); err != nil {
			s.warn("drop refused coupons", "err", err)
		}
	}
	return &PricedCart{Priced: p, Quote: q, Pricing: pr, Coupons: coupons, CouponErrors: refused, items: items}, nil
}

// Cart loads the session's cart and prices it in code's currency (a read:
// it extends a cart near its expiry).
func (s *Service) Cart(ctx context.Context, id, code string) (*PricedCart, error) {
	_, p, err := s.priced(ctx, id, code, true)
	return p, err
}

// priced loads the session's cart and prices it in code's currency
// (extend: as a read, which extends a cart near its expiry).
func (s *Service) priced(ctx context.Context, id, code string, extend bool) (*cart.Cart, *PricedCart, error) {
	c, err := s.Carts.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.Price(ctx, c, extend, code)
	return c, p, err
}

// SaleCurrency is the currency an order paid with m is placed in: code
// (the shopper's) when m takes it, else the base currency.
func (s *Service) SaleCurrency(m payment.Method, code string) string {
	if cl, ok := m.(payment.CurrencyLimited); ok && code != "" && !cl.TakesCurrency(code) {
		return s.config().Currency.Code
	}
	return code
}

// Draft is the session's cart for a draft order (the Store API's GET
// /checkout): ErrCartEmpty when it has no line.
func (s *Service) Draft(ctx context.Context, id string) (*cart.Cart, error) {
	c, err := s.Carts.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(c.Lines) == 0 {
		return nil, ErrCartEmpty
	}
	return c, nil
}

// SelectRate chooses the session's shipping rate: package must be "", "0"
// (the one package) and rate one the cart's destination offers now in
// the shopper's currency code (a free-shipping threshold is compared in
// it).
func (s *Service) SelectRate(ctx context.Context, id, pkg, rate, code string) error {
	if pkg != "" && pkg != "0" {
		return ErrInvalidPackage
	}
	c, cur, err := s.priced(ctx, id, code, false)
	if err != nil {
		return err
	}
	offered := false
	for _, p := range cur.Quote.Packages {
		for _, r := range p.Rates {
			offered = offered || (rate != "" && r.ID == rate)
		}
	}
	if !offered {
		return ErrInvalidRate
	}
	c.Customer.ShippingRate = rate
	return s.Carts.SetCustomer(ctx, id, c.Customer)
}

// PickRate stores the rate a no-script checkout form names, unchecked
// (Quote falls back to the first rate for an unknown id), on a cart with
// lines whose rate differs.
func (s *Service) PickRate(ctx context.Context, id, rate string) error {
	stored, err := s.Carts.Get(ctx, id)
	if err != nil || len(stored.Lines) == 0 || stored.Customer.ShippingRate == rate {
		return nil
	}
	stored.Customer.ShippingRate = rate
	return s.Carts.SetCustomer(ctx, id, stored.Customer)
}

// --- placing an order ---

// replayWindow: a double-submitted checkout whose first submit already
// emptied the cart gets the first order back within this window.
const replayWindow = 10 * time.Minute

// CurrencyChanged refuses an order whose review showed another currency
// than the one it would be placed in (409: the adapters answer the cart
// priced in cur, so the review shows the new totals).
func CurrencyChanged(cur currency.Currency) *cart.Error {
	return &cart.Error{Status: 409, Code: "woocommerce_rest_checkout_currency_changed",
		Message: fmt.Sprintf("Your order is now in %s: the currency was changed in another window. Please check the new total and place your order again.",
			html.EscapeString(cur.Code))}
}

// PlaceRequest is a checkout as a surface received it.
type PlaceRequest struct {
	Session     string
	CustomerID  int64 // the logged-in account placing it; 0 for a guest
	Billing     cart.Address
	Shipping    *cart.Address // nil: ship to the billing address
	Note        string
	Method      string
	Attribution map[string]string
	// Consent is what the request said about non-essential storage (its
	// consent cookie and Sec-GPC header): attribution it does not allow
	// is not kept (Service.ConsentAsked).
	Consent        consent.Signal
	TermsRequired  bool
	TermsAccepted  bool
	IdempotencyKey string // the client's (Idempotency-Key), or "": one is derived
	Body           []byte // the raw request, hashed for idempotency
	ClientIP       string
	UserAgent      string
	// InvalidPayment is the notice for an unknown or missing method ("":
	// the Store API's payment_method_disabled error).
	InvalidPayment string
	// MissingPayment, when set, refuses a request naming no method.
	MissingPayment *cart.Error
	// Currency is the shopper's currency ("": the base); the order is
	// placed in it unless the method does not take it (SaleCurrency).
	Currency string
	// ShownCurrency, when set, is the currency the shopper's order review
	// showed: an order that would be placed in another one (the currency
	// was switched in another window) is refused with CurrencyChanged.
	ShownCurrency string
	// CheckOnly runs the checks of PlaceOrder before the store's (fields,
	// terms, a cart with lines, its coupons, the payment method; not the
	// stock, which only placing checks) and places nothing: nil, nil when
	// they pass.
	CheckOnly bool
}

// PlaceOrder validates a checkout and places the order. Validation errors
// are *ValidationError; refusals are *cart.Error (ErrCartEmpty among
// them). After the order commits Placed is called and the addresses are
// remembered on the session.
func (s *Service) PlaceOrder(ctx context.Context, pr PlaceRequest) (*Order, error) {
	now := s.now()
	cfg := s.config()
	rules := cfg.AddressRules()
	verr := &ValidationError{}
	billing := pr.Billing
	verr.Fields = append(verr.Fields, ValidateAddress("billing", &billing, rules)...)
	var shipping cart.Address
	if pr.Shipping != nil {
		shipping = *pr.Shipping
		verr.Fields = append(verr.Fields, ValidateAddress("shipping", &shipping, AddressRules{Allowed: rules.Allowed})...)
	} else {
		shipping = billing
		shipping.Email = ""
	}
	if pr.TermsRequired && !pr.TermsAccepted {
		verr.Notices = append(verr.Notices, MsgTerms)
	}
	m, ok := s.Payments.Get(pr.Method)
	if len(verr.Fields) > 0 || len(verr.Notices) > 0 {
		if !ok && pr.InvalidPayment != "" {
			verr.Notices = append(verr.Notices, pr.InvalidPayment)
		}
		return nil, verr
	}
	// One load of the stored cart: its lines are priced for the checks and
	// the idempotency hash, its customer keeps the chosen shipping rate.
	stored, err := s.Carts.Get(ctx, pr.Session)
	if err != nil {
		return nil, err
	}
	code := pr.Currency
	if ok {
		code = s.SaleCurrency(m, code)
	}
	c, err := s.Price(ctx, stored, true, code)
	if err != nil {
		return nil, err
	}
	if ok && pr.ShownCurrency != "" && len(c.Lines) > 0 && !strings.EqualFold(strings.TrimSpace(pr.ShownCurrency), c.Pricing.Currency.Code) {
		return nil, CurrencyChanged(c.Pricing.Currency)
	}
	if len(c.CouponErrors) > 0 && len(c.Lines) > 0 {
		// A coupon the shopper saw no longer applies (it was dropped from
		// the cart): the review must show the new total first.
		return nil, couponRefusal(c.CouponErrors[0])
	}
	if !ok {
		if len(c.Lines) == 0 {
			return nil, ErrCartEmpty
		}
		if pr.Method == "" && pr.MissingPayment != nil {
			return nil, pr.MissingPayment
		}
		if pr.InvalidPayment != "" {
			return nil, &ValidationError{Notices: []string{pr.InvalidPayment}}
		}
		return nil, &cart.Error{Status: 400, Code: "woocommerce_rest_checkout_payment_method_disabled",
			Message: fmt.Sprintf("The %s payment gateway is not available.", html.EscapeString(pr.Method))}
	}
	if pr.CheckOnly {
		if len(c.Lines) == 0 {
			return nil, ErrCartEmpty
		}
		return nil, nil
	}
	status := StatusPending
	if om, ok := m.(payment.OfflineMethod); ok {
		status = om.PlacedStatus()
	}
	attribution := pr.Attribution
	if !pr.Consent.Allows(s.ConsentAsked != nil && s.ConsentAsked()) {
		attribution = nil // tracking the shopper refused, or never allowed
	}
	meta := AttributionMeta(attribution)
	if s.Meta != nil {
		s.Meta(meta, m)
	}
	if pr.ClientIP != "" {
		meta["_customer_ip_address"] = pr.ClientIP
	}
	if ua := Clean(pr.UserAgent); ua != "" {
		if len(ua) > 512 {
			ua = ua[:512]
		}
		meta["_customer_user_agent"] = ua
	}
	bodySum := sha256.Sum256(pr.Body)
	reqHash := hex.EncodeToString(bodySum[:])
	key, window := pr.IdempotencyKey, time.Duration(0)
	if key == "" {
		k := sha256.Sum256([]byte(pr.Session + "|" + c.Hash() + "|" + reqHash))
		key, window = hex.EncodeToString(k[:]), replayWindow
	}
	o, _, err := s.Store.PlaceOrder(ctx, PlaceOrderInput{Session: pr.Session, CustomerID: customerOf(pr.CustomerID, pr.Session),
		Customer:     Customer{Billing: billing, Shipping: shipping, RateID: stored.Customer.ShippingRate},
		CustomerNote: Clean(pr.Note), Method: m, Status: status, Config: c.Pricing.Config, Currency: c.Pricing.Table, Meta: meta,
		Coupons:          c.Coupons,
		IdempotencyScope: "checkout:" + pr.Session, IdempotencyKey: key, RequestHash: reqHash, ReplayWindow: window, Now: now})
	if err != nil {
		return nil, err
	}
	if s.Placed != nil {
		s.Placed()
	}
	// Remember the addresses for the next visit (WooCommerce keeps the
	// customer on the session).
	cust := stored.Customer
	cust.Billing, cust.Shipping, cust.Coupons = billing, shipping, nil
	if err := s.Store.SetCustomer(ctx, pr.Session, cust, now, s.expires(now)); err != nil {
		s.warn("save checkout customer", "err", err)
	}
	return o, nil
}

// PendingOrder is a session's cart placed as it is, for a payment that
// completes elsewhere (the wallet): the customer is the one the session
// has, with no form to validate, and the order waits, pending, for its
// payment.
type PendingOrder struct {
	Session    string
	CustomerID int64 // the logged-in account placing it; 0 for a guest
	Customer   Customer
	Method     payment.Method
	Meta       map[string]string
	// Currency is the shopper's ("": the base); see SaleCurrency.
	Currency string
	// IdempotencyScope, IdempotencyKey and RequestHash name the attempt
	// (see PlaceOrderInput).
	IdempotencyScope string
	IdempotencyKey   string
	RequestHash      string
}

// customerOf is the account an order belongs to: the one the adapter
// names, else the account whose cart it is (every placing path, the
// wallet's too, sells a customer's cart as theirs).
func customerOf(id int64, session string) int64 {
	if id != 0 {
		return id
	}
	return cart.SessionCustomer(session)
}

// PlacePending places a PendingOrder in one store transaction (stock
// taken, prices re-read, the cart emptied). No mail is queued: a pending
// order's mails go out when it is paid.
func (s *Service) PlacePending(ctx context.Context, in PendingOrder) (*Order, error) {
	c, err := s.Cart(ctx, in.Session, s.SaleCurrency(in.Method, in.Currency))
	if err != nil {
		return nil, err
	}
	if len(c.CouponErrors) > 0 && len(c.Lines) > 0 {
		return nil, couponRefusal(c.CouponErrors[0])
	}
	pricing := c.Pricing
	o, _, err := s.Store.PlaceOrder(ctx, PlaceOrderInput{Session: in.Session, CustomerID: customerOf(in.CustomerID, in.Session), Customer: in.Customer, Method: in.Method,
		Status: StatusPending, Config: pricing.Config, Currency: pricing.Table, Meta: in.Meta, Coupons: c.Coupons, IdempotencyScope: in.IdempotencyScope,
		IdempotencyKey: in.IdempotencyKey, RequestHash: in.RequestHash, Now: s.now()})
	return o, err
}

// --- the order-received page ---

// Received is a placed order as its order-received page shows it.
type Received struct {
	*Order
	// Instructions are the offline method's (bank details), or "".
	Instructions string
}

// OrderReceived finds the order an id and key name together: the key is
// compared in constant time, and an unknown id, a missing, overlong or
// wrong key are all ErrOrderNotFound, so an id alone reveals nothing.
func (s *Service) OrderReceived(ctx context.Context, id int64, key string) (*Received, error) {
	if id <= 0 || key == "" || len(key) > 64 {
		return nil, ErrOrderNotFound
	}
	o, err := s.Store.OrderByKey(ctx, key)
	if err != nil {
		return nil, err
	}
	if o.ID != id || !hmac.Equal([]byte(o.Key), []byte(key)) {
		return nil, ErrOrderNotFound
	}
	r := &Received{Order: o}
	if m, ok := s.Payments.Get(o.PaymentMethod); ok {
		if om, ok := m.(payment.OfflineMethod); ok {
			r.Instructions = om.Instructions()
		}
	}
	return r, nil
}

// --- rate limiting ---

// RateWindow is the checkout rate limit's window: limits are per minute.
const RateWindow = time.Minute

// Allow counts a checkout attempt against the session's and the client
// address's limits (Config.RateLimit and RateLimitPerAddress, per minute;
// 0 turns one off). The counters live in the store, so every instance on
// it shares them. It answers false, with the time until the window ends,
// when either is over its limit. A store error lets the attempt through
// (logged): placing the order will meet the same store.
func (s *Service) Allow(ctx context.Context, session, clientIP string) (time.Duration, bool) {
	cfg := s.config()
	if cfg.RateLimit <= 0 && cfg.RateLimitPerAddress <= 0 {
		return 0, true
	}
	hits := []RateHit{{Key: "checkout:s:" + session, Limit: cfg.RateLimit}}
	if addr := AddressKey(clientIP); addr != "" {
		hits = append(hits, RateHit{Key: "checkout:a:" + addr, Limit: cfg.RateLimitPerAddress})
	}
	wait, ok, err := s.Store.HitRateLimits(ctx, hits, RateWindow, s.now())
	if err != nil {
		if ctx.Err() == nil {
			s.warn("checkout rate limit", "err", err)
		}
		return 0, true
	}
	return wait, ok
}

// AddressKey is the client address a per-address limit counts: the IPv4
// address, or the /64 an IPv6 client holds (one subscriber's prefix); ""
// when ip is not an address.
func AddressKey(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	addr = addr.Unmap()
	if addr.Is6() {
		if p, err := addr.Prefix(64); err == nil {
			return p.String()
		}
	}
	return addr.String()
}

// AddressLimit is a rate limit per client address: Limit hits per Window,
// counted under Prefix and the address's AddressKey. Requests without an
// address share one allowance.
type AddressLimit struct {
	Prefix string
	Limit  int
	Window time.Duration
}

// PerAddress is the limit counted under prefix: limit hits per window,
// each taken from its default when 0 or less.
func PerAddress(prefix string, limit, defLimit int, window, defWindow time.Duration) AddressLimit {
	if limit <= 0 {
		limit = defLimit
	}
	if window <= 0 {
		window = defWindow
	}
	return AddressLimit{Prefix: prefix, Limit: limit, Window: window}
}

// Hit counts a request from clientIP at now through hit (a store's
// HitRateLimits), and answers as it does.
func (l AddressLimit) Hit(ctx context.Context, hit func(context.Context, []RateHit, time.Duration, time.Time) (time.Duration, bool, error),
	clientIP string, now time.Time) (time.Duration, bool, error) {
	key := AddressKey(clientIP)
	if key == "" {
		key = "unknown"
	}
	return hit(ctx, []RateHit{{Key: l.Prefix + key, Limit: l.Limit}}, l.Window, now)
}

// DeleteExpiredRateLimits removes the counters whose window ended.
func (s *Service) DeleteExpiredRateLimits(ctx context.Context) (int64, error) {
	return s.Store.DeleteExpiredRateLimits(ctx, s.now())
}

// --- held stock ---

// Held stock (WooCommerce's "hold stock", HoldStock): an order placed with
// an offline method that waits for the buyer's payment holds its units;
// when it is still unpaid and unchanged after the hold, it is cancelled
// and its units go back on sale. Which orders: those of the offline
// methods whose orders are placed on-hold (bank transfer), while on-hold,
// unpaid and with no payment under way. Never cash on delivery (placed
// processing: paid when delivered, the goods are on their way) nor wallet
// orders (pending at PayPal: the wallet reconciler cancels the abandoned
// ones after asking PayPal). Both use the same store mechanism: a
// conditional UPDATE and the stock restored in its transaction, so with
// several instances each order is released and its stock restored exactly
// once.

// awaitingPaymentMethods are the offline methods whose orders wait on-hold
// for the buyer's payment.
func (s *Service) awaitingPaymentMethods() []string {
	var ids []string
	for _, m := range s.Payments.List() {
		if om, ok := m.(payment.OfflineMethod); ok && om.PlacedStatus() == StatusOnHold {
			ids = append(ids, m.ID())
		}
	}
	return ids
}

// ReleaseHeldStock cancels the unpaid orders whose hold ended and puts
// their units back in stock; it reports how many this call cancelled
// (another instance may release some of them first). With HoldStock 0 it
// does nothing.
func (s *Service) ReleaseHeldStock(ctx context.Context) (int, error) {
	if s.HoldStock <= 0 {
		return 0, nil
	}
	methods := s.awaitingPaymentMethods()
	cutoff := s.now().Add(-s.HoldStock)
	released := 0
	for {
		orders, err := s.Store.AwaitingPaymentOrders(ctx, methods, cutoff)
		if err != nil {
			return released, err
		}
		n := 0
		for _, o := range orders {
			ok, err := s.Store.ReleaseHeldOrder(ctx, o.ID, methods, cutoff, s.now())
			if err != nil {
				return released, err
			}
			if ok {
				n++
				if s.Log != nil {
					s.Log.Info("unpaid order cancelled: hold stock ended", "order", o.ID, "method", o.PaymentMethod)
				}
			}
		}
		released += n
		if len(orders) < 200 || n == 0 {
			return released, nil
		}
	}
}

// config is the checkout's settings in force.
func (s *Service) config() *Config {
	if s.Live != nil {
		return s.Live()
	}
	return s.Config
}
