package server

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// The classic cart's wc-ajax endpoints (protocol notes sections 1.2–1.4, 2,
// 3): add_to_cart, remove_from_cart and get_refreshed_fragments. They use
// the Store API cart's session (cartsession.go: Cart-Token header or the
// signed session cookie) and its cart operations, without a nonce, as
// WooCommerce's do. Every success answers
//
//	{"fragments": {selector: outer HTML, …}, "cart_hash": "<md5 or empty>"}
//
// where each fragment is a React component rendered by the server bundle
// (page kind "fragments", web/src/cart/Fragments.tsx), never HTML built in Go.
//
// The no-script fallbacks (GET /?add-to-cart=ID, POST of a product form)
// are in nojs_cart.go.

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
func (s *Server) wcAddToCart(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	raw := strings.TrimSpace(r.FormValue("product_id"))
	if raw == "" {
		wcAjaxWrite(w, r, nil)
		return
	}
	now := s.now()
	sess := s.cartSessionOf(r, now)
	id, err := s.addToSession(r.Context(), sess, raw, r.FormValue("quantity"), nil, now)
	var ce *cart.Error
	if errors.As(err, &ce) {
		s.wcAddRefused(w, r, id)
		return
	}
	if err != nil {
		s.wcCartFailed(w, "add_to_cart", err)
		return
	}
	if !sess.viaToken {
		s.setSessionCookie(w, sess.id, now.Add(s.cfg.CartLifetime))
	}
	s.wcFragments(w, r, sess.id)
}

// errBadProductID refuses an add whose product id is not a positive number.
var errBadProductID = &cart.Error{Status: 400, Code: "woocommerce_rest_cart_invalid_product", Message: "This product cannot be added to the cart."}

// addToSession adds quantity (absent or empty: 1) of the product or
// variation rawID to the session's cart, with the chosen attributes (for a
// variation's "any" attributes). It answers the parsed id (0 when it is not
// a positive number) and a *cart.Error for a refusal.
func (s *Server) addToSession(ctx context.Context, sess cartSession, rawID, rawQty string, chosen []cart.Attr, now time.Time) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(rawID), 10, 64)
	if err != nil || id <= 0 {
		return 0, errBadProductID
	}
	qty := int64(1)
	if q := strings.TrimSpace(rawQty); q != "" {
		if qty, err = cart.ParseQuantity(q); err != nil {
			return id, err
		}
	}
	sell, line, err := s.resolveLine(ctx, id, chosen, now)
	if err != nil {
		return id, err
	}
	line.Quantity = qty
	return id, s.db.AddLine(ctx, sess.id, line, now, now.Add(s.cfg.CartLifetime), func(existing, total int64) error {
		return cart.CheckQuantity(sell, total, existing, true)
	})
}

// refusedPath is where a refused add sends the shopper: the product's page
// (the parent's for a variation), or "" when it has none to show.
func (s *Server) refusedPath(ctx context.Context, id int64) string {
	if id <= 0 {
		return ""
	}
	p, err := s.store.Product(ctx, id)
	if err == nil && p.Type == catalog.TypeVariation {
		p, err = s.store.Product(ctx, p.ParentID)
	}
	if err != nil || !p.Published() {
		return ""
	}
	return storeapi.ProductPath(p.Slug)
}

// wcAddRefused answers a refused add with the product's permalink (the
// parent's for a variation), where the shopper sees why. An unknown or
// unpublished product has no page to show: its answer names the shop page.
func (s *Server) wcAddRefused(w http.ResponseWriter, r *http.Request, id int64) {
	url := strings.TrimRight(s.cfg.BaseURL, "/") + "/shop/"
	if path := s.refusedPath(r.Context(), id); path != "" {
		b := &storeapi.Builder{BaseURL: s.cfg.BaseURL}
		url = b.Link(path)
	}
	out, _ := json.Marshal(struct {
		Error      bool   `json:"error"`
		ProductURL string `json:"product_url"`
	}{true, url})
	wcAjaxWrite(w, r, out)
}

// wcRemoveFromCart answers remove_from_cart: cart_item_key. An unknown key
// answers {"success": false}.
func (s *Server) wcRemoveFromCart(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	now := s.now()
	sess := s.cartSessionOf(r, now)
	key := strings.TrimSpace(r.FormValue("cart_item_key"))
	err := cart.ErrNoLine
	if key != "" && (sess.viaCookie || sess.viaToken) {
		err = s.db.RemoveLine(r.Context(), sess.id, key, now, now.Add(s.cfg.CartLifetime))
	}
	if errors.Is(err, cart.ErrNoLine) {
		wcAjaxWrite(w, r, []byte(`{"success":false}`))
		return
	}
	if err != nil {
		s.wcCartFailed(w, "remove_from_cart", err)
		return
	}
	s.wcFragments(w, r, sess.id)
}

// wcRefreshedFragments answers get_refreshed_fragments. A request without a
// session reads an empty cart and creates nothing.
func (s *Server) wcRefreshedFragments(w http.ResponseWriter, r *http.Request) {
	sess := s.cartSessionOf(r, s.now())
	s.wcFragments(w, r, sess.id)
}

func (s *Server) wcCartFailed(w http.ResponseWriter, what string, err error) {
	s.log.Error(what, "err", err)
	wcAjaxHeaders(w)
	w.WriteHeader(http.StatusInternalServerError)
}

// wcFragments renders the session's cart fragments, sets the cart cookies
// that changed and answers the success body.
func (s *Server) wcFragments(w http.ResponseWriter, r *http.Request, id string) {
	ctx := r.Context()
	c, err := s.cartResponse(ctx, id)
	if err != nil {
		s.wcCartFailed(w, "cart fragments", err)
		return
	}
	frags, err := s.renderFragments(ctx, c)
	if err != nil {
		s.wcCartFailed(w, "cart fragments", err)
		return
	}
	hash := cartHash(c)
	s.setCartCookies(w, r, len(c.Items) > 0, hash)
	out, err := json.Marshal(struct {
		Fragments map[string]string `json:"fragments"`
		CartHash  string            `json:"cart_hash"`
	}{frags, hash})
	if err != nil {
		s.wcCartFailed(w, "cart fragments", err)
		return
	}
	wcAjaxWrite(w, r, out)
}

// renderFragments renders each fragment through the server bundle: data
// {page: "fragments", fragment: name, cart: <Store API cart object>}; the
// app answers exactly that element's outer HTML.
func (s *Server) renderFragments(ctx context.Context, c *cartObject) (map[string]string, error) {
	if s.engine == nil {
		return nil, errNoEngine
	}
	out := make(map[string]string, len(cartFragments))
	for _, f := range cartFragments {
		data, err := json.Marshal(map[string]any{"page": "fragments", "fragment": f.name, "cart": c})
		if err != nil {
			return nil, err
		}
		html, err := s.engine.Render(ctx, "/?wc-ajax=fragments&fragment="+f.name, data)
		if err != nil {
			return nil, err
		}
		if html == "" {
			return nil, errors.New("empty fragment " + f.name)
		}
		out[f.selector] = html
	}
	return out, nil
}

// cartHash is the empty string for an empty cart, else the hex md5 of
//
//	JSON([{"key","id","quantity","variation","line_total"} for each line in cart order]) + total_price
//
// where id is the item id (the variation's for variations), variation the
// chosen attributes as shown, line_total and total_price minor units as
// decimal strings. Any change of lines, quantities or prices changes it.
func cartHash(c *cartObject) string {
	if len(c.Items) == 0 {
		return ""
	}
	type hashLine struct {
		Key       string      `json:"key"`
		ID        int64       `json:"id"`
		Quantity  int64       `json:"quantity"`
		Variation []cart.Attr `json:"variation"`
		LineTotal string      `json:"line_total"`
	}
	lines := make([]hashLine, 0, len(c.Items))
	for _, it := range c.Items {
		lines = append(lines, hashLine{it.Key, it.ID, it.Quantity, it.Variation, it.Totals.LineTotal})
	}
	b, _ := json.Marshal(lines)
	sum := md5.Sum(append(b, c.Totals.TotalPrice...))
	return hex.EncodeToString(sum[:])
}

// setCartCookies writes woocommerce_items_in_cart and woocommerce_cart_hash
// when they differ from what the request carried: items_in_cart is "1"
// while the cart has lines and deleted when it empties; the hash is empty
// for an empty cart.
func (s *Server) setCartCookies(w http.ResponseWriter, r *http.Request, nonEmpty bool, hash string) {
	secure := strings.HasPrefix(s.cfg.BaseURL, "https://")
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
