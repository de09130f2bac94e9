package pages_test

import (
	"time"

	"context"
	"testing"

	"vitrine/internal/pages"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The home's hero slides are the top-level categories with a picture and
// products, in menu order; the featured row holds only featured products.
func TestHomeSlidesAndFeatured(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		db.SetClock(func() time.Time { return seedTime })
		if _, err := seed.Demo(ctx, db, seedTime); err != nil {
			t.Fatal(err)
		}
		res, err := loader(t, db, 30).Home(ctx, "/")
		if err != nil {
			t.Fatal(err)
		}
		home := res.Data.(pages.HomePage)
		cats, err := db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, c := range cats {
			if c.ParentID == 0 && c.Image != nil && c.Count > 0 && len(want) < pages.MaxSlides {
				want = append(want, c.Name)
			}
		}
		if len(want) < 2 {
			t.Fatalf("the demo needs at least two top-level categories with pictures, has %v", want)
		}
		if len(home.Slides) != len(want) {
			t.Fatalf("%d slides, want %d (%v)", len(home.Slides), len(want), want)
		}
		for i, s := range home.Slides {
			if s.Title != want[i] || s.CTA != "Shop "+want[i] {
				t.Errorf("slide %d: %q / %q, want %q", i, s.Title, s.CTA, want[i])
			}
			if s.Image == nil || s.Image.Width == 0 || s.Image.Height == 0 || s.Image.Src == "" {
				t.Errorf("slide %d image %+v: want a picture with its size", i, s.Image)
			}
			if s.URL == "" || s.Text == "" {
				t.Errorf("slide %d: url %q text %q", i, s.URL, s.Text)
			}
		}
		if len(home.Featured) == 0 {
			t.Fatal("no featured products on the demo home")
		}
		for _, p := range home.Featured {
			got, err := db.Product(ctx, p.ID)
			if err != nil || !got.Featured {
				t.Errorf("featured row holds %q, not featured (%v)", p.Name, err)
			}
		}
	})
}
