package adminapi

import (
	"context"
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
	WriteRawJSON(w, status, b)
}

// WriteRawJSON writes b, already JSON, as WriteJSON writes an answer
// (a large answer encoded by its handler).
func WriteRawJSON(w http.ResponseWriter, status int, b []byte) {
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

// IDParam is a path's numeric id ({id}), 404 when it is not one.
func IDParam(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || n <= 0 {
		return 0, errNotFound
	}
	return n, nil
}

// idAndBody reads a path's {id} (404 when it is not one), then its JSON
// body into v (Decode): the start of every write to one item.
func idAndBody(r *http.Request, v any) (int64, error) {
	id, err := IDParam(r, "id")
	if err != nil {
		return 0, err
	}
	return id, Decode(r, v)
}

// idAndStatus reads a status change: the path's {id} and the body's
// {"status"}, refused with why when it is absent or valid (if set) says
// it is not a status.
func idAndStatus(r *http.Request, valid func(string) bool, why string) (int64, string, error) {
	var body struct {
		Status *string `json:"status"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return 0, "", err
	}
	if body.Status == nil || (valid != nil && !valid(*body.Status)) {
		return 0, "", InvalidParam("status", why)
	}
	return id, *body.Status, nil
}

// savedIDAndBody reads a save that creates (a POST to the collection: id
// 0) or edits (the path's id under name), and its JSON body into v.
func savedIDAndBody(r *http.Request, name string, v any) (int64, error) {
	var id int64
	if r.PathValue(name) != "" {
		var err error
		if id, err = IDParam(r, name); err != nil {
			return 0, err
		}
	}
	return id, Decode(r, v)
}

// savedStatus answers a save: 201 for a create (id 0), else 200.
func savedStatus(id int64) int {
	if id == 0 {
		return http.StatusCreated
	}
	return http.StatusOK
}

// twoIDs reads a path's {id} and the id under name below it (an order's
// refund, a message's file), each 404 when it is not one.
func twoIDs(r *http.Request, name string) (int64, int64, error) {
	id, err := IDParam(r, "id")
	if err != nil {
		return 0, 0, err
	}
	sub, err := IDParam(r, name)
	return id, sub, err
}

// answer ends a handler that called one use case: its error, or out(v)
// written with status.
func answer[T, J any](w http.ResponseWriter, status int, v T, err error, out func(T) J) error {
	if err != nil {
		return err
	}
	WriteJSON(w, status, out(v))
	return nil
}

// getByID answers GET of one item: get at the path's {id}, shaped by out.
func getByID[T, J any](w http.ResponseWriter, r *http.Request, get func(context.Context, int64) (T, error), out func(T) J) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	v, err := get(r.Context(), id)
	return answer(w, http.StatusOK, v, err, out)
}
