package server_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// collectionDataQuery is the reference answer's request: price range,
// pa_color (or) and pa_size (and) counts, rating and stock status counts.
const collectionDataQuery = "calculate_price_range=true&calculate_attribute_counts%5B0%5D%5Btaxonomy%5D=pa_color&calculate_attribute_counts%5B0%5D%5Bquery_type%5D=or" +
	"&calculate_attribute_counts%5B1%5D%5Btaxonomy%5D=pa_size&calculate_attribute_counts%5B1%5D%5Bquery_type%5D=and&calculate_rating_counts=true&calculate_stock_status_counts=true"

func getObject(t *testing.T, s *shop, path string) (map[string]any, int) {
	t.Helper()
	r := s.get(path)
	var v map[string]any
	b := body(t, r)
	if err := json.Unmarshal([]byte(b), &v); err != nil {
		t.Fatalf("GET %s: %d %s", path, r.StatusCode, b)
	}
	return v, r.StatusCode
}

func keysOf(v any) []string {
	m, _ := v.(map[string]any)
	return slices.Sorted(maps.Keys(m))
}

// TestCollectionDataWire: /products/collection-data answers in
// WooCommerce 11's shape (the keys of the recorded answer, stock counts as
// strings), its counts agree with /products under the same filters, and
// bad filters are refused as rest_invalid_param.
func TestCollectionDataWire(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		const api = "/wp-json/wc/store/v1/products"
		cd, code := getObject(t, s, api+"/collection-data?"+collectionDataQuery)
		if code != 200 {
			t.Fatalf("collection-data: %d %v", code, cd)
		}
		if got, want := keysOf(cd), []string{"attribute_counts", "price_range", "rating_counts", "stock_status_counts", "taxonomy_counts"}; !slices.Equal(got, want) {
			t.Errorf("keys %v, want %v", got, want)
		}
		if got, want := keysOf(cd["price_range"]), []string{"currency_code", "currency_decimal_separator", "currency_minor_unit", "currency_prefix",
			"currency_suffix", "currency_symbol", "currency_thousand_separator", "max_price", "min_price"}; !slices.Equal(got, want) {
			t.Errorf("price_range keys %v, want %v", got, want)
		}
		if cd["taxonomy_counts"] != nil {
			t.Errorf("taxonomy_counts %v, want null", cd["taxonomy_counts"])
		}
		terms := cd["attribute_counts"].([]any)
		if len(terms) == 0 || !slices.Equal(keysOf(terms[0]), []string{"count", "term"}) {
			t.Fatalf("attribute_counts %v", terms)
		}
		stock := cd["stock_status_counts"].([]any)
		if len(stock) != 3 || !slices.Equal(keysOf(stock[0]), []string{"count", "status"}) {
			t.Fatalf("stock_status_counts %v", stock)
		}
		if _, ok := stock[0].(map[string]any)["count"].(string); !ok {
			t.Errorf("stock count %v is not a string, as WooCommerce sends it", stock[0])
		}
		for _, r := range cd["rating_counts"].([]any) {
			if !slices.Equal(keysOf(r), []string{"count", "rating"}) {
				t.Errorf("rating count %v", r)
			}
		}

		// All three stock counts add up to the products listed.
		total := func(path string) int {
			t.Helper()
			r := s.get(path)
			b := body(t, r)
			if r.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", path, r.StatusCode, b)
			}
			n, _ := strconv.Atoi(r.Header.Get("X-WP-Total"))
			return n
		}
		sum := 0
		for _, st := range stock {
			n, _ := strconv.Atoi(st.(map[string]any)["count"].(string))
			sum += n
		}
		if all := total(api + "?per_page=1"); sum != all {
			t.Errorf("stock counts add to %d, /products lists %d", sum, all)
		}

		// Each colour's count (or: the colour filter itself set aside) is
		// what /products lists when filtered by that colour, whatever
		// colour is chosen.
		navy := total(api + "?per_page=1&attributes%5B0%5D%5Battribute%5D=pa_color&attributes%5B0%5D%5Bslug%5D=navy")
		if navy == 0 {
			t.Fatal("no navy products")
		}
		chosen, _ := getObject(t, s, api+"/collection-data?"+collectionDataQuery+"&attributes%5B0%5D%5Battribute%5D=pa_color&attributes%5B0%5D%5Bslug%5D=black")
		found := false
		for _, tc := range chosen["attribute_counts"].([]any) {
			m := tc.(map[string]any)
			if int(m["count"].(float64)) == navy {
				found = true
			}
		}
		if !found {
			t.Errorf("no colour counted %d (navy's listing) with black chosen: %v", navy, chosen["attribute_counts"])
		}
		// Ratings narrow: 4 and 5 stars list at most what the counts say.
		rated, _ := getObject(t, s, api+"/collection-data?calculate_rating_counts=true")
		want := 0
		for _, r := range rated["rating_counts"].([]any) {
			m := r.(map[string]any)
			if m["rating"].(float64) >= 4 {
				want += int(m["count"].(float64))
			}
		}
		if got := total(api + "?per_page=1&rating=4,5"); got != want {
			t.Errorf("rating=4,5 lists %d, counts say %d", got, want)
		}
		// Nothing asked: every part null.
		empty, _ := getObject(t, s, api+"/collection-data")
		for k, v := range empty {
			if v != nil {
				t.Errorf("%s = %v unasked, want null", k, v)
			}
		}

		for _, bad := range []struct{ query, param string }{
			{"/collection-data?rating=7", "rating"},
			{"?attributes%5B0%5D%5Battribute%5D=pa_nope&attributes%5B0%5D%5Bslug%5D=x", "attributes"},
			{"/collection-data?calculate_attribute_counts%5B0%5D%5Btaxonomy%5D=pa_nope", "calculate_attribute_counts"},
			{"/collection-data?calculate_attribute_counts%5B0%5D%5Btaxonomy%5D=pa_color&calculate_attribute_counts%5B0%5D%5Bquery_type%5D=xor", "calculate_attribute_counts[0][query_type]"},
			{"?attribute_relation=sometimes", "attribute_relation"},
			{"?attributes%5B0%5D%5Battribute%5D=pa_color&attributes%5B0%5D%5Boperator%5D=maybe&attributes%5B0%5D%5Bslug%5D=navy", "attributes[0][operator]"},
		} {
			v, code := getObject(t, s, api+bad.query)
			data, _ := v["data"].(map[string]any)
			params, _ := data["params"].(map[string]any)
			if code != 400 || v["code"] != "rest_invalid_param" || params[bad.param] == nil {
				t.Errorf("%s: %d %v, want 400 rest_invalid_param naming %s", bad.query, code, v, bad.param)
			}
			if !strings.HasPrefix(v["message"].(string), "Invalid parameter(s): ") {
				t.Errorf("%s: message %q", bad.query, v["message"])
			}
		}
	})
}
