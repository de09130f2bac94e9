package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// A stand-in bundle shows which data the server rendered the popup from.
const echoBundle = `globalThis.render = function (u, j) { var d = JSON.parse(j); return '<div class="qv">' + d.page + ':' + d.product.name + '</div>'; }`

func postForm(s *shop, path string, form url.Values) *http.Response {
	return s.serve(servertest.FormRequest(http.MethodPost, path, form))
}

func TestQuickViewAjax(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newShop(t, db, echoBundle)
		tee := decode[apiProduct](t, s.get(api+"/products/classic-tee"))
		r := postForm(s, "/wp-admin/admin-ajax.php", url.Values{"action": {"flatsome_quickview"}, "product": {itoa(tee.ID)}})
		if b := body(t, r); r.StatusCode != 200 || b != `<div class="qv">quickview:Classic Tee</div>` {
			t.Errorf("quick view: %d %q", r.StatusCode, b)
		}
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=UTF-8" {
			t.Errorf("content type %q", ct)
		}
		cases := map[string]int{
			"999999":                   404, // unknown
			itoa(tee.Variations[0].ID): 404, // a variation is not a product page
			"abc":                      400,
			"":                         400,
			"-5":                       400,
		}
		for product, want := range cases {
			r := postForm(s, "/wp-admin/admin-ajax.php", url.Values{"action": {"flatsome_quickview"}, "product": {product}})
			if r.StatusCode != want {
				t.Errorf("product=%q: %d, want %d", product, r.StatusCode, want)
			}
		}
		draft := postForm(s, "/wp-admin/admin-ajax.php", url.Values{"action": {"flatsome_quickview"}, "product": {draftID(t, db)}})
		if draft.StatusCode != 404 {
			t.Errorf("draft: %d, want 404", draft.StatusCode)
		}
	})
}

func draftID(t *testing.T, db *sqlstore.DB) string {
	t.Helper()
	p, err := db.ProductBySlug(t.Context(), "alpaca-cardigan")
	if err != nil {
		t.Fatal(err)
	}
	return itoa(p.ID)
}

// With the real app bundle the popup is the quick-view content alone: the
// product, its price and its form, without the page's header or menu.
func TestQuickViewRealBundle(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	tee := decode[apiProduct](t, s.get(api+"/products/classic-tee"))
	r := postForm(s, "/wp-admin/admin-ajax.php", url.Values{"action": {"flatsome_quickview"}, "product": {itoa(tee.ID)}})
	b := body(t, r)
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	for _, want := range []string{"quickview__slider", "Classic Tee", "$28.00", "variations_form"} {
		if !strings.Contains(b, want) {
			t.Errorf("popup lacks %q", want)
		}
	}
	for _, not := range []string{"<header", "<html", "Skip to content"} {
		if strings.Contains(b, not) {
			t.Errorf("popup contains the page's %q", not)
		}
	}
}
