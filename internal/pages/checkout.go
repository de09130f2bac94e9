package pages

import (
	"context"
	"slices"
	"strconv"
	"time"

	"vitrine/internal/address"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
)

// The checkout page (/checkout/) and the order-received page
// (/checkout/order-received/{id}/?key=…). Both are per visitor: the server
// renders them per request and never caches them. The server builds the
// parts that need the session (cart, nonces, entered values, errors); the
// loader adds the page frame and the shop's country and payment tables.

// CountryFields is one country as the checkout form needs it.
type CountryFields struct {
	Code   string                    `json:"code"`
	Name   string                    `json:"name"`
	States []checkout.State          `json:"states"`
	Fields map[string]checkout.Field `json:"fields"`
}

// PaymentMethodView is one payment method offered.
type PaymentMethodView struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Kind        string `json:"kind"` // offline or wallet
}

// BillingAddress is an address that always carries email.
type BillingAddress struct {
	cart.Address
	Email string `json:"email"`
}

// NewBillingAddress wraps a billing address for output.
func NewBillingAddress(a cart.Address) BillingAddress {
	email := a.Email
	a.Email = ""
	return BillingAddress{Address: a, Email: email}
}

// CheckoutValues are the form's values.
type CheckoutValues struct {
	BillingAddress         BillingAddress `json:"billing_address"`
	ShippingAddress        cart.Address   `json:"shipping_address"`
	CustomerNote           string         `json:"customer_note"`
	PaymentMethod          string         `json:"payment_method"`
	ShipToDifferentAddress bool           `json:"ship_to_different_address"`
	// CreateAccount is a visitor's "Create an account?" choice (the
	// password is never sent back).
	CreateAccount bool `json:"create_account"`
}

// CheckoutErrors are a refused no-script submit's messages, as any
// refused form's (FormErrors): fields by classic field name
// ("billing_email").
type CheckoutErrors = FormErrors

// CheckoutPage is the checkout page's data (web/src/types.ts CheckoutPage).
type CheckoutPage struct {
	Base
	Cart           any                 `json:"cart"`
	Nonce          string              `json:"nonce"`
	Checkout       CheckoutValues      `json:"checkout"`
	Countries      []CountryFields     `json:"countries"`
	PaymentMethods []PaymentMethodView `json:"payment_methods"`
	Terms          *checkout.Terms     `json:"terms"`
	Errors         *CheckoutErrors     `json:"errors"`
	ProcessNonce   string              `json:"process_nonce"`
	// Wallet carries the wallet endpoints' nonces; null without the wallet.
	Wallet *WalletView `json:"wallet"`
	// CanCreateAccount offers "Create an account?" (visitors only).
	CanCreateAccount bool `json:"can_create_account"`
}

// WalletView is the wallet's part of the checkout page: a nonce per
// wallet endpoint name (ppc-validate-checkout, ppc-create-order, …).
type WalletView struct {
	Nonces map[string]string `json:"nonces"`
}

// CheckoutInput is what the server hands the loader.
type CheckoutInput struct {
	Cart           any
	Nonce          string
	ProcessNonce   string
	Values         CheckoutValues
	Config         *checkout.Config
	PaymentMethods []PaymentMethodView
	Errors         *CheckoutErrors
	Status         int         // 200, or 400/403 for a refused submit
	Wallet         *WalletView // nil without the wallet
	// CanCreateAccount: the viewer is a visitor (customers have one).
	CanCreateAccount bool
	// Terms are the terms the lightbox shows (the shop's terms page);
	// nil: Config.Terms.
	Terms *checkout.Terms
}

// CountryTable lists the countries the config sells to, with their rules.
func CountryTable(cfg *checkout.Config) []CountryFields {
	rules := cfg.AddressRules()
	out := []CountryFields{}
	for _, c := range checkout.Countries() {
		if len(rules.Allowed) > 0 && !slices.Contains(rules.Allowed, c.Code) {
			continue
		}
		cf := CountryFields{Code: c.Code, Name: c.Name, States: append([]checkout.State{}, c.States...), Fields: map[string]checkout.Field{}}
		for _, f := range checkout.LocaleFields {
			cf.Fields[f] = c.FieldRule(f)
		}
		out = append(out, cf)
	}
	return out
}

// Checkout loads the checkout page.
func (l *Loader) Checkout(ctx context.Context, reqURL string, in CheckoutInput) (*Result, error) {
	e, err := l.setup(ctx, "checkout", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.privateHead("Checkout", "/checkout/", "Check out of "+l.live().SiteName+": your address, delivery and payment.")
	status := in.Status
	if status == 0 {
		status = 200
	}
	terms := in.Terms
	if terms == nil {
		terms = in.Config.Terms
	}
	methods := in.PaymentMethods
	if methods == nil {
		methods = []PaymentMethodView{}
	}
	return &Result{Status: status, Head: h, Data: CheckoutPage{Base: e.base, Cart: in.Cart, Nonce: in.Nonce,
		Checkout: in.Values, Countries: CountryTable(in.Config), PaymentMethods: methods, Terms: terms,
		Errors: in.Errors, ProcessNonce: in.ProcessNonce, Wallet: in.Wallet, CanCreateAccount: in.CanCreateAccount}}, nil
}

// OrderLineView is one bought line as the order-received page shows it.
type OrderLineView struct {
	Name      string      `json:"name"`
	Quantity  int64       `json:"quantity"`
	Variation []cart.Attr `json:"variation"`
	Total     string      `json:"total"`
}

// OrderTotal is one row of the order's totals.
type OrderTotal struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// OrderView is an order as the order-received page shows it.
type OrderView struct {
	ID                 int64           `json:"id"`
	Number             string          `json:"number"`
	Key                string          `json:"key"`
	Status             string          `json:"status"`
	DateCreated        string          `json:"date_created"` // RFC 3339, for <time>
	Date               string          `json:"date"`         // as shown ("May 1, 2026")
	Currency           money.Currency  `json:"currency"`
	PaymentMethod      string          `json:"payment_method"`
	PaymentMethodTitle string          `json:"payment_method_title"`
	Instructions       string          `json:"instructions"`
	CustomerNote       string          `json:"customer_note"`
	Lines              []OrderLineView `json:"lines"`
	Totals             []OrderTotal    `json:"totals"`
	BillingAddress     BillingAddress  `json:"billing_address"`
	ShippingAddress    cart.Address    `json:"shipping_address"`
	// BillingLines and ShippingLines are the addresses as their countries
	// write them (internal/address), one text line each; the loader fills
	// them. ShippingLines is empty when the order has no shipping address.
	BillingLines  []string `json:"billing_address_lines"`
	ShippingLines []string `json:"shipping_address_lines"`
	// BankAccounts are the shop's accounts for a bank transfer, each a
	// list of labelled values (the order-received page's "Our bank
	// details"); empty for other methods.
	BankAccounts []BankAccountView `json:"bank_accounts"`
	// TestOrder marks an order paid (or to be paid) in a payment sandbox;
	// TestNotice is the sentence the page shows for it.
	TestOrder  bool   `json:"test_order"`
	TestNotice string `json:"test_notice,omitempty"`
}

// BankAccountView is one of the shop's bank accounts as the order-received
// page lists it.
type BankAccountView struct {
	Details []payment.Detail `json:"details"`
}

// NewBankAccounts lists the accounts' filled-in details, the sort code
// named as country (the shop's) names it; accounts with nothing filled in
// are left out.
func NewBankAccounts(accounts []payment.BankAccount, country string) []BankAccountView {
	out := []BankAccountView{}
	for _, a := range accounts {
		if d := a.Details(country); len(d) > 0 {
			out = append(out, BankAccountView{Details: d})
		}
	}
	return out
}

// formatAddresses fills the address lines, the shop's own country (base)
// left out.
func (v *OrderView) formatAddresses(base string) {
	v.BillingLines = nonNil(address.Format(v.BillingAddress.Address, base))
	v.ShippingLines = []string{}
	if !address.Blank(v.ShippingAddress) {
		v.ShippingLines = nonNil(address.Format(v.ShippingAddress, base))
	}
}

func nonNil(lines []string) []string {
	if lines == nil {
		return []string{}
	}
	return lines
}

// OrderReceivedPage is the order-received page's data.
type OrderReceivedPage struct {
	Base
	Order *OrderView `json:"order"`
}

// NewOrderView shapes an order for the page: amounts formatted in the
// order's currency, totals in WooCommerce's order (subtotal, discount,
// shipping, fees, tax lines, payment method, total).
func NewOrderView(o *checkout.Order, cur money.Currency, instructions string) *OrderView {
	v := &OrderView{ID: o.ID, Number: o.Number, Key: o.Key, Status: o.Status, DateCreated: o.CreatedAt.UTC().Format(time.RFC3339),
		Date: formatDate(o.CreatedAt), Currency: cur, PaymentMethod: o.PaymentMethod, PaymentMethodTitle: o.PaymentMethodTitle, Instructions: instructions,
		CustomerNote: o.CustomerNote, Lines: []OrderLineView{}, BillingAddress: NewBillingAddress(o.Billing),
		ShippingAddress: o.Shipping, BankAccounts: []BankAccountView{}}
	v.ShippingAddress.Email = ""
	for _, l := range o.Lines {
		attrs := l.Variation
		if attrs == nil {
			attrs = []cart.Attr{}
		}
		v.Lines = append(v.Lines, OrderLineView{Name: l.Name, Quantity: l.Quantity, Variation: attrs, Total: cur.Format(l.Subtotal)})
	}
	v.Totals = append(v.Totals, OrderTotal{"Subtotal:", cur.Format(o.ItemsSubtotal)})
	if o.DiscountTotal > 0 {
		// As the subtotal is written: with its tax when prices include tax.
		d := o.DiscountTotal
		if o.PricesIncludeTax {
			d += o.DiscountTax
		}
		v.Totals = append(v.Totals, OrderTotal{"Discount:", "-" + cur.Format(d)})
	}
	for _, s := range o.ShippingLines {
		value := "Free shipping"
		if s.Total > 0 {
			value = cur.Format(s.Total) + " via " + s.Title
		} else if s.MethodID != checkout.FreeShipping {
			value = s.Title
		}
		v.Totals = append(v.Totals, OrderTotal{"Shipping:", value})
	}
	for _, f := range o.FeeLines { // an order moved in from WooCommerce may carry fees
		amount := f.Total
		if o.PricesIncludeTax {
			amount += f.TotalTax
		}
		v.Totals = append(v.Totals, OrderTotal{f.Name + ":", cur.Format(amount)})
	}
	for _, t := range o.TaxLines {
		v.Totals = append(v.Totals, OrderTotal{t.Label + ":", cur.Format(t.Amount())})
	}
	v.Totals = append(v.Totals, OrderTotal{"Payment method:", o.PaymentMethodTitle}, OrderTotal{"Total:", cur.Format(o.Total)})
	return v
}

// OrderReceived loads the order-received page. A nil order (unknown id, or
// a missing or wrong key) is a 404 that shows no order data.
func (l *Loader) OrderReceived(ctx context.Context, reqURL string, order *OrderView) (*Result, error) {
	e, err := l.setup(ctx, "order-received", reqURL)
	if err != nil {
		return nil, err
	}
	title := "Order received"
	status := 200
	if order == nil {
		status = 404
	} else {
		title = "Order #" + strconv.FormatInt(order.ID, 10) + " received"
		order.formatAddresses(l.BaseCountry)
	}
	h := l.privateHead(title, "", "Your order at "+l.live().SiteName+".")
	return &Result{Status: status, Head: h, Data: OrderReceivedPage{Base: e.base, Order: order}}, nil
}
