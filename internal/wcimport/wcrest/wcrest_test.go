package wcrest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/wcimport/standin"
	"vitrine/internal/wcimport/wcrest"
)

const ck, cs = "ck_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "cs_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

func noSleep(context.Context, time.Duration) error { return nil }

// Over plain HTTP the client signs with OAuth 1.0a, which the shop's own
// verifier accepts; it reads every page and the image a record links to.
func TestOAuthOverHTTPAndPaging(t *testing.T) {
	shop := standin.Catalogue(7)
	var mu sync.Mutex
	var queries []string
	h := standin.Server(shop, ck, cs)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := &wcrest.Client{Base: srv.URL, ConsumerKey: ck, ConsumerSecret: cs, PerPage: 3, Sleep: noSleep}
	ctx := context.Background()
	var ids []int64
	for page := 1; ; page++ {
		items, pages, err := c.List(ctx, "wc/v3/products", nil, page)
		if err != nil {
			t.Fatal(err)
		}
		if pages != 3 {
			t.Fatalf("total pages = %d, want 3", pages)
		}
		for _, raw := range items {
			var p struct {
				ID     int64 `json:"id"`
				Images []struct{ Src string }
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
			if page == 1 && len(ids) == 1 {
				if !strings.HasPrefix(p.Images[0].Src, srv.URL+"/wp-content/uploads/") {
					t.Errorf("image src %q not on the server's origin", p.Images[0].Src)
				}
				body, ctype, err := c.Download(ctx, p.Images[0].Src)
				if err != nil || ctype != "image/png" || len(body) == 0 {
					t.Errorf("download: %d bytes, %q, %v", len(body), ctype, err)
				}
			}
		}
		if page == pages {
			break
		}
	}
	if len(ids) != 7 || ids[0] != shop.Products[0]["id"] || ids[6] != shop.Products[6]["id"] {
		t.Errorf("ids = %v", ids)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(queries[0], "oauth_signature_method=HMAC-SHA1") || !strings.Contains(queries[0], "oauth_signature=") ||
		strings.Contains(queries[0], cs) {
		t.Errorf("first query %q: want an HMAC-SHA1 signature and never the secret", queries[0])
	}
}

// Over HTTPS the client sends the key and secret as Basic.
func TestBasicOverTLS(t *testing.T) {
	shop := standin.Catalogue(2)
	var auth string
	h := standin.Server(shop, ck, cs)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := &wcrest.Client{Base: srv.URL, ConsumerKey: ck, ConsumerSecret: cs, HTTP: srv.Client(), Sleep: noSleep}
	items, pages, err := c.List(context.Background(), "wc/v3/products/categories", nil, 1)
	if err != nil || pages != 1 || len(items) != len(shop.Categories) {
		t.Fatalf("categories: %d items, %d pages, %v", len(items), pages, err)
	}
	if !strings.HasPrefix(auth, "Basic ") {
		t.Errorf("Authorization = %q, want Basic", auth)
	}
	raw, err := c.Get(context.Background(), "wc/v3/products/"+jsonNum(shop.Products[1]["id"]))
	if err != nil || !strings.Contains(string(raw), `"name":"Product 2"`) {
		t.Errorf("get: %s %v", raw, err)
	}
}

func jsonNum(v any) string { b, _ := json.Marshal(v); return string(b) }

// A wrong secret is a 401 answered at once (no retries) with what to
// check; a wrong key too.
func TestUnauthorized(t *testing.T) {
	var calls int
	var mu sync.Mutex
	h := standin.Server(standin.Catalogue(1), ck, cs)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, c := range []struct{ key, secret, msg string }{
		{ck, "cs_wrong", "Invalid signature - provided signature does not match."},
		{"ck_unknown", cs, "Consumer key is invalid."},
	} {
		calls = 0
		cl := &wcrest.Client{Base: srv.URL, ConsumerKey: c.key, ConsumerSecret: c.secret, Sleep: noSleep}
		_, _, err := cl.List(context.Background(), "wc/v3/products", nil, 1)
		var ae *wcrest.AuthError
		if !errors.As(err, &ae) || ae.Status != 401 || ae.Message != c.msg {
			t.Fatalf("err = %v, want a 401 %q", err, c.msg)
		}
		if !strings.Contains(err.Error(), "--consumer-key") || !strings.Contains(err.Error(), "Read permission") {
			t.Errorf("the error does not say what to check: %v", err)
		}
		if calls != 1 {
			t.Errorf("%d requests, want 1 (a 401 is not retried)", calls)
		}
	}
}

// A 429 with Retry-After and a 503 are tried again, waiting as the shop
// asks; past the retries the error is the shop's answer.
func TestRetries(t *testing.T) {
	h := standin.Server(standin.Catalogue(1), ck, cs)
	var mu sync.Mutex
	fails := []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if len(fails) > 0 {
			status := fails[0]
			fails = fails[1:]
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "7")
			}
			w.WriteHeader(status)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var waits []time.Duration
	c := &wcrest.Client{Base: srv.URL, ConsumerKey: ck, ConsumerSecret: cs, Backoff: 2 * time.Second,
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	items, _, err := c.List(context.Background(), "wc/v3/products", nil, 1)
	if err != nil || len(items) != 1 {
		t.Fatalf("after retries: %d items, %v", len(items), err)
	}
	if len(waits) != 2 || waits[0] != 7*time.Second || waits[1] != 4*time.Second {
		t.Errorf("waits = %v, want [7s (Retry-After) 4s (backoff doubled)]", waits)
	}

	mu.Lock()
	fails = []int{502, 502, 502, 502}
	mu.Unlock()
	waits = nil
	c.Retries = 2
	_, _, err = c.List(context.Background(), "wc/v3/products", nil, 1)
	var se *wcrest.StatusError
	if !errors.As(err, &se) || se.Status != 502 || len(waits) != 2 {
		t.Errorf("past the retries: %v after %d waits", err, len(waits))
	}
}

// A network failure is tried again; a certificate the client does not
// trust is not (it would be refused again).
func TestNetworkRetriesButNotCertificates(t *testing.T) {
	srv := httptest.NewTLSServer(standin.Server(standin.Catalogue(1), ck, cs))
	var waits int
	c := &wcrest.Client{Base: srv.URL, ConsumerKey: ck, ConsumerSecret: cs,
		Sleep: func(context.Context, time.Duration) error { waits++; return nil }}
	if _, _, err := c.List(context.Background(), "wc/v3/products", nil, 1); err == nil || waits != 0 {
		t.Errorf("untrusted certificate: %v after %d waits, want an error and no retry", err, waits)
	}
	srv.Close()
	c.HTTP, c.Retries = srv.Client(), 3
	if _, _, err := c.List(context.Background(), "wc/v3/products", nil, 1); err == nil || waits != 3 {
		t.Errorf("closed server: %v after %d waits, want 3 retries", err, waits)
	}
}
