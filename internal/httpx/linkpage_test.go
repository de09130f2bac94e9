package httpx_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"vitrine/internal/httpx"
)

// A mailed link's page: a form that POSTs the token when there is an
// action, the links otherwise; never stored, indexed or referred; text
// escaped.
func TestLinkPage(t *testing.T) {
	w := httptest.NewRecorder()
	err := httpx.LinkPage{Shop: "A & B", Title: "Confirm", Lead: []string{"<b>once</b>"}, Action: "/x/confirm/", Token: `t"1`, Button: "Confirm"}.
		Write(w, http.StatusOK)
	body := w.Body.String()
	if err != nil || w.Code != 200 || !strings.Contains(body, `<form method="post" action="/x/confirm/">`) ||
		!strings.Contains(body, `value="t&#34;1"`) || !strings.Contains(body, "&lt;b&gt;once&lt;/b&gt;") || !strings.Contains(body, "A &amp; B") {
		t.Fatalf("%d %v\n%s", w.Code, err, body)
	}
	for k, v := range map[string]string{"Cache-Control": "no-store, private", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer"} {
		if got := w.Header().Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	w = httptest.NewRecorder()
	_ = httpx.LinkPage{Title: "Gone", Problem: true, Links: []httpx.PageLink{{Href: "/p/", Text: "Back to the product"}, {Href: "/", Text: "back to the shop"}}}.
		Write(w, http.StatusGone)
	body = w.Body.String()
	if w.Code != 410 || strings.Contains(body, "<form") || !strings.Contains(body, `<main class="problem">`) ||
		!strings.Contains(body, `<p><a href="/p/">Back to the product</a> or <a href="/">back to the shop</a>.</p>`) {
		t.Errorf("%d\n%s", w.Code, body)
	}
}
