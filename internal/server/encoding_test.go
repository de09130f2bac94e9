package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestAcceptsEncoding(t *testing.T) {
	cases := []struct {
		header, enc string
		want        bool
	}{
		{"gzip, deflate, br", "br", true},
		{"gzip", "br", false},
		{"br;q=0", "br", false},
		{"br;q=0.5, gzip", "br", true},
		{"GZIP", "gzip", true},
		{"gzip;q=0.0", "gzip", false},
		{"", "gzip", false},
	}
	for _, tc := range cases {
		if got := acceptsEncoding(tc.header, tc.enc); got != tc.want {
			t.Errorf("acceptsEncoding(%q, %q) = %v", tc.header, tc.enc, got)
		}
	}
}

func TestPageURLIgnoresJunk(t *testing.T) {
	s := &Server{}
	norm := func(raw string) string {
		r := httptest.NewRequest(http.MethodGet, raw, nil)
		lq := s.listingQuery(r)
		if r.URL.Query().Has("s") {
			return searchURL(lq)
		}
		return listingURL("/shop/", lq)
	}
	cases := map[string]string{
		"/shop/?orderby=price&utm_source=x&fbclid=y":             "/shop/?orderby=price",
		"/shop/?orderby=bogus":                                   "/shop/",
		"/shop/?paged=3&orderby=price-desc&orderby=price":        "/shop/page/3/?orderby=price-desc",
		"/shop/?page=2&utm_source=evil":                          "/shop/page/2/",
		"/?s=+tee+&post_type=product&utm_source=evil":            "/?s=tee&post_type=product",
		"/?utm_source=evil&s=tee&product_cat=hats&page=2&x=%3Cb": "/?s=tee&post_type=product&product_cat=hats&page=2",
		"/?s=tee&product_cat=all&orderby=date":                   "/?s=tee&post_type=product&orderby=date",
		"/?s=a%26b%3Dc":                                          "/?s=a%26b%3Dc&post_type=product",
	}
	for raw, want := range cases {
		if got := norm(raw); got != want {
			t.Errorf("%s: normalized to %q, want %q", raw, got, want)
		}
	}
}
