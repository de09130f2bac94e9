// Package orderstore is the orders' SQL: placing an order from a cart (stock,
// coupons, idempotency), the admin's order list, notes, status changes and
// refunds, the wallet's payment states, held stock, a customer's orders, and
// the coupons orders redeem. sqlstore.DB embeds an Orders, so these are
// methods of the store the server opens.
package orderstore

import (
	"context"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Orders is the order store over the shared connection core.
type Orders struct {
	*sqlcore.DB
	catalog *catalogstore.Catalog // the products an order shows
	carts   CartReader            // the cart an order is placed from
}

// CartReader reads a session's cart: sqlstore.DB, which keeps the carts.
type CartReader interface {
	Cart(ctx context.Context, id string, now time.Time) (*cart.Cart, error)
}

// New is the order store on db, reading products from catalog and carts
// from carts.
func New(db *sqlcore.DB, catalog *catalogstore.Catalog, carts CartReader) Orders {
	return Orders{DB: db, catalog: catalog, carts: carts}
}
