package server_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestSitemapAndRobots(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newShop(t, db, "")
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
		want := []string{"https://shop.example/sitemap-pages.xml", "https://shop.example/sitemap-categories.xml", "https://shop.example/sitemap-products-1.xml"}
		if len(idx.Sitemaps) != 3 {
			t.Fatalf("index = %+v", idx)
		}
		for i, w := range want {
			if idx.Sitemaps[i].Loc != w {
				t.Errorf("sitemap %d = %q, want %q", i, idx.Sitemaps[i].Loc, w)
			}
		}
		if idx.Sitemaps[2].LastMod == "" {
			t.Error("product sitemap has no lastmod")
		}
		var set struct {
			URLs []struct {
				Loc     string `xml:"loc"`
				LastMod string `xml:"lastmod"`
			} `xml:"url"`
		}
		if err := xml.Unmarshal([]byte(body(t, s.get("/sitemap-products-1.xml"))), &set); err != nil {
			t.Fatal(err)
		}
		locs := map[string]bool{}
		for _, u := range set.URLs {
			locs[u.Loc] = true
			if u.LastMod == "" {
				t.Errorf("%s has no lastmod", u.Loc)
			}
		}
		if len(set.URLs) != 38 || !locs["https://shop.example/product/classic-tee/"] {
			t.Errorf("product sitemap lists %d URLs", len(set.URLs))
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
