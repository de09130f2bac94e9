package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLogValuesBounded: what the request log line takes from the client is
// bounded: the method comes from a closed set, the path is cut.
func TestLogValuesBounded(t *testing.T) {
	t.Parallel()
	for m, want := range map[string]string{"GET": "GET", "PATCH": "PATCH", "get": methodOther, strings.Repeat("X", 60000): methodOther, "PROPFIND": methodOther} {
		if got := methodLabel(m); got != want {
			t.Errorf("methodLabel(%.10q) = %q, want %q", m, got, want)
		}
	}
	r := httptest.NewRequest("GET", "/"+strings.Repeat("é", 20000), nil)
	p := logPath(r)
	if len(p) > maxLogPath+len("…") || !utf8.ValidString(p) || !strings.HasPrefix(p, "/éé") {
		t.Errorf("logged path: %d bytes, valid UTF-8 %v", len(p), utf8.ValidString(p))
	}
	if p := logPath(httptest.NewRequest("GET", "/shop/", nil)); p != "/shop/" {
		t.Errorf("a short path was changed: %q", p)
	}
}
