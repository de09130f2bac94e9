package server

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
func (s *Server) loginPage(r *http.Request) pages.AccountLoginPage {
	scope := s.guestScope(r)
	tick := httpx.NonceTickAt(s.now())
	return pages.AccountLoginPage{
		LoginNonce:    s.ActionNonce(loginNonceAction, scope, tick),
		RegisterNonce: s.ActionNonce(registerNonceAction, scope, tick),
		AjaxURL:       "/wp-admin/admin-ajax.php",
		Botcheck: map[string]string{"login": "/wp-json/vitrine/v1/botcheck/login",
			"register": "/wp-json/vitrine/v1/botcheck/register"},
		RememberDevice:  !s.cfg.RememberDeviceOff,
		LostPasswordURL: "/my-account/lost-password/",
		Redirect:        safeRedirect(r.FormValue("redirect")),
		Form:            "login",
	}
}

// guestScope binds the login and registration nonces to the visitor's
// guest cart session (or to none), never to a logged-in viewer: a form
// shown before a login in another tab still posts.
func (s *Server) guestScope(r *http.Request) string {
	if id, ok := s.SessionFromCookie(r, s.now()); ok {
		return id
	}
	return ""
}

// handleLoginPage answers GET /my-account/ for a visitor.
func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	p := s.loginPage(r)
	// "Your account has been deleted." after the delete-account form.
	if n := s.takeAccountNotice(w, r); n != "" {
		p.Notices = append(p.Notices, pages.LoginNotice{Kind: "message", HTML: html.EscapeString(n)})
	}
	s.renderLogin(w, r, p, http.StatusOK)
}

func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, p pages.AccountLoginPage, status int) {
	res, err := s.loader.AccountLogin(s.PageContext(r), r.URL.RequestURI(), pages.AccountLoginInput{Page: p, Status: status})
	s.SendPersonal(w, r, "login page", r.URL.RequestURI(), res, err)
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
func (s *Server) handleLoginPost(w http.ResponseWriter, r *http.Request) {
	// A request already logged in goes through the same checks: logIn
	// ends its old session, so a session planted in the browser does not
	// survive a login (session fixation).
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad form.", http.StatusBadRequest)
		return
	}
	switch {
	case r.PostForm.Has("register") || r.PostForm.Has("woocommerce-register-nonce"):
		s.postRegister(w, r)
	default:
		s.postLogin(w, r)
	}
}

func (s *Server) refuseLogin(w http.ResponseWriter, r *http.Request, p pages.AccountLoginPage, status int, text string) {
	p.Notices = append(p.Notices, pages.LoginNotice{Kind: "error", HTML: text})
	s.renderLogin(w, r, p, status)
}

func (s *Server) postLogin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := s.loginPage(r)
	p.Redirect = safeRedirect(r.PostFormValue("redirect"))
	login, password := postedLogin(r)
	p.Values.Username = login
	if !s.VerifyActionNonce(r.PostFormValue("woocommerce-login-nonce"), loginNonceAction, s.guestScope(r), httpx.NonceTickAt(s.now())) {
		s.refuseLogin(w, r, p, http.StatusForbidden, msgNonce)
		return
	}
	if login == "" || password == "" {
		s.refuseLogin(w, r, p, http.StatusBadRequest, msgMissingCredentials)
		return
	}
	proof, strong, err := s.loginBotcheck(ctx, r, login)
	if errors.Is(err, errBotcheckRefused) {
		s.refuseLogin(w, r, p, http.StatusForbidden, msgCaptcha)
		return
	}
	if err != nil {
		s.log.Error("login bot-check", "err", err)
		s.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	res, err := s.accounts.AuthenticateAttempt(ctx, account.Attempt{Login: login, Password: password, ClientIP: s.clientIP(r), Strong: strong})
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		s.refuseLogin(w, r, p, http.StatusTooManyRequests, lockedText(locked.RetryAfter))
		return
	case errors.Is(err, account.ErrBadCredentials):
		s.refuseLogin(w, r, p, http.StatusBadRequest, msgBadCredentials)
		return
	case errors.Is(err, account.ErrStepUp):
		// The page's script passes the stronger check and posts again.
		s.refuseLogin(w, r, p, http.StatusForbidden, msgStepUp)
		return
	case err != nil:
		s.log.Error("authenticate", "err", err)
		s.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	u := res.User
	verified := false // a second factor was checked in this login
	if res.TwoFactorRequired && !s.rememberedForLogin(r, u.ID) {
		if proof != nil && proof.twoFactor && proof.userID == u.ID {
			verified = true
		} else {
			code := strings.TrimSpace(r.PostFormValue("wfls-token"))
			if code == "" {
				s.refuseLogin(w, r, p, http.StatusBadRequest, "<strong>ERROR</strong>: Please enter the code from your authenticator app.")
				return
			}
			if err := s.accounts.VerifySecondFactor(ctx, u.ID, code); err != nil {
				switch {
				case errors.As(err, &locked):
					httpx.SetRetryAfter(w, locked.RetryAfter)
					s.refuseLogin(w, r, p, http.StatusTooManyRequests, lockedText(locked.RetryAfter))
				case errors.Is(err, account.ErrCodeReused):
					s.refuseLogin(w, r, p, http.StatusBadRequest, msgCodeReused)
				case errors.Is(err, account.ErrCodeInvalid):
					s.refuseLogin(w, r, p, http.StatusBadRequest, msgCodeInvalid)
				default:
					s.log.Error("two-factor code", "err", err)
					s.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
				}
				return
			}
			verified = true
		}
	}
	if _, err := s.logIn(w, r, u); err != nil {
		s.PageError(w, "log in", err)
		return
	}
	if verified && !s.cfg.RememberDeviceOff && r.PostFormValue("wfls-remember-device") == "1" {
		token, dev, err := s.accounts.RememberDevice(ctx, u.ID, deviceLabel(r.UserAgent()))
		if err != nil {
			// The login stands; the device is asked for a code next time.
			s.log.Warn("remember device", "user", u.ID, "err", err)
		} else {
			s.setDeviceCookie(w, u.ID, token, dev.ExpiresAt)
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

func (s *Server) postRegister(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := s.loginPage(r)
	p.Form = "register"
	p.Redirect = safeRedirect(r.PostFormValue("redirect"))
	// No username is asked: accounts registered here log in by email, so
	// a taken username can never tell anything either (a posted one is
	// ignored).
	email := strings.TrimSpace(r.PostFormValue("email"))
	p.Values.RegEmail = email
	if !s.VerifyActionNonce(r.PostFormValue("woocommerce-register-nonce"), registerNonceAction, s.guestScope(r), httpx.NonceTickAt(s.now())) {
		s.refuseLogin(w, r, p, http.StatusForbidden, msgNonce)
		return
	}
	if err := s.botcheckFor("register").Verify(ctx, r.PostFormValue("wfls-captcha")); err != nil {
		if botcheck.IsRefusal(err) {
			// The visitor may still write to support (wordfence_ls_register_support).
			p.SupportNonce = s.supportToken(r)
			s.refuseLogin(w, r, p, http.StatusForbidden, "<strong>ERROR</strong>: The bot check could not be verified, so the account was not created. Please try again, or send a message to the site's support team."+supportLink())
			return
		}
		s.log.Error("register bot-check", "err", err)
		s.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	}
	u, err := s.accounts.Register(ctx, account.Registration{Email: email, Password: r.PostFormValue("password"), ClientIP: s.clientIP(r)})
	var inErr *account.InputError
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		s.refuseLogin(w, r, p, http.StatusTooManyRequests, "<strong>Error:</strong> Too many registrations from your address. Please try again in "+waitText(locked.RetryAfter)+".")
		return
	case errors.As(err, &inErr):
		s.refuseLogin(w, r, p, http.StatusBadRequest, "<strong>Error:</strong> "+html.EscapeString(inErr.Message))
		return
	case errors.Is(err, account.ErrEmailTaken):
		// The same answer as a new account's below; the owner is told by
		// mail (log in, or reset the password).
		if err := s.accounts.NotifyRegisterAttempt(ctx, email); err != nil {
			s.log.Warn("registration attempt notice", "err", err)
		}
	case err != nil:
		s.log.Error("register", "err", err)
		s.refuseLogin(w, r, p, http.StatusServiceUnavailable, msgUnavailable)
		return
	default:
		// The address is proven by the link (account_links.go); until
		// then the guest orders placed with it stay unlinked.
		if err := s.sendVerification(ctx, u.ID); err != nil {
			s.log.Warn("verification mail after registration", "user", u.ID, "err", err)
		}
	}
	s.kickMail()
	// New or taken, one answer: no login (that would tell the two
	// apart), the login form with the same notice, and the page the
	// visitor was going to kept for after the login.
	s.setAccountNotice(w, "registered")
	target := "/my-account/"
	if p.Redirect != "" {
		target += "?redirect=" + url.QueryEscape(p.Redirect)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// handleLogout answers GET /my-account/customer-logout/: with the link's
// nonce it logs out and goes to the account page; without a valid one (an
// old link, or a page elsewhere linking here) a logged-in customer is
// asked to confirm, as WooCommerce does, so a cross-site link cannot log
// anyone out.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	u := httpx.UserOf(r)
	if u == nil {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
		return
	}
	if !s.VerifyActionNonce(r.URL.Query().Get("_wpnonce"), "log-out", cart.CustomerSession(u.ID), httpx.NonceTickAt(s.now())) {
		res, err := s.loader.AccountLogout(s.PageContext(r), r.URL.RequestURI(), s.logoutURL(r))
		s.SendPersonal(w, r, "log-out page", r.URL.RequestURI(), res, err)
		return
	}
	if err := s.logOut(w, r); err != nil {
		s.log.Warn("log out", "user", u.ID, "err", err)
	}
	http.Redirect(w, r, "/my-account/", http.StatusFound)
}
