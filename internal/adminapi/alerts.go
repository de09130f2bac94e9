package adminapi

import (
	"net/http"
	"strconv"

	"vitrine/internal/alerts"
)

// Back-in-stock alerts (internal/alerts): the admin's figures, per product
// (the product edit screen) and the most-waited items (the Alerts screen).

const alertsPath = "/wp-json/vitrine/v1/admin/stock-alerts"

// GET /wp-json/vitrine/v1/admin/stock-alerts?limit=N: the items with the
// most waiting subscribers, each with its counts by state.
func (a *API) alertsTotals(w http.ResponseWriter, r *http.Request, _ Staff) error {
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 200 {
			return InvalidParam("limit", "limit must be between 1 and 200.")
		}
		limit = n
	}
	cs, err := a.d.Alerts.Totals(r.Context(), limit)
	if err != nil {
		return err
	}
	if cs == nil {
		cs = []alerts.Counts{}
	}
	WriteJSON(w, http.StatusOK, cs)
	return nil
}

// GET /wp-json/vitrine/v1/admin/stock-alerts/{id}: a product's counts, one
// row for it and one per variation.
func (a *API) alertsProduct(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_product_invalid_id", Message: "Invalid ID."}
	}
	cs, err := a.d.Alerts.Counts(r.Context(), id)
	if err != nil {
		return err
	}
	if len(cs) == 0 {
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_product_invalid_id", Message: "Invalid ID."}
	}
	WriteJSON(w, http.StatusOK, cs)
	return nil
}
