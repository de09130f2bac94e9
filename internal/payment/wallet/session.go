package wallet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"html"
	"net"
	"net/url"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/consent"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// The use cases of a visitor's session: the checkout form, creating an
// order, and the cart of the product and cart buttons.

// --- forms ---

// formAddress reads billing_* or shipping_* fields of a posted form.
func formAddress(form url.Values, group string) cart.Address {
	var a cart.Address
	for _, k := range checkout.AddressFields {
		checkout.SetAddressValue(&a, k, form.Get(group+"_"+k))
	}
	return a
}

// checkoutForm is the classic checkout form as the wallet receives it
// (form_encoded).
type checkoutForm struct {
	values      url.Values
	billing     cart.Address
	shipping    *cart.Address
	terms       bool
	rate        string
	note        string
	attribution map[string]string
}

func parseCheckoutForm(raw string) (*checkoutForm, error) {
	if len(raw) > 64<<10 {
		return nil, ErrBadRequest
	}
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil, ErrBadRequest
	}
	f := &checkoutForm{values: v, billing: formAddress(v, "billing"), terms: v.Get("terms") != "",
		rate: strings.TrimSpace(v.Get("shipping_method[0]")), note: v.Get("order_comments"),
		attribution: checkout.AttributionFromForm(v)}
	if v.Get("ship_to_different_address") != "" {
		sh := formAddress(v, "shipping")
		f.shipping = &sh
	}
	return f, nil
}

// validateForm checks the form as placing the order would (the same
// address rules and terms), without placing anything.
func (s *Service) validateForm(f *checkoutForm) *checkout.ValidationError {
	rules := s.d.Config.AddressRules()
	verr := &checkout.ValidationError{}
	billing := f.billing
	verr.Fields = append(verr.Fields, checkout.ValidateAddress("billing", &billing, rules)...)
	if f.shipping != nil {
		shipping := *f.shipping
		verr.Fields = append(verr.Fields, checkout.ValidateAddress("shipping", &shipping, checkout.AddressRules{Allowed: rules.Allowed})...)
	}
	if s.d.Config.Terms != nil && !f.terms {
		verr.Notices = append(verr.Notices, checkout.MsgTerms)
	}
	if len(verr.Fields) == 0 && len(verr.Notices) == 0 {
		return nil
	}
	return verr
}

// ValidateForm checks a session's checkout form (form_encoded) before the
// buyer is sent to PayPal: nil, or a *Refusal with every message (an empty
// cart refreshes the page).
func (s *Service) ValidateForm(ctx context.Context, session, formEncoded string) error {
	f, c, err := s.formAndCart(ctx, session, formEncoded)
	if err != nil {
		return err
	}
	if len(c.Lines) == 0 {
		return refuseEmpty()
	}
	if verr := s.validateForm(f); verr != nil {
		return &Refusal{Message: MsgInvalid, Errors: verr.Messages()}
	}
	return nil
}

// SaveForm keeps the entered addresses (and rate) on the session, so the
// checkout shows them again after a redirect.
func (s *Service) SaveForm(ctx context.Context, session, formEncoded string) error {
	f, c, err := s.formAndCart(ctx, session, formEncoded)
	if err != nil {
		return err
	}
	if !c.Exists {
		return refuseEmpty()
	}
	cust := c.Customer
	cust.Billing = cleanAddress(f.billing)
	if f.shipping != nil {
		cust.Shipping = cleanAddress(*f.shipping)
		cust.Shipping.Email = ""
	} else {
		cust.Shipping = cust.Billing
		cust.Shipping.Email = ""
	}
	if f.rate != "" && len(f.rate) <= 64 {
		cust.ShippingRate = f.rate
	}
	return s.d.Checkout.SetCustomer(ctx, session, cust)
}

// formAndCart parses a session's checkout form (form_encoded) and reads
// its cart.
func (s *Service) formAndCart(ctx context.Context, session, formEncoded string) (*checkoutForm, *cart.Cart, error) {
	f, err := parseCheckoutForm(formEncoded)
	if err != nil {
		return f, nil, err
	}
	c, err := s.d.Checkout.Cart(ctx, session)
	return f, c, err
}

// cleanAddress trims and bounds every field.
func cleanAddress(a cart.Address) cart.Address {
	for _, k := range checkout.AddressFields {
		checkout.SetAddressValue(&a, k, truncateRunes(checkout.Clean(checkout.AddressValue(&a, k)), 200))
	}
	return a
}

// --- creating an order ---

// CreateRequest is a press of a wallet button (ppc-create-order).
type CreateRequest struct {
	Session       string
	Context       string // checkout, product, cart, cart-block
	PaymentMethod string
	FundingSource string
	FormEncoded   string // the checkout form (context checkout)
	Remote        string // the client's address (host:port)
	UserAgent     string
	// Consent is the request's consent cookie and Sec-GPC header
	// (checkout.PlaceRequest.Consent).
	Consent consent.Signal
	// Currency is the shopper's currency ("": the base): the order is
	// placed in it when PayPal takes it, else in the base (SaleCurrency).
	Currency string
}

// Created is a placed order and its PayPal order.
type Created struct {
	Order      *checkout.Order
	PayPal     *paypal.Order
	ApproveURL string
}

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// CreateOrder places the shop's order (status pending, stock held, no
// mails yet) and creates the PayPal order from the order's own totals.
//
// Context checkout: the posted form is validated like the classic
// checkout. product, cart and cart-block: the order is the session's cart
// with the session's addresses (the payer's fill the rest at approval).
// The order and its PayPal order are in SaleCurrency(in.Currency).
// The cart is kept until the order is paid; the session's earlier unpaid
// wallet orders are cancelled first (their stock comes back). One session
// creates one order at a time.
func (s *Service) CreateOrder(ctx context.Context, in CreateRequest) (*Created, error) {
	switch in.PaymentMethod {
	case "", payment.WalletGatewayID:
	default:
		return nil, ErrMethod
	}
	switch in.FundingSource {
	case "", "paypal", "paylater":
	default:
		return nil, ErrFunding
	}
	var form *checkoutForm
	switch in.Context {
	case "checkout":
		f, err := parseCheckoutForm(in.FormEncoded)
		if err != nil {
			return nil, err
		}
		form = f
	case "product", "cart", "cart-block":
	default:
		return nil, ErrContext
	}
	now := s.now()
	code := s.SaleCurrency(in.Currency)
	lock := s.sessionLock(in.Session)
	lock.Lock()
	defer lock.Unlock()
	stored, err := s.d.Checkout.Cart(ctx, in.Session)
	if err != nil {
		return nil, err
	}
	if len(stored.Lines) == 0 {
		return nil, refuseEmpty()
	}
	if form != nil {
		if verr := s.validateForm(form); verr != nil {
			return nil, &Refusal{Message: MsgInvalid, Errors: verr.Messages()}
		}
	}
	// The buyer starts over: earlier unpaid wallet orders of this session
	// give their stock back before the new order takes it.
	if open, err := s.d.Store.OpenWalletOrders(ctx, in.Session, payment.WalletGatewayID); err == nil {
		for _, o := range open {
			if _, err := s.d.Store.CancelUnpaidOrder(ctx, o.ID, now); err != nil {
				s.log.Warn("wallet: cancel an earlier order", "order", o.ID, "err", err)
			}
		}
	} else {
		s.log.Warn("wallet: earlier orders", "err", err)
	}
	var o *checkout.Order
	shipPref := paypal.ShippingPreferenceProvided
	if form != nil {
		if form.rate != "" && form.rate != stored.Customer.ShippingRate && len(form.rate) <= 64 {
			cust := stored.Customer
			cust.ShippingRate = form.rate
			if err := s.d.Checkout.SetCustomer(ctx, in.Session, cust); err != nil {
				return nil, err
			}
		}
		o, err = s.d.Checkout.PlaceFormOrder(ctx, checkout.PlaceRequest{Session: in.Session, Billing: form.billing, Shipping: form.shipping,
			Note: form.note, Method: payment.WalletGatewayID, Attribution: form.attribution, Consent: in.Consent, TermsRequired: s.d.Config.Terms != nil,
			TermsAccepted: form.terms, IdempotencyKey: "wallet-" + randomKey(), Body: []byte(in.FormEncoded + "|" + in.FundingSource),
			ClientIP: clientIP(in.Remote), UserAgent: in.UserAgent, InvalidPayment: "Invalid payment method.", Currency: code})
	} else {
		shipPref = paypal.ShippingPreferenceFromFile
		o, err = s.placeCartOrder(ctx, in, stored, code)
	}
	var ve *checkout.ValidationError
	var ce *cart.Error
	switch {
	case errors.As(err, &ve):
		return nil, &Refusal{Message: MsgInvalid, Errors: ve.Messages()}
	case errors.As(err, &ce):
		msg := html.UnescapeString(ce.Message)
		return nil, &Refusal{Message: msg, Errors: []string{msg}, Refresh: true}
	case err != nil:
		return nil, err
	}
	// The cart stays until the order is paid.
	if err := s.d.Checkout.RestoreLines(ctx, in.Session, stored.Lines); err != nil {
		s.log.Warn("wallet: keep the cart", "err", err)
	}
	ppo, err := s.startPayment(ctx, o, shipPref)
	if err != nil {
		if _, cerr := s.d.Store.CancelUnpaidOrder(ctx, o.ID, s.now()); cerr != nil {
			s.log.Error("wallet: cancel an order PayPal refused", "order", o.ID, "err", cerr)
		}
		return nil, err
	}
	return &Created{Order: o, PayPal: ppo, ApproveURL: ppo.ApproveURL()}, nil
}

// placeCartOrder places the session's cart as a wallet order with the
// session's addresses, without the checkout form (product and cart
// buttons). The totals are those of the session's address, or of the
// shop's base country when it has none.
func (s *Service) placeCartOrder(ctx context.Context, in CreateRequest, stored *cart.Cart, code string) (*checkout.Order, error) {
	cust := stored.Customer
	billing, shipping := cleanAddress(cust.Billing), cleanAddress(cust.Shipping)
	if shipping.Country == "" {
		shipping = billing
	}
	shipping.Email = ""
	meta := map[string]string{}
	s.MarkTestPayment(meta, s.method)
	if ip := clientIP(in.Remote); ip != "" {
		meta["_customer_ip_address"] = ip
	}
	if ua := truncateRunes(checkout.Clean(in.UserAgent), 512); ua != "" {
		meta["_customer_user_agent"] = ua
	}
	return s.d.Checkout.PlaceCartOrder(ctx, checkout.PendingOrder{Session: in.Session, Method: s.method,
		Customer: checkout.Customer{Billing: billing, Shipping: shipping, RateID: cust.ShippingRate},
		Meta:     meta, IdempotencyScope: "wallet:" + in.Session, IdempotencyKey: randomKey(), RequestHash: "cart", Currency: code})
}

func clientIP(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return ""
	}
	return host
}

// --- the cart of product and cart buttons ---

// Product is one product a product or cart button posts: the id and
// quantity as sent (a JSON number or string), and the chosen variation.
type Product struct {
	ID         string
	Quantity   string
	Variations []cart.Attr
}

var errBadProductID = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "This product cannot be added to the cart."}

// cartError is a cart refusal (a product, a quantity) as an *Error named
// by its code; other errors are kept.
func cartError(err error) error {
	var ce *cart.Error
	if errors.As(err, &ce) {
		return &Error{Name: ce.Code, Message: html.UnescapeString(ce.Message)}
	}
	return err
}

// parseProduct reads a posted product's id and quantity (absent: 1).
func parseProduct(p Product) (id, qty int64, err error) {
	id, err = strconv.ParseInt(p.ID, 10, 64)
	if err != nil || id <= 0 {
		return 0, 0, errBadProductID
	}
	qty = 1
	if q := p.Quantity; q != "" && q != "null" {
		if qty, err = cart.ParseQuantity(q); err != nil {
			return 0, 0, err
		}
	}
	return id, qty, nil
}

// lines resolves posted products into priced cart lines (catalogue prices;
// anything else posted is ignored), with the products by id.
func (s *Service) lines(ctx context.Context, products []Product) ([]cart.Line, map[int64]*catalog.Product, error) {
	if len(products) == 0 || len(products) > 20 {
		return nil, nil, &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "No product to buy was given."}
	}
	byID := map[int64]*catalog.Product{}
	var lines []cart.Line
	for _, p := range products {
		id, qty, err := parseProduct(p)
		if err != nil {
			return nil, nil, err
		}
		sell, parent, line, err := s.d.Checkout.ResolveLine(ctx, id, p.Variations)
		if err != nil {
			return nil, nil, err
		}
		if err := cart.CheckQuantityHeld(cart.WithStock(sell, parent), qty, 0, 0, true); err != nil {
			return nil, nil, err
		}
		line.Quantity = qty
		byID[sell.ID] = sell
		if parent != nil {
			byID[parent.ID] = parent
		}
		lines = append(lines, line)
	}
	return lines, byID, nil
}

// Simulate prices what the session's cart would cost if it held only the
// posted products, on a copy that is never written (the product page's
// Pay Later message and button state), in SaleCurrency(code). A cart
// refusal is an *Error.
func (s *Service) Simulate(ctx context.Context, session, code string, products []Product) (QuotedCart, error) {
	lines, byID, err := s.lines(ctx, products)
	if err != nil {
		return QuotedCart{}, cartError(err)
	}
	c, err := s.d.Checkout.Cart(ctx, session)
	if err != nil {
		return QuotedCart{}, err
	}
	return s.d.Checkout.QuoteLines(ctx, lines, byID, c.Customer, s.SaleCurrency(code))
}

// ChangeCart makes the session's cart the posted products (the product
// page's button buys what is on the page); everything is checked before
// the cart changes. It answers the new cart and its purchase unit, in
// SaleCurrency(code).
func (s *Service) ChangeCart(ctx context.Context, session, code string, products []Product) (QuotedCart, paypal.PurchaseUnit, error) {
	if _, _, err := s.lines(ctx, products); err != nil {
		return QuotedCart{}, paypal.PurchaseUnit{}, cartError(err)
	}
	c, err := s.d.Checkout.Cart(ctx, session)
	if err != nil {
		return QuotedCart{}, paypal.PurchaseUnit{}, err
	}
	for _, l := range c.Lines {
		if err := s.d.Checkout.RemoveLine(ctx, session, l.Key); err != nil && !errors.Is(err, cart.ErrInvalidKey) {
			return QuotedCart{}, paypal.PurchaseUnit{}, err
		}
	}
	for _, p := range products {
		id, qty, _ := parseProduct(p) // checked above
		if err := s.d.Checkout.AddToCart(ctx, session, id, qty, p.Variations); err != nil {
			return QuotedCart{}, paypal.PurchaseUnit{}, cartError(err)
		}
	}
	return s.cartUnit(ctx, session, code)
}

// cartUnit quotes a session's cart in SaleCurrency(code) and answers it
// with its purchase unit.
func (s *Service) cartUnit(ctx context.Context, session, code string) (QuotedCart, paypal.PurchaseUnit, error) {
	qc, err := s.d.Checkout.QuoteCart(ctx, session, s.SaleCurrency(code))
	if err != nil {
		return QuotedCart{}, paypal.PurchaseUnit{}, err
	}
	pu, err := quoteUnit(qc)
	return qc, pu, err
}

// ShippingChange is a shipping address or option chosen in PayPal's
// window (ppc-update-shipping).
type ShippingChange struct {
	Address  *paypal.Address
	OptionID string
}

// UpdateShipping updates the session's customer from a change in PayPal's
// window (only country, state, postcode and city of the address) and
// answers the re-priced cart's purchase unit, in SaleCurrency(code).
// Placed orders are never re-priced here. A country the shop does not know
// is ErrCountry.
func (s *Service) UpdateShipping(ctx context.Context, session, code string, ch ShippingChange) (paypal.PurchaseUnit, error) {
	c, err := s.d.Checkout.Cart(ctx, session)
	if err != nil {
		return paypal.PurchaseUnit{}, err
	}
	if len(c.Lines) == 0 {
		return paypal.PurchaseUnit{}, refuseEmpty()
	}
	cust := c.Customer
	if a := ch.Address; a != nil {
		country := strings.ToUpper(strings.TrimSpace(a.CountryCode))
		if _, ok := checkout.LookupCountry(country); !ok {
			return paypal.PurchaseUnit{}, ErrCountry
		}
		cust.Shipping.Country = country
		cust.Shipping.State = truncateRunes(checkout.Clean(a.AdminArea1), 100)
		cust.Shipping.Postcode = truncateRunes(checkout.Clean(a.PostalCode), 20)
		cust.Shipping.City = truncateRunes(checkout.Clean(a.AdminArea2), 100)
	}
	if id := ch.OptionID; id != "" && len(id) <= 64 {
		cust.ShippingRate = id
	}
	if err := s.d.Checkout.SetCustomer(ctx, session, cust); err != nil {
		return paypal.PurchaseUnit{}, err
	}
	_, pu, err := s.cartUnit(ctx, session, code)
	return pu, err
}

// SetShippingRate chooses the session's shipping rate (WooCommerce core's
// update_shipping_method; a rate that is empty or too long is ignored) and
// answers the re-priced cart in SaleCurrency(code).
func (s *Service) SetShippingRate(ctx context.Context, session, code, rate string) (QuotedCart, error) {
	c, err := s.d.Checkout.Cart(ctx, session)
	if err == nil && rate != "" && len(rate) <= 64 && c.Exists && c.Customer.ShippingRate != rate {
		cust := c.Customer
		cust.ShippingRate = rate
		err = s.d.Checkout.SetCustomer(ctx, session, cust)
	}
	if err != nil {
		return QuotedCart{}, err
	}
	return s.d.Checkout.QuoteCart(ctx, session, s.SaleCurrency(code))
}

// Cart is the session's priced cart (the buttons' amounts) in
// SaleCurrency(code).
func (s *Service) Cart(ctx context.Context, session, code string) (QuotedCart, error) {
	return s.d.Checkout.QuoteCart(ctx, session, s.SaleCurrency(code))
}
