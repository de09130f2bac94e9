package server

import "testing"

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

func TestPageKeyIgnoresJunk(t *testing.T) {
	a := pageKey("/shop/", map[string][]string{"orderby": {"price"}, "utm_source": {"x"}, "fbclid": {"y"}})
	b := pageKey("/shop/", map[string][]string{"orderby": {"price"}})
	if a != b {
		t.Errorf("tracking parameters changed the key: %q vs %q", a, b)
	}
	if pageKey("/shop/", map[string][]string{"orderby": {"bogus"}}) != pageKey("/shop/", nil) ||
		pageKey("/shop/", map[string][]string{"orderby": {"menu_order"}}) != pageKey("/shop/", nil) {
		t.Error("an unknown sort is not normalized to the default")
	}
}
