package sqlstore_test

import (
	"context"
	"errors"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// placeFor places a one-mug order in a fresh session with billing email
// email, for customerID (0: a guest).
func (f *orderFixture) placeFor(t *testing.T, n int, email string, customerID int64) int64 {
	t.Helper()
	sess := session(n)
	f.add(t, sess, f.mug, nil, 1, 999)
	in := f.input(sess, payment.BankTransfer{}, "k"+sess)
	in.Customer.Billing.Email = email
	in.CustomerID = customerID
	o, _, err := f.db.PlaceOrder(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if o.CustomerID != customerID {
		t.Fatalf("placed order customer %d, want %d", o.CustomerID, customerID)
	}
	return o.ID
}

func newUser(t *testing.T, db *sqlstore.DB, email string) int64 {
	t.Helper()
	id, err := db.CreateUser(context.Background(), &account.User{Email: email, Role: account.RoleCustomer, PasswordHash: "x", CreatedAt: orderNow})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCustomerOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 10)
		ada, bob := newUser(t, db, "ada@example.com"), newUser(t, db, "bob@example.com")
		var mine []int64
		for i := range 3 {
			mine = append(mine, f.placeFor(t, i+1, "ada@example.com", ada))
		}
		bobs := f.placeFor(t, 10, "bob@example.com", bob)
		guest := f.placeFor(t, 11, "ADA@Example.com", 0)
		other := f.placeFor(t, 12, "someone@example.com", 0)

		// Paged, newest first.
		page, total, err := db.CustomerOrders(ctx, ada, 2, 0)
		if err != nil || total != 3 || len(page) != 2 || page[0].ID != mine[2] || page[1].ID != mine[1] {
			t.Fatalf("page 1: %v total %d %v", err, total, page)
		}
		if len(page[0].Lines) != 1 || page[0].Lines[0].Name != "Mug & Saucer" {
			t.Errorf("lines not loaded: %+v", page[0].Lines)
		}
		page, _, _ = db.CustomerOrders(ctx, ada, 2, 2)
		if len(page) != 1 || page[0].ID != mine[0] {
			t.Errorf("page 2: %v", page)
		}
		if page, total, _ := db.CustomerOrders(ctx, ada, 2, 4); len(page) != 0 || total != 3 {
			t.Errorf("past the end: %d orders, total %d", len(page), total)
		}

		// One order: another customer's is not found.
		if o, err := db.CustomerOrder(ctx, ada, mine[0]); err != nil || o.ID != mine[0] || o.CustomerID != ada {
			t.Errorf("own order: %v %v", o, err)
		}
		for _, id := range []int64{bobs, guest, 999999} {
			if _, err := db.CustomerOrder(ctx, ada, id); !errors.Is(err, sqlstore.ErrOrderNotFound) {
				t.Errorf("order %d as ada: %v", id, err)
			}
		}

		// Linking takes guest orders with the email in any case, not others'.
		n, err := db.LinkGuestOrders(ctx, ada, "ada@example.com")
		if err != nil || n != 1 {
			t.Fatalf("link: %d %v", n, err)
		}
		if o, _ := db.Order(ctx, guest); o.CustomerID != ada {
			t.Errorf("guest order not linked: %d", o.CustomerID)
		}
		if o, _ := db.Order(ctx, other); o.CustomerID != 0 {
			t.Errorf("unrelated order linked: %d", o.CustomerID)
		}
		if n, _ := db.LinkGuestOrders(ctx, bob, "ada@example.com"); n != 0 {
			t.Errorf("a linked order moved again: %d", n)
		}

		// Deleting the account leaves its orders as guest orders.
		if err := db.DeleteUser(ctx, ada); err != nil {
			t.Fatal(err)
		}
		for _, id := range append(mine, guest) {
			if o, err := db.Order(ctx, id); err != nil || o.CustomerID != 0 {
				t.Errorf("order %d after deletion: %v %v", id, o, err)
			}
		}
		if o, _ := db.Order(ctx, bobs); o.CustomerID != bob {
			t.Errorf("bob's order changed: %d", o.CustomerID)
		}
	})
}

func TestCustomerAddressesAndProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		id := newUser(t, db, "ada@example.com")
		a, err := db.CustomerAddresses(ctx, id)
		if err != nil || a.Billing != nil || a.Shipping != nil {
			t.Fatalf("fresh: %+v %v", a, err)
		}
		home := cart.Address{FirstName: "Ada", LastName: "L", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US", Email: "ada@example.com"}
		work := home
		work.Address1, work.Email = "2 Work Rd", ""
		// Only missing kinds are filled.
		if err := db.SaveAddress(ctx, id, account.AddressBilling, home, orderNow); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveAddressesIfNone(ctx, id, work, work, orderNow); err != nil {
			t.Fatal(err)
		}
		a, _ = db.CustomerAddresses(ctx, id)
		if a.Billing == nil || *a.Billing != home || a.Shipping == nil || *a.Shipping != work {
			t.Fatalf("after if-none: %+v", a)
		}
		// SaveAddress replaces.
		if err := db.SaveAddress(ctx, id, account.AddressShipping, home, orderNow); err != nil {
			t.Fatal(err)
		}
		if a, _ = db.CustomerAddresses(ctx, id); *a.Shipping != home {
			t.Errorf("replace: %+v", a.Shipping)
		}

		if err := db.SetProfile(ctx, id, account.Profile{FirstName: "Ada", LastName: "Lovelace", DisplayName: "Ada L."}); err != nil {
			t.Fatal(err)
		}
		p, err := db.Profile(ctx, id)
		if err != nil || *p != (account.Profile{FirstName: "Ada", LastName: "Lovelace", DisplayName: "Ada L."}) {
			t.Errorf("profile: %+v %v", p, err)
		}
		if u, _ := db.UserByID(ctx, id); u.DisplayName != "Ada L." {
			t.Errorf("display name on the user: %q", u.DisplayName)
		}
		if err := db.SetProfile(ctx, 99999, account.Profile{}); !errors.Is(err, account.ErrNoUser) {
			t.Errorf("unknown user: %v", err)
		}
		// The account's addresses go with it.
		if err := db.DeleteUser(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n, _ := db.QueryIntForTest(ctx, `SELECT COUNT(*) FROM customer_addresses`); n != 0 {
			t.Errorf("addresses left: %d", n)
		}
	})
}
