package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
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
// bot-check and support services'; this file reads the wire, signs the
// short-lived proofs, and answers the plugin's JSON.

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

// strongLoginPurpose is the stronger bot-check's purpose; its challenge is
// served at /wp-json/vitrine/v1/botcheck/login-strong.
const strongLoginPurpose = "login-strong"

// lockedText is the lockout notice with the time to wait, in minutes.
func lockedText(wait time.Duration) string {
	return "<strong>ERROR</strong>: Too many failed login attempts. Please try again in " + waitText(wait) + "."
}

// --- the bot-check challenge ---

// handleBotcheckChallenge answers GET /wp-json/vitrine/v1/botcheck/{purpose}:
// a fresh ALTCHA challenge (the widget's challengeurl), never cached.
func (s *Server) handleBotcheckChallenge(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	bc := s.botcheckFor(r.PathValue("purpose"))
	if bc == nil {
		s.apiNoRoute(w, r)
		return
	}
	c, err := bc.Challenge(r.Context())
	if err != nil {
		s.log.Error("bot-check challenge", "err", err)
		httpx.WriteError(w, http.StatusServiceUnavailable, "vitrine_botcheck_unavailable", "The bot check is unavailable right now.", nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, c)
}

// --- proofs (wfls-captcha-jwt) ---

// A login proof says "this client passed the login bot-check and gave the
// right password for this login, moments ago" (and, with the second
// factor flag, "and a right two-factor code"), so the real form submit
// that follows the ajax check needs no second proof of work nor a second
// code. It is "<user id>.<2fa 0|1>.<expiry unix>.<random>.<mac>": the MAC
// covers those fields plus the login as typed (case-folded) and the
// client address, under its own purpose, so it passes for nothing else
// (not a nonce, a cookie, or another login or address). It lives
// proofLifetime and is spent in the bot-check's single-use table when
// used, so it works once.
const (
	proofLifetime = 5 * time.Minute
	proofPurpose  = "login-proof"
)

type loginProof struct {
	userID    int64
	twoFactor bool
	expires   time.Time
	raw       string
}

func proofLogin(login string) string { return strings.ToLower(strings.TrimSpace(login)) }

func (s *Server) proofMAC(body, login, addr string) string {
	return hex.EncodeToString(s.MAC(proofPurpose, body+"|"+proofLogin(login)+"|"+addr))
}

// issueProof signs a proof for login from r's address.
func (s *Server) issueProof(r *http.Request, login string, userID int64, twoFactor bool) string {
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	tf := "0"
	if twoFactor {
		tf = "1"
	}
	body := strconv.FormatInt(userID, 10) + "." + tf + "." + strconv.FormatInt(s.now().Add(proofLifetime).Unix(), 10) + "." + hex.EncodeToString(nonce[:])
	return body + "." + s.proofMAC(body, login, checkout.AddressKey(s.clientIP(r)))
}

// parseProof checks a proof's shape, MAC (for login from r's address) and
// expiry; it does not spend it.
func (s *Server) parseProof(r *http.Request, raw, login string) (*loginProof, bool) {
	if raw == "" || len(raw) > 200 {
		return nil, false
	}
	parts := strings.Split(raw, ".")
	if len(parts) != 5 {
		return nil, false
	}
	body := strings.Join(parts[:4], ".")
	want := s.proofMAC(body, login, checkout.AddressKey(s.clientIP(r)))
	if !hmac.Equal([]byte(parts[4]), []byte(want)) {
		return nil, false
	}
	uid, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || (parts[1] != "0" && parts[1] != "1") {
		return nil, false
	}
	p := &loginProof{userID: uid, twoFactor: parts[1] == "1", expires: time.Unix(exp, 0), raw: raw}
	if !s.now().Before(p.expires) {
		return nil, false
	}
	return p, true
}

// errBotcheckRefused: no valid bot-check payload or proof.
var errBotcheckRefused = errors.New("login: bot-check refused")

// loginBotcheck checks the login bot-check of a request: a proof
// (wfls-captcha-jwt) for this login, spent now, or else a fresh ALTCHA
// payload (wfls-captcha) of the login check or of the stronger one. It
// returns the proof when one was used, and whether the attempt counts as
// strong (account.Attempt.Strong): a proof (issued only after a right
// password and every check, moments ago) or a stronger payload.
// errBotcheckRefused is a refusal; any other error means the store could
// not be asked (fail closed, answer 503).
func (s *Server) loginBotcheck(ctx context.Context, r *http.Request, login string) (*loginProof, bool, error) {
	if raw := lastFormValue(r, "wfls-captcha-jwt"); raw != "" {
		if p, ok := s.parseProof(r, raw, login); ok {
			first, err := s.db.SpendBotcheck(ctx, "proof:"+p.raw[strings.LastIndexByte(p.raw, '.')+1:], p.expires)
			if err != nil {
				return nil, false, err
			}
			if first {
				return p, true, nil
			}
			s.log.Warn("login proof replayed")
		}
		// A bad or spent proof falls back to the payload, when there is one.
	}
	payload := r.PostFormValue("wfls-captcha")
	err := s.botcheckFor("login").Verify(ctx, payload)
	strong := false
	if errors.Is(err, botcheck.ErrBadSignature) {
		// Not the login check's: perhaps the stronger one's.
		if serr := s.botcheckFor(strongLoginPurpose).Verify(ctx, payload); !errors.Is(serr, botcheck.ErrBadSignature) {
			err, strong = serr, serr == nil
		}
	}
	if err == nil {
		return nil, strong, nil
	}
	if botcheck.IsRefusal(err) {
		return nil, false, errBotcheckRefused
	}
	return nil, false, err
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

// ajaxLoginAuthenticate answers action=wordfence_ls_authenticate: the
// checks of a login without logging in (this call never sets the login
// cookie). Every answer is 200 JSON, except 503 when the store cannot be
// asked (the page then shows the spec's "status code 503" text). A proof
// is returned only once the password was right, so a wrong password
// always costs a new proof of work.
func (s *Server) ajaxLoginAuthenticate(w http.ResponseWriter, r *http.Request) {
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
	proof, strong, err := s.loginBotcheck(ctx, r, login)
	if errors.Is(err, errBotcheckRefused) {
		writeLS(w, http.StatusOK, lsError(msgCaptcha, true))
		return
	}
	if err != nil {
		s.log.Error("login bot-check", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
		return
	}
	res, err := s.accounts.AuthenticateAttempt(ctx, account.Attempt{Login: login, Password: password, ClientIP: s.clientIP(r), Strong: strong})
	if err != nil {
		s.writeAuthError(w, err)
		return
	}
	u := res.User
	if !res.TwoFactorRequired || s.rememberedForLogin(r, u.ID) || (proof != nil && proof.twoFactor && proof.userID == u.ID) {
		writeLS(w, http.StatusOK, lsAnswer{Login: 1, Captcha: s.issueProof(r, login, u.ID, proof != nil && proof.twoFactor)})
		return
	}
	code := strings.TrimSpace(r.PostFormValue("wfls-token"))
	if code == "" {
		writeLS(w, http.StatusOK, lsAnswer{Login: 1, TwoFactorRequired: true, Captcha: s.issueProof(r, login, u.ID, false)})
		return
	}
	if err := s.accounts.VerifySecondFactor(ctx, u.ID, code); err != nil {
		s.writeCodeError(w, r, login, u.ID, err)
		return
	}
	writeLS(w, http.StatusOK, lsAnswer{Login: 1, Captcha: s.issueProof(r, login, u.ID, true)})
}

// strongChallengeURL is where the stronger bot-check's challenge is fetched.
const strongChallengeURL = "/wp-json/vitrine/v1/botcheck/" + strongLoginPurpose

// writeAuthError answers a refused Authenticate: wrong password and unknown
// login are one answer; a lockout says when to retry; an account under
// attack names the stronger check to pass (the page's script runs it and
// sends the attempt again).
func (s *Server) writeAuthError(w http.ResponseWriter, err error) {
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
		s.log.Error("authenticate", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
	}
}

// writeCodeError answers a refused two-factor code. A wrong or reused code
// keeps the overlay open (reset false) and hands a new proof, so the next
// code needs no new proof of work; too many wrong codes close it.
func (s *Server) writeCodeError(w http.ResponseWriter, r *http.Request, login string, userID int64, err error) {
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
		a.Captcha = s.issueProof(r, login, userID, false)
		writeLS(w, http.StatusOK, a)
	default:
		s.log.Error("two-factor code", "err", err)
		writeLS(w, http.StatusServiceUnavailable, lsError(msgUnavailable, true))
	}
}

// rememberedForLogin: the device skips the second factor, unless the shop
// turned remembering off.
func (s *Server) rememberedForLogin(r *http.Request, userID int64) bool {
	return !s.cfg.RememberDeviceOff && s.deviceRemembered(r, userID)
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

func (s *Server) supportToken(r *http.Request) string {
	exp := strconv.FormatInt(s.now().Add(supportTokenLifetime).Unix(), 10)
	return exp + "." + hex.EncodeToString(s.MAC(supportPurpose, exp+"|"+checkout.AddressKey(s.clientIP(r))))
}

func (s *Server) validSupportToken(r *http.Request, tok string) bool {
	exp, sig, ok := strings.Cut(tok, ".")
	if !ok || len(tok) > 100 {
		return false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !s.now().Before(time.Unix(n, 0)) {
		return false
	}
	want := hex.EncodeToString(s.MAC(supportPurpose, exp+"|"+checkout.AddressKey(s.clientIP(r))))
	return hmac.Equal([]byte(sig), []byte(want))
}

// ajaxRegisterSupport answers action=wordfence_ls_register_support: the
// registration form plus wfls-message and wfls-message-nonce. {"message"}
// when the message is queued for the shop, else {"error"} (200 JSON; 503
// when the store failed).
func (s *Server) ajaxRegisterSupport(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpx.AjaxZero(w, http.StatusMethodNotAllowed)
		return
	}
	if !s.validSupportToken(r, r.PostFormValue("wfls-message-nonce")) {
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
	_, err := s.support.Send(r.Context(), support.Message{Email: email, Username: username,
		Text: r.PostFormValue("wfls-message"), ClientIP: s.clientIP(r)})
	var limited *support.LimitedError
	switch {
	case err == nil:
		s.kickMail()
		writeLS(w, http.StatusOK, map[string]string{"message": msgSupportSent})
	case errors.Is(err, support.ErrEmpty):
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportEmpty})
	case errors.Is(err, support.ErrTooLong):
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportLong})
	case errors.As(err, &limited):
		httpx.SetRetryAfter(w, limited.RetryAfter)
		writeLS(w, http.StatusOK, map[string]string{"error": msgSupportLimit})
	default:
		s.log.Error("support message", "err", err)
		writeLS(w, http.StatusServiceUnavailable, map[string]string{"error": msgSupportFailed})
	}
}

// supportLink is the refusal's link that opens the overlay (the page's
// script turns it into a button; the token travels in the page data).
func supportLink() string {
	return ` <a href="#wfls-support" class="wfls-registration-captcha-contact">Message to Support</a>`
}
