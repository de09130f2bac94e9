package ajax

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
)

// WooCommerce's front-end ajax: /?wc-ajax=<endpoint> on the site root
// (protocol notes, "wc-ajax" conventions). GET and POST reach the same
// handler; fields are read from the query string or a POST form.
//
// An endpoint not listed answers 400 with the body "0", as admin-ajax does
// for an unknown action (WooCommerce itself would answer an empty 200, which
// a client cannot tell from a real answer).

// wcAjaxEndpoints maps wc-ajax endpoints to their handlers.
func (a *API) wcAjaxEndpoints() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"get_variation":           a.wcGetVariation,
		"add_to_cart":             a.wcAddToCart,
		"remove_from_cart":        a.wcRemoveFromCart,
		"get_refreshed_fragments": a.wcRefreshedFragments,
	}
}

// WCAjax dispatches a request to / carrying ?wc-ajax=.
func (a *API) WCAjax(w http.ResponseWriter, r *http.Request) {
	if h := a.d.Wallet.Ajax(r.URL.Query().Get("wc-ajax")); h != nil { // the wallet's ppc-* endpoints (internal/walletapi)
		h(w, r)
		return
	}
	name := r.URL.Query().Get("wc-ajax")
	h, ok := a.wcAjaxEndpoints()[name]
	if !ok {
		httpx.WCAjaxHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("0"))
		return
	}
	if wcAjaxCartWrites[name] && r.Method != http.MethodPost {
		// A GET (a link or an image on another site, sent with the
		// shopper's cookies) never changes a cart; cross-site POSTs are
		// refused by the cross-origin check of every write.
		httpx.WCAjaxHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		_, _ = w.Write([]byte("0"))
		return
	}
	h(w, r)
}

// wcAjaxCartWrites are the wc-ajax endpoints that change the cart: POST only.
var wcAjaxCartWrites = map[string]bool{"add_to_cart": true, "remove_from_cart": true}

// wcGetVariation answers get_variation (protocol notes section 4):
// product_id plus attribute_<key>=<value> for every variation attribute of
// the product. The answer is the first published, active variation in menu
// order whose attributes equal the posted values or are "any", as a
// variation object with exact stock; the JSON literal false when none
// matches or an attribute has no value; an empty body when product_id is
// missing, unknown, not a published variable product.
func (a *API) wcGetVariation(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseMultipartForm(1 << 20) // also parses urlencoded bodies; a bad body leaves the fields empty
	id, err := strconv.ParseInt(strings.TrimSpace(r.FormValue("product_id")), 10, 64)
	if err != nil || id <= 0 {
		httpx.WCAjaxWrite(w, r, nil)
		return
	}
	ctx := r.Context()
	err = a.d.Products.Synced(ctx)
	var p *catalog.Product
	if err == nil {
		p, err = a.d.Products.Product(ctx, id) // products and variations from memory (catalog.Cache)
	}
	if errors.Is(err, catalog.ErrNotFound) || err == nil && (p.Type != catalog.TypeVariable || !p.Published()) {
		httpx.WCAjaxWrite(w, r, nil)
		return
	}
	if err != nil {
		a.d.Log.Error("get_variation", "product", id, "err", err)
		httpx.WCAjaxHeaders(w)
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	chosen := map[string]string{}
	for _, at := range p.Attributes {
		if !at.Variation {
			continue
		}
		v := strings.TrimSpace(r.FormValue("attribute_" + at.Key()))
		if v == "" {
			httpx.WCAjaxWrite(w, r, []byte("false"))
			return
		}
		chosen[at.Key()] = v
	}
	vars, err := a.d.Products.Variations(ctx, p.ID)
	if err != nil {
		a.d.Log.Error("get_variation", "product", id, "err", err)
		httpx.WCAjaxHeaders(w)
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	live := vars[:0:0]
	for _, v := range vars {
		if v.Published() && v.Active {
			live = append(live, v)
		}
	}
	m := catalog.MatchVariation(live, chosen)
	if m == nil {
		httpx.WCAjaxWrite(w, r, []byte("false"))
		return
	}
	b, err := a.d.Store.Builder(ctx)
	if err == nil {
		var out []byte
		if out, err = json.Marshal(b.Variation(p, m)); err == nil {
			httpx.WCAjaxWrite(w, r, out)
			return
		}
	}
	a.d.Log.Error("get_variation", "product", id, "err", err)
	httpx.WCAjaxHeaders(w)
	w.WriteHeader(http.StatusInternalServerError)
}
