package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/money"
	"vitrine/internal/render"
	"vitrine/internal/seed"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/web"
)

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

type shop struct {
	t   *testing.T
	db  *sqlstore.DB
	srv *server.Server
}

// newServer seeds the demo catalogue into db at seedTime and wires a
// server with the real built app and cfg (USD and the site name filled
// in). The server and the store read cfg.Now, by default a clock that
// starts at seedTime (the test reads the calendar it seeded, on any day).
// bundle overrides the server bundle when set; engines is the render pool
// size (0: one per CPU).
func newServer(tb testing.TB, db *sqlstore.DB, bundle string, engines int, cfg server.Config) *server.Server {
	tb.Helper()
	if cfg.Now == nil {
		cfg.Now = storetest.NewClock(seedTime).Now
	}
	db.SetClock(cfg.Now)
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		tb.Fatalf("seed: %v", err)
	}
	return newServerOn(tb, db, bundle, engines, cfg)
}

// newServerOn wires a server like newServer on a store already seeded (a
// second instance on the same store); without cfg.Now it reads the
// store's clock.
func newServerOn(tb testing.TB, db *sqlstore.DB, bundle string, engines int, cfg server.Config) *server.Server {
	tb.Helper()
	if cfg.Now == nil {
		cfg.Now = db.Now
	}
	client, assets := servertest.WebApp(tb)
	if bundle == "" {
		var err error
		if bundle, err = web.ServerBundle(); err != nil {
			tb.Fatal(err)
		}
	}
	engine, err := render.NewEngine(bundle, engines)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(engine.Close)
	cfg.Currency, _ = money.Lookup("USD")
	cfg.SiteName, cfg.VariationThreshold = "Vitrine", 30
	srv, err := server.New(cfg, db, engine, client, assets, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	return srv
}

// newShop is a started test server on db with the demo catalogue. bundle
// overrides the server bundle when set.
func newShop(t *testing.T, db *sqlstore.DB, bundle string) *shop {
	t.Helper()
	srv := newServer(t, db, bundle, 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
	servertest.Start(t, srv)
	return &shop{t: t, db: db, srv: srv}
}

func (s *shop) get(path string, headers ...string) *http.Response {
	s.t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return s.serve(req)
}

// serve answers req.
func (s *shop) serve(req *http.Request) *http.Response {
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPages(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		cases := []struct {
			path     string
			status   int
			contains []string
			location string
		}{
			{"/", 200, []string{"<title>Vitrine – Tagline</title>", "Classic Tee", `"@type":"WebSite"`}, ""},
			{"/shop/", 200, []string{"<title>Shop – Vitrine</title>", `<link rel="canonical" href="https://shop.example/shop/">`, "Classic Tee", `"@type":"BreadcrumbList"`}, ""},
			{"/shop/page/2/", 200, []string{`<link rel="canonical" href="https://shop.example/shop/page/2/">`, "Page 2"}, ""},
			{"/shop/?page=2", 200, []string{"Page 2"}, ""},
			{"/shop/page/1/", 301, nil, "/shop/"},
			{"/shop/page/99/", 404, []string{"Page not found", `content="noindex, follow"`}, ""},
			{"/shop/page/abc/", 404, nil, ""},
			{"/shop", 301, nil, "/shop/"},
			{"/product-category/clothing/", 200, []string{"<title>Clothing – Vitrine</title>", "T-shirts"}, ""},
			{"/product-category/clothing/t-shirts/", 200, []string{"Classic Tee", `<link rel="canonical" href="https://shop.example/product-category/clothing/t-shirts/">`}, ""},
			{"/product-category/nope/", 404, nil, ""},
			// A category has one path: made-up or missing parents move to it.
			{"/product-category/t-shirts/", 301, nil, "/product-category/clothing/t-shirts/"},
			{"/product-category/bogus/t-shirts/page/2/?orderby=price&utm_source=x", 301, nil, "/product-category/clothing/t-shirts/page/2/?orderby=price"},
			{"/product-category/clothing/bogus/t-shirts/", 301, nil, "/product-category/clothing/t-shirts/"},
			{"/product-category/hats/clothing/", 301, nil, "/product-category/clothing/"},
			{"/product/classic-tee/", 200, []string{
				"<title>Classic Tee – Vitrine</title>",
				`<meta property="og:type" content="product">`,
				`<meta property="og:image" content="https://shop.example/media/demo/`,
				`"@type":"Product"`, `"priceCurrency":"USD"`, `"price":"28.00"`, `"@type":"AggregateRating"`,
				`<h1`, "Classic Tee</h1>", "$28.00", // server-rendered name and price
				`data-product_variations="false"`, // 36 variations: more than the threshold of 30
			}, ""},
			{"/product/limited-print-coastline-no-3/", 200, []string{`"@type":"Offer"`}, ""},
			{"/product/classic-tee", 301, nil, "/product/classic-tee/"},
			{"/product/alpaca-cardigan/", 404, nil, ""}, // a draft
			{"/product/no-such-thing/", 404, []string{"Page not found"}, ""},
			{"/?s=tee&post_type=product", 200, []string{`content="noindex, follow"`, "Classic Tee"}, ""},
			{"/?s=" + strings.Repeat("x", 10000), 200, []string{"No products were found"}, ""},
			{"/?s=tee&post_type=product&product_cat=hats", 200, []string{"in Hats", "No products were found"}, ""},
			{"/?s=beanie&post_type=product&product_cat=hats", 200, []string{"in Hats", "Ribbed Beanie"}, ""},
			{"/?s=tee&post_type=product&product_cat=0", 200, []string{"Classic Tee"}, ""},
			{"/?s=tee&post_type=product&product_cat=no-such", 404, nil, ""},
			{"/wp-login.php", 404, nil, ""},
		}
		for _, tc := range cases {
			r := s.get(tc.path)
			b := body(t, r)
			if r.StatusCode != tc.status {
				t.Errorf("GET %s: status %d, want %d", tc.path, r.StatusCode, tc.status)
				continue
			}
			if tc.location != "" && r.Header.Get("Location") != tc.location {
				t.Errorf("GET %s: Location %q, want %q", tc.path, r.Header.Get("Location"), tc.location)
			}
			for _, want := range tc.contains {
				if !strings.Contains(b, want) {
					t.Errorf("GET %s: body lacks %q", tc.path, want)
				}
			}
			if r.StatusCode == 200 && r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Errorf("GET %s: content type %q", tc.path, r.Header.Get("Content-Type"))
			}
		}
	})
}

func TestProductPageEmbedsFewVariations(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		b := body(t, s.get("/product/everyday-hoodie/"))
		i := strings.Index(b, `<script id="vitrine-data" type="application/json">`)
		if i < 0 {
			t.Fatal("no page data")
		}
		raw := b[i+len(`<script id="vitrine-data" type="application/json">`):]
		raw = raw[:strings.Index(raw, "</script>")]
		var data struct {
			Page       string `json:"page"`
			Variations []struct {
				ID         int64             `json:"variation_id"`
				Attributes map[string]string `json:"attributes"`
				IsPreOrder string            `json:"is_pre_order"`
				Label      string            `json:"pre_order_label"`
				Date       string            `json:"pre_order_date"`
			} `json:"variations"`
			Swatches []struct {
				Key  string `json:"key"`
				Type string `json:"type"`
			} `json:"swatches"`
		}
		if err := json.Unmarshal([]byte(raw), &data); err != nil {
			t.Fatalf("page data is not JSON: %v", err)
		}
		if data.Page != "product" || len(data.Variations) == 0 || len(data.Variations) > 30 {
			t.Fatalf("page %q with %d variations", data.Page, len(data.Variations))
		}
		pre := 0
		for _, v := range data.Variations {
			if v.IsPreOrder == "yes" && v.Label == "Pre-order now" && v.Date != "" {
				pre++
			}
			if _, ok := v.Attributes["attribute_pa_color"]; !ok {
				t.Errorf("variation %d lacks attribute_pa_color: %v", v.ID, v.Attributes)
			}
		}
		if pre == 0 {
			t.Error("no pre-order variation with label and date")
		}
		if len(data.Swatches) != 2 || data.Swatches[0].Type != catalog.SwatchColor {
			t.Errorf("swatches = %+v", data.Swatches)
		}
	})
}

func TestPageCacheAndInvalidation(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	for _, p := range []string{"/product/classic-tee/", "/product/market-tote/"} {
		if r := s.get(p); r.Header.Get("X-Cache") != "miss" {
			t.Errorf("first GET %s: X-Cache %q", p, r.Header.Get("X-Cache"))
		}
		if r := s.get(p); r.Header.Get("X-Cache") != "hit" {
			t.Errorf("second GET %s: X-Cache %q", p, r.Header.Get("X-Cache"))
		}
	}
	// Conditional and compressed answers from the cache.
	r := s.get("/product/classic-tee/", "Accept-Encoding", "gzip, deflate, br")
	if r.Header.Get("Content-Encoding") != "br" {
		t.Errorf("Content-Encoding %q, want br", r.Header.Get("Content-Encoding"))
	}
	if r2 := s.get("/product/classic-tee/", "If-None-Match", r.Header.Get("ETag")); r2.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", r2.StatusCode)
	}

	// Rename the tote: its page is invalidated, the tee's stays cached.
	editProduct(t, s.db, "market-tote", func(tote *catalog.Product) {
		tote.Name = "Market Tote Bag"
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := s.get("/product/market-tote/")
		b := body(t, r)
		if strings.Contains(b, "Market Tote Bag") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("renamed product still served from the cache")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := s.get("/product/classic-tee/"); r.Header.Get("X-Cache") != "hit" {
		t.Error("an unrelated product page was invalidated")
	}
}

func TestRenderFailureFallsBackToClientShell(t *testing.T) {
	t.Parallel()
	bundle := `globalThis.render = function () { throw new Error("boom") }`
	s := newShop(t, storetest.Open(t, sqlstore.SQLite), bundle)
	r := s.get("/product/classic-tee/")
	b := body(t, r)
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	if !strings.Contains(b, `<div id="root"></div>`) || !strings.Contains(b, `"name":"Classic Tee"`) || !strings.Contains(b, ` data-entry="/assets/entry-client-`) {
		t.Error("fallback page lacks the empty root, the data or the app script")
	}
}

func TestOperationsAndHeaders(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/robots.txt": 200, "/favicon.svg": 200} {
		if r := s.get(path); r.StatusCode != want {
			t.Errorf("GET %s = %d", path, r.StatusCode)
		}
	}
	s.get("/shop/")
	m := s.metrics()
	for _, want := range []string{`vitrine_http_requests_total{code="200",method="GET",route="GET /shop/{$}"}`, "vitrine_store_open_connections", "vitrine_render_duration_seconds_count", "vitrine_page_cache_entries"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	r := s.get("/")
	for h, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "strict-origin-when-cross-origin", "Cache-Control": "no-cache",
	} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP = %q", csp)
	}
	// Hashed assets: immutable for a year, compressed.
	b := body(t, r)
	i := strings.Index(b, ` data-entry="/assets/`)
	if i < 0 {
		t.Fatalf("the page names no entry script:\n%s", b)
	}
	i += len(` data-entry="`)
	src := b[i : i+strings.Index(b[i:], `"`)]
	ar := s.get(src, "Accept-Encoding", "gzip")
	if ar.StatusCode != 200 || ar.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || ar.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("asset %s: %d %q %q", src, ar.StatusCode, ar.Header.Get("Cache-Control"), ar.Header.Get("Content-Encoding"))
	}
	if r := s.get("/assets/nope.js"); r.StatusCode != 404 {
		t.Errorf("missing asset: %d", r.StatusCode)
	}
	mr := s.get("/media/demo/classic-tee-1.svg")
	if mr.StatusCode != 200 || mr.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(mr.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("media: %d %q", mr.StatusCode, mr.Header.Get("Content-Type"))
	}
	if r := s.get("/media/../../etc/passwd"); r.StatusCode == 200 {
		t.Error("media path traversal answered 200")
	}
	// A cross-site write is refused before any handler runs.
	req := httptest.NewRequest(http.MethodPost, "/wp-json/wc/store/v1/products", strings.NewReader("{}"))
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := s.serve(req); r.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site POST: %d, want 403", r.StatusCode)
	}
}

// The category list is kept in memory; a new category and a product moved
// into it must show in the API and the pages once the change log is read.
func TestCategoryCacheFollowsChanges(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	ctx := context.Background()
	if b := body(t, s.get(api+"/products/categories")); strings.Contains(b, `"slug":"rain-gear"`) {
		t.Fatal("category exists before it is created")
	}
	s.get("/shop/") // cache the menu
	id, _, err := s.db.EnsureCategoryPath(ctx, []string{"Rain gear"})
	if err != nil {
		t.Fatal(err)
	}
	editProduct(t, s.db, "market-tote", func(tote *catalog.Product) {
		tote.Categories = append(tote.Categories, catalog.Term{ID: id})
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		b := body(t, s.get(api+"/products/categories"))
		page := body(t, s.get("/shop/"))
		if strings.Contains(b, `"slug":"rain-gear","description":"","parent":0,"count":1`) && strings.Contains(page, "Rain gear") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("new category or its count not shown:\n%s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := s.get("/product-category/rain-gear/"); r.StatusCode != 200 || !strings.Contains(body(t, r), "Market Tote") {
		t.Errorf("new category page: %d", r.StatusCode)
	}
}

// TestPageCacheNotPoisonedByJunkParams: a cached page is rendered from its
// normalized URL only, so junk query parameters on the request that filled
// the cache never reach the paging links, the sort form, the canonical link
// or the page data that later visitors get.
func TestPageCacheNotPoisonedByJunkParams(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	const junk = "utm_source=evil&junkparam=zzjunk&fbclid=evilclick"
	cases := []struct{ junky, clean string }{
		{"/?" + junk, "/"},
		{"/shop/?orderby=price-desc&" + junk, "/shop/?orderby=price-desc"},
		{"/shop/?" + junk, "/shop/"},
		{"/shop/page/2/?" + junk + "&orderby=price", "/shop/page/2/?orderby=price"},
		{"/shop/?page=2&" + junk, "/shop/page/2/"},
		{"/product-category/clothing/?" + junk, "/product-category/clothing/"},
		{"/product-category/clothing/?orderby=date&" + junk, "/product-category/clothing/?orderby=date"},
		{"/product/classic-tee/?" + junk, "/product/classic-tee/"},
		{"/?" + junk + "&s=tee&post_type=product", "/?s=tee&post_type=product"},
		{"/?s=tee&" + junk + "&orderby=price&product_cat=clothing", "/?s=tee&post_type=product&product_cat=clothing&orderby=price"},
		{"/?s=a&page=2&" + junk, "/?s=a&post_type=product&page=2"},
	}
	bad := []string{"utm_source", "evil", "junkparam", "zzjunk", "fbclid"}
	for _, tc := range cases {
		first := s.get(tc.junky)
		fb := body(t, first)
		if first.StatusCode != http.StatusOK || first.Header.Get("X-Cache") != "miss" {
			t.Errorf("GET %s: %d, X-Cache %q; want 200 and a miss", tc.junky, first.StatusCode, first.Header.Get("X-Cache"))
			continue
		}
		second := s.get(tc.clean)
		sb := body(t, second)
		if second.Header.Get("X-Cache") != "hit" {
			t.Errorf("GET %s after %s: X-Cache %q, want hit (same normalized page)", tc.clean, tc.junky, second.Header.Get("X-Cache"))
		}
		for _, w := range bad {
			if strings.Contains(fb, w) {
				t.Errorf("GET %s: the response contains %q", tc.junky, w)
			}
			if strings.Contains(sb, w) {
				t.Errorf("GET %s (cached from %s): the cached page contains %q", tc.clean, tc.junky, w)
			}
		}
		if fb != sb {
			t.Errorf("GET %s and %s: different bodies for one cache entry", tc.junky, tc.clean)
		}
		// The page data names the normalized URL the page was rendered from.
		if !strings.Contains(sb, `"url":"`+strings.ReplaceAll(tc.clean, "&", `\u0026`)+`"`) {
			t.Errorf("GET %s: page data url is not %q", tc.clean, tc.clean)
		}
	}
	// The sort form of a junk-requested listing keeps only what the page reads.
	b := body(t, s.get("/?s=tee&"+junk+"&orderby=price&product_cat=clothing"))
	for _, want := range []string{`type="hidden" name="s" value="tee"`, `type="hidden" name="post_type" value="product"`, `type="hidden" name="product_cat" value="clothing"`} {
		if !strings.Contains(b, want) {
			t.Errorf("search page sort form lacks %s", want)
		}
	}
}
