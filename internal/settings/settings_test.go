package settings_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/pages"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func defaults() settings.Shop {
	return settings.FromPages("Vitrine", "Shop well", false, pages.DefaultSettings())
}

func TestLoadUpdateAndConflicts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC)
		s := &settings.Service{Store: db, Defaults: defaults(), Now: func() time.Time { return now }}
		v, err := s.Load(ctx)
		if err != nil || v.Version != 0 || v.Name != "Vitrine" || v.InfiniteScroll != "spinner" || !v.Lightbox {
			t.Fatalf("defaults before any save: %+v %v", v, err)
		}
		changesBefore, _ := db.ChangesSince(ctx, 0, 1000)

		in := v.Shop
		in.Name, in.StoreNotice, in.ComingSoon, in.InfiniteScroll = "  Vitrine Paris ", "Free <strong>shipping</strong><script>x()</script>", true, "button"
		in.Address = settings.Address{Line1: "1 rue de Rivoli", City: "Paris", Postcode: "75001", Country: "fr"}
		saved, err := s.Update(ctx, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Version != 1 || saved.Name != "Vitrine Paris" || saved.Address.Country != "FR" || !saved.UpdatedAt.Equal(now) {
			t.Fatalf("saved: %+v", saved)
		}
		if cur := s.Current(); cur.Version != 1 || !cur.ComingSoon {
			t.Fatalf("current after save: %+v", cur)
		}
		// The save is in the change log, for every instance.
		changes, _ := db.ChangesSince(ctx, 0, 1000)
		if len(changes) != len(changesBefore)+1 || changes[len(changes)-1].Kind != sqlstore.ChangeSettings {
			t.Fatalf("change log: %+v", changes)
		}
		// Another instance loads what was saved; the notice is sanitized when applied.
		other := &settings.Service{Store: db, Defaults: defaults()}
		got, err := other.Load(ctx)
		if err != nil || got.Version != 1 || got.Name != "Vitrine Paris" || got.InfiniteScroll != "button" {
			t.Fatalf("other instance: %+v %v", got, err)
		}
		ps := got.Apply(pages.DefaultSettings())
		if ps.StoreNotice == nil || strings.Contains(ps.StoreNotice.HTML, "script") || ps.InfiniteScroll.Type != "button" {
			t.Fatalf("applied: %+v", ps)
		}

		// A save based on version 0 again (a second tab opened before the first save) is refused.
		if _, err := s.Update(ctx, in, 0); !errors.Is(err, settings.ErrStale) {
			t.Fatalf("stale save from 0: %v", err)
		}
		// Two saves racing from version 1: exactly one wins.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				x := in
				x.Tagline = strings.Repeat("t", i+1)
				_, errs[i] = s.Update(ctx, x, 1)
			}(i)
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, settings.ErrStale):
				t.Fatalf("race: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d saves won from the same version", won)
		}
		if v, _ := other.Load(ctx); v.Version != 2 {
			t.Fatalf("version after the race: %d", v.Version)
		}

		// Bad input is refused and changes nothing.
		for field, mut := range map[string]func(*settings.Shop){
			"name":                    func(s *settings.Shop) { s.Name = "  " },
			"tagline":                 func(s *settings.Shop) { s.Tagline = strings.Repeat("x", 201) },
			"address.country":         func(s *settings.Shop) { s.Address.Country = "France" },
			"address.city":            func(s *settings.Shop) { s.Address.City = "Paris\nLyon" },
			"store_notice":            func(s *settings.Shop) { s.StoreNotice = "<script>only()</script>" },
			"infinite_scroll":         func(s *settings.Shop) { s.InfiniteScroll = "forever" },
			"infinite_scroll_history": func(s *settings.Shop) { s.InfiniteScrollHistory = "" },
		} {
			x := s.Current().Shop
			mut(&x)
			var ie *settings.InputError
			if _, err := s.Update(ctx, x, 2); !errors.As(err, &ie) || ie.Field != field {
				t.Errorf("%s: %v", field, err)
			}
		}
		if v, _ := other.Load(ctx); v.Version != 2 {
			t.Fatalf("a refused save changed the version: %d", v.Version)
		}
	})
}
