// Command vitrine-load is a small HTTP load generator for benchmarking a
// local Vitrine: a fixed number of workers send requests round-robin over
// the given URLs for a bounded time (and optionally a bounded count), after
// an uncounted warm-up, and report throughput, client-side latency
// percentiles, bytes and errors.
//
// It only talks to loopback addresses (127.0.0.0/8, ::1, localhost): it is a
// benchmark tool, not a way to load someone else's server.
//
//	vitrine-load -url http://127.0.0.1:8080/product/classic-tee/ -c 32 -d 10s -H 'Accept-Encoding: br'
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxDuration bounds every run, whatever the flags say.
const maxDuration = 10 * time.Minute

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// Config is one load run.
type Config struct {
	URLs        []string
	Concurrency int
	Duration    time.Duration
	MaxRequests int64 // 0: bounded by Duration only
	Warmup      time.Duration
	Method      string
	Body        string
	Headers     http.Header
	// RotHeaders, if set, are extra headers taken in turn: request n (warm-up
	// included) carries RotHeaders[n % len(RotHeaders)] on top of Headers.
	// For per-request session tokens (-H-file).
	RotHeaders []http.Header
	// RotBodies, if set, are request bodies taken in turn like RotHeaders,
	// instead of Body: for bodies that may be used once, such as a login
	// form carrying a single-use bot-check proof (-body-file).
	RotBodies []string
	Timeout   time.Duration // per request
}

// Result is what a run measured (the warm-up excluded).
type Result struct {
	URLs            []string       `json:"urls"`
	Concurrency     int            `json:"concurrency"`
	DurationSeconds float64        `json:"duration_s"`
	Requests        int64          `json:"requests"`
	OK              int64          `json:"ok"`
	StatusErrors    map[string]int `json:"status_errors"`    // non-2xx by status
	TransportErrors int64          `json:"transport_errors"` // no response
	FirstError      string         `json:"first_error,omitempty"`
	RPS             float64        `json:"req_per_s"`
	BytesPerSecond  float64        `json:"bytes_per_s"`
	Bytes           int64          `json:"bytes"`
	LatencyMs       Latency        `json:"latency_ms"`
	// HeaderSets and HeaderSetsUsed: with -H-file, how many header lines the
	// file had and how many requests (warm-up included) took one; more used
	// than available means the lines were reused.
	HeaderSets     int   `json:"header_sets,omitempty"`
	HeaderSetsUsed int64 `json:"header_sets_used,omitempty"`
	// Bodies and BodiesUsed: the same for -body-file.
	Bodies     int   `json:"bodies,omitempty"`
	BodiesUsed int64 `json:"bodies_used,omitempty"`
}

// Latency is client-side request latency in milliseconds.
type Latency struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "vitrine-load:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("vitrine-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var urls, headers listFlag
	fs.Var(&urls, "url", "URL to request (repeatable, or a comma-separated list; requests go round-robin)")
	c := fs.Int("c", 1, "concurrency: number of workers, each with one keep-alive connection")
	d := fs.Duration("d", 10*time.Second, "measured duration (at most "+maxDuration.String()+")")
	n := fs.Int64("n", 0, "stop after this many measured requests (0: no limit but -d)")
	warm := fs.Duration("warmup", 2*time.Second, "warm-up before measuring, not counted")
	urlFile := fs.String("url-file", "", "file of URLs, one a line (blank lines and lines starting with # skipped), added to -url; for runs over many distinct URLs")
	fs.Var(&headers, "H", "extra request header 'Name: value' (repeatable)")
	hfile := fs.String("H-file", "", "file of request headers, one 'Name: value' per line, several on a line separated by ' | '; request n sends line n (mod lines), e.g. a fresh Cart-Token per request")
	method := fs.String("method", http.MethodGet, "HTTP method")
	body := fs.String("body", "", "request body (for POST benchmarks)")
	bfile := fs.String("body-file", "", "file of request bodies, one per non-empty line; request n sends line n (mod lines), e.g. a form with a single-use proof")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := Config{Concurrency: *c, Duration: *d, MaxRequests: *n, Warmup: *warm,
		Method: strings.ToUpper(*method), Body: *body, Headers: http.Header{}, Timeout: *timeout}
	for _, u := range urls {
		for _, part := range strings.Split(u, ",") {
			if part = strings.TrimSpace(part); part != "" {
				cfg.URLs = append(cfg.URLs, part)
			}
		}
	}
	if *urlFile != "" {
		list, err := readURLFile(*urlFile)
		if err != nil {
			return err
		}
		cfg.URLs = append(cfg.URLs, list...)
	}
	for _, h := range headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("-H %q: want 'Name: value'", h)
		}
		cfg.Headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if *hfile != "" {
		rot, err := readHeaderFile(*hfile)
		if err != nil {
			return err
		}
		cfg.RotHeaders = rot
	}
	if *bfile != "" {
		bodies, err := readBodyFile(*bfile)
		if err != nil {
			return err
		}
		cfg.RotBodies = bodies
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(res)
	}
	printText(stdout, res)
	return nil
}

// readURLFile reads -url-file: one URL per non-empty line; lines starting
// with # are comments.
func readURLFile(path string) ([]string, error) {
	return readLines(path, "-url-file", "URLs", func(line string) bool { return !strings.HasPrefix(line, "#") })
}

// readBodyFile reads -body-file: one body per non-empty line.
func readBodyFile(path string) ([]string, error) {
	return readLines(path, "-body-file", "bodies", func(string) bool { return true })
}

// readLines reads the file of flag: its non-empty lines, trimmed, that
// keep says to keep; an error when none are left (what names them).
func readLines(path, flag, what string, keep func(string) bool) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && keep(line) {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s %s: no %s", flag, path, what)
	}
	return out, nil
}

// readHeaderFile reads -H-file: one header set per non-empty line, headers
// 'Name: value' separated by ' | '.
func readHeaderFile(path string) ([]http.Header, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-H-file: %w", err)
	}
	var out []http.Header
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		h := http.Header{}
		for _, part := range strings.Split(line, " | ") {
			name, value, ok := strings.Cut(part, ":")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("-H-file %s:%d: %q: want 'Name: value'", path, i+1, part)
			}
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-H-file %s: no headers", path)
	}
	return out, nil
}

// Validate checks a configuration, including that every URL is on loopback.
func (c *Config) Validate() error {
	if len(c.URLs) == 0 {
		return errors.New("no -url given")
	}
	for _, u := range c.URLs {
		if err := checkLoopback(u); err != nil {
			return err
		}
	}
	if c.Concurrency < 1 || c.Concurrency > 4096 {
		return fmt.Errorf("-c %d: want 1 to 4096", c.Concurrency)
	}
	if c.Duration <= 0 || c.Duration > maxDuration {
		return fmt.Errorf("-d %s: want more than 0 and at most %s", c.Duration, maxDuration)
	}
	if c.Warmup < 0 || c.Warmup > maxDuration {
		return fmt.Errorf("-warmup %s: want 0 to %s", c.Warmup, maxDuration)
	}
	if c.MaxRequests < 0 {
		return fmt.Errorf("-n %d: want 0 or more", c.MaxRequests)
	}
	if c.Method == "" {
		c.Method = http.MethodGet
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	return nil
}

// checkLoopback refuses any URL whose host is not a loopback address.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("-url %q: want an http:// or https:// URL", raw)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-url %q: host %q is not a loopback address (127.0.0.0/8, ::1, localhost); vitrine-load only loads local servers", raw, host)
}

type sample struct {
	d      time.Duration
	status int // 0: transport error
	bytes  int64
}

// Run runs the load and returns what the measured phase saw.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	reqs := make([]*http.Request, len(cfg.URLs))
	for i, u := range cfg.URLs {
		r, err := http.NewRequest(cfg.Method, u, nil)
		if err != nil {
			return nil, fmt.Errorf("-url %q: %w", u, err)
		}
		r.Header = cfg.Headers.Clone()
		if r.Header == nil {
			r.Header = http.Header{}
		}
		if r.Header.Get("User-Agent") == "" {
			r.Header.Set("User-Agent", "vitrine-load")
		}
		reqs[i] = r
	}
	tr := &http.Transport{
		Proxy:               nil, // loopback only: never through a proxy
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        cfg.Concurrency,
		MaxIdleConnsPerHost: cfg.Concurrency,
		MaxConnsPerHost:     cfg.Concurrency,
		IdleConnTimeout:     90 * time.Second,
		// Send Accept-Encoding only when asked (-H), and never decompress:
		// the bytes counted are the bytes on the wire.
		DisableCompression: true,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	var (
		next     atomic.Uint64 // round-robin index
		nextHdr  atomic.Uint64 // -H-file index
		nextBody atomic.Uint64 // -body-file index
		measured atomic.Int64  // measured requests started
		counting atomic.Bool
	)
	deadline := time.Now().Add(cfg.Warmup + cfg.Duration)
	runCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()

	perWorker := make([][]sample, cfg.Concurrency)
	errMsg := make([]string, cfg.Concurrency)
	var wg sync.WaitGroup
	var start time.Time
	startc := make(chan struct{})
	go func() {
		// End the warm-up: from here on requests are counted.
		t := time.NewTimer(cfg.Warmup)
		defer t.Stop()
		select {
		case <-t.C:
		case <-runCtx.Done():
		}
		start = time.Now()
		counting.Store(true)
		close(startc)
	}()
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var samples []sample
			for runCtx.Err() == nil {
				count := counting.Load()
				if count && cfg.MaxRequests > 0 && measured.Add(1) > cfg.MaxRequests {
					break // requests in flight elsewhere still finish and count
				}
				i := next.Add(1) - 1
				var extra http.Header
				if len(cfg.RotHeaders) > 0 {
					extra = cfg.RotHeaders[(nextHdr.Add(1)-1)%uint64(len(cfg.RotHeaders))]
				}
				body := cfg.Body
				if len(cfg.RotBodies) > 0 {
					body = cfg.RotBodies[(nextBody.Add(1)-1)%uint64(len(cfg.RotBodies))]
				}
				s, err := do(runCtx, client, reqs[i%uint64(len(reqs))], body, extra)
				if runCtx.Err() != nil && s.status == 0 {
					break // cut off by the end of the run, not a failure
				}
				if !count {
					continue
				}
				if err != nil && errMsg[w] == "" {
					errMsg[w] = err.Error()
				}
				samples = append(samples, s)
			}
			perWorker[w] = samples
		}(w)
	}
	wg.Wait()
	<-startc
	elapsed := time.Since(start)
	if elapsed > cfg.Duration && cfg.MaxRequests == 0 {
		elapsed = cfg.Duration
	}
	var all []sample
	for _, s := range perWorker {
		all = append(all, s...)
	}
	res := summarize(all, elapsed)
	res.URLs, res.Concurrency = cfg.URLs, cfg.Concurrency
	if len(cfg.RotHeaders) > 0 {
		res.HeaderSets, res.HeaderSetsUsed = len(cfg.RotHeaders), int64(nextHdr.Load())
	}
	if len(cfg.RotBodies) > 0 {
		res.Bodies, res.BodiesUsed = len(cfg.RotBodies), int64(nextBody.Load())
	}
	for _, m := range errMsg {
		if m != "" {
			res.FirstError = m
			break
		}
	}
	return res, nil
}

func do(ctx context.Context, client *http.Client, tmpl *http.Request, body string, extra http.Header) (sample, error) {
	r := tmpl.Clone(ctx)
	for k, v := range extra {
		r.Header[k] = v // Clone copied the header map: this request only
	}
	if body != "" {
		r.Body = io.NopCloser(strings.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	t0 := time.Now()
	resp, err := client.Do(r)
	if err != nil {
		return sample{d: time.Since(t0)}, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	d := time.Since(t0)
	if err != nil {
		return sample{d: d, bytes: n}, err
	}
	return sample{d: d, status: resp.StatusCode, bytes: n}, nil
}

func summarize(all []sample, elapsed time.Duration) *Result {
	res := &Result{StatusErrors: map[string]int{}, DurationSeconds: elapsed.Seconds()}
	lat := make([]time.Duration, 0, len(all))
	var sum time.Duration
	for _, s := range all {
		res.Requests++
		res.Bytes += s.bytes
		switch {
		case s.status == 0:
			res.TransportErrors++
		case s.status >= 200 && s.status < 300:
			res.OK++
		default:
			res.StatusErrors[fmt.Sprint(s.status)]++
		}
		lat = append(lat, s.d)
		sum += s.d
	}
	if secs := elapsed.Seconds(); secs > 0 {
		res.RPS = float64(res.Requests) / secs
		res.BytesPerSecond = float64(res.Bytes) / secs
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		res.LatencyMs = Latency{
			Mean: ms(sum / time.Duration(len(lat))),
			P50:  ms(percentile(lat, 50)),
			P90:  ms(percentile(lat, 90)),
			P99:  ms(percentile(lat, 99)),
			Max:  ms(lat[len(lat)-1]),
		}
	}
	return res
}

// percentile returns the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999999) - 1
	rank = max(0, min(rank, len(sorted)-1))
	return sorted[rank]
}

func printText(w io.Writer, r *Result) {
	if len(r.URLs) > 5 {
		fmt.Fprintf(w, "urls:        %d distinct, from %s to %s\n", len(r.URLs), r.URLs[0], r.URLs[len(r.URLs)-1])
	} else {
		fmt.Fprintf(w, "urls:        %s\n", strings.Join(r.URLs, ", "))
	}
	fmt.Fprintf(w, "concurrency: %d, measured %.2fs\n", r.Concurrency, r.DurationSeconds)
	fmt.Fprintf(w, "requests:    %d (ok %d, transport errors %d", r.Requests, r.OK, r.TransportErrors)
	codes := make([]string, 0, len(r.StatusErrors))
	for c := range r.StatusErrors {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, c := range codes {
		fmt.Fprintf(w, ", %s: %d", c, r.StatusErrors[c])
	}
	fmt.Fprintln(w, ")")
	if r.FirstError != "" {
		fmt.Fprintf(w, "first error: %s\n", r.FirstError)
	}
	if r.HeaderSets > 0 {
		fmt.Fprintf(w, "header sets: %d in -H-file, %d requests took one", r.HeaderSets, r.HeaderSetsUsed)
		if r.HeaderSetsUsed > int64(r.HeaderSets) {
			fmt.Fprint(w, " (lines reused)")
		}
		fmt.Fprintln(w)
	}
	if r.Bodies > 0 {
		fmt.Fprintf(w, "bodies: %d in -body-file, %d requests took one", r.Bodies, r.BodiesUsed)
		if r.BodiesUsed > int64(r.Bodies) {
			fmt.Fprint(w, " (lines reused)")
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "throughput:  %.1f req/s, %.2f MB/s\n", r.RPS, r.BytesPerSecond/1e6)
	l := r.LatencyMs
	fmt.Fprintf(w, "latency ms:  mean %.3f  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", l.Mean, l.P50, l.P90, l.P99, l.Max)
}
