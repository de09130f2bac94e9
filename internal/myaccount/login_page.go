package myaccount

import (
	"errors"
	"html"
	"net/http"
	"net/url"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
)

// The login and registration page (GET /my-account/ for a visitor), its
// real form submit (POST /my-account/, WooCommerce's field names) and the
// customer log-out link. The checks are the ajax call's (login_ajax.go),
// repeated here because the form may be posted without it: credentials,
// the bot-check (the ajax call's proof, or a fresh payload) and the second
// factor when enrolled and the device is not remembered. Refusals re-render
// the page with the notice and the entered values (never the passwords):
// 400 bad input or credentials, 403 bot-check or nonce, 429 lockout.

const (
	loginNonceAction    = "woocommerce-login"
	registerNonceAction = "woocommerce-register"

	msgNonce = "<strong>ERROR</strong>: This form has expired. Please reload the page and try again."
)

// loginPage is the page data a handler fills before rendering.
func (h *Account) loginPage(r *http.Request) pages.AccountLoginPage {
	scope := h.guestScope(r)
	tick := httpx.NonceTickAt(h.d.Now())
	return pages.AccountLoginPage{
		LoginNonce:    h.d.Sessions.ActionNonce(loginNonceAction, scope, tick),
		RegisterNonce: h.d.Sessions.ActionNonce(registerNonceAction, scope, tick),
		AjaxURL:       "/wp-admin/admin-ajax.php",
		Botcheck: map[string]string{"login": "/wp-json/vitrine/v1/botcheck/login",
			"register": "/wp-json/vitrine/v1/botcheck/register"},
		RememberDevice:  !h.d.RememberDeviceOff,
		LostPasswordURL: "/my-account/lost-password/",
		Redirect:        safeRedirect(r.FormValue("redirect")),
		Form:            "login",
	}
}

// guestScope binds the login and registration nonces to the visitor's
// guest cart session (or to none), never to a logged-in viewer: a form
// shown before a login in another tab still posts.
func (h *Account) guestScope(r *http.Request) string {
	if id, ok := h.d.Sessions.SessionFromCookie(r, h.d.Now()); ok {
		return id
	}
	return ""
}

// handleLoginPage answers GET /my-account/ for a visitor.
func (h *Account) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	p := h.loginPage(r)
	// "Your account has been deleted." after the delete-account form.
	if n := h.takeAccountNotice(w, r); n != "" {
		p.Notices = append(p.Notices, pages.LoginNotice{Kind: "message", HTML: html.EscapeString(n)})
	}
	h.renderLogin(w, r, p, http.StatusOK)
}

func (h *Account) renderLogin(w http.ResponseWriter, r *http.Request, p pages.AccountLoginPage, status int) {
	res, err := h.d.Loader.AccountLogin(h.d.Pages.PageContext(r), r.URL.RequestURI(), pages.AccountLoginInput{Page: p, Status: status})
	h.d.Pages.SendPersonal(w, r, "login page", r.URL.RequestURI(), res, err)
}

// safeRedirect keeps a same-site path ("/checkout/"), and nothing else: no
// scheme, no host, no "//" or "/\" (protocol-relative), no control
// characters. Anything else is "" (the account page).
func safeRedirect(target string) string {
	if target == "" || len(target) > 2000 || !strings.HasPrefix(target, "/") ||
		strings.HasPrefix(target, "//") || strings.HasPrefix(target, `/\`) || strings.ContainsAny(target, "\r\n\t\\") {
		return ""
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return target
}

// handleLoginPost answers POST /my-account/: the login form (submit field
// "login") or the registration form ("register").
func (h *Account) handleLoginPost(w http.ResponseWriter, r *http.Request) {
	// A request already logged in goes through the same checks: LogIn
	// ends its old session, so a session planted in the browser does not
	// survive a login (session fixation).
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad form.", http.StatusBadRequest)
		return
	}
	switch {
	case r.PostForm.Has("register") || r.PostForm.Has("woocommerce-register-nonce"):
		h.postRegister(w, r)
	default:
		h.postLogin(w, r)
	}
}

func (h *Account) refuseLogin(w http.ResponseWriter, r *http.Request, p pages.AccountLoginPage, status int, text string) {
	p.Notices = append(p.Notices, pages.LoginNotice{Kind: "error", HTML: text})
	h.renderLogin(w, r, p, status)
}

func (h *Account) postLogin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := h.loginPage(r)
	p.Redirect = safeRedirect(r.PostFormValue("redirect"))
	login, password := postedLogin(r)
	p.Values.Username = login
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("woocommerce-login-nonce"), loginNonceAction, h.guestScope(r), httpx.NonceTickAt(h.d.Now())) {
		h.refuseLogin(w, r, p, http.StatusForbidden, msgNonce)
		return
	}
	if login == "" || password == "" {
		h.refuseLogin(w, r, p, http.StatusBadRequest, msgMissingCredentials)
		return
	}
	passed, err := h.loginBotcheck(ctx, r, login)
	if botcheck.IsRefusal(err) {
		h.refuseLogin(w, r, p, http.StatusForbidden, msgCaptcha)
		return
	}
	if err != nil {
		h.d.Log.Error("login bot-check", "err", err)
		h.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	res, err := h.d.Accounts.AuthenticateAttempt(ctx, account.Attempt{Login: login, Password: password, ClientIP: h.d.ClientIP(r), Strong: passed.Strong})
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		h.refuseLogin(w, r, p, http.StatusTooManyRequests, lockedText(locked.RetryAfter))
		return
	case errors.Is(err, account.ErrBadCredentials):
		h.refuseLogin(w, r, p, http.StatusBadRequest, msgBadCredentials)
		return
	case errors.Is(err, account.ErrStepUp):
		// The page's script passes the stronger check and posts again.
		h.refuseLogin(w, r, p, http.StatusForbidden, msgStepUp)
		return
	case err != nil:
		h.d.Log.Error("authenticate", "err", err)
		h.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	u := res.User
	verified := false // a second factor was checked in this login
	if res.TwoFactorRequired && !h.rememberedForLogin(r, u.ID) {
		if proofPasses2FA(passed, u.ID) {
			verified = true
		} else {
			code := strings.TrimSpace(r.PostFormValue("wfls-token"))
			if code == "" {
				h.refuseLogin(w, r, p, http.StatusBadRequest, "<strong>ERROR</strong>: Please enter the code from your authenticator app.")
				return
			}
			if err := h.d.Accounts.VerifySecondFactor(ctx, u.ID, code); err != nil {
				switch {
				case errors.As(err, &locked):
					httpx.SetRetryAfter(w, locked.RetryAfter)
					h.refuseLogin(w, r, p, http.StatusTooManyRequests, lockedText(locked.RetryAfter))
				case errors.Is(err, account.ErrCodeReused):
					h.refuseLogin(w, r, p, http.StatusBadRequest, msgCodeReused)
				case errors.Is(err, account.ErrCodeInvalid):
					h.refuseLogin(w, r, p, http.StatusBadRequest, msgCodeInvalid)
				default:
					h.d.Log.Error("two-factor code", "err", err)
					h.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
				}
				return
			}
			verified = true
		}
	}
	if _, err := h.LogIn(w, r, u); err != nil {
		h.d.Pages.PageError(w, "log in", err)
		return
	}
	if verified && !h.d.RememberDeviceOff && r.PostFormValue("wfls-remember-device") == "1" {
		token, dev, err := h.d.Accounts.RememberDevice(ctx, u.ID, deviceLabel(r.UserAgent()))
		if err != nil {
			// The login stands; the device is asked for a code next time.
			h.d.Log.Warn("remember device", "user", u.ID, "err", err)
		} else {
			h.SetDeviceCookie(w, u.ID, token, dev.ExpiresAt)
		}
	}
	target := p.Redirect
	if target == "" {
		target = "/my-account/"
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// deviceLabel names a remembered device in the security page's list: the
// browser's user agent, cut short.
func deviceLabel(ua string) string {
	ua = strings.TrimSpace(strings.ToValidUTF8(ua, ""))
	if ua == "" {
		return "Unknown browser"
	}
	if len(ua) > 120 {
		ua = strings.ToValidUTF8(ua[:120], "")
	}
	return ua
}

func (h *Account) postRegister(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := h.loginPage(r)
	p.Form = "register"
	p.Redirect = safeRedirect(r.PostFormValue("redirect"))
	// No username is asked: accounts registered here log in by email, so
	// a taken username can never tell anything either (a posted one is
	// ignored).
	email := strings.TrimSpace(r.PostFormValue("email"))
	p.Values.RegEmail = email
	if !h.d.Sessions.VerifyActionNonce(r.PostFormValue("woocommerce-register-nonce"), registerNonceAction, h.guestScope(r), httpx.NonceTickAt(h.d.Now())) {
		h.refuseLogin(w, r, p, http.StatusForbidden, msgNonce)
		return
	}
	if err := h.d.Botcheck("register").Verify(ctx, r.PostFormValue("wfls-captcha")); err != nil {
		if botcheck.IsRefusal(err) {
			// The visitor may still write to support (wordfence_ls_register_support).
			p.SupportNonce = h.supportToken(r)
			h.refuseLogin(w, r, p, http.StatusForbidden, "<strong>ERROR</strong>: The bot check could not be verified, so the account was not created. Please try again, or send a message to the site's support team."+supportLink())
			return
		}
		h.d.Log.Error("register bot-check", "err", err)
		h.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	u, err := h.d.Accounts.Register(ctx, account.Registration{Email: email, Password: r.PostFormValue("password"), ClientIP: h.d.ClientIP(r)})
	var inErr *account.InputError
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		h.refuseLogin(w, r, p, http.StatusTooManyRequests, "<strong>Error:</strong> Too many registrations from your address. Please try again in "+waitText(locked.RetryAfter)+".")
		return
	case errors.As(err, &inErr):
		h.refuseLogin(w, r, p, http.StatusBadRequest, "<strong>Error:</strong> "+html.EscapeString(inErr.Message))
		return
	case errors.Is(err, account.ErrEmailTaken):
		// The same answer as a new account's below; the owner is told by
		// mail (log in, or reset the password).
		if err := h.d.Accounts.NotifyRegisterAttempt(ctx, email); err != nil {
			h.d.Log.Warn("registration attempt notice", "err", err)
		}
	case err != nil:
		h.d.Log.Error("register", "err", err)
		h.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	default:
		// The address is proven by the link (links.go); until
		// then the guest orders placed with it stay unlinked.
		if err := h.SendVerification(ctx, u.ID); err != nil {
			h.d.Log.Warn("verification mail after registration", "user", u.ID, "err", err)
		}
	}
	h.d.KickMail()
	// New or taken, one answer: no login (that would tell the two
	// apart), the login form with the same notice, and the page the
	// visitor was going to kept for after the login.
	h.setAccountNotice(w, "registered")
	target := "/my-account/"
	if p.Redirect != "" {
		target += "?redirect=" + url.QueryEscape(p.Redirect)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// Logout answers GET /my-account/customer-logout/: with the link's
// nonce it logs out and goes to the account page; without a valid one (an
// old link, or a page elsewhere linking here) a logged-in customer is
// asked to confirm, as WooCommerce does, so a cross-site link cannot log
// anyone out.
func (h *Account) Logout(w http.ResponseWriter, r *http.Request) {
	u := customerOr302(w, r)
	if u == nil {
		return
	}
	if !h.d.Sessions.VerifyActionNonce(r.URL.Query().Get("_wpnonce"), "log-out", cart.CustomerSession(u.ID), httpx.NonceTickAt(h.d.Now())) {
		res, err := h.d.Loader.AccountLogout(h.d.Pages.PageContext(r), r.URL.RequestURI(), h.LogoutURL(r))
		h.d.Pages.SendPersonal(w, r, "log-out page", r.URL.RequestURI(), res, err)
		return
	}
	if err := h.logOut(w, r); err != nil {
		h.d.Log.Warn("log out", "user", u.ID, "err", err)
	}
	http.Redirect(w, r, "/my-account/", http.StatusFound)
}
