package checkout_test

import (
	"context"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// An order placed from a customer's cart belongs to the customer on every
// placing path, the wallet's pending orders too, without the adapter
// having to say so; a guest's cart places a guest order.
func TestOrdersFromACustomersCart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		u, err := (&account.Service{Store: db}).Register(ctx, account.Registration{Email: "ada@example.com", Password: "a long passphrase for ada"})
		if err != nil {
			t.Fatal(err)
		}
		tank := f.productID("cotton-tank-top")
		mine := cart.CustomerSession(u.ID)

		f.add(mine, tank, 1)
		o, err := f.svc.PlaceOrder(ctx, request(mine))
		if err != nil || o.CustomerID != u.ID {
			t.Fatalf("checkout from the customer's cart: %+v %v", o, err)
		}
		f.add(mine, tank, 1)
		p, err := f.svc.PlacePending(ctx, checkout.PendingOrder{Session: mine, Method: payment.BankTransfer{},
			Customer: checkout.Customer{Billing: billing()}, IdempotencyScope: "wallet:" + mine, IdempotencyKey: "k1", RequestHash: "cart"})
		if err != nil || p.CustomerID != u.ID {
			t.Fatalf("pending (wallet) order from the customer's cart: %+v %v", p, err)
		}
		guest := session(40)
		f.add(guest, tank, 1)
		if g, err := f.svc.PlaceOrder(ctx, request(guest)); err != nil || g.CustomerID != 0 {
			t.Fatalf("guest order: %+v %v", g, err)
		}
	})
}

func TestSessionCustomer(t *testing.T) {
	for id, want := range map[string]int64{"u_42": 42, cart.CustomerSession(7): 7, "u_": 0, "u_0": 0, "u_-3": 0, "u_042": 0,
		"u_4x": 0, "t_0123456789abcdef0123456789abcd": 0, "": 0} {
		if got := cart.SessionCustomer(id); got != want {
			t.Errorf("SessionCustomer(%q) = %d, want %d", id, got, want)
		}
	}
}
