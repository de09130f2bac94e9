// Package servertest holds what the tests that drive the HTTP server
// through httptest share: a browser's cookie jar, form requests, the built
// web app the server renders with, starting a server for the length of a
// test, and a mail sender to a real SMTP server.
package servertest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	vmail "vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/render"
	"vitrine/web"
)

// Jar is a browser's cookies by name: it sends them all with a request and
// keeps the ones the answer sets, dropping those it deletes (expired or
// emptied).
type Jar map[string]*http.Cookie

// Serve serves req on h with the jar's cookies and keeps the cookies the
// answer sets.
func (j Jar) Serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	for _, c := range j {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(j, c.Name)
		} else {
			j[c.Name] = c
		}
	}
	return rec
}

// FormRequest is a request for target that posts form URL-encoded, or one
// without a body when form is nil.
func FormRequest(method, target string, form url.Values) *http.Request {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, target, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req
}

// Starter is a server whose background work Start starts.
type Starter interface {
	Start(ctx context.Context) error
}

// Start starts s's background work with a context cancelled when the test
// ends.
func Start(tb testing.TB, s Starter) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	if err := s.Start(ctx); err != nil {
		tb.Fatal(err)
	}
}

// WebApp is the built web app's client files and the assets of its entry
// (web/dist: build the web app first).
func WebApp(tb testing.TB) (fs.FS, render.Assets) {
	tb.Helper()
	client, err := web.Client()
	if err != nil {
		tb.Fatal(err)
	}
	assets, err := render.LoadAssets(client, "src/entry-client.tsx")
	if err != nil {
		tb.Fatalf("assets (build the web app first): %v", err)
	}
	return client, assets
}

// SMTPSender starts an SMTP server for the test and answers a sender to it
// (from shop@shop.example, no TLS) and the server's sink.
func SMTPSender(t *testing.T) (*vmail.SMTPSender, *mailtest.Sink) {
	t.Helper()
	sink := mailtest.Start(t, mailtest.Options{})
	cfg, err := vmail.ParseSMTPURL(fmt.Sprintf("smtp://%s?tls=none&from=shop@shop.example", sink.Addr))
	if err != nil {
		t.Fatal(err)
	}
	sender, err := vmail.NewSMTPSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sender, sink
}
