package server_test

import (
	"context"
	"fmt"
	"testing"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/storetest"
)

// The Store API's Cart-Hash header is the priced cart's hash the checkout
// service derives idempotency keys from (one formula, checkout.PricedCart.Hash):
// a double-submitted checkout is still recognised after the use case moved
// out of the HTTP layer, and the header changes when the cart does.
func TestCartHashMatchesService(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		tee := s.productID("classic-tee")
		c.addItem(s.productID("cotton-tank-top"), 2)
		r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1,"variation":[{"attribute":"pa_color","value":"rust"},{"attribute":"pa_size","value":"xxl"}]}`, tee))
		if r.status != 201 || len(r.items()) != 2 {
			t.Fatalf("add: %d %s", r.status, r.raw)
		}
		// The services read the shop's clock, as the server's do.
		svc := &checkout.Service{Store: s.db, Carts: &cart.Service{Store: s.db, Catalog: storetest.Cache(s.db), Now: s.db.Now},
			Config: s.srv.CheckoutConfig(), Payments: s.srv.Payments(), Now: s.db.Now}
		pc, err := svc.Cart(context.Background(), c.sessionID(), "")
		if err != nil {
			t.Fatal(err)
		}
		if h := r.header.Get("Cart-Hash"); h == "" || h != pc.Hash() {
			t.Errorf("Cart-Hash %q, service hash %q", h, pc.Hash())
		}
	})
}
