package adminapi

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"vitrine/internal/privacy"
)

// Privacy requests (internal/privacy): the admin's list, a request made
// for any address, approving a confirmed one, and a kept export's file.
// The audit entries name the request and its counts, never the person.

const privacyPath = "/wp-json/vitrine/v1/admin/privacy-requests"

// privacyError maps the privacy service's errors to the REST shape.
func privacyError(err error) (*Error, bool) {
	var le *privacy.LimitedError
	switch {
	case errors.Is(err, privacy.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "vitrine_privacy_invalid_id", Message: "There is no such privacy request."}, true
	case errors.Is(err, privacy.ErrInvalidEmail):
		return InvalidParam("email", "Enter a valid email address."), true
	case errors.Is(err, privacy.ErrInvalidKind):
		return InvalidParam("type", "type is not one of export, erase."), true
	case errors.Is(err, privacy.ErrPending):
		return &Error{Status: http.StatusConflict, Code: "vitrine_privacy_pending",
			Message: "A request of this type is already open for this email address. Wait for it to be confirmed and completed."}, true
	case errors.Is(err, privacy.ErrNotConfirmed):
		return &Error{Status: http.StatusConflict, Code: "vitrine_privacy_not_confirmed",
			Message: "This request cannot be completed: the person has not confirmed it by email yet, or it is already done."}, true
	case errors.Is(err, privacy.ErrWrongKind), errors.Is(err, privacy.ErrNoExport):
		return &Error{Status: http.StatusNotFound, Code: "vitrine_privacy_no_export", Message: "This request has no export to download (it is not built yet, or it expired)."}, true
	case errors.As(err, &le):
		return &Error{Status: http.StatusTooManyRequests, Code: "vitrine_privacy_limited", Message: "Too many requests. Try again later."}, true
	}
	return nil, false
}

// GET /wp-json/vitrine/v1/admin/privacy-requests?type=export|erase
func (a *API) privacyList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	rs, err := a.d.Privacy.List(r.Context(), r.URL.Query().Get("type"))
	if err != nil {
		return err
	}
	if rs == nil {
		rs = []privacy.Request{}
	}
	WriteJSON(w, http.StatusOK, rs)
	return nil
}

// POST /wp-json/vitrine/v1/admin/privacy-requests {"type", "email"}: the
// person is mailed a confirmation link, as WordPress does.
func (a *API) privacyCreate(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Type  string `json:"type"`
		Email string `json:"email"`
	}
	if err := Decode(r, &body); err != nil {
		return err
	}
	req, _, err := a.d.Privacy.RequestForEmail(r.Context(), st.ID, body.Type, body.Email)
	if err != nil {
		return err
	}
	a.kickMail()
	Note(r, "privacy."+req.Kind+".request", "privacy_request", req.ID, "Privacy request created; a confirmation link was mailed")
	WriteJSON(w, http.StatusCreated, req)
	return nil
}

// POST /wp-json/vitrine/v1/admin/privacy-requests/{id}/approve: erases a
// confirmed erasure request (or builds a confirmed export whose build
// failed).
func (a *API) privacyApprove(w http.ResponseWriter, r *http.Request, st Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	req, err := a.d.Privacy.Approve(r.Context(), id, st.ID)
	if err != nil {
		return err
	}
	a.kickMail()
	summary := "Export built and its download link mailed"
	if e := req.Result; e != nil {
		verb := "anonymised"
		if e.ReviewsMode == privacy.ReviewsDelete {
			verb = "deleted"
		}
		summary = fmt.Sprintf("Personal data erased: %d orders anonymised, %d reviews %s, %d contact messages deleted, account deleted: %t",
			e.Orders, e.Reviews, verb, e.ContactMessages, e.AccountDeleted)
	}
	Note(r, "privacy."+req.Kind+".approve", "privacy_request", req.ID, summary)
	WriteJSON(w, http.StatusOK, req)
	return nil
}

// GET /wp-json/vitrine/v1/admin/privacy-requests/{id}/export: the kept
// export's zip (staff may fetch it more than once until it expires).
func (a *API) privacyExportFile(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	req, b, err := a.d.Privacy.ExportFile(r.Context(), id)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "personal-data-" + strconv.FormatInt(req.ID, 10) + ".zip"}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
	return nil
}

func (a *API) kickMail() {
	if a.d.KickMail != nil {
		a.d.KickMail()
	}
}
