package server_test

import (
	"context"
	"testing"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
)

// Test data written straight to the store, beside the demo catalogue.

// placeStoreOrder saves p and places a bank-transfer order (on hold, its
// mails queued) of qty of it for customer, with meta, straight through the
// store at seedTime from the cart session sess.
func placeStoreOrder(t *testing.T, db *sqlstore.DB, p *catalog.Product, qty int64, sess string, customer checkout.Customer, meta map[string]string) *checkout.Order {
	t.Helper()
	ctx := context.Background()
	if _, err := db.SaveProduct(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddLine(ctx, sess, cart.Line{Key: cart.LineKey(p.ID, 0, nil), ProductID: p.ID, Quantity: qty, UnitPrice: *p.RegularPrice},
		seedTime, seedTime.Add(cart.Lifetime), nil); err != nil {
		t.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	o, _, err := db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: sess, Method: payment.BankTransfer{}, Status: checkout.StatusOnHold,
		Config: &cfg, Now: seedTime, Customer: customer, Meta: meta,
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: "k", RequestHash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// editProduct loads the product slug from db, applies edit and saves it.
func editProduct(t testing.TB, db *sqlstore.DB, slug string, edit func(*catalog.Product)) *catalog.Product {
	t.Helper()
	ctx := context.Background()
	p, err := db.ProductBySlug(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	edit(p)
	if _, err := db.SaveProduct(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}
