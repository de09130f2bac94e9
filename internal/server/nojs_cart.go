package server

import (
	"cmp"
	"crypto/hmac"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/ajax"
	"vitrine/internal/cart"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
)

// The no-script add to cart (spec section 9): the product card's link
// (GET /?add-to-cart=ID[&quantity=N]) and the product form's POST to the
// product's permalink (add-to-cart=ID&quantity=N[&variation_id=V], with the
// variation form's attribute_* fields). Both add to the session's cart (the
// session cookie is created as for any first write) and answer 303: to
// /cart/ on success, back to the product's page on refusal (the shop page for
// an unknown product on GET; the posted page on POST). Never cached.

// noScriptAddGet answers GET /?add-to-cart=ID.
func (s *Server) noScriptAddGet(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.noScriptAdd(w, r, q.Get("add-to-cart"), q.Get("quantity"), nil, "/shop/")
}

// handleProductPost answers the product form's POST to its permalink.
func (s *Server) handleProductPost(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	page := "/product/" + r.PathValue("slug") + "/"
	if grouped := groupedQuantities(r.PostForm); grouped != nil {
		s.noScriptAddGrouped(w, r, grouped, page)
		return
	}
	id := strings.TrimSpace(r.PostFormValue("add-to-cart"))
	if v := strings.TrimSpace(r.PostFormValue("variation_id")); v != "" && v != "0" {
		id = v
	}
	var chosen []cart.Attr
	for k, vs := range r.PostForm {
		if strings.HasPrefix(k, "attribute_") && len(vs) > 0 && strings.TrimSpace(vs[0]) != "" {
			chosen = append(chosen, cart.Attr{Attribute: k, Value: vs[0]})
		}
	}
	s.noScriptAdd(w, r, id, r.PostFormValue("quantity"), chosen, page)
}

func (s *Server) noScriptAdd(w http.ResponseWriter, r *http.Request, rawID, rawQty string, chosen []cart.Attr, fallback string) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := s.now()
	sess := s.CartSessionOf(r, now)
	id, _, err := ajax.AddToSession(ctx, s.carts, sess, rawID, rawQty, chosen)
	if errors.Is(err, cart.ErrTooManyLines) {
		// A refusal about the cart, not the product: the cart page (per
		// visitor) can say so; the cached product page could not.
		s.setCartNotices(w, sess, []pages.Notice{{Kind: "error", Text: cart.ErrTooManyLines.Message}})
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	var ce *cart.Error
	if errors.As(err, &ce) {
		to := ajax.RefusedPath(ctx, s.carts, id)
		if to == "" {
			to = fallback
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	if err != nil {
		s.pageFailed(w, "add to cart", err)
		return
	}
	s.noScriptWrote(w, r, sess, now)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// pageFailed logs an error of a no-script cart page or form and answers
// 500.
func (s *Server) pageFailed(w http.ResponseWriter, op string, err error) {
	s.log.Error(op, "err", err)
	http.Error(w, "Internal Server Error", http.StatusInternalServerError)
}

// noScriptWrote finishes a no-script cart write: the session cookie (a
// first write creates the session) and the cart cookies of the new cart.
func (s *Server) noScriptWrote(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	if !sess.ViaToken {
		s.SetSessionCookie(w, sess.ID, now.Add(s.cfg.CartLifetime))
	}
	if c, err := s.storeAPI.CartResponse(r.Context(), sess.ID, sess.Currency); err == nil {
		s.setCartCookies(w, r, len(c.Items) > 0, c.Hash())
	}
}

// noScriptOutcome sorts the result of one cart write of a no-script form:
// done on success; a cart refusal adds its message to notices; any other
// error answers 500 and is failed (the handler stops).
func (s *Server) noScriptOutcome(w http.ResponseWriter, op string, err error, notices *[]pages.Notice) (done, failed bool) {
	var ce *cart.Error
	switch {
	case errors.As(err, &ce):
		*notices = append(*notices, pages.Notice{Kind: "error", Text: ce.Message})
		return false, false
	case err != nil:
		s.pageFailed(w, op, err)
		return false, true
	}
	return true, false
}

// cartAction is the action of the cart's _wpnonce (WooCommerce's
// "woocommerce-cart"): the remove links without scripts carry it.
const cartAction = "woocommerce-cart"

// msgLinkExpired is WordPress's answer to a link whose nonce does not check.
const msgLinkExpired = "The link you followed has expired. Please try again."

// cartNonce is the session's _wpnonce for the cart's remove links.
func (s *Server) cartNonce(scope string, tick int64) string {
	return s.ActionNonce(cartAction, scope, tick)
}

// removeAllowed reports whether a GET /cart/?remove_item= may change the
// cart: the browser does not call it cross-site (Sec-Fetch-Site) and its
// _wpnonce is the session's.
func (s *Server) removeAllowed(r *http.Request, sess httpx.Session, now time.Time) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	return s.VerifyActionNonce(r.URL.Query().Get("_wpnonce"), cartAction, sess.Scope(), httpx.NonceTickAt(now))
}

// handleCart answers the cart page, GET /cart/: rendered per request with
// the visitor's cart (never through the page cache: it is per visitor), with
// Cache-Control: no-store, private. GET /cart/?remove_item=KEY (the mini
// cart's link without scripts, with the session's _wpnonce) removes that
// line and redirects to /cart/; without a valid nonce, or cross-site, it
// changes nothing and shows "The link you followed has expired.".
func (s *Server) handleCart(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := s.now()
	sess := s.CartSessionOf(r, now)
	if r.URL.Query().Has("remove_coupon") {
		s.noScriptRemoveCoupon(w, r, sess, now)
		return
	}
	if key := strings.TrimSpace(r.URL.Query().Get("remove_item")); r.URL.Query().Has("remove_item") {
		// A removal needs the session's _wpnonce (the links carry it) and a
		// request that is not cross-site: line keys are the same in every
		// cart, so a link on another site must not empty this one.
		if key != "" && (sess.ViaCookie || sess.ViaToken) && !s.removeAllowed(r, sess, now) {
			s.setCartNotices(w, sess, []pages.Notice{{Kind: "error", Text: msgLinkExpired}})
			http.Redirect(w, r, "/cart/", http.StatusSeeOther)
			return
		}
		if key != "" && (sess.ViaCookie || sess.ViaToken) {
			name := ""
			if c, err := s.storeAPI.CartResponse(ctx, sess.ID, sess.Currency); err == nil {
				for _, it := range c.Items {
					if it.Key == key {
						name = it.Name
					}
				}
			}
			err := s.carts.Remove(ctx, sess.ID, key)
			if err != nil && !errors.Is(err, cart.ErrInvalidKey) {
				s.pageFailed(w, "remove_item", err)
				return
			}
			if c, err := s.storeAPI.CartResponse(ctx, sess.ID, sess.Currency); err == nil {
				s.setCartCookies(w, r, len(c.Items) > 0, c.Hash())
			}
			if err == nil && name != "" {
				s.setCartNotices(w, sess, []pages.Notice{{Kind: "message", Text: "&ldquo;" + name + "&rdquo; removed."}})
			}
		}
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	pc, err := s.checkout.Cart(ctx, sess.ID, sess.Currency)
	if err != nil {
		s.pageFailed(w, "cart page", err)
		return
	}
	c := s.storeAPI.CartOf(pc)
	// The cross-sells' cards are priced as the cart is: in its currency,
	// through its table (fixed prices included).
	cross := pages.CrossSells{IDs: pc.CrossSellIDs(), Currency: pc.Pricing.Config.Currency}
	if pc.Pricing.Table != nil {
		cross.Convert = pc.Pricing.Table
	}
	notices := s.takeCartNotices(w, r, sess)
	res, err := s.loader.Cart(s.PageContext(r), r.URL.RequestURI(), c, s.Nonce(sess.Scope(), httpx.NonceTickAt(now)),
		s.cartNonce(sess.Scope(), httpx.NonceTickAt(now)), notices, cross)
	if err != nil {
		s.pageFailed(w, "cart page", err)
		return
	}
	p, err := s.RenderPage(ctx, r.URL.RequestURI(), res)
	if err != nil {
		s.pageFailed(w, "cart page", err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	httpx.WriteBody(w, r, p)
}

// --- the cart page's form and grouped products without scripts ---

var (
	cartQtyField    = regexp.MustCompile(`^cart\[([^\]]+)\]\[qty\]$`)
	groupedQtyField = regexp.MustCompile(`^quantity\[(\d+)\]$`)
)

// handleCartPost answers the cart page's form without scripts (POST
// /cart/ with update_cart and cart[<key>][qty]=N per line), as WooCommerce's
// form handler does: each line of the visitor's cart whose field holds a
// new quantity is set to it, 0 removes it; fields naming no line of this
// cart are ignored. Quantities are all parsed first: one that is not a
// whole number changes nothing. A line the cart rules refuse (stock, limits,
// sold individually) keeps its quantity and its message is shown; the other
// lines are updated. The answer is 303 to /cart/, which shows the notices
// ("Cart updated." or the refusals). Never cached.
func (s *Server) handleCartPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	_ = r.ParseMultipartForm(1 << 20)
	ctx := r.Context()
	now := s.now()
	sess := s.CartSessionOf(r, now)
	if r.PostForm.Has("apply_coupon") && (sess.ViaCookie || sess.ViaToken) {
		s.noScriptApplyCoupon(w, r, sess, now)
		return
	}
	if !r.PostForm.Has("update_cart") || !(sess.ViaCookie || sess.ViaToken) {
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	c, err := s.storeAPI.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		s.pageFailed(w, "update cart", err)
		return
	}
	posted := map[string]string{}
	for k, vs := range r.PostForm {
		if m := cartQtyField.FindStringSubmatch(k); m != nil && len(vs) > 0 {
			posted[m[1]] = strings.TrimSpace(vs[0])
		}
	}
	type change struct {
		key string
		qty int64 // 0: remove
	}
	var changes []change
	for _, it := range c.Items {
		raw, ok := posted[it.Key]
		if !ok || raw == "" {
			continue
		}
		qty := int64(0)
		if n, err := strconv.ParseInt(raw, 10, 64); err != nil || n != 0 {
			if qty, err = cart.ParseQuantity(raw); err != nil {
				msg := "Quantity must be a whole number."
				if ce := (*cart.Error)(nil); errors.As(err, &ce) {
					msg = ce.Message
				}
				s.setCartNotices(w, sess, []pages.Notice{{Kind: "error", Text: msg}})
				http.Redirect(w, r, "/cart/", http.StatusSeeOther)
				return
			}
		}
		if qty != it.Quantity {
			changes = append(changes, change{it.Key, qty})
		}
	}
	var notices []pages.Notice
	updated := false
	for _, ch := range changes {
		if ch.qty == 0 {
			err = s.carts.Remove(ctx, sess.ID, ch.key)
		} else {
			_, err = s.carts.SetQuantity(ctx, sess.ID, ch.key, ch.qty)
		}
		done, failed := s.noScriptOutcome(w, "update cart", err, &notices)
		if failed {
			return
		}
		if done {
			updated = true
		}
	}
	if updated {
		notices = append(notices, pages.Notice{Kind: "message", Text: "Cart updated."})
		s.noScriptWrote(w, r, sess, now)
	}
	s.setCartNotices(w, sess, notices)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// noScriptApplyCoupon answers the coupon form without scripts (POST /cart/
// with apply_coupon and coupon_code): the code is applied as the Store API
// applies it, and /cart/ shows "Coupon code applied successfully." or the
// refusal.
func (s *Server) noScriptApplyCoupon(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	err := s.checkout.ApplyCoupon(r.Context(), sess.ID, r.PostFormValue("coupon_code"), sess.Currency)
	var notices []pages.Notice
	done, failed := s.noScriptOutcome(w, "apply coupon", err, &notices)
	if failed {
		return
	}
	if done {
		notices = append(notices, pages.Notice{Kind: "message", Text: msgCouponApplied})
		s.noScriptWrote(w, r, sess, now)
	}
	s.setCartNotices(w, sess, notices)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// noScriptRemoveCoupon answers a coupon's remove link without scripts (GET
// /cart/?remove_coupon=CODE&_wpnonce=…): like a line's, it needs the
// session's nonce, so a link on another site cannot take a coupon off.
func (s *Server) noScriptRemoveCoupon(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	if !(sess.ViaCookie || sess.ViaToken) {
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	if !s.removeAllowed(r, sess, now) {
		s.setCartNotices(w, sess, []pages.Notice{{Kind: "error", Text: msgLinkExpired}})
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	err := s.checkout.RemoveCoupon(r.Context(), sess.ID, r.URL.Query().Get("remove_coupon"))
	var notices []pages.Notice
	done, failed := s.noScriptOutcome(w, "remove coupon", err, &notices)
	if failed {
		return
	}
	if done {
		notices = append(notices, pages.Notice{Kind: "message", Text: msgCouponRemoved})
		s.noScriptWrote(w, r, sess, now)
	}
	s.setCartNotices(w, sess, notices)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// WooCommerce's coupon notices.
const (
	msgCouponApplied = "Coupon code applied successfully."
	msgCouponRemoved = "Coupon has been removed."
)

// groupedQuantities reads a grouped product form's quantity[<id>]=N
// fields (nil when the form has none), in ascending id order.
func groupedQuantities(form url.Values) []groupedField {
	var out []groupedField
	for k, vs := range form {
		if m := groupedQtyField.FindStringSubmatch(k); m != nil && len(vs) > 0 {
			id, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				continue
			}
			out = append(out, groupedField{id, strings.TrimSpace(vs[0])})
		}
	}
	slices.SortFunc(out, func(a, b groupedField) int { return cmp.Compare(a.id, b.id) })
	return out
}

type groupedField struct {
	id  int64
	qty string
}

// noScriptAddGrouped adds a grouped product form's children (quantity[<id>]
// above 0; empty or 0 is skipped), as WooCommerce's grouped handler does.
// Quantities are all parsed first: one that is not a whole number, or none
// above 0, adds nothing and goes back to the product page. Each child is
// then added; one the cart refuses is skipped and its message is shown on
// the cart page. At least one added: 303 to /cart/; none: back to the page.
func (s *Server) noScriptAddGrouped(w http.ResponseWriter, r *http.Request, fields []groupedField, page string) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := s.now()
	sess := s.CartSessionOf(r, now)
	var adds []groupedField
	for _, f := range fields {
		if f.qty == "" {
			continue
		}
		if n, err := strconv.ParseInt(f.qty, 10, 64); err == nil && n == 0 {
			continue
		}
		if _, err := cart.ParseQuantity(f.qty); err != nil {
			http.Redirect(w, r, page, http.StatusSeeOther)
			return
		}
		adds = append(adds, f)
	}
	if len(adds) == 0 {
		// WooCommerce's "Please choose the quantity of items you wish to
		// add to your cart…" belongs on the product page, which is cached
		// for everyone: the shopper is simply sent back to it.
		http.Redirect(w, r, page, http.StatusSeeOther)
		return
	}
	var notices []pages.Notice
	added := 0
	for _, a := range adds {
		_, _, err := ajax.AddToSession(ctx, s.carts, sess, strconv.FormatInt(a.id, 10), a.qty, nil)
		done, failed := s.noScriptOutcome(w, "add to cart", err, &notices)
		if failed {
			return
		}
		if done {
			added++
		}
	}
	if added == 0 {
		http.Redirect(w, r, page, http.StatusSeeOther)
		return
	}
	s.noScriptWrote(w, r, sess, now)
	s.setCartNotices(w, sess, notices)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// Notices for the cart page after a redirect (WooCommerce keeps them in
// its session): a short-lived HttpOnly cookie on /cart/ holding the
// notices as base64url JSON and an HMAC binding them to the session, read
// and cleared by the next GET /cart/. Messages keep WooCommerce's HTML
// entities; the page decodes them and shows text, never markup.
const (
	noticeCookie    = "vitrine_cart_notices"
	noticeCookieAge = 5 * time.Minute
	maxNotices      = 10
)

func (s *Server) noticeMAC(sessID, payload string) string {
	return hex.EncodeToString(s.MAC("cart-notices", sessID+"|"+payload))
}

// setCartNotices sets the notice cookie (nothing when there are none).
func (s *Server) setCartNotices(w http.ResponseWriter, sess httpx.Session, notices []pages.Notice) {
	if len(notices) == 0 {
		return
	}
	if len(notices) > maxNotices {
		notices = notices[:maxNotices]
	}
	b, _ := json.Marshal(notices)
	payload := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: noticeCookie, Value: payload + "." + s.noticeMAC(sess.ID, payload), Path: "/cart/",
		MaxAge: int(noticeCookieAge / time.Second), HttpOnly: true,
		Secure: strings.HasPrefix(s.cfg.BaseURL, "https://"), SameSite: http.SameSiteLaxMode,
	})
}

// takeCartNotices reads and clears the notice cookie; a cookie that does
// not verify for this session is cleared and shows nothing.
func (s *Server) takeCartNotices(w http.ResponseWriter, r *http.Request, sess httpx.Session) []pages.Notice {
	ck, err := r.Cookie(noticeCookie)
	if err != nil || ck.Value == "" {
		return nil
	}
	http.SetCookie(w, &http.Cookie{Name: noticeCookie, Value: "", Path: "/cart/", MaxAge: -1, HttpOnly: true,
		Secure: strings.HasPrefix(s.cfg.BaseURL, "https://"), SameSite: http.SameSiteLaxMode})
	payload, mac, ok := strings.Cut(ck.Value, ".")
	if !ok || !(sess.ViaCookie || sess.ViaToken) || !hmac.Equal([]byte(mac), []byte(s.noticeMAC(sess.ID, payload))) {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil
	}
	var out []pages.Notice
	if json.Unmarshal(b, &out) != nil || len(out) > maxNotices {
		return nil
	}
	return out
}
