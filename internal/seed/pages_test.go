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
// substance, and include the four the footer and the checkout expect.
func TestDemoPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		svc := &contentpage.Service{Store: db}
		n, err := svc.SeedDemo(ctx, seed.DemoPages())
		if err != nil || n != 4 {
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
		if got := strings.Join(slugs, ","); got != "about,returns,shipping,terms" {
			t.Fatalf("published pages: %s", got)
		}
		terms, err := svc.Terms(ctx)
		if err != nil || terms == nil || !strings.Contains(terms.Body, "demonstration shop") || !strings.Contains(terms.Body, `<a href="/shipping/" rel="nofollow">`) {
			t.Fatalf("terms: %+v %v", terms, err)
		}
	})
}
