package cart_test

// The cart's use cases called directly, without HTTP, on every configured
// engine (storetest), with the demo catalogue.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

type fixture struct {
	t     *testing.T
	db    *sqlstore.DB
	svc   *cart.Service
	clock *storetest.Clock // the store and the services read it
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	clock := storetest.NewClock(seedTime)
	db.SetClock(clock.Now)
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, db: db, clock: clock, svc: &cart.Service{Store: db, Catalog: storetest.Cache(db), Now: clock.Now}}
}

func (f *fixture) product(slug string) *catalog.Product {
	f.t.Helper()
	p, err := f.db.ProductBySlug(context.Background(), slug)
	if err != nil {
		f.t.Fatalf("%s: %v", slug, err)
	}
	return p
}

func session(i int) string { return fmt.Sprintf("t_%030x", i) }

func code(err error) string {
	var ce *cart.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return fmt.Sprint(err)
}

func TestServiceAddUpdateRemove(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank := f.product("cotton-tank-top")
		sid := session(1)

		c, line, err := f.svc.Add(ctx, sid, tank.ID, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		price, _ := tank.Price(f.clock.Now())
		if len(c.Lines) != 1 || c.Lines[0].Quantity != 2 || line.Key != cart.LineKey(tank.ID, 0, nil) || c.Lines[0].UnitPrice != price {
			t.Fatalf("after add: %+v %+v", c.Lines, line)
		}
		// The same product again is the same line.
		if c, _, err = f.svc.Add(ctx, sid, tank.ID, 1, nil); err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != 3 {
			t.Fatalf("second add: %+v %v", c, err)
		}
		if c, err = f.svc.SetQuantity(ctx, sid, line.Key, 5); err != nil || c.Lines[0].Quantity != 5 {
			t.Fatalf("set quantity: %+v %v", c, err)
		}
		if _, err := f.svc.SetQuantity(ctx, sid, "nope", 1); err != cart.ErrInvalidKey {
			t.Errorf("unknown key: %v", err)
		}
		if _, err := f.svc.SetQuantity(ctx, sid, "", 1); err != cart.ErrInvalidKey {
			t.Errorf("empty key: %v", err)
		}
		if err := f.svc.Remove(ctx, sid, line.Key); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Remove(ctx, sid, line.Key); err != cart.ErrInvalidKey {
			t.Errorf("second remove: %v", err)
		}
		if c, err := f.svc.Get(ctx, sid); err != nil || len(c.Lines) != 0 {
			t.Errorf("after remove: %+v %v", c, err)
		}

		// Refusals.
		if _, _, err := f.svc.Add(ctx, sid, 999999, 1, nil); err != cart.ErrInvalidProduct {
			t.Errorf("unknown product: %v", err)
		}
		capP := f.product("studio-staff-cap") // 5 in stock
		if _, _, err := f.svc.Add(ctx, sid, capP.ID, 6, nil); code(err) != "woocommerce_rest_product_partially_out_of_stock" &&
			code(err) != "woocommerce_rest_product_out_of_stock" {
			t.Errorf("over stock: %v", err)
		}
		if _, _, err := f.svc.Add(ctx, sid, capP.ID, 5, nil); err != nil {
			t.Errorf("all the stock: %v", err)
		}
		if _, _, err := f.svc.Add(ctx, sid, capP.ID, 1, nil); err == nil {
			t.Errorf("one more than the stock was added")
		}
		if id, qty, err := cart.ParseAdd(" 12 ", ""); id != 12 || qty != 1 || err != nil {
			t.Errorf("ParseAdd: %d %d %v", id, qty, err)
		}
		if id, _, err := cart.ParseAdd("x", "1"); id != 0 || err != cart.ErrInvalidProduct {
			t.Errorf("ParseAdd of a bad id: %d %v", id, err)
		}
	})
}

func TestServiceVariationChoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tee := f.product("classic-tee")
		sid := session(2)
		if _, _, err := f.svc.Add(ctx, sid, tee.ID, 1, nil); code(err) != "woocommerce_rest_missing_variation_data" {
			t.Errorf("no choice: %v", err)
		}
		chosen := []cart.Attr{{Attribute: "pa_color", Value: "rust"}, {Attribute: "pa_size", Value: "xxl"}}
		c, line, err := f.svc.Add(ctx, sid, tee.ID, 2, chosen)
		if err != nil {
			t.Fatal(err)
		}
		if line.ProductID != tee.ID || line.VariationID == 0 || len(c.Lines) != 1 || c.Lines[0].VariationID != line.VariationID {
			t.Fatalf("variation line: %+v", line)
		}
		// Naming the variation itself is the same line.
		if c, _, err = f.svc.Add(ctx, sid, line.VariationID, 1, nil); err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != 3 {
			t.Errorf("by variation id: %+v %v", c, err)
		}
		sell, parent, l, err := f.svc.Resolve(ctx, tee.ID, chosen)
		if err != nil || sell.ID != line.VariationID || parent.ID != tee.ID || l.Key != line.Key {
			t.Errorf("Resolve: %v %v %+v %v", sell, parent, l, err)
		}
	})
}

// Variations without stock of their own sell from the parent's stock,
// shared between the cart's lines, on add and on update; a stock change is
// seen by the very next use case.
func TestServiceStockHeldAcrossLines(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		setStock := func(qty int64) []int64 {
			p := f.product("classic-tee")
			vars, err := db.Variations(ctx, p.ID)
			if err != nil || len(vars) < 2 {
				t.Fatalf("variations: %d %v", len(vars), err)
			}
			p.ManageStock, p.StockQuantity, p.Backorders = true, &qty, "no"
			var ids []int64
			for _, v := range vars {
				v.ManageStock, v.StockQuantity = false, nil
				ids = append(ids, v.ID)
			}
			if _, err := db.SaveProduct(ctx, p, vars); err != nil {
				t.Fatal(err)
			}
			return ids
		}
		ids := setStock(3)
		sid := session(3)
		if _, _, err := f.svc.Add(ctx, sid, ids[0], 2, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Add(ctx, sid, ids[1], 2, nil); code(err) != "woocommerce_rest_product_partially_out_of_stock" {
			t.Fatalf("over the shared stock: %v", err)
		}
		_, second, err := f.svc.Add(ctx, sid, ids[1], 1, nil)
		if err != nil {
			t.Fatalf("within the shared stock: %v", err)
		}
		if _, err := f.svc.SetQuantity(ctx, sid, second.Key, 2); code(err) != "woocommerce_rest_product_partially_out_of_stock" {
			t.Errorf("update over the shared stock: %v", err)
		}
		setStock(10)
		if _, _, err := f.svc.Add(ctx, sid, ids[1], 5, nil); err != nil {
			t.Errorf("after restock: %v", err)
		}
		setStock(0)
		if _, _, err := f.svc.Add(ctx, sid, ids[0], 1, nil); err == nil {
			t.Errorf("added after selling out")
		}
	})
}

// The priced view: prices refreshed from the catalogue, lines whose
// product is no longer on sale left out and counted, the products shown.
func TestServicePriced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank, capP := f.product("cotton-tank-top"), f.product("studio-staff-cap")
		sid := session(4)
		for _, id := range []int64{tank.ID, capP.ID} {
			if _, _, err := f.svc.Add(ctx, sid, id, 2, nil); err != nil {
				t.Fatal(err)
			}
		}
		// The tank's price changes, the cap is taken off sale.
		tank = f.product("cotton-tank-top")
		newPrice := int64(1234)
		tank.RegularPrice, tank.SalePrice = &newPrice, nil
		if _, err := db.SaveProduct(ctx, tank, nil); err != nil {
			t.Fatal(err)
		}
		capP = f.product("studio-staff-cap")
		capP.Status = "draft"
		if _, err := db.SaveProduct(ctx, capP, nil); err != nil {
			t.Fatal(err)
		}
		p, err := f.svc.Load(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if p.LeftOut != 1 || len(p.Lines) != 1 || p.Lines[0].ProductID != tank.ID || p.Lines[0].UnitPrice != 1234 || len(p.Cart.Lines) != 2 {
			t.Fatalf("priced: left out %d, lines %+v", p.LeftOut, p.Lines)
		}
		if sells, parent := p.Product(p.Lines[0]); sells == nil || sells.ID != tank.ID || parent != sells {
			t.Errorf("products: %v %v", sells, parent)
		}
	})
}

// A cart holds at most cart.MaxLines lines: the add past it is refused
// and writes nothing; concurrent adds at the limit let exactly one in.
func TestServiceLineLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank := f.product("cotton-tank-top")
		sid := session(5)
		now := f.clock.Now()
		for i := 1; i < cart.MaxLines; i++ {
			l := cart.Line{Key: fmt.Sprintf("%032x", i), ProductID: tank.ID, Quantity: 1, UnitPrice: 100}
			if _, err := db.AddLine(ctx, sid, l, now, now.Add(time.Hour), nil); err != nil {
				t.Fatal(err)
			}
		}
		// One line left: of several different products added at once,
		// exactly one gets it.
		var ids []int64
		for _, slug := range []string{"cotton-tank-top", "studio-staff-cap", "market-tote", "zip-pouch", "ribbed-beanie",
			"chunky-wool-scarf", "printed-bandana", "washed-cotton-cap", "chino-shorts"} {
			if p, err := db.ProductBySlug(ctx, slug); err == nil && p.Type == catalog.TypeSimple && p.Published() && len(ids) < 4 {
				ids = append(ids, p.ID)
			}
		}
		if len(ids) < 3 {
			t.Fatalf("fixture: %d simple products", len(ids))
		}
		var wg sync.WaitGroup
		errs := make([]error, len(ids))
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, errs[i] = f.svc.Add(ctx, sid, id, 1, nil)
			}()
		}
		wg.Wait()
		ok, in := 0, int64(0)
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
				in = ids[i]
			case err != cart.ErrTooManyLines:
				t.Errorf("add at the limit: %v", err)
			}
		}
		c, err := f.svc.Get(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if ok != 1 || len(c.Lines) != cart.MaxLines {
			t.Errorf("%d adds let in, %d lines", ok, len(c.Lines))
		}
		// A line already in the cart still takes more.
		if _, _, err := f.svc.Add(ctx, sid, in, 1, nil); err != nil {
			t.Errorf("add to an existing line of a full cart: %v", err)
		}
	})
}

// Concurrent adds to one cart lose nothing.
func TestServiceConcurrentAdds(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank := f.product("cotton-tank-top")
		sid := session(6)
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, err := f.svc.Add(ctx, sid, tank.ID, 1, nil); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		c, err := f.svc.Get(ctx, sid)
		if err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != 50 {
			t.Fatalf("after 50 adds: %+v %v", c, err)
		}
	})
}
