package server_test

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestSitemapAndRobots(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		var idx struct {
			Sitemaps []struct {
				Loc     string `xml:"loc"`
				LastMod string `xml:"lastmod"`
			} `xml:"sitemap"`
		}
		r := s.get("/sitemap.xml")
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/xml") {
			t.Fatalf("sitemap index: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
		}
		if err := xml.Unmarshal([]byte(body(t, r)), &idx); err != nil {
			t.Fatal(err)
		}
		want := []string{"https://shop.example/sitemap-pages.xml", "https://shop.example/sitemap-categories.xml",
			"https://shop.example/sitemap-tags.xml", "https://shop.example/sitemap-products-1.xml"}
		if len(idx.Sitemaps) != 4 {
			t.Fatalf("index = %+v", idx)
		}
		for i, w := range want {
			if idx.Sitemaps[i].Loc != w {
				t.Errorf("sitemap %d = %q, want %q", i, idx.Sitemaps[i].Loc, w)
			}
		}
		if idx.Sitemaps[3].LastMod == "" {
			t.Error("product sitemap has no lastmod")
		}
		urls := s.sitemapURLs("/sitemap-products-1.xml")
		locs := map[string]bool{}
		for _, u := range urls {
			locs[u.Loc] = true
			if u.LastMod == "" {
				t.Errorf("%s has no lastmod", u.Loc)
			}
		}
		if len(urls) != 38 || !locs["https://shop.example/product/classic-tee/"] {
			t.Errorf("product sitemap lists %d URLs", len(urls))
		}
		if locs["https://shop.example/product/alpaca-cardigan/"] || locs["https://shop.example/product/studio-staff-cap/"] {
			t.Error("a draft or hidden product is in the sitemap")
		}
		cats := body(t, s.get("/sitemap-categories.xml"))
		if !strings.Contains(cats, "<loc>https://shop.example/product-category/clothing/hoodies/</loc>") {
			t.Errorf("categories sitemap lacks hoodies:\n%s", cats)
		}
		if !strings.Contains(body(t, s.get("/sitemap-pages.xml")), "<loc>https://shop.example/shop/</loc>") {
			t.Error("pages sitemap lacks the shop")
		}
		for _, p := range []string{"/sitemap-products-2.xml", "/sitemap-products-0.xml", "/sitemap-products-x.xml", "/wp-login.php"} {
			if r := s.get(p); r.StatusCode != 404 {
				t.Errorf("%s: %d, want 404", p, r.StatusCode)
			}
		}
		if robots := body(t, s.get("/robots.txt")); !strings.Contains(robots, "Sitemap: https://shop.example/sitemap.xml") {
			t.Errorf("robots.txt lacks the sitemap:\n%s", robots)
		}
	})
}

// TestSitemapsCachedWithCacheOff: with the page cache off the sitemaps
// keep their own cache, and the change log drops them: a product created,
// then hidden, shows in and then leaves the product sitemap, and every
// answer is a well-formed sitemap.
func TestSitemapsCachedWithCacheOff(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", CacheBytes: 0, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
		servertest.Start(t, srv)
		ctx := context.Background()
		s := &shop{t: t, db: db, srv: srv}
		locs := func() map[string]bool {
			t.Helper()
			r := s.get("/sitemap-products-1.xml")
			if r.StatusCode != 200 {
				t.Fatalf("product sitemap: %d", r.StatusCode)
			}
			var set struct {
				XMLName xml.Name
				URLs    []struct {
					Loc string `xml:"loc"`
				} `xml:"url"`
			}
			if err := xml.Unmarshal([]byte(body(t, r)), &set); err != nil {
				t.Fatal(err)
			}
			if set.XMLName.Local != "urlset" || set.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" {
				t.Fatalf("root %v", set.XMLName)
			}
			out := map[string]bool{}
			for _, u := range set.URLs {
				out[u.Loc] = true
			}
			return out
		}
		const loc = "https://shop.example/product/sitemap-kite/"
		if locs()[loc] {
			t.Fatal("the kite is listed before it exists")
		}
		kite := &catalog.Product{Type: catalog.TypeSimple, Name: "Sitemap kite", Slug: "sitemap-kite", Purchasable: true}
		price := int64(900)
		kite.RegularPrice = &price
		if _, err := db.SaveProduct(ctx, kite, nil); err != nil {
			t.Fatal(err)
		}
		waitForSitemap(t, "the new product in the sitemap", func() bool { return locs()[loc] })
		kite.CatalogVisibility = catalog.VisibilityHidden
		if _, err := db.SaveProduct(ctx, kite, nil); err != nil {
			t.Fatal(err)
		}
		waitForSitemap(t, "the hidden product out of the sitemap", func() bool { return !locs()[loc] })
	})
}

func waitForSitemap(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sitemapURL is an entry of a sitemap's urlset.
type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
}

// sitemapURLs reads the entries of the sitemap at path.
func (s *shop) sitemapURLs(path string) []sitemapURL {
	s.t.Helper()
	var set struct {
		URLs []sitemapURL `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(body(s.t, s.get(path))), &set); err != nil {
		s.t.Fatal(err)
	}
	return set.URLs
}
