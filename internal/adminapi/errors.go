package adminapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contact"
	"vitrine/internal/media"
	"vitrine/internal/review"
	"vitrine/internal/storage/space"
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
	var fe *media.FieldError
	var rie *review.InputError
	var cie *contact.InputError
	switch {
	case errors.As(err, &e):
		return e, true
	// The media library's upload refusals (WordPress's codes).
	case errors.Is(err, media.ErrNoData):
		return &Error{Status: http.StatusBadRequest, Code: "rest_upload_no_data", Message: "No data supplied: choose an image to upload."}, true
	case errors.Is(err, media.ErrFileTooBig):
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: "rest_upload_file_too_big",
			Message: fmt.Sprintf("This file is too large: images may be up to %d MB.", media.MaxUploadBytes>>20)}, true
	case errors.Is(err, media.ErrType):
		return &Error{Status: http.StatusUnsupportedMediaType, Code: "rest_upload_invalid_type",
			Message: "Sorry, this file type is not permitted: upload a JPEG, PNG, GIF or WebP image."}, true
	// Storage bounds (internal/storage/space): WordPress's code for an
	// upload over the space left, with 507; a low disk is 503 with
	// Retry-After (set by fail).
	case errors.Is(err, space.ErrQuota):
		return &Error{Status: http.StatusInsufficientStorage, Code: "rest_upload_limited_space",
			Message: "The media library is full: delete images you no longer use, or ask the shop's operator to raise its quota."}, true
	case errors.Is(err, space.ErrDiskLow):
		return &Error{Status: http.StatusServiceUnavailable, Code: "rest_upload_storage_unavailable",
			Message: "The server is short of disk space, so uploads are paused. Try again later."}, true
	case errors.Is(err, media.ErrImageTooBig):
		return &Error{Status: http.StatusBadRequest, Code: "rest_upload_image_too_large", Message: strings.TrimPrefix(err.Error(), "media: ")}, true
	case errors.As(err, &fe):
		return InvalidParam(fe.Field, fe.Why), true

	// Reviews.
	case errors.Is(err, review.ErrReviewNotFound):
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_review_invalid_id", Message: "Invalid review ID."}, true
	case errors.Is(err, review.ErrBadStatus):
		return InvalidParam("status", "status is not one of hold, approved, spam, trash."), true
	case errors.Is(err, review.ErrNotTrashed):
		return &Error{Status: http.StatusConflict, Code: "vitrine_review_not_trashed", Message: "Move the review to the trash before deleting it permanently."}, true
	case errors.Is(err, review.ErrNotReplyable):
		return &Error{Status: http.StatusConflict, Code: "vitrine_review_not_replyable", Message: "A review in the spam or the trash cannot be replied to. Approve it first."}, true
	case errors.As(err, &rie):
		return InvalidParam(rie.Field, rie.Message), true

	// Messages.
	case errors.Is(err, contact.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "vitrine_message_invalid_id", Message: "There is no such message or file."}, true
	case errors.Is(err, contact.ErrBadStatus):
		return InvalidParam("status", "status is not one of new, read, trash."), true
	case errors.Is(err, contact.ErrNotTrashed):
		return &Error{Status: http.StatusConflict, Code: "vitrine_message_not_trashed", Message: "Move the message to the trash before deleting it permanently."}, true
	case errors.Is(err, contact.ErrTrashed):
		return &Error{Status: http.StatusConflict, Code: "vitrine_message_trashed", Message: "Restore the message from the trash before replying to it."}, true
	case errors.Is(err, contact.ErrNoAddress):
		return &Error{Status: http.StatusConflict, Code: "vitrine_message_no_address", Message: "This message has no valid email address to reply to."}, true
	case errors.Is(err, contact.ErrFilePurged):
		return &Error{Status: http.StatusGone, Code: "vitrine_file_purged", Message: "This file was removed after the retention period."}, true
	case errors.As(err, &cie):
		return InvalidParam(cie.Field, cie.Message), true

	// Products.
	case errors.As(err, &catalogInput):
		return InvalidParam(catalogInput.Field, catalogInput.Message), true
	case errors.Is(err, catalog.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid ID: it does not exist, or it was deleted."}, true
	case errors.Is(err, catalog.ErrStale):
		return Conflict("vitrine_product_stale", "This product was changed by someone else after you opened it, so your edit was not saved. Reload it and make your change again.", nil), true
	}
	if e, ok := orderError(err); ok {
		return e, true
	}
	if e, ok := couponError(err); ok {
		return e, true
	}
	if e, ok := staffOrderError(err); ok {
		return e, true
	}
	if e, ok := customerError(err); ok {
		return e, true
	}
	if e, ok := privacyError(err); ok {
		return e, true
	}
	return nil, false
}

// fail writes err's answer, logging what is not a refusal.
func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, space.ErrDiskLow) {
		w.Header().Set("Retry-After", strconv.Itoa(int(space.RetryAfter/time.Second)))
	}
	if e, ok := asError(err); ok {
		writeError(w, e)
		return
	}
	a.d.Log.Error("admin api", "method", r.Method, "path", r.URL.Path, "err", err)
	writeError(w, &Error{Status: http.StatusInternalServerError, Code: "internal_error", Message: "The change could not be saved. Try again."})
}

func writeError(w http.ResponseWriter, e *Error) {
	WriteJSON(w, e.Status, errorBody(e))
}

// errorBody is e in WordPress's REST error shape.
func errorBody(e *Error) storeapi.Error {
	out := storeapi.NewError(e.Status, e.Code, e.Message)
	for k, v := range e.Data {
		out.Data[k] = v
	}
	return out
}
