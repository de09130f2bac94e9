package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// tagListing is what a tag archive's page data holds.
type tagListing struct {
	Page        string `json:"page"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	Base        string `json:"base"`
	Total       int    `json:"total"`
	PageNumber  int    `json:"page_number"`
	TotalPages  int    `json:"total_pages"`
	Breadcrumbs []struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	} `json:"breadcrumbs"`
	Products []struct {
		ID     int64  `json:"id"`
		Slug   string `json:"slug"`
		Prices struct {
			Price string `json:"price"`
		} `json:"prices"`
	} `json:"products"`
}

// tagShop is the demo shop plus 25 listed products tagged "Kite" (one
// of them also "Bestseller"), a draft tagged "Kite" and a tag no product
// carries: enough for a second archive page.
func tagShop(t *testing.T, db *sqlstore.DB) (*shop, map[string]int64, []*catalog.Product) {
	t.Helper()
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
	ctx := context.Background()
	ids := map[string]int64{}
	for _, name := range []string{"Kite", "Bestseller", "Nothing yet"} {
		id, err := db.EnsureTag(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	kite := catalog.Term{ID: ids["Kite"], Name: "Kite", Slug: "kite"}
	var kites []*catalog.Product
	for i := range 26 {
		price := int64(1000 + 100*((i*7)%26))
		p := &catalog.Product{Type: catalog.TypeSimple, Name: fmt.Sprintf("Tag kite %02d", i), Slug: fmt.Sprintf("tag-kite-%02d", i),
			Purchasable: true, RegularPrice: &price, Tags: []catalog.Term{kite}}
		if i == 0 {
			p.Tags = append(p.Tags, catalog.Term{ID: ids["Bestseller"], Name: "Bestseller", Slug: "bestseller"})
		}
		if i == 25 {
			p.Status = catalog.StatusDraft
		}
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		kites = append(kites, p)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	return &shop{t: t, db: db, srv: srv}, ids, kites
}

func (s *shop) tagPage(path string) (tagListing, string) {
	s.t.Helper()
	r := s.get(path)
	b := body(s.t, r)
	if r.StatusCode != 200 {
		s.t.Fatalf("GET %s: %d", path, r.StatusCode)
	}
	var l tagListing
	pageData(s.t, b, &l)
	return l, b
}

// A product tag's archive is a listing like a category's: its own
// canonical, title and breadcrumbs, sort and paging at /page/N/, only
// listed products carrying the tag, cached, and 404 for an unknown tag.
func TestTagArchive(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, _, _ := tagShop(t, db)
		ctx := context.Background()

		l, page := s.tagPage("/product-tag/bestseller/")
		for _, want := range []string{
			`<link rel="canonical" href="https://shop.example/product-tag/bestseller/">`,
			"<title>Products tagged “Bestseller” – Vitrine</title>",
			`"@type":"BreadcrumbList"`,
			`aria-label="Shop filters"`, // the listing's sidebar
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the bestseller archive lacks %s", want)
			}
		}
		if l.Page != "listing" || l.Title != "Products tagged “Bestseller”" || l.Base != "/product-tag/bestseller/" {
			t.Errorf("page %q title %q base %q", l.Page, l.Title, l.Base)
		}
		if len(l.Breadcrumbs) != 2 || l.Breadcrumbs[0].URL != "/" || l.Breadcrumbs[1].URL != "/product-tag/bestseller/" ||
			l.Breadcrumbs[1].Name != "Products tagged “Bestseller”" {
			t.Errorf("breadcrumbs %+v", l.Breadcrumbs)
		}
		if l.Total < 2 || l.Total != len(l.Products) {
			t.Fatalf("bestsellers: total %d, %d shown", l.Total, len(l.Products))
		}
		slugs := map[string]bool{}
		for _, p := range l.Products {
			slugs[p.Slug] = true
			full, err := db.Product(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			tagged := false
			for _, tg := range full.Tags {
				tagged = tagged || tg.Slug == "bestseller"
			}
			if !tagged {
				t.Errorf("%s is in the bestseller archive without the tag", p.Slug)
			}
		}
		if !slugs["classic-tee"] || !slugs["tag-kite-00"] {
			t.Errorf("the bestseller archive lacks the classic tee or kite 00: %v", slugs)
		}
		if r := s.get("/product-tag/bestseller/"); r.Header.Get("X-Cache") != "hit" {
			t.Errorf("second request: X-Cache %q, want hit", r.Header.Get("X-Cache"))
		}

		// Paging: 25 listed kites (the draft is not listed) on two pages.
		first, _ := s.tagPage("/product-tag/kite/")
		if first.Total != 25 || first.TotalPages != 2 || len(first.Products) != 24 {
			t.Fatalf("kite page 1: total %d, pages %d, %d shown", first.Total, first.TotalPages, len(first.Products))
		}
		second, page2 := s.tagPage("/product-tag/kite/page/2/")
		if second.PageNumber != 2 || len(second.Products) != 1 || second.URL != "/product-tag/kite/page/2/" {
			t.Errorf("kite page 2: page %d, %d shown, url %q", second.PageNumber, len(second.Products), second.URL)
		}
		for _, want := range []string{`<link rel="canonical" href="https://shop.example/product-tag/kite/page/2/">`, "Products tagged “Kite” – Page 2 – Vitrine"} {
			if !strings.Contains(page2, want) {
				t.Errorf("kite page 2 lacks %s", want)
			}
		}
		seen := map[string]bool{}
		for _, p := range append(first.Products, second.Products...) {
			if p.Slug == "tag-kite-25" {
				t.Error("the draft kite is listed")
			}
			seen[p.Slug] = true
		}
		if len(seen) != 25 {
			t.Errorf("%d distinct kites over two pages, want 25", len(seen))
		}
		// Sorted by price, the sort kept in the page's URL.
		byPrice, _ := s.tagPage("/product-tag/kite/?orderby=price&utm_source=x")
		if byPrice.URL != "/product-tag/kite/?orderby=price" {
			t.Errorf("sorted url %q", byPrice.URL)
		}
		for i := 1; i < len(byPrice.Products); i++ {
			a, _ := strconv.Atoi(byPrice.Products[i-1].Prices.Price)
			b, _ := strconv.Atoi(byPrice.Products[i].Prices.Price)
			if a > b {
				t.Errorf("price order broken at %d: %d before %d", i, a, b)
			}
		}
		// The price filter narrows it like a category.
		if cheap, _ := s.tagPage("/product-tag/kite/?max_price=15"); cheap.Total == 0 || cheap.Total >= 25 {
			t.Errorf("kites up to 15: %d", cheap.Total)
		}

		for path, want := range map[string]int{
			"/product-tag/kite/page/3/":    404,
			"/product-tag/kite/page/0/":    404,
			"/product-tag/kite/page/x/":    404,
			"/product-tag/no-such-tag/":    404,
			"/product-tag/nothing-yet/":    200, // a known tag with no products: an empty archive
			"/product-tag/kite/page/1/":    301,
			"/product-tag/kite":            301,
			"/product-tag/no-such-tag/2/x": 404,
		} {
			if r := s.get(path); r.StatusCode != want {
				t.Errorf("%s: %d, want %d", path, r.StatusCode, want)
			} else if want == 301 && r.Header.Get("Location") != "/product-tag/kite/" {
				t.Errorf("%s moves to %q", path, r.Header.Get("Location"))
			}
		}
	})
}

// The product tag sitemap lists the archives of tags with listed
// products and is named in the sitemap index.
func TestTagSitemap(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, _, _ := tagShop(t, db)
		if idx := body(t, s.get("/sitemap.xml")); !strings.Contains(idx, "<loc>https://shop.example/sitemap-tags.xml</loc>") {
			t.Errorf("the sitemap index lacks the tag sitemap:\n%s", idx)
		}
		r := s.get("/sitemap-tags.xml")
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/xml") {
			t.Fatalf("tag sitemap: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
		}
		set := body(t, r)
		for _, want := range []string{"https://shop.example/product-tag/bestseller/", "https://shop.example/product-tag/kite/", "https://shop.example/product-tag/unisex/"} {
			if !strings.Contains(set, "<loc>"+want+"</loc>") {
				t.Errorf("tag sitemap lacks %s", want)
			}
		}
		if strings.Contains(set, "nothing-yet") {
			t.Error("a tag without products is in the sitemap")
		}
		// Every tag the sitemap names answers its archive.
		for _, part := range strings.Split(set, "<loc>")[1:] {
			loc, _, _ := strings.Cut(part, "</loc>")
			path := strings.TrimPrefix(loc, "https://shop.example")
			if r := s.get(path); r.StatusCode != 200 {
				t.Errorf("%s: %d", path, r.StatusCode)
			}
		}
	})
}

// The Store API's products route filters by tag ids (comma-separated or
// tag[]) with tag_operator in (the default), and, not_in; a bad operator
// or id is a 400 in the REST error shape.
func TestStoreAPITagFilter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, ids, _ := tagShop(t, db)
		total := func(query string) int {
			t.Helper()
			r := s.get("/wp-json/wc/store/v1/products?per_page=100&" + query)
			b := body(t, r)
			if r.StatusCode != 200 {
				t.Fatalf("%s: %d %s", query, r.StatusCode, b)
			}
			n, err := strconv.Atoi(r.Header.Get("X-WP-Total"))
			if err != nil {
				t.Fatalf("%s: X-WP-Total %q", query, r.Header.Get("X-WP-Total"))
			}
			return n
		}
		kite, best := itoa(ids["Kite"]), itoa(ids["Bestseller"])
		all := total("")
		nKite, nBest := total("tag="+kite), total("tag="+best)
		if nKite != 25 || nBest < 2 {
			t.Fatalf("tag=kite %d (want 25), tag=bestseller %d", nKite, nBest)
		}
		if n := total("tag=" + kite + "," + best); n != nKite+nBest-1 {
			t.Errorf("kite or bestseller: %d, want %d", n, nKite+nBest-1)
		}
		if n := total("tag[]=" + kite + "&tag[]=" + best + "&tag_operator=in"); n != nKite+nBest-1 {
			t.Errorf("tag[] in: %d, want %d", n, nKite+nBest-1)
		}
		if n := total("tag=" + kite + "," + best + "&tag_operator=and"); n != 1 {
			t.Errorf("kite and bestseller: %d, want 1", n)
		}
		if n := total("tag=" + kite + "," + kite + "&tag_operator=and"); n != nKite {
			t.Errorf("kite and kite: %d, want %d", n, nKite)
		}
		if n := total("tag=" + kite + "&tag_operator=not_in"); n != all-nKite {
			t.Errorf("not kite: %d, want %d", n, all-nKite)
		}
		for _, q := range []string{"tag_operator=or&tag=" + kite, "tag=kite", "tag=-1"} {
			r := s.get("/wp-json/wc/store/v1/products?" + q)
			var e struct {
				Code string `json:"code"`
				Data struct {
					Status int `json:"status"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(body(t, r)), &e); err != nil || r.StatusCode != 400 || e.Code != "rest_invalid_param" || e.Data.Status != 400 {
				t.Errorf("%s: %d %+v %v", q, r.StatusCode, e, err)
			}
		}
	})
}

// A product that loses its tag leaves the tag's cached archive, the tag
// sitemap follows, and the Store API's filter too.
func TestTagArchiveFollowsChanges(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, _, kites := tagShop(t, db)
		if l, _ := s.tagPage("/product-tag/kite/"); l.Total != 25 {
			t.Fatalf("kites: %d", l.Total)
		}
		s.get("/product-tag/kite/") // cached now
		p := kites[3]
		p.Tags = nil
		if _, err := db.SaveProduct(context.Background(), p, nil); err != nil {
			t.Fatal(err)
		}
		waitForSitemap(t, "the untagged kite out of the archive", func() bool {
			l, _ := s.tagPage("/product-tag/kite/")
			return l.Total == 24
		})
		// A tag's last product gone: the tag leaves the sitemap.
		only := kites[0]
		only.Tags = only.Tags[:1] // kite only: bestseller keeps the demo's
		for _, k := range kites[1:] {
			if k == p || k.Status == catalog.StatusDraft {
				continue
			}
			k.Tags = nil
			if _, err := db.SaveProduct(context.Background(), k, nil); err != nil {
				t.Fatal(err)
			}
		}
		only.Status = catalog.StatusDraft
		if _, err := db.SaveProduct(context.Background(), only, nil); err != nil {
			t.Fatal(err)
		}
		waitForSitemap(t, "the kite tag out of the sitemap", func() bool {
			return !strings.Contains(body(t, s.get("/sitemap-tags.xml")), "/product-tag/kite/")
		})
	})
}
