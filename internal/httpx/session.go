package httpx

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"vitrine/internal/cart"
)

// Sessions names the cart session of a request and signs what proves it:
// the session cookie, Cart-Tokens and nonces.
//
// A guest's cart session id is "t_" + 30 hex characters. A request names its
// session by the Cart-Token header (headless clients; no nonce needed) or by
// the signed HttpOnly cookie wp_woocommerce_session_<md5 of the base URL>,
// whose value is "<id>||<expires>||<expiring>||<hmac>" as WooCommerce writes
// it (the HMAC here is SHA-256 with the secret). Without either, the request
// gets a new id: its Cart-Token names that id, and its nonce is the
// anonymous one (scope ""), valid only for requests without a session. The
// cookie is set by the first successful write, never by a read.
//
// Every value is an HMAC-SHA256 keyed by Secret over a purpose and the
// data, so a cookie signature can never pass for a token or a nonce.
type Sessions struct {
	// Secret keys every HMAC; every instance of one shop shares it.
	Secret []byte
	// BaseURL is the shop's address: it names the cookies and says
	// whether they are Secure.
	BaseURL string
	// Currency is the shopper's currency code for a request: a cart is
	// priced in it.
	Currency func(*http.Request) string
}

func (s *Sessions) CookieHash() string {
	sum := md5.Sum([]byte(s.BaseURL))
	return hex.EncodeToString(sum[:])
}

func (s *Sessions) SecureCookies() bool { return strings.HasPrefix(s.BaseURL, "https://") }

const (
	nonceAction = "wc_store_api"
	nonceTick   = 12 * time.Hour
)

// cartSession is the session a request names.
type Session struct {
	ID        string
	ViaToken  bool // a valid Cart-Token: no nonce needed, no cookie set
	ViaCookie bool // a valid session cookie
	// currency is the shopper's currency code (shopperCurrency): the cart
	// is priced in it.
	Currency string
}

// scope is what the request's nonce must be bound to.
func (c Session) Scope() string {
	if c.ViaToken || c.ViaCookie {
		return c.ID
	}
	return ""
}

func (s *Sessions) MAC(purpose, msg string) []byte {
	h := hmac.New(sha256.New, s.Secret)
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write([]byte(msg))
	return h.Sum(nil)
}

func NewSessionID() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	return "t_" + hex.EncodeToString(b)
}

func ValidSessionID(id string) bool {
	if len(id) != 32 || !strings.HasPrefix(id, "t_") {
		return false
	}
	_, err := hex.DecodeString(id[2:])
	return err == nil
}

func (s *Sessions) SessionCookieName() string {
	sum := md5.Sum([]byte(s.BaseURL))
	return "wp_woocommerce_session_" + hex.EncodeToString(sum[:])
}

func (s *Sessions) cookieMAC(id string, expires int64) string {
	return hex.EncodeToString(s.MAC("session-cookie", id+"|"+strconv.FormatInt(expires, 10)))
}

// setSessionCookie writes the session cookie, valid until expires. A
// customer's cart (cart.CustomerSession) is named by the login cookie: none is set.
func (s *Sessions) SetSessionCookie(w http.ResponseWriter, id string, expires time.Time) {
	if !ValidSessionID(id) {
		return
	}
	exp := expires.Unix()
	expiring := expires.Add(-time.Hour).Unix()
	http.SetCookie(w, &http.Cookie{
		Name:     s.SessionCookieName(),
		Value:    id + "||" + strconv.FormatInt(exp, 10) + "||" + strconv.FormatInt(expiring, 10) + "||" + s.cookieMAC(id, exp),
		Path:     "/",
		Expires:  expires,
		HttpOnly: true,
		Secure:   strings.HasPrefix(s.BaseURL, "https://"),
		SameSite: http.SameSiteLaxMode,
	})
}

// sessionFromCookie reads a valid, unexpired session cookie.
func (s *Sessions) SessionFromCookie(r *http.Request, now time.Time) (string, bool) {
	c, err := r.Cookie(s.SessionCookieName())
	if err != nil {
		return "", false
	}
	parts := strings.Split(c.Value, "||")
	if len(parts) != 4 || !ValidSessionID(parts[0]) {
		return "", false
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || exp <= now.Unix() {
		return "", false
	}
	if !hmac.Equal([]byte(parts[3]), []byte(s.cookieMAC(parts[0], exp))) {
		return "", false
	}
	return parts[0], true
}

type tokenClaims struct {
	UserID  string `json:"user_id"`
	Expires int64  `json:"exp"`
	Issuer  string `json:"iss"`
	Issued  int64  `json:"iat"`
}

var tokenHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

// cartToken makes a Cart-Token: a JWT (HS256) carrying the session id and
// its expiry, as WooCommerce's has.
func (s *Sessions) CartToken(id string, now, expires time.Time) string {
	claims, _ := json.Marshal(tokenClaims{UserID: id, Expires: expires.Unix(), Issuer: "store-api", Issued: now.Unix()})
	body := tokenHeader + "." + base64.RawURLEncoding.EncodeToString(claims)
	return body + "." + base64.RawURLEncoding.EncodeToString(s.MAC("cart-token", body))
}

// sessionFromToken verifies a Cart-Token.
func (s *Sessions) SessionFromToken(token string, now time.Time) (string, bool) {
	i := strings.LastIndexByte(token, '.')
	if i < 0 || !strings.HasPrefix(token, tokenHeader+".") {
		return "", false
	}
	sig, err := base64.RawURLEncoding.DecodeString(token[i+1:])
	if err != nil || !hmac.Equal(sig, s.MAC("cart-token", token[:i])) {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(token[len(tokenHeader)+1 : i])
	if err != nil {
		return "", false
	}
	var c tokenClaims
	if json.Unmarshal(raw, &c) != nil || !ValidSessionID(c.UserID) || c.Expires <= now.Unix() {
		return "", false
	}
	return c.UserID, true
}

// cartSessionOf finds the session a request names, or makes a new id. A
// Cart-Token names its session even for a logged-in customer (a headless
// client says which cart it means); otherwise a logged-in customer's cart
// is the account's (cart.CustomerSession).
func (s *Sessions) CartSessionOf(r *http.Request, now time.Time) Session {
	sess := s.SessionNamed(r, now)
	sess.Currency = s.Currency(r)
	return sess
}

func (s *Sessions) SessionNamed(r *http.Request, now time.Time) Session {
	if t := r.Header.Get("Cart-Token"); t != "" {
		if id, ok := s.SessionFromToken(t, now); ok {
			return Session{ID: id, ViaToken: true}
		}
	}
	if u := UserOf(r); u != nil {
		return Session{ID: cart.CustomerSession(u.ID), ViaCookie: true}
	}
	if id, ok := s.SessionFromCookie(r, now); ok {
		return Session{ID: id, ViaCookie: true}
	}
	return Session{ID: NewSessionID()}
}

// nonce is the Store API nonce for a scope at a 12-hour tick: 10 hex
// characters, like WordPress's.
func (s *Sessions) Nonce(scope string, tick int64) string {
	return hex.EncodeToString(s.MAC("nonce", strconv.FormatInt(tick, 10)+"|"+nonceAction+"|"+scope))[:10]
}

func NonceTickAt(now time.Time) int64 { return now.Unix()/int64(nonceTick/time.Second) + 1 }

// verifyNonce accepts the current and the previous tick's nonce.
func (s *Sessions) VerifyNonce(n, scope string, now time.Time) bool {
	tick := NonceTickAt(now)
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(s.Nonce(scope, t))) {
			return true
		}
	}
	return false
}

const processAction = "woocommerce-process_checkout"

// processNonce is the classic form's nonce, bound to the session like the
// Store API's but for its own action.
func (s *Sessions) ProcessNonce(scope string, tick int64) string {
	return s.ActionNonce(processAction, scope, tick)
}

func (s *Sessions) VerifyProcessNonce(n, scope string, tick int64) bool {
	return s.VerifyActionNonce(n, processAction, scope, tick)
}

// restAction is WordPress's nonce action of REST cookie auth.
const restAction = "wp_rest"

// RESTNonce is the user's wp_rest nonce at a tick (X-WP-Nonce). It is
// bound to the user (the same scope as the customer's cart and log-out
// nonces), so neither a visitor's nonce nor another user's passes.
func (s *Sessions) RESTNonce(userID, tick int64) string {
	return s.ActionNonce(restAction, cart.CustomerSession(userID), tick)
}

// VerifyRESTNonce accepts the user's wp_rest nonce of the tick or the one
// before.
func (s *Sessions) VerifyRESTNonce(n string, userID, tick int64) bool {
	return n != "" && s.VerifyActionNonce(n, restAction, cart.CustomerSession(userID), tick)
}

// actionNonce is a WordPress-style nonce for an action, bound to the
// session scope, at a 12-hour tick: 10 hex characters.
func (s *Sessions) ActionNonce(action, scope string, tick int64) string {
	return hex.EncodeToString(s.MAC("nonce", strconv.FormatInt(tick, 10)+"|"+action+"|"+scope))[:10]
}

// verifyActionNonce accepts the tick's and the previous tick's nonce.
func (s *Sessions) VerifyActionNonce(n, action, scope string, tick int64) bool {
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(s.ActionNonce(action, scope, t))) {
			return true
		}
	}
	return false
}
