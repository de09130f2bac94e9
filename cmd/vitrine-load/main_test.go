package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunAgainstLoopbackServer(t *testing.T) {
	var hits, gotBR, posts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Accept-Encoding") == "br" {
			gotBR.Add(1)
		}
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		switch r.URL.Path {
		case "/slow":
			time.Sleep(2 * time.Millisecond)
			w.Write([]byte("0123456789"))
		case "/missing":
			http.NotFound(w, r)
		default:
			w.Write([]byte("0123456789"))
		}
	}))
	defer srv.Close()

	res, err := Run(context.Background(), Config{
		URLs:        []string{srv.URL + "/fast", srv.URL + "/slow", srv.URL + "/missing"},
		Concurrency: 4, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond,
		Headers: http.Header{"Accept-Encoding": {"br"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests < 30 {
		t.Fatalf("only %d requests in 300ms", res.Requests)
	}
	if res.Requests > hits.Load() {
		t.Errorf("counted %d requests, server saw %d (warm-up included)", res.Requests, hits.Load())
	}
	if res.TransportErrors != 0 {
		t.Errorf("transport errors: %d (%s)", res.TransportErrors, res.FirstError)
	}
	if gotBR.Load() != hits.Load() {
		t.Errorf("header -H not sent on every request: %d of %d", gotBR.Load(), hits.Load())
	}
	// Round-robin over three URLs: a third are 404s, give or take the
	// requests cut at the edges of the run.
	n404 := int64(res.StatusErrors["404"])
	if n404 < res.Requests/3-int64(res.Concurrency)*2 || n404 > res.Requests/3+int64(res.Concurrency)*2 {
		t.Errorf("404s: %d of %d requests, want about a third", n404, res.Requests)
	}
	if res.OK+n404 != res.Requests {
		t.Errorf("ok %d + 404 %d != requests %d", res.OK, n404, res.Requests)
	}
	l := res.LatencyMs
	if !(l.P50 > 0 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) {
		t.Errorf("percentiles out of order: %+v", l)
	}
	// Two thirds of the requests are fast, so the median is below the
	// slow path's 2ms; the p99 is a slow request.
	if l.P99 < 2 {
		t.Errorf("p99 %.3fms below the slow handler's 2ms sleep", l.P99)
	}
	if res.DurationSeconds < 0.25 || res.DurationSeconds > 0.5 {
		t.Errorf("measured %.3fs, want about 0.3s", res.DurationSeconds)
	}
	if res.RPS <= 0 || res.Bytes <= 0 || res.BytesPerSecond <= 0 {
		t.Errorf("rates: %+v", res)
	}
}

func TestRunMaxRequestsAndPost(t *testing.T) {
	var posts atomic.Int64
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
			var b bytes.Buffer
			b.ReadFrom(r.Body)
			body.Store(b.String())
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	res, err := Run(context.Background(), Config{
		URLs: []string{srv.URL}, Concurrency: 3, Duration: 5 * time.Second, MaxRequests: 50,
		Method: http.MethodPost, Body: `{"id":1}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 50 || res.OK != 50 {
		t.Errorf("requests %d ok %d, want 50 (-n)", res.Requests, res.OK)
	}
	if res.DurationSeconds > 4 {
		t.Errorf("-n did not end the run early: %.2fs", res.DurationSeconds)
	}
	if posts.Load() < 50 || body.Load() != `{"id":1}` {
		t.Errorf("posts %d, body %v", posts.Load(), body.Load())
	}
}

func TestRefusesNonLoopback(t *testing.T) {
	for _, u := range []string{
		"http://example.com/", "http://10.0.0.1:8080/", "http://192.168.1.2/", "https://[2001:db8::1]/",
		"http://localhost.example.com/", "http://0.0.0.0:8080/", "ftp://127.0.0.1/",
	} {
		_, err := Run(context.Background(), Config{URLs: []string{u}, Concurrency: 1, Duration: time.Second})
		if err == nil {
			t.Errorf("%s: accepted", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:1/", "http://127.1.2.3/", "http://[::1]:8080/", "http://LOCALHOST/x"} {
		if err := checkLoopback(u); err != nil {
			t.Errorf("%s: refused: %v", u, err)
		}
	}
	// Through the command line too, with one bad URL among good ones.
	var out, errb bytes.Buffer
	err := run([]string{"-url", "http://127.0.0.1:1/,http://example.org/", "-d", "1s"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("run: %v", err)
	}
}

func TestJSONOutput(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	res := runJSON(t, "-url", srv.URL, "-c", "2", "-d", "100ms", "-warmup", "0", "-n", "20")
	if res.Requests == 0 || res.Requests > 20 || res.Concurrency != 2 {
		t.Errorf("%+v", res)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 90: 90 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond} {
		if got := percentile(d, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if got := percentile(d[:1], 99); got != time.Millisecond {
		t.Errorf("one sample: %v", got)
	}
}

func TestHeaderFileRotation(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Static") != "s" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		seen[r.Header.Get("Cart-Token")+"/"+r.Header.Get("X-Two")]++
		mu.Unlock()
	}))
	defer srv.Close()
	path := tempFile(t, "h.txt", []byte("Cart-Token: a\n\nCart-Token: b | X-Two: 2\nCart-Token: c\n"))
	res := runJSON(t, "-url", srv.URL, "-c", "2", "-n", "30", "-warmup", "0", "-H", "X-Static: s", "-H-file", path)
	if res.OK != 30 || res.HeaderSets != 3 || res.HeaderSetsUsed < 30 {
		t.Errorf("ok %d, header sets %d used %d", res.OK, res.HeaderSets, res.HeaderSetsUsed)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 || seen["a/"] < 9 || seen["b/2"] < 9 || seen["c/"] < 9 {
		t.Errorf("header sets seen: %v", seen)
	}
	if _, err := readHeaderFile(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing -H-file accepted")
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("no colon here\n"), 0o600)
	if _, err := readHeaderFile(bad); err == nil {
		t.Error("malformed -H-file line accepted")
	}
}

func TestURLFile(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.RequestURI()]++
		mu.Unlock()
	}))
	defer srv.Close()
	body := "# comment\n" + srv.URL + "/a?x=1\n\n" + srv.URL + "/b\n" + srv.URL + "/c\n"
	path := tempFile(t, "urls.txt", []byte(body))
	res := runJSON(t, "-url-file", path, "-c", "1", "-d", "5s", "-warmup", "0", "-n", "6")
	if len(res.URLs) != 3 {
		t.Errorf("urls = %v, want the file's 3", res.URLs)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range []string{"/a?x=1", "/b", "/c"} {
		if seen[u] == 0 {
			t.Errorf("%s never requested: %v", u, seen)
		}
	}

	var out, errb bytes.Buffer
	empty := tempFile(t, "empty.txt", []byte("# nothing\n"))
	if err := run([]string{"-url-file", empty}, &out, &errb); err == nil || !strings.Contains(err.Error(), "no URLs") {
		t.Errorf("empty file: %v", err)
	}
	bad := tempFile(t, "bad.txt", []byte("http://192.0.2.1/\n"))
	if err := run([]string{"-url-file", bad}, &out, &errb); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("non-loopback url in file: %v", err)
	}
}

// -body-file: each request sends the next body, so single-use bodies are
// each used once while there are enough of them.
func TestBodyFileRotation(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen[string(b)]++
		mu.Unlock()
	}))
	defer srv.Close()
	var lines []string
	for i := 0; i < 40; i++ { // more than the requests: none is reused
		lines = append(lines, fmt.Sprintf("proof=%d", i))
	}
	path := tempFile(t, "b.txt", []byte(strings.Join(lines, "\n\n")+"\n"))
	res := runJSON(t, "-url", srv.URL, "-method", "POST", "-c", "2", "-n", "20", "-warmup", "0", "-body-file", path)
	if res.OK != 20 || res.Bodies != 40 || res.BodiesUsed < 20 || res.BodiesUsed > 40 {
		t.Errorf("ok %d, bodies %d used %d", res.OK, res.Bodies, res.BodiesUsed)
	}
	mu.Lock()
	defer mu.Unlock()
	for body, n := range seen {
		if n != 1 || !strings.HasPrefix(body, "proof=") {
			t.Errorf("body %q sent %d times", body, n)
		}
	}
	if _, err := readBodyFile(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing -body-file accepted")
	}
}

// runJSON runs the tool with args and -json, and reads its result.
func runJSON(t *testing.T, args ...string) Result {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(append(args, "-json"), &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	var res Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return res
}

// tempFile writes content to a file named name in a temporary folder and
// returns its path.
func tempFile(t *testing.T, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
