// Package privacyapi is the privacy requests' public links: the page a
// confirmation link opens, and the one-time export download. Each GET
// shows a page with one button; the POST it sends does the work, so a
// mail scanner that fetches links confirms and spends nothing. The pages
// are small server-side templates, whole in themselves (no app bundle):
// the person may open them from a mail on any device.
package privacyapi

import (
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strconv"

	"vitrine/internal/httpx"
	"vitrine/internal/privacy"
)

// Deps is what the surface uses.
type Deps struct {
	Privacy  *privacy.Service
	SiteName func() string
	// KickMail wakes the mail worker (a confirmed export queued its link).
	KickMail func()
	Log      *slog.Logger
}

// API serves the links.
type API struct{ d Deps }

// New builds the surface.
func New(d Deps) *API {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}

type page = httpx.LinkPage

// A token is 43 URL-safe base64 characters; anything much longer is not
// one and is refused before it is hashed.
const maxToken = 100

func (a *API) token(r *http.Request) (string, bool) {
	t := r.FormValue("token")
	return t, t != "" && len(t) <= maxToken
}

func (a *API) render(w http.ResponseWriter, status int, p page) {
	if a.d.SiteName != nil {
		p.Shop = a.d.SiteName()
	}
	if p.Action == "" {
		p.Links = []httpx.PageLink{{Href: "/my-account/", Text: "Go to your account"}, {Href: "/", Text: "back to the shop"}}
	}
	if err := p.Write(w, status); err != nil {
		a.d.Log.Error("privacy page", "err", err)
	}
}

var linkGone = page{Title: "This link was already used or has expired", Problem: true,
	Lead: []string{"Each link in our privacy emails works once, for a limited time. If you still need it, make a new request from your account, or ask the shop."}}

// Confirm answers GET /privacy-request/confirm/?token=…: the button that
// confirms.
func (a *API) Confirm(w http.ResponseWriter, r *http.Request) {
	tok, ok := a.token(r)
	if !ok {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true,
			Lead: []string{"Open the link from the email again, whole: some mail programs cut long links."}})
		return
	}
	req, err := a.d.Privacy.PendingConfirm(r.Context(), tok)
	if errors.Is(err, privacy.ErrLinkInvalid) {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	if err != nil {
		a.d.Log.Error("privacy confirm page", "err", err)
		a.render(w, http.StatusServiceUnavailable, page{Title: "This page could not be shown now", Problem: true,
			Lead: []string{"Please try again in a few minutes."}})
		return
	}
	lead := "A copy of the personal data this shop keeps about " + req.Email + " was requested. Confirm that you want it: we then email you a link to download it."
	if req.Kind == privacy.KindErase {
		lead = "The erasure of the personal data this shop keeps about " + req.Email + " was requested. Confirm that you want it: the shop's staff then erase it, and your account with it. This cannot be undone."
	}
	a.render(w, http.StatusOK, page{Title: "Confirm your privacy request", Action: privacy.ConfirmPath, Token: tok, Button: "Confirm request",
		Lead: []string{lead}})
}

// ConfirmPost answers POST /privacy-request/confirm/.
func (a *API) ConfirmPost(w http.ResponseWriter, r *http.Request) {
	tok, ok := a.token(r)
	if !ok {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	req, _, err := a.d.Privacy.Confirm(r.Context(), tok)
	if errors.Is(err, privacy.ErrLinkInvalid) {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	if err != nil && req == nil {
		a.d.Log.Error("privacy confirm", "err", err)
		a.render(w, http.StatusServiceUnavailable, page{Title: "Your request could not be confirmed now", Problem: true,
			Lead: []string{"Please try again in a few minutes."}})
		return
	}
	if a.d.KickMail != nil {
		a.d.KickMail()
	}
	if req.Kind == privacy.KindErase {
		a.render(w, http.StatusOK, page{Title: "Thank you for confirming your request",
			Lead: []string{"The shop's staff will now erase your personal data. Records the shop must keep, such as the amounts of your orders, are kept without your name or contact details."}})
		return
	}
	lead := "We have emailed you a link to download your personal data. It works once, for " + strconv.Itoa(int(privacy.DownloadLifetime.Hours()/24)) + " days."
	if err != nil {
		lead = "Your request is confirmed. The shop's staff will send you the download link shortly."
	}
	a.render(w, http.StatusOK, page{Title: "Thank you for confirming your request", Lead: []string{lead}})
}

// Download answers GET /privacy-request/download/?token=…: the button
// that downloads.
func (a *API) Download(w http.ResponseWriter, r *http.Request) {
	tok, ok := a.token(r)
	if !ok {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true,
			Lead: []string{"Open the link from the email again, whole: some mail programs cut long links."}})
		return
	}
	a.render(w, http.StatusOK, page{Title: "Download your personal data", Action: privacy.DownloadPath, Token: tok, Button: "Download my data",
		Lead: []string{"The file is a zip holding a page you can open in any browser and the same data as JSON. This link works once."}})
}

// DownloadPost answers POST /privacy-request/download/: the zip, once.
func (a *API) DownloadPost(w http.ResponseWriter, r *http.Request) {
	tok, ok := a.token(r)
	if !ok {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	req, b, err := a.d.Privacy.Download(r.Context(), tok)
	if errors.Is(err, privacy.ErrLinkInvalid) {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	if err != nil {
		a.d.Log.Error("privacy download", "err", err)
		a.render(w, http.StatusServiceUnavailable, page{Title: "Your data could not be sent now", Problem: true,
			Lead: []string{"Please try again in a few minutes."}})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "personal-data-" + strconv.FormatInt(req.ID, 10) + ".zip"}))
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store, private")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}
