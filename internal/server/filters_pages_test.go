package server_test

import (
	"regexp"
	"strings"
	"testing"

	"vitrine/internal/pages"
)

type filterPage struct {
	URL     string `json:"url"`
	Total   int    `json:"total"`
	Filters struct {
		Applied    int `json:"applied"`
		PriceRange struct {
			Min       *int64 `json:"min"`
			Max       *int64 `json:"max"`
			ChosenMin *int64 `json:"chosen_min"`
		} `json:"price_range"`
		Attributes []struct {
			Slug      string `json:"slug"`
			QueryType string `json:"query_type"`
			Display   string `json:"display"`
			Options   []struct {
				Value    string `json:"value"`
				Count    int    `json:"count"`
				Selected bool   `json:"selected"`
				Disabled bool   `json:"disabled"`
			} `json:"options"`
		} `json:"attributes"`
		Ratings []struct {
			Value    string `json:"value"`
			Count    int    `json:"count"`
			Disabled bool   `json:"disabled"`
		} `json:"ratings"`
		Stock []struct {
			Value string `json:"value"`
			Count int    `json:"count"`
		} `json:"stock_status"`
		OnSale struct {
			Count int `json:"count"`
		} `json:"on_sale"`
	} `json:"filters"`
}

// TestListingFilterURLs: a listing's filters are read from WooCommerce's
// parameters, normalized into one URL (sorted, unique, the default query
// type and junk dropped) that is the page's url and its cache entry; the
// canonical link drops them; more than one filter is noindex; the page
// data carries every option with its count.
func TestListingFilterURLs(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		load := func(path string) (filterPage, string, string) {
			t.Helper()
			r := s.get(path)
			b := body(t, r)
			if r.StatusCode != 200 {
				t.Fatalf("GET %s: %d", path, r.StatusCode)
			}
			var p filterPage
			pageData(t, b, &p)
			return p, b, r.Header.Get("X-Cache")
		}
		all, page, _ := load("/shop/")
		if all.Filters.Applied != 0 || strings.Contains(page, "noindex") {
			t.Errorf("unfiltered shop: applied %d, noindex %v", all.Filters.Applied, strings.Contains(page, "noindex"))
		}
		if len(all.Filters.Attributes) < 2 || all.Filters.PriceRange.Min == nil {
			t.Fatalf("filters %+v", all.Filters)
		}
		var navy int
		for _, a := range all.Filters.Attributes {
			if a.Slug == "color" {
				if a.Display != "color" || a.QueryType != "or" {
					t.Errorf("color shown as %s, query type %s", a.Display, a.QueryType)
				}
				for _, o := range a.Options {
					if o.Value == "navy" {
						navy = o.Count
					}
				}
			}
		}
		if navy == 0 {
			t.Fatal("no navy count")
		}

		// One filter: its count is the listing; indexable, canonical to
		// the listing without filters.
		one, page, _ := load("/shop/?filter_color=navy&query_type_color=or")
		if one.Total != navy || one.URL != "/shop/?filter_color=navy&query_type_color=or" {
			t.Errorf("navy listing: %d products at %s, the count said %d", one.Total, one.URL, navy)
		}
		if strings.Contains(page, `name="robots" content="noindex`) {
			t.Error("one filter made the page noindex")
		}
		if !regexp.MustCompile(`<link rel="canonical" href="[^"]*/shop/"`).MatchString(page) {
			t.Error("canonical link does not drop the filter")
		}

		// Several filters, spelt untidily: one normalized URL, noindex,
		// and the second spelling is served from the first's cache entry.
		messy := "/shop/?rating_filter=5,4,4,9&filter_color=black,navy,navy&query_type_color=or&utm_source=x&filter_stock_status=instock,bogus&max_price=90&min_price=10&filter_size=m&query_type_size=and"
		want := "/shop/?filter_color=black,navy&query_type_color=or&filter_size=m&min_price=10&max_price=90&rating_filter=4,5&filter_stock_status=instock"
		m, page, _ := load(messy)
		if m.URL != want {
			t.Errorf("url %q, want %q", m.URL, want)
		}
		if !strings.Contains(page, `content="noindex, follow"`) {
			t.Error("several filters: not noindex")
		}
		if m.Filters.Applied != 5 {
			t.Errorf("applied %d, want 5", m.Filters.Applied)
		}
		if _, _, cache := load(want); cache != "hit" {
			t.Errorf("the normalized spelling: X-Cache %q, want a hit on the messy one's entry", cache)
		}
		for _, a := range m.Filters.Attributes {
			for _, o := range a.Options {
				if o.Disabled != (o.Count == 0 && !o.Selected) {
					t.Errorf("%s=%s: count %d, disabled %v", a.Slug, o.Value, o.Count, o.Disabled)
				}
			}
		}
		if *m.Filters.PriceRange.ChosenMin != 1000 {
			t.Errorf("chosen min %v", *m.Filters.PriceRange.ChosenMin)
		}

		// The same filters on a category and the search page.
		cat, _, _ := load("/product-category/clothing/?filter_color=navy&query_type_color=or")
		if cat.Total == 0 || cat.Total > navy || cat.URL != "/product-category/clothing/?filter_color=navy&query_type_color=or" {
			t.Errorf("category filtered: %d at %s", cat.Total, cat.URL)
		}
		srch, _, _ := load("/?s=tee&post_type=product&filter_color=navy&query_type_color=or&on_sale=1")
		if srch.URL != "/?s=tee&post_type=product&filter_color=navy&query_type_color=or&on_sale=1" {
			t.Errorf("search url %q", srch.URL)
		}
	})
}

// TestListingFiltersUncountedWhenLarge: a listing larger than
// pages.FilterCountLimit shows its options uncounted (counted false,
// nothing disabled) instead of counting as it renders. Not parallel: it
// sets the limit for the process.
func TestListingFiltersUncountedWhenLarge(t *testing.T) {
	old := pages.FilterCountLimit
	pages.FilterCountLimit = 1
	defer func() { pages.FilterCountLimit = old }()
	s := sqliteShop(t)
	b := body(t, s.get("/shop/"))
	var p struct {
		Filters struct {
			Counted    bool `json:"counted"`
			Attributes []struct {
				Options []struct {
					Disabled bool `json:"disabled"`
				} `json:"options"`
			} `json:"attributes"`
			PriceRange struct {
				Min *int64 `json:"min"`
			} `json:"price_range"`
		} `json:"filters"`
	}
	pageData(t, b, &p)
	if p.Filters.Counted || len(p.Filters.Attributes) == 0 || p.Filters.PriceRange.Min != nil {
		t.Fatalf("filters %+v", p.Filters)
	}
	for _, a := range p.Filters.Attributes {
		for _, o := range a.Options {
			if o.Disabled {
				t.Error("an uncounted option is disabled")
			}
		}
	}
}
