package sqlstore_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestCartStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		exp := now.Add(cart.Lifetime)
		id := "t_0123456789abcdef0123456789abcd"

		c, err := db.Cart(ctx, id, now)
		if err != nil || c.Exists || len(c.Lines) != 0 {
			t.Fatalf("new cart: %+v %v", c, err)
		}
		tee := cart.Line{ProductID: 1, VariationID: 2, Variation: []cart.Attr{{Attribute: "pa_color", Value: "rust"}}, Quantity: 2, UnitPrice: 2800}
		tee.Key = cart.LineKey(1, 2, tee.Variation)
		cap := cart.Line{ProductID: 5, Quantity: 1, UnitPrice: 1500, Key: cart.LineKey(5, 0, nil)}
		for _, l := range []cart.Line{tee, cap, tee} {
			if err := db.AddLine(ctx, id, l, now, exp, nil); err != nil {
				t.Fatal(err)
			}
		}
		c, err = db.Cart(ctx, id, now)
		if err != nil || !c.Exists || len(c.Lines) != 2 {
			t.Fatalf("cart: %+v %v", c, err)
		}
		if c.Lines[0].Key != tee.Key || c.Lines[0].Quantity != 4 || c.Lines[0].Variation[0].Value != "rust" || c.Lines[1].Key != cap.Key {
			t.Errorf("lines: %+v", c.Lines)
		}

		// A refused add changes nothing.
		refuse := errors.New("no")
		var seen [2]int64
		err = db.AddLine(ctx, id, tee, now, exp, func(existing, total int64) error { seen = [2]int64{existing, total}; return refuse })
		if !errors.Is(err, refuse) || seen != [2]int64{4, 6} {
			t.Errorf("refused add: %v %v", err, seen)
		}
		if err := db.SetQuantity(ctx, id, tee.Key, 7, now, exp, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.SetQuantity(ctx, id, "nope", 7, now, exp, nil); !errors.Is(err, cart.ErrNoLine) {
			t.Errorf("unknown key: %v", err)
		}
		if err := db.RemoveLine(ctx, id, cap.Key, now, exp); err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveLine(ctx, id, cap.Key, now, exp); !errors.Is(err, cart.ErrNoLine) {
			t.Errorf("second remove: %v", err)
		}
		cust := cart.Customer{Billing: cart.Address{FirstName: "Ada", Email: "ada@example.com"}}
		if err := db.SetCustomer(ctx, id, cust, now, exp); err != nil {
			t.Fatal(err)
		}
		c, _ = db.Cart(ctx, id, now)
		if len(c.Lines) != 1 || c.Lines[0].Quantity != 7 || c.Customer.Billing.FirstName != "Ada" {
			t.Errorf("after updates: %+v", c)
		}

		// Another session never sees this one.
		other, _ := db.Cart(ctx, "t_ffffffffffffffffffffffffffffff", now)
		if other.Exists || len(other.Lines) != 0 {
			t.Errorf("other session: %+v", other)
		}

		// Expiry: invisible once expired, then deleted.
		late := exp.Add(time.Second)
		if c, _ := db.Cart(ctx, id, late); c.Exists || len(c.Lines) != 0 {
			t.Errorf("expired cart visible: %+v", c)
		}
		n, err := db.DeleteExpiredCarts(ctx, late)
		if err != nil || n != 1 {
			t.Errorf("DeleteExpiredCarts = %d, %v", n, err)
		}
		// An expired session's leftovers never come back with the next add.
		if err := db.AddLine(ctx, id, cap, late, late.Add(cart.Lifetime), nil); err != nil {
			t.Fatal(err)
		}
		if c, _ := db.Cart(ctx, id, late); len(c.Lines) != 1 || c.Lines[0].Key != cap.Key {
			t.Errorf("after expiry: %+v", c.Lines)
		}

		// Concurrent adds to one line lose nothing.
		id2 := "t_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l := cap
				l.Quantity = 1
				if err := db.AddLine(ctx, id2, l, now, exp, nil); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if c, _ := db.Cart(ctx, id2, now); len(c.Lines) != 1 || c.Lines[0].Quantity != 50 {
			t.Errorf("concurrent adds: %+v", c.Lines)
		}

		// The secret is made once and then kept.
		s1, err := db.Secret(ctx, "session_secret")
		if err != nil || len(s1) != 32 {
			t.Fatalf("secret: %x %v", s1, err)
		}
		if s2, _ := db.Secret(ctx, "session_secret"); !bytes.Equal(s1, s2) {
			t.Error("secret changed")
		}
	})
}
