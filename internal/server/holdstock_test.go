package server_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The checkout rate limit is counted in the store: two servers on one store
// share it, per session and per client address, and answer 429 with
// Retry-After in the Store API's shape.
func TestCheckoutRateLimitShared(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		usd, _ := money.Lookup("USD")
		ck := checkout.DefaultConfig(usd)
		ck.RateLimit, ck.RateLimitPerAddress = 3, 6
		cfg := server.Config{BaseURL: "https://shop.example", Checkout: ck, ChangePoll: time.Hour, Secret: []byte("one shop, two instances")}
		a := &shop{t: t, db: db, srv: newServer(t, db, "", 1, cfg)}
		b := &shop{t: t, db: db, srv: newServerOn(t, db, "", 1, cfg)}
		tank := a.productID("cotton-tank-top")
		bad := checkoutBody(withBilling(func(m map[string]string) { m["email"] = "x" }), "")

		c := a.client()
		c.addItem(tank, 1)
		for i, s := range []*shop{a, b, a} {
			c.s = s
			if r := c.do("POST", checkoutAPI, bad); r.status != 400 {
				t.Fatalf("attempt %d: %d %s", i, r.status, r.raw)
			}
		}
		c.s = b
		r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""))
		if r.status != 429 || r.code() != "woocommerce_rest_rate_limited" || r.header.Get("Retry-After") == "" || r.header.Get("Retry-After") == "0" {
			t.Fatalf("fourth attempt, on the other instance: %d %s %q", r.status, r.raw, r.header.Get("Retry-After"))
		}
		// The no-script form counts against the same limit.
		var page struct {
			ProcessNonce string `json:"process_nonce"`
		}
		pageData(t, c.do("GET", "/checkout/", "").raw, &page)
		form := url.Values{"billing_first_name": {"Ada"}, "billing_email": {"ada@example.com"}, "billing_country": {"US"},
			"payment_method": {"bacs"}, "woocommerce-process-checkout-nonce": {page.ProcessNonce}}
		c.s = a
		if r := c.do("POST", "/checkout/", form.Encode()); r.status != 429 || r.header.Get("Retry-After") == "" ||
			!strings.Contains(r.raw, "Too many requests. Please wait and try again.") {
			t.Errorf("no-script form over the limit: %d %q", r.status, r.header.Get("Retry-After"))
		}
		if !a.noOrder(1) {
			t.Error("a limited checkout made an order")
		}
		if len(c.do("GET", cartAPI, "").items()) != 1 {
			t.Error("a limited checkout changed the cart")
		}
		// The address (all test requests come from one) allows 6 (5 counted
		// so far): one more session gets its first attempt, the next is
		// refused, on either server.
		d := b.client()
		d.addItem(tank, 1)
		if r := d.do("POST", checkoutAPI, bad); r.status != 400 {
			t.Fatalf("another session, sixth from the address: %d %s", r.status, r.raw)
		}
		e := a.client()
		e.addItem(tank, 1)
		if r := e.do("POST", checkoutAPI, checkoutBody(goodBilling(), "")); r.status != 429 || r.code() != "woocommerce_rest_rate_limited" {
			t.Fatalf("seventh from the address: %d %s", r.status, r.raw)
		}
	})
}

// Held stock: an unpaid bank-transfer order past the hold is cancelled and
// its stock restored once, even when two instances release at once; within
// the hold it is kept; paid orders and cash on delivery are never touched;
// --hold-stock-minutes 0 never releases. The hold ends at its boundary:
// a second before it the order is kept, at it (an order as old as the
// hold) it is released.
func TestHoldStockRelease(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		// On the seeded shop's calendar (whole seconds: the store keeps
		// the order's time in seconds), so the test reads the same on any day.
		placed := seedTime.Add(time.Hour)
		at := func(d time.Duration) func() time.Time { return func() time.Time { return placed.Add(d) } }
		hold := time.Hour
		s := &shop{t: t, db: db, srv: newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", ChangePoll: time.Hour,
			HoldStock: hold, Now: at(0)})}
		knit := s.productID("fisherman-cable-knit")
		stock := func() int64 {
			t.Helper()
			p, err := db.Product(context.Background(), knit)
			if err != nil || p.StockQuantity == nil {
				t.Fatalf("stock: %v", err)
			}
			return *p.StockQuantity
		}
		before := stock()
		order := func(method string, qty int) int64 {
			t.Helper()
			c := s.client()
			c.addItem(knit, qty)
			r := c.do("POST", checkoutAPI, `{"billing_address":{"first_name":"Ada","last_name":"Lovelace","address_1":"1 Main St","city":"Sacramento","state":"CA","postcode":"95814","country":"US","email":"ada@example.com","phone":"+1 555 010 0200"},"payment_method":"`+method+`"}`)
			if r.status != 200 {
				t.Fatalf("checkout %s: %d %s", method, r.status, r.raw)
			}
			return int64(num(r.body["order_id"]))
		}
		unpaid, paid, cod := order("bacs", 2), order("bacs", 1), order("cod", 1)
		if _, err := db.MarkOrderPaid(context.Background(), paid, "", placed); err != nil {
			t.Fatal(err)
		}
		if got := stock(); got != before-4 {
			t.Fatalf("stock after the orders: %d, want %d", got, before-4)
		}
		status := func(id int64) string { return s.order(id).Status }

		// Within the hold: kept.
		if n, err := s.srv.ReleaseHeldStock(context.Background()); n != 0 || err != nil || status(unpaid) != checkout.StatusOnHold {
			t.Fatalf("within the hold: %d %v %s", n, err, status(unpaid))
		}
		// Hold stock off: kept, however old.
		off := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", ChangePoll: time.Hour, Now: at(48 * time.Hour)})
		if n, _ := off.ReleaseHeldStock(context.Background()); n != 0 || status(unpaid) != checkout.StatusOnHold {
			t.Fatalf("hold stock 0 released %d", n)
		}
		// A second before the hold ends: kept.
		early := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", ChangePoll: time.Hour, HoldStock: hold, Now: at(hold - time.Second)})
		if n, err := early.ReleaseHeldStock(context.Background()); n != 0 || err != nil || status(unpaid) != checkout.StatusOnHold || stock() != before-4 {
			t.Fatalf("a second before the hold ends: released %d (%v), %s, stock %d", n, err, status(unpaid), stock())
		}
		// Two instances as the hold ends, at once: one cancels, stock restored once.
		later := server.Config{BaseURL: "https://shop.example", ChangePoll: time.Hour, HoldStock: hold, Now: at(hold)}
		x, y := newServerOn(t, db, "", 1, later), newServerOn(t, db, "", 1, later)
		var wg sync.WaitGroup
		counts := make([]int, 2)
		for i, srv := range []*server.Server{x, y} {
			wg.Go(func() {
				n, err := srv.ReleaseHeldStock(context.Background())
				if err != nil {
					t.Error(err)
				}
				counts[i] = n
			})
		}
		wg.Wait()
		if counts[0]+counts[1] != 1 {
			t.Fatalf("released %v, want one order in all", counts)
		}
		if status(unpaid) != checkout.StatusCancelled {
			t.Errorf("unpaid bank transfer past the hold: %s", status(unpaid))
		}
		if got := stock(); got != before-2 {
			t.Errorf("stock after the release: %d, want %d", got, before-2)
		}
		if o := s.order(paid); !o.Paid() || o.Status == checkout.StatusCancelled {
			t.Errorf("paid order: %s", o.Status)
		}
		if status(cod) != checkout.StatusProcessing {
			t.Errorf("cash on delivery: %s", status(cod))
		}
		// Again: nothing more.
		if n, _ := x.ReleaseHeldStock(context.Background()); n != 0 || stock() != before-2 {
			t.Errorf("second pass released %d, stock %d", n, stock())
		}
	})
}
