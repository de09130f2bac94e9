package account_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// orderMaker places real orders (one mug each) through the store.
type orderMaker struct {
	t   *testing.T
	db  *sqlstore.DB
	cfg checkout.Config
	mug *catalog.Product
	n   int
}

func newOrderMaker(t *testing.T, db *sqlstore.DB) *orderMaker {
	usd, _ := money.Lookup("USD")
	price := int64(1200)
	m := &orderMaker{t: t, db: db, cfg: checkout.DefaultConfig(usd),
		mug: &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", Slug: "mug", RegularPrice: &price, Purchasable: true}}
	if _, err := db.SaveProduct(context.Background(), m.mug, nil); err != nil {
		t.Fatal(err)
	}
	return m
}

func (m *orderMaker) place(email string, customerID int64) *checkout.Order {
	m.t.Helper()
	ctx := context.Background()
	m.n++
	sess := fmt.Sprintf("t_%030x", m.n)
	l := cart.Line{ProductID: m.mug.ID, Quantity: 1, UnitPrice: 1200, Key: cart.LineKey(m.mug.ID, 0, nil)}
	if _, err := m.db.AddLine(ctx, sess, l, start, start.Add(time.Hour), func(*cart.Cart, int64, int64) error { return nil }); err != nil {
		m.t.Fatal(err)
	}
	addr := cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US"}
	billing := addr
	billing.Email = email
	o, _, err := m.db.PlaceOrder(ctx, checkout.PlaceOrderInput{Session: sess, CustomerID: customerID, Method: payment.BankTransfer{},
		Status: checkout.StatusOnHold, Config: &m.cfg, Customer: checkout.Customer{Billing: billing, Shipping: addr},
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: sess, RequestHash: sess, Now: start})
	if err != nil {
		m.t.Fatal(err)
	}
	return o
}

func (f *fixture) customerOf(id int64) int64 {
	f.t.Helper()
	o, err := f.db.Order(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return o.CustomerID
}

func TestVerifyEmailLinksGuestOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		m := newOrderMaker(t, db)
		guest := m.place("Ada@Example.com", 0)
		later := m.place("new@example.com", 0)
		stranger := m.place("eve@example.com", 0)
		u := f.register("ada@example.com", "")

		// Registering links nothing: the email is not proven yet.
		if f.customerOf(guest.ID) != 0 {
			t.Fatal("linked before verification")
		}
		tok, _, err := f.svc.RequestEmailVerification(f.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.VerifyEmail(f.ctx, tok); err != nil {
			t.Fatal(err)
		}
		if f.customerOf(guest.ID) != u.ID || f.customerOf(stranger.ID) != 0 || f.customerOf(later.ID) != 0 {
			t.Fatalf("after verification: guest %d stranger %d", f.customerOf(guest.ID), f.customerOf(stranger.ID))
		}
		page, err := f.svc.Orders(f.ctx, u.ID, 1)
		if err != nil || page.Total != 1 || page.Orders[0].ID != guest.ID {
			t.Fatalf("orders: %+v %v", page, err)
		}

		// A changed email links nothing until it is verified, and a link
		// sent to the old email cannot verify (or link) anything.
		old, _, _ := f.svc.RequestEmailVerification(f.ctx, u.ID)
		if err := f.svc.ChangeEmail(f.ctx, u.ID, goodPassword, "new@example.com"); err != nil {
			t.Fatal(err)
		}
		if f.customerOf(later.ID) != 0 {
			t.Fatal("the new email's orders linked before verification")
		}
		if _, err := f.svc.VerifyEmail(f.ctx, old); !errors.Is(err, account.ErrVerificationInvalid) {
			t.Fatalf("old link: %v", err)
		}
		if f.customerOf(later.ID) != 0 {
			t.Fatal("linked by a void link")
		}
		tok, _, _ = f.svc.RequestEmailVerification(f.ctx, u.ID)
		if _, err := f.svc.VerifyEmail(f.ctx, tok); err != nil {
			t.Fatal(err)
		}
		if f.customerOf(later.ID) != u.ID {
			t.Fatal("the new email's orders not linked after verification")
		}

		// Deleting the account keeps its orders, as guest orders.
		if err := f.svc.DeleteAccount(f.ctx, u.ID, goodPassword); err != nil {
			t.Fatal(err)
		}
		if f.customerOf(guest.ID) != 0 || f.customerOf(later.ID) != 0 {
			t.Fatal("orders still linked to a deleted account")
		}
	})
}

func TestCustomerOrdersPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		m := newOrderMaker(t, db)
		ada, bob := f.register("ada@example.com", ""), f.register("bob@example.com", "")
		var ids []int64
		for range account.OrdersPerPage + 2 {
			ids = append(ids, m.place("ada@example.com", ada.ID).ID)
		}
		bobs := m.place("bob@example.com", bob.ID)
		p1, err := f.svc.Orders(f.ctx, ada.ID, 1)
		if err != nil || p1.Total != len(ids) || p1.Pages != 2 || len(p1.Orders) != account.OrdersPerPage || p1.Orders[0].ID != ids[len(ids)-1] {
			t.Fatalf("page 1: %+v %v", p1, err)
		}
		p2, _ := f.svc.Orders(f.ctx, ada.ID, 2)
		if len(p2.Orders) != 2 || p2.Orders[1].ID != ids[0] {
			t.Errorf("page 2: %+v", p2)
		}
		if p3, _ := f.svc.Orders(f.ctx, ada.ID, 3); len(p3.Orders) != 0 || p3.Pages != 2 {
			t.Errorf("past the end: %+v", p3)
		}
		if none, _ := f.svc.Orders(f.ctx, f.register("cy@example.com", "").ID, 1); none.Total != 0 || none.Pages != 1 {
			t.Errorf("no orders: %+v", none)
		}
		if o, err := f.svc.Order(f.ctx, ada.ID, ids[0]); err != nil || o.ID != ids[0] {
			t.Errorf("own order: %v", err)
		}
		for _, id := range []int64{bobs.ID, 0, -1, 1 << 40} {
			if _, err := f.svc.Order(f.ctx, ada.ID, id); !errors.Is(err, checkout.ErrOrderNotFound) {
				t.Errorf("order %d: %v", id, err)
			}
		}
	})
}

func TestSaveAddressAndProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		rules := checkout.AddressRules{PhoneRequired: true}

		bad := cart.Address{FirstName: "Ada", Country: "US", State: "Atlantis", Postcode: "x", Email: "nope"}
		_, err := f.svc.SaveAddress(f.ctx, u.ID, account.AddressBilling, bad, rules)
		var ve *checkout.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("bad address: %v", err)
		}
		got := map[string]string{}
		for _, fe := range ve.Fields {
			got[fe.Field] = fe.Message
		}
		for _, k := range []string{"billing_last_name", "billing_address_1", "billing_city", "billing_state", "billing_postcode", "billing_phone", "billing_email"} {
			if got[k] == "" {
				t.Errorf("no error for %s: %v", k, got)
			}
		}
		if got["billing_last_name"] != "Billing Last name is a required field." {
			t.Errorf("checkout's message expected: %q", got["billing_last_name"])
		}
		if a, _ := f.svc.Addresses(f.ctx, u.ID); a.Billing != nil {
			t.Fatal("a refused address was stored")
		}
		if _, err := f.svc.SaveAddress(f.ctx, u.ID, "office", bad, rules); inputField(err) != "kind" {
			t.Errorf("unknown kind: %v", err)
		}

		// Normalized like the checkout (state name to code, ZIP+4 kept).
		good := cart.Address{FirstName: " Ada ", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "California",
			Postcode: "95814", Country: "us", Email: "ada@example.com", Phone: "+1 555 010 0200"}
		saved, err := f.svc.SaveAddress(f.ctx, u.ID, account.AddressBilling, good, rules)
		if err != nil || saved.State != "CA" || saved.Country != "US" || saved.FirstName != "Ada" {
			t.Fatalf("good address: %+v %v", saved, err)
		}
		// Shipping has no email and no required phone.
		ship := good
		ship.Phone, ship.Email = "", "x@example.com"
		if s, err := f.svc.SaveAddress(f.ctx, u.ID, account.AddressShipping, ship, rules); err != nil || s.Email != "" {
			t.Fatalf("shipping: %+v %v", s, err)
		}
		a, _ := f.svc.Addresses(f.ctx, u.ID)
		if a.Billing == nil || *a.Billing != saved || a.Shipping == nil || a.Shipping.Email != "" {
			t.Fatalf("stored: %+v", a)
		}

		// An order saves its addresses only where none are saved.
		v := f.register("bob@example.com", "")
		o := &checkout.Order{Billing: cart.Address{FirstName: "Bob", Email: "bob@example.com"}, Shipping: cart.Address{FirstName: "Bob"}}
		if err := f.svc.OrderPlaced(f.ctx, v.ID, o); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.OrderPlaced(f.ctx, u.ID, o); err != nil {
			t.Fatal(err)
		}
		if b, _ := f.svc.Addresses(f.ctx, v.ID); b.Billing == nil || b.Billing.FirstName != "Bob" || b.Shipping == nil {
			t.Errorf("empty account not filled: %+v", b)
		}
		if a2, _ := f.svc.Addresses(f.ctx, u.ID); *a2.Billing != saved {
			t.Errorf("saved address overwritten by an order: %+v", a2.Billing)
		}

		// Profile: all three names required, no email as display name.
		for _, c := range []struct {
			p     account.Profile
			field string
		}{
			{account.Profile{LastName: "L", DisplayName: "A"}, "account_first_name"},
			{account.Profile{FirstName: "A", DisplayName: "A"}, "account_last_name"},
			{account.Profile{FirstName: "A", LastName: "L", DisplayName: "  "}, "account_display_name"},
			{account.Profile{FirstName: "A", LastName: "L", DisplayName: "ada@example.com"}, "account_display_name"},
		} {
			if _, err := f.svc.SaveProfile(f.ctx, u.ID, c.p); inputField(err) != c.field {
				t.Errorf("%+v: %v", c.p, err)
			}
		}
		p, err := f.svc.SaveProfile(f.ctx, u.ID, account.Profile{FirstName: " Ada", LastName: "Lovelace ", DisplayName: "Ada  L."})
		if err != nil || p.DisplayName != "Ada L." {
			t.Fatalf("profile: %+v %v", p, err)
		}
		if p2, _ := f.svc.Profile(f.ctx, u.ID); *p2 != *p {
			t.Errorf("stored profile: %+v", p2)
		}
	})
}

func TestRegisterAndPlace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		m := newOrderMaker(t, db)
		reg := account.Registration{Email: "new@example.com", Password: goodPassword}

		// The order is refused: the account is undone, so a retry works.
		refused := errors.New("refused")
		if _, _, err := f.svc.RegisterAndPlace(f.ctx, reg, func(context.Context, *account.User) (*checkout.Order, error) { return nil, refused }); err != refused {
			t.Fatalf("refused: %v", err)
		}
		if _, err := db.UserByEmail(f.ctx, "new@example.com"); !errors.Is(err, account.ErrNoUser) {
			t.Fatalf("account left behind: %v", err)
		}
		u, o, err := f.svc.RegisterAndPlace(f.ctx, reg, func(_ context.Context, u *account.User) (*checkout.Order, error) {
			return m.place(u.Email, u.ID), nil
		})
		if err != nil || o.CustomerID != u.ID || f.customerOf(o.ID) != u.ID {
			t.Fatalf("placed: %v %+v", err, o)
		}
		if a, _ := f.svc.Addresses(f.ctx, u.ID); a.Billing == nil || a.Billing.Email != "new@example.com" {
			t.Errorf("checkout addresses not saved: %+v", a)
		}
		// A taken email: no order.
		called := false
		if _, _, err := f.svc.RegisterAndPlace(f.ctx, reg, func(context.Context, *account.User) (*checkout.Order, error) {
			called = true
			return nil, nil
		}); !errors.Is(err, account.ErrEmailTaken) || called {
			t.Errorf("taken email: %v, placed %v", err, called)
		}
		// A weak password: no order.
		if _, _, err := f.svc.RegisterAndPlace(f.ctx, account.Registration{Email: "x@example.com", Password: "short"}, func(context.Context, *account.User) (*checkout.Order, error) {
			called = true
			return nil, nil
		}); inputField(err) != "password" || called {
			t.Errorf("weak password: %v, placed %v", err, called)
		}
	})
}
