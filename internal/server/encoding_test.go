package server_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// With the page cache off a page is compressed for its answer only, in the
// encoding the client takes; the bodies still decode to the same page, and
// the ETag is the page's whatever the encoding.
func TestUncachedPageEncodings(t *testing.T) {
	t.Parallel()
	srv := newServer(t, storetest.Open(t, sqlstore.SQLite), "", 0, server.Config{BaseURL: "http://localhost", CacheBytes: 0, CacheMaxAge: time.Minute})
	get := func(accept string) *httptest.ResponseRecorder {
		return serve(t, srv, "/product/classic-tee/", accept, "miss")
	}
	plain := get("")
	if plain.Header().Get("Content-Encoding") != "" || !strings.Contains(plain.Body.String(), "Classic Tee") {
		t.Fatalf("identity answer: encoding %q", plain.Header().Get("Content-Encoding"))
	}
	for _, tc := range []struct {
		accept, want string
		decode       func(io.Reader) (io.Reader, error)
	}{
		{"gzip, deflate, br", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	} {
		w := get(tc.accept)
		if got := w.Header().Get("Content-Encoding"); got != tc.want {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.want)
		}
		if w.Header().Get("ETag") != plain.Header().Get("ETag") {
			t.Fatalf("%s: ETag %q differs from the identity answer's %q", tc.want, w.Header().Get("ETag"), plain.Header().Get("ETag"))
		}
		if w.Header().Get("Content-Length") == "" || w.Body.Len() >= plain.Body.Len() {
			t.Fatalf("%s: %d bytes, Content-Length %q, against %d plain", tc.want, w.Body.Len(), w.Header().Get("Content-Length"), plain.Body.Len())
		}
		rd, err := tc.decode(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rd)
		if err != nil || !bytes.Equal(body, plain.Body.Bytes()) {
			t.Fatalf("%s body does not decode to the page (%v)", tc.want, err)
		}
	}
}
