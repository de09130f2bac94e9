package server

import (
	"context"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
)

// The checkout's composition: its configuration's defaults, the payment
// methods, and the currency an order is shown in. The Store API's checkout
// routes are internal/storeapi's.

// initCheckout fills the checkout config's defaults and the payment
// methods (bank transfer and cash on delivery).
func (s *Server) initCheckout() {
	if s.cfg.Checkout.IsZero() {
		s.cfg.Checkout = checkout.DefaultConfig(s.cfg.Currency)
	}
	if s.cfg.Checkout.Currency.Code == "" {
		s.cfg.Checkout.Currency = s.cfg.Currency
	}
	s.payments = payment.NewRegistry(payment.BankTransfer{Accounts: s.cfg.Checkout.BankAccounts}, payment.CashOnDelivery{})
}

// Payments is the registry of payment methods the checkout offers; wallet
// gateways are added to it.
func (s *Server) Payments() *payment.Registry { return s.payments }

// CheckoutConfig is the checkout configuration in use.
func (s *Server) CheckoutConfig() *checkout.Config { return s.checkoutConfig() }

// currencyOf is an order's currency block: the shop's format of it when
// the shop sells in it (enabled or not, as configured: "1.234,56 €"), else
// the ISO defaults; the base currency's when unknown.
func (s *Server) currencyOf(ctx context.Context, code string) money.Currency {
	if code == s.cfg.Currency.Code {
		return s.cfg.Currency
	}
	if c, ok, err := s.currencies.Configured(ctx, code); err == nil && ok {
		return c.Money()
	}
	if c, ok := money.Lookup(code); ok {
		return c
	}
	return s.cfg.Currency
}
