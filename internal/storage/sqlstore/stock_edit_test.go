package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Admin saves of a stock count against the orders that move it
// (catalog.StockEdit, stock_edit.go), on both engines.

func stockAdmin(db *sqlstore.DB) *catalog.Admin {
	return &catalog.Admin{Store: db, MinorUnit: 2, Now: func() time.Time { return orderNow }}
}

// sell places one bank-transfer order of qty units of p (a lamp, or a
// blue shirt of parent) from a fresh session.
func (f *orderFixture) sell(t *testing.T, n int, p, parent *catalog.Product, qty int64) {
	t.Helper()
	price := *p.RegularPrice
	f.add(t, session(n), p, parent, qty, price)
	if _, _, err := f.db.PlaceOrder(context.Background(), f.input(session(n), payment.BankTransfer{}, fmt.Sprint("sell", n))); err != nil {
		t.Fatal(err)
	}
}

// TestStaleAdminSaveKeepsSales is the probe's scenario: an editor opened
// before some sales saves the stock it was loaded with. The units sold
// meanwhile stay sold, whichever way the save names the stock.
func TestStaleAdminSaveKeepsSales(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 5)
		a := stockAdmin(db)
		read, _, err := a.Get(ctx, f.lamp.ID)
		if err != nil {
			t.Fatal(err)
		}
		f.sell(t, 1, f.lamp, nil, 2)
		f.sell(t, 2, f.lamp, nil, 1)
		if s := f.stock(t, f.lamp.ID); s != 2 {
			t.Fatalf("after the sales: stock %d", s)
		}

		// The editor sends the stock it read, unchanged, with a new name.
		p, err := a.Update(ctx, f.lamp.ID, read.Version, catalog.ProductInput{Name: s("Desk Lamp II"),
			ManageStock: b(true), StockQuantity: i64(5), OriginalStock: i64(5)})
		if err != nil {
			t.Fatal(err)
		}
		if *p.StockQuantity != 2 || p.StockStatus != catalog.StockInStock || p.Name != "Desk Lamp II" {
			t.Fatalf("unchanged stock restored sold units: %d %s %q", *p.StockQuantity, p.StockStatus, p.Name)
		}

		// An edit that names no stock keeps the count orders left, even
		// when it was loaded before them.
		read = p
		f.sell(t, 3, f.lamp, nil, 1)
		if p, err = a.Update(ctx, f.lamp.ID, read.Version, catalog.ProductInput{Name: s("Desk Lamp III")}); err != nil {
			t.Fatal(err)
		}
		if *p.StockQuantity != 1 {
			t.Fatalf("an edit without stock wrote the loaded count: %d", *p.StockQuantity)
		}

		// Received 4 more, typed over the count read (1) as 5, while the
		// last unit sold: the difference lands on the orders' count.
		read = p
		f.sell(t, 4, f.lamp, nil, 1)
		if p, err = a.Update(ctx, f.lamp.ID, read.Version, catalog.ProductInput{StockQuantity: i64(5), OriginalStock: i64(1)}); err != nil {
			t.Fatal(err)
		}
		if *p.StockQuantity != 4 || p.StockStatus != catalog.StockInStock {
			t.Fatalf("restock of 4 after the last unit sold: %d %s", *p.StockQuantity, p.StockStatus)
		}

		// A plain client (no original) after a sale since its version is
		// refused, and nothing of the edit is saved.
		read = p
		f.sell(t, 5, f.lamp, nil, 1)
		_, err = a.Update(ctx, f.lamp.ID, read.Version, catalog.ProductInput{Name: s("Renamed"), StockQuantity: i64(4)})
		var c *catalog.StockConflict
		if !errors.As(err, &c) || !errors.Is(err, catalog.ErrStockChanged) || c.ID != f.lamp.ID || c.Stock == nil || *c.Stock != 3 {
			t.Fatalf("plain stale count: %v", err)
		}
		now, _, _ := a.Get(ctx, f.lamp.ID)
		if *now.StockQuantity != 3 || now.Name != "Desk Lamp III" || now.Version != read.Version {
			t.Fatalf("a refused save changed the product: %d %q v%d", *now.StockQuantity, now.Name, now.Version)
		}
		// The same client sending the count it has now, or re-reading
		// and saving before the next sale, is taken as it is.
		if p, err = a.Update(ctx, f.lamp.ID, now.Version, catalog.ProductInput{StockQuantity: i64(3)}); err != nil || *p.StockQuantity != 3 {
			t.Fatalf("the current count: %v", err)
		}
		if p, err = a.Update(ctx, f.lamp.ID, p.Version, catalog.ProductInput{StockQuantity: i64(9)}); err != nil || *p.StockQuantity != 9 {
			t.Fatalf("a count without moves since the version: %v", err)
		}
		// A count taken down to 0 by the editor is out of stock.
		if p, err = a.Update(ctx, f.lamp.ID, p.Version, catalog.ProductInput{StockQuantity: i64(0), OriginalStock: i64(9)}); err != nil ||
			*p.StockQuantity != 0 || p.StockStatus != catalog.StockOutOfStock {
			t.Fatalf("down to 0: %v %+v", err, p)
		}
		// The original without a count is refused as input.
		_, err = a.Update(ctx, f.lamp.ID, p.Version, catalog.ProductInput{OriginalStock: i64(9)})
		var ie *catalog.InputError
		if !errors.As(err, &ie) || ie.Field != "original_stock_quantity" {
			t.Fatalf("original alone: %v", err)
		}
	})
}

// TestStaleVariationSaveKeepsSales: the same for a variation's stock,
// edited through the product's variations.
func TestStaleVariationSaveKeepsSales(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 5)
		a := stockAdmin(db)
		read, _, err := a.Get(ctx, f.shirt.ID)
		if err != nil {
			t.Fatal(err)
		}
		f.sell(t, 1, f.shirtBlue, f.shirt, 1) // the blue shirt: 2 → 1
		err = a.EditVariations(ctx, f.shirt.ID, read.Version, []catalog.VariationEdit{
			{ID: f.shirtBlue.ID, StockQuantity: i64(6), OriginalStock: i64(2)}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := f.stock(t, f.shirtBlue.ID); s != 5 {
			t.Fatalf("variation restock of 4 after a sale: %d", s)
		}
		p, _, _ := a.Get(ctx, f.shirt.ID)
		f.sell(t, 2, f.shirtBlue, f.shirt, 1)
		err = a.EditVariations(ctx, f.shirt.ID, p.Version, []catalog.VariationEdit{{ID: f.shirtBlue.ID, StockQuantity: i64(5)}}, nil)
		var c *catalog.StockConflict
		if !errors.As(err, &c) || c.ID != f.shirtBlue.ID || *c.Stock != 4 {
			t.Fatalf("plain stale variation count: %v", err)
		}
		if s := f.stock(t, f.shirtBlue.ID); s != 4 {
			t.Fatalf("refused variation save moved the stock: %d", s)
		}
	})
}

// TestAdminStockSavesRaceCheckouts: 30 checkouts race 5 admin restocks
// made from forms loaded before some of them. No unit is sold twice, and
// the final count is the start plus the restocks minus the units sold.
func TestAdminStockSavesRaceCheckouts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		const start, buyers = 10, 30
		f := newOrderFixture(t, db, start)
		a := stockAdmin(db)
		gate := make(chan struct{})
		race := f.raceCheckouts(t, buyers, gate, func(ce *cart.Error) bool {
			return ce.Code == "woocommerce_rest_product_out_of_stock" ||
				// A restock committed between the refused UPDATE and
				// the read of the count: "not enough" rather than none.
				ce.Code == "woocommerce_rest_product_partially_out_of_stock"
		})
		var restocks sync.WaitGroup
		restocked := int64(0)
		for k := int64(1); k <= 5; k++ {
			restocked += k
			restocks.Add(1)
			go func(k int64) {
				defer restocks.Done()
				<-gate
				// A save based on an older version (another restock got
				// in first) is stale: the editor reloads and saves again.
				for try := 0; try < 200; try++ {
					p, _, err := a.Get(ctx, f.lamp.ID)
					if err != nil {
						race.fail(err)
						return
					}
					_, err = a.Update(ctx, f.lamp.ID, p.Version, catalog.ProductInput{
						StockQuantity: i64(*p.StockQuantity + k), OriginalStock: i64(*p.StockQuantity)})
					if errors.Is(err, catalog.ErrStale) {
						continue
					}
					if err != nil {
						race.fail(err)
					}
					return
				}
				race.fail(fmt.Errorf("restock of %d stale 200 times", k))
			}(k)
		}
		close(gate)
		restocks.Wait()
		race.wait()
		placed := race.placed
		if len(race.other) != 0 || placed+race.refused != buyers {
			t.Fatalf("placed %d refused %d other %v", placed, race.refused, race.other)
		}
		sold := f.count(t, `SELECT COALESCE(SUM(quantity), 0) FROM order_lines WHERE product_id = ?`, f.lamp.ID)
		if sold != int64(placed) || sold > start+restocked {
			t.Fatalf("%d units sold in %d orders, from %d + %d", sold, placed, start, restocked)
		}
		final := f.stock(t, f.lamp.ID)
		if final != start+restocked-sold || final < 0 {
			t.Fatalf("final stock %d, want %d + %d - %d", final, start, restocked, sold)
		}
	})
}

func b(v bool) *bool { return &v }

func s(v string) *string { return &v }
