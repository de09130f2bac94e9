// Package wishlistapi is the wishlist's HTTP surface: the hearts' form
// (POST /wishlist/, a redirect back without scripts, JSON with them), the
// hearts' state after load (GET /wishlist/state), the personal page
// /wishlist/ and the read-only shared page /wishlist/view/{token}/,
// YITH WooCommerce Wishlist's ?add_to_wishlist= links and admin-ajax
// actions, the guest's cookie-named list and the merge at login.
//
// A guest's list is named by a signed HttpOnly cookie, as the cart's
// session is; the browser learns whether any hearts are on from a cookie
// it can read (vitrine_wishlist_count), so a cached page asks for the
// hearts' state only when the visitor's list holds something.
package wishlistapi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/wishlist"
)

// CountCookie is the cookie the browser reads: how many items the
// visitor's list holds (absent when none).
const CountCookie = "vitrine_wishlist_count"

// Pages renders the wishlist pages (the storefront's).
type Pages interface {
	PageContext(r *http.Request) context.Context
	SendPersonal(w http.ResponseWriter, r *http.Request, what, uri string, res *pages.Result, err error)
	PageError(w http.ResponseWriter, what string, err error)
	NotFound(w http.ResponseWriter, r *http.Request)
}

// Loader loads the wishlist page's data.
type Loader interface {
	Wishlist(ctx context.Context, reqURL string, in pages.WishlistInput) (*pages.Result, error)
}

// Deps are what the surface uses; the server builds them.
type Deps struct {
	Sessions  *httpx.Sessions
	Wishlists *wishlist.Service
	Pages     Pages
	Loader    Loader
	BaseURL   string
	Now       func() time.Time
	Log       *slog.Logger
}

// API serves the wishlist's endpoints.
type API struct{ d Deps }

// New builds the surface.
func New(d Deps) *API {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}

// --- the guest's cookie ---

func (a *API) cookieName() string { return "vitrine_wishlist_" + a.d.Sessions.CookieHash() }

func newGuestKey() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	return "w_" + hex.EncodeToString(b)
}

func validGuestKey(k string) bool {
	if len(k) != 32 || !strings.HasPrefix(k, "w_") {
		return false
	}
	_, err := hex.DecodeString(k[2:])
	return err == nil
}

func (a *API) cookieMAC(key string, exp int64) string {
	return hex.EncodeToString(a.d.Sessions.MAC("wishlist-cookie", key+"|"+strconv.FormatInt(exp, 10)))
}

// guestKey is the guest list's key the request's cookie names, if valid.
func (a *API) guestKey(r *http.Request) (string, bool) {
	c, err := r.Cookie(a.cookieName())
	if err != nil {
		return "", false
	}
	parts := strings.Split(c.Value, "||")
	if len(parts) != 3 || !validGuestKey(parts[0]) {
		return "", false
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || exp <= a.d.Now().Unix() || !hmac.Equal([]byte(parts[2]), []byte(a.cookieMAC(parts[0], exp))) {
		return "", false
	}
	return parts[0], true
}

func (a *API) setGuestCookie(w http.ResponseWriter, key string, expires time.Time) {
	exp := expires.Unix()
	http.SetCookie(w, &http.Cookie{Name: a.cookieName(), Value: key + "||" + strconv.FormatInt(exp, 10) + "||" + a.cookieMAC(key, exp),
		Path: "/", Expires: expires, HttpOnly: true, Secure: a.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// setCount writes the cookie the browser reads; a customer's lasts as
// long as a guest's would (it is set again at each login).
func (a *API) setCount(w http.ResponseWriter, n int) {
	c := &http.Cookie{Name: CountCookie, Path: "/", Secure: a.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode}
	if n <= 0 {
		c.MaxAge = -1
	} else {
		c.Value = strconv.Itoa(n)
		c.Expires = a.d.Now().Add(wishlist.GuestLifetime)
	}
	http.SetCookie(w, c)
}

// owner is the request's list: the customer's, else the guest's cookie
// names; fresh is a new guest key (no cookie yet).
func (a *API) owner(r *http.Request) (o wishlist.Owner, fresh bool) {
	if u := httpx.UserOf(r); u != nil {
		return wishlist.Customer(u.ID), false
	}
	if k, ok := a.guestKey(r); ok {
		return wishlist.Guest(k), false
	}
	return wishlist.Guest(newGuestKey()), true
}

// wrote sets the cookies after a write that answered list l.
func (a *API) wrote(w http.ResponseWriter, o wishlist.Owner, l *wishlist.List) {
	if o.SessionKey != "" && l != nil && l.ID != 0 {
		exp := a.d.Now().Add(wishlist.GuestLifetime)
		if l.ExpiresAt != nil {
			exp = *l.ExpiresAt
		}
		a.setGuestCookie(w, o.SessionKey, exp)
	}
	if l != nil {
		a.setCount(w, len(l.Items))
	}
}

// MergeAtLogin moves the guest's list (named by the request's cookie)
// into the customer's, as the cart's merge does, and sets the count
// cookie to the customer's list. A failure is logged: the login stands.
func (a *API) MergeAtLogin(w http.ResponseWriter, r *http.Request, userID int64) {
	ctx := r.Context()
	var l *wishlist.List
	var err error
	if k, ok := a.guestKey(r); ok {
		l, err = a.d.Wishlists.Merge(ctx, k, userID)
		if err == nil {
			http.SetCookie(w, &http.Cookie{Name: a.cookieName(), Path: "/", MaxAge: -1, HttpOnly: true,
				Secure: a.d.Sessions.SecureCookies(), SameSite: http.SameSiteLaxMode})
		}
	} else {
		l, err = a.d.Wishlists.Get(ctx, wishlist.Customer(userID))
	}
	if err != nil {
		a.d.Log.Warn("wishlist at login", "user", userID, "err", err)
		return
	}
	a.setCount(w, len(l.Items))
}

// AtLogout clears the count cookie: the next visitor of this browser is
// a guest with no list.
func (a *API) AtLogout(w http.ResponseWriter) { a.setCount(w, 0) }

// --- the hearts ---

// Messages the live region and the notices say.
const (
	msgAdded   = "Added to your wishlist"
	msgRemoved = "Removed from your wishlist"
	msgInvalid = "This product cannot be added to your wishlist."
	msgFull    = "Your wishlist is full. Remove something before adding more."
)

// stateAnswer is the hearts' JSON: the list's item ids (a variation's id
// for a variation) and its count.
type stateAnswer struct {
	Count   int     `json:"count"`
	Items   []int64 `json:"items"`
	On      *bool   `json:"on,omitempty"`
	Message string  `json:"message,omitempty"`
	URL     string  `json:"wishlist_url"`
}

func itemIDs(l *wishlist.List) []int64 {
	out := make([]int64, 0, len(l.Items))
	for _, it := range l.Items {
		out = append(out, it.ItemID())
	}
	return out
}

// State answers GET /wishlist/state: the visitor's list as the hearts
// need it. Never cached; a visitor without a list gets an empty one
// (and makes no list).
func (a *API) State(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	o, fresh := a.owner(r)
	l := &wishlist.List{}
	if !fresh {
		var err error
		if l, err = a.d.Wishlists.Get(r.Context(), o); err != nil {
			httpx.WriteError(w, http.StatusInternalServerError, "vitrine_wishlist_error", "The wishlist could not be read.", nil)
			return
		}
	}
	a.setCount(w, len(l.Items))
	httpx.WriteJSON(w, http.StatusOK, stateAnswer{Count: len(l.Items), Items: itemIDs(l), URL: a.link("/wishlist/")})
}

func (a *API) link(path string) string { return strings.TrimSuffix(a.d.BaseURL, "/") + path }

// wantsJSON: the hearts' script asks for JSON; a form without scripts
// gets a redirect.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// back is where a form without scripts returns: the same-site path it
// names (_wp_http_referer, else the Referer), else /wishlist/.
func (a *API) back(r *http.Request) string {
	for _, raw := range []string{r.PostFormValue("_wp_http_referer"), r.Referer()} {
		if raw == "" {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		if u.IsAbs() {
			base, err := url.Parse(a.d.BaseURL)
			if err != nil || u.Host != base.Host {
				continue
			}
		}
		if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || u.Host != "" && !u.IsAbs() {
			continue
		}
		return (&url.URL{Path: u.Path, RawQuery: stripWishlistParams(u.Query()).Encode()}).String()
	}
	return "/wishlist/"
}

func stripWishlistParams(q url.Values) url.Values {
	for _, k := range []string{"add_to_wishlist", "remove_from_wishlist", "wishlist_notice", "_wpnonce"} {
		q.Del(k)
	}
	return q
}

// Post answers POST /wishlist/: wishlist_action is add, remove (with
// product_id, or YITH's add_to_wishlist / remove_from_wishlist fields),
// share, renew or unshare. With scripts (Accept: application/json) the
// answer is the hearts' JSON; without, 303 back to the page the form was
// on (the wishlist page shows a notice). Asking twice is asking once.
func (a *API) Post(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if err := r.ParseForm(); err != nil {
		a.refuse(w, r, http.StatusBadRequest, "The form could not be read.")
		return
	}
	action := r.PostFormValue("wishlist_action")
	raw := r.PostFormValue("product_id")
	switch {
	case action == "" && r.PostFormValue("add_to_wishlist") != "":
		action, raw = "add", r.PostFormValue("add_to_wishlist")
	case action == "" && r.PostFormValue("remove_from_wishlist") != "":
		action, raw = "remove", r.PostFormValue("remove_from_wishlist")
	}
	switch action {
	case "add", "remove":
		a.set(w, r, raw, action == "add")
	case "share", "renew", "unshare":
		a.share(w, r, action)
	default:
		a.refuse(w, r, http.StatusBadRequest, "Unknown wishlist action.")
	}
}

func (a *API) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if wantsJSON(r) {
		httpx.WriteError(w, status, "vitrine_wishlist_invalid", msg, nil)
		return
	}
	http.Redirect(w, r, "/wishlist/?wishlist_notice=invalid", http.StatusSeeOther)
}

func (a *API) set(w http.ResponseWriter, r *http.Request, raw string, on bool) {
	ctx := r.Context()
	id, err := wishlist.ParseID(raw)
	if err != nil {
		a.refuse(w, r, http.StatusBadRequest, msgInvalid)
		return
	}
	o, fresh := a.owner(r)
	if fresh && !on {
		// Nothing to remove from a list that does not exist.
		a.answerSet(w, r, o, &wishlist.List{}, on)
		return
	}
	_, l, _, err := a.d.Wishlists.Set(ctx, o, id, on)
	switch {
	case errors.Is(err, wishlist.ErrInvalidProduct):
		a.refuse(w, r, http.StatusBadRequest, msgInvalid)
		return
	case errors.Is(err, wishlist.ErrFull):
		a.refuse(w, r, http.StatusConflict, msgFull)
		return
	case err != nil:
		a.d.Log.Error("wishlist write", "err", err)
		if wantsJSON(r) {
			httpx.WriteError(w, http.StatusInternalServerError, "vitrine_wishlist_error", "The wishlist could not be saved.", nil)
			return
		}
		a.d.Pages.PageError(w, "wishlist write", err)
		return
	}
	a.wrote(w, o, l)
	a.answerSet(w, r, o, l, on)
}

func (a *API) answerSet(w http.ResponseWriter, r *http.Request, o wishlist.Owner, l *wishlist.List, on bool) {
	msg := msgRemoved
	if on {
		msg = msgAdded
	}
	if wantsJSON(r) {
		httpx.WriteJSON(w, http.StatusOK, stateAnswer{Count: len(l.Items), Items: itemIDs(l), On: &on, Message: msg, URL: a.link("/wishlist/")})
		return
	}
	back := a.back(r)
	if strings.HasPrefix(back, "/wishlist/") {
		notice := "removed"
		if on {
			notice = "added"
		}
		back = "/wishlist/?wishlist_notice=" + notice
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// share turns sharing on with a new link (share, renew) or off.
func (a *API) share(w http.ResponseWriter, r *http.Request, action string) {
	ctx := r.Context()
	o, fresh := a.owner(r)
	if fresh {
		http.Redirect(w, r, "/wishlist/?wishlist_notice=empty", http.StatusSeeOther)
		return
	}
	if action == "unshare" {
		err := a.d.Wishlists.StopSharing(ctx, o)
		if err != nil && !errors.Is(err, wishlist.ErrNoList) {
			a.d.Pages.PageError(w, "wishlist sharing", err)
			return
		}
		http.Redirect(w, r, "/wishlist/?wishlist_notice=unshared", http.StatusSeeOther)
		return
	}
	token, err := a.d.Wishlists.Share(ctx, o)
	if errors.Is(err, wishlist.ErrNoList) {
		http.Redirect(w, r, "/wishlist/?wishlist_notice=empty", http.StatusSeeOther)
		return
	}
	if err != nil {
		a.d.Pages.PageError(w, "wishlist sharing", err)
		return
	}
	// The link is shown once, on the page this renders (only its hash is
	// kept): the answer is the page itself, not a redirect.
	a.renderOwn(w, r, o, pages.Notice{Kind: "success", Text: "Your wishlist's link is ready. Copy it now: it is shown only once."},
		a.link("/wishlist/view/"+token+"/"))
}

// notices of the page's ?wishlist_notice= (a form's outcome without
// scripts).
var notices = map[string]pages.Notice{
	"added":    {Kind: "success", Text: msgAdded + "."},
	"removed":  {Kind: "success", Text: msgRemoved + "."},
	"invalid":  {Kind: "error", Text: msgInvalid},
	"unshared": {Kind: "success", Text: "Sharing is off: the link no longer works."},
	"empty":    {Kind: "error", Text: "Add something to your wishlist before sharing it."},
}

// Page answers GET /wishlist/: the visitor's own list. Per visitor,
// never cached.
func (a *API) Page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	o, _ := a.owner(r)
	if n, ok := notices[r.URL.Query().Get("wishlist_notice")]; ok {
		a.renderOwn(w, r, o, n)
		return
	}
	a.renderOwn(w, r, o)
}

func (a *API) renderOwn(w http.ResponseWriter, r *http.Request, o wishlist.Owner, extra ...any) {
	ctx := r.Context()
	in := pages.WishlistInput{}
	for _, x := range extra {
		switch v := x.(type) {
		case pages.Notice:
			in.Notices = append(in.Notices, v)
		case string:
			in.ShareURL = v
		}
	}
	l, err := a.d.Wishlists.Get(ctx, o)
	if err != nil {
		a.d.Pages.PageError(w, "wishlist page", err)
		return
	}
	in.Items, in.ShareEnabled = entries(l), l.ShareEnabled
	if l.ID != 0 {
		a.setCount(w, len(l.Items))
	}
	res, err := a.d.Loader.Wishlist(a.d.Pages.PageContext(r), "/wishlist/", in)
	a.d.Pages.SendPersonal(w, r, "wishlist page", "/wishlist/", res, err)
}

func entries(l *wishlist.List) []pages.WishlistEntry {
	out := make([]pages.WishlistEntry, len(l.Items))
	for i, it := range l.Items {
		out[i] = pages.WishlistEntry{ProductID: it.ProductID, VariationID: it.VariationID, PriceAdded: it.PriceAdded, AddedAt: it.AddedAt}
	}
	return out
}

// Shared answers GET /wishlist/view/{token}/: a list seen by its share
// link, read-only and noindex. A link never made, turned off or renewed
// since is the shop's 404.
func (a *API) Shared(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	w.Header().Set("Referrer-Policy", "no-referrer")
	l, err := a.d.Wishlists.Shared(r.Context(), r.PathValue("token"))
	if errors.Is(err, wishlist.ErrNotShared) {
		a.d.Pages.NotFound(w, r)
		return
	}
	if err != nil {
		a.d.Pages.PageError(w, "shared wishlist", err)
		return
	}
	res, err := a.d.Loader.Wishlist(a.d.Pages.PageContext(r), r.URL.Path, pages.WishlistInput{Items: entries(l), Shared: true})
	a.d.Pages.SendPersonal(w, r, "shared wishlist", r.URL.Path, res, err)
}

// AddLink answers YITH's ?add_to_wishlist=ID links on any page (GET):
// the product is added and the answer is 303 to the same address without
// the parameter. A refused id changes nothing and goes to the same place.
func (a *API) AddLink(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("X-Robots-Tag", "noindex")
	q := r.URL.Query()
	raw := q.Get("add_to_wishlist")
	target := (&url.URL{Path: r.URL.Path, RawQuery: stripWishlistParams(q).Encode()}).String()
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		// A link on another site must not write: the shopper lands on the
		// page, nothing added.
		http.Redirect(w, r, target, http.StatusSeeOther)
		return
	}
	if id, err := wishlist.ParseID(raw); err == nil {
		o, _ := a.owner(r)
		_, l, _, err := a.d.Wishlists.Set(r.Context(), o, id, true)
		if err == nil {
			a.wrote(w, o, l)
		} else if !errors.Is(err, wishlist.ErrInvalidProduct) && !errors.Is(err, wishlist.ErrFull) {
			a.d.Log.Error("wishlist link", "err", err)
		}
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// WithAddLinks sends GET and HEAD requests carrying ?add_to_wishlist= to
// AddLink, and the rest to next.
func (a *API) WithAddLinks(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.RawQuery != "" && r.URL.Query().Has("add_to_wishlist") &&
			!strings.HasPrefix(r.URL.Path, "/wp-json/") && !strings.HasPrefix(r.URL.Path, "/wp-admin/") {
			a.AddLink(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// scopes are the nonce scopes a request's YITH nonce may be bound to:
// the visitor's (the anonymous scope, which shared cached pages carry)
// and, for a customer, the account's.
func (a *API) nonceOK(r *http.Request, action, n string) bool {
	if n == "" {
		return false
	}
	tick := httpx.NonceTickAt(a.d.Now())
	if a.d.Sessions.VerifyActionNonce(n, action, "", tick) {
		return true
	}
	if u := httpx.UserOf(r); u != nil {
		return a.d.Sessions.VerifyActionNonce(n, action, cart.CustomerSession(u.ID), tick)
	}
	return false
}

// L10nScript is the text of YITH's localised script at a tick: "var
// yith_wcwl_l10n = {…};" (keys sorted, so the same tick gives the same
// bytes and the same CSP hash).
func (a *API) L10nScript(tick int64) string {
	b, _ := json.Marshal(a.L10n(tick))
	return "var yith_wcwl_l10n = " + string(b) + ";"
}

// L10n is YITH's localised script object (yith_wcwl_l10n) for a tick:
// the admin-ajax address, the actions and their nonces, bound to the
// anonymous scope so one cached page serves every visitor.
func (a *API) L10n(tick int64) map[string]any {
	n := func(action string) string { return a.d.Sessions.ActionNonce(action, "", tick) }
	return map[string]any{
		"ajax_url":         "/wp-admin/admin-ajax.php",
		"redirect_to_cart": "no",
		"multi_wishlist":   false,
		"hide_add_button":  true,
		"actions": map[string]string{
			"add_to_wishlist_action":      "add_to_wishlist",
			"remove_from_wishlist_action": "remove_from_wishlist",
			"load_fragments":              "load_fragments",
		},
		"nonce": map[string]string{
			"add_to_wishlist_nonce":      n("add_to_wishlist"),
			"remove_from_wishlist_nonce": n("remove_from_wishlist"),
			"load_fragments_nonce":       n("load_fragments"),
		},
	}
}
