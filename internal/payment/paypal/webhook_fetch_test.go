package paypal_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
)

// TestVerifyWebhookFetchesNothingForBadDeliveries: a delivery that lacks a
// header, carries a malformed signature, a transmission time out of the
// window, a body that is not an event, or a certificate URL off the
// allow-list makes the client fetch nothing at all: every request the
// client sends is counted, and so is every request a foreign host gets.
func TestVerifyWebhookFetchesNothingForBadDeliveries(t *testing.T) {
	e := newEnv(t)
	body, good := signed(t, e)

	var sent, foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		http.Error(w, "no", http.StatusNotFound)
	}))
	t.Cleanup(foreign.Close)
	counting := &http.Client{Transport: countingTransport{base: http.DefaultTransport, count: func(*http.Request) { sent.Add(1) }}}
	c := &paypal.Client{HTTP: counting, WebhookID: "WH-TEST", CertURLPrefixes: []string{e.sb.CertURLPrefix()}}
	dflt := &paypal.Client{HTTP: counting, WebhookID: "WH-TEST"} // PayPal's own hosts only

	clone := func(edit func(h http.Header)) http.Header {
		h := good.Clone()
		edit(h)
		return h
	}
	set := func(k, v string) http.Header { return clone(func(h http.Header) { h.Set(k, v) }) }
	del := func(k string) http.Header { return clone(func(h http.Header) { h.Del(k) }) }
	short := base64.StdEncoding.EncodeToString([]byte("abc"))
	certName := good.Get(paypal.HeaderCertURL)[len(e.sb.CertURLPrefix()):]
	cases := []struct {
		name   string
		client *paypal.Client
		h      http.Header
		body   []byte
	}{
		{"unsigned", c, del(paypal.HeaderTransmissionSig), body},
		{"no headers", c, http.Header{}, body},
		{"no transmission id", c, del(paypal.HeaderTransmissionID), body},
		{"no transmission time", c, del(paypal.HeaderTransmissionTime), body},
		{"no cert URL", c, del(paypal.HeaderCertURL), body},
		{"no auth algo", c, del(paypal.HeaderAuthAlgo), body},
		{"wrong auth algo", c, set(paypal.HeaderAuthAlgo, "SHA1withRSA"), body},
		{"signature not base64", c, set(paypal.HeaderTransmissionSig, "%%%"), body},
		{"signature too short", c, set(paypal.HeaderTransmissionSig, short), body},
		{"signature oversized", c, set(paypal.HeaderTransmissionSig, strings.Repeat("A", 4096)), body},
		{"time too old", c, set(paypal.HeaderTransmissionTime, time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)), body},
		{"time in the future", c, set(paypal.HeaderTransmissionTime, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), body},
		{"time unreadable", c, set(paypal.HeaderTransmissionTime, "now"), body},
		{"body not an event", c, good, []byte(`{"not":"an event"}`)},
		{"foreign host", c, set(paypal.HeaderCertURL, foreign.URL+"/v1/notifications/certs/"+certName), body},
		{"foreign host, default allow-list", dflt, set(paypal.HeaderCertURL, foreign.URL+"/v1/notifications/certs/"+certName), body},
		{"host suffix trick", dflt, set(paypal.HeaderCertURL, "https://api.paypal.com.evil.example/v1/notifications/certs/CERT-1"), body},
		{"host prefix trick", dflt, set(paypal.HeaderCertURL, "https://evil.example/https://api.paypal.com/v1/notifications/certs/CERT-1"), body},
		{"userinfo trick", dflt, set(paypal.HeaderCertURL, "https://api.paypal.com@evil.example/v1/notifications/certs/CERT-1"), body},
		{"plain http to PayPal", dflt, set(paypal.HeaderCertURL, "http://api.paypal.com/v1/notifications/certs/CERT-1"), body},
		{"PayPal host with a port", dflt, set(paypal.HeaderCertURL, "https://api.paypal.com:8443/v1/notifications/certs/CERT-1"), body},
		{"PayPal host, other path", dflt, set(paypal.HeaderCertURL, "https://api.paypal.com/v1/oauth2/token"), body},
		{"sub-path under the prefix", c, set(paypal.HeaderCertURL, e.sb.CertURLPrefix()+"a/"+certName), body},
		{"query on the cert URL", c, set(paypal.HeaderCertURL, e.sb.CertURL()+"?x=1"), body},
		{"encoded slash", c, set(paypal.HeaderCertURL, e.sb.CertURLPrefix()+"a%2F..%2F"+certName), body},
		{"prefix only", c, set(paypal.HeaderCertURL, e.sb.CertURLPrefix()), body},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, beforeForeign := sent.Load(), foreignHits.Load()
			// A fresh client each time, so no cached certificate hides a fetch.
			cl := &paypal.Client{HTTP: counting, WebhookID: "WH-TEST", CertURLPrefixes: tc.client.CertURLPrefixes}
			ev, err := cl.VerifyWebhook(ctx(t), tc.h, tc.body)
			if err == nil || ev != nil || !errors.Is(err, paypal.ErrWebhookRejected) {
				t.Fatalf("accepted or wrong error: %v", err)
			}
			if n := sent.Load() - before; n != 0 {
				t.Errorf("%d requests sent for a delivery that must be refused unfetched", n)
			}
			if n := foreignHits.Load() - beforeForeign; n != 0 {
				t.Errorf("the foreign host got %d requests", n)
			}
		})
	}
	// The good delivery fetches the certificate once and passes: the
	// counter above does count.
	if _, err := c.VerifyWebhook(ctx(t), good, body); err != nil {
		t.Fatal(err)
	}
	if n := sent.Load(); n != 1 {
		t.Fatalf("good delivery: %d requests, want 1", n)
	}
}

// TestVerifyWebhookDoesNotFollowCertRedirects: an allowed certificate URL
// that redirects elsewhere is refused without the other host being asked.
func TestVerifyWebhookDoesNotFollowCertRedirects(t *testing.T) {
	e := newEnv(t)
	body, good := signed(t, e)
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		http.Redirect(w, r, e.sb.CertURL(), http.StatusFound)
	}))
	t.Cleanup(foreign.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, foreign.URL+"/cert.pem", http.StatusFound)
	}))
	t.Cleanup(redirector.Close)
	c := &paypal.Client{WebhookID: "WH-TEST", CertURLPrefixes: []string{redirector.URL + "/v1/notifications/certs/"}}
	h := good.Clone()
	h.Set(paypal.HeaderCertURL, redirector.URL+"/v1/notifications/certs/CERT-1")
	if _, err := c.VerifyWebhook(ctx(t), h, body); !errors.Is(err, paypal.ErrWebhookRejected) {
		t.Fatalf("redirected certificate: %v", err)
	}
	if n := foreignHits.Load(); n != 0 {
		t.Fatalf("the redirect target got %d requests", n)
	}
}

func TestSafeCertURLPrefix(t *testing.T) {
	good := map[string]string{
		"https://pp.example.com":            "https://pp.example.com/v1/notifications/certs/",
		"https://pp.example.com/api/":       "https://pp.example.com/api/v1/notifications/certs/",
		"http://127.0.0.1:8081":             "http://127.0.0.1:8081/v1/notifications/certs/",
		"http://localhost:8081/_sandbox/pp": "http://localhost:8081/_sandbox/pp/v1/notifications/certs/",
		"http://[::1]:9000":                 "http://[::1]:9000/v1/notifications/certs/",
	}
	for base, want := range good {
		if got, err := paypal.SafeCertURLPrefix(base); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", base, got, err, want)
		}
	}
	for _, base := range []string{"", "pp.example.com", "http://pp.example.com", "http://10.0.0.5:8081", "ftp://pp.example.com",
		"https://user:pw@pp.example.com", "https://pp.example.com/?x=1", "https://pp.example.com/#f", "https://pp.example.com/a/../b",
		"http://localhost.evil.example:8081"} {
		if got, err := paypal.SafeCertURLPrefix(base); err == nil {
			t.Errorf("%q accepted as %q", base, got)
		}
	}
}
