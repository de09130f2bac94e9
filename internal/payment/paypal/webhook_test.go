package paypal_test

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
)

// signed returns a body and the headers the sandbox signs it with.
func signed(t *testing.T, e *env) ([]byte, http.Header) {
	t.Helper()
	id := e.approved("create-1", "paypal")
	if _, err := e.c.CaptureOrder(ctx(t), id, "capture-1"); err != nil {
		t.Fatal(err)
	}
	evs := e.sb.Events()
	last := evs[len(evs)-1]
	if last.Type != paypal.EventCaptureCompleted {
		t.Fatalf("last event %s", last.Type)
	}
	return last.Body, e.sb.SignHeaders(last.Body)
}

func TestVerifyWebhookValid(t *testing.T) {
	e := newEnv(t)
	body, h := signed(t, e)
	ev, err := e.c.VerifyWebhook(ctx(t), h, body)
	if err != nil {
		t.Fatalf("valid delivery refused: %v", err)
	}
	refs, err := ev.Refs()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := e.sb.Order(refs.OrderID)
	if refs.OrderID == "" || refs.CaptureID != o.Captures()[0].ID || refs.Status != "COMPLETED" || refs.Amount.Value != "34.39" || refs.CustomID != "1001" {
		t.Fatalf("refs = %+v", refs)
	}
	if ev.ResourceType != "capture" || ev.CreateTime == "" || !strings.HasPrefix(ev.ID, "WH-") {
		t.Fatalf("event = %+v", ev)
	}
}

func TestVerifyWebhookRejections(t *testing.T) {
	e := newEnv(t)
	body, good := signed(t, e)
	clone := func(edit func(h http.Header)) http.Header {
		h := good.Clone()
		edit(h)
		return h
	}
	otherSig := e.sb.SignHeaders([]byte(`{"id":"WH-OTHER"}`)).Get(paypal.HeaderTransmissionSig)
	cases := []struct {
		name string
		h    http.Header
		body []byte
	}{
		{"unsigned", clone(func(h http.Header) { h.Del(paypal.HeaderTransmissionSig) }), body},
		{"no headers at all", http.Header{}, body},
		{"wrong signature", clone(func(h http.Header) { h.Set(paypal.HeaderTransmissionSig, otherSig) }), body},
		{"signature not base64", clone(func(h http.Header) { h.Set(paypal.HeaderTransmissionSig, "!!!") }), body},
		{"body changed after signing", good, []byte(strings.Replace(string(body), "34.39", "0.01", 1))},
		{"transmission id changed", clone(func(h http.Header) { h.Set(paypal.HeaderTransmissionID, "other") }), body},
		{"cert URL off the allow-list", clone(func(h http.Header) {
			h.Set(paypal.HeaderCertURL, strings.Replace(h.Get(paypal.HeaderCertURL), "127.0.0.1", "127.0.0.2", 1))
		}), body},
		{"cert URL host suffix trick", clone(func(h http.Header) {
			h.Set(paypal.HeaderCertURL, "https://api.paypal.com.example.com/v1/notifications/certs/CERT-1")
		}), body},
		{"cert URL with dot segments", clone(func(h http.Header) {
			h.Set(paypal.HeaderCertURL, e.sb.CertURLPrefix()+"../../../evil")
		}), body},
		{"cert URL with user info", clone(func(h http.Header) {
			h.Set(paypal.HeaderCertURL, strings.Replace(e.sb.CertURL(), "http://", "http://evil@", 1))
		}), body},
		{"transmission time 6 minutes old", clone(func(h http.Header) {
			h.Set(paypal.HeaderTransmissionTime, time.Now().Add(-6*time.Minute).UTC().Format(time.RFC3339))
		}), body},
		{"transmission time 6 minutes ahead", clone(func(h http.Header) {
			h.Set(paypal.HeaderTransmissionTime, time.Now().Add(6*time.Minute).UTC().Format(time.RFC3339))
		}), body},
		{"transmission time unreadable", clone(func(h http.Header) { h.Set(paypal.HeaderTransmissionTime, "yesterday") }), body},
		{"wrong algorithm", clone(func(h http.Header) { h.Set(paypal.HeaderAuthAlgo, "SHA1withRSA") }), body},
		{"body not an event", e.sb.SignHeaders([]byte(`{"x":1}`)), []byte(`{"x":1}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := e.c.VerifyWebhook(ctx(t), c.h, c.body)
			if err == nil || ev != nil || !errors.Is(err, paypal.ErrWebhookRejected) {
				t.Fatalf("accepted or wrong error: %v", err)
			}
		})
	}
	// The signature covers the webhook id: a client with another id refuses.
	other := &paypal.Client{BaseURL: e.c.BaseURL, HTTP: e.c.HTTP, WebhookID: "WH-OTHER", CertURLPrefixes: e.c.CertURLPrefixes}
	if _, err := other.VerifyWebhook(ctx(t), good, body); !errors.Is(err, paypal.ErrWebhookRejected) {
		t.Fatalf("other webhook id: %v", err)
	}
	// A delivery signed at the right time but checked 6 minutes later.
	late := &paypal.Client{HTTP: e.c.HTTP, WebhookID: "WH-TEST", CertURLPrefixes: e.c.CertURLPrefixes, Now: func() time.Time { return time.Now().Add(6 * time.Minute) }}
	if _, err := late.VerifyWebhook(ctx(t), good, body); !errors.Is(err, paypal.ErrWebhookRejected) {
		t.Fatalf("checked late: %v", err)
	}
	// The default allow-list is PayPal's own hosts only.
	dflt := &paypal.Client{HTTP: e.c.HTTP, WebhookID: "WH-TEST"}
	if _, err := dflt.VerifyWebhook(ctx(t), good, body); !errors.Is(err, paypal.ErrWebhookRejected) {
		t.Fatalf("default allow-list accepted the sandbox: %v", err)
	}
	// The good delivery still passes after all that.
	if _, err := e.c.VerifyWebhook(ctx(t), good, body); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyWebhookCachesCertificate(t *testing.T) {
	e := newEnv(t)
	var certFetches atomic.Int32
	e.c.HTTP = &http.Client{Transport: countingTransport{base: http.DefaultTransport, count: func(r *http.Request) {
		if strings.Contains(r.URL.Path, "/v1/notifications/certs/") {
			certFetches.Add(1)
		}
	}}}
	body, _ := signed(t, e)
	for range 5 {
		if _, err := e.c.VerifyWebhook(ctx(t), e.sb.SignHeaders(body), body); err != nil {
			t.Fatal(err)
		}
	}
	if n := certFetches.Load(); n != 1 {
		t.Fatalf("certificate fetched %d times, want 1", n)
	}
}

func TestVerifyWebhookCertRoots(t *testing.T) {
	e := newEnv(t)
	body, h := signed(t, e)
	e.c.CertRoots = e.sb.CertPool()
	if _, err := e.c.VerifyWebhook(ctx(t), h, body); err != nil {
		t.Fatalf("with the sandbox's root: %v", err)
	}
	strict := &paypal.Client{HTTP: e.c.HTTP, WebhookID: "WH-TEST", CertURLPrefixes: e.c.CertURLPrefixes, CertRoots: x509.NewCertPool()}
	if _, err := strict.VerifyWebhook(ctx(t), h, body); !errors.Is(err, paypal.ErrWebhookRejected) {
		t.Fatalf("with a foreign root: %v", err)
	}
}

func TestVerifyWebhookCertUnreachableIsTransient(t *testing.T) {
	e := newEnv(t)
	body, h := signed(t, e)
	e.srv.Close()
	_, err := e.c.VerifyWebhook(ctx(t), h, body)
	if err == nil || errors.Is(err, paypal.ErrWebhookRejected) || !paypal.IsNetworkError(err) {
		t.Fatalf("err = %v, want a transient network error", err)
	}
}

func TestEventRefs(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paypal")
	o, err := e.c.CaptureOrder(ctx(t), id, "cap")
	if err != nil {
		t.Fatal(err)
	}
	capID := o.Captures()[0].ID
	for _, typ := range []string{paypal.EventOrderApproved, paypal.EventOrderCompleted, paypal.EventCaptureCompleted, paypal.EventCaptureDenied, paypal.EventCapturePending, paypal.EventCaptureRefunded} {
		evID, err := e.sb.SendEvent(typ, id)
		if err != nil {
			t.Fatal(err)
		}
		var body []byte
		for _, ev := range e.sb.Events() {
			if ev.ID == evID {
				body = ev.Body
			}
		}
		ev, err := e.c.VerifyWebhook(ctx(t), e.sb.SignHeaders(body), body)
		if err != nil {
			t.Fatal(err)
		}
		if ev.EventType != typ {
			t.Fatalf("type %s", ev.EventType)
		}
		refs, err := ev.Refs()
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if refs.OrderID != id {
			t.Errorf("%s: order id %q, want %q", typ, refs.OrderID, id)
		}
		wantCap := capID
		if refs.CaptureID != wantCap {
			t.Errorf("%s: capture id %q, want %q", typ, refs.CaptureID, wantCap)
		}
		switch typ {
		case paypal.EventCaptureDenied:
			if refs.Status != "DECLINED" {
				t.Errorf("denied status %q", refs.Status)
			}
		case paypal.EventCaptureRefunded:
			if refs.RefundID == "" || refs.Amount == nil || refs.Amount.Value != "34.39" {
				t.Errorf("refund refs %+v", refs)
			}
		}
	}
	// An event of another type is parsed but has no refs.
	ev, err := paypal.ParseEvent([]byte(`{"id":"WH-1","event_type":"BILLING.PLAN.CREATED","resource":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Refs(); err == nil {
		t.Fatal("unhandled type gave refs")
	}
	for _, bad := range []string{`{}`, `[]`, `{"id":"WH-1","event_type":"X"}`, `not json`} {
		if _, err := paypal.ParseEvent([]byte(bad)); err == nil {
			t.Errorf("ParseEvent(%s) accepted", bad)
		}
	}
	var raw map[string]any
	if err := json.Unmarshal(e.sb.Events()[0].Body, &raw); err != nil || raw["event_version"] != "1.0" {
		t.Fatalf("event body %v", raw)
	}
}

func TestSignedStringFormat(t *testing.T) {
	// CRC-32 IEEE of "hello" is 907060870 (0x3610a686), written unsigned.
	if got := paypal.SignedString("tid", "2024-01-01T00:00:00Z", "WH", []byte("hello")); got != "tid|2024-01-01T00:00:00Z|WH|907060870" {
		t.Fatalf("SignedString = %q", got)
	}
	// A checksum with the high bit set stays positive.
	if got := paypal.SignedString("a", "b", "c", []byte("a")); got != "a|b|c|3904355907" {
		t.Fatalf("SignedString = %q", got)
	}
}
