package storefront

import (
	"context"
	"errors"
	"net/http"

	"vitrine/internal/account"
	"vitrine/internal/address"
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

// PlaceForViewer places pr as the request's viewer (the classic form's
// checkout here, the Store API's through its PlaceOrder). createAccount and
// password are the visitor's "create an account" choice (ignored for a
// customer). The returned request is the logged-in one when an account
// was created.
func (f *Storefront) PlaceForViewer(w http.ResponseWriter, r *http.Request, pr checkout.PlaceRequest, createAccount bool, password string) (*checkout.Order, *http.Request, error) {
	ctx := r.Context()
	if u := httpx.UserOf(r); u != nil {
		pr.CustomerID = u.ID
		o, err := f.d.Checkout.PlaceOrder(ctx, pr)
		if err != nil {
			return nil, r, err
		}
		if err := f.d.Accounts.OrderPlaced(ctx, u.ID, o); err != nil {
			f.d.Log.Warn("save checkout addresses", "user", u.ID, "err", err)
		}
		return o, r, nil
	}
	email := account.NormalizeEmail(pr.Billing.Email)
	if !createAccount || f.d.Accounts == nil || !checkout.ValidEmail(email) {
		// Without a usable email the checkout's own validation refuses
		// the form (billing email), with its message.
		o, err := f.d.Checkout.PlaceOrder(ctx, pr)
		return o, r, err
	}
	if password == "" {
		return nil, r, errCheckoutMissingPassword
	}
	u, o, err := f.d.Accounts.RegisterAndPlace(ctx, account.Registration{Email: email, Password: password},
		func(ctx context.Context, u *account.User) (*checkout.Order, error) {
			pr.CustomerID = u.ID
			return f.d.Checkout.PlaceOrder(ctx, pr)
		})
	var ie *account.InputError
	switch {
	case errors.Is(err, account.ErrEmailTaken):
		check := pr
		check.CheckOnly = true
		if _, err := f.d.Checkout.PlaceOrder(ctx, check); err != nil {
			return nil, r, err
		}
		if err := f.d.Accounts.NotifyRegisterAttempt(ctx, email); err != nil {
			f.d.Log.Warn("registration attempt notice at checkout", "err", err)
		}
		f.d.KickMail()
		return nil, r, errCheckoutEmailExists
	case errors.As(err, &ie):
		return nil, r, &cart.Error{Status: http.StatusBadRequest, Code: "registration-error-invalid-password", Message: ie.Message}
	case err != nil:
		return nil, r, err
	}
	if err := f.d.Account.SendVerification(ctx, u.ID); err != nil {
		f.d.Log.Warn("verification mail after checkout registration", "user", u.ID, "err", err)
	}
	r2, err := f.d.Account.LogIn(w, r, u)
	if err != nil {
		// The order and the account stand; the shopper logs in later.
		f.d.Log.Warn("log in after checkout registration", "user", u.ID, "err", err)
		return o, r, nil
	}
	return o, r2, nil
}

// fillFromAccount fills an empty checkout with the customer's saved
// addresses (and the account's email), as WooCommerce loads a customer's
// data into the checkout. A cart that already has an address keeps it.
func (f *Storefront) fillFromAccount(r *http.Request, values *pages.CheckoutValues, c *cart.Cart) {
	u := httpx.UserOf(r)
	if u == nil || c.Customer.Billing != (cart.Address{}) {
		return
	}
	a, err := f.d.Accounts.Addresses(r.Context(), u.ID)
	if err != nil {
		f.d.Log.Warn("load saved addresses", "user", u.ID, "err", err)
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
		values.ShipToDifferentAddress = !address.Same(billing, *a.Shipping)
	}
}
