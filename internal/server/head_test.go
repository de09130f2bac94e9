package server_test

import (
	"html"
	"regexp"
	"testing"
)

// Every page a shopper opens has a meta description, indexable or not: a
// link preview and a search audit read it (cart and my account too).
func TestPagesHaveMetaDescriptions(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		desc := regexp.MustCompile(`<meta name="description" content="([^"]+)">`)
		for _, c := range []struct {
			target string
			logged string
		}{
			{"/", ""}, {"/shop/", ""}, {"/product/classic-tee/", ""}, {"/product-category/clothing/", ""},
			{"/cart/", ""}, {"/my-account/", ""}, {"/contact/", ""}, {"/my-account/", "Carla"}, {"/cart/", "Carla"},
		} {
			a := f.do("GET", c.target, nil, "")
			if c.logged != "" {
				a = f.do("GET", c.target, f.cookie(c.logged), "")
			}
			m := desc.FindStringSubmatch(a.body)
			if a.status != 200 || m == nil || html.UnescapeString(m[1]) == "" {
				t.Errorf("%s (%q): %d, description %q", c.target, c.logged, a.status, m)
			}
		}
	})
}
