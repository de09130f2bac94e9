package server_test

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/importer"
)

// TestImportedDescriptionsSanitized: script in an imported description or
// short description is stored and served nowhere, neither in the product
// page nor in the Store API's product JSON, while the formatting
// WooCommerce descriptions use survives.
func TestImportedDescriptionsSanitized(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		desc := `<h2>Care</h2><p>Soft <strong>cotton</strong>, <em>cold</em> wash.</p><ul><li>One</li></ul>` +
			`<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">bad link</a>` +
			`<a href="https://maker.example/">maker</a>`
		short := `<p>Short <b>and</b> sweet</p><svg onload=alert(4)></svg><iframe src="https://evil.example/"></iframe>`
		csv := "Type,SKU,Name,Published,Short description,Description,Regular price\n" +
			"simple,XSS-1,Probe Tee,1,\"" + strings.ReplaceAll(short, `"`, `""`) + "\",\"" + strings.ReplaceAll(desc, `"`, `""`) + "\",10\n"
		sum, err := importer.Import(context.Background(), strings.NewReader(csv), s.db, s.db, importer.Options{MinorUnit: 2})
		if err != nil || sum.ProductsCreated != 1 {
			t.Fatalf("import: %+v, %v", sum, err)
		}
		p, err := s.db.ProductBySlug(context.Background(), "probe-tee")
		if err != nil {
			t.Fatal(err)
		}
		bad := []string{"<script", "alert(", "onerror", "onload", "javascript:", "<iframe", "<svg", "evil.example"}
		good := []string{"<h2>Care</h2>", "<strong>cotton</strong>", "<em>cold</em>", "<li>One</li>", "<b>and</b>",
			`<a href="https://maker.example/" rel="nofollow">maker</a>`, "bad link"}
		// The page has scripts and icons of its own: there only the payloads
		// themselves count.
		payloads := []string{"alert(", "onerror", "onload=", "javascript:", "<iframe", "evil.example"}
		check := func(where, text string, goodToo bool) {
			t.Helper()
			bad := bad
			if !goodToo {
				bad = payloads
			}
			for _, b := range bad {
				if strings.Contains(text, b) {
					t.Errorf("%s contains %q", where, b)
				}
			}
			if !goodToo {
				return
			}
			for _, g := range good {
				if !strings.Contains(text, g) {
					t.Errorf("%s lost %q", where, g)
				}
			}
		}
		check("the stored product", p.ShortDescription+p.Description, true)

		r := s.get("/product/probe-tee/")
		page := body(t, r)
		if r.StatusCode != 200 {
			t.Fatalf("product page: %d", r.StatusCode)
		}
		check("the product page", page, false)
		for _, g := range []string{"<h2>Care</h2>", "<strong>cotton</strong>", "<b>and</b>"} {
			if !strings.Contains(page, g) {
				t.Errorf("the product page lost %q", g)
			}
		}

		r = s.get("/wp-json/wc/store/v1/products/" + itoa(p.ID))
		j := body(t, r)
		if r.StatusCode != 200 {
			t.Fatalf("Store API product: %d %s", r.StatusCode, j)
		}
		// JSON escapes < and > as \u003c and \u003e; compare the decoded text.
		j = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\"`, `"`, `\/`, "/").Replace(j)
		check("the Store API product", j, true)
	})
}
