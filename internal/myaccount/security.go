package myaccount

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/mail"
	"vitrine/internal/pages"
)

// The my-account security page (/my-account/security/): two-factor setup
// and status, recovery codes, remembered devices. A thin adapter over the
// account service's two-factor use cases (internal/account/twofactor.go).
//
// Every form POSTs to the page with an "action" field and a _wpnonce of
// that action, bound to the customer (a nonce of one form does not pass
// another). Refusals re-render the page with a notice and the field's
// error (400, 403 for a bad nonce, 429 when locked); actions that change
// what the page shows answer 303 to the page with a notice shown once (a
// short-lived cookie, deleted when read). Setup and new recovery codes
// answer 200 directly: the secret and the codes exist only in that answer
// (recovery codes are stored as hashes, so they can never be shown again).

const securityPath = "/my-account/security/"

// securityActions are the page's forms.
var securityActions = []string{"enroll", "confirm", "new-codes", "disable", "forget-device", "forget-all"}

func securityNonceAction(action string) string { return "wfls-security-" + action }

// Notices carried across a 303 by key, so the cookie holds no text.
var securityFlash = map[string]string{
	"disabled":          "Two-factor authentication is off. Your recovery codes and remembered devices were removed.",
	"device-forgotten":  "The device was forgotten. It will be asked for a code at the next login.",
	"devices-forgotten": "All remembered devices were forgotten.",
}

func (h *Account) securityFlashCookie() string { return "vitrine_security_notice" }

func (h *Account) setSecurityFlash(w http.ResponseWriter, key string) {
	http.SetCookie(w, &http.Cookie{Name: h.securityFlashCookie(), Value: key, Path: securityPath, MaxAge: 300,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// takeSecurityFlash reads the notice of the last redirect and deletes it.
func (h *Account) takeSecurityFlash(w http.ResponseWriter, r *http.Request) *pages.Notice {
	c, err := r.Cookie(h.securityFlashCookie())
	if err != nil {
		return nil
	}
	http.SetCookie(w, &http.Cookie{Name: h.securityFlashCookie(), Value: "", Path: securityPath, MaxAge: -1,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
	if text, ok := securityFlash[c.Value]; ok {
		return &pages.Notice{Kind: "message", Text: text}
	}
	return nil
}

// securityView is what one answer of the page shows beyond the account's
// state.
type securityView struct {
	status     int
	notice     *pages.Notice
	errors     map[string]string
	enrollment *account.Enrollment
	codes      []string
}

// SecurityPage answers GET /my-account/security/ (customers only).
func (h *Account) SecurityPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if httpx.UserOf(r) == nil {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
		return
	}
	h.renderSecurity(w, r, securityView{notice: h.takeSecurityFlash(w, r)})
}

func (h *Account) renderSecurity(w http.ResponseWriter, r *http.Request, v securityView) {
	ctx := h.d.Pages.PageContext(r)
	// Reload: a refused form may have changed nothing, or the state moved.
	u, err := h.d.Accounts.User(ctx, httpx.UserOf(r).ID)
	if err != nil {
		h.d.Pages.PageError(w, "security page", err)
		return
	}
	in := pages.AccountSecurityInput{User: u, LogoutURL: h.LogoutURL(r), RecoveryCodes: v.codes, Notice: v.notice,
		Errors: v.errors, Status: v.status, Nonces: map[string]string{}}
	tick := httpx.NonceTickAt(h.d.Now())
	for _, a := range securityActions {
		in.Nonces[a] = h.d.Sessions.ActionNonce(securityNonceAction(a), cart.CustomerSession(u.ID), tick)
	}
	if u.TwoFactor() {
		if in.CodesLeft, err = h.d.Accounts.RecoveryCodesLeft(ctx, u.ID); err != nil {
			h.d.Pages.PageError(w, "security page", err)
			return
		}
	} else if v.enrollment != nil {
		if in.Enrollment, err = enrollmentView(v.enrollment); err != nil {
			h.d.Pages.PageError(w, "security page", err)
			return
		}
	}
	if in.Devices, err = h.d.Accounts.ListDevices(ctx, u.ID); err != nil {
		h.d.Pages.PageError(w, "security page", err)
		return
	}
	res, err := h.d.Loader.AccountSecurity(ctx, r.URL.RequestURI(), in)
	h.d.Pages.SendPersonal(w, r, "security page", r.URL.RequestURI(), res, err)
}

// enrollmentView draws the setup's QR code on the server (a PNG data URI:
// no script and no third party sees the secret) and groups the secret.
func enrollmentView(e *account.Enrollment) (*pages.EnrollmentView, error) {
	img, err := e.Key.Image(240, 240)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	var groups []string
	for i := 0; i < len(e.Secret); i += 4 {
		groups = append(groups, e.Secret[i:min(i+4, len(e.Secret))])
	}
	return &pages.EnrollmentView{Secret: e.Secret, SecretGroups: groups, OTPAuthURL: e.URL,
		QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())}, nil
}

// SecurityPost answers the page's forms: POST /my-account/security/.
func (h *Account) SecurityPost(w http.ResponseWriter, r *http.Request) {
	u := customerOr302(w, r)
	if u == nil {
		return
	}
	if err := r.ParseForm(); err != nil {
		h.renderSecurity(w, r, securityView{status: http.StatusBadRequest, notice: errorNotice("The form could not be read. Please try again.")})
		return
	}
	action := r.PostFormValue("action")
	known := false
	for _, a := range securityActions {
		known = known || a == action
	}
	if !known {
		h.renderSecurity(w, r, securityView{status: http.StatusBadRequest, notice: errorNotice("Unknown request. Please use the forms on this page.")})
		return
	}
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("_wpnonce"), securityNonceAction(action), cart.CustomerSession(u.ID), httpx.NonceTickAt(h.d.Now())) {
		h.renderSecurity(w, r, securityView{status: http.StatusForbidden, notice: errorNotice("The link you followed has expired. Please try again.")})
		return
	}
	ctx := r.Context()
	switch action {
	case "enroll":
		e, err := h.d.Accounts.EnrollTOTP(ctx, u.ID, r.PostFormValue("password"))
		if err != nil {
			h.securityRefusal(w, r, err, "enroll_password", nil)
			return
		}
		h.renderSecurity(w, r, securityView{enrollment: e})
	case "confirm":
		codes, err := h.d.Accounts.ConfirmTOTP(ctx, u.ID, r.PostFormValue("code"))
		if err != nil {
			e, perr := h.d.Accounts.PendingEnrollment(ctx, u.ID)
			if perr != nil {
				e = nil // setup gone (or done elsewhere): show the page as it is
			}
			h.securityRefusal(w, r, err, "confirm_code", e)
			return
		}
		// Two-factor on is a change of privilege: a new session token.
		if err := h.renewLogin(w, r); err != nil {
			h.d.Pages.PageError(w, "renew session", err)
			return
		}
		h.renderSecurity(w, r, securityView{codes: codes,
			notice: &pages.Notice{Kind: "message", Text: "Two-factor authentication is on. Save your recovery codes now: they are shown only once."}})
	case "new-codes":
		codes, err := h.d.Accounts.NewRecoveryCodes(ctx, u.ID, r.PostFormValue("code"), r.PostFormValue("password"))
		if err != nil {
			field := "new_codes_code"
			if errors.Is(err, account.ErrBadCredentials) {
				field = "new_codes_password"
			}
			h.securityRefusal(w, r, err, field, nil)
			return
		}
		h.renderSecurity(w, r, securityView{codes: codes,
			notice: &pages.Notice{Kind: "message", Text: "New recovery codes were made and the old ones no longer work. Save these now: they are shown only once."}})
	case "disable":
		if err := h.d.Accounts.DisableTOTP(ctx, u.ID, r.PostFormValue("password"), r.PostFormValue("code")); err != nil {
			field := "disable_password"
			var input *account.InputError
			if errors.Is(err, account.ErrCodeInvalid) || errors.Is(err, account.ErrCodeReused) || (errors.As(err, &input) && input.Field == "code") {
				field = "disable_code"
			}
			h.securityRefusal(w, r, err, field, nil)
			return
		}
		if err := h.renewLogin(w, r); err != nil {
			h.d.Pages.PageError(w, "renew session", err)
			return
		}
		h.securityDone(w, r, "disabled")
	case "forget-device":
		id, err := strconv.ParseInt(r.PostFormValue("device"), 10, 64)
		if err == nil {
			err = h.d.Accounts.RevokeDevice(ctx, u.ID, id)
		} else {
			err = account.ErrDeviceNotFound
		}
		if err != nil {
			h.securityRefusal(w, r, err, "", nil)
			return
		}
		h.securityDone(w, r, "device-forgotten")
	case "forget-all":
		if err := h.d.Accounts.RevokeAllDevices(ctx, u.ID); err != nil {
			h.d.Pages.PageError(w, "forget devices", err)
			return
		}
		h.securityDone(w, r, "devices-forgotten")
	}
}

func errorNotice(text string) *pages.Notice { return &pages.Notice{Kind: "error", Text: text} }

func (h *Account) securityDone(w http.ResponseWriter, r *http.Request, flash string) {
	h.setSecurityFlash(w, flash)
	http.Redirect(w, r, securityPath, http.StatusSeeOther)
}

// securityRefusal re-renders the page for a refused form: the use case's
// error as a notice and, when field is set, as that field's error.
// Errors that are not the customer's (the store is down) are a 500.
func (h *Account) securityRefusal(w http.ResponseWriter, r *http.Request, err error, field string, e *account.Enrollment) {
	status, text := http.StatusBadRequest, ""
	var locked *account.LockedError
	var input *account.InputError
	switch {
	case errors.As(err, &locked):
		status = http.StatusTooManyRequests
		w.Header().Set("Retry-After", httpx.RetryAfter(locked.RetryAfter))
		text = tooManyText(locked)
	case errors.As(err, &input):
		text = input.Message
	case errors.Is(err, account.ErrCodeReused):
		text = "That code was already used. Wait for the next code in your authenticator app."
		h.d.KickMail() // the owner's notice (queued by the use case)
	case errors.Is(err, account.ErrCodeInvalid):
		text = "The code is not correct. Check the time on your device and try the current code."
	case errors.Is(err, account.ErrBadCredentials):
		text = "The password is not correct."
	case errors.Is(err, account.ErrTOTPEnabled):
		status, field, text = http.StatusConflict, "", "Two-factor authentication is already on."
	case errors.Is(err, account.ErrTOTPNotEnabled):
		status, field, text = http.StatusConflict, "", "Two-factor authentication is off."
	case errors.Is(err, account.ErrTOTPNotPending):
		status, field, text = http.StatusConflict, "", "Two-factor setup was not started, or was finished elsewhere. Please start again."
	case errors.Is(err, account.ErrDeviceNotFound):
		status, text = http.StatusNotFound, "That device is not remembered (it may have been forgotten already)."
	case errors.Is(err, account.ErrSealed):
		h.d.Log.Error("security page: two-factor secret cannot be opened (was the shop secret changed?)", "user", httpx.UserOf(r).ID)
		status, field, text = http.StatusInternalServerError, "", "Two-factor authentication cannot be checked right now. Please contact the shop."
	default:
		h.d.Pages.PageError(w, "security page", err)
		return
	}
	v := securityView{status: status, notice: errorNotice(text), enrollment: e}
	if field != "" {
		v.errors = map[string]string{field: text}
	}
	h.renderSecurity(w, r, v)
}

// waitText is a lockout's wait for people: whole minutes, rounded up.
func waitText(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	if m <= 1 {
		return "1 minute"
	}
	return strconv.Itoa(m) + " minutes"
}

// OwnerView loads an account's owner for the account notices. An
// unknown account is mail.ErrNotFound (the message is given up).
func (h *Account) OwnerView(ctx context.Context, userID int64) (mail.OwnerView, error) {
	u, err := h.d.Accounts.User(ctx, userID)
	if errors.Is(err, account.ErrNoUser) {
		return mail.OwnerView{}, fmt.Errorf("account %d: %w", userID, mail.ErrNotFound)
	}
	if err != nil {
		return mail.OwnerView{}, err
	}
	return mail.OwnerView{ShopName: h.d.SiteName(), Email: u.Email, Name: u.DisplayName,
		SecurityURL: strings.TrimRight(h.d.BaseURL, "/") + securityPath}, nil
}
