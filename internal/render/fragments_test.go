package render_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vitrine/internal/pages"
)

// The server bundle reuses the HTML of parts many pages share (the header,
// product cards: web/src/lib/server-fragments.tsx) from one render to the
// next inside an engine. These tests hold it to what matters on the server:
// a page renders the same bytes whatever the engine rendered before, and a
// change in the page data shows at once.
func TestRenderReusesSharedPartsExactly(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	render := func(e interface {
		Render(context.Context, string, []byte) (string, error)
	}, url string, raw []byte) string {
		t.Helper()
		html, err := e.Render(ctx, url, raw)
		if err != nil {
			t.Fatal(err)
		}
		return html
	}
	// A fresh engine per page gives the HTML without any reuse.
	fresh := func(url string, raw []byte) string { return render(newEngine(t, f.bundle, 1), url, raw) }
	wantProduct := fresh("/product/classic-tee/", f.prodRaw)
	wantShop := fresh("/shop/", f.listRaw)

	e := newEngine(t, f.bundle, 1)
	for i := 0; i < 3; i++ { // the shop's cards come back on the product page's related products, and the header on both
		if got := render(e, "/shop/", f.listRaw); got != wantShop {
			t.Fatalf("round %d: the shop page differs from a fresh engine's:\n%s", i, firstDiff(got, wantShop))
		}
		if got := render(e, "/product/classic-tee/", f.prodRaw); got != wantProduct {
			t.Fatalf("round %d: the product page differs from a fresh engine's:\n%s", i, firstDiff(got, wantProduct))
		}
	}

	// A product renamed and repriced in the admin: its card shows it on the next render.
	var page pages.ListingPage
	if err := json.Unmarshal(f.listRaw, &page); err != nil {
		t.Fatal(err)
	}
	last := len(page.Products) - 1 // past the eager first row, so a reused card
	page.Products[last].Name = "Renamed by the shop manager"
	page.Products[last].Prices.Price = "123456"
	changed, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}
	got := render(e, "/shop/", changed)
	if !strings.Contains(got, "Renamed by the shop manager") || !strings.Contains(got, "1,234.56") {
		t.Fatalf("the changed card is not on the page")
	}
	if want := fresh("/shop/", changed); got != want {
		t.Fatalf("the changed shop page differs from a fresh engine's:\n%s", firstDiff(got, want))
	}
}

func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-120)
	return "got:  …" + got[lo:min(len(got), i+120)] + "\nwant: …" + want[lo:min(len(want), i+120)]
}
