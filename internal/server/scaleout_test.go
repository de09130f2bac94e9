package server_test

import (
	"context"
	"fmt"
	"mime"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	vmail "vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/money"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Several instances on one PostgreSQL database ("Scale out").
// Each instance is a server with its own connection pool, caches, change
// follower and mail worker, as separate processes would be; they share the
// database, the secret, one SMTP server and one PayPal sandbox. Requests of
// one shopper go to the instances in turn (no sticky sessions), and the
// races run on every instance at once.

// cluster is the instances; shops[i] serves through instance i.
type cluster struct {
	t     *testing.T
	dsn   string
	shops []*shop
	sb    *paypalsandbox.Sandbox
	sink  *mailtest.Sink
}

func newCluster(t *testing.T, n int) *cluster {
	t.Helper()
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("several instances share one PostgreSQL database: set " + storetest.EnvPostgres + " to run this test")
	}
	cl := &cluster{t: t, dsn: storetest.DSN(t, sqlstore.Postgres)}
	cl.sb = paypalsandbox.New(paypalsandbox.Config{ClientID: "test-client", Secret: "test-secret"})
	base := serveSandbox(t, cl.sb)
	cl.sink = mailtest.Start(t, mailtest.Options{})
	smtp, err := vmail.ParseSMTPURL(fmt.Sprintf("smtp://%s?tls=none&from=shop@shop.example", cl.sink.Addr))
	if err != nil {
		t.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	ck := checkout.DefaultConfig(usd)
	ck.RateLimitPerAddress = 1000 // every test request comes from one address
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	clock := storetest.NewClock(seedTime) // one calendar for every instance and pool
	for i := range n {
		db := storetest.OpenDSN(t, cl.dsn) // a pool of its own, as another process has
		db.SetClock(clock.Now)
		wc := server.WalletConfig{PayPal: sandboxClient(cl.sb, base), CallTimeout: 5 * time.Second, ReconcileEvery: time.Hour}
		// The default change poll (1 s): the 2 s bound is checked as shipped.
		cfg := server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", CacheBytes: 16 << 20, CacheMaxAge: time.Hour,
			Checkout: ck, Wallet: &wc, Secret: []byte("one shop, three instances"), Now: clock.Now}
		var srv *server.Server
		if i == 0 {
			srv = newServer(t, db, "", 1, cfg) // seeds the demo shop
		} else {
			srv = newServerOn(t, db, "", 1, cfg)
		}
		sender, err := vmail.NewSMTPSender(smtp)
		if err != nil {
			t.Fatal(err)
		}
		ob := vmail.NewOutbox(db, sender, vmail.OrderRenderer(srv.OrderMailView, []string{"orders@shop.example"}), nil,
			vmail.Options{Interval: 50 * time.Millisecond})
		srv.SetMailKick(ob.Kick)
		if err := srv.Start(ctx); err != nil {
			t.Fatal(err)
		}
		<-srv.WalletStarted()
		go ob.Run(ctx)
		cl.shops = append(cl.shops, &shop{t: t, db: db, srv: srv})
	}
	return cl
}

// on moves client c to instance i (mod n): its next request goes there.
func (cl *cluster) on(c *client, i int) *client {
	c.s = cl.shops[i%len(cl.shops)]
	return c
}

// orderCount counts the orders in the store.
func (cl *cluster) orderCount() int {
	cl.t.Helper()
	var n int
	if err := storetest.OpenRaw(cl.t, cl.dsn).Get(&n, `SELECT COUNT(*) FROM orders`); err != nil {
		cl.t.Fatal(err)
	}
	return n
}

// setStock manages a product's stock at qty (through instance 0's store).
func (cl *cluster) setStock(id, qty int64) {
	cl.t.Helper()
	db := cl.shops[0].db
	p, err := db.Product(context.Background(), id)
	if err != nil {
		cl.t.Fatal(err)
	}
	p.ManageStock, p.StockQuantity, p.StockStatus, p.Backorders = true, &qty, catalog.StockInStock, "no"
	if _, err := db.SaveProduct(context.Background(), p, nil); err != nil {
		cl.t.Fatal(err)
	}
}

// checkoutAll sends one Store API checkout per client at once, client i
// on instance i, and answers the statuses and order ids.
func (cl *cluster) checkoutAll(clients []*client) (statuses []int, ids []int64) {
	statuses, ids = make([]int, len(clients)), make([]int64, len(clients))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, c := range clients {
		cl.on(c, i)
		wg.Go(func() {
			<-start
			r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""))
			statuses[i], ids[i] = r.status, num(r.body["order_id"])
		})
	}
	close(start)
	wg.Wait()
	return statuses, ids
}

func TestSeveralInstancesOnePostgres(t *testing.T) {
	t.Parallel()
	cl := newCluster(t, 3)
	ctx := context.Background()
	a, b := cl.shops[0], cl.shops[1]
	tank := a.productID("cotton-tank-top")
	var orders []int64 // every order placed, for the mail check

	t.Run("last unit bought by many at once", func(t *testing.T) {
		cl.setStock(tank, 1)
		clients := make([]*client, 12)
		for i := range clients {
			clients[i] = cl.on(a.client(), i)
			clients[i].addItem(tank, 1) // each cart may hold the one unit
		}
		before := cl.orderCount()
		statuses, ids := cl.checkoutAll(clients)
		won := 0
		for i, st := range statuses {
			switch {
			case st == 200 && ids[i] > 0:
				won++
				orders = append(orders, ids[i])
			case st == 409:
			default:
				t.Errorf("checkout %d on instance %d: status %d", i, i%3, st)
			}
		}
		if won != 1 {
			t.Fatalf("%d checkouts bought the last unit, want 1 (%v)", won, statuses)
		}
		if n := cl.orderCount() - before; n != 1 {
			t.Errorf("%d orders made, want 1", n)
		}
		for _, s := range cl.shops {
			if q := stock(t, s.db, tank); q != 0 {
				t.Errorf("stock %d after the sale, want 0", q)
			}
		}
	})

	t.Run("single-use coupon applied by many carts", func(t *testing.T) {
		cl.setStock(tank, 1000)
		a.coupon(coupon.Coupon{Code: "once", Type: coupon.FixedCart, Amount: 500, UsageLimit: 1})
		clients := make([]*client, 10)
		for i := range clients {
			c := cl.on(a.client(), i)
			c.addItem(tank, 1)
			if r := cl.on(c, i+1).do("POST", cartAPI+"/apply-coupon", `{"code":"once"}`); r.status != 200 {
				t.Fatalf("apply on instance %d: %d %s", (i+1)%3, r.status, r.raw)
			}
			clients[i] = c
		}
		before := cl.orderCount()
		statuses, ids := cl.checkoutAll(clients)
		won := 0
		for i, st := range statuses {
			if st == 200 && ids[i] > 0 {
				won++
				orders = append(orders, ids[i])
				if o := a.order(ids[i]); len(o.Coupons) != 1 || o.Coupons[0].Code != "once" {
					t.Errorf("the winning order's coupons: %+v", o.Coupons)
				}
			} else if st < 400 || st >= 500 {
				t.Errorf("checkout %d: status %d", i, st)
			}
		}
		c, err := b.db.CouponByCode(ctx, "once")
		if err != nil {
			t.Fatal(err)
		}
		if won != 1 || c.UsageCount != 1 || cl.orderCount()-before != 1 {
			t.Fatalf("%d orders with the coupon, usage count %d, %d orders made; want 1, 1, 1 (%v)",
				won, c.UsageCount, cl.orderCount()-before, statuses)
		}
	})

	t.Run("one capture per order", func(t *testing.T) {
		c := cl.on(a.client(), 0)
		c.addItem(tank, 1)
		n := cl.on(c, 1).walletNonces()
		r := cl.on(c, 2).wallet("ppc-create-order", n, map[string]any{"context": "checkout", "payment_method": "ppcp-gateway",
			"funding_source": "paypal", "form_encoded": walletForm(nil)})
		if !r.success() {
			t.Fatalf("create-order: %s", r.raw)
		}
		id := r.dataString("id")
		oid := atoi(r.dataString("custom_id"))
		back, err := cl.sb.Approve(id, paypalsandbox.FundingPayPal)
		if err != nil {
			t.Fatal(err)
		}
		ret := pathOf(t, back)
		// The buyer's browser returns on every instance at once, three
		// times each (reloads, a double click).
		var wg sync.WaitGroup
		codes := make([]int, 9)
		for i := range codes {
			wg.Go(func() {
				rec := httptest.NewRecorder()
				cl.shops[i%3].srv.ServeHTTP(rec, httptest.NewRequest("GET", ret, nil))
				codes[i] = rec.Code
			})
		}
		wg.Wait()
		for i, code := range codes {
			if code != 303 {
				t.Errorf("return %d on instance %d: %d", i, i%3, code)
			}
		}
		o := b.order(oid)
		if cl.sb.Captures(id) != 1 || !o.Paid() {
			t.Fatalf("captures %d, paid %v; want 1, true", cl.sb.Captures(id), o.Paid())
		}
		orders = append(orders, oid)
	})

	t.Run("each order mailed once", func(t *testing.T) {
		if len(orders) != 3 {
			t.Skipf("the order subtests made %d orders", len(orders))
		}
		// Every instance runs a mail worker on the one outbox.
		deadline := time.Now().Add(20 * time.Second)
		for {
			queued, err := a.db.MailOutbox(ctx, vmail.StateQueued, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(queued) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d mails still queued", len(queued))
			}
			time.Sleep(50 * time.Millisecond)
		}
		// Each order: one confirmation (its link carries the order's key)
		// and one notice to the shop ("New order #N" with nothing after).
		msgs := cl.sink.Messages()
		confirmations, notices := map[string]int{}, map[string]int{}
		for _, m := range msgs {
			h, text, _ := textAndHTML(t, m.Data)
			subject, _ := new(mime.WordDecoder).DecodeHeader(h.Header.Get("Subject"))
			if _, after, ok := strings.Cut(subject, "New order #"); ok {
				number, _, _ := strings.Cut(after, " ")
				notices[strings.TrimRight(number, ":,.")]++
				continue
			}
			for _, id := range orders {
				if o := a.order(id); strings.Contains(text, o.Key) {
					confirmations[o.Number]++
				}
			}
		}
		for _, id := range orders {
			o := a.order(id)
			if confirmations[o.Number] != 1 || notices[o.Number] != 1 || mails(t, a.db, id) != 2 {
				t.Errorf("order %s: %d confirmations, %d notices delivered, %d outbox rows; want 1, 1, 2",
					o.Number, confirmations[o.Number], notices[o.Number], mails(t, a.db, id))
			}
		}
		if len(msgs) != 2*len(orders) {
			t.Errorf("%d messages delivered for %d orders, want %d", len(msgs), len(orders), 2*len(orders))
		}
		sent, err := a.db.MailOutbox(ctx, vmail.StateSent, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range sent {
			if q.Attempts != 1 {
				t.Errorf("mail %s claimed %d times", q.DedupeKey, q.Attempts)
			}
		}
	})

	t.Run("a price change reaches every instance's cached page within 2 s", func(t *testing.T) {
		const page = "/product/big-weekender-tote/"
		for _, s := range cl.shops {
			body(t, s.get(page))
			if r := s.get(page); r.Header.Get("X-Cache") != "hit" {
				t.Fatalf("page not cached: %q", r.Header.Get("X-Cache"))
			}
		}
		editProduct(t, a.db, "big-weekender-tote", func(tote *catalog.Product) {
			price := int64(98765)
			tote.RegularPrice, tote.SalePrice, tote.SaleFrom, tote.SaleTo = &price, nil, nil, nil
		})
		saved := time.Now()
		for i, s := range cl.shops {
			if err := waitFor(saved.Add(2*time.Second), func() bool { return strings.Contains(body(t, s.get(page)), "987.65") }); err != nil {
				t.Errorf("instance %d still serves the old price 2 s after the change", i)
			}
		}
	})

	t.Run("a change committed out of order is not missed", func(t *testing.T) {
		// Instance b caches the tee's page; a writer takes change id N
		// for it and holds its transaction open while another write
		// commits N+1. b reads N+1 first; when N commits, b must still
		// drop the page.
		const page = "/product/classic-tee/"
		body(t, b.get(page))
		raw := storetest.OpenRaw(t, cl.dsn)
		tx, err := raw.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		tee := b.productID("classic-tee")
		if _, err := tx.Exec(`UPDATE products SET name = 'Gap Tee' WHERE id = $1`, tee); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO catalog_changes (product_id, kind, at) VALUES ($1, 'product', now())`, tee); err != nil {
			t.Fatal(err)
		}
		editProduct(t, a.db, "market-tote", func(tote *catalog.Product) {
			tote.Name = "Market Tote Bag"
		})
		if err := waitFor(time.Now().Add(5*time.Second), func() bool { return b.srv.KnownGaps() > 0 }); err != nil {
			t.Fatal("instance b read the later change without noting the skipped id")
		}
		if r := b.get(page); r.Header.Get("X-Cache") != "hit" || strings.Contains(body(t, r), "Gap Tee") {
			t.Fatalf("before the commit: X-Cache %q", r.Header.Get("X-Cache"))
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		committed := time.Now()
		if err := waitFor(committed.Add(2*time.Second), func() bool { return strings.Contains(body(t, b.get(page)), "Gap Tee") }); err != nil {
			t.Error("the change committed out of order never reached instance b's cached page")
		}
		if err := waitFor(time.Now().Add(3*time.Second), func() bool { return b.srv.KnownGaps() == 0 }); err != nil {
			t.Errorf("%d skipped ids still awaited after they committed", b.srv.KnownGaps())
		}
	})
}

// waitFor polls cond until it holds or deadline passes.
func waitFor(deadline time.Time, cond func() bool) error {
	for {
		if cond() {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("condition not met by %s", deadline.Format(time.TimeOnly))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
