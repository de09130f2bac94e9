// Package wcrest reads a running WooCommerce shop through its REST API v3:
// the migration's wcimport.Source. It authenticates as WooCommerce asks a
// client to: over HTTPS with the consumer key and secret as HTTP Basic,
// over plain HTTP with a one-legged OAuth 1.0a signature (HMAC-SHA1) in
// the query, the secret never sent. A request refused with 429 or a 5xx,
// or lost on the network, is tried again after a backoff (Retry-After
// when the shop sends one); a 401 is answered at once with what to check.
//
// A Client is safe for concurrent use; how many requests run at once is
// the caller's choice (the import's --concurrency).
package wcrest

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/integration"
)

// Client reads one shop.
type Client struct {
	// Base is the shop's address ("https://old-shop.example"); the API is
	// under its /wp-json/.
	Base           string
	ConsumerKey    string
	ConsumerSecret string
	// HTTP sends the requests (nil: a client with a 60 s timeout).
	HTTP *http.Client
	// PerPage is the page size of lists (default and WooCommerce's
	// maximum: 100).
	PerPage int
	// Retries is how many times a failed request is tried again (default 6);
	// Backoff the first wait, doubled each time up to a minute (default 1 s).
	Retries int
	Backoff time.Duration
	// Now and Sleep are the clock (tests replace Sleep to wait for nothing).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// AuthError is the shop's refusal of the key (401 or 403).
type AuthError struct {
	Status  int
	Code    string // WooCommerce's, such as woocommerce_rest_authentication_error
	Message string // the shop's own words
}

// HTTPStatus is the answer's status (wcimport.StatusCoder).
func (e *AuthError) HTTPStatus() int { return e.Status }

func (e *AuthError) Error() string {
	return fmt.Sprintf("the old shop refused the REST API key (%d %s: %s): check --consumer-key and --consumer-secret "+
		"(WooCommerce → Settings → Advanced → REST API), that the key has Read permission and its user may manage the shop, "+
		"and that --url is the shop's own address (https:// when the shop has it)", e.Status, e.Code, e.Message)
}

// StatusError is any other answer that is not a success.
type StatusError struct {
	Status int
	URL    string
	Body   string
}

// HTTPStatus is the answer's status (wcimport.StatusCoder).
func (e *StatusError) HTTPStatus() int { return e.Status }

func (e *StatusError) Error() string {
	return fmt.Sprintf("the old shop answered %d for %s: %s", e.Status, e.URL, e.Body)
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 60 * time.Second}
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// List implements wcimport.Source.
func (c *Client) List(ctx context.Context, path string, query url.Values, page int) ([]json.RawMessage, int, error) {
	q := url.Values{}
	for k, v := range query {
		q[k] = append([]string(nil), v...)
	}
	per := c.PerPage
	if per <= 0 || per > 100 {
		per = 100
	}
	q.Set("per_page", strconv.Itoa(per))
	q.Set("page", strconv.Itoa(page))
	body, h, err := c.get(ctx, c.apiURL(path), q, true)
	if err != nil {
		return nil, 0, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return nil, 0, fmt.Errorf("%s page %d is not a JSON list: %w", path, page, err)
	}
	total := 1
	if s := h.Get("X-WP-TotalPages"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, 0, fmt.Errorf("%s: X-WP-TotalPages %q is not a number", path, s)
		}
		total = n
	}
	return items, total, nil
}

// Get implements wcimport.Source.
func (c *Client) Get(ctx context.Context, path string) (json.RawMessage, error) {
	body, _, err := c.get(ctx, c.apiURL(path), url.Values{}, true)
	if err != nil {
		return nil, err
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("%s is not JSON", path)
	}
	return body, nil
}

// Download implements wcimport.Source: a file the shop links to, fetched
// without credentials (they are the API's, not the uploads').
func (c *Client) Download(ctx context.Context, rawURL string) ([]byte, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", fmt.Errorf("%q is not an http(s) URL", rawURL)
	}
	q := u.Query()
	u.RawQuery = ""
	body, h, err := c.get(ctx, u.String(), q, false)
	if err != nil {
		return nil, "", err
	}
	return body, h.Get("Content-Type"), nil
}

func (c *Client) apiURL(path string) string {
	return strings.TrimRight(c.Base, "/") + "/wp-json/" + strings.TrimLeft(path, "/")
}

// maxBody bounds one answer (a page of 100 products is well under it; an
// image up to 20 MiB).
const maxBody = 64 << 20

// get sends a GET, signed when auth, with retries.
func (c *Client) get(ctx context.Context, base string, q url.Values, auth bool) ([]byte, http.Header, error) {
	retries := c.Retries
	if retries <= 0 {
		retries = 6
	}
	wait := c.Backoff
	if wait <= 0 {
		wait = time.Second
	}
	for attempt := 0; ; attempt++ {
		body, h, retryAfter, err := c.once(ctx, base, q, auth)
		if err == nil {
			return body, h, nil
		}
		var se *StatusError
		retryable := retryAfter >= 0 && (errors.As(err, &se) || isNetwork(err))
		if !retryable || attempt >= retries || ctx.Err() != nil {
			return nil, nil, err
		}
		d := wait
		if retryAfter > 0 {
			d = retryAfter
		}
		if err := c.sleep(ctx, d); err != nil {
			return nil, nil, err
		}
		wait = min(wait*2, time.Minute)
	}
}

// isNetwork reports whether err is a transport failure worth another
// try; a certificate the client refuses is not (it will be refused again).
func isNetwork(err error) bool {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var host x509.HostnameError
	var tlsErr *tls.CertificateVerificationError
	if errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &host) || errors.As(err, &tlsErr) {
		return false
	}
	var ue *url.Error
	return errors.As(err, &ue) || errors.Is(err, io.ErrUnexpectedEOF)
}

// once sends one request. retryAfter is -1 when the failure is not worth
// another try, the shop's Retry-After when it sent one, else 0.
func (c *Client) once(ctx context.Context, base string, q url.Values, auth bool) (body []byte, h http.Header, retryAfter time.Duration, err error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, nil, -1, err
	}
	var req *http.Request
	if auth && u.Scheme == "http" {
		signed := c.sign(base, q)
		u.RawQuery = signed
	} else {
		u.RawQuery = q.Encode()
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, -1, err
	}
	req.Header.Set("Accept", "application/json")
	if auth && u.Scheme == "https" {
		req.SetBasicAuth(c.ConsumerKey, c.ConsumerSecret)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, nil, 0, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, nil, 0, err
	}
	if len(body) > maxBody {
		return nil, nil, -1, fmt.Errorf("%s: the answer is larger than %d MiB", base, maxBody>>20)
	}
	switch s := resp.StatusCode; {
	case s >= 200 && s < 300:
		return body, resp.Header, 0, nil
	case auth && (s == http.StatusUnauthorized || s == http.StatusForbidden):
		var e struct{ Code, Message string }
		_ = json.Unmarshal(body, &e)
		return nil, nil, -1, &AuthError{Status: s, Code: e.Code, Message: e.Message}
	case s == http.StatusTooManyRequests || s >= 500:
		return nil, nil, c.retryAfter(resp.Header.Get("Retry-After")), &StatusError{Status: s, URL: base, Body: short(body)}
	default:
		return nil, nil, -1, &StatusError{Status: s, URL: base, Body: short(body)}
	}
}

// retryAfter reads a Retry-After header: seconds or an HTTP date, at
// most 10 minutes.
func (c *Client) retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(c.now())
	}
	return min(max(d, 0), 10*time.Minute)
}

func short(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// sign is the query with the OAuth 1.0a parameters of a one-legged
// HMAC-SHA1 signature over the URL without its query (WooCommerce's
// rule, internal/integration's BaseString).
func (c *Client) sign(base string, q url.Values) string {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	p := url.Values{}
	for k, v := range q {
		p[k] = append([]string(nil), v...)
	}
	p.Set("oauth_consumer_key", c.ConsumerKey)
	p.Set("oauth_nonce", hex.EncodeToString(nonce))
	p.Set("oauth_signature_method", integration.HMACSHA1)
	p.Set("oauth_timestamp", strconv.FormatInt(c.now().Unix(), 10))
	p.Set("oauth_version", "1.0")
	var params []integration.Param
	for k, vs := range p {
		for _, v := range vs {
			params = append(params, integration.Param{Name: k, Value: v})
		}
	}
	sig, _ := integration.Sign(integration.HMACSHA1, c.ConsumerSecret+"&", integration.BaseString(http.MethodGet, base, params))
	// Encoded as OAuth encodes (a "+" in the signature must not be read as
	// a space).
	var b strings.Builder
	for k, vs := range p {
		for _, v := range vs {
			b.WriteString(integration.Encode(k) + "=" + integration.Encode(v) + "&")
		}
	}
	b.WriteString("oauth_signature=" + integration.Encode(sig))
	return b.String()
}
