package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitrine/internal/contentpage"
	"vitrine/internal/storage/storetest"
)

// `vitrine page set|list|delete` against a real store: bodies from a file
// or stdin, sanitized; clear refusals (exit 2) that change nothing.
func TestPageCommand(t *testing.T) {
	dir := t.TempDir()
	about := filepath.Join(dir, "about.html")
	if err := os.WriteFile(about, []byte(`<p>We sew.</p><script>alert(1)</script>`), 0o600); err != nil {
		t.Fatal(err)
	}
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		page := func(stdin string, args ...string) (string, int) {
			return run(t, bin, stdin, append([]string{"--db", dsn, "--log-level", "warn", "page"}, args...)...)
		}
		if out, code := page("", "list"); code != 0 || !strings.Contains(out, "no pages") {
			t.Fatalf("empty list: %d %s", code, out)
		}
		if out, code := page("", "set", "about", "--title", "About us", "--file", about); code != 0 || !strings.Contains(out, `added /about/ "About us" (published)`) {
			t.Fatalf("set about: %d %s", code, out)
		}
		if out, code := page("<p>Be nice.</p>", "set", "terms", "--title", "Terms", "--file", "-", "--draft"); code != 0 || !strings.Contains(out, `added /terms/ "Terms" (draft, not shown)`) {
			t.Fatalf("set terms: %d %s", code, out)
		}
		if out, code := page("<p>Be nicer.</p>", "set", "terms", "--title", "Terms and conditions", "--file", "-"); code != 0 || !strings.Contains(out, `updated /terms/ "Terms and conditions" (published)`) {
			t.Fatalf("update terms: %d %s", code, out)
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"set", "shop", "--title", "Shop", "--file", about}, "one of the shop's own addresses"},
			{[]string{"set", "Big Page", "--title", "x", "--file", about}, "lower-case letters"},
			{[]string{"set", "faq", "--file", about}, "title: is empty"},
			{[]string{"set", "faq", "--title", "FAQ"}, "--file is required"},
			{[]string{"set", "faq", "--title", "FAQ", "--file", filepath.Join(dir, "missing.html")}, "no such file"},
			{[]string{"set", "--title", "FAQ", "faq"}, "slug comes first"},
			{[]string{"set", "faq", "--title", "FAQ", "--file", about, "--colour", "red"}, "flag provided but not defined"},
			{[]string{"delete", "faq"}, `no page has the slug "faq"`},
			{[]string{"delete"}, "give the page's slug"},
			{[]string{"publish", "about"}, "usage: vitrine page set"},
		} {
			if out, code := page("", c.args...); code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s", c.args, code, out)
			}
		}
		if out, code := page("   ", "set", "faq", "--title", "FAQ", "--file", "-"); code != 2 || !strings.Contains(out, "body: is empty") {
			t.Errorf("empty body: %d %s", code, out)
		}
		out, code := page("", "list")
		for _, want := range []string{"PATH", "/about/", "publish", "About us", "/terms/", "Terms and conditions"} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("list lacks %q: %d\n%s", want, code, out)
			}
		}
		if strings.Contains(out, "faq") || strings.Contains(out, "/shop/") {
			t.Errorf("a refused page was stored:\n%s", out)
		}

		// The store holds what the commands said, sanitized.
		st := storetest.OpenDSN(t, dsn)
		p, err := st.ContentPage(context.Background(), "about")
		if err != nil || p.Body != "<p>We sew.</p>" || p.Status != contentpage.Published {
			t.Fatalf("stored about: %+v %v", p, err)
		}
		if out, code := page("", "delete", "about"); code != 0 || !strings.Contains(out, "deleted /about/") {
			t.Fatalf("delete: %d %s", code, out)
		}
		if _, err := st.ContentPage(context.Background(), "about"); err != contentpage.ErrNotFound {
			t.Fatalf("deleted page still stored: %v", err)
		}
	})
}
