package cart_test

import (
	"context"
	"testing"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// A guest's cart moves into the customer's at login: lines add up, the
// stock rule holds against what the customer's cart already has, and the
// guest cart is emptied.
func TestServiceMerge(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank := f.product("cotton-tank-top")
		capP := f.product("studio-staff-cap") // 5 in stock
		guest, customer := session(10), "u_42"

		if _, _, err := f.svc.Add(ctx, guest, tank.ID, 2, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Add(ctx, guest, capP.ID, 4, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Add(ctx, customer, tank.ID, 1, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Add(ctx, customer, capP.ID, 3, nil); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Merge(ctx, guest, customer); err != nil {
			t.Fatal(err)
		}
		c, err := f.svc.Get(ctx, customer)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int64{}
		for _, l := range c.Lines {
			got[l.ProductID] = l.Quantity
		}
		// The tank tops add up; 3 + 4 caps would be more than the 5 in
		// stock, so the guest's caps stay out and the customer keeps 3.
		if len(c.Lines) != 2 || got[tank.ID] != 3 || got[capP.ID] != 3 {
			t.Fatalf("merged cart: %v", got)
		}
		if g, err := f.svc.Get(ctx, guest); err != nil || len(g.Lines) != 0 {
			t.Fatalf("guest cart after merge: %+v %v", g, err)
		}
		// Merging an empty cart, or a cart into itself, changes nothing.
		if err := f.svc.Merge(ctx, guest, customer); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Merge(ctx, customer, customer); err != nil {
			t.Fatal(err)
		}
		if c, _ := f.svc.Get(ctx, customer); len(c.Lines) != 2 {
			t.Fatalf("after merging nothing: %+v", c.Lines)
		}
	})
}
