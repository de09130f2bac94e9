package catalog_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Sale schedules, external products and grouped products in the admin
// (products, second part), on both engines.

func tp(t time.Time) *time.Time { return &t }

func TestAdminSaleDates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		from, to := adminNow.Add(time.Hour), adminNow.Add(2*time.Hour)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Sale Kettle"), Status: s("publish"), RegularPrice: s("20.00"),
			SalePrice: s("15.00"), SaleFrom: &from, SaleTo: &to})
		if err != nil {
			t.Fatal(err)
		}
		if p.SaleFrom == nil || !p.SaleFrom.Equal(from) || p.SaleTo == nil || !p.SaleTo.Equal(to) {
			t.Fatalf("stored schedule: %v %v", p.SaleFrom, p.SaleTo)
		}
		if price, _ := p.Price(adminNow); price != 2000 {
			t.Errorf("before the sale: %d", price)
		}
		if price, _ := p.Price(from.Add(time.Minute)); price != 1500 {
			t.Errorf("during the sale: %d", price)
		}

		// Bad schedules are refused and change nothing.
		inputErr(t, func() error {
			_, err := a.Update(ctx, p.ID, p.Version, catalog.ProductInput{SaleTo: tp(from.Add(-time.Minute))})
			return err
		}(), "date_on_sale_to")
		inputErr(t, func() error {
			_, err := a.Update(ctx, p.ID, p.Version, catalog.ProductInput{SalePrice: s(""), SaleFrom: &from})
			return err
		}(), "date_on_sale_from")
		plain, err := a.Create(ctx, catalog.ProductInput{Name: s("Plain Kettle"), RegularPrice: s("20.00")})
		if err != nil {
			t.Fatal(err)
		}
		inputErr(t, func() error {
			_, err := a.Update(ctx, plain.ID, plain.Version, catalog.ProductInput{SaleTo: &to})
			return err
		}(), "date_on_sale_to")
		if again, _, _ := a.Get(ctx, p.ID); again.Version != p.Version || !again.SaleTo.Equal(to) {
			t.Errorf("a refused edit changed the product: v%d %v", again.Version, again.SaleTo)
		}

		// A zero time clears one date; clearing the sale price clears both.
		p, err = a.Update(ctx, p.ID, p.Version, catalog.ProductInput{SaleFrom: &time.Time{}})
		if err != nil || p.SaleFrom != nil || p.SaleTo == nil {
			t.Fatalf("clear from: %v %v %v", err, p.SaleFrom, p.SaleTo)
		}
		p, err = a.Update(ctx, p.ID, p.Version, catalog.ProductInput{SalePrice: s("")})
		if err != nil || p.SaleFrom != nil || p.SaleTo != nil || p.SalePrice != nil {
			t.Fatalf("clear sale: %v %+v", err, p)
		}
	})
}

// A scheduled sale takes effect at its start and ends at its end
// (inclusive, exclusive, as Product.SaleActive) for the price listings
// sort and filter by, the on-sale filter and the change log; a pre-order
// is released at its date. Two admins (two instances) passing at the
// same time make each change once.
func TestAdminApplySchedules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		clock := storetest.FrozenClock(adminNow)
		a.Now = clock.Now
		db.SetClock(clock.Now)
		other := &catalog.Admin{Store: db, MinorUnit: 2, Now: clock.Now}
		from, to := adminNow.Add(time.Hour), adminNow.Add(2*time.Hour)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Timed Teapot"), Status: s("publish"), RegularPrice: s("30.00"),
			SalePrice: s("25.00"), SaleFrom: &from, SaleTo: &to})
		if err != nil {
			t.Fatal(err)
		}
		// A listing filtered to the teapot's price band and to sales.
		inListing := func(onSale bool, min, max int64) bool {
			t.Helper()
			ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Include: []int64{p.ID}, OnSale: &onSale, MinPrice: &min, MaxPrice: &max, PerPage: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range ps {
				if q.ID == p.ID {
					return true
				}
			}
			return false
		}
		has := func(cs []catalog.Change, id int64) bool {
			for _, c := range cs {
				if c.ProductID == id && c.Kind == "product_listed" {
					return true
				}
			}
			return false
		}
		regular := func(at time.Time) {
			t.Helper()
			if !inListing(false, 3000, 3000) || inListing(true, 0, 1<<40) || inListing(false, 2500, 2500) {
				t.Errorf("at %s: want the regular price and not on sale", at.Format(time.RFC3339Nano))
			}
		}
		onSale := func(at time.Time) {
			t.Helper()
			if !inListing(true, 2500, 2500) || inListing(false, 0, 1<<40) || inListing(true, 3000, 3000) {
				t.Errorf("at %s: want the sale price and on sale", at.Format(time.RFC3339Nano))
			}
		}
		// pass runs both instances' passes at once and reports how many
		// products they changed together and whether the teapot's pages
		// were dropped.
		pass := func() (int, bool) {
			t.Helper()
			mark := lastChange(t, db)
			var wg sync.WaitGroup
			var n [2]int
			var errs [2]error
			for i, adm := range []*catalog.Admin{a, other} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					n[i], errs[i] = adm.ApplySchedules(ctx)
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			cs := changes(t, db, mark)
			count := 0
			for _, c := range cs {
				if c.ProductID == p.ID {
					count++
				}
			}
			if count > 1 {
				t.Errorf("the teapot's change was recorded %d times", count)
			}
			return n[0] + n[1], has(cs, p.ID)
		}

		regular(adminNow)
		if n, changed := pass(); n != 0 || changed {
			t.Errorf("before the sale: %d changes (teapot %v)", n, changed)
		}
		clock.Set(from.Add(-time.Nanosecond))
		if _, changed := pass(); changed {
			t.Error("a nanosecond before the start changed the teapot")
		}
		regular(clock.Now())
		clock.Set(from) // the start is inclusive
		if n, changed := pass(); n != 1 || !changed {
			t.Errorf("at the start: %d changes (teapot %v)", n, changed)
		}
		onSale(clock.Now())
		if n, changed := pass(); n != 0 || changed {
			t.Errorf("a second pass at the start: %d changes", n)
		}
		clock.Set(to.Add(-time.Nanosecond))
		if _, changed := pass(); changed {
			t.Error("a nanosecond before the end changed the teapot")
		}
		onSale(clock.Now())
		clock.Set(to) // the end is exclusive
		if n, changed := pass(); n != 1 || !changed {
			t.Errorf("at the end: %d changes (teapot %v)", n, changed)
		}
		regular(clock.Now())

		// A variable product follows its variation's sale: its lowest
		// price, its on-sale state.
		hoodie, err := db.ProductBySlug(ctx, "everyday-hoodie")
		if err != nil {
			t.Fatal(err)
		}
		_, vars, err := a.Get(ctx, hoodie.ID)
		if err != nil || len(vars) == 0 {
			t.Fatalf("hoodie variations: %v", err)
		}
		vfrom, vto := to.Add(time.Hour), to.Add(3*time.Hour)
		edit := func(e catalog.VariationEdit) {
			t.Helper()
			cur, _, err := a.Get(ctx, hoodie.ID)
			if err != nil {
				t.Fatal(err)
			}
			e.ID = vars[0].ID
			if err := a.EditVariations(ctx, hoodie.ID, cur.Version, []catalog.VariationEdit{e}, nil); err != nil {
				t.Fatal(err)
			}
		}
		edit(catalog.VariationEdit{SalePrice: s("1.00"), SaleFrom: &vfrom, SaleTo: &vto})
		hoodieOnSale := func() bool {
			t.Helper()
			yes, one := true, int64(100)
			ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Include: []int64{hoodie.ID}, OnSale: &yes, MaxPrice: &one, PerPage: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range ps {
				if q.ID == hoodie.ID {
					return true
				}
			}
			return false
		}
		if hoodieOnSale() {
			t.Error("the hoodie is on sale before its variation's sale starts")
		}
		clock.Set(vfrom)
		mark := lastChange(t, db)
		if _, err := a.ApplySchedules(ctx); err != nil {
			t.Fatal(err)
		}
		if !hoodieOnSale() || !has(changes(t, db, mark), hoodie.ID) {
			t.Error("the hoodie did not follow its variation's sale start")
		}
		clock.Set(vto)
		if _, err := a.ApplySchedules(ctx); err != nil {
			t.Fatal(err)
		}
		if hoodieOnSale() {
			t.Error("the hoodie stayed on sale after its variation's sale ended")
		}

		// A pre-order is released at its date, once.
		release := vto.Add(time.Hour)
		yes := true
		edit(catalog.VariationEdit{PreOrder: &yes, PreOrderAt: &release})
		preOrder := func() bool {
			t.Helper()
			_, vs, err := a.Get(ctx, hoodie.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if v.ID == vars[0].ID {
					return v.PreOrder
				}
			}
			t.Fatal("the variation is gone")
			return false
		}
		clock.Set(release.Add(-time.Nanosecond))
		if _, err := a.ApplySchedules(ctx); err != nil || !preOrder() {
			t.Errorf("released before its date: %v", err)
		}
		clock.Set(release)
		if n, changed := pass(); n != 1 || preOrder() {
			t.Errorf("at the release date: %d changes, still a pre-order: %v (changed %v)", n, preOrder(), changed)
		}
	})
}

func TestAdminExternalAndGrouped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		ext, err := a.Create(ctx, catalog.ProductInput{Name: s("Partner Lamp"), Type: s("external"), Status: s("publish"),
			RegularPrice: s("80.00"), ExternalURL: s(" https://partner.example/lamp "), ButtonText: s("Buy at partner")})
		if err != nil {
			t.Fatal(err)
		}
		if ext.ExternalURL != "https://partner.example/lamp" || ext.ButtonText != "Buy at partner" {
			t.Errorf("external: %q %q", ext.ExternalURL, ext.ButtonText)
		}
		for _, bad := range []string{"javascript:alert(1)", "ftp://x.example/", "//x.example"} {
			inputErr(t, func() error {
				_, err := a.Update(ctx, ext.ID, ext.Version, catalog.ProductInput{ExternalURL: s(bad)})
				return err
			}(), "external_url")
		}
		simple, err := a.Create(ctx, catalog.ProductInput{Name: s("Lamp Shade"), Status: s("publish"), RegularPrice: s("12.00")})
		if err != nil {
			t.Fatal(err)
		}
		draft, _ := a.Create(ctx, catalog.ProductInput{Name: s("Draft Bulb"), RegularPrice: s("2.00")})
		variable, _ := a.Create(ctx, catalog.ProductInput{Name: s("Bulb Set"), Type: s("variable"), Status: s("publish")})

		g, err := a.Create(ctx, catalog.ProductInput{Name: s("Lamp Kit"), Type: s("grouped"), Status: s("publish"),
			GroupedProducts: &[]int64{simple.ID, ext.ID}})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Children) != 2 || g.Children[0] != simple.ID || g.Children[1] != ext.ID {
			t.Fatalf("children: %v", g.Children)
		}
		for _, bad := range [][]int64{{g.ID}, {draft.ID}, {variable.ID}, {999999}, {simple.ID, simple.ID}} {
			inputErr(t, func() error {
				_, err := a.Update(ctx, g.ID, g.Version, catalog.ProductInput{GroupedProducts: &bad})
				return err
			}(), "grouped_products")
		}
		inputErr(t, func() error {
			_, err := a.Update(ctx, simple.ID, simple.Version, catalog.ProductInput{GroupedProducts: &[]int64{ext.ID}})
			return err
		}(), "grouped_products")
		g, err = a.Update(ctx, g.ID, g.Version, catalog.ProductInput{GroupedProducts: &[]int64{ext.ID}})
		if err != nil || len(g.Children) != 1 || g.Children[0] != ext.ID {
			t.Fatalf("remove a child: %v %v", err, g.Children)
		}
	})
}
