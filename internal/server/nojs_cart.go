package server

import (
	"errors"
	"net/http"
	"strings"

	"vitrine/internal/cart"
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
	sess := s.cartSessionOf(r, now)
	id, err := s.addToSession(ctx, sess, rawID, rawQty, chosen, now)
	var ce *cart.Error
	if errors.As(err, &ce) {
		to := s.refusedPath(ctx, id)
		if to == "" {
			to = fallback
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	if err != nil {
		s.log.Error("add to cart", "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	if !sess.viaToken {
		s.setSessionCookie(w, sess.id, now.Add(s.cfg.CartLifetime))
	}
	if c, err := s.cartResponse(ctx, sess.id); err == nil {
		s.setCartCookies(w, r, len(c.Items) > 0, cartHash(c))
	}
	http.Redirect(w, r, "/cart/", http.StatusSeeOther)
}

// handleCart answers the cart page, GET /cart/: rendered per request with
// the visitor's cart (never through the page cache: it is per visitor), with
// Cache-Control: no-store, private. GET /cart/?remove_item=KEY (the mini
// cart's link without scripts) removes that line and redirects to /cart/.
func (s *Server) handleCart(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	ctx := r.Context()
	now := s.now()
	sess := s.cartSessionOf(r, now)
	if key := strings.TrimSpace(r.URL.Query().Get("remove_item")); r.URL.Query().Has("remove_item") {
		if key != "" && (sess.viaCookie || sess.viaToken) {
			err := s.db.RemoveLine(ctx, sess.id, key, now, now.Add(s.cfg.CartLifetime))
			if err != nil && !errors.Is(err, cart.ErrNoLine) {
				s.log.Error("remove_item", "err", err)
				http.Error(w, "Internal Server Error", http.StatusInternalServerError)
				return
			}
			if c, err := s.cartResponse(ctx, sess.id); err == nil {
				s.setCartCookies(w, r, len(c.Items) > 0, cartHash(c))
			}
		}
		http.Redirect(w, r, "/cart/", http.StatusSeeOther)
		return
	}
	c, err := s.cartResponse(ctx, sess.id)
	if err != nil {
		s.log.Error("cart page", "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	res, err := s.loader.Cart(ctx, r.URL.RequestURI(), c, s.nonce(sess.scope(), nonceTickAt(now)))
	if err != nil {
		s.log.Error("cart page", "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	p, err := s.renderPage(ctx, r.URL.RequestURI(), res)
	if err != nil {
		s.log.Error("cart page", "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	writeBody(w, r, p)
}
