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
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/storage/sqlstore"
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

// LoginCookieName is the login cookie's name.
func (h *Account) LoginCookieName() string { return "wordpress_logged_in_" + h.d.Sessions.CookieHash() }

func (h *Account) deviceCookieName() string { return "wfls-remembered-" + h.d.Sessions.CookieHash() }

func (h *Account) setLoginCookie(w http.ResponseWriter, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: h.LoginCookieName(), Value: token, Path: "/", Expires: expires,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

func (h *Account) clearLoginCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: h.LoginCookieName(), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// Viewer resolves the login cookie, when there is one, into the
// request's viewer. A visitor without the cookie costs nothing; a cookie
// naming no live session is deleted. When the store cannot be read the
// request goes on as a visitor's (and is logged): pages still show, and
// account pages ask to log in again.
func (h *Account) Viewer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(h.LoginCookieName())
		if err != nil || c.Value == "" || h.d.Accounts == nil {
			next.ServeHTTP(w, r)
			return
		}
		v, err := h.resolveViewer(r.Context(), c.Value)
		switch {
		case err == nil:
			r = httpx.WithViewer(r, v)
		case errors.Is(err, account.ErrNoSession), errors.Is(err, account.ErrNoUser):
			h.clearLoginCookie(w)
		case sqlstore.IsUnavailable(err):
			// The store is down: not a guest, whose pages and refusals
			// would mislead (an admin told to log in), but 503.
			h.d.Log.Warn("read login session", "err", err)
			h.d.StoreDown(w, r)
			return
		default:
			h.d.Log.Warn("read login session", "err", err)
		}
		next.ServeHTTP(w, r)
	})
}

func (h *Account) resolveViewer(ctx context.Context, token string) (*httpx.Viewer, error) {
	if len(token) > 128 {
		return nil, account.ErrNoSession
	}
	sess, err := h.d.Accounts.Session(ctx, token)
	if err != nil {
		return nil, err
	}
	u, err := h.d.Accounts.User(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	return &httpx.Viewer{User: u, Token: token}, nil
}

// LogIn starts a session for u: a new session token (the visitor's old
// one, if any, ends: the id is renewed on every login), the login cookie,
// and the guest cart moved into the customer's cart. It returns the
// request as the new viewer sees it, for handlers that go on rendering.
func (h *Account) LogIn(w http.ResponseWriter, r *http.Request, u *account.User) (*http.Request, error) {
	ctx := r.Context()
	guest := h.d.Sessions.CartSessionOf(r, h.d.Now())
	if old := httpx.ViewerOf(r); old != nil {
		if err := h.d.Accounts.DeleteSession(ctx, old.Token); err != nil {
			return r, err
		}
	}
	token, sess, err := h.d.Accounts.CreateSession(ctx, u.ID)
	if err != nil {
		return r, err
	}
	h.setLoginCookie(w, token, sess.ExpiresAt)
	h.d.AtLogin(ctx, u) // what a login resets (the server's)
	v := &httpx.Viewer{User: u, Token: token}
	r = httpx.WithViewer(r.WithContext(ctx), v)
	if guest.ViaCookie && httpx.ValidSessionID(guest.ID) {
		if err := h.d.Carts.Merge(ctx, guest.ID, cart.CustomerSession(u.ID)); err != nil {
			// The login stands; the guest's lines stay in the guest cart.
			h.d.Log.Warn("merge guest cart on login", "user", u.ID, "err", err)
		}
	}
	if h.d.Wishlist != nil {
		h.d.Wishlist.MergeAtLogin(w, r, u.ID)
	}
	return r, nil
}

// renewLogin gives the viewer a new session token after a change of
// privilege (role, password, second factor), so a token seen before the
// change stops working.
func (h *Account) renewLogin(w http.ResponseWriter, r *http.Request) error {
	v := httpx.ViewerOf(r)
	if v == nil {
		return nil
	}
	token, sess, err := h.d.Accounts.RenewSession(r.Context(), v.Token)
	if err != nil {
		return err
	}
	v.Token = token
	h.setLoginCookie(w, token, sess.ExpiresAt)
	return nil
}

// logOut ends the viewer's session and deletes the login cookie. The
// customer's cart stays with the account for the next login.
func (h *Account) logOut(w http.ResponseWriter, r *http.Request) error {
	h.clearLoginCookie(w)
	if h.d.Wishlist != nil {
		h.d.Wishlist.AtLogout(w)
	}
	if v := httpx.ViewerOf(r); v != nil {
		return h.d.Accounts.DeleteSession(r.Context(), v.Token)
	}
	return nil
}

// deviceMAC binds a remembered-device token to its user.
func (h *Account) deviceMAC(userID int64, token string) string {
	return hex.EncodeToString(h.d.Sessions.MAC("remember-device", strconv.FormatInt(userID, 10)+"|"+token))
}

// SetDeviceCookie remembers this device for u until expires.
func (h *Account) SetDeviceCookie(w http.ResponseWriter, userID int64, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: h.deviceCookieName(),
		Value: strconv.FormatInt(userID, 10) + "." + token + "." + h.deviceMAC(userID, token), Path: "/",
		Expires: expires, HttpOnly: true, Secure: h.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// DeviceRemembered reports whether the request carries a remember-device
// cookie for userID that is signed by this shop and still held by the
// store. A forged, edited or revoked cookie is simply not remembered.
func (h *Account) DeviceRemembered(r *http.Request, userID int64) bool {
	c, err := r.Cookie(h.deviceCookieName())
	if err != nil || len(c.Value) > 256 {
		return false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 || parts[0] != strconv.FormatInt(userID, 10) {
		return false
	}
	if !hmac.Equal([]byte(parts[2]), []byte(h.deviceMAC(userID, parts[1]))) {
		return false
	}
	ok, err := h.d.Accounts.DeviceRemembered(r.Context(), userID, parts[1])
	if err != nil {
		h.d.Log.Warn("read remembered device", "user", userID, "err", err)
		return false
	}
	return ok
}
