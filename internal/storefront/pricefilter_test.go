package storefront

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"vitrine/internal/money"
)

// The listing sidebar's price filter is part of the normalized page URL
// (the cache key) in one spelling per amount; bad bounds are dropped.
func TestPriceFilterURL(t *testing.T) {
	usd, _ := money.Lookup("USD")
	f := &Storefront{d: Deps{Currency: usd}}
	norm := func(raw string) string {
		r := httptest.NewRequest(http.MethodGet, raw, nil)
		lq := f.listingQuery(r)
		if r.URL.Query().Has("s") {
			return searchURL(lq)
		}
		return listingURL("/shop/", lq)
	}
	cases := map[string]string{
		"/shop/?min_price=10&max_price=50":                   "/shop/?min_price=10&max_price=50",
		"/shop/?max_price=50.5&min_price=10.00&utm_source=x": "/shop/?min_price=10&max_price=50.50",
		"/shop/?orderby=price&min_price=0":                   "/shop/?orderby=price&min_price=0",
		"/shop/?paged=2&max_price=1,000":                     "/shop/page/2/?max_price=1000",
		"/shop/?min_price=&max_price=":                       "/shop/",
		"/shop/?min_price=abc&max_price=-3":                  "/shop/",
		"/shop/?min_price=1e3&max_price=12.345":              "/shop/",
		"/shop/?min_price=99999999999999999999":              "/shop/",
		"/?s=tee&max_price=40&page=2":                        "/?s=tee&post_type=product&max_price=40&page=2",
		"/?s=tee&min_price=5&orderby=price&product_cat=hats": "/?s=tee&post_type=product&product_cat=hats&orderby=price&min_price=5",
	}
	for raw, want := range cases {
		if got := norm(raw); got != want {
			t.Errorf("%s: normalized to %q, want %q", raw, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 5: "0.05", 1000: "10", 1050: "10.50", 123456: "1234.56"} {
		if got := plainAmount(n, 2); got != want {
			t.Errorf("plainAmount(%d, 2) = %q, want %q", n, got, want)
		}
	}
	if got := plainAmount(1500, 0); got != "1500" {
		t.Errorf("plainAmount(1500, 0) = %q", got)
	}
}
