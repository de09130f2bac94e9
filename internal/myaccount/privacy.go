package myaccount

import (
	"errors"
	"net/http"

	"vitrine/internal/account"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/privacy"
)

// The customer's privacy requests (internal/privacy), from the account
// details page: an export of their data, or its erasure. Either is
// confirmed with a link mailed to the account's address.

const privacyRequestAction = "privacy_request"

// Form values of request_type, as WordPress names the actions.
var privacyKinds = map[string]string{"export_personal_data": privacy.KindExport, "remove_personal_data": privacy.KindErase}

// PrivacyRequest answers POST /my-account/privacy-request/.
func (h *Account) PrivacyRequest(w http.ResponseWriter, r *http.Request, u *account.User) {
	form := pages.AccountForm{Email: u.Email, DisplayName: u.DisplayName}
	if p, err := h.d.Accounts.Profile(r.Context(), u.ID); err == nil {
		form.FirstName, form.LastName, form.DisplayName = p.FirstName, p.LastName, p.DisplayName
	}
	if !h.checkAccountNonce(r, "privacy-request-nonce", privacyRequestAction, u) {
		h.renderAccountForm(w, r, u, form, formErrors(msgNonceExpired), http.StatusForbidden)
		return
	}
	kind, ok := privacyKinds[r.PostFormValue("request_type")]
	if !ok || h.d.Privacy == nil {
		errs := formErrors("Choose what to request: a copy of your data, or its erasure.")
		errs.Fields["request_type"] = "Choose what to request."
		h.renderAccountForm(w, r, u, form, errs, http.StatusBadRequest)
		return
	}
	_, _, err := h.d.Privacy.RequestForCustomer(r.Context(), u, kind, h.d.ClientIP(r))
	var le *privacy.LimitedError
	switch {
	case errors.As(err, &le):
		w.Header().Set("Retry-After", httpx.RetryAfter(le.RetryAfter))
		h.renderAccountForm(w, r, u, form, formErrors("Too many requests. Please try again in "+waitText(le.RetryAfter)+"."), http.StatusTooManyRequests)
		return
	case errors.Is(err, privacy.ErrPending):
		h.renderAccountForm(w, r, u, form, formErrors("You already have a request of this kind open. Confirm it with the link we emailed you, or wait for the shop to complete it."), http.StatusConflict)
		return
	case err != nil:
		h.d.Pages.PageError(w, "privacy request", err)
		return
	}
	if h.d.KickMail != nil {
		h.d.KickMail()
	}
	h.setAccountNotice(w, "privacy-"+kind+"-requested")
	http.Redirect(w, r, "/my-account/edit-account/", http.StatusSeeOther)
}
