package wishlist_test

// The wishlist's use cases called directly, without HTTP, on every
// configured engine (storetest), with the demo catalogue.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/catalog"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wishlist"
)

var seedTime = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

type fixture struct {
	t     *testing.T
	db    *sqlstore.DB
	svc   *wishlist.Service
	clock *storetest.Clock
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	clock := storetest.FrozenClock(seedTime)
	db.SetClock(clock.Now)
	if _, err := seed.Demo(context.Background(), db, seedTime); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, db: db, clock: clock, svc: &wishlist.Service{Store: db, Catalog: storetest.Cache(db), Now: clock.Now}}
}

func (f *fixture) product(slug string) *catalog.Product {
	f.t.Helper()
	p, err := f.db.ProductBySlug(context.Background(), slug)
	if err != nil {
		f.t.Fatalf("%s: %v", slug, err)
	}
	return p
}

func (f *fixture) variation(parent *catalog.Product) *catalog.Product {
	f.t.Helper()
	vars, err := storetest.Cache(f.db).Variations(context.Background(), parent.ID)
	if err != nil || len(vars) == 0 {
		f.t.Fatalf("variations of %s: %v (%d)", parent.Slug, err, len(vars))
	}
	return vars[0]
}

func (f *fixture) customer(email string) int64 {
	f.t.Helper()
	id, err := f.db.CreateUser(context.Background(), &account.User{Email: email, DisplayName: email, Role: account.RoleCustomer,
		PasswordHash: "unused", CreatedAt: seedTime})
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

func (f *fixture) list(o wishlist.Owner) *wishlist.List {
	f.t.Helper()
	l, err := f.svc.Get(context.Background(), o)
	if err != nil {
		f.t.Fatal(err)
	}
	return l
}

func ids(l *wishlist.List) string {
	if l == nil {
		return "<nil>"
	}
	s := ""
	for _, it := range l.Items {
		s += fmt.Sprintf("%d/%d ", it.ProductID, it.VariationID)
	}
	return s
}

func guest(i int) wishlist.Owner { return wishlist.Guest(fmt.Sprintf("w_%030x", i)) }

func TestSetIsIdempotentAndToggleFlips(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		o := guest(1)
		tank := f.product("cotton-tank-top")
		changed, l, it, err := f.svc.Set(ctx, o, tank.ID, true)
		if err != nil || !changed || len(l.Items) != 1 || it.ProductID != tank.ID || it.VariationID != 0 {
			t.Fatalf("first add: changed %v, %v, %+v, %v", changed, ids(l), it, err)
		}
		price, _ := tank.Price(seedTime)
		if l.Items[0].PriceAdded != price || !l.Items[0].AddedAt.Equal(seedTime) {
			t.Fatalf("price added %d at %v, want %d at %v", l.Items[0].PriceAdded, l.Items[0].AddedAt, price, seedTime)
		}
		// A double click: the second add changes nothing.
		changed, l, _, err = f.svc.Set(ctx, o, tank.ID, true)
		if err != nil || changed || len(l.Items) != 1 {
			t.Fatalf("second add: changed %v, %v, %v", changed, ids(l), err)
		}
		if changed, l, _, err = f.svc.Set(ctx, o, tank.ID, false); err != nil || !changed || len(l.Items) != 0 {
			t.Fatalf("remove: changed %v, %v, %v", changed, ids(l), err)
		}
		if changed, l, _, err = f.svc.Set(ctx, o, tank.ID, false); err != nil || changed || len(l.Items) != 0 {
			t.Fatalf("second remove: changed %v, %v, %v", changed, ids(l), err)
		}
		// Toggle flips; twice is back where it started.
		on, l, err := f.svc.Toggle(ctx, o, tank.ID)
		if err != nil || !on || !l.Has(tank.ID, 0) {
			t.Fatalf("toggle on: %v %v %v", on, ids(l), err)
		}
		on, l, err = f.svc.Toggle(ctx, o, tank.ID)
		if err != nil || on || len(l.Items) != 0 {
			t.Fatalf("toggle off: %v %v %v", on, ids(l), err)
		}
		// Removing from a list that was never made makes none.
		if changed, _, _, err := f.svc.Set(ctx, guest(2), tank.ID, false); err != nil || changed {
			t.Fatalf("remove from no list: %v %v", changed, err)
		}
		if l := f.list(guest(2)); l.ID != 0 {
			t.Fatalf("a remove made a list: %+v", l)
		}
	})
}

func TestVariationAndVariableProduct(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		o := guest(1)
		tee := f.product("classic-tee")
		v := f.variation(tee)
		if _, l, it, err := f.svc.Set(ctx, o, v.ID, true); err != nil || it.ProductID != tee.ID || it.VariationID != v.ID || !l.Has(tee.ID, v.ID) {
			t.Fatalf("variation add: %+v %v %v", it, ids(l), err)
		}
		// The product itself is another item than its variation.
		if _, l, it, err := f.svc.Set(ctx, o, tee.ID, true); err != nil || it.VariationID != 0 || len(l.Items) != 2 {
			t.Fatalf("variable add: %+v %v %v", it, ids(l), err)
		}
		// Removing by the variation's id takes out the variation only.
		if changed, l, _, err := f.svc.Set(ctx, o, v.ID, false); err != nil || !changed || !l.Has(tee.ID, 0) || l.Has(tee.ID, v.ID) {
			t.Fatalf("variation remove: %v %v %v", changed, ids(l), err)
		}
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		o := guest(1)
		draft := f.product("alpaca-cardigan")
		for _, id := range []int64{0, -3, 987654321, draft.ID} {
			if _, _, _, err := f.svc.Set(ctx, o, id, true); !errors.Is(err, wishlist.ErrInvalidProduct) {
				t.Errorf("add %d: %v, want ErrInvalidProduct", id, err)
			}
		}
		for _, raw := range []string{"", "abc", "1e3", "-1", "0", "9223372036854775808", " 12x"} {
			if _, err := wishlist.ParseID(raw); !errors.Is(err, wishlist.ErrInvalidProduct) {
				t.Errorf("ParseID(%q): %v", raw, err)
			}
		}
		if id, err := wishlist.ParseID(" 42 "); id != 42 || err != nil {
			t.Errorf("ParseID(42): %d %v", id, err)
		}
		if l := f.list(o); l.ID != 0 || len(l.Items) != 0 {
			t.Fatalf("refused adds left a list: %+v", l)
		}
		if _, _, _, err := f.svc.Set(ctx, wishlist.Owner{}, f.product("cotton-tank-top").ID, true); !errors.Is(err, wishlist.ErrNoList) {
			t.Fatalf("no owner: %v", err)
		}
	})
}

func TestConcurrentAddsMakeOneItem(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank := f.product("cotton-tank-top")
		o := guest(7)
		var wg sync.WaitGroup
		var mu sync.Mutex
		changes := 0
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				changed, _, _, err := f.svc.Set(ctx, o, tank.ID, true)
				if err != nil {
					t.Error(err)
				}
				if changed {
					mu.Lock()
					changes++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if l := f.list(o); len(l.Items) != 1 || changes != 1 {
			t.Fatalf("12 adds at once: %d items, %d changes; want 1 and 1", len(l.Items), changes)
		}
	})
}

func TestMergeAtLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		uid := f.customer("ada@example.com")
		cust, g := wishlist.Customer(uid), guest(3)
		tank, capP, tee := f.product("cotton-tank-top"), f.product("studio-staff-cap"), f.product("classic-tee")
		// The customer wished the cap first, at an older price.
		if _, _, _, err := f.svc.Set(ctx, cust, capP.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE wishlist_items SET price_added = 111`)); err != nil {
			t.Fatal(err)
		}
		f.clock.Add(time.Hour)
		for _, p := range []*catalog.Product{tank, capP, tee} {
			if _, _, _, err := f.svc.Set(ctx, g, p.ID, true); err != nil {
				t.Fatal(err)
			}
		}
		l, err := f.svc.Merge(ctx, g.SessionKey, uid)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 3 || !l.Has(tank.ID, 0) || !l.Has(capP.ID, 0) || !l.Has(tee.ID, 0) || l.ExpiresAt != nil {
			t.Fatalf("merged: %v expires %v", ids(l), l.ExpiresAt)
		}
		for _, it := range l.Items {
			if it.ProductID == capP.ID && (it.PriceAdded != 111 || !it.AddedAt.Equal(seedTime)) {
				t.Fatalf("the customer's own item lost its price or date: %+v", it)
			}
		}
		if gl := f.list(g); gl.ID != 0 || len(gl.Items) != 0 {
			t.Fatalf("the guest's list is still there: %v", ids(gl))
		}
		// A second merge (a second login on the same browser) changes nothing.
		if l2, err := f.svc.Merge(ctx, g.SessionKey, uid); err != nil || len(l2.Items) != 3 {
			t.Fatalf("second merge: %v %v", ids(l2), err)
		}
	})
}

func TestSharingOnOffRenew(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		o := guest(4)
		if _, err := f.svc.Share(ctx, o); !errors.Is(err, wishlist.ErrNoList) {
			t.Fatalf("share without a list: %v", err)
		}
		tank := f.product("cotton-tank-top")
		if _, _, _, err := f.svc.Set(ctx, o, tank.ID, true); err != nil {
			t.Fatal(err)
		}
		tok, err := f.svc.Share(ctx, o)
		if err != nil || len(tok) != 43 {
			t.Fatalf("share: %q %v", tok, err)
		}
		var stored string
		if err := db.Read.GetContext(ctx, &stored, `SELECT share_token FROM wishlists`); err != nil || stored != wishlist.ShareHash(tok) || stored == tok {
			t.Fatalf("stored %q: want the token's hash", stored)
		}
		l, err := f.svc.Shared(ctx, tok)
		if err != nil || !l.Has(tank.ID, 0) || !l.ShareEnabled {
			t.Fatalf("shared view: %v %v", l, err)
		}
		renewed, err := f.svc.Share(ctx, o)
		if err != nil || renewed == tok {
			t.Fatalf("renew: %q %v", renewed, err)
		}
		if _, err := f.svc.Shared(ctx, tok); !errors.Is(err, wishlist.ErrNotShared) {
			t.Fatalf("old link after renewal: %v", err)
		}
		if _, err := f.svc.Shared(ctx, renewed); err != nil {
			t.Fatalf("new link: %v", err)
		}
		if err := f.svc.StopSharing(ctx, o); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Shared(ctx, renewed); !errors.Is(err, wishlist.ErrNotShared) {
			t.Fatalf("link after sharing off: %v", err)
		}
		for _, bad := range []string{"", "x", renewed + "a", "../../etc/passwd", string(make([]byte, 43))} {
			if _, err := f.svc.Shared(ctx, bad); !errors.Is(err, wishlist.ErrNotShared) {
				t.Fatalf("token %q: %v", bad, err)
			}
		}
	})
}

func TestGuestListExpiresAfter30Days(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		uid := f.customer("bo@example.com")
		g, cust := guest(5), wishlist.Customer(uid)
		tank := f.product("cotton-tank-top")
		for _, o := range []wishlist.Owner{g, cust} {
			if _, _, _, err := f.svc.Set(ctx, o, tank.ID, true); err != nil {
				t.Fatal(err)
			}
		}
		// A write ten days on pushes the expiry.
		f.clock.Add(10 * 24 * time.Hour)
		capP := f.product("studio-staff-cap")
		if _, l, _, err := f.svc.Set(ctx, g, capP.ID, true); err != nil || l.ExpiresAt == nil || !l.ExpiresAt.Equal(f.clock.Now().Add(wishlist.GuestLifetime)) {
			t.Fatalf("expiry after a write: %v %v", l.ExpiresAt, err)
		}
		last := f.clock.Now()
		f.clock.Set(last.Add(wishlist.GuestLifetime - time.Second))
		if l := f.list(g); len(l.Items) != 2 {
			t.Fatalf("a second before expiry: %v", ids(l))
		}
		if n, err := f.svc.DeleteExpired(ctx); err != nil || n != 0 {
			t.Fatalf("deleted before expiry: %d %v", n, err)
		}
		f.clock.Set(last.Add(wishlist.GuestLifetime))
		if l := f.list(g); l.ID != 0 || len(l.Items) != 0 {
			t.Fatalf("at expiry: %v", ids(l))
		}
		if n, err := f.svc.DeleteExpired(ctx); err != nil || n != 1 {
			t.Fatalf("deleted at expiry: %d %v", n, err)
		}
		if l := f.list(cust); len(l.Items) != 1 {
			t.Fatalf("the customer's list expired: %v", ids(l))
		}
		var items int
		if err := db.Read.GetContext(ctx, &items, `SELECT COUNT(*) FROM wishlist_items`); err != nil || items != 1 {
			t.Fatalf("items left: %d %v (the guest's went with the list)", items, err)
		}
		// An add after expiry starts a new list.
		if _, l, _, err := f.svc.Set(ctx, g, capP.ID, true); err != nil || len(l.Items) != 1 {
			t.Fatalf("add after expiry: %v %v", ids(l), err)
		}
	})
}

func TestCountsAndFullList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tank, capP, tee := f.product("cotton-tank-top"), f.product("studio-staff-cap"), f.product("classic-tee")
		v := f.variation(tee)
		for i, ps := range [][]int64{{tank.ID, tee.ID, v.ID}, {tank.ID, v.ID}, {tank.ID, capP.ID}} {
			for _, id := range ps {
				if _, _, _, err := f.svc.Set(ctx, guest(10+i), id, true); err != nil {
					t.Fatal(err)
				}
			}
		}
		counts, err := f.svc.Counts(ctx, []int64{tank.ID, capP.ID, tee.ID, 987654})
		if err != nil || counts[tank.ID] != 3 || counts[capP.ID] != 1 || counts[tee.ID] != 2 || len(counts) != 3 {
			t.Fatalf("counts: %v %v", counts, err)
		}
		top, err := f.svc.MostWished(ctx, 2)
		if err != nil || len(top) != 2 || top[0] != (wishlist.ProductCount{ProductID: tank.ID, Lists: 3}) || top[1].ProductID != tee.ID {
			t.Fatalf("most wished: %+v %v", top, err)
		}
		// The store refuses an add past the limit, and only a new item.
		o := guest(10)
		if _, _, err := db.SetWishlistItem(ctx, o, wishlist.Item{ProductID: capP.ID, AddedAt: seedTime}, true, 3, seedTime, nil); !errors.Is(err, wishlist.ErrFull) {
			t.Fatalf("add past the limit: %v", err)
		}
		if changed, _, err := db.SetWishlistItem(ctx, o, wishlist.Item{ProductID: tank.ID, AddedAt: seedTime}, true, 3, seedTime, nil); err != nil || changed {
			t.Fatalf("re-add at the limit: %v %v", changed, err)
		}
	})
}
