package storefront

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
func (f *Storefront) noScriptAddGet(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.noScriptAdd(w, r, q.Get("add-to-cart"), q.Get("quantity"), nil, "/shop/")
}

// ProductPost answers the product form's POST to its permalink.
func (f *Storefront) ProductPost(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20)
	page := "/product/" + r.PathValue("slug") + "/"
	if grouped := groupedQuantities(r.PostForm); grouped != nil {
		f.noScriptAddGrouped(w, r, grouped, page)
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
	f.noScriptAdd(w, r, id, r.PostFormValue("quantity"), chosen, page)
}

func (f *Storefront) noScriptAdd(w http.ResponseWriter, r *http.Request, rawID, rawQty string, chosen []cart.Attr, fallback string) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
	id, _, err := ajax.AddToSession(ctx, f.d.Carts, sess, rawID, rawQty, chosen)
	if errors.Is(err, cart.ErrTooManyLines) {
		// A refusal about the cart, not the product: the cart page (per
		// visitor) can say so; the cached product page could not.
		f.toCart(w, r, sess, []pages.Notice{{Kind: "error", Text: cart.ErrTooManyLines.Message}})
		return
	}
	var ce *cart.Error
	if errors.As(err, &ce) {
		to := ajax.RefusedPath(ctx, f.d.Carts, id)
		if to == "" {
			to = fallback
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	if err != nil {
		f.pageFailed(w, "add to cart", err)
		return
	}
	f.noScriptWrote(w, r, sess, now)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// noScriptWrote finishes a no-script cart write: the session cookie (a
// first write creates the session) and the cart cookies of the new cart.
func (f *Storefront) noScriptWrote(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	if !sess.ViaToken {
		f.d.Sessions.SetSessionCookie(w, sess.ID, now.Add(f.d.CartLifetime))
	}
	if c, err := f.d.Store.CartResponse(r.Context(), sess.ID, sess.Currency); err == nil {
		f.d.SetCartCookies(w, r, len(c.Items) > 0, c.Hash())
	}
}

// noScriptOutcome sorts the result of one cart write of a no-script form:
// done on success; a cart refusal adds its message to notices; any other
// error answers 500 and is failed (the handler stops).
func (f *Storefront) noScriptOutcome(w http.ResponseWriter, op string, err error, notices *[]pages.Notice) (done, failed bool) {
	var ce *cart.Error
	switch {
	case errors.As(err, &ce):
		*notices = append(*notices, pages.Notice{Kind: "error", Text: ce.Message})
		return false, false
	case err != nil:
		f.pageFailed(w, op, err)
		return false, true
	}
	return true, false
}

// cartAction is the action of the cart's _wpnonce (WooCommerce's
// "woocommerce-cart"): the remove links without scripts carry it.
const cartAction = "woocommerce-cart"

// msgLinkExpired is WordPress's answer to a link whose nonce does not check.
const msgLinkExpired = "The link you followed has expired. Please try again."

// CartNonce is the session's _wpnonce for the cart's remove links (the
// mini cart's too, internal/ajax).
func (f *Storefront) CartNonce(scope string, tick int64) string {
	return f.d.Sessions.ActionNonce(cartAction, scope, tick)
}

// removeAllowed reports whether a GET /cart/?remove_item= may change the
// cart: the browser does not call it cross-site (Sec-Fetch-Site) and its
// _wpnonce is the session's.
func (f *Storefront) removeAllowed(r *http.Request, sess httpx.Session, now time.Time) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	return f.d.Sessions.VerifyActionNonce(r.URL.Query().Get("_wpnonce"), cartAction, sess.Scope(), httpx.NonceTickAt(now))
}

// Cart answers the cart page, GET /cart/: rendered per request with
// the visitor's cart (never through the page cache: it is per visitor), with
// Cache-Control: no-store, private. GET /cart/?remove_item=KEY (the mini
// cart's link without scripts, with the session's _wpnonce) removes that
// line and redirects to /cart/; without a valid nonce, or cross-site, it
// changes nothing and shows "The link you followed has expired.".
func (f *Storefront) Cart(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
	if r.URL.Query().Has("remove_coupon") {
		f.noScriptRemoveCoupon(w, r, sess, now)
		return
	}
	if key := strings.TrimSpace(r.URL.Query().Get("remove_item")); r.URL.Query().Has("remove_item") {
		// A removal needs the session's _wpnonce (the links carry it) and a
		// request that is not cross-site: line keys are the same in every
		// cart, so a link on another site must not empty this one.
		if key != "" && (sess.ViaCookie || sess.ViaToken) && !f.removeAllowed(r, sess, now) {
			f.toCart(w, r, sess, []pages.Notice{{Kind: "error", Text: msgLinkExpired}})
			return
		}
		if key != "" && (sess.ViaCookie || sess.ViaToken) {
			name := ""
			if c, err := f.d.Store.CartResponse(ctx, sess.ID, sess.Currency); err == nil {
				for _, it := range c.Items {
					if it.Key == key {
						name = it.Name
					}
				}
			}
			err := f.d.Carts.Remove(ctx, sess.ID, key)
			if err != nil && !errors.Is(err, cart.ErrInvalidKey) {
				f.pageFailed(w, "remove_item", err)
				return
			}
			if c, err := f.d.Store.CartResponse(ctx, sess.ID, sess.Currency); err == nil {
				f.d.SetCartCookies(w, r, len(c.Items) > 0, c.Hash())
			}
			if err == nil && name != "" {
				f.setCartNotices(w, sess, []pages.Notice{{Kind: "message", Text: "&ldquo;" + name + "&rdquo; removed."}})
			}
		}
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	pc, err := f.d.Checkout.Cart(ctx, sess.ID, sess.Currency)
	if err != nil {
		f.pageFailed(w, "cart page", err)
		return
	}
	c := f.d.Store.CartOf(pc)
	// The cross-sells' cards are priced as the cart is: in its currency,
	// through its table (fixed prices included).
	cross := pages.CrossSells{IDs: pc.CrossSellIDs(), Currency: pc.Pricing.Config.Currency}
	if pc.Pricing.Table != nil {
		cross.Convert = pc.Pricing.Table
	}
	notices := f.takeCartNotices(w, r, sess)
	res, err := f.d.Loader.Cart(f.PageContext(r), r.URL.RequestURI(), c, f.d.Sessions.Nonce(sess.Scope(), httpx.NonceTickAt(now)),
		f.CartNonce(sess.Scope(), httpx.NonceTickAt(now)), notices, cross)
	if err != nil {
		f.pageFailed(w, "cart page", err)
		return
	}
	p, err := f.RenderPage(ctx, r.URL.RequestURI(), res)
	if err != nil {
		f.pageFailed(w, "cart page", err)
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

// CartPost answers the cart page's form without scripts (POST
// /cart/ with update_cart and cart[<key>][qty]=N per line), as WooCommerce's
// form handler does: each line of the visitor's cart whose field holds a
// new quantity is set to it, 0 removes it; fields naming no line of this
// cart are ignored. Quantities are all parsed first: one that is not a
// whole number changes nothing. A line the cart rules refuse (stock, limits,
// sold individually) keeps its quantity and its message is shown; the other
// lines are updated. The answer is 303 to /cart/, which shows the notices
// ("Cart updated." or the refusals). Never cached.
func (f *Storefront) CartPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	_ = r.ParseMultipartForm(1 << 20)
	ctx := r.Context()
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
	if r.PostForm.Has("apply_coupon") && (sess.ViaCookie || sess.ViaToken) {
		f.noScriptApplyCoupon(w, r, sess, now)
		return
	}
	if !r.PostForm.Has("update_cart") || !(sess.ViaCookie || sess.ViaToken) {
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	c, err := f.d.Store.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		f.pageFailed(w, "update cart", err)
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
				f.toCart(w, r, sess, []pages.Notice{{Kind: "error", Text: msg}})
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
			err = f.d.Carts.Remove(ctx, sess.ID, ch.key)
		} else {
			_, err = f.d.Carts.SetQuantity(ctx, sess.ID, ch.key, ch.qty)
		}
		done, failed := f.noScriptOutcome(w, "update cart", err, &notices)
		if failed {
			return
		}
		if done {
			updated = true
		}
	}
	if updated {
		notices = append(notices, pages.Notice{Kind: "message", Text: "Cart updated."})
		f.noScriptWrote(w, r, sess, now)
	}
	f.toCart(w, r, sess, notices)
}

// noScriptApplyCoupon answers the coupon form without scripts (POST /cart/
// with apply_coupon and coupon_code): the code is applied as the Store API
// applies it, and /cart/ shows "Coupon code applied successfully." or the
// refusal.
func (f *Storefront) noScriptApplyCoupon(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	err := f.d.Checkout.ApplyCoupon(r.Context(), sess.ID, r.PostFormValue("coupon_code"), sess.Currency)
	f.couponChanged(w, r, sess, now, "apply coupon", err, msgCouponApplied)
}

// noScriptRemoveCoupon answers a coupon's remove link without scripts (GET
// /cart/?remove_coupon=CODE&_wpnonce=…): like a line's, it needs the
// session's nonce, so a link on another site cannot take a coupon off.
func (f *Storefront) noScriptRemoveCoupon(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) {
	if !(sess.ViaCookie || sess.ViaToken) {
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	if !f.removeAllowed(r, sess, now) {
		f.toCart(w, r, sess, []pages.Notice{{Kind: "error", Text: msgLinkExpired}})
		return
	}
	err := f.d.Checkout.RemoveCoupon(r.Context(), sess.ID, r.URL.Query().Get("remove_coupon"))
	f.couponChanged(w, r, sess, now, "remove coupon", err, msgCouponRemoved)
}

// couponChanged ends a no-script coupon change: a refusal is shown on the
// cart page, other errors answer 500 (noScriptOutcome); done says msg.
func (f *Storefront) couponChanged(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time, op string, err error, msg string) {
	var notices []pages.Notice
	done, failed := f.noScriptOutcome(w, op, err, &notices)
	if failed {
		return
	}
	if done {
		notices = append(notices, pages.Notice{Kind: "message", Text: msg})
		f.noScriptWrote(w, r, sess, now)
	}
	f.toCart(w, r, sess, notices)
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
func (f *Storefront) noScriptAddGrouped(w http.ResponseWriter, r *http.Request, fields []groupedField, page string) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := f.d.Now()
	sess := f.d.Sessions.CartSessionOf(r, now)
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
		_, _, err := ajax.AddToSession(ctx, f.d.Carts, sess, strconv.FormatInt(a.id, 10), a.qty, nil)
		done, failed := f.noScriptOutcome(w, "add to cart", err, &notices)
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
	f.noScriptWrote(w, r, sess, now)
	f.toCart(w, r, sess, notices)
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

func (f *Storefront) noticeMAC(sessID, payload string) string {
	return hex.EncodeToString(f.d.Sessions.MAC("cart-notices", sessID+"|"+payload))
}

// toCart ends a no-script cart form: the notices for the cart page (none:
// no cookie) and 303 to /cart/.
func (f *Storefront) toCart(w http.ResponseWriter, r *http.Request, sess httpx.Session, notices []pages.Notice) {
	f.setCartNotices(w, sess, notices)
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// setCartNotices sets the notice cookie (nothing when there are none).
func (f *Storefront) setCartNotices(w http.ResponseWriter, sess httpx.Session, notices []pages.Notice) {
	if len(notices) == 0 {
		return
	}
	if len(notices) > maxNotices {
		notices = notices[:maxNotices]
	}
	b, _ := json.Marshal(notices)
	payload := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: noticeCookie, Value: payload + "." + f.noticeMAC(sess.ID, payload), Path: "/cart/",
		MaxAge: int(noticeCookieAge / time.Second), HttpOnly: true,
		Secure: strings.HasPrefix(f.d.BaseURL, "https://"), SameSite: http.SameSiteLaxMode,
	})
}

// takeCartNotices reads and clears the notice cookie; a cookie that does
// not verify for this session is cleared and shows nothing.
func (f *Storefront) takeCartNotices(w http.ResponseWriter, r *http.Request, sess httpx.Session) []pages.Notice {
	ck, err := r.Cookie(noticeCookie)
	if err != nil || ck.Value == "" {
		return nil
	}
	http.SetCookie(w, &http.Cookie{Name: noticeCookie, Value: "", Path: "/cart/", MaxAge: -1, HttpOnly: true,
		Secure: strings.HasPrefix(f.d.BaseURL, "https://"), SameSite: http.SameSiteLaxMode})
	payload, mac, ok := strings.Cut(ck.Value, ".")
	if !ok || !(sess.ViaCookie || sess.ViaToken) || !hmac.Equal([]byte(mac), []byte(f.noticeMAC(sess.ID, payload))) {
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
