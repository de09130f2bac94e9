package visitsapi

import (
	"net/http/httptest"
	"testing"
)

func TestFromShop(t *testing.T) {
	for _, c := range []struct {
		base, host, site, origin string
		want                     bool
	}{
		{"https://shop.example", "shop.example", "same-origin", "", true},
		{"https://shop.example", "shop.example", "same-site", "https://shop.example", false}, // Sec-Fetch-Site decides when sent
		{"https://shop.example", "shop.example", "none", "", false},
		{"https://shop.example", "shop.example", "", "https://shop.example", true},
		{"https://shop.example", "shop.example", "", "https://SHOP.example", true},
		{"https://shop.example", "shop.example", "", "http://shop.example", false},
		{"https://shop.example", "shop.example", "", "https://shop.example:8443", false},
		{"https://shop.example", "shop.example", "", "", false},
		{"https://shop.example", "shop.example", "", "null", false},
		{"https://shop.example", "shop.example", "", "%zz", false},
		{"", "localhost:19400", "", "http://localhost:19400", true}, // no base: the request's own host
		{"", "localhost:19400", "", "http://localhost:19401", false},
	} {
		r := httptest.NewRequest("POST", "/wp-json/vitrine/v1/visits", nil)
		r.Host = c.host
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if got := FromShop(r, c.base); got != c.want {
			t.Errorf("base %q host %q site %q origin %q: %v, want %v", c.base, c.host, c.site, c.origin, got, c.want)
		}
	}
}
