package catalog_test

import (
	"context"
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

func TestAdminSaleWindowsCrossed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		from, to := adminNow.Add(time.Hour), adminNow.Add(2*time.Hour)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Timed Teapot"), Status: s("publish"), RegularPrice: s("30.00"),
			SalePrice: s("25.00"), SaleFrom: &from, SaleTo: &to})
		if err != nil {
			t.Fatal(err)
		}
		has := func(cs []catalog.Change, id int64) bool {
			for _, c := range cs {
				if c.ProductID == id && c.Kind == "product_listed" {
					return true
				}
			}
			return false
		}
		// Nothing crossed yet: no change for the teapot.
		mark := lastChange(t, db)
		since, _, err := a.SaleWindowsCrossed(ctx, adminNow.Add(-time.Minute))
		if err != nil || !since.Equal(adminNow) {
			t.Fatalf("first pass: %v %v", since, err)
		}
		if has(changes(t, db, mark), p.ID) {
			t.Error("a sale that has not started made a change")
		}
		// The sale starts: one change; the next pass from there makes none.
		clock := from.Add(time.Minute)
		a.Now = func() time.Time { return clock }
		mark = lastChange(t, db)
		since, n, err := a.SaleWindowsCrossed(ctx, since)
		if err != nil || n < 1 || !since.Equal(clock) || !has(changes(t, db, mark), p.ID) {
			t.Fatalf("start: %d %v %v", n, since, err)
		}
		mark = lastChange(t, db)
		if _, n, err := a.SaleWindowsCrossed(ctx, since); err != nil || n != 0 || len(changes(t, db, mark)) != 0 {
			t.Errorf("same pass again: %d %v", n, err)
		}
		// The sale ends.
		clock = to.Add(time.Second)
		if _, _, err := a.SaleWindowsCrossed(ctx, since); err != nil || !has(changes(t, db, mark), p.ID) {
			t.Errorf("end: %v", err)
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
