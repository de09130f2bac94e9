package server

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
// queued by the store and rendered by AccountMailView.

const (
	lostPasswordPath = "/my-account/lost-password/"
	verifyEmailPath  = "/my-account/verify-email/"

	lostPasswordAction  = "lost_password"
	resetPasswordAction = "reset_password"
	verifyEmailAction   = "verify-email"
)

func (s *Server) resetCookieName() string { return "wp-resetpass-" + s.CookieHash() }

func (s *Server) setResetCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: s.resetCookieName(), Value: value, Path: lostPasswordPath, MaxAge: maxAge,
		HttpOnly: true, Secure: s.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// resetCookie reads the reset cookie: the user id and the token.
func (s *Server) resetCookie(r *http.Request) (int64, string, bool) {
	c, err := r.Cookie(s.resetCookieName())
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

func (s *Server) resetLifetime() time.Duration {
	if s.accounts.ResetLifetime > 0 {
		return s.accounts.ResetLifetime
	}
	return account.ResetLifetime
}

func (s *Server) verifyLifetime() time.Duration {
	if s.accounts.VerifyLifetime > 0 {
		return s.accounts.VerifyLifetime
	}
	return account.VerifyLifetime
}

func linkHeaders(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer")
}

// handleLostPassword answers GET /my-account/lost-password/.
func (s *Server) handleLostPassword(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	q := r.URL.Query()
	if key := q.Get("key"); key != "" {
		id, err := strconv.ParseInt(q.Get("id"), 10, 64)
		if err != nil || id <= 0 || len(key) > 128 {
			s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
			return
		}
		s.setResetCookie(w, strconv.FormatInt(id, 10)+":"+key, int(s.resetLifetime()/time.Second))
		http.Redirect(w, r, lostPasswordPath+"?show-reset-form=true", http.StatusFound)
		return
	}
	switch {
	case q.Get("show-reset-form") != "":
		u, _, ok := s.liveReset(w, r)
		if !ok {
			return
		}
		s.renderResetForm(w, r, u, "", "", http.StatusOK)
	case q.Get("reset-link-sent") != "":
		s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageSent}, http.StatusOK)
	case q.Get("password-reset") != "":
		s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageDone}, http.StatusOK)
	default:
		s.renderRequestForm(w, r, "", "", "", http.StatusOK)
	}
}

// liveReset checks the reset cookie's link; when it is not live it
// answers the invalid page (and drops the cookie) and reports false.
func (s *Server) liveReset(w http.ResponseWriter, r *http.Request) (*account.User, string, bool) {
	id, key, ok := s.resetCookie(r)
	var u *account.User
	var err error
	if ok {
		u, err = s.accounts.CheckReset(r.Context(), key)
	}
	if err != nil && !errors.Is(err, account.ErrResetInvalid) && !errors.Is(err, account.ErrNoUser) {
		s.PageError(w, "lost password", err)
		return nil, "", false
	}
	if !ok || err != nil || u.ID != id {
		s.setResetCookie(w, "", -1)
		s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
		return nil, "", false
	}
	return u, key, true
}

func (s *Server) renderRequestForm(w http.ResponseWriter, r *http.Request, login, msg, field string, status int) {
	scope := s.CartSessionOf(r, s.now()).Scope()
	s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageRequest, Login: login, Error: msg, Field: field,
		Nonce: s.ActionNonce(lostPasswordAction, scope, httpx.NonceTickAt(s.now()))}, status)
}

func (s *Server) renderResetForm(w http.ResponseWriter, r *http.Request, u *account.User, msg, field string, status int) {
	login := u.Username
	if login == "" {
		login = u.Email
	}
	scope := s.CartSessionOf(r, s.now()).Scope()
	s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageReset, Login: login, Error: msg, Field: field,
		Nonce: s.ActionNonce(resetPasswordAction, scope, httpx.NonceTickAt(s.now()))}, status)
}

func (s *Server) renderLostPassword(w http.ResponseWriter, r *http.Request, p pages.LostPasswordPage, status int) {
	// The address without its query: the page never echoes a key.
	res, err := s.loader.LostPassword(s.PageContext(r), lostPasswordPath, p, status)
	if err != nil {
		s.PageError(w, "lost password page", err)
		return
	}
	s.writeLinkPage(w, r, lostPasswordPath, res)
}

func (s *Server) writeLinkPage(w http.ResponseWriter, r *http.Request, path string, res *pages.Result) {
	p, err := s.renderPage(r.Context(), path, res)
	if err != nil {
		s.PageError(w, "account page", err)
		return
	}
	linkHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	httpx.WriteBody(w, r, p)
}

// handleLostPasswordPost answers POST /my-account/lost-password/: the
// request form (user_login) or the new-password form (password_1).
func (s *Server) handleLostPasswordPost(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "The form could not be read.", http.StatusBadRequest)
		return
	}
	now := s.now()
	scope := s.CartSessionOf(r, now).Scope()
	if _, ok := r.PostForm["password_1"]; ok {
		s.resetPasswordPost(w, r, scope)
		return
	}
	login := strings.TrimSpace(r.PostFormValue("user_login"))
	if len(login) > 254 {
		login = login[:254]
	}
	if !s.VerifyActionNonce(r.PostFormValue("woocommerce-lost-password-nonce"), lostPasswordAction, scope, httpx.NonceTickAt(now)) {
		s.renderRequestForm(w, r, login, "We were unable to process your request, please try again.", "", http.StatusForbidden)
		return
	}
	if login == "" {
		s.renderRequestForm(w, r, login, "Enter a username or email address.", "user_login", http.StatusBadRequest)
		return
	}
	_, _, err := s.accounts.RequestReset(r.Context(), login, s.clientIP(r))
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		w.Header().Set("Retry-After", httpx.RetryAfter(locked.RetryAfter))
		s.renderRequestForm(w, r, login, "Too many password reset requests. Please try again later.", "", http.StatusTooManyRequests)
		return
	case err != nil:
		s.PageError(w, "lost password", err)
		return
	}
	s.kickMail()
	http.Redirect(w, r, lostPasswordPath+"?reset-link-sent=true", http.StatusSeeOther)
}

func (s *Server) resetPasswordPost(w http.ResponseWriter, r *http.Request, scope string) {
	u, key, ok := s.liveReset(w, r)
	if !ok {
		return
	}
	if !s.VerifyActionNonce(r.PostFormValue("woocommerce-reset-password-nonce"), resetPasswordAction, scope, httpx.NonceTickAt(s.now())) {
		s.renderResetForm(w, r, u, "We were unable to process your request, please try again.", "", http.StatusForbidden)
		return
	}
	p1, p2 := r.PostFormValue("password_1"), r.PostFormValue("password_2")
	switch {
	case p1 == "":
		s.renderResetForm(w, r, u, "Please enter your password.", "password_1", http.StatusBadRequest)
		return
	case p1 != p2:
		s.renderResetForm(w, r, u, "Passwords do not match.", "password_2", http.StatusBadRequest)
		return
	}
	_, err := s.accounts.ResetPassword(r.Context(), key, p1)
	var in *account.InputError
	switch {
	case errors.As(err, &in):
		s.renderResetForm(w, r, u, in.Message, "password_1", http.StatusBadRequest)
		return
	case errors.Is(err, account.ErrResetInvalid):
		s.setResetCookie(w, "", -1)
		s.renderLostPassword(w, r, pages.LostPasswordPage{Stage: pages.LostStageInvalid}, http.StatusBadRequest)
		return
	case err != nil:
		s.PageError(w, "reset password", err)
		return
	}
	s.setResetCookie(w, "", -1)
	s.kickMail()
	http.Redirect(w, r, lostPasswordPath+"?password-reset=true", http.StatusSeeOther)
}

// sendVerification queues a new email verification link for userID (to its
// current address). Registration and the email change call it; too many
// links this hour is an *account.LockedError.
func (s *Server) sendVerification(ctx context.Context, userID int64) error {
	if _, _, err := s.accounts.RequestEmailVerification(ctx, userID); err != nil {
		return err
	}
	s.kickMail()
	return nil
}

// verifyEmailNonce is the resend form's _wpnonce for a logged-in user (the
// dashboard's "resend the link" form posts it to /my-account/verify-email/).
func (s *Server) verifyEmailNonce(u *account.User) string {
	return s.ActionNonce(verifyEmailAction, cart.CustomerSession(u.ID), httpx.NonceTickAt(s.now()))
}

// handleVerifyEmail answers GET /my-account/verify-email/.
func (s *Server) handleVerifyEmail(w http.ResponseWriter, r *http.Request) {
	linkHeaders(w)
	u := httpx.UserOf(r)
	q := r.URL.Query()
	if key := q.Get("key"); key != "" {
		p := pages.VerifyEmailPage{Outcome: pages.VerifyOutcomeVerified}
		status := http.StatusOK
		_, err := s.accounts.VerifyEmail(r.Context(), key)
		switch {
		case errors.Is(err, account.ErrVerificationInvalid):
			p.Outcome, status = pages.VerifyOutcomeInvalid, http.StatusBadRequest
		case err != nil:
			s.PageError(w, "verify email", err)
			return
		}
		s.renderVerifyEmail(w, r, u, p, status)
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
	s.renderVerifyEmail(w, r, u, p, http.StatusOK)
}

// handleVerifyEmailPost answers POST /my-account/verify-email/: a new link.
func (s *Server) handleVerifyEmailPost(w http.ResponseWriter, r *http.Request) {
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
	if !s.VerifyActionNonce(r.PostFormValue("_wpnonce"), verifyEmailAction, cart.CustomerSession(u.ID), httpx.NonceTickAt(s.now())) {
		s.renderVerifyEmail(w, r, u, pages.VerifyEmailPage{Outcome: pages.VerifyOutcomePending,
			Error: "The link you followed has expired. Please try again."}, http.StatusForbidden)
		return
	}
	if !u.EmailVerifiedAt.IsZero() {
		http.Redirect(w, r, verifyEmailPath, http.StatusSeeOther)
		return
	}
	err := s.sendVerification(r.Context(), u.ID)
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		w.Header().Set("Retry-After", httpx.RetryAfter(locked.RetryAfter))
		s.renderVerifyEmail(w, r, u, pages.VerifyEmailPage{Outcome: pages.VerifyOutcomeLimited}, http.StatusTooManyRequests)
		return
	case err != nil:
		s.PageError(w, "verify email", err)
		return
	}
	http.Redirect(w, r, verifyEmailPath+"?sent=1", http.StatusSeeOther)
}

func (s *Server) renderVerifyEmail(w http.ResponseWriter, r *http.Request, u *account.User, p pages.VerifyEmailPage, status int) {
	if u != nil {
		p.LoggedIn = true
		if u.EmailVerifiedAt.IsZero() && p.Outcome != pages.VerifyOutcomeVerified {
			p.Nonce = s.verifyEmailNonce(u)
		}
	}
	res, err := s.loader.VerifyEmail(s.PageContext(r), verifyEmailPath, p, status)
	if err != nil {
		s.PageError(w, "verify email page", err)
		return
	}
	s.writeLinkPage(w, r, verifyEmailPath, res)
}

// AccountMailView loads an account mail for the outbox (mail.Renderers
// routes the account kinds here). A mail that can no longer be sent (its
// link used or expired, the account gone) is mail.ErrNotFound: given up.
func (s *Server) AccountMailView(ctx context.Context, kind, ref string) (mail.AccountView, error) {
	c, err := s.accounts.MailContent(ctx, kind, ref)
	if errors.Is(err, account.ErrMailVoid) {
		return mail.AccountView{}, fmt.Errorf("%s %s: %w", kind, ref, mail.ErrNotFound)
	}
	if err != nil {
		return mail.AccountView{}, err
	}
	base := strings.TrimRight(s.cfg.BaseURL, "/")
	v := mail.AccountView{ShopName: s.siteName(), To: c.To, Name: c.User.DisplayName, Login: c.User.Username,
		NewEmail: c.NewEmail, LostPasswordURL: base + lostPasswordPath, LoginURL: base + "/my-account/", TwoFactor: c.User.TwoFactor()}
	if v.Login == "" {
		v.Login = c.User.Email
	}
	switch kind {
	case account.MailPasswordReset:
		v.Link = base + lostPasswordPath + "?key=" + url.QueryEscape(c.Token) + "&id=" + strconv.FormatInt(c.User.ID, 10)
		v.Lifetime = humanDuration(s.resetLifetime())
	case account.MailVerifyEmail:
		v.Link = base + verifyEmailPath + "?key=" + url.QueryEscape(c.Token)
		v.Lifetime = humanDuration(s.verifyLifetime())
	}
	return v, nil
}

// humanDuration says a link's lifetime: "1 hour", "24 hours", "30 minutes".
func humanDuration(d time.Duration) string {
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	if d >= time.Hour && d%time.Hour == 0 {
		return plural(int(d/time.Hour), "hour")
	}
	return plural(max(1, int(d/time.Minute)), "minute")
}
