package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
)

type suggestions struct {
	Suggestions []struct {
		Type  string `json:"type"`
		ID    int64  `json:"id"`
		Value string `json:"value"`
		URL   string `json:"url"`
		Img   string `json:"img"`
		Price string `json:"price"`
	} `json:"suggestions"`
}

const ajax = "/wp-admin/admin-ajax.php"

func liveSearch(query string, extra ...string) string {
	q := url.Values{"action": {"flatsome_ajax_search_products"}, "query": {query}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return ajax + "?" + q.Encode()
}

const noResultsJSON = `{"suggestions":[{"id":-1,"value":"No results","url":""}]}`

func TestLiveSearch(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		r := s.get(liveSearch("hoodie"))
		if r.StatusCode != 200 {
			t.Fatalf("status %d", r.StatusCode)
		}
		for h, want := range map[string]string{"Content-Type": "application/json; charset=UTF-8", "X-Robots-Tag": "noindex", "Cache-Control": "no-store"} {
			if got := r.Header.Get(h); got != want {
				t.Errorf("%s = %q, want %q", h, got, want)
			}
		}
		res := decode[suggestions](t, r)
		if len(res.Suggestions) < 2 {
			t.Fatalf("suggestions = %+v", res.Suggestions)
		}
		// Name matches first (in the shop's order), then description matches.
		if res.Suggestions[0].Value != "Everyday Hoodie" || res.Suggestions[1].Value != "Zip Hoodie" {
			t.Errorf("first suggestions %q, %q", res.Suggestions[0].Value, res.Suggestions[1].Value)
		}
		for _, sg := range res.Suggestions {
			if sg.Type != "Product" || sg.ID <= 0 || !strings.HasPrefix(sg.URL, "https://shop.example/product/") || !strings.HasSuffix(sg.URL, "/") ||
				!strings.HasPrefix(sg.Img, "https://shop.example/media/") || !strings.Contains(sg.Price, "woocommerce-Price-amount") {
				t.Errorf("suggestion %+v", sg)
			}
		}
		first := res.Suggestions[0]
		p := decode[apiProduct](t, s.get(api+"/products/"+itoa(first.ID)))
		if p.Permalink != first.URL || first.Img != p.Images[0].Src && !strings.Contains(first.Img, "/media/") {
			t.Errorf("suggestion %+v vs product %s %+v", first, p.Permalink, p.Images)
		}

		// Variation SKU, prefix, diacritics, limit.
		for query, want := range map[string]string{"TEE-CLASSIC": "Classic Tee", "classic te": "Classic Tee", "CRÈWNECK": "Crewneck Sweatshirt", "weeken": "Big Weekender Tote"} {
			res := decode[suggestions](t, s.get(liveSearch(query)))
			if len(res.Suggestions) == 0 || res.Suggestions[0].Value != want {
				t.Errorf("%q: %+v", query, res.Suggestions)
			}
		}
		if res := decode[suggestions](t, s.get(liveSearch("cotton"))); len(res.Suggestions) != 10 {
			t.Errorf("cotton: %d suggestions, want the limit of 10", len(res.Suggestions))
		}

		// POST form, as admin-ajax accepts.
		r = postForm(s, ajax, url.Values{"action": {"flatsome_ajax_search_products"}, "query": {"beanie"}})
		if b := body(t, r); r.StatusCode != 200 || !strings.Contains(b, "Ribbed Beanie") {
			t.Errorf("POST: %d %s", r.StatusCode, b)
		}

		// Category filter by id (with subcategories) and by slug.
		cats := decode[[]struct {
			ID   int64  `json:"id"`
			Slug string `json:"slug"`
		}](t, s.get(api+"/products/categories"))
		ids := map[string]string{}
		for _, c := range cats {
			ids[c.Slug] = itoa(c.ID)
		}
		if res := decode[suggestions](t, s.get(liveSearch("hoodie", "product_cat", ids["clothing"]))); len(res.Suggestions) == 0 || res.Suggestions[0].Value != "Everyday Hoodie" {
			t.Errorf("hoodie in clothing: %+v", res.Suggestions)
		}
		// In Hoodies the two named hoodies come first, then
		// the category's other products, found by the category's name.
		if res := decode[suggestions](t, s.get(liveSearch("hoodie", "product_cat", "hoodies"))); len(res.Suggestions) != 4 ||
			!strings.Contains(res.Suggestions[0].Value+res.Suggestions[1].Value, "Everyday Hoodie") ||
			!strings.Contains(res.Suggestions[0].Value+res.Suggestions[1].Value, "Zip Hoodie") {
			t.Errorf("hoodie in hoodies (slug): %+v", res.Suggestions)
		}
		if b := body(t, s.get(liveSearch("hoodie", "product_cat", ids["accessories"]))); b != noResultsJSON {
			t.Errorf("hoodie in accessories: %s", b)
		}

		// Nothing, and bad input: the "No results" entry, never an error.
		for name, path := range map[string]string{
			"no match":             liveSearch("zebra"),
			"a draft":              liveSearch("alpaca"),
			"missing query":        ajax + "?action=flatsome_ajax_search_products",
			"empty query":          liveSearch(""),
			"two characters":       liveSearch("ho"),
			"three spaces":         liveSearch("   "),
			"punctuation":          liveSearch(`"*-`),
			"10,000 characters":    liveSearch(strings.Repeat("x", 10000)),
			"unknown category":     liveSearch("hoodie", "product_cat", "999999"),
			"non-numeric category": liveSearch("hoodie", "product_cat", "no-such-slug"),
			"fts syntax":           liveSearch(`NEAR( "x" OR *`),
			"tsquery syntax":       liveSearch(`zz:* & !'`),
		} {
			r := s.get(path)
			if b := body(t, r); r.StatusCode != 200 || b != noResultsJSON {
				t.Errorf("%s: %d %.200s", name, r.StatusCode, b)
			}
		}
		if r := s.get(liveSearch("hoodie", "product_cat", "all")); r.StatusCode != 200 || len(decode[suggestions](t, r).Suggestions) < 2 {
			t.Error("product_cat=all filtered")
		}

		// WordPress's answer to an unknown or missing action.
		for _, path := range []string{ajax, ajax + "?action=nope", ajax + "?action="} {
			r := s.get(path)
			if b := body(t, r); r.StatusCode != 400 || b != "0" {
				t.Errorf("GET %s: %d %q", path, r.StatusCode, b)
			}
		}
		if r := s.do(http.MethodPut, liveSearch("hoodie")); r.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("PUT: %d", r.StatusCode)
		}
	})
}

func TestLiveSearchCacheFollowsRenames(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	if b := body(t, s.get(liveSearch("everyday"))); !strings.Contains(b, "Everyday Hoodie") {
		t.Fatalf("before: %s", b)
	}
	editProduct(t, s.db, "everyday-hoodie", func(h *catalog.Product) {
		h.Name = "Everyday Pullover"
	})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(body(t, s.get(liveSearch("everyday"))), "Everyday Pullover") {
		if time.Now().After(deadline) {
			t.Fatal("renamed product still suggested under its old name")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A query the old name did not match finds it once the change is seen.
	if b := body(t, s.get(liveSearch("pullov"))); !strings.Contains(b, "Everyday Pullover") {
		t.Errorf("new name: %s", b)
	}
}

func TestSearchResultsAndStoreAPISearch(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		list := decode[[]apiProduct](t, s.get(api+"/products?search=hoodie&per_page=5"))
		if len(list) < 2 || list[0].Name != "Everyday Hoodie" || list[1].Name != "Zip Hoodie" {
			t.Errorf("Store API search ranks names first: %+v", names2(list))
		}
		list = decode[[]apiProduct](t, s.get(api+"/products?search=hoodie&orderby=price&order=desc"))
		for i := 1; i < len(list); i++ {
			if atoi(list[i].Prices.Price) > atoi(list[i-1].Prices.Price) {
				t.Errorf("search by price desc out of order: %v", names2(list))
			}
		}
		if r := s.get(api + "/products?search=hoodie&orderby=relevance"); r.StatusCode != 200 {
			t.Errorf("orderby=relevance: %d", r.StatusCode)
		}
		b := body(t, s.get("/?s=hoodie&post_type=product"))
		i, j := strings.Index(b, "Everyday Hoodie"), strings.Index(b, "Zip Hoodie")
		if i < 0 || j < 0 || i > j {
			t.Errorf("results page: hoodies missing or out of order (%d, %d)", i, j)
		}
		if b := body(t, s.get("/?s=classic+te&post_type=product&orderby=price")); !strings.Contains(b, "Classic Tee") {
			t.Error("results page sorted by price lacks Classic Tee")
		}
	})
}

func names2(ps []apiProduct) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}
