package server

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
	"vitrine/internal/httpx"
)

// Cart sessions, Cart-Tokens and Store API nonces.
//
// A guest's cart session id is "t_" + 30 hex characters. A request names its
// session by the Cart-Token header (headless clients; no nonce needed) or by
// the signed HttpOnly cookie wp_woocommerce_session_<md5 of the base URL>,
// whose value is "<id>||<expires>||<expiring>||<hmac>" as WooCommerce writes
// it (the HMAC here is SHA-256 with the server secret). Without either, the
// request gets a new id: its Cart-Token names that id, and its nonce is the
// anonymous one (scope ""), valid only for requests without a session. The
// cookie is set by the first successful write, never by a read.
//
// Every value is an HMAC-SHA256 keyed by Config.Secret over a purpose and
// the data, so a cookie signature can never pass for a token or a nonce.

const (
	nonceAction = "wc_store_api"
	nonceTick   = 12 * time.Hour
)

// cartSession is the session a request names.
type cartSession struct {
	id        string
	viaToken  bool // a valid Cart-Token: no nonce needed, no cookie set
	viaCookie bool // a valid session cookie
	// currency is the shopper's currency code (shopperCurrency): the cart
	// is priced in it.
	currency string
}

// scope is what the request's nonce must be bound to.
func (c cartSession) scope() string {
	if c.viaToken || c.viaCookie {
		return c.id
	}
	return ""
}

func (s *Server) mac(purpose, msg string) []byte {
	h := hmac.New(sha256.New, s.cfg.Secret)
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write([]byte(msg))
	return h.Sum(nil)
}

func newSessionID() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	return "t_" + hex.EncodeToString(b)
}

func validSessionID(id string) bool {
	if len(id) != 32 || !strings.HasPrefix(id, "t_") {
		return false
	}
	_, err := hex.DecodeString(id[2:])
	return err == nil
}

func (s *Server) sessionCookieName() string {
	sum := md5.Sum([]byte(s.cfg.BaseURL))
	return "wp_woocommerce_session_" + hex.EncodeToString(sum[:])
}

func (s *Server) cookieMAC(id string, expires int64) string {
	return hex.EncodeToString(s.mac("session-cookie", id+"|"+strconv.FormatInt(expires, 10)))
}

// setSessionCookie writes the session cookie, valid until expires. A
// customer's cart (userCartID) is named by the login cookie: none is set.
func (s *Server) setSessionCookie(w http.ResponseWriter, id string, expires time.Time) {
	if !validSessionID(id) {
		return
	}
	exp := expires.Unix()
	expiring := expires.Add(-time.Hour).Unix()
	http.SetCookie(w, &http.Cookie{
		Name:     s.sessionCookieName(),
		Value:    id + "||" + strconv.FormatInt(exp, 10) + "||" + strconv.FormatInt(expiring, 10) + "||" + s.cookieMAC(id, exp),
		Path:     "/",
		Expires:  expires,
		HttpOnly: true,
		Secure:   strings.HasPrefix(s.cfg.BaseURL, "https://"),
		SameSite: http.SameSiteLaxMode,
	})
}

// sessionFromCookie reads a valid, unexpired session cookie.
func (s *Server) sessionFromCookie(r *http.Request, now time.Time) (string, bool) {
	c, err := r.Cookie(s.sessionCookieName())
	if err != nil {
		return "", false
	}
	parts := strings.Split(c.Value, "||")
	if len(parts) != 4 || !validSessionID(parts[0]) {
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
func (s *Server) cartToken(id string, now, expires time.Time) string {
	claims, _ := json.Marshal(tokenClaims{UserID: id, Expires: expires.Unix(), Issuer: "store-api", Issued: now.Unix()})
	body := tokenHeader + "." + base64.RawURLEncoding.EncodeToString(claims)
	return body + "." + base64.RawURLEncoding.EncodeToString(s.mac("cart-token", body))
}

// sessionFromToken verifies a Cart-Token.
func (s *Server) sessionFromToken(token string, now time.Time) (string, bool) {
	i := strings.LastIndexByte(token, '.')
	if i < 0 || !strings.HasPrefix(token, tokenHeader+".") {
		return "", false
	}
	sig, err := base64.RawURLEncoding.DecodeString(token[i+1:])
	if err != nil || !hmac.Equal(sig, s.mac("cart-token", token[:i])) {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(token[len(tokenHeader)+1 : i])
	if err != nil {
		return "", false
	}
	var c tokenClaims
	if json.Unmarshal(raw, &c) != nil || !validSessionID(c.UserID) || c.Expires <= now.Unix() {
		return "", false
	}
	return c.UserID, true
}

// cartSessionOf finds the session a request names, or makes a new id. A
// Cart-Token names its session even for a logged-in customer (a headless
// client says which cart it means); otherwise a logged-in customer's cart
// is the account's (userCartID, auth.go).
func (s *Server) cartSessionOf(r *http.Request, now time.Time) cartSession {
	sess := s.sessionNamed(r, now)
	sess.currency = s.shopperCurrency(r).Code
	return sess
}

func (s *Server) sessionNamed(r *http.Request, now time.Time) cartSession {
	if t := r.Header.Get("Cart-Token"); t != "" {
		if id, ok := s.sessionFromToken(t, now); ok {
			return cartSession{id: id, viaToken: true}
		}
	}
	if u := httpx.UserOf(r); u != nil {
		return cartSession{id: userCartID(u.ID), viaCookie: true}
	}
	if id, ok := s.sessionFromCookie(r, now); ok {
		return cartSession{id: id, viaCookie: true}
	}
	return cartSession{id: newSessionID()}
}

// nonce is the Store API nonce for a scope at a 12-hour tick: 10 hex
// characters, like WordPress's.
func (s *Server) nonce(scope string, tick int64) string {
	return hex.EncodeToString(s.mac("nonce", strconv.FormatInt(tick, 10)+"|"+nonceAction+"|"+scope))[:10]
}

func NonceTickAt(now time.Time) int64 { return now.Unix()/int64(nonceTick/time.Second) + 1 }

// verifyNonce accepts the current and the previous tick's nonce.
func (s *Server) verifyNonce(n, scope string, now time.Time) bool {
	tick := NonceTickAt(now)
	for _, t := range []int64{tick, tick - 1} {
		if hmac.Equal([]byte(n), []byte(s.nonce(scope, t))) {
			return true
		}
	}
	return false
}
