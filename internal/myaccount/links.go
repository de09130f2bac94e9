package myaccount

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/mail"
	"vitrine/internal/pages"
)

// The pages the account mails link to (WooCommerce's paths):
//
//   - /my-account/lost-password/: the "Username or email" form, which always
//     answers the same notice (no account enumeration); the mailed link
//     ?key=<token>&id=<user id> moves the key into a short-lived cookie and
//     redirects to ?show-reset-form=true, so the token leaves the address
//     bar and history before any page with links shows; the new-password
//     form then reads the key from the cookie. Every answer carries
//     Referrer-Policy: no-referrer. A reset does not log in (WooCommerce
//     does not, and logging in here would skip the second factor).
//   - /my-account/verify-email/?key=<token>: uses the verification link and
//     shows the outcome; POST asks for a new link (logged in, nonce).
//
// The use cases are account.Service's (RequestReset, CheckReset,
// ResetPassword, RequestEmailVerification, VerifyEmail); the mails are
// queued by the store and rendered by MailView.

const (
	LostPasswordPath = "/my-account/lost-password/"
	VerifyEmailPath  = "/my-account/verify-email/"

	lostPasswordAction  = "lost_password"
	resetPasswordAction = "reset_password"
	verifyEmailAction   = "verify-email"
)

func (h *Account) resetCookieName() string { return "wp-resetpass-" + h.d.Sessions.CookieHash() }

func (h *Account) setResetCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: h.resetCookieName(), Value: value, Path: LostPasswordPath, MaxAge: maxAge,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// resetCookie reads the reset cookie: the user id and the token.
func (h *Account) resetCookie(r *http.Request) (int64, string, bool) {
	c, err := r.Cookie(h.resetCookieName())
	if err != nil || len(c.Value) > 160 {
		return 0, "", false
	}
	id, key, ok := strings.Cut(c.Value, ":")
	uid, err := strconv.ParseInt(id, 10, 64)
	if !ok || err != nil || uid <= 0 || key == "" {
		return 0, "", false
	}
	return uid, key, true
}

func (h *Account) resetLifetime() time.Duration {
	if h.d.Accounts.ResetLifetime > 0 {
		return h.d.Accounts.ResetLifetime
	}
	return account.ResetLifetime
}

func (h *Account) verifyLifetime() time.Duration {
	if h.d.Accounts.VerifyLifetime > 0 {
		return h.d.Accounts.VerifyLifetime
	}
	return account.VerifyLifetime
}

func linkHeaders(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer")
}

// LostPassword answers GET /my-account/lost-password/.
func (h *Account) LostPassword(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	q := r.URL.Query()
	if key := q.Get("key"); key != "" {
		id, err := strconv.ParseInt(q.Get("id"), 10, 64)
		if err != nil || id <= 0 || len(key) > 128 {
			h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
			return
		}
		h.setResetCookie(w, strconv.FormatInt(id, 10)+":"+key, int(h.resetLifetime()/time.Second))
		http.Redirect(w, r, LostPasswordPath+"?show-reset-form=true", http.StatusFound)
		return
	}
	switch {
	case q.Get("show-reset-form") != "":
		u, _, ok := h.liveReset(w, r)
		if !ok {
			return
		}
		h.renderResetForm(w, r, u, "", "", http.StatusOK)
	case q.Get("reset-link-sent") != "":
		h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageSent}, http.StatusOK)
	case q.Get("password-reset") != "":
		h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageDone}, http.StatusOK)
	default:
		h.renderRequestForm(w, r, "", "", "", http.StatusOK)
	}
}

// liveReset checks the reset cookie's link; when it is not live it
// answers the invalid page (and drops the cookie) and reports false.
func (h *Account) liveReset(w http.ResponseWriter, r *http.Request) (*account.User, string, bool) {
	id, key, ok := h.resetCookie(r)
	var u *account.User
	var err error
	if ok {
		u, err = h.d.Accounts.CheckReset(r.Context(), key)
	}
	if err != nil && !errors.Is(err, account.ErrResetInvalid) && !errors.Is(err, account.ErrNoUser) {
		h.d.Pages.PageError(w, "lost password", err)
		return nil, "", false
	}
	if !ok || err != nil || u.ID != id {
		h.setResetCookie(w, "", -1)
		h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
		return nil, "", false
	}
	return u, key, true
}

func (h *Account) renderRequestForm(w http.ResponseWriter, r *http.Request, login, msg, field string, status int) {
	scope := h.d.Sessions.CartSessionOf(r, h.d.Now()).Scope()
	h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageRequest, Login: login, Error: msg, Field: field,
		Nonce: h.d.Sessions.ActionNonce(lostPasswordAction, scope, httpx.NonceTickAt(h.d.Now()))}, status)
}

func (h *Account) renderResetForm(w http.ResponseWriter, r *http.Request, u *account.User, msg, field string, status int) {
	login := u.Username
	if login == "" {
		login = u.Email
	}
	scope := h.d.Sessions.CartSessionOf(r, h.d.Now()).Scope()
	h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageReset, Login: login, Error: msg, Field: field,
		Nonce: h.d.Sessions.ActionNonce(resetPasswordAction, scope, httpx.NonceTickAt(h.d.Now()))}, status)
}

func (h *Account) renderLostPassword(w http.ResponseWriter, r *http.Request, p pages.LostPasswordPage, status int) {
	// The address without its query: the page never echoes a key.
	res, err := h.d.Loader.LostPassword(h.d.Pages.PageContext(r), LostPasswordPath, p, status)
	if err != nil {
		h.d.Pages.PageError(w, "lost password page", err)
		return
	}
	h.writeLinkPage(w, r, LostPasswordPath, res)
}

func (h *Account) writeLinkPage(w http.ResponseWriter, r *http.Request, path string, res *pages.Result) {
	p, err := h.d.Pages.RenderPage(r.Context(), path, res)
	if err != nil {
		h.d.Pages.PageError(w, "account page", err)
		return
	}
	linkHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	httpx.WriteBody(w, r, p)
}

// LostPasswordPost answers POST /my-account/lost-password/: the
// request form (user_login) or the new-password form (password_1).
func (h *Account) LostPasswordPost(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form could not be read.", http.StatusBadRequest)
		return
	}
	now := h.d.Now()
	scope := h.d.Sessions.CartSessionOf(r, now).Scope()
	if _, ok := r.PostForm["password_1"]; ok {
		h.resetPasswordPost(w, r, scope)
		return
	}
	login := strings.TrimSpace(r.PostFormValue("user_login"))
	if len(login) > 254 {
		login = login[:254]
	}
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("woocommerce-lost-password-nonce"), lostPasswordAction, scope, httpx.NonceTickAt(now)) {
		h.renderRequestForm(w, r, login, "We were unable to process your request, please try again.", "", http.StatusForbidden)
		return
	}
	if login == "" {
		h.renderRequestForm(w, r, login, "Enter a username or email address.", "user_login", http.StatusBadRequest)
		return
	}
	_, _, err := h.d.Accounts.RequestReset(r.Context(), login, h.d.ClientIP(r))
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		w.Header().Set("Retry-After", httpx.RetryAfter(locked.RetryAfter))
		h.renderRequestForm(w, r, login, "Too many password reset requests. Please try again later.", "", http.StatusTooManyRequests)
		return
	case err != nil:
		h.d.Pages.PageError(w, "lost password", err)
		return
	}
	h.d.KickMail()
	http.Redirect(w, r, LostPasswordPath+"?reset-link-sent=true", http.StatusSeeOther)
}

func (h *Account) resetPasswordPost(w http.ResponseWriter, r *http.Request, scope string) {
	u, key, ok := h.liveReset(w, r)
	if !ok {
		return
	}
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("woocommerce-reset-password-nonce"), resetPasswordAction, scope, httpx.NonceTickAt(h.d.Now())) {
		h.renderResetForm(w, r, u, "We were unable to process your request, please try again.", "", http.StatusForbidden)
		return
	}
	p1, p2 := r.PostFormValue("password_1"), r.PostFormValue("password_2")
	switch {
	case p1 == "":
		h.renderResetForm(w, r, u, "Please enter your password.", "password_1", http.StatusBadRequest)
		return
	case p1 != p2:
		h.renderResetForm(w, r, u, "Passwords do not match.", "password_2", http.StatusBadRequest)
		return
	}
	_, err := h.d.Accounts.ResetPassword(r.Context(), key, p1)
	var in *account.InputError
	switch {
	case errors.As(err, &in):
		h.renderResetForm(w, r, u, in.Message, "password_1", http.StatusBadRequest)
		return
	case errors.Is(err, account.ErrResetInvalid):
		h.setResetCookie(w, "", -1)
		h.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
		return
	case err != nil:
		h.d.Pages.PageError(w, "reset password", err)
		return
	}
	h.setResetCookie(w, "", -1)
	h.d.KickMail()
	http.Redirect(w, r, LostPasswordPath+"?password-reset=true", http.StatusSeeOther)
}

// SendVerification queues a new email verification link for userID (to its
// current address). Registration and the email change call it; too many
// links this hour is an *account.LockedError.
func (h *Account) SendVerification(ctx context.Context, userID int64) error {
	if _, _, err := h.d.Accounts.RequestEmailVerification(ctx, userID); err != nil {
		return err
	}
	h.d.KickMail()
	return nil
}

// verifyEmailNonce is the resend form's _wpnonce for a logged-in user (the
// dashboard's "resend the link" form posts it to /my-account/verify-email/).
func (h *Account) verifyEmailNonce(u *account.User) string {
	return h.d.Sessions.ActionNonce(verifyEmailAction, cart.CustomerSession(u.ID), httpx.NonceTickAt(h.d.Now()))
}

// VerifyEmail answers GET /my-account/verify-email/.
func (h *Account) VerifyEmail(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	u := httpx.UserOf(r)
	q := r.URL.Query()
	if key := q.Get("key"); key != "" {
		p := pages.VerifyEmailPage{Outcome: pages.VerifyOutcomeVerified}
		status := http.StatusOK
		_, err := h.d.Accounts.VerifyEmail(r.Context(), key)
		switch {
		case errors.Is(err, account.ErrVerificationInvalid):
			p.Outcome, status = pages.VerifyOutcomeInvalid, http.StatusBadRequest
		case err != nil:
			h.d.Pages.PageError(w, "verify email", err)
			return
		}
		h.renderVerifyEmail(w, r, u, p, status)
		return
	}
	if u == nil {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
		return
	}
	p := pages.VerifyEmailPage{Outcome: pages.VerifyOutcomePending}
	if q.Get("sent") != "" {
		p.Outcome = pages.VerifyOutcomeSent
	} else if !u.EmailVerifiedAt.IsZero() {
		p.Outcome = pages.VerifyOutcomeVerified
	}
	h.renderVerifyEmail(w, r, u, p, http.StatusOK)
}

// VerifyEmailPost answers POST /my-account/verify-email/: a new link.
func (h *Account) VerifyEmailPost(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	u := httpx.UserOf(r)
	if u == nil {
		http.Redirect(w, r, "/my-account/", http.StatusSeeOther)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form could not be read.", http.StatusBadRequest)
		return
	}
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("_wpnonce"), verifyEmailAction, cart.CustomerSession(u.ID), httpx.NonceTickAt(h.d.Now())) {
		h.renderVerifyEmail(w, r, u, pages.VerifyEmailPage{Outcome: pages.VerifyOutcomePending,
			Error: "The link you followed has expired. Please try again."}, http.StatusForbidden)
		return
	}
	if !u.EmailVerifiedAt.IsZero() {
		http.Redirect(w, r, VerifyEmailPath, http.StatusSeeOther)
		return
	}
	err := h.SendVerification(r.Context(), u.ID)
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		w.Header().Set("Retry-After", httpx.RetryAfter(locked.RetryAfter))
		h.renderVerifyEmail(w, r, u, pages.VerifyEmailPage{Outcome: pages.VerifyOutcomeLimited}, http.StatusTooManyRequests)
		return
	case err != nil:
		h.d.Pages.PageError(w, "verify email", err)
		return
	}
	http.Redirect(w, r, VerifyEmailPath+"?sent=1", http.StatusSeeOther)
}

func (h *Account) renderVerifyEmail(w http.ResponseWriter, r *http.Request, u *account.User, p pages.VerifyEmailPage, status int) {
	if u != nil {
		p.LoggedIn = true
		if u.EmailVerifiedAt.IsZero() && p.Outcome != pages.VerifyOutcomeVerified {
			p.Nonce = h.verifyEmailNonce(u)
		}
	}
	res, err := h.d.Loader.VerifyEmail(h.d.Pages.PageContext(r), VerifyEmailPath, p, status)
	if err != nil {
		h.d.Pages.PageError(w, "verify email page", err)
		return
	}
	h.writeLinkPage(w, r, VerifyEmailPath, res)
}

// MailView loads an account mail for the outbox (mail.Renderers
// routes the account kinds here). A mail that can no longer be sent (its
// link used or expired, the account gone) is mail.ErrNotFound: given up.
func (h *Account) MailView(ctx context.Context, kind, ref string) (mail.AccountView, error) {
	c, err := h.d.Accounts.MailContent(ctx, kind, ref)
	if errors.Is(err, account.ErrMailVoid) {
		return mail.AccountView{}, fmt.Errorf("%s %s: %w", kind, ref, mail.ErrNotFound)
	}
	if err != nil {
		return mail.AccountView{}, err
	}
	base := strings.TrimRight(h.d.BaseURL, "/")
	v := mail.AccountView{ShopName: h.d.SiteName(), To: c.To, Name: c.User.DisplayName, Login: c.User.Username,
		NewEmail: c.NewEmail, LostPasswordURL: base + LostPasswordPath, LoginURL: base + "/my-account/", TwoFactor: c.User.TwoFactor()}
	if v.Login == "" {
		v.Login = c.User.Email
	}
	switch kind {
	case account.MailPasswordReset:
		v.Link = base + LostPasswordPath + "?key=" + url.QueryEscape(c.Token) + "&id=" + strconv.FormatInt(c.User.ID, 10)
		v.Lifetime = humanDuration(h.resetLifetime())
	case account.MailVerifyEmail:
		v.Link = base + VerifyEmailPath + "?key=" + url.QueryEscape(c.Token)
		v.Lifetime = humanDuration(h.verifyLifetime())
	case account.MailInvitation:
		// An ordinary reset link, living as long as the invitation's row says.
		v.Link = base + LostPasswordPath + "?key=" + url.QueryEscape(c.Token) + "&id=" + strconv.FormatInt(c.User.ID, 10)
		left := c.ExpiresAt.Sub(h.d.Now())
		if left >= 48*time.Hour {
			left = left.Round(24 * time.Hour)
		} else {
			left = max(left.Round(time.Hour), time.Hour)
		}
		v.Lifetime = humanDuration(left)
		v.Expires = c.ExpiresAt.UTC().Format("January 2, 2006")
	}
	return v, nil
}

// humanDuration says a link's lifetime: "1 hour", "24 hours", "30 minutes",
// "14 days" (whole days from two on).
func humanDuration(d time.Duration) string {
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return plural(int(d/(24*time.Hour)), "day")
	}
	if d >= time.Hour && d%time.Hour == 0 {
		return plural(int(d/time.Hour), "hour")
	}
	return plural(max(1, int(d/time.Minute)), "minute")
}
