package ajax

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/storeapi"
)

// The classic cart's wc-ajax endpoints (protocol notes sections 1.2–1.4, 2,
// 3): add_to_cart, remove_from_cart and get_refreshed_fragments. They use
// the Store API cart's session (httpx.Sessions: Cart-Token header or the
// signed session cookie) and its cart operations, without a nonce, as
// WooCommerce's do. Every success answers
//
//	{"fragments": {selector: outer HTML, …}, "cart_hash": "<md5 or empty>"}
//
// where each fragment is a React component rendered by the server bundle
// (page kind "fragments", web/src/cart/Fragments.tsx), never HTML built in Go.
//
// The no-script fallbacks (GET /?add-to-cart=ID, POST of a product form)
// are the storefront's; they add through AddToSession and RefusedPath.

// cartFragments are the fragments every answer carries, in order: the
// selector the browser replaces and the name the app renders it by.
var cartFragments = []struct{ selector, name string }{
	{"div.widget_shopping_cart_content", "mini_cart"},
	{"span.header-cart-count", "cart_count"},
}

// Cookies the browser's scripts read (not HttpOnly).
const (
	itemsInCartCookie = "woocommerce_items_in_cart"
	cartHashCookie    = "woocommerce_cart_hash"
)

// wcAddToCart answers add_to_cart: product_id (a product or a variation) and
// quantity (absent or empty: 1). Every other field is ignored. A refusal
// answers {"error": true, "product_url": …}; no product_id, an empty body.
func (a *API) wcAddToCart(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	raw := strings.TrimSpace(r.FormValue("product_id"))
	if raw == "" {
		httpx.WCAjaxWrite(w, r, nil)
		return
	}
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	id, c, err := AddToSession(r.Context(), a.d.Carts, sess, raw, r.FormValue("quantity"), nil)
	var ce *cart.Error
	if errors.As(err, &ce) {
		a.wcAddRefused(w, r, id)
		return
	}
	if err != nil {
		CartFailed(a.d.Log, w, "add_to_cart", err)
		return
	}
	if !sess.ViaToken {
		a.d.Sessions.SetSessionCookie(w, sess.ID, now.Add(a.d.CartLifetime))
	}
	out, err := a.d.Store.ShapeCart(r.Context(), c, false, sess.Currency)
	if err != nil {
		CartFailed(a.d.Log, w, "add_to_cart", err)
		return
	}
	a.wcFragmentsOf(w, r, sess.ID, out)
}

// AddToSession adds quantity (absent or empty: 1) of the product or
// variation rawID to the session's cart, with the chosen attributes (for a
// variation's "any" attributes). It answers the parsed id (0 when it is not
// a positive number) and a *cart.Error for a refusal, and the cart after the
// add. The no-script product form adds through it too.
func AddToSession(ctx context.Context, carts *cart.Service, sess httpx.Session, rawID, rawQty string, chosen []cart.Attr) (int64, *cart.Cart, error) {
	id, qty, err := cart.ParseAdd(rawID, rawQty)
	if err != nil {
		return id, nil, err
	}
	c, _, err := carts.Add(ctx, sess.ID, id, qty, chosen)
	return id, c, err
}

// RefusedPath is where a refused add sends the shopper: the product's page
// (the parent's for a variation), or "" when it has none to show.
func RefusedPath(ctx context.Context, carts *cart.Service, id int64) string {
	if p := carts.RefusedProduct(ctx, id); p != nil {
		return storeapi.ProductPath(p.Slug)
	}
	return ""
}

// wcAddRefused answers a refused add with the product's permalink (the
// parent's for a variation), where the shopper sees why. An unknown or
// unpublished product has no page to show: its answer names the shop page.
func (a *API) wcAddRefused(w http.ResponseWriter, r *http.Request, id int64) {
	url := strings.TrimRight(a.d.BaseURL, "/") + "/shop/"
	if path := RefusedPath(r.Context(), a.d.Carts, id); path != "" {
		b := &storeapi.Builder{BaseURL: a.d.BaseURL}
		url = b.Link(path)
	}
	out, _ := json.Marshal(struct {
		Error      bool   `json:"error"`
		ProductURL string `json:"product_url"`
	}{true, url})
	httpx.WCAjaxWrite(w, r, out)
}

// wcRemoveFromCart answers remove_from_cart: cart_item_key. An unknown key
// answers {"success": false}.
func (a *API) wcRemoveFromCart(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	key := strings.TrimSpace(r.FormValue("cart_item_key"))
	var err error = cart.ErrInvalidKey
	if key != "" && (sess.ViaCookie || sess.ViaToken) {
		err = a.d.Carts.Remove(r.Context(), sess.ID, key)
	}
	if errors.Is(err, cart.ErrInvalidKey) {
		httpx.WCAjaxWrite(w, r, []byte(`{"success":false}`))
		return
	}
	if err != nil {
		CartFailed(a.d.Log, w, "remove_from_cart", err)
		return
	}
	a.wcFragments(w, r, sess)
}

// wcRefreshedFragments answers get_refreshed_fragments. A request without a
// session reads an empty cart and creates nothing.
func (a *API) wcRefreshedFragments(w http.ResponseWriter, r *http.Request) {
	sess := a.d.Sessions.CartSessionOf(r, a.d.Now())
	a.wcFragments(w, r, sess)
}

// CartFailed logs a wc-ajax cart call that failed and answers 500 with
// an empty body (the wallet's cart calls answer so too).
func CartFailed(log *slog.Logger, w http.ResponseWriter, what string, err error) {
	log.Error(what, "err", err)
	httpx.WCAjaxHeaders(w)
	w.WriteHeader(http.StatusInternalServerError)
}

// wcFragments renders the session's cart fragments, sets the cart cookies
// that changed and answers the success body.
func (a *API) wcFragments(w http.ResponseWriter, r *http.Request, sess httpx.Session) {
	id := sess.ID
	c, err := a.d.Store.CartResponse(r.Context(), id, sess.Currency)
	if err != nil {
		CartFailed(a.d.Log, w, "cart fragments", err)
		return
	}
	a.wcFragmentsOf(w, r, id, c)
}

// wcFragmentsOf answers the success body for a shaped cart of the session.
func (a *API) wcFragmentsOf(w http.ResponseWriter, r *http.Request, sessionID string, c *storeapi.Cart) {
	// The mini cart's remove links carry the session's _wpnonce; the
	// session is the one the cookie names (set by this answer when new).
	frags, err := a.renderFragments(r.Context(), c, a.d.CartNonce(sessionID, httpx.NonceTickAt(a.d.Now())))
	if err != nil {
		CartFailed(a.d.Log, w, "cart fragments", err)
		return
	}
	hash := c.Hash()
	SetCartCookies(w, r, a.d.Sessions.SecureCookies(), len(c.Items) > 0, hash)
	out, err := json.Marshal(struct {
		Fragments map[string]string `json:"fragments"`
		CartHash  string            `json:"cart_hash"`
	}{frags, hash})
	if err != nil {
		CartFailed(a.d.Log, w, "cart fragments", err)
		return
	}
	httpx.WCAjaxWrite(w, r, out)
}

// renderFragments renders each fragment through the server bundle: data
// {page: "fragments", fragment: name, remove_nonce: the session's
// _wpnonce, cart: <Store API cart object>}; the app answers exactly that
// element's outer HTML. Rendered fragments are kept by the SHA-256 of the
// cart's JSON (fragmentCache), rendered with a placeholder for the nonce:
// the render is a pure function of that data, so an identical cart (every
// first add of the same product, in any session; a refresh of an unchanged
// cart) reuses the HTML without a render.
func (a *API) renderFragments(ctx context.Context, c *storeapi.Cart, removeNonce string) (map[string]string, error) {
	if a.d.Engine == nil {
		return nil, errNoEngine
	}
	cj, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	// Fragments are rendered and cached by cart content alone, with a
	// placeholder where the session's nonce goes, so every session with the
	// same cart (every fresh cart of one product) shares one render; the
	// nonce is put in per answer.
	key := sha256.Sum256(cj)
	out := a.frags.get(key)
	if out == nil {
		nj := `""` // no remove links: empty carts need no nonce
		if len(c.Items) > 0 {
			nj = strconv.Quote(fragmentNonce)
		}
		out = make(map[string]string, len(cartFragments))
		for _, f := range cartFragments {
			data := make([]byte, 0, len(cj)+64)
			data = append(data, `{"page":"fragments","fragment":`...)
			data = strconv.AppendQuote(data, f.name)
			data = append(data, `,"remove_nonce":`...)
			data = append(data, nj...)
			data = append(data, `,"cart":`...)
			data = append(data, cj...)
			data = append(data, '}')
			html, err := a.d.Engine.Render(ctx, "/?wc-ajax=fragments&fragment="+f.name, data)
			if err != nil {
				return nil, err
			}
			if html == "" {
				return nil, errors.New("empty fragment " + f.name)
			}
			out[f.selector] = html
		}
		a.frags.put(key, out)
		a.d.FragmentsRendered()
	}
	if len(c.Items) == 0 {
		return out, nil
	}
	withNonce := make(map[string]string, len(out))
	for sel, html := range out {
		withNonce[sel] = strings.ReplaceAll(html, fragmentNonce, removeNonce)
	}
	return withNonce, nil
}

// fragmentNonce stands for the session's _wpnonce in cached fragments. It
// is made of letters only, so rendering leaves it as it is.
const fragmentNonce = "VitrineFragmentNoncePlaceholder"

// fragmentCache keeps rendered fragment sets by cart-data hash, up to max
// sets (then it starts over). Sets are shared and never modified.
type fragmentCache struct {
	mu  sync.RWMutex
	max int
	m   map[[32]byte]map[string]string
}

func newFragmentCache(max int) *fragmentCache {
	return &fragmentCache{max: max, m: map[[32]byte]map[string]string{}}
}

func (f *fragmentCache) get(k [32]byte) map[string]string {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.m[k]
}

func (f *fragmentCache) put(k [32]byte, v map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.m) >= f.max {
		clear(f.m)
	}
	f.m[k] = v
}

// SetCartCookies writes woocommerce_items_in_cart and woocommerce_cart_hash
// when they differ from what the request carried: items_in_cart is "1"
// while the cart has lines and deleted when it empties; the hash is empty
// for an empty cart. Every answer that changes a cart writes them (the
// Store API, the wallet, the no-script cart and the checkout too); secure
// marks them Secure (a shop served over https).
func SetCartCookies(w http.ResponseWriter, r *http.Request, secure, nonEmpty bool, hash string) {
	had, _ := r.Cookie(itemsInCartCookie)
	switch {
	case nonEmpty && (had == nil || had.Value != "1"):
		http.SetCookie(w, &http.Cookie{Name: itemsInCartCookie, Value: "1", Path: "/", Secure: secure, SameSite: http.SameSiteLaxMode})
	case !nonEmpty && had != nil:
		http.SetCookie(w, &http.Cookie{Name: itemsInCartCookie, Value: "", Path: "/", MaxAge: -1,
			Expires: time.Unix(0, 0), Secure: secure, SameSite: http.SameSiteLaxMode})
	}
	old, _ := r.Cookie(cartHashCookie)
	if (old == nil && hash != "") || (old != nil && old.Value != hash) {
		http.SetCookie(w, &http.Cookie{Name: cartHashCookie, Value: hash, Path: "/", Secure: secure, SameSite: http.SameSiteLaxMode})
	}
}
