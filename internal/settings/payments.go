package settings

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"vitrine/internal/payment"
)

// PaymentsName is the payment methods document's key.
const PaymentsName = "payments"

// Payments is the payment methods document: the two offline methods and
// the PayPal wallet's credentials. The start-up configuration's (the
// --paypal-* flags, the checkout's bank accounts) are the defaults.
type Payments struct {
	BankTransfer   BankTransfer   `json:"bacs"`
	CashOnDelivery CashOnDelivery `json:"cod"`
	PayPal         PayPal         `json:"paypal"`
}

// BankTransfer is the bank transfer method's settings; an empty title or
// description is the method's default.
type BankTransfer struct {
	Enabled     bool                  `json:"enabled"`
	Title       string                `json:"title"`
	Description string                `json:"description"`
	Accounts    []payment.BankAccount `json:"accounts"`
}

// CashOnDelivery is the cash on delivery method's settings.
type CashOnDelivery struct {
	Enabled      bool   `json:"enabled"`
	Title        string `json:"title"`
	Instructions string `json:"instructions"`
}

// PayPal is the wallet's credentials. Secret is write-only for staff: the
// admin API never answers it, and a save without one keeps the one in
// force.
type PayPal struct {
	Enabled     bool   `json:"enabled"`
	ClientID    string `json:"client_id"`
	Secret      string `json:"secret"`
	Environment string `json:"environment"` // "sandbox" or "live"
}

// PayPal environments.
const (
	PayPalSandbox = "sandbox"
	PayPalLive    = "live"
)

// CheckError is PayPal refusing the credentials of a save (or failing to
// answer): nothing was saved.
type CheckError struct{ Err error }

func (e *CheckError) Error() string { return "PayPal refused the credentials: " + e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }

// PaymentMethods reads and saves the payments document, versioned like the
// shop's settings. Check is the test call (an OAuth2 token request) run
// before credentials that changed are saved; OnChange is told of the
// document in force after every load and save (the server applies the
// offline methods to its registry).
type PaymentMethods struct {
	Store    Store
	Defaults Payments
	Now      func() time.Time
	Check    func(ctx context.Context, p PayPal) error
	OnChange func(Doc[Payments])

	once sync.Once
	d    doc[Payments]
}

func (s *PaymentMethods) doc() *doc[Payments] {
	s.once.Do(func() {
		s.d = doc[Payments]{store: s.Store, name: PaymentsName, defaults: s.Defaults, now: s.Now}
	})
	return &s.d
}

// Current is the document in force.
func (s *PaymentMethods) Current() Doc[Payments] { return s.doc().current() }

// Load reads the stored document into memory.
func (s *PaymentMethods) Load(ctx context.Context) (Doc[Payments], error) {
	d, err := s.doc().load(ctx)
	if err == nil && s.OnChange != nil {
		s.OnChange(d)
	}
	return d, err
}

// Update normalizes and validates p (an *InputError names the field),
// keeps the secret in force when p has none, checks PayPal credentials
// that changed with a test call (a *CheckError when PayPal refuses them),
// and saves if base is the version in force (ErrStale otherwise).
func (s *PaymentMethods) Update(ctx context.Context, p Payments, base int64) (Doc[Payments], error) {
	cur := s.Current().Value.PayPal
	p = normalizePayments(p)
	if p.PayPal.Secret == "" {
		p.PayPal.Secret = cur.Secret
	}
	if err := ValidatePayments(p); err != nil {
		return Doc[Payments]{}, err
	}
	pp := p.PayPal
	if pp.Enabled && (pp.ClientID != cur.ClientID || pp.Secret != cur.Secret || pp.Environment != cur.Environment || !cur.Enabled) {
		if err := s.TestPayPal(ctx, pp); err != nil {
			return Doc[Payments]{}, err
		}
	}
	d, err := s.doc().put(ctx, p, base)
	if err == nil && s.OnChange != nil {
		s.OnChange(d)
	}
	return d, err
}

// TestPayPal runs the test call alone (a *CheckError when it fails; an
// *InputError for credentials missing).
func (s *PaymentMethods) TestPayPal(ctx context.Context, p PayPal) error {
	p.ClientID, p.Secret, p.Environment = strings.TrimSpace(p.ClientID), strings.TrimSpace(p.Secret), strings.TrimSpace(p.Environment)
	p.Enabled = true
	if err := validatePayPal(p); err != nil {
		return err
	}
	if s.Check == nil {
		return &CheckError{Err: fmt.Errorf("the wallet cannot be checked on this server")}
	}
	if err := s.Check(ctx, p); err != nil {
		return &CheckError{Err: err}
	}
	return nil
}

func normalizePayments(p Payments) Payments {
	trim := func(ps ...*string) {
		for _, s := range ps {
			*s = strings.TrimSpace(*s)
		}
	}
	trim(&p.BankTransfer.Title, &p.BankTransfer.Description, &p.CashOnDelivery.Title, &p.CashOnDelivery.Instructions,
		&p.PayPal.ClientID, &p.PayPal.Secret, &p.PayPal.Environment)
	accounts := []payment.BankAccount{}
	for _, a := range p.BankTransfer.Accounts {
		trim(&a.AccountName, &a.BankName, &a.AccountNumber, &a.RoutingNumber, &a.IBAN, &a.BIC)
		a.IBAN = strings.ToUpper(strings.ReplaceAll(a.IBAN, " ", ""))
		a.BIC = strings.ToUpper(a.BIC)
		accounts = append(accounts, a)
	}
	p.BankTransfer.Accounts = accounts
	return p
}

// ValidatePayments checks a payments document; field paths such as
// "bacs.accounts[0].iban".
func ValidatePayments(p Payments) error {
	if err := checkTexts(
		text{field: "bacs.title", v: p.BankTransfer.Title, max: 100}, text{field: "bacs.description", v: p.BankTransfer.Description, max: 2000, lines: true},
		text{field: "cod.title", v: p.CashOnDelivery.Title, max: 100}, text{field: "cod.instructions", v: p.CashOnDelivery.Instructions, max: 2000, lines: true},
	); err != nil {
		return err
	}
	if len(p.BankTransfer.Accounts) > 10 {
		return &InputError{"bacs.accounts", "At most 10 accounts."}
	}
	for i, a := range p.BankTransfer.Accounts {
		f := fmt.Sprintf("bacs.accounts[%d].", i)
		if err := checkTexts(text{field: f + "account_name", v: a.AccountName, max: 100}, text{field: f + "bank_name", v: a.BankName, max: 100},
			text{field: f + "account_number", v: a.AccountNumber, max: 40}, text{field: f + "routing_number", v: a.RoutingNumber, max: 20}); err != nil {
			return err
		}
		if a.AccountNumber == "" && a.IBAN == "" {
			return &InputError{f + "account_number", "An account number or an IBAN is required."}
		}
		if a.IBAN != "" && !validIBAN(a.IBAN) {
			return &InputError{f + "iban", "Not a valid IBAN (two letters, two check digits, up to 30 letters or digits)."}
		}
		if b := a.BIC; b != "" && !validBIC(b) {
			return &InputError{f + "bic", "A BIC has 8 or 11 letters and digits, such as DEUTDEFF."}
		}
	}
	if p.PayPal.Enabled || p.PayPal.ClientID != "" || p.PayPal.Environment != "" {
		return validatePayPal(p.PayPal)
	}
	return nil
}

func validatePayPal(p PayPal) error {
	switch p.Environment {
	case PayPalSandbox, PayPalLive:
	default:
		return &InputError{"paypal.environment", `One of "sandbox" or "live".`}
	}
	if !p.Enabled {
		return nil
	}
	if p.ClientID == "" {
		return &InputError{"paypal.client_id", "The REST app's client id is required to enable PayPal."}
	}
	if p.Secret == "" {
		return &InputError{"paypal.secret", "The REST app's secret is required to enable PayPal."}
	}
	if len(p.ClientID) > 200 || strings.ContainsAny(p.ClientID, " \t\r\n:") {
		return &InputError{"paypal.client_id", "A client id is one word of at most 200 characters."}
	}
	if len(p.Secret) > 200 || strings.ContainsAny(p.Secret, " \t\r\n") {
		return &InputError{"paypal.secret", "A secret is one word of at most 200 characters."}
	}
	return nil
}

// validIBAN checks an IBAN's shape and its mod-97 check digits.
func validIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	r := 0
	for _, c := range s[4:] + s[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = (r*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			r = (r*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return r == 1 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

func validBIC(s string) bool {
	if len(s) != 8 && len(s) != 11 {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Methods are the enabled offline methods the document configures, in the
// checkout's order.
func (p Payments) Methods() []payment.Method {
	var out []payment.Method
	if b := p.BankTransfer; b.Enabled {
		out = append(out, payment.BankTransfer{Label: b.Title, Text: b.Description, Accounts: b.Accounts})
	}
	if c := p.CashOnDelivery; c.Enabled {
		out = append(out, payment.CashOnDelivery{Label: c.Title, Text: c.Instructions})
	}
	return out
}

// Edit applies change to the payment methods in force and saves them
// (Edit, Update's checks).
func (s *PaymentMethods) Edit(ctx context.Context, change func(*Payments) error) (Doc[Payments], error) {
	return Edit(ctx, s.Current, s.Update, change)
}
