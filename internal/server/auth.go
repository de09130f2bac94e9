package server

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
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/support"
)

// Who is logged in: the login cookie, the viewer of a request, logging in
// and out. The use cases are the account service's (internal/account);
// this file only carries its session token in a cookie.
//
// The login cookie is wordpress_logged_in_<md5 of the base URL>, as
// WordPress names it (so caches and proxies that pass logged-in visitors
// by that prefix keep working). Its value is the opaque session token; the
// store keeps only its SHA-256 (account.Service.CreateSession). HttpOnly,
// SameSite=Lax, Secure when the base URL is https, and it ends with the
// session's absolute end.
//
// The remember-device cookie (wfls-remembered-<md5 of the base URL>) is
// "<user id>.<device token>.<hmac>": bound to the user by the HMAC (a
// cookie moved to another account, or edited, is ignored) and revocable,
// because the device token must also be one the store still holds for that
// user (account.Service.DeviceRemembered).

func (s *Server) loginCookieName() string  { return "wordpress_logged_in_" + s.CookieHash() }
func (s *Server) deviceCookieName() string { return "wfls-remembered-" + s.CookieHash() }

func (s *Server) setLoginCookie(w http.ResponseWriter, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: s.loginCookieName(), Value: token, Path: "/", Expires: expires,
		HttpOnly: true, Secure: s.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

func (s *Server) clearLoginCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: s.loginCookieName(), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// withViewer resolves the login cookie, when there is one, into the
// request's viewer. A visitor without the cookie costs nothing; a cookie
// naming no live session is deleted. When the store cannot be read the
// request goes on as a visitor's (and is logged): pages still show, and
// account pages ask to log in again.
func (s *Server) withViewer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(s.loginCookieName())
		if err != nil || c.Value == "" || s.accounts == nil {
			next.ServeHTTP(w, r)
			return
		}
		v, err := s.resolveViewer(r.Context(), c.Value)
		switch {
		case err == nil:
			r = httpx.WithViewer(r, v)
		case errors.Is(err, account.ErrNoSession), errors.Is(err, account.ErrNoUser):
			s.clearLoginCookie(w)
		case sqlstore.IsUnavailable(err):
			// The store is down: not a guest, whose pages and refusals
			// would mislead (an admin told to log in), but 503.
			s.log.Warn("read login session", "err", err)
			storeDown(w, r) // edge.go
			return
		default:
			s.log.Warn("read login session", "err", err)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resolveViewer(ctx context.Context, token string) (*httpx.Viewer, error) {
	if len(token) > 128 {
		return nil, account.ErrNoSession
	}
	sess, err := s.accounts.Session(ctx, token)
	if err != nil {
		return nil, err
	}
	u, err := s.accounts.User(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	return &httpx.Viewer{User: u, Token: token}, nil
}

// logIn starts a session for u: a new session token (the visitor's old
// one, if any, ends: the id is renewed on every login), the login cookie,
// and the guest cart moved into the customer's cart. It returns the
// request as the new viewer sees it, for handlers that go on rendering.
func (s *Server) logIn(w http.ResponseWriter, r *http.Request, u *account.User) (*http.Request, error) {
	ctx := r.Context()
	guest := s.CartSessionOf(r, s.now())
	if old := httpx.ViewerOf(r); old != nil {
		if err := s.accounts.DeleteSession(ctx, old.Token); err != nil {
			return r, err
		}
	}
	token, sess, err := s.accounts.CreateSession(ctx, u.ID)
	if err != nil {
		return r, err
	}
	s.setLoginCookie(w, token, sess.ExpiresAt)
	s.atLogin(ctx, u) // frame.go: what a login resets
	v := &httpx.Viewer{User: u, Token: token}
	r = httpx.WithViewer(r.WithContext(ctx), v)
	if guest.ViaCookie && httpx.ValidSessionID(guest.ID) {
		if err := s.carts.Merge(ctx, guest.ID, cart.CustomerSession(u.ID)); err != nil {
			// The login stands; the guest's lines stay in the guest cart.
			s.log.Warn("merge guest cart on login", "user", u.ID, "err", err)
		}
	}
	return r, nil
}

// renewLogin gives the viewer a new session token after a change of
// privilege (role, password, second factor), so a token seen before the
// change stops working.
func (s *Server) renewLogin(w http.ResponseWriter, r *http.Request) error {
	v := httpx.ViewerOf(r)
	if v == nil {
		return nil
	}
	token, sess, err := s.accounts.RenewSession(r.Context(), v.Token)
	if err != nil {
		return err
	}
	v.Token = token
	s.setLoginCookie(w, token, sess.ExpiresAt)
	return nil
}

// logOut ends the viewer's session and deletes the login cookie. The
// customer's cart stays with the account for the next login.
func (s *Server) logOut(w http.ResponseWriter, r *http.Request) error {
	s.clearLoginCookie(w)
	if v := httpx.ViewerOf(r); v != nil {
		return s.accounts.DeleteSession(r.Context(), v.Token)
	}
	return nil
}

// deviceMAC binds a remembered-device token to its user.
func (s *Server) deviceMAC(userID int64, token string) string {
	return hex.EncodeToString(s.MAC("remember-device", strconv.FormatInt(userID, 10)+"|"+token))
}

// setDeviceCookie remembers this device for u until expires.
func (s *Server) setDeviceCookie(w http.ResponseWriter, userID int64, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: s.deviceCookieName(),
		Value: strconv.FormatInt(userID, 10) + "." + token + "." + s.deviceMAC(userID, token), Path: "/",
		Expires: expires, HttpOnly: true, Secure: s.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// deviceRemembered reports whether the request carries a remember-device
// cookie for userID that is signed by this shop and still held by the
// store. A forged, edited or revoked cookie is simply not remembered.
func (s *Server) deviceRemembered(r *http.Request, userID int64) bool {
	c, err := r.Cookie(s.deviceCookieName())
	if err != nil || len(c.Value) > 256 {
		return false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 || parts[0] != strconv.FormatInt(userID, 10) {
		return false
	}
	if !hmac.Equal([]byte(parts[2]), []byte(s.deviceMAC(userID, parts[1]))) {
		return false
	}
	ok, err := s.accounts.DeviceRemembered(r.Context(), userID, parts[1])
	if err != nil {
		s.log.Warn("read remembered device", "user", userID, "err", err)
		return false
	}
	return ok
}

// initAccounts makes the account service and the bot-checks on the store.
func (s *Server) initAccounts() {
	a := s.cfg.Accounts
	a.Store, a.Now, a.Log = s.db, s.now, s.log
	if a.Issuer == "" {
		a.Issuer = s.siteName()
	}
	if a.Sealer == nil {
		// TOTP secrets and mailed links' tokens sealed under a key derived
		// from the shop's secret (never empty here: New fills it).
		sealer, err := account.NewSealer(s.cfg.Secret)
		if err != nil {
			panic(err)
		}
		a.Sealer = sealer
	}
	s.accounts = &a
	s.support = &support.Service{Store: s.db, Now: s.now, Log: s.log}
	s.bots = map[string]*botcheck.Service{}
	for _, purpose := range []string{"login", "register", "contact", "review"} {
		s.bots[purpose] = &botcheck.Service{Store: s.db, Secret: s.cfg.Secret, Purpose: purpose, Now: s.now, Log: s.log}
	}
	// The stronger login check asked of an account under attack
	// (account.ErrStepUp): its own key, ten times the work.
	s.bots[strongLoginPurpose] = &botcheck.Service{Store: s.db, Secret: s.cfg.Secret, Purpose: strongLoginPurpose,
		MaxNumber: botcheck.StrongMaxNumber, Now: s.now, Log: s.log}
}

// botcheckFor is the bot-check of a purpose ("login", "register", ...).
func (s *Server) botcheckFor(purpose string) *botcheck.Service {
	return s.bots[purpose]
}
