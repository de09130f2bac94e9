package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
)

const youTube = "https://www.youtube-nocookie.com"

// eventually retries check until it passes or 5 s have gone (the change
// follower polls every 10 ms in tests).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	eventuallyWithin(t, 5*time.Second, what, check)
}

// eventuallyWithin is eventually with its own deadline.
func eventuallyWithin(t *testing.T, d time.Duration, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !check(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within %v", what, d)
		}
	}
}

type footerData struct {
	Page  string `json:"page"`
	Pages []struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	} `json:"pages"`
	Content struct {
		Slug  string `json:"slug"`
		Title string `json:"title"`
		HTML  string `json:"html"`
	} `json:"content"`
	Product struct {
		Description string `json:"description"`
	} `json:"product"`
	Terms *struct {
		Title string `json:"title"`
		HTML  string `json:"html"`
	} `json:"terms"`
}

// Content pages: served at /<slug>/ when published, cached, in every
// footer and the sitemap, gone (404) as a draft or deleted; a page with a
// video allows its player in frame-src, and no other page does.
func TestContentPages(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		svc := &contentpage.Service{Store: s.db, Now: s.db.Now}
		for _, in := range []contentpage.Input{
			{Slug: "about", Title: "About us", Body: "<p>We sew.</p>\n<p>https://www.youtube.com/watch?v=dQw4w9WgXcQ</p>"},
			{Slug: "shipping", Title: "Shipping", Body: "<p>Fast.</p>"},
			{Slug: "secret", Title: "Secret", Body: "<p>Soon.</p>", Status: contentpage.Draft},
		} {
			if _, err := svc.Set(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		// The server learns of pages written elsewhere through the change log.
		eventually(t, "the new about page", func() bool { return s.get("/about/").StatusCode == 200 })

		r := s.get("/about/")
		html := body(t, r)
		if r.Header.Get("X-Cache") != "hit" && r.Header.Get("X-Cache") != "miss" {
			t.Errorf("X-Cache %q", r.Header.Get("X-Cache"))
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self' "+youTube) || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("about CSP = %q", csp)
		}
		// The video page's scripts are every page's (the wishlist's
		// localised script included): only frame-src is its own.
		scriptSrc := func(csp string) string {
			_, after, _ := strings.Cut(csp, "script-src ")
			before, _, _ := strings.Cut(after, ";")
			return before
		}
		if got, want := scriptSrc(r.Header.Get("Content-Security-Policy")), scriptSrc(s.get("/shop/").Header.Get("Content-Security-Policy")); got != want || want == "" {
			t.Errorf("about's script-src %q, the shop's %q", got, want)
		}
		d := pageDataAs[footerData](t, html)
		if d.Page != "content" || d.Content.Title != "About us" || !strings.Contains(d.Content.HTML, `class="lazy-video lazy-video--youtube"`) {
			t.Fatalf("about data: %+v", d)
		}
		for _, want := range []string{"<title>About us – Vitrine</title>", `<link rel="canonical" href="https://shop.example/about/">`,
			`<link rel="manifest" href="/manifest.webmanifest">`} {
			if !strings.Contains(html, want) {
				t.Errorf("about page lacks %q", want)
			}
		}
		// Server-rendered by the app: the title, the body, the Play button.
		app := html[strings.Index(html, `<div id="root">`):strings.Index(html, `<script id="vitrine-data"`)]
		for _, want := range []string{`<h1 class="page-title">About us</h1>`, "<p>We sew.</p>", `<span class="lazy-video__label">Play video: About us</span>`,
			`<a href="/about/" aria-current="page">About us</a>`} {
			if !strings.Contains(app, want) {
				t.Errorf("the rendered page lacks %q", want)
			}
		}
		if strings.Contains(html, "<iframe") && !strings.Contains(html, `<template class="lazy-video__player"><iframe`) {
			t.Error("the player iframe is in the page outside its template")
		}
		// Cached with its header: a hit keeps the CSP. (A change the
		// follower applies late may drop the first copy: the page is
		// asked again until it is served from the cache.)
		eventually(t, "about from the cache", func() bool {
			r = s.get("/about/")
			return r.Header.Get("X-Cache") == "hit"
		})
		if !strings.Contains(r.Header.Get("Content-Security-Policy"), youTube) {
			t.Errorf("cached about: X-Cache %q CSP %q", r.Header.Get("X-Cache"), r.Header.Get("Content-Security-Policy"))
		}
		// A page without a video: the shop's policy, no player.
		for _, p := range []string{"/shipping/", "/shop/", "/product/classic-tee/"} {
			if csp := s.get(p).Header.Get("Content-Security-Policy"); strings.Contains(csp, "frame-src") || strings.Contains(csp, "youtube") {
				t.Errorf("%s CSP = %q", p, csp)
			}
		}

		// Every page's footer links the published pages, by title.
		shop := pageDataAs[footerData](t, body(t, s.get("/shop/")))
		if len(shop.Pages) != 2 || shop.Pages[0].URL != "/about/" || shop.Pages[1].Title != "Shipping" {
			t.Errorf("footer pages = %+v", shop.Pages)
		}
		// Not published, unknown, malformed or shop routes: the 404 page.
		for _, p := range []string{"/secret/", "/nope/", "/About/", "/about/extra/"} {
			if r := s.get(p); r.StatusCode != 404 {
				t.Errorf("GET %s = %d, want 404", p, r.StatusCode)
			}
		}
		if r := s.get("/about"); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/about/" {
			t.Errorf("/about: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		if r := s.get("/secret"); r.StatusCode != 404 {
			t.Errorf("/secret: %d", r.StatusCode)
		}
		if r := postForm(s, "/about/", url.Values{"x": {"1"}}); r.StatusCode != 404 {
			t.Errorf("POST /about/ = %d, want 404", r.StatusCode)
		}

		// The sitemap lists the published pages with their date.
		locs := map[string]string{}
		for _, u := range s.sitemapURLs("/sitemap-pages.xml") {
			locs[u.Loc] = u.LastMod
		}
		if locs["https://shop.example/about/"] == "" || locs["https://shop.example/shipping/"] == "" {
			t.Errorf("sitemap pages: %v", locs)
		}
		if _, ok := locs["https://shop.example/secret/"]; ok {
			t.Error("a draft is in the sitemap")
		}

		// A change shows everywhere: the page, every footer, the sitemap.
		if _, err := svc.Set(ctx, contentpage.Input{Slug: "about", Title: "About the shop", Body: "<p>We sew and knit.</p>"}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the renamed page in the footer", func() bool {
			f := pageDataAs[footerData](t, body(t, s.get("/shop/")))
			return len(f.Pages) == 2 && f.Pages[0].Title == "About the shop"
		})
		r = s.get("/about/")
		if html := body(t, r); !strings.Contains(html, "We sew and knit.") || strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-src") {
			t.Errorf("the changed page: CSP %q", r.Header.Get("Content-Security-Policy"))
		}
		if err := svc.Delete(ctx, "about"); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the deleted page gone", func() bool { return s.get("/about/").StatusCode == 404 })
		if f := pageDataAs[footerData](t, body(t, s.get("/shop/"))); len(f.Pages) != 1 {
			t.Errorf("footer after delete: %+v", f.Pages)
		}
		eventually(t, "the deleted page out of the sitemap", func() bool {
			return !strings.Contains(body(t, s.get("/sitemap-pages.xml")), "/about/")
		})
	})
}

// A product whose description has a video: the lazy video in the page
// data, the player allowed in that page's CSP (also from the cache), and
// the Store API's description untouched.
func TestProductVideoCSP(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tote := editProduct(t, s.db, "market-tote", func(tote *catalog.Product) {
			tote.Description = `<p>Strong canvas.</p><p>https://vimeo.com/76979871</p>`
		})
		eventually(t, "the description's video", func() bool {
			return strings.Contains(body(t, s.get("/product/market-tote/")), "lazy-video--vimeo")
		})
		for i := 0; i < 2; i++ { // a miss (or hit) then a hit
			r := s.get("/product/market-tote/")
			html := body(t, r)
			if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self' https://player.vimeo.com") || strings.Contains(csp, "youtube") {
				t.Errorf("tote CSP (%s) = %q", r.Header.Get("X-Cache"), csp)
			}
			d := pageDataAs[footerData](t, html)
			if !strings.Contains(d.Product.Description, `data-src="https://player.vimeo.com/video/76979871?dnt=1"`) ||
				!strings.Contains(html, "Play video: Market Tote") {
				t.Errorf("tote description: %q", d.Product.Description)
			}
		}
		if csp := s.get("/product/classic-tee/").Header.Get("Content-Security-Policy"); strings.Contains(csp, "frame-src") {
			t.Errorf("tee CSP = %q", csp)
		}
		var p struct {
			Description string `json:"description"`
		}
		if err := json.Unmarshal([]byte(body(t, s.get("/wp-json/wc/store/v1/products/"+itoa(tote.ID)))), &p); err != nil {
			t.Fatal(err)
		}
		if p.Description != tote.Description {
			t.Errorf("Store API description = %q", p.Description)
		}
	})
}

// The checkout's terms lightbox shows the published terms page, and a
// change of it on the next checkout; without one, the configured terms.
func TestCheckoutTermsFromPage(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		c := s.client()
		c.addItem(s.productID("cotton-tank-top"), 1)
		terms := func() (string, string) {
			r := c.do("GET", "/checkout/", "")
			if r.status != 200 {
				t.Fatalf("checkout: %d", r.status)
			}
			d := pageDataAs[footerData](t, r.raw)
			if d.Terms == nil {
				t.Fatal("no terms on the checkout")
			}
			return d.Terms.Title, d.Terms.HTML
		}
		if title, _ := terms(); title != "Terms and conditions" {
			t.Errorf("configured terms: %q", title)
		}
		svc := &contentpage.Service{Store: s.db, Now: s.db.Now}
		if _, err := svc.Set(ctx, contentpage.Input{Slug: "terms", Title: "Our terms", Body: "<p>Be kind.</p>"}); err != nil {
			t.Fatal(err)
		}
		if title, html := terms(); title != "Our terms" || html != "<p>Be kind.</p>" {
			t.Errorf("page terms: %q %q", title, html)
		}
		if _, err := svc.Set(ctx, contentpage.Input{Slug: "terms", Title: "Our terms", Body: "<p>Be kinder.</p>"}); err != nil {
			t.Fatal(err)
		}
		if _, html := terms(); html != "<p>Be kinder.</p>" {
			t.Errorf("changed terms not on the next checkout: %q", html)
		}
		if _, err := svc.Set(ctx, contentpage.Input{Slug: "terms", Title: "Our terms", Body: "<p>x</p>", Status: contentpage.Draft}); err != nil {
			t.Fatal(err)
		}
		if title, _ := terms(); title != "Terms and conditions" {
			t.Errorf("draft terms used: %q", title)
		}
	})
}

// Every route's first path segment is reserved, so no content page can
// shadow a route added later without its slug being refused.
func TestRoutesReserveTheirSlugs(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	// String literals that start a path ("GET /shop/{$}", "/wp-json/"),
	// not those continuing one (api+"/products"); a file name (a dot) is
	// never a slug.
	re := regexp.MustCompile(`(?:^|[^+ ]) *"(?:[A-Z]+ )?/([^/"{} ]+)`)
	seen := 0
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		seg := m[1]
		if !strings.Contains(seg, ".") && contentpage.CheckSlug(seg) == nil {
			t.Errorf("route segment %q could be taken by a content page: add it to contentpage's reserved slugs", seg)
		}
		seen++
	}
	for _, seg := range []string{"my-account", "wp-json", "contact", "sandbox", "manifest", "icon"} {
		if !contentpage.Reserved(seg) {
			t.Errorf("%q is not reserved", seg)
		}
	}
	if seen < 15 {
		t.Fatalf("only %d route literals found: the pattern no longer matches routes.go", seen)
	}
}
