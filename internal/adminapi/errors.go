package adminapi

import (
	"errors"
	"net/http"

	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// Error is an answer in WordPress's REST error shape. Handlers return one
// for a refusal of their own; a service's error is mapped by asError.
type Error struct {
	Status  int
	Code    string
	Message string
	// Data is merged into the answer's data (next to status): params for
	// a bad field, the current version for a stale edit.
	Data map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Common refusals.
var (
	errNoRoute     = &Error{Status: http.StatusNotFound, Code: "rest_no_route", Message: "No route was found matching the URL and request method."}
	errNotLoggedIn = &Error{Status: http.StatusUnauthorized, Code: "rest_not_logged_in", Message: "You are not currently logged in."}
	errForbidden   = &Error{Status: http.StatusForbidden, Code: "rest_forbidden", Message: "Sorry, you are not allowed to do that."}
	errInvalidJSON = &Error{Status: http.StatusBadRequest, Code: "rest_invalid_json", Message: "Invalid JSON body passed."}
	errNotFound    = &Error{Status: http.StatusNotFound, Code: "rest_not_found", Message: "Resource not found."}
)

// InvalidParam is 400 rest_invalid_param for one field, WordPress's answer
// to a bad argument: data.params names the field and says why.
func InvalidParam(param, why string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "rest_invalid_param", Message: "Invalid parameter(s): " + param,
		Data: map[string]any{"params": map[string]string{param: why}}}
}

// Conflict is 409 for an edit based on a stale version (optimistic
// concurrency): data carries what the client needs to show the newer one.
func Conflict(code, message string, data map[string]any) *Error {
	return &Error{Status: http.StatusConflict, Code: code, Message: message, Data: data}
}

// asError maps an error to its REST answer. Capabilities add their
// sentinel errors here, in one place; anything unknown is a 500 whose
// detail goes to the log, never to the client.
func asError(err error) (*Error, bool) {
	var e *Error
	var catalogInput *catalog.InputError
	switch {
	case errors.As(err, &e):
		return e, true
	case errors.As(err, &catalogInput):
		return InvalidParam(catalogInput.Field, catalogInput.Message), true
	case errors.Is(err, catalog.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid ID: it does not exist, or it was deleted."}, true
	case errors.Is(err, catalog.ErrStale):
		return Conflict("vitrine_product_stale", "This product was changed by someone else after you opened it, so your edit was not saved. Reload it and make your change again.", nil), true
	}
	return nil, false
}

// fail writes err's answer, logging what is not a refusal.
func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) {
	if e, ok := asError(err); ok {
		writeError(w, e)
		return
	}
	a.d.Log.Error("admin api", "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, &Error{Status: http.StatusInternalServerError, Code: "internal_error", Message: "The change could not be saved. Try again."})
}

func writeError(w http.ResponseWriter, e *Error) {
	out := storeapi.NewError(e.Status, e.Code, e.Message)
	for k, v := range e.Data {
		out.Data[k] = v
	}
	WriteJSON(w, e.Status, out)
}
