package seed_test

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/contentpage"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The demo pages pass the service's rules and the sanitizer unchanged in
// substance, and include the five the footer, the forms and the checkout
// expect (the privacy policy published).
func TestDemoPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		svc := &contentpage.Service{Store: db}
		n, err := svc.SeedDemo(ctx, seed.DemoPages())
		if err != nil || n != 5 {
			t.Fatalf("seed: %d %v", n, err)
		}
		links, err := svc.Links(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, l := range links {
			slugs = append(slugs, l.Slug)
		}
		if got := strings.Join(slugs, ","); got != "about,privacy-policy,returns,shipping,terms" {
			t.Fatalf("published pages: %s", got)
		}
		terms, err := svc.Terms(ctx)
		if err != nil || terms == nil || !strings.Contains(terms.Body, "demonstration shop") || !strings.Contains(terms.Body, `<a href="/shipping/" rel="nofollow">`) {
			t.Fatalf("terms: %+v %v", terms, err)
		}
	})
}

// A new shop's first start drafts a privacy policy (not shown until the
// owner publishes it); a shop with pages of its own gets none, and a
// second start changes nothing.
func TestPrivacyPolicyDraft(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		svc := &contentpage.Service{Store: db}
		draft := []contentpage.Input{contentpage.PrivacyDraft("Fern & Fig")}
		if n, err := svc.SeedFirst(ctx, draft); err != nil || n != 1 {
			t.Fatalf("first start: %d %v", n, err)
		}
		p, err := svc.Get(ctx, contentpage.PrivacySlug)
		if err != nil || p.Status != contentpage.Draft || p.Title != "Privacy policy" || !strings.Contains(p.Body, "Fern &amp; Fig") {
			t.Fatalf("draft: %+v %v", p, err)
		}
		if _, err := svc.Published(ctx, contentpage.PrivacySlug); err != contentpage.ErrNotFound {
			t.Errorf("the draft is published: %v", err)
		}
		if err := svc.Delete(ctx, contentpage.PrivacySlug); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Set(ctx, contentpage.Input{Slug: "about", Title: "About", Body: "<p>Us.</p>"}); err != nil {
			t.Fatal(err)
		}
		if n, err := svc.SeedFirst(ctx, draft); err != nil || n != 0 {
			t.Fatalf("a shop with pages: %d %v", n, err)
		}
		if _, err := svc.Get(ctx, contentpage.PrivacySlug); err != contentpage.ErrNotFound {
			t.Errorf("the deleted draft came back: %v", err)
		}
	})
}
