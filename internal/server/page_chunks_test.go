package server_test

import (
	"encoding/json"
	"io/fs"
	"testing"

	"vitrine/web"
)

// The storefront build splits by route (docs/decisions/0085): every page
// type is a chunk of its own, outside the entry, and what a page loads (its
// chunk and that chunk's static imports, read from Vite's manifest) holds
// no other page's chunk. The product page never loads the checkout's or the
// account's code, and the other way round.
func TestPageChunksSplitByRoute(t *testing.T) {
	t.Parallel()
	client, err := web.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := fs.ReadFile(client, ".vite/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]struct {
		File    string   `json:"file"`
		Imports []string `json:"imports"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	// The static closure of a manifest key: the files loaded with it.
	loads := func(key string) map[string]bool {
		files := map[string]bool{}
		seen := map[string]bool{}
		var walk func(k string)
		walk = func(k string) {
			c, ok := m[k]
			if seen[k] || !ok {
				return
			}
			seen[k] = true
			files[c.File] = true
			for _, i := range c.Imports {
				walk(i)
			}
		}
		walk(key)
		return files
	}

	const entry = "src/entry-client.tsx"
	pages := map[string]string{
		"home":     "src/home/HomePage.tsx",
		"listing":  "src/listing/ListingPage.tsx",
		"product":  "src/product/ProductPage.tsx",
		"cart":     "src/cart/CartPage.tsx",
		"checkout": "src/checkout/CheckoutPage.tsx",
		"account":  "src/account/AccountPage.tsx",
		"login":    "src/account/login/LoginPage.tsx",
		"contact":  "src/contact/ContactPage.tsx",
		"content":  "src/content/ContentPage.tsx",
	}
	own := map[string]string{} // page -> its chunk
	for page, src := range pages {
		c, ok := m[src]
		if !ok || c.File == "" {
			t.Fatalf("%s: %s is not a chunk of its own in the manifest", page, src)
		}
		own[page] = c.File
	}
	first := loads(entry)
	if len(first) < 2 {
		t.Fatalf("the entry loads %d files: %v", len(first), first)
	}
	for page, file := range own {
		if first[file] {
			t.Errorf("every page loads the %s page's chunk %s (it is in the entry's static imports)", page, file)
		}
	}
	for page, src := range pages {
		got := loads(src)
		for other, file := range own {
			if other != page && got[file] {
				t.Errorf("the %s page loads the %s page's chunk %s", page, other, file)
			}
		}
	}
}
