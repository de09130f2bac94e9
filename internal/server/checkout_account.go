package server

import (
	"context"
	"errors"
	"net/http"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
)

// Checkout for customers, shared by the Store API checkout and the classic
// form: a logged-in customer's order carries the account (and fills the
// account's addresses when it has none), and a visitor who ticks "Create an
// account?" gets one, registered with the billing email and the chosen
// password, linked to the order and logged in. An email already
// registered refuses the checkout, and no order is placed, but only once
// every other check of the checkout passed (the form, the cart, the
// payment method), so the refusal costs a real checkout attempt under the
// checkout's rate limits; the owner of the email is told by mail.

// Account refusals in the checkout's error shape (WooCommerce's codes).
var (
	errCheckoutEmailExists = &cart.Error{Status: http.StatusBadRequest, Code: "registration-error-email-exists",
		Message: "An account is already registered with your email address. Please log in."}
	errCheckoutMissingPassword = &cart.Error{Status: http.StatusBadRequest, Code: "registration-error-missing-password",
		Message: "Please enter an account password."}
)

// placeForViewer places pr as the request's viewer. createAccount and
// password are the visitor's "create an account" choice (ignored for a
// customer). The returned request is the logged-in one when an account
// was created.
func (s *Server) placeForViewer(w http.ResponseWriter, r *http.Request, pr checkout.PlaceRequest, createAccount bool, password string) (*checkout.Order, *http.Request, error) {
	ctx := r.Context()
	if u := httpx.UserOf(r); u != nil {
		pr.CustomerID = u.ID
		o, err := s.checkout.PlaceOrder(ctx, pr)
		if err != nil {
			return nil, r, err
		}
		if err := s.accounts.OrderPlaced(ctx, u.ID, o); err != nil {
			s.log.Warn("save checkout addresses", "user", u.ID, "err", err)
		}
		return o, r, nil
	}
	email := account.NormalizeEmail(pr.Billing.Email)
	if !createAccount || s.accounts == nil || !checkout.ValidEmail(email) {
		// Without a usable email the checkout's own validation refuses
		// the form (billing email), with its message.
		o, err := s.checkout.PlaceOrder(ctx, pr)
		return o, r, err
	}
	if password == "" {
		return nil, r, errCheckoutMissingPassword
	}
	u, o, err := s.accounts.RegisterAndPlace(ctx, account.Registration{Email: email, Password: password},
		func(ctx context.Context, u *account.User) (*checkout.Order, error) {
			pr.CustomerID = u.ID
			return s.checkout.PlaceOrder(ctx, pr)
		})
	var ie *account.InputError
	switch {
	case errors.Is(err, account.ErrEmailTaken):
		check := pr
		check.CheckOnly = true
		if _, err := s.checkout.PlaceOrder(ctx, check); err != nil {
			return nil, r, err
		}
		if err := s.accounts.NotifyRegisterAttempt(ctx, email); err != nil {
			s.log.Warn("registration attempt notice at checkout", "err", err)
		}
		s.kickMail()
		return nil, r, errCheckoutEmailExists
	case errors.As(err, &ie):
		return nil, r, &cart.Error{Status: http.StatusBadRequest, Code: "registration-error-invalid-password", Message: ie.Message}
	case err != nil:
		return nil, r, err
	}
	if err := s.myAccount.SendVerification(ctx, u.ID); err != nil {
		s.log.Warn("verification mail after checkout registration", "user", u.ID, "err", err)
	}
	r2, err := s.myAccount.LogIn(w, r, u)
	if err != nil {
		// The order and the account stand; the shopper logs in later.
		s.log.Warn("log in after checkout registration", "user", u.ID, "err", err)
		return o, r, nil
	}
	return o, r2, nil
}

// fillFromAccount fills an empty checkout with the customer's saved
// addresses (and the account's email), as WooCommerce loads a customer's
// data into the checkout. A cart that already has an address keeps it.
func (s *Server) fillFromAccount(r *http.Request, values *pages.CheckoutValues, c *cart.Cart) {
	u := httpx.UserOf(r)
	if u == nil || c.Customer.Billing != (cart.Address{}) {
		return
	}
	a, err := s.accounts.Addresses(r.Context(), u.ID)
	if err != nil {
		s.log.Warn("load saved addresses", "user", u.ID, "err", err)
		return
	}
	if a.Billing != nil {
		values.BillingAddress = pages.NewBillingAddress(*a.Billing)
	}
	if values.BillingAddress.Email == "" {
		values.BillingAddress.Email = u.Email
	}
	if a.Shipping != nil && c.Customer.Shipping == (cart.Address{}) {
		values.ShippingAddress = *a.Shipping
		values.ShippingAddress.Email = ""
		billing := values.BillingAddress.Address
		values.ShipToDifferentAddress = !sameAddress(billing, *a.Shipping)
	}
}
