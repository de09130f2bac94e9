package pages

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"vitrine/internal/storeapi"
)

func TestCardsCarryAKeyOfTheirOwnData(t *testing.T) {
	tee := storeapi.Product{ID: 7, Name: "Tee <b>", Slug: "tee", Permalink: "/product/tee/", Prices: storeapi.Prices{Price: "1500"}}
	mug := storeapi.Product{ID: 8, Name: "Mug", Slug: "mug"}
	cheaper := tee
	cheaper.Prices.Price = "1200"

	keys := func(c Cards) []string {
		t.Helper()
		b, err := json.Marshal(struct {
			Related Cards `json:"related"`
		}{c})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Related []map[string]any `json:"related"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		// Everything else reads back as the Store API's product.
		var back struct {
			Related []storeapi.Product `json:"related"`
		}
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Related, []storeapi.Product(c)) {
			t.Fatalf("the products do not read back: %v\n%s", err, b)
		}
		var out []string
		for _, p := range got.Related {
			k, _ := p["card_key"].(string)
			if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(k) {
				t.Fatalf("card_key %q in %v", k, p)
			}
			out = append(out, k)
		}
		return out
	}
	a := keys(Cards{tee, mug})
	if len(a) != 2 || a[0] == a[1] {
		t.Fatalf("two products, two keys: %v", a)
	}
	if b := keys(Cards{mug, tee}); b[0] != a[1] || b[1] != a[0] {
		t.Errorf("a product's key is its own, wherever it is listed: %v then %v", a, b)
	}
	if c := keys(Cards{cheaper}); c[0] == a[0] {
		t.Errorf("a new price is a new key")
	}
	if b, _ := json.Marshal(Cards(nil)); string(b) != "null" {
		t.Errorf("nil cards: %s", b)
	}
	if b, _ := json.Marshal(Cards{}); string(b) != "[]" {
		t.Errorf("no cards: %s", b)
	}
}
