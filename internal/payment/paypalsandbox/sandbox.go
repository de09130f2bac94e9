// Package paypalsandbox is a built-in stand-in for PayPal's REST API, so the
// demo shop and the tests complete wallet payments with no network. It
// speaks the part of the API vitrine/internal/payment/paypal uses (OAuth2
// tokens, Orders v2 create/get/patch/capture with PayPal-Request-Id
// idempotency and PayPal's error shape), serves a buyer approval page at
// <base>/checkoutnow?token=<order id>, and sends signed webhooks
// (CHECKOUT.ORDER.APPROVED, PAYMENT.CAPTURE.COMPLETED) that the client's
// VerifyWebhook accepts. State lives in memory.
//
// Test and fault hooks (Captures, FailNext, DelayNext, AddFault, Approve,
// Events, Redeliver, SendEvent, ExpireTokens) let tests count real captures
// and simulate lost answers and timeouts.
package paypalsandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"vitrine/internal/payment/paypal"
)

// Funding sources a buyer can approve with.
const (
	FundingPayPal      = "paypal"       // captures complete
	FundingPayLater    = "paylater"     // captures complete
	FundingDeclined    = "declined"     // approval succeeds, capture answers 422 INSTRUMENT_DECLINED
	FundingPending     = "pending"      // the capture is PENDING (reason PENDING_REVIEW)
	FundingPayerAction = "payer-action" // capture answers 422 PAYER_ACTION_REQUIRED
)

// Demo payer set on approval.
const (
	DemoPayerID    = "VITRINEDEMO01"
	DemoPayerEmail = "buyer@example.com"
)

// Config configures a sandbox.
type Config struct {
	// ClientID and Secret are the credentials the token endpoint accepts.
	ClientID, Secret string
	// BaseURL is the sandbox's public root as clients reach it, including
	// any path prefix it is mounted under ("http://127.0.0.1:8080/_sandbox/paypal").
	// It is used in links (approve URL), webhook certificate URLs, and to
	// strip the prefix from request paths. ListenAndServe sets it when empty.
	BaseURL string
	// WebhookURL, when set, receives the signed webhook events.
	WebhookURL string
	// WebhookID is the webhook id the deliveries are signed with (the
	// client's Client.WebhookID must match). Default "WH-SANDBOX".
	WebhookID string
	// WebhookAttempts is how many times a delivery is tried (default 5),
	// waiting WebhookBackoff (default 1 s) then twice as long each time.
	WebhookAttempts int
	WebhookBackoff  time.Duration
	// WebhookClient sends the deliveries; nil uses a client with a 10 s timeout.
	WebhookClient *http.Client
	// TokenTTL is the life of access tokens (default 9 h, as PayPal's).
	TokenTTL time.Duration
	// LenientRequestID accepts API POSTs without PayPal-Request-Id, as
	// PayPal does. By default they are refused with 400 (issue
	// PAYPAL_REQUEST_ID_REQUIRED), so a client that forgets one fails.
	LenientRequestID bool
	// BrandName is the merchant shown on the approval page when the order
	// gives none (default "Vitrine demo shop").
	BrandName string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Sandbox is an in-memory PayPal. Create it with New; close it with Close
// to stop webhook deliveries.
type Sandbox struct {
	cfg    Config
	signer *signer
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu            sync.Mutex
	baseURL       string
	tokens        map[string]time.Time
	tokenRequests int
	orders        map[string]*order
	idem          map[string]*idemEntry
	captures      map[string]int
	refunded      map[string]int64 // capture id → amount refunded
	refundCount   map[string]int   // capture id → refunds made
	refundsByID   map[string]paypal.Refund
	faults        []*Fault
	events        []*Event
	missingIDs    int
}

type order struct {
	o         paypal.Order
	returnURL string
	cancelURL string
	shipPref  string
	brand     string
	funding   string
}

type idemEntry struct {
	fingerprint [32]byte
	status      int
	body        []byte
}

// New makes a sandbox. The webhook signing key is generated once per
// process (RSA 2048) and shared by every sandbox.
func New(cfg Config) *Sandbox {
	if cfg.WebhookID == "" {
		cfg.WebhookID = "WH-SANDBOX"
	}
	if cfg.WebhookAttempts <= 0 {
		cfg.WebhookAttempts = 5
	}
	if cfg.WebhookBackoff <= 0 {
		cfg.WebhookBackoff = time.Second
	}
	if cfg.TokenTTL <= 0 {
		cfg.TokenTTL = 9 * time.Hour
	}
	if cfg.BrandName == "" {
		cfg.BrandName = "Vitrine demo shop"
	}
	if cfg.WebhookClient == nil {
		cfg.WebhookClient = &http.Client{Timeout: 10 * time.Second}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Sandbox{
		cfg:      cfg,
		signer:   sharedSigner(),
		ctx:      ctx,
		cancel:   cancel,
		baseURL:  strings.TrimRight(cfg.BaseURL, "/"),
		tokens:   map[string]time.Time{},
		orders:   map[string]*order{},
		idem:     map[string]*idemEntry{},
		captures: map[string]int{},

		refunded:    map[string]int64{},
		refundCount: map[string]int{},
		refundsByID: map[string]paypal.Refund{},
	}
}

// Close stops pending webhook deliveries and waits for them to end.
func (s *Sandbox) Close() {
	s.mu.Lock()
	s.cancel() // under the lock, so no delivery starts after Wait begins
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Sandbox) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// SetBaseURL sets the public root (see Config.BaseURL), for a sandbox whose
// address is known only once it listens.
func (s *Sandbox) SetBaseURL(u string) {
	s.mu.Lock()
	s.baseURL = strings.TrimRight(u, "/")
	s.mu.Unlock()
}

// BaseURL is the public root: what paypal.Client.BaseURL should be.
func (s *Sandbox) BaseURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.baseURL
}

// WebhookID is the id deliveries are signed with.
func (s *Sandbox) WebhookID() string { return s.cfg.WebhookID }

// CertURLPrefix is the allow-list entry a client needs to accept this
// sandbox's webhooks ("<base>/v1/notifications/certs/").
func (s *Sandbox) CertURLPrefix() string { return s.BaseURL() + "/v1/notifications/certs/" }

// ListenAndServe serves the sandbox on addr until ctx ends. When no base
// URL is set it becomes "http://<listening address>".
func (s *Sandbox) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves the sandbox on ln until ctx ends, then shuts down gracefully.
func (s *Sandbox) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.baseURL == "" {
		s.baseURL = "http://" + ln.Addr().String()
	}
	s.mu.Unlock()
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		<-errc
		return err
	}
}

// Handler serves the API, the approval page and the webhook certificate.
// It works at the root or under a path prefix: a request path that starts
// with the base URL's path has it removed, so it can be mounted with or
// without http.StripPrefix.
func (s *Sandbox) Handler() http.Handler { return http.HandlerFunc(s.serve) }

func (s *Sandbox) prefix() string {
	u, err := url.Parse(s.BaseURL())
	if err != nil {
		return ""
	}
	return strings.TrimRight(u.Path, "/")
}

// base is the public root for links in an answer to r (s.mu held).
func (s *Sandbox) base(r *http.Request) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	if r != nil {
		return "http://" + r.Host
	}
	return ""
}

func (s *Sandbox) serve(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if p := s.prefix(); p != "" && (path == p || strings.HasPrefix(path, p+"/")) {
		path = "/" + strings.TrimLeft(path[len(p):], "/")
	}
	switch {
	case path == "/checkoutnow":
		s.approvalPage(w, r)
		return
	case strings.HasPrefix(path, "/v1/notifications/certs/"):
		s.serveCert(w, r, strings.TrimPrefix(path, "/v1/notifications/certs/"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "INVALID_REQUEST", "The request body is too large.", paypal.ErrorDetail{Issue: "REQUEST_TOO_LARGE"})
		return
	}
	f := s.takeFault(r.Method, path)
	if f != nil && !f.AfterProcessing && s.applyFault(w, r, f) {
		return
	}
	status, out, hdr := s.route(r, path, body)
	if f != nil && f.AfterProcessing && s.applyFault(w, r, f) {
		return
	}
	for k, v := range hdr {
		w.Header()[k] = v
	}
	writeRaw(w, status, out)
}

// route answers one API request; the answer is returned so a fault can
// replace it after the request took effect.
func (s *Sandbox) route(r *http.Request, path string, body []byte) (int, []byte, http.Header) {
	if path == "/v1/oauth2/token" {
		if r.Method != http.MethodPost {
			return errorBody(http.StatusMethodNotAllowed, "METHOD_NOT_SUPPORTED", "The server does not implement the requested HTTP method.")
		}
		return s.token(r, body)
	}
	payments := strings.HasPrefix(path, "/v2/payments/")
	if !strings.HasPrefix(path, "/v2/checkout/orders") && !payments {
		return errorBody(http.StatusNotFound, "RESOURCE_NOT_FOUND", "The specified resource does not exist.")
	}
	if !s.authorized(r) {
		return errorBody(http.StatusUnauthorized, "AUTHENTICATION_FAILURE", "Authentication failed due to invalid authentication credentials or a missing Authorization header.")
	}
	rest := strings.Trim(strings.TrimPrefix(path, "/v2/checkout/orders"), "/")
	parts := strings.Split(rest, "/")
	var handle func() (int, any)
	if payments {
		// Payments v2: refunds of captures.
		parts = strings.Split(strings.Trim(strings.TrimPrefix(path, "/v2/payments/"), "/"), "/")
		switch {
		case len(parts) == 3 && parts[0] == "captures" && parts[2] == "refund" && r.Method == http.MethodPost:
			handle = func() (int, any) { return s.refund(parts[1], body) }
		case len(parts) == 2 && parts[0] == "refunds" && r.Method == http.MethodGet:
			return s.locked(func() (int, any) { return s.getRefund(parts[1]) })
		default:
			return errorBody(http.StatusNotFound, "RESOURCE_NOT_FOUND", "The specified resource does not exist.")
		}
	}
	switch {
	case handle != nil:
	case rest == "" && r.Method == http.MethodPost:
		handle = func() (int, any) { return s.create(r, body) }
	case len(parts) == 1 && r.Method == http.MethodGet:
		return s.locked(func() (int, any) { return s.get(parts[0]) })
	case len(parts) == 1 && r.Method == http.MethodPatch:
		return s.locked(func() (int, any) { return s.patch(parts[0], body) })
	case len(parts) == 2 && parts[1] == "capture" && r.Method == http.MethodPost:
		handle = func() (int, any) { return s.capture(r, parts[0], body) }
	case rest == "" || len(parts) <= 2:
		return errorBody(http.StatusMethodNotAllowed, "METHOD_NOT_SUPPORTED", "The server does not implement the requested HTTP method.")
	default:
		return errorBody(http.StatusNotFound, "RESOURCE_NOT_FOUND", "The specified resource does not exist.")
	}
	// A POST: idempotency by PayPal-Request-Id.
	rid := r.Header.Get("PayPal-Request-Id")
	s.mu.Lock()
	defer s.mu.Unlock()
	if rid == "" {
		s.missingIDs++
		if !s.cfg.LenientRequestID {
			return errorBody(http.StatusBadRequest, "INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.",
				paypal.ErrorDetail{Field: "PayPal-Request-Id", Location: "header", Issue: "PAYPAL_REQUEST_ID_REQUIRED", Description: "A PayPal-Request-Id header is required for this request."})
		}
		st, v := handle()
		return encode(st, v)
	}
	fp := sha256.Sum256([]byte(r.Method + " " + path + "\n" + string(body)))
	if e, ok := s.idem[rid]; ok {
		if e.fingerprint != fp {
			return errorBody(http.StatusUnprocessableEntity, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.",
				paypal.ErrorDetail{Field: "PayPal-Request-Id", Value: rid, Location: "header", Issue: "DUPLICATE_REQUEST_ID", Description: "This PayPal-Request-Id was already used for a different request."})
		}
		st := e.status
		if st == http.StatusCreated {
			st = http.StatusOK
		}
		return st, e.body, jsonHeader()
	}
	st, v := handle()
	st, out, h := encode(st, v)
	if st/100 == 2 {
		s.idem[rid] = &idemEntry{fingerprint: fp, status: st, body: out}
	}
	return st, out, h
}

func (s *Sandbox) locked(f func() (int, any)) (int, []byte, http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return encode(f())
}

func jsonHeader() http.Header { return http.Header{"Content-Type": {"application/json"}} }

func encode(status int, v any) (int, []byte, http.Header) {
	if v == nil {
		return status, nil, nil
	}
	if b, ok := v.([]byte); ok {
		return status, b, jsonHeader()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return errorBody(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", err.Error())
	}
	return status, b, jsonHeader()
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	if body != nil && w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// apiError is PayPal's error shape.
type apiError struct {
	Name    string               `json:"name"`
	Message string               `json:"message"`
	DebugID string               `json:"debug_id"`
	Details []paypal.ErrorDetail `json:"details,omitempty"`
	Links   []paypal.Link        `json:"links,omitempty"`
}

func errorBody(status int, name, message string, details ...paypal.ErrorDetail) (int, []byte, http.Header) {
	b, _ := json.Marshal(apiError{Name: name, Message: message, DebugID: newID(13, true), Details: details})
	return status, b, jsonHeader()
}

func writeError(w http.ResponseWriter, status int, name, message string, details ...paypal.ErrorDetail) {
	st, b, h := errorBody(status, name, message, details...)
	for k, v := range h {
		w.Header()[k] = v
	}
	writeRaw(w, st, b)
}

const (
	msgInvalid = "Request is not well-formed, syntactically incorrect, or violates schema."
	msg422     = "The requested action could not be performed, semantically incorrect, or failed business validation."
	msg404     = "The specified resource does not exist."
)

func fail(status int, details ...paypal.ErrorDetail) (int, any) {
	e := apiError{DebugID: newID(13, true), Details: details}
	switch status {
	case http.StatusBadRequest:
		e.Name, e.Message = "INVALID_REQUEST", msgInvalid
	case http.StatusNotFound:
		e.Name, e.Message = "RESOURCE_NOT_FOUND", msg404
	default:
		e.Name, e.Message = "UNPROCESSABLE_ENTITY", msg422
	}
	return status, e
}

// structural issues are 400; business rules are 422.
var badRequestIssues = map[string]bool{
	"MISSING_REQUIRED_PARAMETER": true, "INVALID_PARAMETER_VALUE": true, "INVALID_ARRAY_MAX_ITEMS": true,
	"MALFORMED_REQUEST_JSON": true, "INVALID_PARAMETER_SYNTAX": true, "REFERENCE_ID_REQUIRED": true,
}

func failDetails(details []paypal.ErrorDetail) (int, any) {
	st := http.StatusUnprocessableEntity
	for _, d := range details {
		if badRequestIssues[d.Issue] {
			st = http.StatusBadRequest
		}
	}
	return fail(st, details...)
}

// token is POST /v1/oauth2/token.
func (s *Sandbox) token(r *http.Request, body []byte) (int, []byte, http.Header) {
	id, secret, ok := r.BasicAuth()
	if !ok || subtle.ConstantTimeCompare([]byte(id), []byte(s.cfg.ClientID)) != 1 || subtle.ConstantTimeCompare([]byte(secret), []byte(s.cfg.Secret)) != 1 {
		b, _ := json.Marshal(map[string]string{"error": "invalid_client", "error_description": "Client Authentication failed"})
		return http.StatusUnauthorized, b, jsonHeader()
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("grant_type") != "client_credentials" {
		b, _ := json.Marshal(map[string]string{"error": "unsupported_grant_type", "error_description": "Grant Type is NULL or not client_credentials"})
		return http.StatusBadRequest, b, jsonHeader()
	}
	tok := "A21AA" + newID(40, false)
	s.mu.Lock()
	s.tokens[tok] = s.now().Add(s.cfg.TokenTTL)
	s.tokenRequests++
	s.mu.Unlock()
	return encode(http.StatusOK, map[string]any{
		"scope":        "https://uri.paypal.com/services/payments/payment",
		"access_token": tok,
		"token_type":   "Bearer",
		"app_id":       "APP-VITRINE-SANDBOX",
		"expires_in":   int64(s.cfg.TokenTTL / time.Second),
		"nonce":        s.now().UTC().Format(time.RFC3339) + newID(12, false),
	})
}

func (s *Sandbox) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.tokens[tok]
	return ok && s.now().Before(exp)
}

// newID returns n random characters: upper-case letters and digits, or
// lower-case hex when upper is false.
func newID(n int, upper bool) string {
	const up = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const hex = "0123456789abcdef"
	alphabet := hex
	if upper {
		alphabet = up
	}
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func (s *Sandbox) stamp() string { return s.now().UTC().Format(time.RFC3339) }

var errNotFound = errors.New("paypalsandbox: no such order")

// Order returns a copy of an order as GET would answer it.
func (s *Sandbox) Order(id string) (paypal.Order, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.orders[id]
	if !ok {
		return paypal.Order{}, false
	}
	return cloneOrder(o.o), true
}

func cloneOrder(o paypal.Order) paypal.Order {
	b, _ := json.Marshal(o)
	var c paypal.Order
	_ = json.Unmarshal(b, &c)
	return c
}

// Captures is how many captures really happened for an order (successful
// capture calls; an idempotent replay is not a capture).
func (s *Sandbox) Captures(orderID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.captures[orderID]
}

// TotalCaptures is how many captures happened in all.
func (s *Sandbox) TotalCaptures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.captures {
		n += c
	}
	return n
}

// OrderCount is how many orders were created.
func (s *Sandbox) OrderCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.orders)
}

// TokenRequests is how many access tokens were issued.
func (s *Sandbox) TokenRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenRequests
}

// MissingRequestIDs is how many API POSTs came without PayPal-Request-Id.
func (s *Sandbox) MissingRequestIDs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.missingIDs
}

// ExpireTokens invalidates every access token issued so far: the next API
// call with one answers 401.
func (s *Sandbox) ExpireTokens() {
	s.mu.Lock()
	s.tokens = map[string]time.Time{}
	s.mu.Unlock()
}

func (s *Sandbox) String() string { return fmt.Sprintf("paypalsandbox(%s)", s.BaseURL()) }
