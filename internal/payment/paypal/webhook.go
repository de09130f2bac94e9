package paypal

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Webhook headers PayPal sets on every delivery.
const (
	HeaderTransmissionID   = "Paypal-Transmission-Id"
	HeaderTransmissionTime = "Paypal-Transmission-Time"
	HeaderTransmissionSig  = "Paypal-Transmission-Sig"
	HeaderCertURL          = "Paypal-Cert-Url"
	HeaderAuthAlgo         = "Paypal-Auth-Algo"
)

// AuthAlgo is the only signature algorithm accepted.
const AuthAlgo = "SHA256withRSA"

// MaxTransmissionSkew is how far a delivery's transmission time may be from
// now, either way.
const MaxTransmissionSkew = 5 * time.Minute

// DefaultCertURLPrefixes are PayPal's own certificate locations, live and
// sandbox, used when Client.CertURLPrefixes is nil.
var DefaultCertURLPrefixes = []string{
	"https://api.paypal.com/v1/notifications/certs/",
	"https://api-m.paypal.com/v1/notifications/certs/",
	"https://api.sandbox.paypal.com/v1/notifications/certs/",
	"https://api-m.sandbox.paypal.com/v1/notifications/certs/",
}

// ErrWebhookRejected is wrapped by every VerifyWebhook error that means the
// delivery is not authentic or not acceptable: answer it with a 4xx and
// change nothing. Other errors (the certificate could not be fetched) are
// transient: answer 5xx so PayPal delivers again.
var ErrWebhookRejected = errors.New("paypal: webhook rejected")

func rejected(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrWebhookRejected, fmt.Sprintf(format, args...))
}

// SignedString is the string PayPal signs for a webhook delivery:
// transmission_id|transmission_time|webhook_id|crc32 of the body (CRC-32
// IEEE, as an unsigned decimal).
func SignedString(transmissionID, transmissionTime, webhookID string, body []byte) string {
	return transmissionID + "|" + transmissionTime + "|" + webhookID + "|" + strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)
}

// VerifyWebhook checks a webhook delivery the way PayPal documents for
// self-verification and returns the parsed event. It requires
// PAYPAL-AUTH-ALGO SHA256withRSA, a PAYPAL-TRANSMISSION-TIME within 5
// minutes of now, a PAYPAL-CERT-URL on the allow-list (CertURLPrefixes),
// and a PAYPAL-TRANSMISSION-SIG that is a valid RSA PKCS #1 v1.5 SHA-256
// signature of SignedString(…, WebhookID, body) by that certificate.
// Certificates are fetched once and cached while valid.
//
// It does not dedupe: the same event may be delivered several times, late,
// and out of order. The caller records event ids it has handled and applies
// only forward state transitions (an order already paid stays paid).
func (c *Client) VerifyWebhook(ctx context.Context, header http.Header, body []byte) (*Event, error) {
	if c.WebhookID == "" {
		return nil, errors.New("paypal: Client.WebhookID is not set")
	}
	tid := header.Get(HeaderTransmissionID)
	ttime := header.Get(HeaderTransmissionTime)
	sig := header.Get(HeaderTransmissionSig)
	certURL := header.Get(HeaderCertURL)
	algo := header.Get(HeaderAuthAlgo)
	if tid == "" || ttime == "" || sig == "" || certURL == "" || algo == "" {
		return nil, rejected("missing signature headers")
	}
	if algo != AuthAlgo {
		return nil, rejected("auth algorithm %q is not %s", algo, AuthAlgo)
	}
	t, err := time.Parse(time.RFC3339Nano, ttime)
	if err != nil {
		return nil, rejected("bad transmission time %q", ttime)
	}
	if d := c.now().Sub(t); d > MaxTransmissionSkew || d < -MaxTransmissionSkew {
		return nil, rejected("transmission time %s is more than %s from now", ttime, MaxTransmissionSkew)
	}
	if len(tid) > 128 || len(certURL) > 512 || len(sig) > 1024 {
		return nil, rejected("oversized signature headers")
	}
	if !c.certURLAllowed(certURL) {
		return nil, rejected("certificate URL %q is not on the allow-list", certURL)
	}
	rawSig, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return nil, rejected("signature is not base64")
	}
	// An RSA signature is as long as the key's modulus: 2048 to 4096 bits.
	if len(rawSig) < 256 || len(rawSig) > 512 {
		return nil, rejected("signature has %d bytes, not an RSA signature", len(rawSig))
	}
	// The body must be an event before anything is fetched for it.
	ev, err := ParseEvent(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrWebhookRejected, err)
	}
	cert, err := c.cert(ctx, certURL)
	if err != nil {
		return nil, err
	}
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return nil, rejected("certificate key is not RSA")
	}
	sum := sha256.Sum256([]byte(SignedString(tid, ttime, c.WebhookID, body)))
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], rawSig); err != nil {
		return nil, rejected("signature does not verify")
	}
	return ev, nil
}

// certURLAllowed compares scheme, host and path prefix of the parsed URL
// with each allowed prefix (the host exactly, port included), so
// "https://api.paypal.com.example/" or a URL with user info, a query, dot
// segments or escapes never passes. What follows the prefix must be one
// path segment of letters, digits, '.', '_' and '-' (a certificate name
// such as "CERT-360caa42-fca2a594-5edc0ebc").
func (c *Client) certURLAllowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawPath != "" || u.Opaque != "" {
		return false
	}
	if strings.Contains(u.Path, "..") || strings.Contains(u.Path, "//") || strings.HasSuffix(u.Path, "/") {
		return false
	}
	prefixes := c.CertURLPrefixes
	if prefixes == nil {
		prefixes = DefaultCertURLPrefixes
	}
	for _, p := range prefixes {
		pu, err := url.Parse(p)
		if err != nil || pu.Host == "" {
			continue
		}
		pp := pu.Path
		if !strings.HasSuffix(pp, "/") {
			pp += "/"
		}
		if strings.EqualFold(u.Scheme, pu.Scheme) && strings.EqualFold(u.Host, pu.Host) && strings.HasPrefix(u.Path, pp) &&
			certName(u.Path[len(pp):]) {
			return true
		}
	}
	return false
}

// certName: a non-empty single path segment of [A-Za-z0-9._-], at most 128.
func certName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// SafeCertURLPrefix is the webhook certificate prefix of an Orders v2 API
// other than PayPal's (a stand-alone built-in sandbox) at base: base's
// scheme, host and path plus "/v1/notifications/certs/". It refuses a base
// that is not a plain URL (user info, query, fragment), and plain http
// unless the host is a loopback address or localhost, so a webhook can
// make the shop fetch only from the API host it was configured with.
func SafeCertURLPrefix(base string) (string, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("paypal: base URL %q is not an http(s) URL with a host", base)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopbackHost(u.Hostname()) {
			return "", fmt.Errorf("paypal: base URL %q: plain http only to a loopback host; use https", base)
		}
	default:
		return "", fmt.Errorf("paypal: base URL %q is not an http(s) URL", base)
	}
	if strings.Contains(u.Path, "..") || strings.Contains(u.Path, "//") {
		return "", fmt.Errorf("paypal: base URL %q has dot or empty path segments", base)
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath() + "/v1/notifications/certs/", nil
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// cert returns the certificate at an allowed URL, from the cache or fetched.
func (c *Client) cert(ctx context.Context, certURL string) (*x509.Certificate, error) {
	now := c.now()
	c.certMu.Lock()
	if cert, ok := c.certs[certURL]; ok && now.Before(cert.NotAfter) {
		c.certMu.Unlock()
		return cert, nil
	}
	c.certMu.Unlock()
	v, err, _ := c.flight.Do("cert "+certURL, func() (any, error) { return c.fetchCert(ctx, certURL) })
	if err != nil {
		return nil, err
	}
	cert := v.(*x509.Certificate)
	c.certMu.Lock()
	if c.certs == nil || len(c.certs) >= 32 {
		c.certs = map[string]*x509.Certificate{}
	}
	c.certs[certURL] = cert
	c.certMu.Unlock()
	return cert, nil
}

func (c *Client) fetchCert(ctx context.Context, certURL string) (*x509.Certificate, error) {
	op := "GET " + certURL
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, certURL, nil)
	if err != nil {
		return nil, rejected("bad certificate URL")
	}
	// Redirects are not followed: the certificate comes from the allowed
	// URL itself, so a redirect cannot send the shop elsewhere.
	hc := *c.httpClient()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		return nil, &NetworkError{Op: op, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return nil, &NetworkError{Op: op, Err: err}
	}
	if resp.StatusCode != http.StatusOK {
		if resp.StatusCode >= 500 {
			return nil, &NetworkError{Op: op, Err: fmt.Errorf("status %d", resp.StatusCode)}
		}
		return nil, rejected("certificate URL answered %d", resp.StatusCode)
	}
	var certs []*x509.Certificate
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, rejected("unreadable certificate: %v", err)
		}
		certs = append(certs, cert)
	}
	if len(certs) == 0 {
		return nil, rejected("no certificate at %s", certURL)
	}
	leaf := certs[0]
	now := c.now()
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		return nil, rejected("certificate is not valid now")
	}
	if c.CertRoots != nil {
		inter := x509.NewCertPool()
		for _, ic := range certs[1:] {
			inter.AddCert(ic)
		}
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: c.CertRoots, Intermediates: inter, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err != nil {
			return nil, rejected("certificate chain: %v", err)
		}
	}
	return leaf, nil
}

// Event types the shop reacts to.
const (
	EventCaptureCompleted = "PAYMENT.CAPTURE.COMPLETED"
	EventCaptureDenied    = "PAYMENT.CAPTURE.DENIED"
	EventCapturePending   = "PAYMENT.CAPTURE.PENDING"
	EventCaptureRefunded  = "PAYMENT.CAPTURE.REFUNDED"
	EventOrderApproved    = "CHECKOUT.ORDER.APPROVED"
	EventOrderCompleted   = "CHECKOUT.ORDER.COMPLETED"
)

// Event is a webhook event. Resource is the raw JSON of the object the
// event is about (an order, a capture, a refund).
type Event struct {
	ID              string          `json:"id"`
	EventVersion    string          `json:"event_version,omitempty"`
	CreateTime      string          `json:"create_time,omitempty"`
	ResourceType    string          `json:"resource_type,omitempty"`
	ResourceVersion string          `json:"resource_version,omitempty"`
	EventType       string          `json:"event_type"`
	Summary         string          `json:"summary,omitempty"`
	Resource        json.RawMessage `json:"resource"`
	Links           []Link          `json:"links,omitempty"`
}

// ParseEvent reads an event body (without verifying it: see VerifyWebhook).
func ParseEvent(body []byte) (*Event, error) {
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, fmt.Errorf("paypal: webhook body is not an event: %w", err)
	}
	if ev.ID == "" || ev.EventType == "" || len(ev.Resource) == 0 {
		return nil, errors.New("paypal: webhook event lacks id, event_type or resource")
	}
	return &ev, nil
}

// EventRefs are the ids and state an event carries.
type EventRefs struct {
	OrderID   string // the PayPal order id
	CaptureID string // the capture id (capture events, a completed order)
	RefundID  string // the refund id (PAYMENT.CAPTURE.REFUNDED)
	Status    string // the resource's status
	Amount    *Money // the capture's or refund's amount, if any
	CustomID  string // the shop's custom_id, when the resource has it
	InvoiceID string
}

// resource decodes the event's resource into v.
func (e *Event) resource(v any) error {
	if err := json.Unmarshal(e.Resource, v); err != nil {
		return fmt.Errorf("paypal: %s resource: %w", e.EventType, err)
	}
	return nil
}

// Refs reads the PayPal order id and capture id from the resource of the
// events the shop handles: PAYMENT.CAPTURE.COMPLETED, DENIED and PENDING (a
// capture; the order id is supplementary_data.related_ids.order_id),
// PAYMENT.CAPTURE.REFUNDED (a refund; the capture id is related_ids.capture_id
// or the link rel "up"), CHECKOUT.ORDER.APPROVED and COMPLETED (an order; the
// capture id is the first capture's, if any). Other event types are an error.
func (e *Event) Refs() (EventRefs, error) {
	var r EventRefs
	switch e.EventType {
	case EventCaptureCompleted, EventCaptureDenied, EventCapturePending:
		var c Capture
		if err := e.resource(&c); err != nil {
			return r, err
		}
		r.CaptureID, r.Status, r.Amount, r.CustomID, r.InvoiceID = c.ID, c.Status, c.Amount, c.CustomID, c.InvoiceID
		if c.SupplementaryData != nil {
			r.OrderID = c.SupplementaryData.RelatedIDs.OrderID
		}
	case EventCaptureRefunded:
		var rf Refund
		if err := e.resource(&rf); err != nil {
			return r, err
		}
		r.RefundID, r.Status, r.Amount, r.CustomID, r.InvoiceID = rf.ID, rf.Status, rf.Amount, rf.CustomID, rf.InvoiceID
		if rf.SupplementaryData != nil {
			r.OrderID = rf.SupplementaryData.RelatedIDs.OrderID
			r.CaptureID = rf.SupplementaryData.RelatedIDs.CaptureID
		}
		if r.CaptureID == "" {
			for _, l := range rf.Links {
				if l.Rel == "up" {
					r.CaptureID = l.Href[strings.LastIndex(l.Href, "/")+1:]
				}
			}
		}
	case EventOrderApproved, EventOrderCompleted:
		var o Order
		if err := e.resource(&o); err != nil {
			return r, err
		}
		r.OrderID, r.Status = o.ID, o.Status
		if len(o.PurchaseUnits) > 0 {
			r.CustomID, r.InvoiceID = o.PurchaseUnits[0].CustomID, o.PurchaseUnits[0].InvoiceID
		}
		if caps := o.Captures(); len(caps) > 0 {
			r.CaptureID, r.Amount = caps[0].ID, caps[0].Amount
		}
	default:
		return r, fmt.Errorf("paypal: unhandled event type %q", e.EventType)
	}
	if r.OrderID == "" && r.CaptureID == "" && r.RefundID == "" {
		return r, fmt.Errorf("paypal: %s event %s names no order or capture", e.EventType, e.ID)
	}
	return r, nil
}
