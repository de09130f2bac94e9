package integration

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
)

// Authenticating a request with a key, as WooCommerce does it. Which way
// is the adapter's to choose from the connection (WooCommerce's rule):
// over HTTPS the consumer key and secret themselves (Basic), over plain
// HTTP an OAuth 1.0a signature made with the secret (OAuth), never the
// secret in the clear.
//
// Refusals are *Error, with WooCommerce's codes and texts. Failed guesses
// (an unknown key, a wrong secret, a signature that does not match) count
// against the client's address in the shared rate-limit counters, as
// failed logins do (internal/account); past FailureLimit in FailureWindow
// every key request from the address is refused with *LockedError until
// the window ends. A request is checked against the count before anything
// else (one read), and only failures are counted (one write each), so
// requests that authenticate write nothing for the limit.

// Error is a refusal: the REST error's code and message, and the HTTP
// status it is answered with.
type Error struct {
	Status        int
	Code, Message string
}

func (e *Error) Error() string { return e.Message }

const (
	codeAuth    = "woocommerce_rest_authentication_error"
	codeMissing = "woocommerce_rest_authentication_missing_parameter"
)

// The refusals, WooCommerce's own.
var (
	ErrInvalidKey       = &Error{401, codeAuth, "Consumer key is invalid."}
	ErrInvalidSecret    = &Error{401, codeAuth, "Consumer secret is invalid."}
	ErrInvalidSignature = &Error{401, codeAuth, "Invalid signature - provided signature does not match."}
	ErrSignatureMethod  = &Error{401, codeAuth, "Invalid signature - signature method is invalid."}
	ErrTimestamp        = &Error{401, codeAuth, "Invalid timestamp."}
	ErrNonceUsed        = &Error{401, codeAuth, "Invalid nonce - nonce has already been used."}
	ErrNoRead           = &Error{401, codeAuth, "The API key provided does not have read permissions."}
	ErrNoWrite          = &Error{401, codeAuth, "The API key provided does not have write permissions."}
	ErrUnknownMethod    = &Error{401, codeAuth, "Unknown request method."}
)

// MissingParams is the refusal of an OAuth request that lacks some of the
// required parameters (names in the order WooCommerce lists them).
func MissingParams(names []string) *Error {
	word := "parameter"
	if len(names) > 1 {
		word = "parameters"
	}
	return &Error{401, codeMissing, fmt.Sprintf("Missing OAuth %s %s", word, strings.Join(names, ", "))}
}

// LockedError refuses every key request from an address that failed too
// often; Wait is the time until its window ends.
type LockedError struct{ Wait time.Duration }

func (e *LockedError) Error() string {
	return "Too many failed authentication attempts from this address. Try again later."
}

// Auth is an authenticated request: the key and the user it acts as.
type Auth struct {
	Key  *Key
	User *account.User
}

// Permit says whether the key may make a request with method: GET and
// HEAD need read, POST, PUT, PATCH and DELETE write, OPTIONS nothing.
func (a *Auth) Permit(method string) error {
	p := a.Key.Permissions
	switch method {
	case "GET", "HEAD":
		if p != Read && p != ReadWrite {
			return ErrNoRead
		}
	case "POST", "PUT", "PATCH", "DELETE":
		if p != Write && p != ReadWrite {
			return ErrNoWrite
		}
	case "OPTIONS":
	default:
		return ErrUnknownMethod
	}
	return nil
}

// Basic authenticates a consumer key and secret sent as they are (HTTP
// Basic or the consumer_key and consumer_secret parameters, over HTTPS).
func (s *Service) Basic(ctx context.Context, consumerKey, consumerSecret, clientIP string) (*Auth, error) {
	if err := s.checkLocked(ctx, clientIP); err != nil {
		return nil, err
	}
	k, err := s.keyOf(ctx, consumerKey, clientIP)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(k.Secret), []byte(consumerSecret)) != 1 {
		return nil, s.failed(ctx, clientIP, ErrInvalidSecret)
	}
	return s.authenticated(ctx, k)
}

// OAuthRequest is what an OAuth 1.0a request is checked with.
type OAuthRequest struct {
	// Method is the request's method.
	Method string
	// URLs are the URLs the signature may have been made for (scheme,
	// host and path, no query): the shop's address first.
	URLs []string
	// Params are the query's parameters and the Authorization header's
	// oauth_* ones, decoded.
	Params   []Param
	ClientIP string
}

// oauthRequired are the parameters an OAuth request must carry, in
// WooCommerce's order.
var oauthRequired = []string{"oauth_consumer_key", "oauth_timestamp", "oauth_nonce", "oauth_signature", "oauth_signature_method"}

// IsOAuth reports whether params carry any required OAuth parameter, so
// the request means to authenticate with a signature.
func IsOAuth(params []Param) bool {
	for _, p := range params {
		for _, n := range oauthRequired {
			if p.Name == n && p.Value != "" {
				return true
			}
		}
	}
	return false
}

// OAuth authenticates a one-legged OAuth 1.0a request: the parameters are
// all there, the key is known, the signature matches one of the URLs, the
// timestamp is within NonceWindow of now either way, and the nonce was
// never used with this key (the store spends it: each is accepted once,
// on any instance). The checks run in WooCommerce's order.
func (s *Service) OAuth(ctx context.Context, req OAuthRequest) (*Auth, error) {
	got := map[string]string{}
	for _, p := range req.Params {
		got[p.Name] = p.Value
	}
	var missing []string
	for _, n := range oauthRequired {
		if got[n] == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return nil, MissingParams(missing)
	}
	if err := s.checkLocked(ctx, req.ClientIP); err != nil {
		return nil, err
	}
	k, err := s.keyOf(ctx, got["oauth_consumer_key"], req.ClientIP)
	if err != nil {
		return nil, err
	}
	method := got["oauth_signature_method"]
	if method != HMACSHA1 && method != HMACSHA256 {
		return nil, ErrSignatureMethod
	}
	// A signature sent in the query may have its "+" read as a space, or
	// be encoded twice: WooCommerce takes both back.
	sent := strings.ReplaceAll(got["oauth_signature"], " ", "+")
	if u, err := url.PathUnescape(sent); err == nil {
		sent = u
	}
	matched := false
	for _, u := range req.URLs {
		sig, _ := Sign(method, k.Secret+"&", BaseString(req.Method, u, req.Params))
		if subtle.ConstantTimeCompare([]byte(sig), []byte(sent)) == 1 {
			matched = true
			break
		}
	}
	if !matched {
		return nil, s.failed(ctx, req.ClientIP, ErrInvalidSignature)
	}
	ts, err := strconv.ParseInt(got["oauth_timestamp"], 10, 64)
	now := s.now()
	if err != nil || ts < now.Add(-NonceWindow).Unix() || ts > now.Add(NonceWindow).Unix() {
		return nil, ErrTimestamp
	}
	sum := sha256.Sum256([]byte(got["oauth_nonce"]))
	fresh, err := s.Store.SpendOAuthNonce(ctx, k.ID, hex.EncodeToString(sum[:]), time.Unix(ts, 0).Add(NonceWindow))
	if err != nil {
		return nil, err
	}
	if !fresh {
		return nil, ErrNonceUsed
	}
	return s.authenticated(ctx, k)
}

// keyOf loads the key, counting an unknown one as a failure.
func (s *Service) keyOf(ctx context.Context, consumerKey, clientIP string) (*Key, error) {
	if consumerKey == "" {
		return nil, s.failed(ctx, clientIP, ErrInvalidKey)
	}
	k, err := s.Store.APIKeyByHash(ctx, HashKey(consumerKey))
	if errors.Is(err, ErrNoKey) {
		return nil, s.failed(ctx, clientIP, ErrInvalidKey)
	}
	return k, err
}

// authenticated loads the key's user and notes the access (at most once
// per TouchEvery: a failed write is logged, the request goes on).
func (s *Service) authenticated(ctx context.Context, k *Key) (*Auth, error) {
	u, err := s.Store.UserByID(ctx, k.UserID)
	if errors.Is(err, account.ErrNoUser) {
		return nil, ErrInvalidKey // deleted with its user a moment ago
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	if k.LastAccess.IsZero() || now.Sub(k.LastAccess) >= TouchEvery {
		if err := s.Store.TouchAPIKey(ctx, k.ID, now, now.Add(-TouchEvery)); err != nil {
			s.log().Warn("integration: note a key's last access", "key", k.ID, "err", err)
		} else {
			k.LastAccess = now.Truncate(time.Second)
		}
	}
	return &Auth{Key: k, User: u}, nil
}

func (s *Service) limits() (int, time.Duration) {
	limit, window := s.FailureLimit, s.FailureWindow
	if limit <= 0 {
		limit = FailureLimit
	}
	if window <= 0 {
		window = FailureWindow
	}
	return limit, window
}

// failureKey is the address's counter.
func failureKey(clientIP string) string {
	a := checkout.AddressKey(clientIP)
	if a == "" {
		a = "unknown"
	}
	return "apikey:a:" + a
}

// checkLocked refuses an address past its failures (*LockedError).
func (s *Service) checkLocked(ctx context.Context, clientIP string) error {
	limit, _ := s.limits()
	now := s.now()
	hits, ends, err := s.Store.RateLimitCount(ctx, failureKey(clientIP), now)
	if err != nil {
		return err
	}
	if hits >= limit {
		return &LockedError{Wait: max(ends.Sub(now), time.Second)}
	}
	return nil
}

// failed counts a failure against the address and answers refusal (or
// *LockedError when this failure went past the limit).
func (s *Service) failed(ctx context.Context, clientIP string, refusal error) error {
	limit, window := s.limits()
	wait, ok, err := s.Store.HitRateLimits(ctx, []checkout.RateHit{{Key: failureKey(clientIP), Limit: limit}}, window, s.now())
	if err != nil {
		s.log().Warn("integration: count a failed authentication", "err", err)
		return refusal
	}
	if !ok {
		return &LockedError{Wait: wait}
	}
	return refusal
}
