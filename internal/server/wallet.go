package server

import (
	"context"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/payment/wallet"
)

// The PayPal wallet's composition: the wallet service
// (internal/payment/wallet, which owns the payment state machine and
// reaches the cart and checkout use cases through wallet.Shop), its
// configuration and its reconciler. Its HTTP endpoints are
// internal/walletapi's.

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
