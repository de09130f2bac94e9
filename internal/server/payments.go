package server

import (
	"context"
	"fmt"
	"strings"

	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/settings"
)

// The payment methods staff configure in the admin (settings.Payments):
// the start-up configuration until the first save. The offline methods
// follow the document at once: a save on this instance rewrites the
// registry (OnChange), one on another instance reaches it through the
// change log (reloadSettings loads the document again). The PayPal
// credentials are checked with a token request before they are saved but
// the wallet takes them at the next start: the wallet's client, its
// webhook id and certificate allow-list, and how it marks test payments
// are fixed when the server starts (wallet.New), and swapping them under
// orders in flight is not a contained change.

// initPayments loads the payments document over the start-up
// configuration's (after initCheckout, before initWallet).
func (s *Server) initPayments() error {
	s.paymentSettings = &settings.PaymentMethods{Store: s.db, Defaults: s.paymentDefaults(), Now: s.now,
		Check: s.checkPayPal, OnChange: s.usePayments}
	if _, err := s.paymentSettings.Load(context.Background()); err != nil {
		return fmt.Errorf("load payment methods: %w", err)
	}
	return nil
}

// paymentDefaults is the document the flags amount to: both offline
// methods, and the wallet's credentials when it is configured.
func (s *Server) paymentDefaults() settings.Payments {
	p := settings.Payments{
		BankTransfer:   settings.BankTransfer{Enabled: true, Accounts: append([]payment.BankAccount{}, s.cfg.Checkout.BankAccounts...)},
		CashOnDelivery: settings.CashOnDelivery{Enabled: true},
		PayPal:         settings.PayPal{Environment: settings.PayPalSandbox},
	}
	if w := s.cfg.Wallet; w != nil && w.PayPal != nil {
		p.PayPal = settings.PayPal{Enabled: true, ClientID: w.PayPal.ClientID, Secret: w.PayPal.Secret, Environment: settings.PayPalSandbox}
		if strings.TrimRight(w.PayPal.BaseURL, "/") == paypal.LiveBaseURL {
			p.PayPal.Environment = settings.PayPalLive
		}
	}
	return p
}

// usePayments makes d's offline methods the checkout's.
func (s *Server) usePayments(d settings.Doc[settings.Payments]) {
	s.payments.SetOffline(d.Value.Methods()...)
	if s.settings != nil && s.liveSettings.Load() != nil {
		s.useSettings(s.settings.Current()) // the footer's payment icons
	}
}

// walletFromSettings applies saved PayPal settings to the start-up wallet
// configuration (initWallet): a saved "disabled" turns the wallet off;
// saved credentials replace the flags' for PayPal's own APIs. The built-in
// sandbox (demo mode) and a stand-alone sandbox keep their own
// credentials.
func (s *Server) walletFromSettings() {
	d := s.paymentSettings.Current()
	if d.Version == 0 {
		return
	}
	pp := d.Value.PayPal
	if !pp.Enabled {
		s.cfg.Wallet = nil
		return
	}
	base := paypal.SandboxBaseURL
	if pp.Environment == settings.PayPalLive {
		base = paypal.LiveBaseURL
	}
	w := s.cfg.Wallet
	switch {
	case w != nil && w.PayPal != nil && !realPayPal(w.PayPal.BaseURL):
		return
	case w == nil || w.PayPal == nil:
		w = &WalletConfig{}
		s.cfg.Wallet = w
	default:
		cp := *w
		w = &cp
		s.cfg.Wallet = w
	}
	c := &paypal.Client{BaseURL: base, ClientID: pp.ClientID, Secret: pp.Secret}
	if old := w.PayPal; old != nil {
		c.WebhookID, c.HTTP, c.PartnerAttributionID = old.WebhookID, old.HTTP, old.PartnerAttributionID
	}
	w.PayPal, w.TestPayments = c, ""
	if base == paypal.SandboxBaseURL {
		w.TestPayments = TestPaymentsPayPalSandbox
	}
}

func realPayPal(base string) bool {
	base = strings.TrimRight(base, "/")
	return base == paypal.LiveBaseURL || base == paypal.SandboxBaseURL
}

// checkPayPal is the credentials' test call: a client-credentials token
// request to the environment's API. A shop whose wallet runs on a sandbox
// of its own (the built-in one in demo mode, or one on loopback in tests)
// sends it there instead, so no traffic leaves for PayPal.
func (s *Server) checkPayPal(ctx context.Context, p settings.PayPal) error {
	c := &paypal.Client{BaseURL: paypal.SandboxBaseURL, ClientID: p.ClientID, Secret: p.Secret}
	if p.Environment == settings.PayPalLive {
		c.BaseURL = paypal.LiveBaseURL
	}
	if w := s.flagWallet; w != nil && w.PayPal != nil && !realPayPal(w.PayPal.BaseURL) {
		c.BaseURL, c.HTTP = w.PayPal.BaseURL, w.PayPal.HTTP
	}
	return c.CheckCredentials(ctx)
}
