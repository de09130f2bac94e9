// Package visitsapi is the storefront's session beacon:
// POST /wp-json/vitrine/v1/visits, sent once by the attribution script when
// it starts a new session (web/src/attribution), over internal/visits.
//
// The request must come from a page of the shop, as a beacon does: an
// empty body, and Sec-Fetch-Site: same-origin (or, from a browser that does
// not send it, an Origin equal to the shop's). Anything else is refused in
// the REST error shape and counts nothing; the service then applies the
// shop's rules (attribution on, consent, crawlers, the limits). Success is
// 204 with no body and no cookie; so is a refusal by those rules, counted
// as nothing and named in X-Vitrine-Not-Counted (with Retry-After when
// limited): a shop's own page meets them in ordinary browsers, and every
// failed beacon is an error in the shopper's console and in an audit.
package visitsapi

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/visits"
)

// Path is the route.
const Path = "/wp-json/vitrine/v1/visits"

// NotCountedHeader names why a start that a page of the shop may send was
// not counted (a quiet refusal, visits.Error.Quiet): it is answered 204
// like a count, since a browser logs every failed beacon in its console.
const NotCountedHeader = "X-Vitrine-Not-Counted"

// Deps is what the route uses.
type Deps struct {
	Visits *visits.Service
	// BaseURL is the shop's address (its origin is the one accepted).
	BaseURL string
	// ClientIP is the request's client address (behind trusted proxies,
	// the forwarded one): the limits are shared out by it, never stored.
	ClientIP func(*http.Request) string
}

// API is the route.
type API struct{ d Deps }

// New builds the route.
func New(d Deps) *API { return &API{d: d} }

// The adapter's own refusals.
var (
	errNotFromShop = &visits.Error{Status: http.StatusForbidden, Code: "vitrine_visits_not_from_shop",
		Message: "A session is counted only from a page of the shop."}
	errBody = &visits.Error{Status: http.StatusBadRequest, Code: "vitrine_visits_body",
		Message: "The request takes no body."}
)

// FromShop says whether r was sent by a page of the shop at base: the
// browser's Sec-Fetch-Site says same-origin, or, when the browser sends no
// Sec-Fetch-Site, its Origin is the shop's (or the request's own host when
// no base is configured).
func FromShop(r *http.Request, base string) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	origin := r.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return false
	}
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false
	}
	if b, err := url.Parse(base); err == nil && b.Host != "" {
		return strings.EqualFold(o.Scheme, b.Scheme) && strings.EqualFold(o.Host, b.Host)
	}
	return strings.EqualFold(o.Host, r.Host)
}

// Start is POST /wp-json/vitrine/v1/visits.
func (a *API) Start(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	if err := a.start(r); err != nil {
		var e *visits.Error
		if !errors.As(err, &e) {
			httpx.WriteError(w, http.StatusInternalServerError, "vitrine_visits_failed", "The session could not be counted.", nil)
			return
		}
		if e.RetryAfter > 0 {
			httpx.SetRetryAfter(w, e.RetryAfter)
		}
		if e.Quiet {
			w.Header().Set(NotCountedHeader, e.Code)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		httpx.WriteError(w, e.Status, e.Code, e.Message, nil)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) start(r *http.Request) error {
	if !FromShop(r, a.d.BaseURL) {
		return errNotFromShop
	}
	if r.ContentLength > 0 {
		return errBody
	}
	if n, _ := io.ReadFull(r.Body, make([]byte, 1)); n > 0 { // chunked, without a length
		return errBody
	}
	client := ""
	if a.d.ClientIP != nil {
		client = a.d.ClientIP(r)
	}
	return a.d.Visits.Record(r.Context(), visits.Start{Client: client, UserAgent: r.UserAgent(), Consent: httpx.Consent(r)})
}
