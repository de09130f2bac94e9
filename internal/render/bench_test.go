package render_test

// Benchmarks of the server render: the QuickJS engine running the real
// server bundle on real page data (the demo catalogue, seeded into a
// temporary SQLite store), plus the other steps of a cache miss, so that a
// profile of a page render can be read step by step.
//
//	go test -run '^$' -bench . -benchmem ./internal/render/
//	go test -run '^$' -bench 'RenderProductPage$' -cpuprofile cpu.out ./internal/render/ && go tool pprof -top cpu.out
//
// VITRINE_BENCH_BUNDLE=path renders with that server bundle instead of the
// embedded one (web/dist/server/server.js of another build), to compare two.
//
// BenchmarkRenderPageData renders any page the shop served: its data (the
// JSON of the page's <script id="vitrine-data">, saved to a file) and its
// URL, e.g. a filtered listing of a generated 100,000-product catalogue:
//
//	VITRINE_BENCH_PAGE_DATA=/tmp/list.json VITRINE_BENCH_PAGE_URL='/product-category/clothing/?filter_color=navy' \
//	  go test -run '^$' -bench 'RenderPageData$' -cpuprofile cpu.out ./internal/render/

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/review"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/web"
)

// benchNow dates the demo catalogue, so every run renders the same pages.
var benchNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

type fixture struct {
	loader  *pages.Loader
	product *pages.Result
	listing *pages.Result
	prodRaw []byte // page data as JSON
	listRaw []byte
	bundle  string
}

// newFixture seeds a temporary store with the demo catalogue and loads the
// product and shop pages.
func newFixture(b testing.TB) *fixture {
	b.Helper()
	ctx := context.Background()
	db := storetest.Open(b, sqlstore.SQLite)
	db.SetClock(func() time.Time { return benchNow })
	if _, err := seed.Demo(ctx, db, benchNow); err != nil {
		b.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	f := &fixture{loader: &pages.Loader{Store: db, Currency: usd, SiteName: "Vitrine", Tagline: "Everyday clothing, made to last",
		BaseURL: "http://localhost", Now: func() time.Time { return benchNow }, VariationThreshold: 30,
		Reviews: &review.Service{Store: db}, ReviewSettings: review.DefaultSettings()}}
	var err error
	if f.product, err = f.loader.Product(ctx, "/product/classic-tee/", "classic-tee"); err != nil {
		b.Fatal(err)
	}
	if f.listing, err = f.loader.Shop(ctx, "/shop/", pages.ListingQuery{Page: 1}); err != nil {
		b.Fatal(err)
	}
	if n := len(f.listing.Data.(pages.ListingPage).Products); n != 24 {
		b.Logf("the shop page lists %d products (24 expected)", n)
	}
	if f.prodRaw, err = json.Marshal(f.product.Data); err != nil {
		b.Fatal(err)
	}
	if f.listRaw, err = json.Marshal(f.listing.Data); err != nil {
		b.Fatal(err)
	}
	if path := os.Getenv("VITRINE_BENCH_BUNDLE"); path != "" {
		// Another build of the server bundle (before and after a change).
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		f.bundle = string(raw)
	} else if f.bundle, err = web.ServerBundle(); err != nil {
		b.Skipf("no server bundle (build the web app): %v", err)
	}
	return f
}

func newEngine(b testing.TB, bundle string, size int) *render.Engine {
	b.Helper()
	e, err := render.NewEngine(bundle, size)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(e.Close)
	return e
}

func benchRender(b *testing.B, url string, data func(*fixture) []byte) {
	f := newFixture(b)
	raw := data(f)
	html := benchRenderPages(b, f, []benchPage{{URL: url, Data: string(raw)}})
	b.ReportMetric(float64(len(raw)), "json-bytes")
	b.ReportMetric(float64(len(html)), "html-bytes")
}

// benchPage is a page to render: its URL and its data (JSON).
type benchPage struct {
	URL  string `json:"url"`
	Data string `json:"data"`
}

// benchRenderPages renders pages in turn with one engine, after a first
// render of the first page (unmeasured), and answers that render's HTML.
func benchRenderPages(b *testing.B, f *fixture, pages []benchPage) string {
	e := newEngine(b, f.bundle, 1)
	ctx := context.Background()
	html, err := e.Render(ctx, pages[0].URL, []byte(pages[0].Data))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	i := 0
	for b.Loop() {
		p := pages[i%len(pages)]
		i++
		if _, err := e.Render(ctx, p.URL, []byte(p.Data)); err != nil {
			b.Fatal(err)
		}
	}
	reportThroughput(b, cpu0)
	return html
}

// benchRenderParallel renders with a pool of GOMAXPROCS engines from
// GOMAXPROCS goroutines: the engine's throughput on this machine. Run it
// with -cpu 1,2 to see whether renders run in parallel:
//
//	go test -run '^$' -bench 'RenderProductPageParallel$' -cpu 1,2 -benchtime 200x ./internal/render/
func benchRenderParallel(b *testing.B, url string, data func(*fixture) []byte) {
	f := newFixture(b)
	e := newEngine(b, f.bundle, runtime.GOMAXPROCS(0))
	raw := data(f)
	render := warmRender(b, e, url, raw)
	b.ReportAllocs()
	cpu0 := processCPU()
	timeParallel(b, render)
	reportThroughput(b, cpu0)
}

// benchRenderWorkers is benchRenderParallel with GOMAXPROCS worker
// processes (render.Workers, one VM each) in place of the pool of VMs:
//
//	go test -run '^$' -bench 'RenderProductPage(Parallel|Workers)$' -cpu 2 -benchtime 400x ./internal/render/
//
// The CPU figures add the workers' CPU (from /proc) to this process's.
func benchRenderWorkers(b *testing.B, url string, data func(*fixture) []byte) {
	f := newFixture(b)
	ws := newWorkers(b, "embedded", runtime.GOMAXPROCS(0), 0)
	raw := data(f)
	render := warmRender(b, ws, url, raw)
	pids := ws.Pids()
	b.ReportAllocs()
	cpu0 := processCPU() + workersCPU(pids)
	timeParallel(b, render)
	if now := ws.Pids(); !slices.Equal(now, pids) {
		b.Fatalf("workers changed during the run: %v -> %v", pids, now)
	}
	reportThroughput(b, cpu0-workersCPU(pids))
}

// warmRender renders url with raw through r once (a failure ends the
// benchmark) and returns that render, to be timed.
func warmRender(b *testing.B, r interface {
	Render(context.Context, string, []byte) (string, error)
}, url string, raw []byte) func() error {
	render := func() error {
		_, err := r.Render(context.Background(), url, raw)
		return err
	}
	if err := render(); err != nil {
		b.Fatal(err)
	}
	return render
}

// timeParallel times b.N calls of render spread over the Ps.
func timeParallel(b *testing.B, render func() error) {
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := render(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
}

// workersCPU is the CPU time (user + system) the processes pids used so
// far, from /proc/PID/stat (clock ticks of 10 ms).
func workersCPU(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(string(stat), ") ")
		f := strings.Fields(rest) // from field 3 (state): utime is field 14, stime 15
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+s) * 10 * time.Millisecond
	}
	return total
}

// processCPU is the CPU time (user + system) the process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportThroughput adds renders per second of wall time and CPU time per
// render since cpu0. On a shared machine the wall figure moves with the
// other load; the CPU figure shows whether parallel renders cost more each
// (a contended lock spins and sleeps), and cores-used shows how many cores
// the renders kept busy.
func reportThroughput(b *testing.B, cpu0 time.Duration) {
	cpu := processCPU() - cpu0
	wall := b.Elapsed()
	if b.N == 0 || wall <= 0 {
		return
	}
	b.ReportMetric(float64(b.N)/wall.Seconds(), "renders/s")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cores-used")
}

func product(f *fixture) []byte { return f.prodRaw }
func listing(f *fixture) []byte { return f.listRaw }

// BenchmarkRenderProductPage is one engine rendering /product/classic-tee/
// (a variable product with colour and size swatches).
func BenchmarkRenderProductPage(b *testing.B) { benchRender(b, "/product/classic-tee/", product) }

// BenchmarkRenderListing is one engine rendering /shop/ (24 product cards).
func BenchmarkRenderListing(b *testing.B) { benchRender(b, "/shop/", listing) }

func BenchmarkRenderProductPageParallel(b *testing.B) {
	benchRenderParallel(b, "/product/classic-tee/", product)
}

func BenchmarkRenderListingParallel(b *testing.B) { benchRenderParallel(b, "/shop/", listing) }

// BenchmarkRenderPageData is one engine rendering the page whose data is in
// the file VITRINE_BENCH_PAGE_DATA at the URL VITRINE_BENCH_PAGE_URL.
//
// VITRINE_BENCH_PAGES instead names a JSON array of pages,
// [{"url": …, "data": "<the page data as a JSON string>"}, …], rendered in
// turn (a round robin over distinct products: what each page has of its
// own misses the server fragments, as on a shop with the page cache off).
func BenchmarkRenderPageData(b *testing.B) {
	if pages := os.Getenv("VITRINE_BENCH_PAGES"); pages != "" {
		benchRenderRoundRobin(b, pages)
		return
	}
	path, url := os.Getenv("VITRINE_BENCH_PAGE_DATA"), os.Getenv("VITRINE_BENCH_PAGE_URL")
	if path == "" || url == "" {
		b.Skip("set VITRINE_BENCH_PAGES, or VITRINE_BENCH_PAGE_DATA (a page's data as JSON) and VITRINE_BENCH_PAGE_URL")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	benchRender(b, url, func(*fixture) []byte { return raw })
}

func benchRenderRoundRobin(b *testing.B, path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var pages []benchPage
	if err := json.Unmarshal(raw, &pages); err != nil || len(pages) == 0 {
		b.Fatalf("%s: want a JSON array of {url, data}: %v", path, err)
	}
	benchRenderPages(b, newFixture(b), pages)
}

// BenchmarkRenderProductPageWorkers is BenchmarkRenderProductPageParallel
// rendered by worker processes instead of VMs in this process.
func BenchmarkRenderProductPageWorkers(b *testing.B) {
	benchRenderWorkers(b, "/product/classic-tee/", product)
}

// BenchmarkProductPageSteps times each step of a product page cache miss
// apart: store queries (pages.Loader), JSON marshalling, the JS render, the
// HTML document, and compressing it (gzip 9 + brotli 6, in NewPage).
func BenchmarkProductPageSteps(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	e := newEngine(b, f.bundle, 1)
	html, err := e.Render(ctx, "/product/classic-tee/", f.prodRaw)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := render.Document(f.product.Head, render.Assets{Script: "/assets/entry.js", CSS: []string{"/assets/entry.css"}}, html, f.prodRaw)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.loader.Product(ctx, "/product/classic-tee/", "classic-tee"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(f.product.Data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Render(ctx, "/product/classic-tee/", f.prodRaw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("document", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := render.Document(f.product.Head, render.Assets{Script: "/assets/entry.js"}, html, f.prodRaw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compress", func(b *testing.B) {
		b.ReportAllocs()
		var p *render.Page
		for b.Loop() {
			p = render.NewPage(200, doc, nil)
		}
		b.ReportMetric(float64(len(doc)), "doc-bytes")
		b.ReportMetric(float64(len(p.Brotli)), "br-bytes")
		b.ReportMetric(float64(len(p.Gzip)), "gzip-bytes")
	})
	// A logged-in viewer's copy of the stored page: their part spliced
	// into the gzip stream (Spliced), against compressing the page whole.
	part := []byte(`<script id="vitrine-viewer" type="application/json">{"user":{"logged_in":true,"can_edit_pages":false,"id":12,"display_name":"Carla Customer","logout_url":"/my-account/customer-logout/?_wpnonce=0123456789","rest_nonce":"0123456789"}}</script>` + "\n")
	stored := render.NewPage(200, doc, nil)
	b.Run("splice-gzip", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = stored.Spliced(part, "gzip")
		}
		b.ReportMetric(float64(len(out)), "gzip-bytes")
	})
	b.Run("splice-whole-gzip", func(b *testing.B) {
		b.ReportAllocs()
		once := render.NewPageUncompressed(200, doc, nil)
		for b.Loop() {
			_ = once.Spliced(part, "gzip")
		}
	})
	// The two halves of NewPage, and cheaper alternatives: lower levels,
	// and writers reused with Reset instead of allocated per page.
	for _, level := range []int{gzip.BestCompression, gzip.DefaultCompression} {
		b.Run(fmt.Sprintf("gzip-%d", level), func(b *testing.B) { benchGzip(b, doc, level, false) })
	}
	b.Run("gzip-6-reused", func(b *testing.B) { benchGzip(b, doc, 6, true) })
	for _, level := range []int{6, 5, 4} {
		b.Run(fmt.Sprintf("brotli-%d", level), func(b *testing.B) { benchBrotli(b, doc, level, false) })
	}
	for _, level := range []int{6, 5, 4, 3, 2, 1} {
		b.Run(fmt.Sprintf("brotli-%d-reused", level), func(b *testing.B) { benchBrotli(b, doc, level, true) })
	}
	b.Run("gzip-1-reused", func(b *testing.B) { benchGzip(b, doc, 1, true) })
}

func benchGzip(b *testing.B, doc []byte, level int, reuse bool) {
	benchCompress(b, doc, reuse, func(w io.Writer) compressor {
		z, _ := gzip.NewWriterLevel(w, level)
		return z
	})
}

func benchBrotli(b *testing.B, doc []byte, level int, reuse bool) {
	benchCompress(b, doc, reuse, func(w io.Writer) compressor { return brotli.NewWriterLevel(w, level) })
}

// compressor is a gzip or brotli writer.
type compressor interface {
	io.WriteCloser
	Reset(io.Writer)
}

// benchCompress compresses doc b.N times with a writer from newWriter,
// reset for each run when reuse is set, and reports the output's size.
func benchCompress(b *testing.B, doc []byte, reuse bool, newWriter func(io.Writer) compressor) {
	var buf bytes.Buffer
	w := newWriter(&buf)
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if reuse {
			w.Reset(&buf)
		} else {
			w = newWriter(&buf)
		}
		_, _ = w.Write(doc)
		_ = w.Close()
	}
	b.ReportMetric(float64(buf.Len()), "out-bytes")
}

// BenchmarkNewEngineVM is the cost of one VM loading the bundle (start-up,
// and what a pool resize or a VM recycle would cost).
func BenchmarkNewEngineVM(b *testing.B) {
	bundle, err := web.ServerBundle()
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		e, err := render.NewEngine(bundle, 1)
		if err != nil {
			b.Fatal(err)
		}
		e.Close()
	}
}
