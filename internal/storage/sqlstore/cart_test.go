package sqlstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
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
		var after *cart.Cart
		for _, l := range []cart.Line{tee, cap, tee} {
			if after, err = db.AddLine(ctx, id, l, now, exp, nil); err != nil {
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
		// The cart AddLine answers is the cart as stored.
		if !reflect.DeepEqual(after.Lines, c.Lines) || !after.Exists || !after.Expires.Equal(c.Expires) {
			t.Errorf("AddLine answered %+v, stored %+v", after, c)
		}

		// A refused add changes nothing.
		refuse := errors.New("no")
		var seen [3]int64
		_, err = db.AddLine(ctx, id, tee, now, exp, func(c *cart.Cart, existing, total int64) error {
			seen = [3]int64{existing, total, int64(len(c.Lines))}
			return refuse
		})
		if !errors.Is(err, refuse) || seen != [3]int64{4, 6, 2} {
			t.Errorf("refused add: %v %v", err, seen)
		}
		if c, _ := db.Cart(ctx, id, now); c.Lines[0].Quantity != 4 {
			t.Errorf("refused add changed the line: %+v", c.Lines)
		}
		set, err := db.SetQuantity(ctx, id, tee.Key, 7, now, exp, nil)
		if err != nil {
			t.Fatal(err)
		}
		if set.Line(tee.Key).Quantity != 7 || len(set.Lines) != 2 {
			t.Errorf("SetQuantity answered %+v", set.Lines)
		}
		if _, err := db.SetQuantity(ctx, id, "nope", 7, now, exp, nil); !errors.Is(err, cart.ErrNoLine) {
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

		// Expiry: the cart lives until its expiry, a second before it is
		// there and nothing deletes it; at it, it is gone; then deleted.
		if c, _ := db.Cart(ctx, id, exp.Add(-time.Second)); !c.Exists || len(c.Lines) == 0 {
			t.Errorf("a second before expiry: %+v", c)
		}
		if n, err := db.DeleteExpiredCarts(ctx, exp.Add(-time.Second)); err != nil || n != 0 {
			t.Errorf("DeleteExpiredCarts a second before expiry = %d, %v", n, err)
		}
		if c, _ := db.Cart(ctx, id, exp); c.Exists || len(c.Lines) != 0 {
			t.Errorf("cart visible at its expiry: %+v", c)
		}
		late := exp.Add(time.Second)
		if c, _ := db.Cart(ctx, id, late); c.Exists || len(c.Lines) != 0 {
			t.Errorf("expired cart visible: %+v", c)
		}
		n, err := db.DeleteExpiredCarts(ctx, late)
		if err != nil || n != 1 {
			t.Errorf("DeleteExpiredCarts = %d, %v", n, err)
		}
		// An expired session's leftovers never come back with the next add.
		if _, err := db.AddLine(ctx, id, cap, late, late.Add(cart.Lifetime), nil); err != nil {
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
				if _, err := db.AddLine(ctx, id2, l, now, exp, nil); err != nil {
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

// TestCartConcurrentMixed: many sessions written at once (on SQLite they
// share commits): every add that passes its check is stored, every refused
// one changes nothing, and no mutation's failure undoes another's.
func TestCartConcurrentMixed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		exp := now.Add(cart.Lifetime)
		line := cart.Line{ProductID: 5, Quantity: 1, UnitPrice: 1500, Key: cart.LineKey(5, 0, nil)}
		refuse := errors.New("over the limit")
		const sessions, adds = 8, 30
		var wg sync.WaitGroup
		var mu sync.Mutex
		refused := map[string]int{}
		for s := range sessions {
			id := fmt.Sprintf("t_%030x", s+1)
			for range adds {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// At most 10 per line: the check sees the line as
					// the mutations before it left it.
					_, err := db.AddLine(ctx, id, line, now, exp, func(c *cart.Cart, existing, total int64) error {
						if total > 10 {
							return refuse
						}
						return nil
					})
					if errors.Is(err, refuse) {
						mu.Lock()
						refused[id]++
						mu.Unlock()
					} else if err != nil {
						t.Error(err)
					}
				}()
			}
		}
		wg.Wait()
		for s := range sessions {
			id := fmt.Sprintf("t_%030x", s+1)
			c, err := db.Cart(ctx, id, now)
			if err != nil || len(c.Lines) != 1 || c.Lines[0].Quantity != 10 || refused[id] != adds-10 {
				t.Errorf("%s: %+v refused %d, %v", id, c.Lines, refused[id], err)
			}
		}
		// A cancelled context fails only its own mutation.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := db.AddLine(cctx, "t_0000000000000000000000000000ff", line, now, exp, nil); err == nil {
			t.Error("add with a cancelled context succeeded")
		}
		if c, _ := db.Cart(ctx, "t_0000000000000000000000000000ff", now); c.Exists {
			t.Error("cancelled add created the session")
		}
	})
}

// A cart holds at most cart.MaxLines lines: the add that would pass it is
// refused inside its transaction and writes nothing, even when two adds
// race for the last free line; adding to a line already there still works.
func TestCartLineLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		exp := now.Add(cart.Lifetime)
		id := "t_0123456789abcdef0123456789abce"
		line := func(i int) cart.Line {
			return cart.Line{ProductID: int64(i + 1), Quantity: 1, UnitPrice: 100, Key: cart.LineKey(int64(i+1), 0, nil)}
		}
		for i := 0; i < cart.MaxLines-1; i++ {
			if _, err := db.AddLine(ctx, id, line(i), now, exp, nil); err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for j := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[j] = db.AddLine(ctx, id, line(cart.MaxLines+j), now, exp, nil)
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, cart.ErrTooManyLines):
				refused++
			default:
				t.Errorf("add: %v", err)
			}
		}
		if ok != 1 || refused != 1 {
			t.Fatalf("two adds at %d lines: %d passed, %d refused", cart.MaxLines-1, ok, refused)
		}
		if _, err := db.AddLine(ctx, id, line(cart.MaxLines+5), now, exp, nil); !errors.Is(err, cart.ErrTooManyLines) {
			t.Errorf("add past the limit: %v", err)
		}
		c, err := db.Cart(ctx, id, now)
		if err != nil || len(c.Lines) != cart.MaxLines {
			t.Fatalf("cart: %d lines, %v", len(c.Lines), err)
		}
		// A full cart still takes more of a line it holds.
		if after, err := db.AddLine(ctx, id, line(0), now, exp, nil); err != nil || after.Line(line(0).Key).Quantity != 2 {
			t.Errorf("add to an existing line of a full cart: %v", err)
		}

		// A cart stored past the limit before it existed: reads show the
		// first MaxLines lines, adds and checkout are refused, never failed.
		extra := line(cart.MaxLines + 10)
		if err := db.ExecForTest(ctx, `INSERT INTO cart_lines (session_id, line_key, product_id, variation_id, attributes, quantity, unit_price, position)
			VALUES (?, ?, ?, 0, '[]', 1, 100, ?)`, id, extra.Key, extra.ProductID, cart.MaxLines+10); err != nil {
			t.Fatal(err)
		}
		if c, err := db.Cart(ctx, id, now); err != nil || len(c.Lines) != cart.MaxLines {
			t.Errorf("over-full cart read: %v", err)
		}
		if _, err := db.AddLine(ctx, id, extra, now, exp, nil); !errors.Is(err, cart.ErrTooManyLines) {
			t.Errorf("add to the line past the limit: %v", err)
		}
		usd, _ := money.Lookup("USD")
		cfg := checkout.DefaultConfig(usd)
		if _, _, err := db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: id, Now: now, Method: payment.BankTransfer{},
			Status: checkout.StatusOnHold, Config: &cfg, IdempotencyScope: "checkout:" + id,
			IdempotencyKey: "k", RequestHash: "h"}); !errors.Is(err, cart.ErrTooManyLines) {
			t.Errorf("checkout of an over-full cart: %v", err)
		}
	})
}
