package contactapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/contact"
	"vitrine/internal/contactform"
	"vitrine/internal/httpx"
	"vitrine/internal/storage/space"
)

// The REST routes: the feedback POST, the refill GET and the SWV schema
// GET. Errors of the surface go through writeError.

const (
	// bodySlack is what a feedback body may hold beyond its files:
	// the text fields (a few KiB), the hidden fields and the multipart
	// framing.
	bodySlack = 256 << 10
	// fileCap bounds a file field without a size bound.
	fileCap = 8 << 20
	// valueCap bounds one text value read; a longer one is cut to
	// one byte more, which the field's maxlength refuses.
	valueCap = 64 << 10
)

// Errors of the surface besides the service's.
var (
	errMediaType = errors.New("contact: not multipart/form-data")
	errBadBody   = errors.New("contact: malformed multipart body")
)

// bodyLimit is the largest feedback body form accepts: its files'
// bounds plus bodySlack.
func bodyLimit(form contactform.Form) int64 {
	n := int64(bodySlack)
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindFile {
			c := fd.MaxSize
			if c <= 0 {
				c = fileCap
			}
			n += c + 1
		}
	}
	return n
}

// writeError is the one error mapping of the surface, in the REST shape.
func writeError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, errMediaType):
		httpx.WriteError(w, http.StatusUnsupportedMediaType, "wpcf7_unsupported_media_type", "The request payload format is not supported.", nil)
	case errors.Is(err, contact.ErrNotFound):
		httpx.WriteError(w, http.StatusNotFound, "wpcf7_not_found", "The requested contact form was not found.", nil)
	case errors.Is(err, contact.ErrUnitTag):
		httpx.WriteError(w, http.StatusBadRequest, "wpcf7_unit_tag_not_found", "There is no valid unit tag.", nil)
	case errors.As(err, &tooBig):
		httpx.WriteError(w, http.StatusRequestEntityTooLarge, "wpcf7_payload_too_large", "The request is larger than this form accepts.", nil)
	case errors.Is(err, errBadBody):
		httpx.WriteError(w, http.StatusBadRequest, "wpcf7_bad_request", "The request body could not be read.", nil)
	default:
		httpx.WriteError(w, http.StatusInternalServerError, "wpcf7_internal_error", "The message could not be handled.", nil)
	}
}

// formOf is the form named by the route's {id}.
func (a *API) formOf(r *http.Request) (contactform.Form, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return contactform.Form{}, contact.ErrNotFound
	}
	f, ok := a.d.Contact.Form(id)
	if !ok {
		return contactform.Form{}, contact.ErrNotFound
	}
	return f, nil
}

type cf7Invalid struct {
	Field   string  `json:"field"`
	Message string  `json:"message"`
	IDRef   *string `json:"idref"`
	ErrorID string  `json:"error_id"`
}

type cf7Feedback struct {
	ContactFormID  int64        `json:"contact_form_id"`
	Status         string       `json:"status"`
	Message        string       `json:"message"`
	PostedDataHash string       `json:"posted_data_hash"`
	Into           string       `json:"into"`
	InvalidFields  []cf7Invalid `json:"invalid_fields,omitempty"`
}

// Feedback answers POST .../contact-forms/{id}/feedback.
func (a *API) Feedback(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		writeError(w, errMediaType)
		return
	}
	form, err := a.formOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, bodyLimit(form))
	sub, err := readBody(r, form)
	if err != nil {
		writeError(w, err)
		return
	}
	res, err := a.submit(r, form, sub)
	if errors.Is(err, space.ErrQuota) || errors.Is(err, space.ErrDiskLow) {
		noRoom(w, form.ID, sub.UnitTag, err)
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if res.Status == contact.StatusMailSent {
		a.d.KickMail()
	}
	out := cf7Feedback{ContactFormID: form.ID, Status: res.Status, Message: res.Message,
		PostedDataHash: res.PostedDataHash, Into: "#" + sub.UnitTag}
	for _, v := range res.Invalid {
		iv := cf7Invalid{Field: v.Field, Message: v.Message, ErrorID: v.ErrorID}
		if v.IDRef != "" {
			id := v.IDRef
			iv.IDRef = &id
		}
		out.InvalidFields = append(out.InvalidFields, iv)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// submit submits sub, read from r for form, with what the request says
// of its sender: the client address (the rate limit counts by it), the
// user agent and the logged-in user.
func (a *API) submit(r *http.Request, form contactform.Form, sub contact.Submission) (contact.Result, error) {
	sub.FormID = form.ID
	sub.ClientIP = a.d.ClientIP(r)
	sub.UserAgent = r.UserAgent()
	if u := httpx.UserOf(r); u != nil {
		sub.UserID = u.ID
	}
	return a.d.Contact.Submit(r.Context(), sub)
}

// cf7NoRoom is the answer to files the shop has no room for: CF7's
// feedback (status aborted, the message for the response area) and the
// REST error's code and data.status together, so that a client reading
// either finds the message.
type cf7NoRoom struct {
	Code string `json:"code"`
	Data struct {
		Status int `json:"status"`
	} `json:"data"`
	cf7Feedback
}

// noRoom answers a submission refused for its files: 507 over the
// files' quota, 503 with Retry-After while the disk is low. Nothing was
// stored or mailed, so the visitor may send the message without the file.
func noRoom(w http.ResponseWriter, formID int64, unitTag string, err error) {
	out := cf7NoRoom{cf7Feedback: cf7Feedback{ContactFormID: formID, Status: contact.StatusAborted, Into: "#" + unitTag}}
	if errors.Is(err, space.ErrQuota) {
		out.Code, out.Data.Status = "wpcf7_insufficient_storage", http.StatusInsufficientStorage
		out.Message = "The shop cannot take more files at the moment. Please send your message without the file, or try again later."
	} else {
		out.Code, out.Data.Status = "wpcf7_storage_unavailable", http.StatusServiceUnavailable
		out.Message = "The shop cannot store files at the moment. Please send your message without the file, or try again later."
		w.Header().Set("Retry-After", strconv.Itoa(int(space.RetryAfter/time.Second)))
	}
	httpx.WriteJSON(w, out.Data.Status, out)
}

// readBody reads the multipart body into a submission: the hidden
// fields CF7 posts, the form's own values (each cut at valueCap)
// and its files (each read up to its field's bound plus one byte; the
// rest is counted, not kept). Parts the form does not name are skipped
// unread.
func readBody(r *http.Request, form contactform.Form) (contact.Submission, error) {
	sub := contact.Submission{Values: map[string][]string{}, Files: map[string][]contact.Upload{}}
	mr, err := r.MultipartReader()
	if err != nil {
		return sub, errMediaType
	}
	fields := map[string]contactform.Field{}
	for _, fd := range form.Fields {
		for _, k := range []string{fd.Name, fd.Name + "[]", contactform.Reported(fd.Name)} {
			fields[k] = fd
		}
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sub, bodyError(err)
		}
		name := p.FormName()
		fd, known := fields[name]
		switch {
		case known && fd.Kind == contactform.KindFile:
			limit := fd.MaxSize
			if limit <= 0 {
				limit = fileCap
			}
			data, size, err := readCapped(p, limit)
			if err != nil {
				return sub, bodyError(err)
			}
			if len(sub.Files[name]) < contact.MaxValuesPerField {
				sub.Files[name] = append(sub.Files[name], contact.Upload{Name: p.FileName(),
					ContentType: p.Header.Get("Content-Type"), Content: data, Size: size})
			}
		case known, name == "_wpcf7_unit_tag", name == "_wpcf7_container_post", name == "_wpcf7_recaptcha_response":
			data, _, err := readCapped(p, valueCap)
			if err != nil {
				return sub, bodyError(err)
			}
			if len(sub.Values[name]) < contact.MaxValuesPerField {
				sub.Values[name] = append(sub.Values[name], string(data))
			}
		default:
			if _, err := io.Copy(io.Discard, p); err != nil {
				return sub, bodyError(err)
			}
		}
	}
	first := func(k string) string {
		if v := sub.Values[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	sub.UnitTag = strings.TrimSpace(first("_wpcf7_unit_tag"))
	sub.ContainerPost, _ = strconv.ParseInt(strings.TrimSpace(first("_wpcf7_container_post")), 10, 64)
	sub.BotToken = strings.TrimSpace(first("_wpcf7_recaptcha_response"))
	return sub, nil
}

// readCapped reads r keeping at most limit+1 bytes; size is the whole
// length read (the rest is discarded, bounded by the body limit).
func readCapped(r io.Reader, limit int64) ([]byte, int64, error) {
	var b bytes.Buffer
	n, err := io.CopyN(&b, r, limit+1)
	if err == io.EOF {
		return b.Bytes(), n, nil
	}
	if err != nil {
		return nil, n, err
	}
	rest, err := io.Copy(io.Discard, r)
	return b.Bytes(), n + rest, err
}

// bodyError keeps a body over the limit as such; any other read error is
// a malformed body.
func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return err
	}
	return errors.Join(errBadBody, err)
}

// Refill answers GET .../contact-forms/{id}/refill: our forms have no
// captcha image or quiz to renew, so an empty object.
func (a *API) Refill(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if _, err := a.formOf(r); err != nil {
		writeError(w, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, struct{}{})
}

// Schema answers GET .../contact-forms/{id}/feedback/schema: the SWV
// schema the server validates with. Forms change only with the
// configuration, so it may be cached a while.
func (a *API) Schema(w http.ResponseWriter, r *http.Request) {
	form, err := a.formOf(r)
	if err != nil {
		w.Header().Set("Cache-Control", "no-store")
		writeError(w, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	httpx.WriteJSON(w, http.StatusOK, form.Schema())
}
