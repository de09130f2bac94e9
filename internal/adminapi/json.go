package adminapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
)

// WriteJSON answers v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"code":"internal_error","message":"Could not encode the response.","data":{"status":500}}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store, private")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Decode reads a JSON body into v: rest_invalid_json when it is not JSON
// (or has trailing data). Fields v does not name are ignored, as
// WordPress does.
func Decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Code: "rest_body_too_large", Message: "The request is too large."}
		}
		return errInvalidJSON
	}
	if _, err := dec.Token(); err != io.EOF {
		return errInvalidJSON
	}
	return nil
}

// Paging is a list's page and size (WordPress's page and per_page).
type Paging struct {
	Page    int
	PerPage int
}

// Offset is the number of rows before the page.
func (p Paging) Offset() int { return (p.Page - 1) * p.PerPage }

// PagingOf reads ?page= (1 up) and ?per_page= (1 to 100, default 20).
func PagingOf(r *http.Request) (Paging, error) {
	p := Paging{Page: 1, PerPage: 20}
	q := r.URL.Query()
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, InvalidParam("page", "page must be a whole number of at least 1.")
		}
		p.Page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return p, InvalidParam("per_page", "per_page must be between 1 (inclusive) and 100 (inclusive)")
		}
		p.PerPage = n
	}
	return p, nil
}

// SetTotals sets WordPress's list headers: X-WP-Total and X-WP-TotalPages.
func SetTotals(w http.ResponseWriter, total int, p Paging) {
	pages := 0
	if total > 0 {
		pages = (total + p.PerPage - 1) / p.PerPage
	}
	w.Header().Set("X-WP-Total", strconv.Itoa(total))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
}

// IDParam is a path's numeric id ({id}), 404 when it is not one.
func IDParam(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || n <= 0 {
		return 0, errNotFound
	}
	return n, nil
}
