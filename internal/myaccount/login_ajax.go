package myaccount

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/support"
)

// The login wire of the spec's login-security plugin (protocol notes
// section 8): the bot-check challenge, admin-ajax wordfence_ls_authenticate
// (credentials, bot-check and second factor checked without logging in)
// and wordfence_ls_register_support (a message from a visitor whose
// registration the bot-check refused). The use cases are the account,
// bot-check and support services' (the login proofs are botcheck.Login's);
// this file reads the wire and answers the plugin's JSON.

// Texts of the answers (HTML, as the plugin sends them).
const (
	msgMissingCredentials = "<strong>ERROR</strong>: A username and password must be provided."
	msgBadCredentials     = `<strong>ERROR</strong>: The username or password you entered is incorrect. <a href="/my-account/lost-password/">Lost your password?</a>`
	msgCaptcha            = "<strong>ERROR</strong>: The bot check could not be verified. Please try again."
	msgCodeInvalid        = "<strong>ERROR</strong>: The two-factor code you entered is incorrect. Please try again."
	msgCodeReused         = "<strong>ERROR</strong>: This two-factor code was already used. Please wait for the next code and try again."
	msgUnavailable        = "<strong>ERROR</strong>: Logging in is unavailable right now. Please try again in a moment."
	msgStepUp             = "<strong>ERROR</strong>: This account had many failed login attempts recently, so logging in to it needs a longer check that you are not a robot. Please try again: it may take a few seconds."
)

// lockedText is the lockout notice with the time to wait, in minutes.
func lockedText(wait time.Duration) string {
	return "<strong>ERROR</strong>: Too many failed login attempts. Please try again in " + waitText(wait) + "."
}

// --- the bot-check challenge ---

// BotcheckChallenge answers GET /wp-json/vitrine/v1/botcheck/{purpose}:
// a fresh ALTCHA challenge (the widget's challengeurl), never cached.
func (h *Account) BotcheckChallenge(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	bc := h.d.Botcheck(r.PathValue("purpose"))
	if bc == nil {
		h.d.NoRoute(w, r)
		return
	}
	c, err := bc.Challenge(r.Context())
	if err != nil {
		h.d.Log.Error("bot-check challenge", "err", err)
		httpx.WriteError(w, http.StatusServiceUnavailable, "vitrine_botcheck_unavailable", "The bot check is unavailable right now.", nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, c)
}

// --- the login bot-check (botcheck.Login) ---

// loginBotcheck passes the login bot-check of a request: the proof
// (wfls-captcha-jwt) handed out by an earlier call, else a fresh ALTCHA
// payload (wfls-captcha). A refusal is botcheck.IsRefusal; any other
// error means the store could not be asked (fail closed, answer 503).
func (h *Account) loginBotcheck(ctx context.Context, r *http.Request, login string) (botcheck.Passed, error) {
	return h.d.Login.Check(ctx, botcheck.LoginAttempt{Proof: lastFormValue(r, "wfls-captcha-jwt"),
		Payload: r.PostFormValue("wfls-captcha"), Login: login, Address: checkout.AddressKey(h.d.ClientIP(r))})
}

// issueProof signs a login proof for login from r's address: the real
// form submit (or the next code) passes the bot-check with it.
func (h *Account) issueProof(r *http.Request, login string, userID int64, twoFactor bool) string {
	return h.d.Login.IssueProof(login, checkout.AddressKey(h.d.ClientIP(r)), userID, twoFactor)
}

// proofPasses2FA: the attempt's proof was issued to userID after a right
// two-factor code, so the code is not asked again.
func proofPasses2FA(p botcheck.Passed, userID int64) bool {
	return p.Proof != nil && p.Proof.TwoFactor && p.Proof.UserID == userID
}

// --- wordfence_ls_authenticate ---

// lsAnswer is the plugin's JSON answer; Reset is sent with error and
// message answers only.
type lsAnswer struct {
	Error             string `json:"error,omitempty"`
	Message           string `json:"message,omitempty"`
	Reset             *bool  `json:"reset,omitempty"`
	Login             int    `json:"login,omitempty"`
	TwoFactorRequired bool   `json:"two_factor_required,omitempty"`
	Captcha           string `json:"captcha,omitempty"`
	// Botcheck, with an error, is the challenge URL of the stronger
	// bot-check the next attempt needs (the account is under attack).
	Botcheck string `json:"botcheck,omitempty"`
}

func lsError(text string, reset bool) lsAnswer { return lsAnswer{Error: text, Reset: &reset} }

func writeLS(w http.ResponseWriter, status int, a any) {
	w.Header().Set("Cache-Control", "no-store, private")
	httpx.WriteJSON(w, status, a)
}

// postedLogin reads the credentials under either naming: log/pwd
// (wp-login) or username/password (the shop's account page).
func postedLogin(r *http.Request) (login, password string) {
	login, password = r.PostFormValue("log"), r.PostFormValue("pwd")
	if login == "" && password == "" {
		login, password = r.PostFormValue("username"), r.PostFormValue("password")
	}
	return strings.TrimSpace(login), password
}

// lastFormValue is the last non-empty value of a posted field. PHP keeps
// the last of a repeated name, and the plugin's script, which looks the
// wfls-captcha-jwt input up by id, may append a second one after an empty
// one: the proof is the later value.
func lastFormValue(r *http.Request, name string) string {
	_ = r.PostFormValue(name) // parses the body
	vs := r.PostForm[name]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i] != "" {
			return vs[i]
		}
	}
	return ""
}

// AjaxAuthenticate answers action=wordfence_ls_authenticate: the
// checks of a login without logging in (this call never sets the login
// cookie). Every answer is 200 JSON, except 503 when the store cannot be
// asked (the page then shows the spec's "status code 503" text). A proof
// is returned only once the password was right, so a wrong password
// always costs a new proof of work.
func (h *Account) AjaxAuthenticate(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpx.AjaxZero(w, http.StatusMethodNotAllowed)
		return
	}
	ctx := r.Context()
	login, password := postedLogin(r)
	if login == "" || password == "" {
		writeLS(w, http.StatusOK, lsError(msgMissingCredentials, false))
		return
	}
	passed, err := h.loginBotcheck(ctx, r, login)
	if botcheck.IsRefusal(err) {
		writeLS(w, http.StatusOK, lsError(msgCaptcha, true))
		return
	}
	if err != nil {
		h.d.Log.Error("login bot-check", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
		return
	}
	res, err := h.d.Accounts.AuthenticateAttempt(ctx, account.Attempt{Login: login, Password: password, ClientIP: h.d.ClientIP(r), Strong: passed.Strong})
	if err != nil {
		h.writeAuthError(w, err)
		return
	}
	u := res.User
	if !res.TwoFactorRequired || h.rememberedForLogin(r, u.ID) || proofPasses2FA(passed, u.ID) {
		writeLS(w, http.StatusOK, lsAnswer{Login: 1, Captcha: h.issueProof(r, login, u.ID, passed.Proof != nil && passed.Proof.TwoFactor)})
		return
	}
	code := strings.TrimSpace(r.PostFormValue("wfls-token"))
	if code == "" {
		writeLS(w, http.StatusOK, lsAnswer{Login: 1, TwoFactorRequired: true, Captcha: h.issueProof(r, login, u.ID, false)})
		return
	}
	if err := h.d.Accounts.VerifySecondFactor(ctx, u.ID, code); err != nil {
		h.writeCodeError(w, r, login, u.ID, err)
		return
	}
	writeLS(w, http.StatusOK, lsAnswer{Login: 1, Captcha: h.issueProof(r, login, u.ID, true)})
}

// strongChallengeURL is where the stronger bot-check's challenge is fetched.
const strongChallengeURL = "/wp-json/vitrine/v1/botcheck/" + botcheck.StrongLoginPurpose

// writeAuthError answers a refused Authenticate: wrong password and unknown
// login are one answer; a lockout says when to retry; an account under
// attack names the stronger check to pass (the page's script runs it and
// sends the attempt again).
func (h *Account) writeAuthError(w http.ResponseWriter, err error) {
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		writeLS(w, http.StatusOK, lsError(lockedText(locked.RetryAfter), true))
	case errors.Is(err, account.ErrBadCredentials):
		// reset false, as the plugin (1.1.15) answers a wrong password.
		writeLS(w, http.StatusOK, lsError(msgBadCredentials, false))
	case errors.Is(err, account.ErrStepUp):
		a := lsError(msgStepUp, true)
		a.Botcheck = strongChallengeURL
		writeLS(w, http.StatusOK, a)
	default:
		h.d.Log.Error("authenticate", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
	}
}

// writeCodeError answers a refused two-factor code. A wrong or reused code
// keeps the overlay open (reset false) and hands a new proof, so the next
// code needs no new proof of work; too many wrong codes close it.
func (h *Account) writeCodeError(w http.ResponseWriter, r *http.Request, login string, userID int64, err error) {
	var locked *account.LockedError
	switch {
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.RetryAfter)
		writeLS(w, http.StatusOK, lsError(lockedText(locked.RetryAfter), true))
	case errors.Is(err, account.ErrCodeInvalid), errors.Is(err, account.ErrCodeReused):
		text := msgCodeInvalid
		if errors.Is(err, account.ErrCodeReused) {
			text = msgCodeReused
		}
		a := lsError(text, false)
		a.Captcha = h.issueProof(r, login, userID, false)
		writeLS(w, http.StatusOK, a)
	default:
		h.d.Log.Error("two-factor code", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
	}
}

// rememberedForLogin: the device skips the second factor, unless the shop
// turned remembering off.
func (h *Account) rememberedForLogin(r *http.Request, userID int64) bool {
	return !h.d.RememberDeviceOff && h.DeviceRemembered(r, userID)
}

// --- wordfence_ls_register_support ---

// The "Message to Support" token (wfls-message-nonce) is handed with a
// registration the bot-check refused: "<expiry unix>.<mac>", the MAC over
// the expiry and the client address under its own purpose, so it works
// only from the address it was given to, for supportTokenLifetime.
const (
	supportTokenLifetime = time.Hour
	supportPurpose       = "register-support"

	msgSupportSent   = "<strong>Message sent</strong>: your message was sent to the site's support team. They will reply by email."
	msgSupportFailed = "<strong>ERROR</strong>: An error was encountered while trying to send the message. Please try again."
	msgSupportEmpty  = "<strong>ERROR</strong>: Please write a message."
	msgSupportLong   = "<strong>ERROR</strong>: The message is too long (2,000 characters at most)."
	msgSupportToken  = "<strong>ERROR</strong>: This form has expired. Please try registering again."
	msgSupportLimit  = "<strong>ERROR</strong>: Too many messages were sent from your address. Please try again later."
)

func (h *Account) supportToken(r *http.Request) string {
	exp := strconv.FormatInt(h.d.Now().Add(supportTokenLifetime).Unix(), 10)
	return exp + "." + hex.EncodeToString(h.d.Sessions.MAC(supportPurpose, exp+"|"+checkout.AddressKey(h.d.ClientIP(r))))
}

func (h *Account) validSupportToken(r *http.Request, tok string) bool {
	exp, sig, ok := strings.Cut(tok, ".")
	if !ok || len(tok) > 100 {
		return false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !h.d.Now().Before(time.Unix(n, 0)) {
		return false
	}
	want := hex.EncodeToString(h.d.Sessions.MAC(supportPurpose, exp+"|"+checkout.AddressKey(h.d.ClientIP(r))))
	return hmac.Equal([]byte(sig), []byte(want))
}

// AjaxRegisterSupport answers action=wordfence_ls_register_support: the
// registration form plus wfls-message and wfls-message-nonce. {"message"}
// when the message is queued for the shop, else {"error"} (200 JSON; 503
// when the store failed).
func (h *Account) AjaxRegisterSupport(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpx.AjaxZero(w, http.StatusMethodNotAllowed)
		return
	}
	if !h.validSupportToken(r, r.PostFormValue("wfls-message-nonce")) {
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportToken})
		return
	}
	email := r.PostFormValue("email")
	if email == "" {
		email = r.PostFormValue("user_email")
	}
	username := r.PostFormValue("username")
	if username == "" {
		username = r.PostFormValue("user_login")
	}
	_, err := h.d.Support.Send(r.Context(), support.Message{Email: email, Username: username,
		Text: r.PostFormValue("wfls-message"), ClientIP: h.d.ClientIP(r)})
	var limited *support.LimitedError
	switch {
	case err == nil:
		h.d.KickMail()
		writeLS(w, http.StatusOK, map[string]string{"message": msgSupportSent})
	case errors.Is(err, support.ErrEmpty):
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportEmpty})
	case errors.Is(err, support.ErrTooLong):
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportLong})
	case errors.As(err, &limited):
		httpx.SetRetryAfter(w, limited.RetryAfter)
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportLimit})
	default:
		h.d.Log.Error("support message", "err", err)
		writeLS(w, http.StatusServiceUnavailable, map[string]string{"error": msgSupportFailed})
	}
}

// supportLink is the refusal's link that opens the overlay (the page's
// script turns it into a button; the token travels in the page data).
func supportLink() string {
	return ` <a href="#wfls-support" class="wfls-registration-captcha-contact">Message to Support</a>`
}
