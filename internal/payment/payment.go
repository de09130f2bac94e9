// Package payment is the one provider interface of the checkout, the
// registry of enabled methods, and the two offline methods that work out of
// the box: bank transfer (bacs) and cash on delivery (cod). Wallet gateways
// (PayPal, in paypal/) register into the same registry.
package payment

import (
	"strings"
	"sync"
)

// Method is a payment method the checkout offers.
type Method interface {
	// ID is the gateway id the Store API's payment_method names ("bacs").
	ID() string
	Title() string
	// Description is shown under the method on the checkout page.
	Description() string
	// Offline methods complete the checkout without a provider round trip.
	Offline() bool
}

// OfflineMethod is an offline method: the order's status when placed, and
// the instructions shown on the order-received page and mailed.
type OfflineMethod interface {
	Method
	PlacedStatus() string
	Instructions() string
}

// CurrencyLimited is a method that takes payment only in some currencies
// (a wallet provider's list). An order paid with it is placed in the
// shopper's currency when the method takes it, else in the shop's base
// currency. Methods without it take every currency.
type CurrencyLimited interface {
	Method
	TakesCurrency(code string) bool
}

// BankAccount is one account bank-transfer instructions list.
type BankAccount struct {
	AccountName   string `json:"account_name"`
	BankName      string `json:"bank_name"`
	AccountNumber string `json:"account_number"`
	RoutingNumber string `json:"routing_number"` // sort code / routing number
	IBAN          string `json:"iban"`
	BIC           string `json:"bic"`
}

// Gateway ids.
const (
	BankTransferID   = "bacs"
	CashOnDeliveryID = "cod"
	WalletGatewayID  = "ppcp-gateway"
	statusOnHold     = "on-hold"
	statusProcessing = "processing"
	bacsDescription  = "Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account."
	codDescription   = "Pay with cash upon delivery."
)

// BankTransfer is the bacs method: the order waits on-hold until the money
// arrives; its accounts are the shop's, listed with their Details. Label and
// Text replace the default title and description when set (the admin's
// payments settings).
type BankTransfer struct {
	Label, Text string
	Accounts    []BankAccount
}

func (BankTransfer) ID() string            { return BankTransferID }
func (b BankTransfer) Title() string       { return or(b.Label, "Direct bank transfer") }
func (b BankTransfer) Description() string { return or(b.Text, bacsDescription) }
func (BankTransfer) Offline() bool         { return true }
func (BankTransfer) PlacedStatus() string  { return statusOnHold }

func or(v, def string) string {
	if v != "" {
		return v
	}
	return def
}

// Instructions are the description. The accounts are not part of the
// text: the order-received page and the mails list each account's
// Details under "Our bank details", so they are shown once, as a list.
func (b BankTransfer) Instructions() string { return b.Description() }

// Detail is one labelled value of a bank account ("Bank", "Demo Bank").
type Detail struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Details are the account's filled-in fields, in the order the
// order-received page and the mails list them: bank, account name,
// account number, the sort code under the name the shop's country gives
// it (country: the shop's ISO code; SortCodeLabel), IBAN, BIC.
func (a BankAccount) Details(country string) []Detail {
	var out []Detail
	for _, f := range []Detail{{"Bank", a.BankName}, {"Account name", a.AccountName}, {"Account number", a.AccountNumber},
		{SortCodeLabel(country), a.RoutingNumber}, {"IBAN", a.IBAN}, {"BIC", a.BIC}} {
		if f.Value = strings.TrimSpace(f.Value); f.Value != "" {
			out = append(out, f)
		}
	}
	return out
}

// SortCodeLabel is what a country calls a bank's sort code (WooCommerce's
// bank-transfer locale): "Routing number" in the US, "BSB" in Australia,
// "IFSC" in India, and so on; "Sort code" elsewhere.
func SortCodeLabel(country string) string {
	switch strings.ToUpper(strings.TrimSpace(country)) {
	case "AU":
		return "BSB"
	case "CA":
		return "Bank transit number"
	case "IN":
		return "IFSC"
	case "IT":
		return "Branch sort"
	case "NZ", "SE":
		return "Bank code"
	case "US":
		return "Routing number"
	case "ZA":
		return "Branch code"
	}
	return "Sort code"
}

// CashOnDelivery is the cod method: the order is processing at once. Label
// and Text replace the default title and instructions when set.
type CashOnDelivery struct{ Label, Text string }

func (CashOnDelivery) ID() string             { return CashOnDeliveryID }
func (c CashOnDelivery) Title() string        { return or(c.Label, "Cash on delivery") }
func (c CashOnDelivery) Description() string  { return or(c.Text, codDescription) }
func (CashOnDelivery) Offline() bool          { return true }
func (CashOnDelivery) PlacedStatus() string   { return statusProcessing }
func (c CashOnDelivery) Instructions() string { return c.Description() }

// Wallet is the PayPal wallet (ppcp-gateway): the buyer approves at
// PayPal and the order is paid when the capture completes (the server's
// wallet*.go run the flow).
type Wallet struct{}

func (Wallet) ID() string    { return WalletGatewayID }
func (Wallet) Title() string { return "PayPal" }
func (Wallet) Description() string {
	return "Pay via PayPal: with your PayPal account, or in installments with Pay Later."
}
func (Wallet) Offline() bool { return false }

// Registry holds the enabled methods in display order. It is safe for
// concurrent use; methods may be added after the server starts.
type Registry struct {
	mu      sync.RWMutex
	methods []Method
}

// NewRegistry makes a registry holding methods.
func NewRegistry(methods ...Method) *Registry {
	r := &Registry{}
	for _, m := range methods {
		r.Add(m)
	}
	return r
}

// Add registers m, replacing a method with the same id in place.
func (r *Registry) Add(m Method) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, have := range r.methods {
		if have.ID() == m.ID() {
			r.methods[i] = m
			return
		}
	}
	r.methods = append(r.methods, m)
}

// SetOffline replaces the registry's offline methods with ms (the enabled
// ones, in order), placed before the other methods (the wallet), which
// stay as they are.
func (r *Registry) SetOffline(ms ...Method) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Method(nil), ms...)
	for _, m := range r.methods {
		if !m.Offline() {
			out = append(out, m)
		}
	}
	r.methods = out
}

// Get finds a method by id.
func (r *Registry) Get(id string) (Method, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, m := range r.methods {
		if m.ID() == id {
			return m, true
		}
	}
	return nil, false
}

// List returns the methods in order.
func (r *Registry) List() []Method {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Method(nil), r.methods...)
}

// Kind is "offline" or "wallet", as the checkout page names it.
func Kind(m Method) string {
	if m.Offline() {
		return "offline"
	}
	return "wallet"
}
