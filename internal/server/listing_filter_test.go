package server_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The listing sidebar's price filter narrows a listing to products whose
// price is within the bounds (in major units of the base currency), keeps
// the bounds in the paging and sort links, and renders the sidebar.
func TestListingPriceFilter(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	type listing struct {
		URL      string `json:"url"`
		Total    int    `json:"total"`
		Products []struct {
			Name   string `json:"name"`
			Prices struct {
				Price string `json:"price"`
			} `json:"prices"`
		} `json:"products"`
	}
	load := func(path string) (listing, string) {
		r := s.get(path)
		b := body(t, r)
		if r.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, r.StatusCode)
		}
		var l listing
		pageData(t, b, &l)
		return l, b
	}
	all, page := load("/shop/")
	for _, want := range []string{`aria-label="Shop filters"`, `name="min_price"`, `name="max_price"`, `>Product categories<`} {
		if !strings.Contains(page, want) {
			t.Errorf("the shop page lacks %s", want)
		}
	}
	f, page := load("/shop/?min_price=30&max_price=80")
	if f.URL != "/shop/?min_price=30&max_price=80" {
		t.Errorf("page url %q", f.URL)
	}
	if f.Total == 0 || f.Total >= all.Total {
		t.Fatalf("filtered total %d of %d: want some, not all", f.Total, all.Total)
	}
	for _, p := range f.Products {
		n, err := strconv.ParseInt(p.Prices.Price, 10, 64)
		if err != nil || n < 3000 || n > 8000 {
			t.Errorf("%s at %s minor units is outside 30–80", p.Name, p.Prices.Price)
		}
	}
	// The filter's fields show the bounds, and the sort form keeps them.
	if !regexp.MustCompile(`<input[^>]*name="min_price"[^>]*value="30"`).MatchString(page) {
		t.Error("the filter's min_price field does not show 30")
	}
	if !strings.Contains(page, `type="hidden" name="max_price" value="80"`) {
		t.Error("the sort form does not keep max_price")
	}
	if none, _ := load("/shop/?min_price=100000"); none.Total != 0 {
		t.Errorf("min_price=100000: %d products", none.Total)
	}
}
