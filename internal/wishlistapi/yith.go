package wishlistapi

import (
	"errors"
	"html"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/wishlist"
)

// YITH WooCommerce Wishlist's admin-ajax actions, as its script sends
// them (POST, form fields): add_to_wishlist (the id in add_to_wishlist,
// or product_id), remove_from_wishlist (the id in remove_from_wishlist)
// and load_fragments, each with its nonce in "nonce" (yith_wcwl_l10n's
// nonces). A refused nonce changes nothing and answers as YITH does:
// {"result":false} for add and load_fragments, {"fragments":[]} for
// remove.

// Ajax is the handler of one of YITH's actions, or nil.
func (a *API) Ajax(action string) http.HandlerFunc {
	switch action {
	case "add_to_wishlist":
		return a.yithAdd
	case "remove_from_wishlist":
		return a.yithRemove
	case "load_fragments":
		return a.yithFragments
	}
	return nil
}

// yithAddAnswer is add_to_wishlist's answer.
type yithAddAnswer struct {
	ProdID        any               `json:"prod_id"`
	Result        string            `json:"result"`
	Message       string            `json:"message"`
	Fragments     map[string]string `json:"fragments"`
	UserWishlists []any             `json:"user_wishlists"`
	WishlistURL   string            `json:"wishlist_url"`
}

func (a *API) yithAdd(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if r.Method != http.MethodPost || !a.nonceOK(r, "add_to_wishlist", r.FormValue("nonce")) {
		httpx.WriteJSON(w, http.StatusOK, map[string]bool{"result": false})
		return
	}
	raw := r.FormValue("add_to_wishlist")
	if raw == "" {
		raw = r.FormValue("product_id")
	}
	ans := yithAddAnswer{ProdID: false, UserWishlists: []any{}, WishlistURL: a.link("/wishlist/"), Fragments: map[string]string{}}
	id, err := wishlist.ParseID(raw)
	if err == nil {
		ans.ProdID = id
		o, _ := a.owner(r)
		var changed bool
		var l *wishlist.List
		changed, l, _, err = a.d.Wishlists.Set(r.Context(), o, id, true)
		if err == nil {
			a.wrote(w, o, l)
			ans.Result, ans.Message = "true", "Product added!"
			if !changed {
				ans.Result, ans.Message = "exists", "The product is already in your wishlist!"
			}
			ans.Fragments = a.fragments(r, l)
			httpx.WriteJSON(w, http.StatusOK, ans)
			return
		}
	}
	ans.Result = "error"
	switch {
	case errors.Is(err, wishlist.ErrInvalidProduct):
		ans.Message = "An error occurred while adding the products to the wishlist."
	case errors.Is(err, wishlist.ErrFull):
		ans.Message = msgFull
	default:
		a.d.Log.Error("wishlist ajax add", "err", err)
		ans.Message = "An error occurred while adding the products to the wishlist."
	}
	httpx.WriteJSON(w, http.StatusOK, ans)
}

func (a *API) yithRemove(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if r.Method != http.MethodPost || !a.nonceOK(r, "remove_from_wishlist", r.FormValue("nonce")) {
		httpx.WriteJSON(w, http.StatusOK, map[string][]string{"fragments": {}})
		return
	}
	o, fresh := a.owner(r)
	l := &wishlist.List{}
	if id, err := wishlist.ParseID(r.FormValue("remove_from_wishlist")); err == nil && !fresh {
		_, got, _, err := a.d.Wishlists.Set(r.Context(), o, id, false)
		if err != nil {
			a.d.Log.Error("wishlist ajax remove", "err", err)
		} else {
			l = got
			a.wrote(w, o, l)
		}
	} else if !fresh {
		if got, err := a.d.Wishlists.Get(r.Context(), o); err == nil {
			l = got
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"fragments": a.fragments(r, l)})
}

func (a *API) yithFragments(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if r.Method != http.MethodPost || !a.nonceOK(r, "load_fragments", r.FormValue("nonce")) {
		httpx.WriteJSON(w, http.StatusOK, map[string]bool{"result": false})
		return
	}
	o, fresh := a.owner(r)
	l := &wishlist.List{}
	if !fresh {
		got, err := a.d.Wishlists.Get(r.Context(), o)
		if err != nil {
			httpx.WriteJSON(w, http.StatusOK, map[string]bool{"result": false})
			return
		}
		l = got
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"fragments": a.fragments(r, l)})
}

// fragments are the refreshed parts YITH's script swaps in: the items
// count (yith_wcwl_fragments: the element with class
// yith-wcwl-items-count) and, for each add-to-wishlist-<id> fragment the
// request names (fragments[<key>]), that product's button in its new
// state.
func (a *API) fragments(r *http.Request, l *wishlist.List) map[string]string {
	out := map[string]string{
		"yith_wcwl_fragments": `<span class="yith-wcwl-items-count" data-count="` + strconv.Itoa(len(l.Items)) + `">` + strconv.Itoa(len(l.Items)) + `</span>`,
	}
	on := map[int64]bool{}
	for _, id := range itemIDs(l) {
		on[id] = true
	}
	for key := range r.Form {
		k, ok := strings.CutPrefix(key, "fragments[")
		if !ok {
			continue
		}
		k, _, _ = strings.Cut(k, "]")
		idx := strings.Index(k, "add-to-wishlist-")
		if idx < 0 || len(out) > 50 {
			continue
		}
		id, err := wishlist.ParseID(strings.TrimLeft(k[idx+len("add-to-wishlist-"):], "-"))
		if err != nil {
			continue
		}
		pressed, label := "false", "Add to wishlist"
		if on[id] {
			pressed, label = "true", "Remove from wishlist"
		}
		out[k] = `<div class="yith-wcwl-add-to-wishlist add-to-wishlist-` + strconv.FormatInt(id, 10) + `">` +
			`<button type="button" class="wishlist-heart" data-product-id="` + strconv.FormatInt(id, 10) + `" aria-pressed="` + pressed + `">` +
			html.EscapeString(label) + `</button></div>`
	}
	return out
}
