package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

type apiErr struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Status int               `json:"status"`
		Params map[string]string `json:"params"`
	} `json:"data"`
}

type apiProduct struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Type      string `json:"type"`
	Variation string `json:"variation"`
	Permalink string `json:"permalink"`
	OnSale    bool   `json:"on_sale"`
	Prices    struct {
		Price        string `json:"price"`
		RegularPrice string `json:"regular_price"`
		PriceRange   *struct {
			Min string `json:"min_amount"`
			Max string `json:"max_amount"`
		} `json:"price_range"`
		Code  string `json:"currency_code"`
		Minor int    `json:"currency_minor_unit"`
	} `json:"prices"`
	Variations []struct {
		ID int64 `json:"id"`
	} `json:"variations"`
	Categories []struct {
		Slug string `json:"slug"`
		Link string `json:"link"`
	} `json:"categories"`
	Images []struct {
		Src string `json:"src"`
	} `json:"images"`
	IsInStock         bool   `json:"is_in_stock"`
	LowStockRemaining *int64 `json:"low_stock_remaining"`
	AddToCart         struct {
		Text     string `json:"text"`
		Minimum  int    `json:"minimum"`
		Maximum  int    `json:"maximum"`
		Multiple int    `json:"multiple_of"`
	} `json:"add_to_cart"`
}

func decode[T any](t *testing.T, r *http.Response) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

const api = "/wp-json/wc/store/v1"

func TestStoreAPIProducts(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		r := s.get(api + "/products?per_page=20")
		if r.StatusCode != 200 || r.Header.Get("X-WP-Total") != "38" || r.Header.Get("X-WP-TotalPages") != "2" {
			t.Fatalf("list: %d total=%q pages=%q", r.StatusCode, r.Header.Get("X-WP-Total"), r.Header.Get("X-WP-TotalPages"))
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=UTF-8" {
			t.Errorf("content type %q", ct)
		}
		list := decode[[]apiProduct](t, r)
		if len(list) != 20 {
			t.Fatalf("got %d products", len(list))
		}

		tee := decode[apiProduct](t, s.get(api+"/products/classic-tee"))
		if tee.Type != "variable" || len(tee.Variations) != 36 || tee.Prices.PriceRange != nil && tee.Prices.PriceRange.Min == "" {
			t.Errorf("tee = %+v", tee)
		}
		if tee.Prices.Code != "USD" || tee.Prices.Minor != 2 || tee.Prices.Price != "2800" {
			t.Errorf("tee prices = %+v", tee.Prices)
		}
		if tee.Permalink != "https://shop.example/product/classic-tee/" || tee.AddToCart.Text != "Select options" {
			t.Errorf("tee permalink/add_to_cart = %q %+v", tee.Permalink, tee.AddToCart)
		}
		if len(tee.Categories) == 0 || tee.Categories[0].Link != "https://shop.example/product-category/clothing/t-shirts/" {
			t.Errorf("tee categories = %+v", tee.Categories)
		}
		if len(tee.Images) == 0 || !strings.HasPrefix(tee.Images[0].Src, "https://shop.example/media/demo/") {
			t.Errorf("tee images = %+v", tee.Images)
		}
		// A variation id answers with the parent's name and a variation label.
		v := decode[apiProduct](t, s.get(api+"/products/"+itoa(tee.Variations[0].ID)))
		if v.Name != "Classic Tee" || !strings.Contains(v.Variation, "Color: ") || v.Type != "variation" {
			t.Errorf("variation = %+v", v)
		}
		socks := decode[apiProduct](t, s.get(api+"/products/everyday-crew-socks"))
		if socks.AddToCart.Minimum != 2 || socks.AddToCart.Maximum != 10 || socks.AddToCart.Multiple != 2 {
			t.Errorf("socks limits = %+v", socks.AddToCart)
		}

		filters := []struct {
			query string
			check func([]apiProduct) bool
		}{
			{"orderby=price&order=asc&per_page=100", func(ps []apiProduct) bool {
				for i := 1; i < len(ps); i++ {
					if atoi(ps[i].Prices.Price) < atoi(ps[i-1].Prices.Price) {
						return false
					}
				}
				return len(ps) == 38
			}},
			{"on_sale=true&per_page=100", func(ps []apiProduct) bool {
				for _, p := range ps {
					if !p.OnSale && p.Type != "variable" && p.Type != "grouped" {
						return false
					}
				}
				return len(ps) >= 3
			}},
			{"category=t-shirts&per_page=100", func(ps []apiProduct) bool {
				for _, p := range ps {
					if p.Categories[0].Slug != "t-shirts" {
						return false
					}
				}
				return len(ps) > 0
			}},
			{"type=external", func(ps []apiProduct) bool { return len(ps) == 1 && ps[0].Type == "external" }},
			{"sku=TEE-CLASSIC", func(ps []apiProduct) bool { return len(ps) == 1 && ps[0].Name == "Classic Tee" }},
			{"search=hoodie&per_page=100", func(ps []apiProduct) bool { return len(ps) >= 2 }},
			{"min_price=5000&per_page=100", func(ps []apiProduct) bool {
				for _, p := range ps {
					if atoi(p.Prices.Price) < 5000 {
						return false
					}
				}
				return len(ps) > 0
			}},
			{"include=" + itoa(tee.ID) + "&orderby=include", func(ps []apiProduct) bool { return len(ps) == 1 && ps[0].ID == tee.ID }},
			{"search=%25%27%22%3B--&per_page=5", func(ps []apiProduct) bool { return len(ps) == 0 }},
			{"type=variation", func(ps []apiProduct) bool { return len(ps) == 0 }},
		}
		for _, f := range filters {
			r := s.get(api + "/products?" + f.query)
			if r.StatusCode != 200 {
				t.Errorf("%s: status %d", f.query, r.StatusCode)
				continue
			}
			if ps := decode[[]apiProduct](t, r); !f.check(ps) {
				t.Errorf("%s: unexpected result (%d products)", f.query, len(ps))
			}
		}
	})
}

func TestStoreAPIBadInput(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		cases := []struct {
			path   string
			status int
			code   string
			param  string
		}{
			{"/products?per_page=0", 400, "rest_invalid_param", "per_page"},
			{"/products?per_page=101", 400, "rest_invalid_param", "per_page"},
			{"/products?per_page=abc", 400, "rest_invalid_param", "per_page"},
			{"/products?page=-1", 400, "rest_invalid_param", "page"},
			{"/products?orderby=drop%20table", 400, "rest_invalid_param", "orderby"},
			{"/products?order=sideways", 400, "rest_invalid_param", "order"},
			{"/products?type=bundle", 400, "rest_invalid_param", "type"},
			{"/products?include=1,x", 400, "rest_invalid_param", "include"},
			{"/products?on_sale=maybe", 400, "rest_invalid_param", "on_sale"},
			{"/products?min_price=-5", 400, "rest_invalid_param", "min_price"},
			{"/products?max_price=1e99", 400, "rest_invalid_param", "max_price"},
			{"/products?category=no-such-category", 400, "rest_invalid_param", "category"},
			{"/products?stock_status=lots", 400, "rest_invalid_param", "stock_status"},
			{"/products?search=" + strings.Repeat("a", 10000), 400, "rest_invalid_param", "search"},
			{"/products/999999", 404, "woocommerce_rest_not_found", ""},
			{"/products/no-such-slug", 404, "woocommerce_rest_not_found", ""},
			{"/products/alpaca-cardigan", 404, "woocommerce_rest_not_found", ""}, // draft
			{"/products/categories/999999", 404, "woocommerce_rest_not_found", ""},
			{"/products/categories/abc", 404, "woocommerce_rest_category_invalid_id", ""},
			{"/products/attributes/999999", 404, "woocommerce_rest_not_found", ""},
			{"/products/attributes/0", 404, "woocommerce_rest_attribute_invalid_id", ""},
			{"/products/attributes/999999/terms", 404, "woocommerce_rest_not_found", ""},
			{"/products/attributes/1/terms?orderby=evil", 400, "rest_invalid_param", "orderby"},
			{"/nope", 404, "rest_no_route", ""},
		}
		for _, tc := range cases {
			r := s.get(api + tc.path)
			if r.StatusCode != tc.status {
				t.Errorf("%s: status %d, want %d", tc.path, r.StatusCode, tc.status)
				continue
			}
			e := decode[apiErr](t, r)
			if e.Code != tc.code || e.Data.Status != tc.status || e.Message == "" {
				t.Errorf("%s: error %+v, want code %s", tc.path, e, tc.code)
			}
			if tc.param != "" {
				if _, ok := e.Data.Params[tc.param]; !ok {
					t.Errorf("%s: data.params lacks %q: %v", tc.path, tc.param, e.Data.Params)
				}
			}
		}
	})
}

func TestStoreAPITaxonomies(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		var cats []struct {
			ID        int64  `json:"id"`
			Slug      string `json:"slug"`
			Parent    int64  `json:"parent"`
			Count     int    `json:"count"`
			Permalink string `json:"permalink"`
		}
		cats = decode[[]struct {
			ID        int64  `json:"id"`
			Slug      string `json:"slug"`
			Parent    int64  `json:"parent"`
			Count     int    `json:"count"`
			Permalink string `json:"permalink"`
		}](t, s.get(api+"/products/categories"))
		if len(cats) != 13 {
			t.Fatalf("%d categories", len(cats))
		}
		found := false
		for _, c := range cats {
			if c.Slug == "hoodies" {
				found = c.Parent != 0 && c.Permalink == "https://shop.example/product-category/clothing/hoodies/" && c.Count > 0
				one := s.get(api + "/products/categories/" + itoa(c.ID))
				if one.StatusCode != 200 {
					t.Errorf("category %d: %d", c.ID, one.StatusCode)
				}
			}
		}
		if !found {
			t.Errorf("hoodies category wrong: %+v", cats)
		}
		attrs := decode[[]struct {
			ID       int64  `json:"id"`
			Taxonomy string `json:"taxonomy"`
			Type     string `json:"type"`
		}](t, s.get(api+"/products/attributes"))
		if len(attrs) != 2 || attrs[0].Taxonomy != "pa_color" || attrs[0].Type != "color" {
			t.Fatalf("attributes = %+v", attrs)
		}
		terms := decode[[]struct {
			Slug  string `json:"slug"`
			Color string `json:"color"`
		}](t, s.get(api+"/products/attributes/"+itoa(attrs[0].ID)+"/terms"))
		if len(terms) < 6 || terms[0].Color == "" {
			t.Errorf("colour terms = %+v", terms)
		}
		sizes := decode[[]struct {
			Slug string `json:"slug"`
		}](t, s.get(api+"/products/attributes/"+itoa(attrs[1].ID)+"/terms"))
		if len(sizes) != 6 || sizes[0].Slug != "xs" || sizes[5].Slug != "xxl" {
			t.Errorf("size terms not in menu order: %+v", sizes)
		}
	})
}

// metricValue reads one unlabelled gauge from the metrics handler.
func metricValue(t *testing.T, s *shop, name string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	s.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	t.Fatalf("/metrics lacks %s", name)
	return 0
}

// TestStoreAPICacheKeyIgnoresJunk: the Store API response cache is keyed by
// the parameters the endpoint reads, normalized, so tracking parameters,
// cache busters and parameter order hit one entry and never change the
// answer.
func TestStoreAPICacheKeyIgnoresJunk(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	first := s.get(api + "/products?per_page=5&orderby=price&order=asc")
	want := body(t, first)
	if first.StatusCode != 200 {
		t.Fatalf("status %d", first.StatusCode)
	}
	entries := metricValue(t, s, "vitrine_api_cache_entries")
	hits := metricValue(t, s, "vitrine_api_cache_hits")
	variants := []string{
		"/products?per_page=5&orderby=price&order=asc&utm_source=evil",
		"/products?_=1234567&per_page=5&orderby=price&order=asc",
		"/products?order=asc&orderby=price&per_page=5",
		"/products?per_page=5&per_page=99&orderby=price&order=asc", // the first value counts
		"/products?per_page=5&orderby=price&order=asc&search=&fbclid=x&include=",
		"/products?per_page=5&orderby=price&order=asc&_fields=id&context=edit",
	}
	for _, v := range variants {
		r := s.get(api + v)
		if b := body(t, r); r.StatusCode != 200 || b != want {
			t.Errorf("GET %s: %d, answer differs from the clean request's", v, r.StatusCode)
		}
		if got := r.Header.Get("X-WP-Total"); got != first.Header.Get("X-WP-Total") {
			t.Errorf("GET %s: X-WP-Total %q", v, got)
		}
	}
	if got := metricValue(t, s, "vitrine_api_cache_entries"); got != entries {
		t.Errorf("junk and reordered parameters added cache entries: %v → %v", entries, got)
	}
	if got := metricValue(t, s, "vitrine_api_cache_hits"); got != hits+float64(len(variants)) {
		t.Errorf("api cache hits %v → %v, want +%d", hits, got, len(variants))
	}
	// A parameter the endpoint reads still makes its own entry.
	other := body(t, s.get(api+"/products?per_page=5&orderby=price&order=desc"))
	if other == want {
		t.Error("order=desc answered like order=asc")
	}
	if got := metricValue(t, s, "vitrine_api_cache_entries"); got != entries+1 {
		t.Errorf("a different known parameter: entries %v, want %v", got, entries+1)
	}
	// Endpoints that read no parameters have one entry whatever is sent.
	cats := body(t, s.get(api+"/products/categories"))
	before := metricValue(t, s, "vitrine_api_cache_entries")
	for _, q := range []string{"?_=1", "?utm_source=x&page=3", "?orderby=name"} {
		if b := body(t, s.get(api+"/products/categories"+q)); b != cats {
			t.Errorf("categories%s: answer differs", q)
		}
	}
	if got := metricValue(t, s, "vitrine_api_cache_entries"); got != before {
		t.Errorf("categories with junk: entries %v → %v", before, got)
	}
	// Bad values of known parameters are still refused with the REST error.
	r := s.get(api + "/products?per_page=500&utm_source=x")
	if e := decode[apiErr](t, r); r.StatusCode != 400 || e.Code != "rest_invalid_param" {
		t.Errorf("per_page=500: %d %+v", r.StatusCode, e)
	}
}
