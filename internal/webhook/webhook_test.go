package webhook_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/webhook"
)

// received is what a listener got.
type received struct {
	header http.Header
	body   []byte
}

// listener records every request and answers with answer (200 when nil).
type listener struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(w http.ResponseWriter, r *http.Request)
}

func newListener(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *listener {
	l := &listener{answer: answer}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		l.mu.Lock()
		l.got = append(l.got, received{r.Header.Clone(), b})
		answer := l.answer
		l.mu.Unlock()
		if answer != nil {
			answer(w, r)
		}
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *listener) requests() []received {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]received(nil), l.got...)
}

// clock is a test clock the worker reads.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const orderJSON = `{"id":87,"status":"processing","total":"39.00"}`

func payload(_ context.Context, resource string, id int64) ([]byte, error) {
	if resource == "order" && id == 404 {
		return nil, webhook.ErrGone
	}
	return []byte(strings.Replace(orderJSON, "87", strconv.FormatInt(id, 10), 1)), nil
}

func service(db *sqlstore.DB, allowPrivate bool) *webhook.Service {
	return &webhook.Service{Store: db, AllowPrivate: allowPrivate}
}

func worker(db *sqlstore.DB, c *clock, opts webhook.Options) *webhook.Worker {
	opts.AllowPrivate = true
	opts.Source = "https://shop.example"
	if c != nil {
		opts.Now = c.Now
	}
	opts.Jitter = func() float64 { return 0.5 }
	return webhook.NewWorker(db, payload, nil, opts)
}

func str(s string) *string { return &s }

func create(t *testing.T, s *webhook.Service, topic, url, status string) *webhook.Hook {
	t.Helper()
	h, err := s.Create(context.Background(), 0, webhook.Input{Name: str("Hook " + topic), Topic: str(topic), DeliveryURL: str(url), Status: str(status), Secret: str("s3cret")})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// event commits a change's event as the stores do, in a transaction.
func event(t *testing.T, db *sqlstore.DB, topic string, id int64) {
	t.Helper()
	if err := db.Tx(context.Background(), func(tx *sqlx.Tx) error {
		return sqlcore.EnqueueWebhooksTx(context.Background(), tx, topic, id, time.Now())
	}); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, w *webhook.Worker) webhook.Result {
	t.Helper()
	r, err := w.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An order.created delivery carries WooCommerce's headers and a signature
// that verifies with the secret; creating an active webhook pings it
// first with a form body and no X-WC-Webhook headers.
func TestDeliveryHeadersSignatureAndPing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		l := newListener(t, nil)
		h := create(t, service(db, true), "order.created", l.URL+"/hook", webhook.StatusActive)
		other := create(t, service(db, true), "product.updated", l.URL+"/other", webhook.StatusPaused)
		event(t, db, "order.created", 87)
		event(t, db, "order.updated", 87)   // no webhook of that topic
		event(t, db, "product.updated", 87) // its webhook is paused
		if r := run(t, worker(db, nil, webhook.Options{})); r.Delivered != 2 {
			t.Fatalf("delivered %+v, want the ping and one event", r)
		}
		got := l.requests()
		if len(got) != 2 {
			t.Fatalf("listener got %d requests", len(got))
		}
		ping := got[0]
		if string(ping.body) != "webhook_id="+strconv.FormatInt(h.ID, 10) || ping.header.Get("Content-Type") != "application/x-www-form-urlencoded" ||
			ping.header.Get("X-WC-Webhook-Topic") != "" || ping.header.Get("User-Agent") != "WooCommerce/11.0.1 Hookshot (WordPress/7.1)" {
			t.Errorf("ping: %q %v", ping.body, ping.header)
		}
		d := got[1]
		want := map[string]string{"Content-Type": "application/json", "User-Agent": "WooCommerce/11.0.1 Hookshot (WordPress/7.1)",
			"X-WC-Webhook-Source": "https://shop.example/", "X-WC-Webhook-Topic": "order.created", "X-WC-Webhook-Resource": "order",
			"X-WC-Webhook-Event": "created", "X-WC-Webhook-ID": strconv.FormatInt(h.ID, 10)}
		for k, v := range want {
			if d.header.Get(k) != v {
				t.Errorf("%s: %q, want %q", k, d.header.Get(k), v)
			}
		}
		if id := d.header.Get("X-WC-Webhook-Delivery-ID"); len(id) != 32 {
			t.Errorf("delivery id %q", id)
		}
		m := hmac.New(sha256.New, []byte("s3cret"))
		m.Write(d.body)
		if sig := d.header.Get("X-WC-Webhook-Signature"); sig != base64.StdEncoding.EncodeToString(m.Sum(nil)) {
			t.Errorf("signature %q does not verify", sig)
		}
		if string(d.body) != orderJSON {
			t.Errorf("body %s", d.body)
		}
		// The log has both attempts, newest first, with their sizes.
		log, err := db.WebhookLog(context.Background(), h.ID, 10)
		if err != nil || len(log) != 2 || log[0].Topic != "order.created" || log[0].ResponseCode != 200 || log[0].RequestBodySize != len(orderJSON) ||
			log[0].RequestHeaders["X-Wc-Webhook-Topic"] != "order.created" || log[1].Topic != webhook.TopicPing {
			t.Errorf("log: %+v %v", log, err)
		}
		if log, _ := db.WebhookLog(context.Background(), other.ID, 10); len(log) != 0 {
			t.Errorf("the paused webhook was called: %+v", log)
		}
		// Nothing left to do.
		if r := run(t, worker(db, nil, webhook.Options{})); r != (webhook.Result{}) {
			t.Errorf("second run: %+v", r)
		}
	})
}

// A failing receiver is retried with a growing delay; the fifth failure
// in a row disables the webhook, gives up what it had queued and queues
// a mail to staff.
func TestRetriesThenDisabled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		l := newListener(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
		h := create(t, service(db, true), "order.created", l.URL, webhook.StatusPaused) // no ping
		if _, err := service(db, true).Update(ctx, h.ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil {
			t.Fatal(err)
		}
		event(t, db, "order.created", 1)
		event(t, db, "order.created", 2)
		c := &clock{t: time.Now()}
		w := worker(db, c, webhook.Options{Backoff: time.Minute})
		// The first attempt of each fails (2 failures); then only the
		// delay decides: nothing is due until it passes.
		if r := run(t, w); r.Failed != 2 {
			t.Fatalf("first run: %+v", r)
		}
		if r := run(t, w); r.Failed != 0 {
			t.Fatalf("retried before the delay: %+v", r)
		}
		for i := 0; i < 10 && len(l.requests()) < 5; i++ {
			c.Add(time.Hour)
			run(t, w)
		}
		if n := len(l.requests()); n != 5 {
			t.Errorf("attempts %d, want 5", n)
		}
		got, err := db.Webhook(ctx, h.ID)
		if err != nil || got.Status != webhook.StatusDisabled || got.FailureCount != 5 {
			t.Fatalf("after 5 failures: %+v %v", got, err)
		}
		c.Add(24 * time.Hour)
		if r := run(t, w); r != (webhook.Result{}) || len(l.requests()) != 5 {
			t.Errorf("a disabled webhook still delivers: %+v", r)
		}
		rows, err := db.MailOutbox(ctx, mail.StateQueued, 10)
		if err != nil {
			t.Fatal(err)
		}
		var notice bool
		for _, m := range rows {
			notice = notice || (m.Kind == webhook.KindDisabled && m.Ref == strconv.FormatInt(h.ID, 10))
		}
		if !notice {
			t.Errorf("no webhook_disabled mail queued: %+v", rows)
		}
		msg, err := webhook.Renderer(db.Webhook, []string{"shop@example.com"}, "Vitrine")(ctx, webhook.KindDisabled, strconv.FormatInt(h.ID, 10))
		if err != nil || !strings.Contains(msg.Subject, "Webhook disabled") || !strings.Contains(msg.Text, l.URL) {
			t.Errorf("mail: %+v %v", msg, err)
		}
		log, _ := db.WebhookLog(ctx, h.ID, 50)
		if len(log) != 5 || log[0].ResponseCode != 500 {
			t.Errorf("log: %+v", log)
		}
		// Set active again: it delivers anew, its failure count reset.
		l.mu.Lock()
		l.answer = nil
		l.mu.Unlock()
		if got, err := service(db, true).Update(ctx, h.ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil || got.FailureCount != 0 {
			t.Fatalf("reactivate: %+v %v", got, err)
		}
		event(t, db, "order.created", 3)
		if r := run(t, w); r.Delivered != 1 {
			t.Errorf("after reactivation: %+v", r)
		}
	})
}

// Internal addresses are refused when the webhook is saved and when the
// worker connects, unless allowed.
func TestPrivateAddressesRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		l := newListener(t, nil)
		s := service(db, false)
		s.Resolve = func(ctx context.Context, host string) ([]netipAddr, error) { return resolve(host) }
		for _, u := range []string{l.URL, "http://127.0.0.1/x", "http://10.1.2.3/", "http://[::1]/", "http://169.254.169.254/latest", "http://internal.example/", "ftp://shop.example/"} {
			_, err := s.Create(ctx, 0, webhook.Input{Topic: str("order.created"), DeliveryURL: str(u)})
			var ie *webhook.InputError
			if !errors.As(err, &ie) || ie.Code != "woocommerce_rest_shop_webhook_invalid_delivery_url" {
				t.Errorf("%s: %v", u, err)
			}
		}
		if _, err := s.Create(ctx, 0, webhook.Input{Topic: str("order.created"), DeliveryURL: str("https://public.example/hook")}); err != nil {
			t.Errorf("public URL refused: %v", err)
		}
		// Saved while allowed (or resolving elsewhere then), refused at
		// dial time by a worker that is not allowed.
		h := create(t, service(db, true), "order.created", l.URL, webhook.StatusActive)
		w := webhook.NewWorker(db, payload, nil, webhook.Options{Source: "https://shop.example/"})
		r := run(t, w)
		if len(l.requests()) != 0 || r.Failed == 0 {
			t.Fatalf("an internal address was reached: %+v", r)
		}
		log, _ := db.WebhookLog(ctx, h.ID, 10)
		if len(log) == 0 || log[0].ResponseCode != 0 || !strings.Contains(log[0].ResponseError, "private") {
			t.Errorf("log: %+v", log)
		}
	})
}

// A redirect is the answer (a failure), never followed; a receiver slower
// than the timeout is a failure too.
func TestNoRedirectAndTimeout(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		target := newListener(t, nil)
		redirect := newListener(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/elsewhere", http.StatusTemporaryRedirect)
		})
		release := make(chan struct{})
		slow := newListener(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		})
		defer close(release)
		hr := create(t, service(db, true), "coupon.created", redirect.URL, webhook.StatusPaused)
		hs := create(t, service(db, true), "coupon.updated", slow.URL, webhook.StatusPaused)
		for _, h := range []*webhook.Hook{hr, hs} {
			if _, err := service(db, true).Update(ctx, h.ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil {
				t.Fatal(err)
			}
		}
		event(t, db, "coupon.created", 5)
		event(t, db, "coupon.updated", 5)
		r := run(t, worker(db, nil, webhook.Options{Timeout: 300 * time.Millisecond}))
		if r.Failed != 2 || r.Delivered != 0 {
			t.Errorf("run: %+v", r)
		}
		if n := len(target.requests()); n != 0 {
			t.Errorf("the redirect was followed (%d requests)", n)
		}
		if log, _ := db.WebhookLog(ctx, hr.ID, 1); len(log) != 1 || log[0].ResponseCode != http.StatusTemporaryRedirect {
			t.Errorf("redirect log: %+v", log)
		}
		if log, _ := db.WebhookLog(ctx, hs.ID, 1); len(log) != 1 || log[0].ResponseCode != 0 || log[0].ResponseError == "" {
			t.Errorf("timeout log: %+v", log)
		}
	})
}

// A deleted resource is delivered as its id; one gone before its
// created/updated delivery is dropped.
func TestDeletedAndGone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		l := newListener(t, nil)
		create(t, service(db, true), "product.deleted", l.URL, webhook.StatusActive)
		create(t, service(db, true), "order.updated", l.URL, webhook.StatusActive)
		event(t, db, "product.deleted", 12)
		event(t, db, "order.updated", 404)
		r := run(t, worker(db, nil, webhook.Options{}))
		if r.Delivered != 3 || r.Dropped != 1 {
			t.Errorf("run: %+v", r)
		}
		// The two webhooks' deliveries go out concurrently, so the
		// deletion is found by its event, not by its place.
		got := l.requests()
		var deleted []received
		for _, r := range got {
			if r.header.Get("X-WC-Webhook-Event") == "deleted" {
				deleted = append(deleted, r)
			}
		}
		if len(got) != 3 || len(deleted) != 1 || string(deleted[0].body) != `{"id":12}` {
			t.Errorf("deleted: %d requests, %d deletions", len(got), len(deleted))
		}
	})
}

// Two instances on one store deliver every event once.
func TestClaimedOnceAcrossInstances(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		a, b := storetest.OpenDSN(t, dsn), storetest.OpenDSN(t, dsn)
		l := newListener(t, nil)
		create(t, service(a, true), "order.created", l.URL, webhook.StatusPaused)
		h, _ := a.Webhooks(context.Background(), "")
		if _, err := service(a, true).Update(context.Background(), h[0].ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil {
			t.Fatal(err)
		}
		const n = 60
		for i := 1; i <= n; i++ {
			event(t, a, "order.created", int64(i))
		}
		var wg sync.WaitGroup
		for _, db := range []*sqlstore.DB{a, b, a, b} {
			w := worker(db, nil, webhook.Options{Batch: 3})
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := w.RunOnce(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		seen := map[string]int{}
		for _, r := range l.requests() {
			seen[r.header.Get("X-WC-Webhook-Delivery-ID")]++
		}
		if len(l.requests()) != n || len(seen) != n {
			t.Errorf("listener got %d requests, %d distinct, want %d", len(l.requests()), len(seen), n)
		}
		for id, c := range seen {
			if c != 1 {
				t.Errorf("delivery %s came %d times", id, c)
			}
		}
	})
}

// An event queued before the process stopped is delivered by the next.
func TestDeliveredAfterRestart(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		l := newListener(t, nil)
		before := storetest.OpenDSN(t, dsn)
		h := create(t, service(before, true), "order.created", l.URL, webhook.StatusActive)
		event(t, before, "order.created", 87)
		if err := before.Close(); err != nil {
			t.Fatal(err)
		}
		after := storetest.OpenDSN(t, dsn)
		if r := run(t, worker(after, nil, webhook.Options{})); r.Delivered != 2 {
			t.Fatalf("after the restart: %+v", r)
		}
		got := l.requests()
		if len(got) != 2 || string(got[1].body) != orderJSON || got[1].header.Get("X-WC-Webhook-ID") != fmt.Sprint(h.ID) {
			t.Errorf("got %d requests", len(got))
		}
	})
}

// The upkeep deletes delivered rows older than the retention and keeps
// the queued ones and the log.
func TestUpkeepDeletesDoneRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		l := newListener(t, nil)
		h := create(t, service(db, true), "order.created", l.URL, webhook.StatusActive)
		event(t, db, "order.created", 1)
		run(t, worker(db, nil, webhook.Options{}))
		s := service(db, true)
		if n, err := s.Upkeep(ctx); err != nil || n != 0 {
			t.Fatalf("fresh rows deleted: %d %v", n, err)
		}
		event(t, db, "order.created", 2) // queued, not delivered
		s.Now = func() time.Time { return time.Now().Add(webhook.QueueRetention + time.Hour) }
		if n, err := s.Upkeep(ctx); err != nil || n != 2 {
			t.Fatalf("upkeep: %d %v, want the ping and the delivery", n, err)
		}
		if r := run(t, worker(db, nil, webhook.Options{})); r.Delivered != 1 {
			t.Errorf("the queued row was lost: %+v", r)
		}
		if log, _ := db.WebhookLog(ctx, h.ID, 10); len(log) != 3 {
			t.Errorf("log: %d entries", len(log))
		}
	})
}

// One worker sends to several webhooks at once: a receiver that takes its
// time holds up its own webhook's deliveries, which arrive one after the
// other in queue order, and another webhook's about the same order (its
// update waits for its creation's delivery), nothing else.
func TestSlowReceiverHoldsOnlyWhatFollowsIt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		release := make(chan struct{})
		slow := newListener(t, func(w http.ResponseWriter, r *http.Request) { <-release })
		fast := newListener(t, nil)
		// Made paused, then turned on: no pings.
		hooks := []*webhook.Hook{create(t, service(db, true), "order.created", slow.URL, webhook.StatusPaused),
			create(t, service(db, true), "order.updated", fast.URL, webhook.StatusPaused)}
		for _, h := range hooks {
			if _, err := service(db, true).Update(ctx, h.ID, webhook.Input{Status: str(webhook.StatusActive)}); err != nil {
				t.Fatal(err)
			}
		}
		for id := int64(1); id <= 3; id++ {
			event(t, db, "order.created", id) // to the slow receiver, one at a time
		}
		event(t, db, "order.updated", 9)
		event(t, db, "order.updated", 1) // waits for order 1's creation
		event(t, db, "order.updated", 8)
		done := make(chan webhook.Result, 1)
		go func() { done <- run(t, worker(db, nil, webhook.Options{})) }()

		// Order 9's update arrives while order 1's creation is held; order 1's
		// update does not, and neither does order 8's, queued after it to the same webhook.
		deadline := time.After(10 * time.Second)
		for len(fast.requests()) == 0 {
			select {
			case <-deadline:
				close(release)
				t.Fatal("the fast webhook waited for the slow one")
			case <-time.After(10 * time.Millisecond):
			}
		}
		time.Sleep(100 * time.Millisecond) // room for a wrong delivery to arrive
		if n := len(slow.requests()); n != 1 {
			t.Errorf("the slow webhook got %d requests while its first was held, want 1", n)
		}
		if n := len(fast.requests()); n != 1 {
			t.Errorf("the fast webhook got %d requests while order 1's creation was held, want 1 (order 9's)", n)
		}
		close(release)
		if r := <-done; r.Delivered != 6 {
			t.Fatalf("delivered %+v, want 6", r)
		}
		ids := func(l *listener) string {
			var out []string
			for _, got := range l.requests() {
				id, _, _ := strings.Cut(strings.TrimPrefix(string(got.body), `{"id":`), ",")
				out = append(out, id)
			}
			return strings.Join(out, ",")
		}
		if got := ids(slow); got != "1,2,3" {
			t.Errorf("the slow webhook got the orders %s, want 1,2,3", got)
		}
		if got := ids(fast); got != "9,1,8" {
			t.Errorf("the fast webhook got the orders %s, want 9,1,8", got)
		}
	})
}
