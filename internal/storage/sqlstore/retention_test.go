package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/audit"
	"vitrine/internal/payment"
	"vitrine/internal/retention"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Data retention's rules over the real store (internal/retention): each
// rule's boundary (exactly N months old against a day younger), what each
// leaves alone, idempotence, the bounded batch, and one run per slot
// across instances.

// retentionNow is the tests' "now": the test clock reads it on any day.
var retentionNow = time.Date(2027, 6, 15, 12, 0, 0, 0, time.UTC)

type retentionFixture struct {
	*orderFixture
	clock *storetest.Clock
	n     int
}

func newRetentionFixture(t *testing.T, db *sqlstore.DB) *retentionFixture {
	t.Helper()
	clock := storetest.FrozenClock(retentionNow)
	db.SetClock(clock.Now)
	return &retentionFixture{orderFixture: newOrderFixture(t, db, 1000), clock: clock}
}

// order places an order created at created, in status, for customer (0: a
// guest), and answers its id.
func (f *retentionFixture) order(t *testing.T, created time.Time, status string, customer int64) int64 {
	t.Helper()
	ctx := context.Background()
	f.n++
	sess := session(1000 + f.n)
	f.add(t, sess, f.mug, nil, 1, 999)
	o, _, err := f.db.PlaceOrder(ctx, f.input(sess, payment.BankTransfer{}, fmt.Sprintf("k%d", f.n)))
	if err != nil {
		t.Fatal(err)
	}
	var cust any
	if customer != 0 {
		cust = customer
	}
	if err := f.db.ExecForTest(ctx, `UPDATE orders SET created_at = ?, status = ?, customer_id = ? WHERE id = ?`,
		created.Unix(), status, cust, o.ID); err != nil {
		t.Fatal(err)
	}
	return o.ID
}

// user adds an account of role created at created, last logged in at
// login (zero: never), and answers its id.
func (f *retentionFixture) user(t *testing.T, role string, created, login time.Time) int64 {
	t.Helper()
	ctx := context.Background()
	f.n++
	email := fmt.Sprintf("user%d@example.com", f.n)
	var last any
	if !login.IsZero() {
		last = login.Unix()
	}
	if err := f.db.ExecForTest(ctx, `INSERT INTO users (email, password_hash, display_name, role, created_at, first_name, last_name, last_login_at)
		VALUES (?, '', 'Someone', ?, ?, 'Some', 'One', ?)`, email, role, created.Unix(), last); err != nil {
		t.Fatal(err)
	}
	return f.count(t, `SELECT id FROM users WHERE email = ?`, email)
}

func (f *retentionFixture) service(p retention.Policy, batch int) *retention.Service {
	return &retention.Service{Store: f.db, Now: f.clock.Now, Batch: batch,
		Policy: func(context.Context) (retention.Policy, error) { return p, nil },
		Audit:  &audit.Service{Store: f.db, Now: f.clock.Now}}
}

func (f *retentionFixture) exists(t *testing.T, table string, id int64) bool {
	t.Helper()
	return f.count(t, `SELECT COUNT(*) FROM `+table+` WHERE id = ?`, id) == 1
}

func (f *retentionFixture) anonymised(t *testing.T, id int64) bool {
	t.Helper()
	return f.count(t, `SELECT COUNT(*) FROM orders WHERE id = ? AND anonymised_at IS NOT NULL`, id) == 1
}

func TestRetentionGuestOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newRetentionFixture(t, db)
		six := retention.Cutoff(retentionNow, 6)
		acct := f.user(t, "customer", retentionNow, retentionNow)
		due := f.order(t, six, "completed", 0)
		dueProcessing := f.order(t, six.AddDate(-1, 0, 0), "processing", 0)
		dueRefunded := f.order(t, six.Add(-time.Hour), "refunded", 0)
		younger := f.order(t, six.AddDate(0, 0, 1), "completed", 0)
		pending := f.order(t, six.AddDate(-1, 0, 0), "pending", 0)
		onHold := f.order(t, six.AddDate(-1, 0, 0), "on-hold", 0)
		ofAccount := f.order(t, six.AddDate(-1, 0, 0), "completed", acct)
		done := f.order(t, six.AddDate(-1, 0, 0), "completed", 0)
		if n, err := db.AnonymiseOrders(ctx, []int64{done}); err != nil || n != 1 {
			t.Fatal(n, err)
		}
		totalBefore := f.count(t, `SELECT SUM(total) FROM orders`)

		s := f.service(retention.Policy{GuestOrderMonths: 6}, 0)
		res, err := s.Apply(ctx, retention.Policy{GuestOrderMonths: 6})
		if err != nil || res != (retention.Result{GuestOrdersAnonymised: 3}) {
			t.Fatalf("apply: %+v, %v; want 3 guest orders", res, err)
		}
		for id, want := range map[int64]bool{due: true, dueProcessing: true, dueRefunded: true, younger: false, pending: false,
			onHold: false, ofAccount: false, done: true} {
			if got := f.anonymised(t, id); got != want {
				t.Errorf("order %d anonymised %v, want %v", id, got, want)
			}
		}
		if got := f.count(t, `SELECT SUM(total) FROM orders`); got != totalBefore {
			t.Errorf("totals changed: %d, were %d", got, totalBefore)
		}
		// Idempotent: the next run finds nothing.
		if res, err := s.Apply(ctx, retention.Policy{GuestOrderMonths: 6}); err != nil || res.Changed() {
			t.Errorf("second run: %+v, %v", res, err)
		}
		// A day later the younger order's time has come.
		f.clock.Add(24 * time.Hour)
		if res, err := s.Apply(ctx, retention.Policy{GuestOrderMonths: 6}); err != nil || res.GuestOrdersAnonymised != 1 || !f.anonymised(t, younger) {
			t.Errorf("a day later: %+v, %v", res, err)
		}
	})
}

func TestRetentionFailedOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newRetentionFixture(t, db)
		three := retention.Cutoff(retentionNow, 3)
		cancelled := f.order(t, three, "cancelled", 0)
		failed := f.order(t, three.AddDate(-2, 0, 0), "failed", f.user(t, "customer", retentionNow, retentionNow))
		younger := f.order(t, three.AddDate(0, 0, 1), "failed", 0)
		completed := f.order(t, three.AddDate(-2, 0, 0), "completed", 0)
		pending := f.order(t, three.AddDate(-2, 0, 0), "pending", 0)

		p := retention.Policy{FailedOrderMonths: 3}
		res, err := f.service(p, 0).Apply(ctx, p)
		if err != nil || res != (retention.Result{OrdersDeleted: 2}) {
			t.Fatalf("apply: %+v, %v; want 2 deleted", res, err)
		}
		for id, want := range map[int64]bool{cancelled: false, failed: false, younger: true, completed: true, pending: true} {
			if got := f.exists(t, "orders", id); got != want {
				t.Errorf("order %d exists %v, want %v", id, got, want)
			}
		}
		if n := f.count(t, `SELECT COUNT(*) FROM order_lines WHERE order_id IN (?, ?)`, cancelled, failed); n != 0 {
			t.Errorf("%d lines of deleted orders left", n)
		}
		if res, err := f.service(p, 0).Apply(ctx, p); err != nil || res.Changed() {
			t.Errorf("second run: %+v, %v", res, err)
		}
	})
}

func TestRetentionInactiveAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newRetentionFixture(t, db)
		year := retention.Cutoff(retentionNow, 12)
		long := year.AddDate(-3, 0, 0)
		// Logged in exactly twelve months ago, ordered before: inactive.
		gone := f.user(t, "customer", long, year)
		goneOrders := []int64{f.order(t, long, "completed", gone), f.order(t, year.AddDate(0, -1, 0), "processing", gone)}
		// Never logged in since the column came, created long ago: inactive.
		never := f.user(t, "customer", long, time.Time{})
		// Logged in a day less than twelve months ago: kept.
		loggedIn := f.user(t, "customer", long, year.AddDate(0, 0, 1))
		// Ordered a day less than twelve months ago: kept, with its order.
		ordered := f.user(t, "customer", long, long)
		orderedOrder := f.order(t, year.AddDate(0, 0, 1), "completed", ordered)
		// Created recently, never logged in: kept.
		fresh := f.user(t, "customer", year.AddDate(0, 0, 1), time.Time{})
		// Seen in a session a day less than twelve months ago: kept.
		seen := f.user(t, "customer", long, long)
		if err := db.InsertSession(ctx, "hash-seen", &account.Session{UserID: seen, CreatedAt: long, LastSeenAt: long, ExpiresAt: retentionNow}); err != nil {
			t.Fatal(err)
		}
		if err := db.ExecForTest(ctx, `UPDATE account_sessions SET last_seen_at = ? WHERE token_hash = 'hash-seen'`, year.AddDate(0, 0, 1).Unix()); err != nil {
			t.Fatal(err)
		}
		if err := db.ExecForTest(ctx, `UPDATE users SET last_login_at = ? WHERE id = ?`, long.Unix(), seen); err != nil {
			t.Fatal(err)
		}
		// Moved in from WooCommerce a day less than twelve months ago
		// (created long before on the old shop): kept.
		movedIn := f.user(t, "customer", long, time.Time{})
		if err := db.ExecForTest(ctx, `INSERT INTO legacy_ids (kind, old_id, new_id, imported_at) VALUES ('customer', 77, ?, ?)`,
			movedIn, year.AddDate(0, 0, 1).Unix()); err != nil {
			t.Fatal(err)
		}
		// Staff are never taken.
		staff := f.user(t, "shop_manager", long, long)

		p := retention.Policy{InactiveAccountMonths: 12}
		res, err := f.service(p, 0).Apply(ctx, p)
		if err != nil || res != (retention.Result{AccountsDeleted: 2, AccountOrdersAnonymised: 2}) {
			t.Fatalf("apply: %+v, %v; want 2 accounts and 2 orders", res, err)
		}
		for id, want := range map[int64]bool{gone: false, never: false, loggedIn: true, ordered: true, fresh: true, seen: true, movedIn: true, staff: true} {
			if got := f.exists(t, "users", id); got != want {
				t.Errorf("user %d exists %v, want %v", id, got, want)
			}
		}
		for _, id := range goneOrders {
			if !f.exists(t, "orders", id) || !f.anonymised(t, id) {
				t.Errorf("order %d of the deleted account: kept %v, anonymised %v", id, f.exists(t, "orders", id), f.anonymised(t, id))
			}
		}
		if f.anonymised(t, orderedOrder) {
			t.Errorf("an active account's order was anonymised")
		}
		if res, err := f.service(p, 0).Apply(ctx, p); err != nil || res.Changed() {
			t.Errorf("second run: %+v, %v", res, err)
		}
		// Logging in is activity: InsertSession records it.
		if err := db.InsertSession(ctx, "hash-fresh", &account.Session{UserID: loggedIn, CreatedAt: retentionNow, LastSeenAt: retentionNow,
			ExpiresAt: retentionNow.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if got := f.count(t, `SELECT last_login_at FROM users WHERE id = ?`, loggedIn); got != retentionNow.Unix() {
			t.Errorf("last_login_at %d after a log-in", got)
		}
	})
}

// A run takes a bounded batch per rule and says more is due.
func TestRetentionBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newRetentionFixture(t, db)
		old := retentionNow.AddDate(-2, 0, 0)
		for range 3 {
			f.order(t, old, "completed", 0)
			f.order(t, old, "cancelled", 0)
		}
		p := retention.Policy{GuestOrderMonths: 1, FailedOrderMonths: 1}
		s := f.service(p, 2)
		if res, err := s.Apply(ctx, p); err != nil || res != (retention.Result{GuestOrdersAnonymised: 2, OrdersDeleted: 2, More: true}) {
			t.Fatalf("first: %+v, %v", res, err)
		}
		if res, err := s.Apply(ctx, p); err != nil || res != (retention.Result{GuestOrdersAnonymised: 1, OrdersDeleted: 1}) {
			t.Fatalf("second: %+v, %v", res, err)
		}
	})
}

// Tick: off by default; with a rule on, one run per hour's slot however
// many instances tick, a follow-up at once after a full batch, and an
// activity log entry with counts only.
func TestRetentionTick(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		f := newRetentionFixture(t, db)
		old := retentionNow.AddDate(-2, 0, 0)
		for range 3 {
			f.order(t, old, "completed", 0)
		}

		off := f.service(retention.Policy{}, 0)
		if ran, _, err := off.Tick(ctx); ran || err != nil {
			t.Fatalf("off: ran %v, %v", ran, err)
		}
		if n := f.count(t, `SELECT COUNT(*) FROM retention_runs`); n != 0 {
			t.Fatalf("off queued %d runs", n)
		}

		// Two instances: two stores on one database, ticking together.
		other := storetest.OpenDSN(t, dsn)
		other.SetClock(f.clock.Now)
		p := retention.Policy{GuestOrderMonths: 1}
		services := []*retention.Service{f.service(p, 2), {Store: other, Now: f.clock.Now, Batch: 2,
			Policy: func(context.Context) (retention.Policy, error) { return p, nil }, Audit: &audit.Service{Store: other, Now: f.clock.Now}}}
		tickAll := func() (ran int, total int) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for _, s := range services {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, res, err := s.Tick(ctx)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					defer mu.Unlock()
					if r {
						ran++
					}
					total += res.GuestOrdersAnonymised
				}()
			}
			wg.Wait()
			return ran, total
		}
		if ran, n := tickAll(); ran != 1 || n != 2 {
			t.Fatalf("first tick: %d instances ran, %d anonymised; want 1 and 2 (the batch)", ran, n)
		}
		// The batch was full: a follow-up is due at once, taken by one.
		f.clock.Add(time.Minute)
		if ran, n := tickAll(); ran != 1 || n != 1 {
			t.Fatalf("follow-up: %d ran, %d anonymised; want 1 and 1", ran, n)
		}
		// Within the hour nothing more runs.
		f.clock.Add(time.Minute)
		if ran, _ := tickAll(); ran != 0 {
			t.Fatalf("%d instances ran again within the hour", ran)
		}
		// The next hour's slot runs once and finds nothing.
		f.clock.Add(time.Hour)
		if ran, n := tickAll(); ran != 1 || n != 0 {
			t.Fatalf("next hour: %d ran, %d anonymised", ran, n)
		}
		entries, err := (&audit.Service{Store: db}).List(ctx, audit.Filter{Object: "retention"})
		if err != nil || len(entries) != 2 {
			t.Fatalf("activity log: %+v, %v; want the two runs that changed something", entries, err)
		}
		if e := entries[1]; e.Summary != "2 guest orders anonymised." || e.ActorName != retention.ActorName || e.ActorID != 0 || e.Action != "retention.run" {
			t.Errorf("entry %+v", e)
		}
		at, summary, ok, err := db.LastRetentionRun(ctx)
		if err != nil || !ok || at.IsZero() || summary == "" {
			t.Errorf("last run: %v %q %v %v", at, summary, ok, err)
		}
	})
}
