package app

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestParseDemoAndRemovedFlags: --demo is off by default; the removed
// --paypal-sandbox and --no-seed flags, and VITRINE_PAYPAL_SANDBOX=true,
// are refused with a message naming --demo; a non-PayPal API base must be
// https (or http to loopback).
func TestParseDemoAndRemovedFlags(t *testing.T) {
	c, err := parseFlags(nil, nil)
	if err != nil || c.Demo {
		t.Fatalf("default demo = %v (%v)", c.Demo, err)
	}
	if c, err := parseFlags([]string{"--demo"}, nil); err != nil || !c.Demo {
		t.Fatalf("--demo: %v %v", c.Demo, err)
	}
	for _, args := range [][]string{{"--paypal-sandbox"}, {"--paypal-sandbox=false"}, {"-paypal-sandbox", "true"}, {"serve", "--no-seed"}, {"--no-seed=true"}} {
		if _, err := parseFlags(args, nil); err == nil || !strings.Contains(err.Error(), "--demo") || !strings.Contains(err.Error(), "removed") {
			t.Errorf("%v: %v", args, err)
		}
	}
	if _, err := parseFlags(nil, map[string]string{"VITRINE_PAYPAL_SANDBOX": "true"}); err == nil || !strings.Contains(err.Error(), "--demo") {
		t.Errorf("VITRINE_PAYPAL_SANDBOX=true: %v", err)
	}
	for _, base := range []string{"http://paypal.example", "ftp://x", "https://u:p@x.example"} {
		if _, err := parseFlags([]string{"--paypal-client-id", "id", "--paypal-base-url", base}, nil); err == nil {
			t.Errorf("--paypal-base-url %s accepted", base)
		}
	}
	for _, base := range []string{"https://api-m.paypal.com", "http://127.0.0.1:8081", "https://pp.example/api"} {
		if _, err := parseFlags([]string{"--paypal-client-id", "id", "--paypal-base-url", base}, nil); err != nil {
			t.Errorf("--paypal-base-url %s: %v", base, err)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's logger and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runServe runs `vitrine serve` with args on a fresh SQLite store and a
// free loopback port until the test ends; it answers the base URL.
func runServe(t *testing.T, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan error, 1)
	// No metrics listener unless args ask for one: the default port may be
	// another program's on this machine.
	all := append([]string{"serve", "--addr", addr, "--db", "sqlite:" + filepath.Join(t.TempDir(), "v.db"),
		"--render-workers", "1", "--log-level", "warn", "--metrics-addr", "off"}, args...)
	go func() { done <- Run(ctx, all, env(nil), io.Discard, logs) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v\n%s", err, logs.String())
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("serve ended: %v\n%s", err, logs.String())
		default:
		}
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return base
			}
		}
	}
	t.Fatalf("never ready:\n%s", logs.String())
	return ""
}

func fetch(t *testing.T, method, url string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r, string(b)
}

// TestServeDemoMode: a plain `serve` seeds nothing, mounts no sandbox and
// has no wallet (its webhook route is the API's 404); `serve --demo` seeds
// the demo catalogue and serves the built-in sandbox, behind the shop's
// security headers and cross-origin check, with the wallet on.
func TestServeDemoMode(t *testing.T) {
	t.Run("plain", func(t *testing.T) {
		base := runServe(t)
		if _, b := fetch(t, "GET", base+"/wp-json/wc/store/v1/products"); strings.TrimSpace(b) != "[]" {
			t.Errorf("products without --demo: %.200s", b)
		}
		for _, m := range []string{"GET", "POST"} {
			for _, p := range []string{"/_sandbox/paypal/checkoutnow?token=X", "/_sandbox/paypal/v1/oauth2/token"} {
				if r, b := fetch(t, m, base+p); r.StatusCode != 404 || strings.Contains(b, "payment link") {
					t.Errorf("%s %s without --demo: %d", m, p, r.StatusCode)
				}
			}
		}
		if r, b := fetch(t, "POST", base+"/wp-json/paypal/v1/incoming"); r.StatusCode != 404 || !strings.Contains(b, "rest_no_route") {
			t.Errorf("webhook route without a wallet: %d %s", r.StatusCode, b)
		}
	})
	t.Run("demo", func(t *testing.T) {
		base := runServe(t, "--demo")
		if _, b := fetch(t, "GET", base+"/wp-json/wc/store/v1/products"); !strings.HasPrefix(b, `[{"id":`) {
			t.Errorf("demo catalogue not seeded: %.200s", b)
		}
		r, b := fetch(t, "GET", base+"/_sandbox/paypal/checkoutnow?token=X")
		if r.StatusCode != 404 || !strings.Contains(b, "This payment link is not valid") {
			t.Errorf("sandbox page: %d %.200s", r.StatusCode, b)
		}
		if r.Header.Get("X-Frame-Options") != "DENY" || r.Header.Get("Permissions-Policy") == "" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("sandbox page lacks the shop's security headers: %v", r.Header)
		}
		if r, _ := fetch(t, "POST", base+"/_sandbox/paypal/checkoutnow", "Sec-Fetch-Site", "cross-site"); r.StatusCode != http.StatusForbidden {
			t.Errorf("cross-origin POST to the sandbox: %d", r.StatusCode)
		}
		if r, _ := fetch(t, "POST", base+"/_sandbox/paypal/v1/oauth2/token"); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("sandbox token endpoint: %d", r.StatusCode)
		}
		// The wallet is on: its webhook route refuses an unsigned delivery.
		if r, _ := fetch(t, "POST", base+"/wp-json/paypal/v1/incoming"); r.StatusCode != http.StatusBadRequest {
			t.Errorf("unsigned webhook with the wallet on: %d", r.StatusCode)
		}
	})
}
