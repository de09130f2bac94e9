package paypalsandbox

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"sync"
	"time"

	"vitrine/internal/payment/paypal"
)

// signer holds the webhook signing key and its self-signed certificate.
type signer struct {
	key     *rsa.PrivateKey
	cert    *x509.Certificate
	certPEM []byte
	name    string // the certificate's file name in its URL
}

var (
	signerOnce sync.Once
	theSigner  *signer
)

// sharedSigner generates the RSA key and certificate once per process.
func sharedSigner() *signer {
	signerOnce.Do(func() {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
		tmpl := &x509.Certificate{
			SerialNumber:          serial,
			Subject:               pkix.Name{CommonName: "messageverificationcerts.sandbox.vitrine.invalid", Organization: []string{"Vitrine PayPal sandbox"}},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().AddDate(5, 0, 0),
			KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
			BasicConstraintsValid: true,
			IsCA:                  true,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			panic(err)
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(der)
		h := hex.EncodeToString(sum[:12])
		theSigner = &signer{
			key:     key,
			cert:    cert,
			certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
			name:    "CERT-" + h[:8] + "-" + h[8:16] + "-" + h[16:24],
		}
	})
	return theSigner
}

// CertPool holds the sandbox's webhook certificate, for
// paypal.Client.CertRoots.
func (s *Sandbox) CertPool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(s.signer.cert)
	return p
}

// CertURL is where the webhook certificate is served.
func (s *Sandbox) CertURL() string { return s.CertURLPrefix() + s.signer.name }

func (s *Sandbox) serveCert(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusMethodNotAllowed, "METHOD_NOT_SUPPORTED", "The server does not implement the requested HTTP method.")
		return
	}
	if name != s.signer.name {
		writeError(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", msg404)
		return
	}
	w.Header().Set("Content-Type", "application/x-pem-file")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(s.signer.certPEM)
}

// Event is a webhook event the sandbox emitted, with its delivery record.
type Event struct {
	ID        string
	Type      string
	Body      []byte // the JSON delivered
	Attempts  int    // deliveries tried
	Delivered bool   // a delivery was answered 2xx
	LastError string // the last failed delivery's status or error
}

// Events returns copies of every emitted event, oldest first.
func (s *Sandbox) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Event, len(s.events))
	for i, e := range s.events {
		out[i] = *e
		out[i].Body = bytes.Clone(e.Body)
	}
	return out
}

var summaries = map[string]string{
	paypal.EventOrderApproved:    "An order has been approved by buyer",
	paypal.EventOrderCompleted:   "Checkout Order Completed",
	paypal.EventCaptureCompleted: "Payment completed",
	paypal.EventCapturePending:   "Payment pending",
	paypal.EventCaptureDenied:    "Payment denied",
	paypal.EventCaptureRefunded:  "Payment refunded",
}

// emit records an event and, when a webhook URL is configured, delivers it
// in the background (s.mu held).
func (s *Sandbox) emit(eventType, resourceType string, resource any) *Event {
	id := "WH-" + newID(17, true) + "-" + newID(17, true)
	base := s.baseURL
	body, err := json.Marshal(map[string]any{
		"id":               id,
		"event_version":    "1.0",
		"create_time":      s.now().UTC().Format(time.RFC3339Nano),
		"resource_type":    resourceType,
		"resource_version": "2.0",
		"event_type":       eventType,
		"summary":          summaries[eventType],
		"resource":         resource,
		"links": []paypal.Link{
			{Href: base + "/v1/notifications/webhooks-events/" + id, Rel: "self", Method: "GET"},
			{Href: base + "/v1/notifications/webhooks-events/" + id + "/resend", Rel: "resend", Method: "POST"},
		},
	})
	if err != nil {
		panic(err)
	}
	ev := &Event{ID: id, Type: eventType, Body: body}
	s.events = append(s.events, ev)
	if s.cfg.WebhookURL != "" && s.ctx.Err() == nil {
		s.wg.Add(1)
		go s.deliverLoop(ev)
	}
	return ev
}

func (s *Sandbox) emitOrder(eventType string, o paypal.Order) *Event {
	return s.emit(eventType, "checkout-order", cloneOrder(o))
}

func (s *Sandbox) emitCapture(eventType, orderID string, c paypal.Capture) *Event {
	c.SupplementaryData = &paypal.SupplementaryData{RelatedIDs: paypal.RelatedIDs{OrderID: orderID}}
	return s.emit(eventType, "capture", c)
}

// deliverLoop tries a delivery until a 2xx, with doubling waits.
func (s *Sandbox) deliverLoop(ev *Event) {
	defer s.wg.Done()
	wait := s.cfg.WebhookBackoff
	for attempt := 0; attempt < s.cfg.WebhookAttempts; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-s.ctx.Done():
				t.Stop()
				return
			}
			wait *= 2
		}
		if s.deliver(ev) == nil {
			return
		}
	}
}

// deliver sends one signed delivery of an event and records the outcome.
func (s *Sandbox) deliver(ev *Event) error {
	s.mu.Lock()
	body := ev.Body
	ev.Attempts++
	s.mu.Unlock()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, s.cfg.WebhookURL, bytes.NewReader(body))
	if err == nil {
		req.Header = s.SignHeaders(body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "Vitrine-PayPal-Sandbox/1.0")
		var resp *http.Response
		if resp, err = s.cfg.WebhookClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				err = fmt.Errorf("webhook answered %d", resp.StatusCode)
			}
		}
	}
	s.mu.Lock()
	if err == nil {
		ev.Delivered = true
	} else {
		ev.LastError = err.Error()
	}
	s.mu.Unlock()
	return err
}

// SignHeaders returns the PAYPAL-* headers that sign body as a delivery
// now: a new transmission id, the time, the certificate URL, the algorithm
// and the signature of transmission_id|time|webhook_id|crc32(body).
func (s *Sandbox) SignHeaders(body []byte) http.Header {
	tid := newID(8, false) + "-" + newID(4, false) + "-" + newID(4, false) + "-" + newID(4, false) + "-" + newID(12, false)
	ttime := s.now().UTC().Format(time.RFC3339)
	sum := sha256.Sum256([]byte(paypal.SignedString(tid, ttime, s.cfg.WebhookID, body)))
	sig, err := rsa.SignPKCS1v15(rand.Reader, s.signer.key, crypto.SHA256, sum[:])
	if err != nil {
		panic(err)
	}
	h := http.Header{}
	h.Set(paypal.HeaderTransmissionID, tid)
	h.Set(paypal.HeaderTransmissionTime, ttime)
	h.Set(paypal.HeaderTransmissionSig, base64.StdEncoding.EncodeToString(sig))
	h.Set(paypal.HeaderCertURL, s.CertURL())
	h.Set(paypal.HeaderAuthAlgo, paypal.AuthAlgo)
	return h
}

// Redeliver sends an emitted event once more, now, with a fresh signature
// (the event id stays the same, as PayPal's resends), and reports the
// delivery's outcome.
func (s *Sandbox) Redeliver(eventID string) error {
	if s.cfg.WebhookURL == "" {
		return fmt.Errorf("paypalsandbox: no webhook URL configured")
	}
	s.mu.Lock()
	var ev *Event
	for _, e := range s.events {
		if e.ID == eventID {
			ev = e
		}
	}
	s.mu.Unlock()
	if ev == nil {
		return fmt.Errorf("paypalsandbox: no event %q", eventID)
	}
	return s.deliver(ev)
}

// SendEvent emits an event of any handled type about an order, from the
// order's current state, without changing it (to test late, duplicate or
// out-of-order deliveries): CHECKOUT.ORDER.APPROVED and COMPLETED carry the
// order; PAYMENT.CAPTURE.COMPLETED, PENDING and DENIED carry the order's
// first capture (with that status); PAYMENT.CAPTURE.REFUNDED carries a new
// refund of it. It returns the event id; delivery is asynchronous as usual.
func (s *Sandbox) SendEvent(eventType, orderID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.orders[orderID]
	if !ok {
		return "", errNotFound
	}
	switch eventType {
	case paypal.EventOrderApproved, paypal.EventOrderCompleted:
		return s.emitOrder(eventType, o.o).ID, nil
	}
	caps := o.o.Captures()
	if len(caps) == 0 {
		return "", fmt.Errorf("paypalsandbox: order %s has no capture", orderID)
	}
	c := caps[0]
	switch eventType {
	case paypal.EventCaptureCompleted:
		c.Status, c.StatusDetails = paypal.CaptureStatusCompleted, nil
	case paypal.EventCapturePending:
		c.Status, c.StatusDetails = paypal.CaptureStatusPending, &paypal.StatusDetails{Reason: "PENDING_REVIEW"}
	case paypal.EventCaptureDenied:
		c.Status, c.StatusDetails = paypal.CaptureStatusDeclined, nil
	case paypal.EventCaptureRefunded:
		id := newID(17, true)
		now := s.stamp()
		rf := paypal.Refund{
			ID: id, Status: "COMPLETED", Amount: c.Amount, InvoiceID: c.InvoiceID, CustomID: c.CustomID,
			SupplementaryData: &paypal.SupplementaryData{RelatedIDs: paypal.RelatedIDs{OrderID: orderID, CaptureID: c.ID}},
			CreateTime:        now, UpdateTime: now,
			Links: []paypal.Link{
				{Href: s.baseURL + "/v2/payments/refunds/" + id, Rel: "self", Method: "GET"},
				{Href: s.baseURL + "/v2/payments/captures/" + c.ID, Rel: "up", Method: "GET"},
			},
		}
		return s.emit(eventType, "refund", rf).ID, nil
	default:
		return "", fmt.Errorf("paypalsandbox: unsupported event type %q", eventType)
	}
	return s.emitCapture(eventType, orderID, c).ID, nil
}
