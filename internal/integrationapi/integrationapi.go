// Package integrationapi is the HTTP side of REST API keys
// (internal/integration): it reads a request's key credentials, the way
// WooCommerce reads them, and answers refusals with WooCommerce's REST
// errors. The composition calls Authenticate for /wp-json/wc/v3/ requests
// that have no logged-in viewer (server.withRESTAuth).
//
// Which credentials count depends on the connection, as in WooCommerce:
//
//   - over HTTPS (Deps.HTTPS: TLS to this server, or a trusted proxy's
//     X-Forwarded-Proto), the consumer_key and consumer_secret query
//     parameters, else HTTP Basic with the key as user and the secret as
//     password;
//   - over plain HTTP, only an OAuth 1.0a signature (the oauth_* query
//     parameters or an "Authorization: OAuth" header). A key and secret
//     sent in the clear are ignored there: the request is a visitor's.
package integrationapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/httpx"
	"vitrine/internal/integration"
)

// Deps are what the adapter uses.
type Deps struct {
	Keys *integration.Service
	// HTTPS reports whether the client reached the shop over HTTPS.
	HTTPS func(*http.Request) bool
	// ClientIP is the client's address (the server's trusted-proxy rules).
	ClientIP func(*http.Request) string
	// BaseURL is the shop's public origin: OAuth signatures are made for
	// its host (with the scheme http), or for the request's Host.
	BaseURL string
}

// Auth authenticates requests with API keys.
type Auth struct{ d Deps }

// New builds the adapter.
func New(d Deps) *Auth { return &Auth{d: d} }

// basicRealm is WooCommerce's WWW-Authenticate challenge for a refused
// Basic request.
const basicRealm = `Basic realm="WooCommerce API. Use a consumer key in the username field and a consumer secret in the password field."`

// Authenticate reads r's key credentials. Without any it returns nil and
// false: the request goes on as a visitor's. With valid ones whose key
// allows r's method it returns the key's user. Otherwise it has answered
// the refusal and returns done.
func (a *Auth) Authenticate(w http.ResponseWriter, r *http.Request) (u *account.User, done bool) {
	var auth *integration.Auth
	var err error
	basic := false
	if a.d.HTTPS(r) {
		q := r.URL.Query()
		ck, cs := q.Get("consumer_key"), q.Get("consumer_secret")
		if ck == "" || cs == "" {
			var ok bool
			ck, cs, ok = r.BasicAuth()
			if !ok || ck == "" || cs == "" {
				return nil, false
			}
			basic = true
		}
		auth, err = a.d.Keys.Basic(r.Context(), ck, cs, a.d.ClientIP(r))
	} else {
		params := oauthParams(r)
		if !integration.IsOAuth(params) {
			return nil, false
		}
		auth, err = a.d.Keys.OAuth(r.Context(), integration.OAuthRequest{Method: r.Method, URLs: a.signedURLs(r),
			Params: params, ClientIP: a.d.ClientIP(r)})
	}
	if err == nil {
		err = auth.Permit(r.Method)
	}
	if err != nil {
		refuse(w, err, basic)
		return nil, true
	}
	return auth.User, false
}

// refuse answers a refusal in WooCommerce's REST error shape.
func refuse(w http.ResponseWriter, err error, basic bool) {
	h := w.Header()
	h.Set("Cache-Control", "no-store, private")
	var e *integration.Error
	var locked *integration.LockedError
	switch {
	case errors.As(err, &e):
		if basic && e.Status == http.StatusUnauthorized {
			h.Set("WWW-Authenticate", basicRealm)
		}
		httpx.WriteErrorRaw(w, e.Status, e.Code, e.Message, nil)
	case errors.As(err, &locked):
		httpx.SetRetryAfter(w, locked.Wait)
		httpx.WriteErrorRaw(w, http.StatusTooManyRequests, "vitrine_rest_authentication_locked", locked.Error(), nil)
	default:
		httpx.WriteErrorRaw(w, http.StatusInternalServerError, "internal_error", "The request could not be authenticated. Try again.", nil)
	}
}

// oauthParams are the query's parameters and the Authorization header's
// oauth_* ones (which replace the query's of the same name), decoded. A
// name repeated in the query counts once, with its last value, as PHP
// reads a query for WooCommerce: WooCommerce's own JavaScript client
// sends the request's parameters twice (in the URL it signs and again
// with the oauth_* ones) and signs them once. Array names (include[])
// keep every value.
func oauthParams(r *http.Request) []integration.Param {
	header := authorizationParams(r.Header.Get("Authorization"))
	var params []integration.Param
	q, _ := url.ParseQuery(r.URL.RawQuery)
	for name, values := range q {
		if _, ok := header[name]; ok {
			continue
		}
		if !strings.Contains(name, "[") {
			values = values[len(values)-1:]
		}
		for _, v := range values {
			params = append(params, integration.Param{Name: name, Value: v})
		}
	}
	for name, v := range header {
		params = append(params, integration.Param{Name: name, Value: v})
	}
	return params
}

// authorizationParams are the oauth_* parameters of an "OAuth" Authorization
// header (RFC 5849, section 3.5.1): name="percent-encoded value", comma
// separated; realm and anything else are left out.
func authorizationParams(h string) map[string]string {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "OAuth") {
		return nil
	}
	out := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || !strings.HasPrefix(name, "oauth_") {
			continue
		}
		if v, err := url.PathUnescape(strings.Trim(value, `"`)); err == nil {
			out[name] = v
		}
	}
	return out
}

// signedURLs are the URLs a plain-HTTP request's signature may be made
// for: the shop's host with the request's path (WooCommerce's rule: the
// site's address, scheme http), then the host the client asked for.
func (a *Auth) signedURLs(r *http.Request) []string {
	path := r.URL.EscapedPath()
	var urls []string
	if u, err := url.Parse(a.d.BaseURL); err == nil && u.Host != "" {
		urls = append(urls, "http://"+u.Host+path)
	}
	if r.Host != "" {
		if own := "http://" + r.Host + path; len(urls) == 0 || own != urls[0] {
			urls = append(urls, own)
		}
	}
	return urls
}
