package contentpage_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"vitrine/internal/contentpage"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var at = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func service(db *sqlstore.DB) *contentpage.Service {
	return &contentpage.Service{Store: db, Now: func() time.Time { return at }}
}

func changes(t *testing.T, db *sqlstore.DB) int {
	t.Helper()
	list, err := db.ChangesSince(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range list {
		if c.Kind == sqlstore.ChangePages {
			n++
		}
	}
	return n
}

func TestSetGetListDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := service(db)
		p, err := s.Set(ctx, contentpage.Input{Slug: "about", Title: "  About   us ", Body: `<p>Hello <script>alert(1)</script><strong>there</strong></p>`})
		if err != nil {
			t.Fatal(err)
		}
		if p.ID == 0 || p.Title != "About us" || p.Status != contentpage.Published || !p.UpdatedAt.Equal(at) {
			t.Fatalf("stored page: %+v", p)
		}
		if strings.Contains(p.Body, "script") || !strings.Contains(p.Body, "<strong>there</strong>") {
			t.Fatalf("the body is not sanitized: %q", p.Body)
		}
		if p.Path() != "/about/" {
			t.Fatalf("path %q", p.Path())
		}
		if n := changes(t, db); n != 1 {
			t.Fatalf("%d page changes recorded, want 1", n)
		}

		// A second set replaces the page with that slug (same id).
		p2, err := s.Set(ctx, contentpage.Input{Slug: "about", Title: "About", Body: "<p>New</p>", Status: contentpage.Draft})
		if err != nil {
			t.Fatal(err)
		}
		if p2.ID != p.ID || p2.Body != "<p>New</p>" || p2.Status != contentpage.Draft {
			t.Fatalf("replaced page: %+v (first id %d)", p2, p.ID)
		}
		// A draft is not published; the store still has it.
		if _, err := s.Published(ctx, "about"); !errors.Is(err, contentpage.ErrNotFound) {
			t.Fatalf("draft published: %v", err)
		}
		if g, err := s.Get(ctx, "about"); err != nil || g.Title != "About" {
			t.Fatalf("get draft: %+v %v", g, err)
		}

		if _, err := s.Set(ctx, contentpage.Input{Slug: "shipping", Title: "Shipping", Body: "<p>Fast</p>"}); err != nil {
			t.Fatal(err)
		}
		list, err := s.List(ctx)
		if err != nil || len(list) != 2 || list[0].Slug != "about" || list[1].Slug != "shipping" {
			t.Fatalf("list: %+v %v", list, err)
		}
		if err := s.Delete(ctx, "about"); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, "about"); !errors.Is(err, contentpage.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		if _, err := s.Get(ctx, "about"); !errors.Is(err, contentpage.ErrNotFound) {
			t.Fatalf("deleted page read: %v", err)
		}
		if n := changes(t, db); n != 4 {
			t.Fatalf("%d page changes recorded, want 4 (three sets, one delete)", n)
		}
	})
}

func TestRefusedInputChangesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := service(db)
		ok := contentpage.Input{Slug: "returns", Title: "Returns", Body: "<p>30 days</p>"}
		for _, c := range []struct {
			field string
			in    func(contentpage.Input) contentpage.Input
		}{
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = ""; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "Returns"; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "re--turns"; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "a/b"; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = strings.Repeat("a", 65); return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "shop"; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "checkout"; return i }},
			{"slug", func(i contentpage.Input) contentpage.Input { i.Slug = "wp-json"; return i }},
			{"title", func(i contentpage.Input) contentpage.Input { i.Title = "   "; return i }},
			{"title", func(i contentpage.Input) contentpage.Input { i.Title = strings.Repeat("é", 201); return i }},
			{"title", func(i contentpage.Input) contentpage.Input { i.Title = "a\x00b"; return i }},
			{"body", func(i contentpage.Input) contentpage.Input { i.Body = " \n "; return i }},
			{"body", func(i contentpage.Input) contentpage.Input {
				i.Body = strings.Repeat("x", contentpage.MaxBody+1)
				return i
			}},
			{"body", func(i contentpage.Input) contentpage.Input { i.Body = "\xff\xfe"; return i }},
			{"status", func(i contentpage.Input) contentpage.Input { i.Status = "private"; return i }},
		} {
			_, err := s.Set(ctx, c.in(ok))
			var ie *contentpage.InputError
			if !errors.As(err, &ie) || ie.Field != c.field {
				t.Errorf("%+v: err = %v, want an InputError on %s", c.in(ok).Slug, err, c.field)
			}
		}
		if list, err := s.List(ctx); err != nil || len(list) != 0 {
			t.Fatalf("refused inputs wrote pages: %+v %v", list, err)
		}
		if n := changes(t, db); n != 0 {
			t.Fatalf("refused inputs recorded %d changes", n)
		}
	})
}

func TestLinksAndTerms(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := service(db)
		if terms, err := s.Terms(ctx); err != nil || terms != nil {
			t.Fatalf("terms with no page: %+v %v", terms, err)
		}
		for _, in := range []contentpage.Input{
			{Slug: "terms", Title: "Terms and conditions", Body: "<p>Be nice.</p>"},
			{Slug: "about", Title: "About us", Body: "<p>Us.</p>"},
			{Slug: "secret", Title: "Secret sale", Body: "<p>Soon.</p>", Status: contentpage.Draft},
		} {
			if _, err := s.Set(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		links, err := s.Links(ctx)
		want := []contentpage.Link{{Slug: "about", Title: "About us"}, {Slug: "terms", Title: "Terms and conditions"}}
		if err != nil || !reflect.DeepEqual(links, want) {
			t.Fatalf("links = %+v, %v; want %+v", links, err, want)
		}
		terms, err := s.Terms(ctx)
		if err != nil || terms == nil || terms.Title != "Terms and conditions" || terms.Body != "<p>Be nice.</p>" {
			t.Fatalf("terms = %+v, %v", terms, err)
		}

		// Another process writes (the store directly): the list stays
		// until Reset, as the server's change follower calls it.
		if _, err := db.PutContentPage(ctx, contentpage.Page{Slug: "returns", Title: "Returns", Body: "<p>r</p>", Status: contentpage.Published, UpdatedAt: at}); err != nil {
			t.Fatal(err)
		}
		if links, _ := s.Links(ctx); len(links) != 2 {
			t.Fatalf("the list was read again before Reset: %+v", links)
		}
		s.Reset()
		if links, _ := s.Links(ctx); len(links) != 3 || links[1].Slug != "returns" {
			t.Fatalf("after Reset: %+v", links)
		}

		// The terms page unpublished: the checkout falls back.
		if _, err := s.Set(ctx, contentpage.Input{Slug: "terms", Title: "Terms", Body: "<p>x</p>", Status: contentpage.Draft}); err != nil {
			t.Fatal(err)
		}
		if terms, err := s.Terms(ctx); err != nil || terms != nil {
			t.Fatalf("draft terms used: %+v %v", terms, err)
		}
		// A reserved or malformed slug is never published.
		for _, slug := range []string{"shop", "", "../etc", "A"} {
			if _, err := s.Published(ctx, slug); !errors.Is(err, contentpage.ErrNotFound) {
				t.Errorf("Published(%q) = %v", slug, err)
			}
		}
	})
}

func TestSeedDemo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := service(db)
		demo := []contentpage.Input{{Slug: "about", Title: "About", Body: "<p>a</p>"}, {Slug: "terms", Title: "Terms", Body: "<p>t</p>"}}
		if n, err := s.SeedDemo(ctx, demo); err != nil || n != 2 {
			t.Fatalf("first seed: %d %v", n, err)
		}
		// The owner deletes one and edits the other: a second start keeps that.
		if err := s.Delete(ctx, "about"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Set(ctx, contentpage.Input{Slug: "terms", Title: "Our terms", Body: "<p>mine</p>"}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.SeedDemo(ctx, demo); err != nil || n != 0 {
			t.Fatalf("second seed: %d %v", n, err)
		}
		list, _ := s.List(ctx)
		if len(list) != 1 || list[0].Title != "Our terms" {
			t.Fatalf("after the second seed: %+v", list)
		}
	})
}
