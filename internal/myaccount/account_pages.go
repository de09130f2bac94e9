package myaccount

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
)

// The customer's account pages: dashboard, orders, one order, addresses,
// account details and deleting the account. The use cases are
// account.Service's; these handlers read forms, check nonces and render.
//
// Every page is per customer: rendered per request, "no-store, private",
// noindex. A visitor asking for one is sent (302) to /my-account/, the login
// form. Every POST carries a nonce bound to the account (the form's hidden
// field, WooCommerce's name); a bad one re-renders the form with 403 and a
// notice, changing nothing. A refused form re-renders with 400, its values
// and its messages; a saved one redirects (303) and the next page shows a
// success notice once (the accountNotice cookie).

// Form nonce actions, bound to the account's scope (cart.CustomerSession).
const (
	editAddressAction   = "woocommerce-edit_address"
	editAccountAction   = "save_account_details"
	deleteAccountAction = "delete_account"
)

const msgNonceExpired = "The link you followed has expired. Please reload the page and try again."

// accountNotices are the success notices a redirect may leave for the next
// page; the cookie carries only the key, so no text can be injected.
var accountNotices = map[string]string{
	"address-saved":   "Address changed successfully.",
	"account-saved":   "Account details changed successfully.",
	"account-deleted": "Your account has been deleted.",
	// After a privacy request (privacy.go).
	"privacy-export-requested": "Thank you. We have emailed you a link to confirm your request for a copy of your personal data. Once you confirm it, we email you a download link.",
	"privacy-erase-requested":  "Thank you. We have emailed you a link to confirm your request to erase your personal data. Once you confirm it, the shop's staff will complete it.",
	// After registering, new email or taken: one notice (no enumeration).
	"registered": "Thank you. We have sent an email to the address you entered. If you are new here, your account is ready: log in below with that email address and your password, and confirm the address with the link in the email. If you already had an account, the email tells you how to log in or reset your password.",
}

func (h *Account) accountNoticeCookie() string {
	return "vitrine_notice_" + h.d.Sessions.CookieHash()[:8]
}

// setAccountNotice leaves a success notice for the next page (a minute).
func (h *Account) setAccountNotice(w http.ResponseWriter, key string) {
	http.SetCookie(w, &http.Cookie{Name: h.accountNoticeCookie(), Value: key, Path: "/my-account/", MaxAge: 60,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// takeAccountNotice reads the notice left by a redirect and deletes it, so
// it shows once. The login page may call it too (after deleting an account).
func (h *Account) takeAccountNotice(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(h.accountNoticeCookie())
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: h.accountNoticeCookie(), Value: "", Path: "/my-account/", MaxAge: -1,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
	return accountNotices[c.Value]
}

func (h *Account) accountScope(u *account.User) string { return cart.CustomerSession(u.ID) }

func (h *Account) accountNonce(action string, u *account.User) string {
	return h.d.Sessions.ActionNonce(action, h.accountScope(u), httpx.NonceTickAt(h.d.Now()))
}

func (h *Account) checkAccountNonce(r *http.Request, field, action string, u *account.User) bool {
	return h.d.Sessions.VerifyActionNonce(r.PostFormValue(field), action, h.accountScope(u), httpx.NonceTickAt(h.d.Now()))
}

// CustomerPage wraps an account page handler: no caching, and visitors
// are sent to the login form.
func CustomerPage(page func(w http.ResponseWriter, r *http.Request, u *account.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u := customerOr302(w, r)
		if u == nil {
			return
		}
		if r.Method == http.MethodPost {
			if err := r.ParseForm(); err != nil {
				http.Error(w, "The form could not be read.", http.StatusBadRequest)
				return
			}
		}
		page(w, r, u)
	}
}

// renderAccount renders one account page for u with the common parts
// (customer, log-out link, the once-only notice) filled in.
func (h *Account) renderAccount(w http.ResponseWriter, r *http.Request, u *account.User, title string, p pages.AccountPage, status int) {
	p.LogoutURL = h.LogoutURL(r)
	p.Customer = pages.AccountCustomer{DisplayName: u.DisplayName, Email: u.Email, EmailVerified: !u.EmailVerifiedAt.IsZero()}
	if r.Method == http.MethodGet {
		p.Notice = h.takeAccountNotice(w, r)
	}
	res, err := h.d.Loader.Account(h.d.Pages.PageContext(r), r.URL.RequestURI(), pages.AccountInput{Page: p, Title: title, Status: status})
	h.d.Pages.SendPersonal(w, r, "account page", r.URL.RequestURI(), res, err)
}

func formErrors(notices ...string) *pages.FormErrors {
	return &pages.FormErrors{Notices: notices, Fields: map[string]string{}}
}

// --- dashboard ---

// handleAccountDashboard answers GET /my-account/ for a customer.
func (h *Account) handleAccountDashboard(w http.ResponseWriter, r *http.Request) {
	CustomerPage(func(w http.ResponseWriter, r *http.Request, u *account.User) {
		h.renderAccount(w, r, u, "My account", pages.AccountPage{Section: pages.SectionDashboard}, http.StatusOK)
	})(w, r)
}

// --- orders ---

// Orders answers GET /my-account/orders/ and
// /my-account/orders/{n}/: the orders table, newest first. A page past
// the end (or not a number) is a 404 with a notice.
func (h *Account) Orders(w http.ResponseWriter, r *http.Request, u *account.User) {
	page := 1
	if raw := r.PathValue("n"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 {
			h.renderAccount(w, r, u, "Orders", pages.AccountPage{Section: pages.SectionOrders, Errors: formErrors("This page of orders does not exist."),
				Orders: &pages.AccountOrders{Rows: []pages.AccountOrderRow{}, Page: 1, Pages: 1}}, http.StatusNotFound)
			return
		}
		page = n
	}
	op, err := h.d.Accounts.Orders(r.Context(), u.ID, page)
	if err != nil {
		h.d.Pages.PageError(w, "account orders", err)
		return
	}
	view := &pages.AccountOrders{Rows: []pages.AccountOrderRow{}, Page: op.Page, Pages: op.Pages, Total: op.Total}
	for _, o := range op.Orders {
		view.Rows = append(view.Rows, pages.NewAccountOrderRow(o, h.d.Currency(r.Context(), o.Currency)))
	}
	if page > 1 {
		view.PrevURL = ordersPageURL(page - 1)
	}
	if page < op.Pages {
		view.NextURL = ordersPageURL(page + 1)
	}
	status := http.StatusOK
	p := pages.AccountPage{Section: pages.SectionOrders, Orders: view}
	if page > op.Pages {
		status, p.Errors = http.StatusNotFound, formErrors("This page of orders does not exist.")
		view.PrevURL, view.NextURL = "", ""
	}
	h.renderAccount(w, r, u, "Orders", p, status)
}

func ordersPageURL(n int) string {
	if n <= 1 {
		return "/my-account/orders/"
	}
	return "/my-account/orders/" + strconv.Itoa(n) + "/"
}

// ViewOrder answers GET /my-account/view-order/{id}/: one of
// the customer's orders. Someone else's order, or an unknown id, is a 404
// that shows nothing of it.
func (h *Account) ViewOrder(w http.ResponseWriter, r *http.Request, u *account.User) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	o, err := h.d.Accounts.Order(r.Context(), u.ID, id)
	if errors.Is(err, checkout.ErrOrderNotFound) {
		h.renderAccount(w, r, u, "Order", pages.AccountPage{Section: pages.SectionViewOrder, Errors: formErrors("Invalid order.")}, http.StatusNotFound)
		return
	}
	if err != nil {
		h.d.Pages.PageError(w, "account order", err)
		return
	}
	v := pages.NewOrderView(o, h.d.Currency(r.Context(), o.Currency), "")
	v.TestOrder, v.TestNotice = o.TestOrder(), h.d.TestNotice(o)
	h.renderAccount(w, r, u, "Order #"+o.Number, pages.AccountPage{Section: pages.SectionViewOrder, Order: v}, http.StatusOK)
}

// --- addresses ---

// Addresses answers GET /my-account/edit-address/: both
// saved addresses, each with its edit link.
func (h *Account) Addresses(w http.ResponseWriter, r *http.Request, u *account.User) {
	a, err := h.d.Accounts.Addresses(r.Context(), u.ID)
	if err != nil {
		h.d.Pages.PageError(w, "account addresses", err)
		return
	}
	view := &pages.AccountAddresses{Shipping: a.Shipping}
	if a.Billing != nil {
		b := pages.NewBillingAddress(*a.Billing)
		view.Billing = &b
	}
	h.renderAccount(w, r, u, "Addresses", pages.AccountPage{Section: pages.SectionEditAddress, Addresses: view}, http.StatusOK)
}

func addressKind(r *http.Request) (string, bool) {
	k := r.PathValue("kind")
	return k, k == account.AddressBilling || k == account.AddressShipping
}

// addressTitle is the edit form's heading.
func addressTitle(kind string) string {
	if kind == account.AddressShipping {
		return "Shipping address"
	}
	return "Billing address"
}

func (h *Account) renderAddressForm(w http.ResponseWriter, r *http.Request, u *account.User, kind string, values cart.Address, errs *pages.FormErrors, status int) {
	form := &pages.AddressForm{Kind: kind, Values: pages.NewBillingAddress(values), Nonce: h.accountNonce(editAddressAction, u)}
	h.renderAccount(w, r, u, addressTitle(kind), pages.AccountPage{Section: pages.SectionEditAddress, AddressForm: form,
		Countries: pages.CountryTable(h.d.Checkout), PhoneRequired: h.d.Checkout.AddressRules().PhoneRequired, Errors: errs}, status)
}

// EditAddress answers GET /my-account/edit-address/{kind}/:
// the form, filled with the saved address, else with what the account
// knows (names, the billing email) in the shop's country.
func (h *Account) EditAddress(w http.ResponseWriter, r *http.Request, u *account.User) {
	kind, ok := addressKind(r)
	if !ok {
		h.d.Pages.NotFound(w, r)
		return
	}
	a, err := h.d.Accounts.Addresses(r.Context(), u.ID)
	if err != nil {
		h.d.Pages.PageError(w, "account address", err)
		return
	}
	saved := a.Billing
	if kind == account.AddressShipping {
		saved = a.Shipping
	}
	var values cart.Address
	if saved != nil {
		values = *saved
	} else {
		values.Country = h.d.Checkout.BaseCountry
		if p, err := h.d.Accounts.Profile(r.Context(), u.ID); err == nil {
			values.FirstName, values.LastName = p.FirstName, p.LastName
		}
		if kind == account.AddressBilling {
			values.Email = u.Email
		}
	}
	h.renderAddressForm(w, r, u, kind, values, nil, http.StatusOK)
}

// EditAddressPost answers POST /my-account/edit-address/{kind}/.
func (h *Account) EditAddressPost(w http.ResponseWriter, r *http.Request, u *account.User) {
	kind, ok := addressKind(r)
	if !ok {
		h.d.Pages.NotFound(w, r)
		return
	}
	values := httpx.FormAddress(r, kind)
	if !h.checkAccountNonce(r, "woocommerce-edit-address-nonce", editAddressAction, u) {
		h.renderAddressForm(w, r, u, kind, values, formErrors(msgNonceExpired), http.StatusForbidden)
		return
	}
	_, err := h.d.Accounts.SaveAddress(r.Context(), u.ID, kind, values, h.d.Checkout.AddressRules())
	var ve *checkout.ValidationError
	switch {
	case err == nil:
		h.setAccountNotice(w, "address-saved")
		http.Redirect(w, r, "/my-account/edit-address/", http.StatusSeeOther)
	case errors.As(err, &ve):
		errs := formErrors(ve.Messages()...)
		for _, f := range ve.Fields {
			errs.Fields[f.Field] = f.Message
		}
		h.renderAddressForm(w, r, u, kind, values, errs, http.StatusBadRequest)
	default:
		h.d.Pages.PageError(w, "save address", err)
	}
}

// --- account details ---

func (h *Account) renderAccountForm(w http.ResponseWriter, r *http.Request, u *account.User, form pages.AccountForm, errs *pages.FormErrors, status int) {
	form.Nonce = h.accountNonce(editAccountAction, u)
	form.DeleteNonce = h.accountNonce(deleteAccountAction, u)
	form.PrivacyNonce = h.accountNonce(privacyRequestAction, u)
	h.renderAccount(w, r, u, "Account details", pages.AccountPage{Section: pages.SectionEditAccount, AccountForm: &form, Errors: errs}, status)
}

// EditAccount answers GET /my-account/edit-account/.
func (h *Account) EditAccount(w http.ResponseWriter, r *http.Request, u *account.User) {
	p, err := h.d.Accounts.Profile(r.Context(), u.ID)
	if err != nil {
		h.d.Pages.PageError(w, "account details", err)
		return
	}
	h.renderAccountForm(w, r, u, pages.AccountForm{FirstName: p.FirstName, LastName: p.LastName, DisplayName: p.DisplayName, Email: u.Email}, nil, http.StatusOK)
}

const msgWrongPassword = "Your current password is incorrect."

// EditAccountPost answers POST /my-account/edit-account/:
// names, email (the current password required) and the password (current,
// new, confirmation). Everything is checked before anything is written;
// a password change ends every session and device, and this browser gets
// a new session.
func (h *Account) EditAccountPost(w http.ResponseWriter, r *http.Request, u *account.User) {
	ctx := r.Context()
	form := pages.AccountForm{FirstName: r.PostFormValue("account_first_name"), LastName: r.PostFormValue("account_last_name"),
		DisplayName: r.PostFormValue("account_display_name"), Email: strings.TrimSpace(r.PostFormValue("account_email"))}
	current, next, confirm := r.PostFormValue("password_current"), r.PostFormValue("password_1"), r.PostFormValue("password_2")
	if !h.checkAccountNonce(r, "save-account-details-nonce", editAccountAction, u) {
		h.renderAccountForm(w, r, u, form, formErrors(msgNonceExpired), http.StatusForbidden)
		return
	}
	errs := formErrors()
	fail := func(field, msg string) {
		errs.Notices = append(errs.Notices, msg)
		if _, ok := errs.Fields[field]; !ok {
			errs.Fields[field] = msg
		}
	}
	profile, err := account.ValidateProfile(account.Profile{FirstName: form.FirstName, LastName: form.LastName, DisplayName: form.DisplayName})
	var ie *account.InputError
	if errors.As(err, &ie) {
		fail(ie.Field, ie.Message)
	}
	email := account.NormalizeEmail(form.Email)
	emailChanged := email != u.Email
	if email == "" {
		fail("account_email", "Email address is a required field.")
	} else if emailChanged && !checkout.ValidEmail(email) {
		fail("account_email", "Please provide a valid email address.")
	}
	changePassword := next != "" || confirm != ""
	if (emailChanged || changePassword) && current == "" {
		if changePassword {
			fail("password_current", "Please enter your current password.")
		} else {
			fail("password_current", "Please enter your current password to change your email address.")
		}
	}
	if changePassword {
		switch {
		case next == "":
			fail("password_1", "Please fill out all password fields.")
		case confirm == "":
			fail("password_2", "Please re-enter your password.")
		case next != confirm:
			fail("password_2", "New passwords do not match.")
		default:
			if err := account.ValidatePassword(next, email, u.Username); errors.As(err, &ie) {
				fail("password_1", ie.Message)
			}
		}
	}
	if len(errs.Notices) > 0 {
		h.renderAccountForm(w, r, u, form, errs, http.StatusBadRequest)
		return
	}
	status := http.StatusBadRequest
	var locked *account.LockedError
	// Checked: now the writes, the email first (its password check and
	// taken-email refusal come before the password changes).
	if emailChanged {
		switch err := h.d.Accounts.ChangeEmail(ctx, u.ID, current, email); {
		case errors.Is(err, account.ErrBadCredentials):
			fail("password_current", msgWrongPassword)
		case errors.As(err, &locked):
			status = h.lockedForm(w, locked)
			fail("password_current", tooManyText(locked))
		case errors.Is(err, account.ErrEmailTaken):
			fail("account_email", "This email address is already registered.")
		case errors.As(err, &ie):
			fail("account_email", ie.Message)
		case err != nil:
			h.d.Pages.PageError(w, "change email", err)
			return
		}
		if len(errs.Notices) > 0 {
			h.renderAccountForm(w, r, u, form, errs, status)
			return
		}
		// The new address is proven by its link (links.go).
		if err := h.SendVerification(ctx, u.ID); err != nil {
			h.d.Log.Warn("verification mail after email change", "user", u.ID, "err", err)
		}
	}
	if changePassword {
		switch err := h.d.Accounts.ChangePassword(ctx, u.ID, current, next); {
		case errors.Is(err, account.ErrBadCredentials):
			fail("password_current", msgWrongPassword)
		case errors.As(err, &locked):
			status = h.lockedForm(w, locked)
			fail("password_current", tooManyText(locked))
		case errors.As(err, &ie):
			fail("password_1", ie.Message)
		case err != nil:
			h.d.Pages.PageError(w, "change password", err)
			return
		}
		if len(errs.Notices) > 0 {
			h.renderAccountForm(w, r, u, form, errs, status)
			return
		}
	}
	if _, err := h.d.Accounts.SaveProfile(ctx, u.ID, profile); err != nil {
		h.d.Pages.PageError(w, "save account details", err)
		return
	}
	switch {
	case changePassword:
		// Every session ended with the change: this browser starts a new one.
		fresh, err := h.d.Accounts.User(ctx, u.ID)
		if err == nil {
			_, err = h.LogIn(w, r, fresh)
		}
		if err != nil {
			h.d.Pages.PageError(w, "log in after password change", err)
			return
		}
	case emailChanged:
		if err := h.renewLogin(w, r); err != nil {
			h.d.Log.Warn("renew session after email change", "user", u.ID, "err", err)
		}
	}
	h.setAccountNotice(w, "account-saved")
	http.Redirect(w, r, "/my-account/", http.StatusSeeOther)
}

// DeleteAccount answers POST /my-account/delete-account/: the
// password confirms; the account ends, its orders stay as guest orders.
func (h *Account) DeleteAccount(w http.ResponseWriter, r *http.Request, u *account.User) {
	form := pages.AccountForm{Email: u.Email, DisplayName: u.DisplayName}
	if p, err := h.d.Accounts.Profile(r.Context(), u.ID); err == nil {
		form.FirstName, form.LastName, form.DisplayName = p.FirstName, p.LastName, p.DisplayName
	}
	if !h.checkAccountNonce(r, "delete-account-nonce", deleteAccountAction, u) {
		h.renderAccountForm(w, r, u, form, formErrors(msgNonceExpired), http.StatusForbidden)
		return
	}
	err := h.d.Accounts.DeleteAccount(r.Context(), u.ID, r.PostFormValue("delete_password"))
	if locked := (*account.LockedError)(nil); errors.As(err, &locked) {
		errs := formErrors(tooManyText(locked))
		errs.Fields["delete_password"] = tooManyText(locked)
		h.renderAccountForm(w, r, u, form, errs, h.lockedForm(w, locked))
		return
	}
	if errors.Is(err, account.ErrBadCredentials) {
		errs := formErrors(msgWrongPassword)
		errs.Fields["delete_password"] = msgWrongPassword
		h.renderAccountForm(w, r, u, form, errs, http.StatusBadRequest)
		return
	}
	if err != nil {
		h.d.Pages.PageError(w, "delete account", err)
		return
	}
	// The store ended the sessions with the account; the cookies go too.
	h.clearLoginCookie(w)
	h.setAccountNotice(w, "account-deleted")
	http.Redirect(w, r, "/my-account/", http.StatusSeeOther)
}

// lockedForm answers a form refused by the password limit: 429 with
// Retry-After.
func (h *Account) lockedForm(w http.ResponseWriter, le *account.LockedError) int {
	w.Header().Set("Retry-After", httpx.RetryAfter(le.RetryAfter))
	return http.StatusTooManyRequests
}

// tooManyText is the notice of a form refused by the password or code
// limit, with the time to wait.
func tooManyText(le *account.LockedError) string {
	return "Too many wrong attempts. Please try again in " + waitText(le.RetryAfter) + "."
}
