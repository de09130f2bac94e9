// Package paypal is a thin client for PayPal's Orders v2 REST API: OAuth2
// client-credentials tokens (cached, shared, refreshed on 401), create, get,
// patch and capture of orders with a caller-stored PayPal-Request-Id on
// every POST, amounts built from integer minor units, PayPal's error shape,
// and webhook signature verification.
//
// The base URL is configurable: PayPal's live or sandbox hosts, or the
// shop's built-in sandbox (vitrine/internal/payment/paypalsandbox).
package paypal

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// PayPal's hosts.
const (
	LiveBaseURL    = "https://api-m.paypal.com"
	SandboxBaseURL = "https://api-m.sandbox.paypal.com"
)

// maxBody caps what is read of an answer.
const maxBody = 4 << 20

// ErrMissingRequestID is returned, without sending anything, by a POST whose
// PayPal-Request-Id is empty. The caller stores the key before the call so
// a retry after a timeout reuses it.
var ErrMissingRequestID = errors.New("paypal: a PayPal-Request-Id is required on every POST")

// defaultHTTP is used when Client.HTTP is nil.
var defaultHTTP = &http.Client{Timeout: 60 * time.Second}

// Client calls the Orders v2 API. Set the exported fields before first use
// and do not change them afterwards; a Client is safe for concurrent use
// and must not be copied after first use.
type Client struct {
	// BaseURL is the API root without a trailing slash, e.g. LiveBaseURL
	// or the built-in sandbox's URL (which may include a path prefix).
	BaseURL  string
	ClientID string
	Secret   string
	// HTTP is the HTTP client; nil uses one with a 60 s timeout. Per-call
	// deadlines come from the context.
	HTTP *http.Client
	// PartnerAttributionID, when set, is sent as PayPal-Partner-Attribution-Id.
	PartnerAttributionID string

	// WebhookID is the id PayPal gave the shop's webhook; it is part of
	// the signed string of every delivery (see VerifyWebhook).
	WebhookID string
	// CertURLPrefixes is the allow-list of certificate URLs for webhook
	// verification; nil means DefaultCertURLPrefixes. Add the built-in
	// sandbox's "<base>/v1/notifications/certs/" to accept its deliveries.
	CertURLPrefixes []string
	// CertRoots, when set, must verify the webhook signing certificate's
	// chain (the sandbox's CertPool, or a pool of PayPal's CAs). When nil,
	// the allow-list (over HTTPS for PayPal's hosts) is what authenticates
	// the certificate; its validity dates are always checked.
	CertRoots *x509.CertPool
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu       sync.Mutex
	token    string
	tokenExp time.Time
	flight   singleflight.Group
	certMu   sync.Mutex
	certs    map[string]*x509.Certificate
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

func (c *Client) url(path string) string {
	return strings.TrimRight(c.BaseURL, "/") + path
}

// tokenAnswer is the OAuth2 token endpoint's answer.
type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

// validToken is the stored access token while it is valid, else "".
func (c *Client) validToken() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && c.now().Before(c.tokenExp) {
		return c.token
	}
	return ""
}

// accessToken returns a valid access token, fetching one if needed. Concurrent
// callers share one fetch; the fetch runs on its own context (bounded by 30
// s) so one caller giving up does not fail the others.
func (c *Client) accessToken(ctx context.Context) (string, error) {
	if t := c.validToken(); t != "" {
		return t, nil
	}
	ch := c.flight.DoChan("token", func() (any, error) {
		// A caller that found no token may reach here just after another
		// flight stored one: use it rather than fetching a second.
		if t := c.validToken(); t != "" {
			return t, nil
		}
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		return c.fetchToken(fctx)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return "", r.Err
		}
		return r.Val.(string), nil
	case <-ctx.Done():
		return "", &NetworkError{Op: "POST /v1/oauth2/token", Err: ctx.Err()}
	}
}

// fetchToken asks for a new token (client credentials) and caches it until
// shortly before it expires: a minute early, or half its life if shorter.
func (c *Client) fetchToken(ctx context.Context) (string, error) {
	const op = "POST /v1/oauth2/token"
	form := url.Values{"grant_type": {"client_credentials"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url("/v1/oauth2/token"), strings.NewReader(form))
	if err != nil {
		return "", fmt.Errorf("paypal: %s: %w", op, err)
	}
	req.SetBasicAuth(c.ClientID, c.Secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	start := c.now()
	status, body, err := c.send(req, op)
	if err != nil {
		return "", err
	}
	if status/100 != 2 {
		return "", parseAPIError(status, body)
	}
	var t tokenAnswer
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return "", &NetworkError{Op: op, Err: fmt.Errorf("unreadable token answer: %.200q", body)}
	}
	life := time.Duration(t.ExpiresIn) * time.Second
	margin := time.Minute
	if life < 2*margin {
		margin = life / 2
	}
	c.mu.Lock()
	c.token = t.AccessToken
	c.tokenExp = start.Add(life - margin)
	c.mu.Unlock()
	return t.AccessToken, nil
}

// CheckCredentials asks the API for a token with the client's
// credentials, the check the admin runs before saving them: nil when the
// API issues one, its answer (*APIError) when it refuses them.
func (c *Client) CheckCredentials(ctx context.Context) error {
	_, err := c.fetchToken(ctx)
	return err
}

// dropToken forgets a token the API refused, unless it was already replaced.
func (c *Client) dropToken(tok string) {
	c.mu.Lock()
	if c.token == tok {
		c.token = ""
	}
	c.mu.Unlock()
}

// send performs a request and reads the answer; transport failures become
// *NetworkError.
func (c *Client) send(req *http.Request, op string) (int, []byte, error) {
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return 0, nil, &NetworkError{Op: op, Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, nil, &NetworkError{Op: op, Err: err}
	}
	return resp.StatusCode, body, nil
}

// call is one API request: method, path, the idempotency key for POSTs, a
// JSON body (nil for none). It adds the bearer token, retries once with a
// new token after a 401, and decodes a 2xx answer into out. Every request
// of the Orders API goes through here, so every POST carries its
// PayPal-Request-Id (an empty one is refused before sending).
func (c *Client) call(ctx context.Context, method, path, requestID string, in, out any) (int, error) {
	op := method + " " + path
	if method == http.MethodPost && strings.TrimSpace(requestID) == "" {
		return 0, ErrMissingRequestID
	}
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return 0, fmt.Errorf("paypal: %s: %w", op, err)
		}
	}
	for attempt := 0; ; attempt++ {
		tok, err := c.accessToken(ctx)
		if err != nil {
			return 0, err
		}
		var body io.Reader
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.url(path), body)
		if err != nil {
			return 0, fmt.Errorf("paypal: %s: %w", op, err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if requestID != "" {
			req.Header.Set("PayPal-Request-Id", requestID)
		}
		if method == http.MethodPost {
			req.Header.Set("Prefer", "return=representation")
		}
		if c.PartnerAttributionID != "" {
			req.Header.Set("PayPal-Partner-Attribution-Id", c.PartnerAttributionID)
		}
		status, data, err := c.send(req, op)
		if err != nil {
			return 0, err
		}
		if status == http.StatusUnauthorized && attempt == 0 {
			c.dropToken(tok)
			continue
		}
		if status/100 != 2 {
			return status, parseAPIError(status, data)
		}
		if out != nil && len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				return status, &NetworkError{Op: op, Err: fmt.Errorf("unreadable answer (%d): %w", status, err)}
			}
		}
		return status, nil
	}
}

// parseAPIError reads PayPal's error shape, or the OAuth one.
func parseAPIError(status int, body []byte) *APIError {
	var e struct {
		Name             string        `json:"name"`
		Message          string        `json:"message"`
		DebugID          string        `json:"debug_id"`
		Details          []ErrorDetail `json:"details"`
		Error            string        `json:"error"`
		ErrorDescription string        `json:"error_description"`
	}
	ae := &APIError{Status: status}
	if json.Unmarshal(body, &e) != nil {
		ae.Name = http.StatusText(status)
		ae.Message = strings.TrimSpace(string(body[:min(len(body), 200)]))
		return ae
	}
	ae.Name, ae.Message, ae.DebugID, ae.Details = e.Name, e.Message, e.DebugID, e.Details
	if ae.Name == "" {
		ae.Name, ae.Message = e.Error, e.ErrorDescription
	}
	if ae.Name == "" {
		ae.Name = http.StatusText(status)
	}
	return ae
}

// CreateOrder creates an order (POST /v2/checkout/orders). requestID is the
// caller's stored idempotency key: the same key replays the first order
// (answer 200, Order.Replayed true). The request is checked first (intent,
// purchase units, amounts and breakdown sums) and refused with a
// *ValidationError without sending when PayPal would refuse it.
func (c *Client) CreateOrder(ctx context.Context, requestID string, req CreateOrderRequest) (*Order, error) {
	if errs := CheckCreateOrder(req); len(errs) > 0 {
		return nil, &ValidationError{Details: errs}
	}
	var o Order
	status, err := c.call(ctx, http.MethodPost, "/v2/checkout/orders", requestID, req, &o)
	if err != nil {
		return nil, err
	}
	o.Replayed = status == http.StatusOK
	return &o, nil
}

// GetOrder reads an order (GET /v2/checkout/orders/{id}); 404 for an
// unknown id is an *APIError with Status 404.
func (c *Client) GetOrder(ctx context.Context, id string) (*Order, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var o Order
	if _, err := c.call(ctx, http.MethodGet, "/v2/checkout/orders/"+id, "", nil, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// PatchOrder applies JSON Patch operations to an order that is not yet
// captured (PATCH /v2/checkout/orders/{id}, answer 204). Use ReplaceOps to
// put the final amounts before capture.
func (c *Client) PatchOrder(ctx context.Context, id string, ops []PatchOp) error {
	if err := checkID(id); err != nil {
		return err
	}
	if len(ops) == 0 {
		return fmt.Errorf("%w: no patch operations", ErrInvalidRequest)
	}
	_, err := c.call(ctx, http.MethodPatch, "/v2/checkout/orders/"+id, "", ops, nil)
	return err
}

// CaptureOrder captures an approved order (POST
// /v2/checkout/orders/{id}/capture). requestID is the caller's stored key
// for this capture: after a *NetworkError (timeout, lost answer) call again
// with the same key, and PayPal replays the first capture instead of taking
// the money twice. Declines are *APIError 422 with issue
// INSTRUMENT_DECLINED; a second capture with another key answers
// ORDER_ALREADY_CAPTURED.
func (c *Client) CaptureOrder(ctx context.Context, id, requestID string) (*Order, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var o Order
	status, err := c.call(ctx, http.MethodPost, "/v2/checkout/orders/"+id+"/capture", requestID, struct{}{}, &o)
	if err != nil {
		return nil, err
	}
	o.Replayed = status == http.StatusOK
	return &o, nil
}

// RefundCapture refunds a completed capture, wholly or in part (Payments
// v2: POST /v2/payments/captures/{capture_id}/refund). requestID is the
// caller's stored key for this refund: after a *NetworkError call again
// with the same key and PayPal replays the first refund (Refund.Replayed)
// instead of refunding twice. Refusals are *APIError 422, with issues such
// as REFUND_AMOUNT_EXCEEDED, CAPTURE_FULLY_REFUNDED or
// REFUND_CAPTURE_CURRENCY_MISMATCH.
func (c *Client) RefundCapture(ctx context.Context, captureID, requestID string, req RefundRequest) (*Refund, error) {
	if err := checkID(captureID); err != nil {
		return nil, err
	}
	if req.Amount != nil {
		if _, err := req.Amount.Minor(); err != nil {
			return nil, &ValidationError{Details: []ErrorDetail{{Field: "/amount/value", Issue: "DECIMAL_PRECISION", Description: err.Error()}}}
		}
	}
	if len([]rune(req.NoteToPayer)) > 255 {
		return nil, &ValidationError{Details: []ErrorDetail{{Field: "/note_to_payer", Issue: "INVALID_STRING_MAX_LENGTH"}}}
	}
	var r Refund
	status, err := c.call(ctx, http.MethodPost, "/v2/payments/captures/"+captureID+"/refund", requestID, req, &r)
	if err != nil {
		return nil, err
	}
	r.Replayed = status == http.StatusOK
	return &r, nil
}

// checkID refuses ids that would change the request path.
func checkID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("%w: bad order id %q", ErrInvalidRequest, id)
	}
	for i := 0; i < len(id); i++ {
		b := id[i]
		if !(b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_') {
			return fmt.Errorf("%w: bad order id %q", ErrInvalidRequest, id)
		}
	}
	return nil
}
