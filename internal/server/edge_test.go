package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// metrics scrapes the server's metrics handler (served on its own address
// by the app, never on the shop's).
func (s *shop) metrics() string {
	s.t.Helper()
	rec := httptest.NewRecorder()
	s.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		s.t.Fatalf("GET /metrics on the metrics handler = %d", rec.Code)
	}
	return rec.Body.String()
}

func (s *shop) do(method, path string) *http.Response {
	s.t.Helper()
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Result()
}

func randomMethod(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('A' + r.IntN(26))
	}
	return string(b)
}

// TestUnknownMethodsDoNotGrowMetrics: client-chosen methods never become
// metric labels (each distinct one used to be a series kept for ever), they
// answer 501 in the surface's shape, and the scrape stays small.
func TestUnknownMethodsDoNotGrowMetrics(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	before := len(s.metrics())
	rnd := rand.New(rand.NewPCG(9, 1))
	var methods []string
	for i := range 200 {
		m := randomMethod(rnd, 4096)
		methods = append(methods, m)
		path := []string{"/", "/shop/", "/no-such-page-" + randomMethod(rnd, 8), "/wp-json/wc/store/v1/cart"}[i%4]
		r := s.do(m, path)
		if r.StatusCode != http.StatusNotImplemented {
			t.Fatalf("%s… %s = %d, want 501", m[:8], path, r.StatusCode)
		}
		b := body(t, r)
		if strings.HasPrefix(path, "/wp-json/") {
			if !strings.Contains(b, `"code":"rest_not_implemented"`) || !strings.Contains(b, `"status":501`) {
				t.Errorf("Store API 501 body = %s", b)
			}
		} else if !strings.Contains(b, "Not Implemented") {
			t.Errorf("501 body = %q", b)
		}
	}
	m := s.metrics()
	for _, meth := range methods {
		if strings.Contains(m, meth[:64]) {
			t.Fatal("a client-chosen method became a metric label")
		}
	}
	if !strings.Contains(m, `vitrine_http_requests_total{code="501",method="other",route="unmatched"} 200`) {
		t.Error(`the 200 unknown methods are not counted as one series {code="501",method="other",route="unmatched"}`)
	}
	// 200 distinct methods on 3 routes: a bounded handful of new series,
	// not 200 × 4 KB.
	if grown := len(m) - before; grown > 32<<10 {
		t.Errorf("metrics grew by %d bytes after 200 unknown methods", grown)
	}
	// Known methods still route: the mux's own answers are kept.
	if r := s.do(http.MethodDelete, "/wp-json/wc/store/v1/products"); r.StatusCode != http.StatusNotFound {
		t.Errorf("DELETE on a read-only Store API route = %d, want its 404 rest_no_route", r.StatusCode)
	}
	if r := s.do(http.MethodPost, "/"); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", r.StatusCode)
	}
}

// TestMetricsNotOnShopPort: the shop's handler answers /metrics with its
// 404 page; the metrics live on MetricsHandler (the app's --metrics-addr).
func TestMetricsNotOnShopPort(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	r := s.get("/metrics")
	if b := body(t, r); r.StatusCode != http.StatusNotFound || !strings.Contains(b, "Page not found") {
		t.Errorf("GET /metrics on the shop = %d, want the shop's 404 page", r.StatusCode)
	}
	if m := s.metrics(); !strings.Contains(m, "vitrine_http_requests_total") {
		t.Error("the metrics handler lacks the request counter")
	}
	// Go's profiles are on the metrics address too, never on the shop's.
	if r := s.get("/debug/pprof/"); r.StatusCode != http.StatusNotFound {
		t.Errorf("GET /debug/pprof/ on the shop = %d, want 404", r.StatusCode)
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/heap?debug=1", "/debug/pprof/goroutine?debug=1"} {
		w := httptest.NewRecorder()
		s.srv.MetricsHandler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK || w.Body.Len() == 0 {
			t.Errorf("GET %s on the metrics address = %d (%d bytes), want a profile", path, w.Code, w.Body.Len())
		}
	}
}

// TestConnsPerIPCap: on a real loopback listener, one address keeps at most
// max connections open; the next is closed at once without an answer, and
// a slot comes back when a connection closes.
func TestConnsPerIPCap(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: s.srv}
	go func() { _ = hs.Serve(s.srv.LimitConnsPerIP(ln, 2)) }()
	t.Cleanup(func() { _ = hs.Close() })

	// ask sends a keep-alive request on c and reports whether an answer came.
	ask := func(c net.Conn) bool {
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n"); err != nil {
			return false
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode == 200 && string(b) == "ok\n"
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c1, c2 := dial(), dial()
	if !ask(c1) || !ask(c2) {
		t.Fatal("the first two connections were not served")
	}
	if ask(dial()) {
		t.Fatal("a third connection from the same address was served")
	}
	if m := s.metrics(); !strings.Contains(m, "vitrine_connections_rejected_total 1") {
		t.Error("the rejected connection is not counted")
	}
	if !ask(c1) {
		t.Error("an accepted connection stopped being served")
	}
	// Closing one gives its slot back (once the server has seen the close).
	c1.Close()
	served := false
	for deadline := time.Now().Add(10 * time.Second); !served && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		served = ask(dial())
	}
	if !served {
		t.Error("no new connection was served after one of the two closed")
	}
}

// renders is how many pages the server has rendered in the JS engine.
func (s *shop) renders() int64 {
	s.t.Helper()
	for line := range strings.Lines(s.metrics()) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "vitrine_render_duration_seconds_count "); ok {
			return atoi(v)
		}
	}
	s.t.Fatal("no render count in the metrics")
	return 0
}

// TestNotFoundRenderedOnce: every miss answers the same 404 page, rendered
// once (random 404s used to render each time and saturate the CPUs), without
// the requested URL in it; a change to the menu's categories renders it anew.
func TestNotFoundRenderedOnce(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		before := s.renders()
		var first string
		for i := range 60 {
			path := fmt.Sprintf([]string{"/no-such-page-%d", "/product/no-such-product-%d/", "/shop/page/999%d/", "/wp-login.php?x=%d"}[i%4], i)
			r := s.get(path)
			b := body(t, r)
			if r.StatusCode != http.StatusNotFound || !strings.Contains(b, "Page not found") || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("GET %s = %d %q", path, r.StatusCode, r.Header.Get("Content-Type"))
			}
			if strings.Contains(b, "no-such-") || strings.Contains(b, "wp-login") {
				t.Fatalf("the 404 page for %s shows the requested URL", path)
			}
			if first == "" {
				first = b
			} else if b != first {
				t.Fatalf("GET %s: a different 404 page", path)
			}
		}
		if n := s.renders() - before; n != 1 {
			t.Errorf("60 misses rendered the 404 page %d times, want once", n)
		}
		// A new category is in every page's menu: the 404 page follows.
		if _, _, err := s.db.EnsureCategoryPath(context.Background(), []string{"Gadgets Galore"}); err != nil {
			t.Fatal(err)
		}
		seen := false
		for deadline := time.Now().Add(10 * time.Second); !seen && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			seen = strings.Contains(body(t, s.get("/still-missing")), "Gadgets Galore")
		}
		if !seen {
			t.Error("the 404 page never showed the new category")
		}
	})
}

// TestFaviconICO: /favicon.ico (asked for by browsers and crawlers whatever
// the page links) is a real 32×32 icon in the shop's colours, cached long.
func TestFaviconICO(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	r := s.get("/favicon.ico")
	b := []byte(body(t, r))
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/x-icon" {
		t.Fatalf("GET /favicon.ico = %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "public") || !strings.Contains(cc, "max-age=604800") {
		t.Errorf("Cache-Control = %q", cc)
	}
	le16 := func(i int) int { return int(binary.LittleEndian.Uint16(b[i:])) }
	le32 := func(i int) int { return int(binary.LittleEndian.Uint32(b[i:])) }
	if len(b) < 22 || le16(0) != 0 || le16(2) != 1 || le16(4) != 1 {
		t.Fatalf("not an ICO header: % x", b[:min(len(b), 22)])
	}
	if b[6] != 32 || b[7] != 32 || le16(10) != 1 || le16(12) != 32 || le32(18) != 22 || le32(14) != len(b)-22 {
		t.Fatalf("bad ICO directory entry: % x", b[6:22])
	}
	img, err := png.Decode(bytes.NewReader(b[22:]))
	if err != nil {
		t.Fatalf("the icon's image is not a PNG: %v", err)
	}
	if img.Bounds().Dx() != 32 || img.Bounds().Dy() != 32 {
		t.Fatalf("icon is %v", img.Bounds())
	}
	rgba := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
	if c := rgba(0, 0); c.A != 0 {
		t.Errorf("the rounded corner is not transparent: %v", c)
	}
	if c := rgba(3, 16); c != (color.NRGBA{0x1f, 0x3a, 0x5f, 0xff}) {
		t.Errorf("the background is %v, want the shop's blue", c)
	}
	if c := rgba(16, 22); c.R < 0xf0 || c.G < 0xf0 || c.B < 0xf0 {
		t.Errorf("the V's stroke is %v, want white", c)
	}
	// Revalidation costs nothing.
	if r := s.get("/favicon.ico", "If-None-Match", r.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation = %d, want 304", r.StatusCode)
	}
}
