package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Old links: a shop moved in from WooCommerce answers the old shop's
// permalinks and WordPress's query forms with a 301 to each object's
// current page (its slug renamed at import or since, a nested category
// path, a page with parents, a variation as its product with the
// attributes chosen), 410 for an object deleted since, the 404 page for
// one unpublished or a lookup that names nothing; the request's other
// query parameters follow; targets are always this shop's own paths; a
// miss before the import does not hide the link after it; the home
// page's own queries are untouched.
func TestOldLinks(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		put := func(kind string, oldID, newID int64, oldPath string) {
			t.Helper()
			if err := s.db.PutLegacy(ctx, sqlstore.Legacy{Kind: kind, OldID: oldID, NewID: newID, OldPath: oldPath}); err != nil {
				t.Fatal(err)
			}
		}
		product := func(slug string) *catalog.Product {
			t.Helper()
			p, err := s.db.ProductBySlug(ctx, slug)
			if err != nil {
				t.Fatalf("%s: %v", slug, err)
			}
			return p
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := s.db.Write.ExecContext(ctx, s.db.Write.Rebind(q), args...); err != nil {
				t.Fatal(err)
			}
		}

		tee := product("classic-tee")
		vars, err := s.db.Variations(ctx, tee.ID)
		if err != nil || len(vars) == 0 {
			t.Fatalf("the tee's variations: %d %v", len(vars), err)
		}
		variation := vars[len(vars)-1]
		var chosen []string
		for _, a := range variation.Variation {
			chosen = append(chosen, "attribute_"+a.Name+"="+url.QueryEscape(a.Value))
		}
		if len(chosen) == 0 {
			t.Fatal("the variation has no attributes")
		}
		zip := product("zip-hoodie")
		pocket := product("pocket-tee")
		cats, err := s.db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var hoodies int64
		for _, c := range cats {
			if c.Slug == "hoodies" {
				hoodies = c.ID
			}
		}
		tags, err := s.db.Tags(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var bestseller int64
		for _, tg := range tags {
			if tg.Slug == "bestseller" {
				bestseller = tg.ID
			}
		}
		if hoodies == 0 || bestseller == 0 {
			t.Fatalf("seeded objects: hoodies %d, bestseller %d", hoodies, bestseller)
		}
		pages := &contentpage.Service{Store: s.db, Now: s.db.Now}
		about, err := pages.Set(ctx, contentpage.Input{Slug: "about", Title: "About us", Body: "<p>We sew.</p>"})
		if err != nil {
			t.Fatal(err)
		}
		secret, err := pages.Set(ctx, contentpage.Input{Slug: "secret", Title: "Secret", Body: "<p>Soon.</p>", Status: contentpage.Draft})
		if err != nil {
			t.Fatal(err)
		}

		eventually(t, "the about page", func() bool { return s.get("/about/").StatusCode == 200 })

		// Before the import: the old path is the 404 page (and the kept
		// 404 page is rendered now).
		if r := s.get("/product/old-classic-tee/"); r.StatusCode != http.StatusNotFound {
			t.Fatalf("before the import: %d", r.StatusCode)
		}
		// A cached product page, before and after.
		// (Eventually: on a loaded machine the pages' changes above may
		// still purge it once after its first render.)
		eventually(t, "the tee's page cached", func() bool {
			r := s.get("/product/classic-tee/")
			return r.StatusCode == 200 && r.Header.Get("X-Cache") == "hit"
		})

		// The import.
		put("product", 501, tee.ID, "/product/old-classic-tee/") // slug changed on a collision
		put("product", 502, zip.ID, "/product/zip-hoodie-old/")
		put("product", 503, 987654, "/product/long-gone/") // deleted since
		put("product", 504, pocket.ID, "/product/pocket-tee/")
		put("product", 505, tee.ID, "/product/classic-tee/")   // slug kept
		put("product", 506, tee.ID, "/product/%e6%97%a5-tee/") // as WordPress prints a non-ASCII slug
		put("product", 507, tee.ID, "/product/grüße/")         // as an import may record it, decoded
		put("variation", 901, variation.ID, "")
		put("category", 601, hoodies, "/product-category/apparel/hoodies-and-sweats/")
		put("category", 602, 987654, "/product-category/discontinued/")
		put("tag", 701, bestseller, "/product-tag/best-sellers/")
		put("tag", 702, 987654, "/product-tag/old-tag/")
		put("page", 801, about.ID, "/about/team/") // a page with a parent
		put("page", 802, secret.ID, "/coming/")
		put("page", 803, 987654, "/old-page/")
		put("page", 804, 987654, "/cart/") // WooCommerce's own cart page
		put("customer", 42, 1, "/author/someone/")
		// Renamed by the owner after the import; unpublished since.
		exec(`UPDATE products SET slug = 'zip-hoodie-2026' WHERE id = ?`, zip.ID)
		exec(`UPDATE products SET status = 'draft' WHERE id = ?`, pocket.ID)
		// Recorded in the change log as the store's own writes are: the
		// product pages read through the product cache, which follows it.
		for _, id := range []int64{zip.ID, pocket.ID} {
			exec(`INSERT INTO catalog_changes (product_id, kind, at) VALUES (?, 'product_listed', CURRENT_TIMESTAMP)`, id)
		}

		teeVariant := "/product/classic-tee/?" + strings.Join(chosen, "&")
		cases := []struct {
			path, location string
			status         int
		}{
			// The missed link resolves now.
			{"/product/old-classic-tee/", "/product/classic-tee/", 301},
			{"/product/old-classic-tee", "/product/old-classic-tee/", 301}, // the slash first, as before
			{"/product/zip-hoodie-old/", "/product/zip-hoodie-2026/", 301},
			{"/product/%E6%97%A5-tee/", "/product/classic-tee/", 301},
			{"/product/gr%C3%BC%C3%9Fe/", "/product/classic-tee/", 301},
			{"/product-category/apparel/hoodies-and-sweats/", "/product-category/clothing/hoodies/", 301},
			{"/product-tag/best-sellers/", "/product-tag/bestseller/", 301},
			{"/about/team/", "/about/", 301},
			{"/about/team", "/about/", 301},
			// Other query parameters follow.
			{"/product/old-classic-tee/?utm_source=news&utm_medium=mail", "/product/classic-tee/?utm_source=news&utm_medium=mail", 301},
			{"/?p=501&utm_source=news", "/product/classic-tee/?utm_source=news", 301},
			// WordPress's query forms.
			{"/?p=501", "/product/classic-tee/", 301},
			{"/?p=801", "/about/", 301},
			{"/?page_id=801", "/about/", 301},
			{"/?post_type=product&p=501", "/product/classic-tee/", 301},
			{"/?post_type=product&p=801", "", 404}, // a page is not a product
			{"/?product_id=502", "/product/zip-hoodie-2026/", 301},
			{"/?product=classic-tee", "/product/classic-tee/", 301},
			{"/?product=old-classic-tee", "/product/classic-tee/", 301},
			{"/?product_cat=hoodies&orderby=price", "/product-category/clothing/hoodies/?orderby=price", 301},
			{"/?product_tag=bestseller", "/product-tag/bestseller/", 301},
			{"/?product_tag=best-sellers", "/product-tag/bestseller/", 301},
			{"/?post_type=product", "/shop/", 301},
			{"/?page_id=804", "/cart/", 301},
			{"/?attachment_id=12", "", 404},
			{"/?p=999999", "", 404},
			{"/?p=42", "", 404}, // a customer's id is not a post
			// A variation: its product, the variation chosen; the
			// request's own choice gives way.
			{"/?p=901", teeVariant, 301},
			{"/?p=901&attribute_pa_color=nope&ref=x", teeVariant + "&ref=x", 301},
			// Deleted since: 410.
			{"/product/long-gone/", "", 410},
			{"/?p=503", "", 410},
			{"/product-category/discontinued/", "", 410},
			{"/product-tag/old-tag/", "", 410},
			{"/old-page/", "", 410},
			{"/?page_id=803", "", 410},
			// Unpublished: the 404 page, never a redirect to itself.
			{"/product/pocket-tee/", "", 404},
			{"/?p=504", "", 404},
			{"/coming/", "", 404},
			{"/?page_id=802", "", 404},
			{"/author/someone/", "", 404},
			{"/wp-login.php", "", 404},
			// Never elsewhere.
			{"/?p=junk", "", 404},
			{"/?p=//evil.example", "", 404},
			{"/?p=-501", "", 404},
			{"/?product=//evil.example", "", 404},
			{"/?product_cat=%2F%2Fevil.example", "", 404},
			{"/?product=%0d%0aLocation:%20https://evil.example", "", 404},
			// The slug kept: the page itself; the home page's own queries.
			{"/product/classic-tee/", "", 200},
			{"/", "", 200},
			{"/?utm_source=news", "", 200},
			{"/?p=&utm_source=news", "", 200}, // an empty lookup is no lookup
			{"/?s=tee", "", 200},
			{"/?s=tee&post_type=product&product_cat=hoodies", "", 200},
		}
		for _, c := range cases {
			r := s.get(c.path)
			b := body(t, r)
			if r.StatusCode != c.status || r.Header.Get("Location") != c.location {
				t.Errorf("%s: %d %q, want %d %q", c.path, r.StatusCode, r.Header.Get("Location"), c.status, c.location)
				continue
			}
			switch c.status {
			case 301:
				if c.location == c.path+"/" {
					continue // the slash first, the link on the next request
				}
				if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
					t.Errorf("%s: Cache-Control %q (a later rename must reach a browser that followed this)", c.path, cc)
				}
				if f := s.get(c.location); f.StatusCode != 200 {
					t.Errorf("%s → %s: %d", c.path, c.location, f.StatusCode)
				}
			case 404, 410:
				if !strings.Contains(b, "Page not found") {
					t.Errorf("%s: %d without the 404 page", c.path, c.status)
				}
			}
		}
		// The cached product page stayed cached: old links never touched it.
		if r := s.get("/product/classic-tee/"); r.Header.Get("X-Cache") != "hit" {
			t.Errorf("the tee's page after the import: X-Cache %q", r.Header.Get("X-Cache"))
		}
		// A path the mux cleans moves on this shop, never to another host.
		for _, p := range []string{"//evil.example/", "//evil.example/product/x/", "/\\evil.example/"} {
			r := s.serve(httptest.NewRequest(http.MethodGet, p, nil))
			if loc := r.Header.Get("Location"); strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") || strings.Contains(loc, "://") {
				t.Errorf("%s: Location %q", p, loc)
			}
		}
		// A HEAD asks too; a POST never does.
		if r := s.serve(httptest.NewRequest(http.MethodHead, "/product/old-classic-tee/", nil)); r.StatusCode != 301 {
			t.Errorf("HEAD: %d", r.StatusCode)
		}
		if r := s.serve(httptest.NewRequest(http.MethodPost, "/product/old-classic-tee/", nil)); r.StatusCode == 301 {
			t.Errorf("POST redirected")
		}
	})
}

// Old links cost nothing where no 404 would be: with old links imported,
// a cached product page, the cached home page, a search page, and a home
// page with tracking parameters send no statement to the store; a path
// no route names sends one (the lookup), a scanner's file path none; a
// product path no product has two before its lookup (the product cache's
// catch-up with the change log, and the product's read); an old link's
// 301 one more. Counted, never timed, on both engines.
func TestOldLinksReadOnlyWhereA404Would(t *testing.T) {
	t.Parallel()
	for _, engine := range storetest.Engines(t) {
		t.Run(strings.ToLower(engine), func(t *testing.T) {
			ctx := context.Background()
			var counter sqlstore.Counter
			db, err := sqlstore.OpenCounted(ctx, storetest.DSN(t, engine), nil, &counter)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			// Not started: a started server's loops read the store on
			// their own clock.
			srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
				CacheBytes: 16 << 20, CacheMaxAge: time.Hour, CurrencyCacheTTL: time.Hour})
			tee, err := db.ProductBySlug(ctx, "classic-tee")
			if err != nil {
				t.Fatal(err)
			}
			if err := db.PutLegacy(ctx, sqlstore.Legacy{Kind: "product", OldID: 501, NewID: tee.ID, OldPath: "/product/old-tee/"}); err != nil {
				t.Fatal(err)
			}
			get := func(path string) *httptest.ResponseRecorder {
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
				return w
			}
			for _, c := range []struct {
				path       string
				status     int
				statements int64
			}{
				{"/product/classic-tee/", 200, 0},
				{"/", 200, 0},
				{"/?utm_source=news&utm_medium=mail", 200, 0},
				{"/?s=tee", 200, 0},
				{"/no-such-page/", 404, 1},
				{"/wp-login.php", 404, 0},
				{"/product/no-such-product/", 404, 3}, // the change log's newest id and the product's read (pageStore), then the lookup
				{"/product/old-tee/", 301, 4},         // the product route's two, the lookup, the product's row
				{"/?p=501", 301, 2},                   // the lookup, the product's row
			} {
				for range 3 { // warm: render, fill the caches, prepare the statements
					get(c.path)
				}
				before := counter.Count()
				w := get(c.path)
				got := counter.Count().Sub(before).Statements
				if w.Code != c.status {
					t.Errorf("%s: %d, want %d", c.path, w.Code, c.status)
				}
				if got != c.statements {
					t.Errorf("%s: %d statements, want %d", c.path, got, c.statements)
				}
				t.Logf("%-36s %d %d statements", c.path, w.Code, got)
			}
		})
	}
}
