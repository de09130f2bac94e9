package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"vitrine/internal/contentpage"
	"vitrine/internal/pages"
	"vitrine/internal/seed"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The demo's privacy policy is a published page at /privacy-policy/, and
// every page's footer carries the shop's details: the legal links, the
// payment methods offered (named for screen readers), the contact details
// and profiles staff save, and "© year name" with the year of the
// server's clock when the page is rendered.
func TestPrivacyPageAndFooter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		clock := storetest.NewClock(seedTime)
		srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", Now: clock.Now,
			CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
		ctx := context.Background()
		if _, err := (&contentpage.Service{Store: db}).SeedDemo(ctx, seed.DemoPages()); err != nil {
			t.Fatal(err)
		}
		servertest.Start(t, srv)
		s := &shop{t: t, db: db, srv: srv}

		r := s.get("/privacy-policy/")
		page := body(t, r)
		if r.StatusCode != 200 {
			t.Fatalf("/privacy-policy/: %d", r.StatusCode)
		}
		for _, want := range []string{"<title>Privacy policy – Vitrine</title>", `<link rel="canonical" href="https://shop.example/privacy-policy/">`,
			"What we keep and why"} {
			if !strings.Contains(page, want) {
				t.Errorf("the privacy page lacks %s", want)
			}
		}
		if !strings.Contains(body(t, s.get("/sitemap-pages.xml")), "<loc>https://shop.example/privacy-policy/</loc>") {
			t.Error("the pages sitemap lacks the privacy policy")
		}

		year := itoa(int64(seedTime.Year()))
		shopPage := body(t, s.get("/shop/"))
		for _, want := range []string{`aria-label="Legal"`, `<a href="/privacy-policy/">Privacy policy</a>`, `<a href="/terms/">Terms and conditions</a>`,
			`>Bank transfer</span>`, `>Cash on delivery</span>`, "© " + year + " Vitrine"} {
			if !strings.Contains(shopPage, want) {
				t.Errorf("the footer lacks %s", want)
			}
		}
		if strings.Contains(shopPage, `footer-contact`) {
			t.Error("a contact block without contact details")
		}
		// The contact page's consent line, and the registration form,
		// link the policy.
		if c := body(t, s.get("/contact/")); !strings.Contains(c, `href="/privacy-policy/"`) || !strings.Contains(c, "I agree to the shop's <a") {
			t.Error("the contact form's consent line does not link the privacy policy")
		}
		if a := body(t, s.get("/my-account/")); !strings.Contains(a, `class="woocommerce-privacy-policy-link"`) {
			t.Error("the registration form does not link the privacy policy")
		}

		// Staff save contact details and a profile; a new year starts.
		svc := &settings.Service{Store: db, Defaults: settings.FromPages("Vitrine", "Tagline", false, pages.DefaultSettings())}
		cur, err := svc.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		in := cur.Shop
		in.Email, in.Phone = "hello@shop.example", "+1 555 0100 200"
		in.Address = settings.Address{Line1: "12 Market St", City: "Portland", Postcode: "97201", Country: "US"}
		in.Social.Instagram = "https://www.instagram.com/vitrine"
		clock.Set(time.Date(seedTime.Year()+1, 1, 1, 0, 0, 1, 0, time.UTC))
		if _, err := svc.Update(ctx, in, cur.Version); err != nil {
			t.Fatal(err)
		}
		next := itoa(int64(seedTime.Year() + 1))
		waitForSitemap(t, "the footer with the new details", func() bool {
			return strings.Contains(body(t, s.get("/shop/")), "hello@shop.example")
		})
		shopPage = body(t, s.get("/shop/"))
		for _, want := range []string{`href="mailto:hello@shop.example"`, `href="tel:+15550100200"`, "97201 Portland",
			`href="https://www.instagram.com/vitrine"`, "© " + next + " Vitrine"} {
			if !strings.Contains(shopPage, want) {
				t.Errorf("the footer lacks %s", want)
			}
		}
	})
}
