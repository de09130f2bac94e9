package alerts_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/alerts"
	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// priced makes a published simple product in stock at price (minor units).
func (f *fixture) priced(name, price string, in catalog.ProductInput) *catalog.Product {
	f.t.Helper()
	in.Name, in.Status, in.RegularPrice = str(name), str("publish"), str(price)
	p, err := f.admin.Create(f.ctx, in)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) setPrice(id int64, price string) {
	f.t.Helper()
	p, _, err := f.admin.Get(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.admin.Update(f.ctx, id, p.Version, catalog.ProductInput{RegularPrice: str(price)}); err != nil {
		f.t.Fatal(err)
	}
}

// wish puts items (product, variation, price added) on the customer's
// wishlist, as the wishlist's store writes them.
func (f *fixture) wish(userID int64, items ...[3]int64) {
	f.t.Helper()
	now := f.clock.Now().Unix()
	var id int64
	err := f.db.Write.GetContext(f.ctx, &id, f.db.Write.Rebind(`SELECT id FROM wishlists WHERE customer_id = ?`), userID)
	if err != nil {
		if err := f.db.Write.GetContext(f.ctx, &id, f.db.Write.Rebind(`INSERT INTO wishlists (customer_id, created_at, updated_at) VALUES (?, ?, ?) RETURNING id`), userID, now, now); err != nil {
			f.t.Fatal(err)
		}
	}
	for _, it := range items {
		if _, err := f.db.Write.ExecContext(f.ctx, f.db.Write.Rebind(`INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, price_added, added_at) VALUES (?, ?, ?, ?, ?)`),
			id, it[0], it[1], it[2], now); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) digests() []string {
	f.t.Helper()
	var out []string
	for _, q := range f.outbox(alerts.MailPriceDrop) {
		m, err := f.render(q.Kind, q.Ref)
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, m.Subject+"\n"+m.Text)
	}
	return out
}

func TestPriceDropThresholdAndDailyDigest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		a := f.priced("Alpha Lamp", "100.00", catalog.ProductInput{})
		b := f.priced("Beta Lamp", "50.00", catalog.ProductInput{})
		c := f.priced("Gamma Lamp", "40.00", catalog.ProductInput{})
		u := f.customer("wisher@example.com")
		out := f.customer("quiet@example.com") // wishes, never opted in
		f.wish(u.ID, [3]int64{a.ID, 0, 10000}, [3]int64{b.ID, 0, 5000}, [3]int64{c.ID, 0, 4000})
		f.wish(out.ID, [3]int64{a.ID, 0, 10000})
		if err := f.svc.SetPrefs(f.ctx, u.ID, alerts.Prefs{PriceDrop: true}); err != nil {
			t.Fatal(err)
		}

		// 9.99 % is below the threshold: nothing.
		f.setPrice(a.ID, "90.01")
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 0 || r.Due != 1 {
			t.Fatalf("9.99 %%: %+v %v", r, err)
		}
		// 10 % from the price added: one digest listing it.
		f.setPrice(a.ID, "90.00")
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 1 {
			t.Fatalf("10 %%: %+v %v", r, err)
		}
		// The same day, B falls by half: no second mail today.
		f.clock.Add(time.Hour)
		f.setPrice(b.ID, "25.00")
		f.setPrice(c.ID, "30.00")
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 0 {
			t.Fatalf("same day: %+v %v", r, err)
		}
		if d := f.digests(); len(d) != 1 || !strings.Contains(d[0], "Alpha Lamp") || !strings.Contains(d[0], "90.00, was 100.00") || strings.Contains(d[0], "Beta") {
			t.Fatalf("first digest: %q", d)
		}
		// The next day: one digest listing both of today's drops, and A not
		// again (its reference is now the price mailed about).
		f.clock.Set(start.Add(24 * time.Hour).Truncate(24 * time.Hour))
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 1 {
			t.Fatalf("next day: %+v %v", r, err)
		}
		d := f.digests()
		if len(d) != 2 {
			t.Fatalf("digests: %d", len(d))
		}
		second := d[0]
		if strings.Contains(d[1], "Beta") {
			second = d[1]
		}
		if !strings.Contains(second, "2 prices fell") || !strings.Contains(second, "Beta Lamp: 25.00, was 50.00") ||
			!strings.Contains(second, "Gamma Lamp: 30.00, was 40.00") || strings.Contains(second, "Alpha") {
			t.Fatalf("second digest: %q", second)
		}
		// A further 5 % on A (from the 90.00 mailed about) is not enough.
		f.clock.Add(24 * time.Hour)
		f.setPrice(a.ID, "85.50")
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 0 {
			t.Fatalf("small drop after a mail: %+v %v", r, err)
		}
		// The customer who never opted in got nothing; one who opts out stops.
		for _, q := range f.outbox(alerts.MailPriceDrop) {
			if !strings.HasPrefix(q.Ref, itoa(u.ID)+".") {
				t.Errorf("digest for %s", q.Ref)
			}
		}
		if err := f.svc.SetPrefs(f.ctx, u.ID, alerts.Prefs{}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.render(alerts.MailPriceDrop, f.outbox(alerts.MailPriceDrop)[0].Ref); err == nil {
			t.Error("a digest rendered after opting out")
		}
	})
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestPriceDropAtSaleStart: a scheduled sale starts with no write; the
// schedule pass flips the price at its boundary, and the digest follows.
func TestPriceDropAtSaleStart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		from := start.Add(3 * time.Hour)
		p := f.priced("Sale Kettle", "20.00", catalog.ProductInput{SalePrice: str("15.00"), SaleFrom: &from})
		u := f.customer("saver@example.com")
		f.wish(u.ID, [3]int64{p.ID, 0, 2000})
		if err := f.svc.SetPrefs(f.ctx, u.ID, alerts.Prefs{PriceDrop: true}); err != nil {
			t.Fatal(err)
		}
		f.clock.Set(from.Add(-time.Second))
		if _, err := f.admin.ApplySchedules(f.ctx); err != nil {
			t.Fatal(err)
		}
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 0 || r.Due != 0 {
			t.Fatalf("before the sale: %+v %v", r, err)
		}
		f.clock.Set(from)
		if n, err := f.admin.ApplySchedules(f.ctx); err != nil || n == 0 {
			t.Fatalf("schedule pass at the start: %d %v", n, err)
		}
		if r, err := f.svc.RunPriceDrops(f.ctx); err != nil || r.Digests != 1 {
			t.Fatalf("at the sale's start: %+v %v", r, err)
		}
		if d := f.digests(); len(d) != 1 || !strings.Contains(d[0], "Sale Kettle: 15.00, was 20.00") {
			t.Fatalf("digest: %q", d)
		}
	})
}

// TestWishlistBackInStock: an opted-in customer whose wishlist holds an
// item that comes back is mailed once per restock; one who did not opt in,
// and a guest's list, are not.
func TestWishlistBackInStock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		p := f.soldOut("Vase")
		in := f.customer("in@example.com")
		no := f.customer("no@example.com")
		f.wish(in.ID, [3]int64{p.ID, 0, 2000})
		f.wish(no.ID, [3]int64{p.ID, 0, 2000})
		if err := f.svc.SetPrefs(f.ctx, in.ID, alerts.Prefs{BackInStock: true}); err != nil {
			t.Fatal(err)
		}
		f.restockAdmin(p.ID, 1)
		r, err := f.svc.RunRestocks(f.ctx)
		if err != nil || r.Wishlist != 1 {
			t.Fatalf("restock: %+v %v", r, err)
		}
		q := f.outbox(alerts.MailWishlistBack)
		if len(q) != 1 {
			t.Fatalf("queued: %d", len(q))
		}
		m, err := f.render(q[0].Kind, q[0].Ref)
		if err != nil || m.To[0] != "in@example.com" || len(m.ListUnsubscribe) != 2 || !strings.Contains(m.Text, "/product/vase/") {
			t.Fatalf("mail: %+v %v", m, err)
		}
		// Its unsubscribe link turns the customer's choice off.
		if err := f.svc.Unsubscribe(f.ctx, linkToken(t, m.ListUnsubscribe[0])); err != nil {
			t.Fatal(err)
		}
		if p, _ := f.svc.Prefs(f.ctx, in.ID); p.BackInStock {
			t.Fatal("still opted in")
		}
		if _, err := f.render(q[0].Kind, q[0].Ref); err == nil {
			t.Fatal("rendered after opting out")
		}
	})
}
