package settings_test

import (
	"context"
	"errors"
	"testing"

	"vitrine/internal/checkout"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Edit changes one part of a document: on the document in force, with
// the save's checks; a save by another instance in between is kept and
// the change re-applied; a refused change leaves the document in force as
// it was (the change works on a copy).
func TestEdit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := &settings.Service{Store: db, Defaults: defaults()}
		b := &settings.Service{Store: db, Defaults: defaults()} // another instance, loaded before a's save
		if _, err := b.Load(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Edit(ctx, func(s *settings.Shop) error { s.Tagline = "From A"; return nil }); err != nil {
			t.Fatal(err)
		}
		calls := 0
		v, err := b.Edit(ctx, func(s *settings.Shop) error { calls++; s.Address.City = "Lyon"; return nil })
		if err != nil || v.Version != 2 || v.Tagline != "From A" || v.Address.City != "Lyon" || calls != 2 {
			t.Fatalf("edit on a stale instance: %+v %v, change applied %d times", v, err, calls)
		}
		// The save's checks apply; nothing is saved.
		if _, err := b.Edit(ctx, func(s *settings.Shop) error { s.Name = ""; return nil }); !errors.As(err, new(*settings.InputError)) {
			t.Errorf("empty name: %v", err)
		}
		if cur := b.Current(); cur.Version != 2 || cur.Name != "Vitrine" {
			t.Errorf("after a refused edit: %+v", cur)
		}

		// A change that fails, after touching a slice, leaves the rules in force whole.
		rules := &settings.Rules{Store: db, Defaults: checkout.Rules{TaxRates: []checkout.TaxRate{{ID: 1, Country: "US", Rate: 5000, Label: "Tax"}}}}
		stop := errors.New("stop")
		if _, err := rules.Edit(ctx, func(r *checkout.Rules) error { r.TaxRates[0].Rate = 1; return stop }); err != stop {
			t.Fatalf("change's error: %v", err)
		}
		if cur := rules.Current(); cur.Value.TaxRates[0].Rate != 5000 || cur.Version != 0 {
			t.Errorf("a failed change reached the rules in force: %+v", cur)
		}
		d, err := rules.Edit(ctx, func(r *checkout.Rules) error {
			r.TaxRates = append(r.TaxRates, checkout.TaxRate{Country: "DE", Rate: 19000, Label: "MwSt"})
			return nil
		})
		if err != nil || d.Version != 1 || len(d.Value.TaxRates) != 2 || d.Value.TaxRates[1].ID != 2 {
			t.Errorf("rules edit: %+v %v", d, err)
		}
	})
}
