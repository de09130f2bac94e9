package settings_test

import (
	"context"
	"errors"
	"testing"

	"vitrine/internal/pages"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The footer's contact details and social profiles: saved when valid and
// carried to every page's settings; a bad email, phone or profile address
// is refused with its field named, and nothing is saved.
func TestContactDetailsAndSocial(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := &settings.Service{Store: db, Defaults: defaults()}
		v, err := s.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			field string
			edit  func(*settings.Shop)
		}{
			{"email", func(in *settings.Shop) { in.Email = "shop at example.com" }},
			{"email", func(in *settings.Shop) { in.Email = "Shop <shop@example.com>" }},
			{"email", func(in *settings.Shop) { in.Email = "shop@localhost" }},
			{"phone", func(in *settings.Shop) { in.Phone = "call us" }},
			{"phone", func(in *settings.Shop) { in.Phone = "12 34" }},
			{"phone", func(in *settings.Shop) { in.Phone = "+1 555 0100\n200" }},
			{"social.instagram", func(in *settings.Shop) { in.Social.Instagram = "javascript:alert(1)" }},
			{"social.facebook", func(in *settings.Shop) { in.Social.Facebook = "http://facebook.com/shop" }},
			{"social.x", func(in *settings.Shop) { in.Social.X = "https://" }},
		} {
			in := v.Shop
			c.edit(&in)
			_, err := s.Update(ctx, in, 0)
			var ie *settings.InputError
			if !errors.As(err, &ie) || ie.Field != c.field {
				t.Errorf("%+v: %v, want an error on %s", in, err, c.field)
			}
		}
		if cur := s.Current(); cur.Version != 0 {
			t.Fatalf("a refused save was stored: %+v", cur)
		}
		in := v.Shop
		in.Email, in.Phone = " hello@fern.example ", "+1 (555) 0100-200"
		in.Address = settings.Address{Line1: "12 Market St", City: "Portland", Postcode: "97201", State: "OR", Country: "US"}
		in.Social = settings.Social{Instagram: "https://www.instagram.com/fern", YouTube: "https://youtube.com/@fern"}
		saved, err := s.Update(ctx, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Email != "hello@fern.example" {
			t.Errorf("email %q", saved.Email)
		}
		ps := saved.Apply(pages.DefaultSettings())
		d := ps.Shop
		if d.Email != "hello@fern.example" || d.Phone != "+1 (555) 0100-200" || len(d.AddressLines) != 4 ||
			d.AddressLines[1] != "97201 Portland" || d.AddressLines[3] != "US" {
			t.Errorf("footer details %+v", d)
		}
		if len(d.Social) != 2 || d.Social[0].Network != "instagram" || d.Social[1].Label != "YouTube" || d.Social[1].URL != "https://youtube.com/@fern" {
			t.Errorf("social %+v", d.Social)
		}
	})
}
