package adminapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
)

// The wishlists' figures for staff (internal/wishlist): how many lists
// hold each product of the product list's page, and the most wished
// products on the dashboard. No list's owner is ever shown.

// wishlistCountsMax bounds the ids one counts call names (a page of the
// product list holds at most 100).
const wishlistCountsMax = 100

// GET /wp-json/vitrine/v1/admin/wishlists/counts?include=1,2,3: {"1": 3, …},
// products no list holds answer 0.
func (a *API) wishlistCounts(w http.ResponseWriter, r *http.Request, _ Staff) error {
	raw := strings.TrimSpace(r.URL.Query().Get("include"))
	var ids []int64
	if raw != "" {
		for _, s := range strings.Split(raw, ",") {
			id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || id <= 0 {
				return InvalidParam("include", "include must be a list of product ids.")
			}
			ids = append(ids, id)
		}
	}
	if len(ids) > wishlistCountsMax {
		return InvalidParam("include", "include names at most 100 products.")
	}
	counts, err := a.d.Wishlists.Counts(r.Context(), ids)
	if err != nil {
		return err
	}
	out := make(map[string]int64, len(ids))
	for _, id := range ids {
		out[strconv.FormatInt(id, 10)] = counts[id]
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// wishedProduct is one row of the most wished products.
type wishedProduct struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Lists int64  `json:"lists"`
}

// GET /wp-json/vitrine/v1/admin/wishlists/top?per_page=N (1 to 20,
// default 5): the products most lists hold, most first.
func (a *API) wishlistTop(w http.ResponseWriter, r *http.Request, _ Staff) error {
	n := 5
	if raw := r.URL.Query().Get("per_page"); raw != "" {
		v, err := strconv.Atoi(raw)
		if err != nil || v < 1 || v > 20 {
			return InvalidParam("per_page", "per_page must be between 1 (inclusive) and 20 (inclusive)")
		}
		n = v
	}
	top, err := a.d.Wishlists.MostWished(r.Context(), n)
	if err != nil {
		return err
	}
	out := make([]wishedProduct, 0, len(top))
	for _, t := range top {
		row := wishedProduct{ID: t.ProductID, Lists: t.Lists, Name: "#" + strconv.FormatInt(t.ProductID, 10)}
		p, _, err := a.d.Catalog.Get(r.Context(), t.ProductID)
		switch {
		case err == nil:
			row.Name = p.Name
		case !errors.Is(err, catalog.ErrNotFound):
			return err
		}
		out = append(out, row)
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
