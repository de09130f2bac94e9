package server_test

import (
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Live search and the results page forgive typos with the same engine;
// a results page without any offers "Did you mean" and is counted for
// the admin; staff set synonyms that both then follow.
func TestSearchForgivesThroughTheShop(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
			CacheBytes: 16 << 20, CacheMaxAge: time.Hour})
		s := f.shop
		has := func(query, name string) bool {
			for _, sg := range decode[suggestions](t, s.get(liveSearch(query))).Suggestions {
				if sg.Value == name {
					return true
				}
			}
			return false
		}
		if !has("hoodei", "Everyday Hoodie") || !has("crewnek sweatshrit", "Crewneck Sweatshirt") {
			t.Error("live search does not forgive typos")
		}
		if b := body(t, s.get("/?s=sweatshrits&post_type=product")); !strings.Contains(b, "Crewneck Sweatshirt") {
			t.Error("results page: a typo and a plural")
		}

		// Two edits in six letters: the search finds nothing, and offers the correction.
		b := body(t, s.get("/?s=hoedxe&post_type=product"))
		if !strings.Contains(b, "No products were found") || !strings.Contains(b, `Did you mean <a href="/?s=hoodie&amp;post_type=product">hoodie</a>?`) {
			t.Errorf("did you mean: %s", excerpt(b, "No products"))
		}
		if b := body(t, s.get("/?s=qqqqqq&post_type=product")); strings.Contains(b, "Did you mean") {
			t.Error("did you mean with nothing near")
		}

		const path = "/wp-json/vitrine/v1/admin/search"
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		get := f.do("GET", path, mia, "", "X-WP-Nonce", nonce)
		if get.status != 200 || !strings.Contains(get.body, `"synonyms":[]`) || !strings.Contains(get.body, `"query":"hoedxe","count":1`) ||
			!strings.Contains(get.body, `"query":"qqqqqq","count":1`) || !strings.Contains(get.body, `"version":0`) {
			t.Fatalf("get: %d %s", get.status, get.body)
		}
		if has("sweater", "Crewneck Sweatshirt") {
			t.Fatal("fixture: sweater already finds the sweatshirt")
		}
		put := func(cookie, body string) frameAnswer {
			return f.do("PUT", path, f.cookie(cookie), body, "X-WP-Nonce", f.nonce(cookie), "Content-Type", "application/json")
		}
		if a := put("Carla", `{"synonyms":[["sweater","sweatshirt"]],"version":0}`); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}
		if a := put("Mia", `{"synonyms":[["sweater"]],"version":0}`); a.status != 400 || !strings.Contains(a.body, `synonyms[0]`) {
			t.Errorf("a group of one: %d %s", a.status, a.body)
		}
		if a := put("Mia", `{"synonyms":[["sweater","sweatshirt"]],"version":0}`); a.status != 200 || !strings.Contains(a.body, `"version":1`) {
			t.Fatalf("save: %d %s", a.status, a.body)
		}
		if a := put("Mia", `{"synonyms":[],"version":0}`); a.status != 409 {
			t.Errorf("stale save: %d %s", a.status, a.body)
		}
		if !has("sweater", "Crewneck Sweatshirt") {
			t.Error("live search does not follow the saved synonyms")
		}
		if b := body(t, s.get("/?s=sweater&post_type=product")); !strings.Contains(b, "Crewneck Sweatshirt") {
			t.Error("results page does not follow the saved synonyms")
		}
	})
}

func excerpt(b, near string) string {
	i := max(strings.Index(b, near)-200, 0)
	return b[i:min(len(b), i+600)]
}
