// Package contactapi is Contact Form 7's HTTP surface (protocol notes
// section 10): the REST routes the form's script calls (the feedback POST,
// the refill GET and the SWV schema GET) and the contact page's form posted
// by the browser itself, without scripts. It reads the multipart body (in
// memory, never to disk), calls contact.Service's Submit once and shapes
// CF7's JSON, or has the contact page answer. The contact page itself is
// served by the server's page cache.
package contactapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"vitrine/internal/contact"
	"vitrine/internal/pages"
)

// Path is the prefix of the REST routes: Path+"{id}/feedback" and so on.
const Path = "/wp-json/contact-form-7/v1/contact-forms/"

// Deps are what the surface uses; the server builds them.
type Deps struct {
	// Contact holds the shop's forms and takes their submissions.
	Contact *contact.Service
	// Loader loads the contact page answering a posted form.
	Loader *pages.Loader
	// Pages sends the pages the server renders.
	Pages Pages
	// ClientIP is the address the request came from (the server's
	// trusted proxy rules): the rate limit counts per address.
	ClientIP func(*http.Request) string
	// KickMail wakes the mail outbox after a message was queued.
	KickMail func()
	Log      *slog.Logger
}

// Pages is what the surface needs of the server's page rendering.
type Pages interface {
	// NotFound answers the shop's 404 page.
	NotFound(w http.ResponseWriter, r *http.Request)
	// PageContext is the context to load a page for this request alone
	// with (the viewer's settings.user when logged in).
	PageContext(r *http.Request) context.Context
	// SendPersonal renders and sends a page loaded for this request alone,
	// never cached; err is the load's, what names the page in the log.
	SendPersonal(w http.ResponseWriter, r *http.Request, what, uri string, res *pages.Result, err error)
}

// API serves the contact routes.
type API struct{ d Deps }

// New builds the surface.
func New(d Deps) *API {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}

// MaxBody is the largest body limit of the shop's forms: the server's
// body cap for the requests IsFeedback reports.
func (a *API) MaxBody() int64 {
	var n int64
	for _, f := range a.d.Contact.Forms {
		n = max(n, bodyLimit(f))
	}
	return n
}

// IsFeedback reports whether r is a feedback POST, or the form posted to
// /contact/ without scripts: both may carry files beyond the server's
// usual body cap (MaxBody).
func IsFeedback(r *http.Request) bool {
	return r.Method == http.MethodPost && (r.URL.Path == pages.ContactPath ||
		strings.HasPrefix(r.URL.Path, Path) && strings.HasSuffix(r.URL.Path, "/feedback"))
}
