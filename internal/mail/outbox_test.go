package mail_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// orders is a renderer's data: order id → view.
func testRenderer(views map[int64]mail.OrderView) mail.Renderer {
	return mail.OrderRenderer(func(ctx context.Context, id int64) (mail.OrderView, error) {
		v, ok := views[id]
		if !ok {
			return mail.OrderView{}, mail.ErrNotFound
		}
		return v, nil
	}, []string{"orders@shop.example"})
}

func sender(t *testing.T, port int) *mail.SMTPSender {
	t.Helper()
	_, s := newSender(t, fmt.Sprintf("smtp://127.0.0.1:%d?tls=none&from=%s&timeout=5s", port, "Vitrine+Demo+%3Cshop@shop.example%3E"), nil)
	return s
}

// fixedJitter makes delays exact (factor 1).
func fixedJitter() float64 { return 0.5 }

func options(c *clock) mail.Options {
	return mail.Options{Now: c.Now, Jitter: fixedJitter, Interval: time.Hour}
}

func row(t *testing.T, db *sqlstore.DB, key string) mail.Queued {
	t.Helper()
	q, ok, err := db.MailByDedupeKey(context.Background(), key)
	if err != nil || !ok {
		t.Fatalf("row %s: %v %v", key, ok, err)
	}
	return q
}

// parsed is a delivered message read back with the standard library.
type parsed struct {
	Header     netmail.Header
	Text, HTML string
}

func parse(t *testing.T, raw []byte) parsed {
	t.Helper()
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("read message: %v\n%s", err, raw)
	}
	p := parsed{Header: m.Header}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q: %v", m.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	var order []string
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		// NextPart decodes quoted-printable itself.
		b, err := io.ReadAll(part)
		if err != nil {
			t.Fatal(err)
		}
		ct, cp, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		if !strings.EqualFold(cp["charset"], "utf-8") {
			t.Errorf("part %s charset %q", ct, cp["charset"])
		}
		order = append(order, ct)
		switch ct {
		case "text/plain":
			p.Text = string(b)
		case "text/html":
			p.HTML = string(b)
		}
	}
	if strings.Join(order, ",") != "text/plain,text/html" {
		t.Errorf("parts %v, want text then html", order)
	}
	return p
}

func TestMailOutboxDelivers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		smtp := mailtest.Start(t, mailtest.Options{})
		v := sampleView()
		v.Lines[0].Name = "Überhemd — linen"
		o := mail.NewOutbox(db, sender(t, smtp.Port(t)), testRenderer(map[int64]mail.OrderView{17: v}), nil, options(c))
		if err := db.EnqueueMail(ctx, mail.KindOrderConfirmation, "17", "order:17:confirmation", c.Now()); err != nil {
			t.Fatal(err)
		}
		if err := db.EnqueueMail(ctx, mail.KindNewOrder, "17", "order:17:new", c.Now()); err != nil {
			t.Fatal(err)
		}
		res, err := o.RunOnce(ctx)
		if err != nil || res != (mail.Result{Sent: 2}) {
			t.Fatalf("run: %+v %v", res, err)
		}
		got := smtp.Messages()
		if len(got) != 2 {
			t.Fatalf("%d messages delivered", len(got))
		}
		conf, notice := got[0], got[1]
		if conf.From != "shop@shop.example" || len(conf.To) != 1 || conf.To[0] != "jane@example.com" {
			t.Errorf("confirmation envelope: %s → %v", conf.From, conf.To)
		}
		if len(notice.To) != 1 || notice.To[0] != "orders@shop.example" {
			t.Errorf("notice envelope: %v", notice.To)
		}
		p := parse(t, conf.Data)
		subject, _ := new(mime.WordDecoder).DecodeHeader(p.Header.Get("Subject"))
		if subject != "Your Vitrine Demo order has been received!" {
			t.Errorf("subject %q", subject)
		}
		if from, err := p.Header.AddressList("From"); err != nil || from[0].Address != "shop@shop.example" || from[0].Name != "Vitrine Demo" {
			t.Errorf("from %v %v", from, err)
		}
		if to, err := p.Header.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != "jane@example.com" {
			t.Errorf("to %v %v", to, err)
		}
		q := row(t, db, "order:17:confirmation")
		id := p.Header.Get("Message-Id")
		if !strings.HasPrefix(id, fmt.Sprintf("<vitrine.%d.%d.", q.ID, q.CreatedAt.Unix())) || !strings.HasSuffix(id, "@shop.example>") {
			t.Errorf("message id %q", id)
		}
		if d, err := p.Header.Date(); err != nil || d.IsZero() {
			t.Errorf("date: %v", err)
		}
		if p.Header.Get("MIME-Version") != "1.0" {
			t.Errorf("mime version %q", p.Header.Get("MIME-Version"))
		}
		if !strings.Contains(p.Text, "Überhemd — linen (#LS-1) × 2 = $56.00") || !strings.Contains(p.Text, "Thank you for your order") {
			t.Errorf("text part:\n%s", p.Text)
		}
		if !strings.Contains(p.HTML, ">Thank you for your order</h1>") || !strings.Contains(p.HTML, "Überhemd — linen") {
			t.Errorf("html part:\n%s", p.HTML)
		}
		pn := parse(t, notice.Data)
		if rt, err := pn.Header.AddressList("Reply-To"); err != nil || rt[0].Address != "jane@example.com" {
			t.Errorf("notice reply-to %v %v", rt, err)
		}
		if s, _ := new(mime.WordDecoder).DecodeHeader(pn.Header.Get("Subject")); s != "[Vitrine Demo]: New order #1042" {
			t.Errorf("notice subject %q", s)
		}
		if pn.Header.Get("Message-Id") == id {
			t.Error("two rows share a message id")
		}

		// Recorded as sent; nothing goes twice.
		if q.SentAt.IsZero() || q.Attempts != 1 || q.LastError != "" {
			t.Errorf("row after send: %+v", q)
		}
		c.Add(24 * time.Hour)
		if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{}) {
			t.Fatalf("second run: %+v %v", res, err)
		}
		if n := len(smtp.Messages()); n != 2 {
			t.Errorf("%d messages after a second run", n)
		}
	})
}

// An SMTP server that is down loses nothing: the row stays queued with its
// attempt, error and next attempt time, and goes once the server is up.
func TestMailOutboxSMTPDown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		port := freePort(t)
		o := mail.NewOutbox(db, sender(t, port), testRenderer(map[int64]mail.OrderView{17: sampleView()}), nil, options(c))
		start := c.Now()
		if err := db.EnqueueMail(ctx, mail.KindOrderConfirmation, "17", "k", start); err != nil {
			t.Fatal(err)
		}
		if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{Retried: 1}) {
			t.Fatalf("run while down: %+v %v", res, err)
		}
		q := row(t, db, "k")
		if q.Attempts != 1 || !q.NextAttemptAt.Equal(start.Add(30*time.Second)) || q.LastError == "" || !q.SentAt.IsZero() || !q.FailedAt.IsZero() {
			t.Fatalf("row after a failed send: %+v", q)
		}
		if !strings.Contains(q.LastError, "refused") {
			t.Errorf("last error %q", q.LastError)
		}
		// Not due before its time.
		c.Add(29 * time.Second)
		if res, _ := o.RunOnce(ctx); res != (mail.Result{}) {
			t.Fatalf("retried early: %+v", res)
		}
		// Second failure: the delay doubles.
		c.Add(time.Second)
		if res, _ := o.RunOnce(ctx); res != (mail.Result{Retried: 1}) {
			t.Fatalf("second attempt: %+v", res)
		}
		q = row(t, db, "k")
		if q.Attempts != 2 || !q.NextAttemptAt.Equal(c.Now().Add(time.Minute)) {
			t.Fatalf("row after the second failure: %+v", q)
		}
		if c, _ := db.CountMail(ctx); c != (mail.Counts{Queued: 1}) {
			t.Fatalf("counts while down: %+v", c)
		}

		// The server comes up on that port: delivered exactly once.
		smtp := mailtest.Start(t, mailtest.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port)})
		c.Add(time.Minute)
		if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{Sent: 1}) {
			t.Fatalf("run when up: %+v %v", res, err)
		}
		for range 3 {
			c.Add(2 * time.Hour)
			if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{}) {
				t.Fatalf("later run: %+v %v", res, err)
			}
		}
		if got := smtp.Messages(); len(got) != 1 || got[0].To[0] != "jane@example.com" {
			t.Fatalf("delivered: %+v", got)
		}
		q = row(t, db, "k")
		if q.SentAt.IsZero() || q.Attempts != 3 || q.LastError != "" {
			t.Errorf("row after delivery: %+v", q)
		}
	})
}

// Two workers on two store handles of one database (two server instances)
// never send a message twice.
func TestMailOutboxTwoWorkers(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		a, b := storetest.OpenDSN(t, dsn), storetest.OpenDSN(t, dsn)
		c := newClock()
		smtp := mailtest.Start(t, mailtest.Options{})
		const n = 30
		views := map[int64]mail.OrderView{}
		for i := int64(1); i <= n; i++ {
			v := sampleView()
			v.Number = fmt.Sprint(1000 + i)
			v.Email = fmt.Sprintf("buyer%d@example.com", i)
			views[i] = v
			if err := a.EnqueueMail(ctx, mail.KindOrderConfirmation, fmt.Sprint(i), fmt.Sprint("order:", i), c.Now()); err != nil {
				t.Fatal(err)
			}
		}
		opts := options(c)
		opts.Batch = 3
		workers := []*mail.Outbox{
			mail.NewOutbox(a, sender(t, smtp.Port(t)), testRenderer(views), nil, opts),
			mail.NewOutbox(b, sender(t, smtp.Port(t)), testRenderer(views), nil, opts),
			mail.NewOutbox(a, sender(t, smtp.Port(t)), testRenderer(views), nil, opts),
			mail.NewOutbox(b, sender(t, smtp.Port(t)), testRenderer(views), nil, opts),
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var total mail.Result
		for _, w := range workers {
			wg.Go(func() {
				res, err := w.RunOnce(ctx)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total.Sent += res.Sent
				total.Retried += res.Retried
				total.GivenUp += res.GivenUp
				mu.Unlock()
			})
		}
		wg.Wait()
		if total != (mail.Result{Sent: n}) {
			t.Errorf("workers' results add up to %+v", total)
		}
		got := smtp.Messages()
		seen := map[string]int{}
		for _, m := range got {
			seen[m.To[0]]++
		}
		if len(got) != n || len(seen) != n {
			t.Fatalf("%d messages to %d addresses, want %d", len(got), len(seen), n)
		}
		for to, k := range seen {
			if k != 1 {
				t.Errorf("%s got %d messages", to, k)
			}
		}
		if cnt, _ := a.CountMail(ctx); cnt != (mail.Counts{Sent: n}) {
			t.Errorf("counts: %+v", cnt)
		}
	})
}

func TestMailOutboxGiveUp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		opts := options(c)
		opts.MaxAttempts = 5
		opts.Backoff = 30 * time.Second
		opts.MaxBackoff = 100 * time.Second
		o := mail.NewOutbox(db, sender(t, freePort(t)), testRenderer(map[int64]mail.OrderView{17: sampleView()}), log, opts)
		if err := db.EnqueueMail(ctx, mail.KindNewOrder, "17", "k", c.Now()); err != nil {
			t.Fatal(err)
		}
		// Delays 30 s, 60 s, then capped at 100 s; the fifth failure gives up.
		var delays []time.Duration
		for attempt := 1; attempt <= 5; attempt++ {
			res, err := o.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			q := row(t, db, "k")
			if q.Attempts != attempt {
				t.Fatalf("attempt %d: row %+v", attempt, q)
			}
			if attempt < 5 {
				if res != (mail.Result{Retried: 1}) {
					t.Fatalf("attempt %d: %+v", attempt, res)
				}
				delays = append(delays, q.NextAttemptAt.Sub(c.Now()))
				c.Add(q.NextAttemptAt.Sub(c.Now()))
				continue
			}
			if res != (mail.Result{GivenUp: 1}) || q.FailedAt.IsZero() || q.LastError == "" {
				t.Fatalf("last attempt: %+v %+v", res, q)
			}
		}
		if fmt.Sprint(delays) != "[30s 1m0s 1m40s 1m40s]" {
			t.Errorf("delays %v", delays)
		}
		c.Add(24 * time.Hour)
		if res, _ := o.RunOnce(ctx); res != (mail.Result{}) {
			t.Errorf("given-up row tried again: %+v", res)
		}
		if cnt, _ := db.CountMail(ctx); cnt != (mail.Counts{Failed: 1}) {
			t.Errorf("counts: %+v", cnt)
		}
		if !strings.Contains(logs.String(), "mail given up after the last attempt") || !strings.Contains(logs.String(), "attempts=5") {
			t.Errorf("give-up not logged:\n%s", logs.String())
		}

		// Requeued by an operator once the server is up: delivered.
		smtp := mailtest.Start(t, mailtest.Options{})
		o = mail.NewOutbox(db, sender(t, smtp.Port(t)), testRenderer(map[int64]mail.OrderView{17: sampleView()}), log, opts)
		if ok, err := db.RequeueMail(ctx, row(t, db, "k").ID, c.Now()); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{Sent: 1}) || len(smtp.Messages()) != 1 {
			t.Fatalf("after requeue: %+v %v", res, err)
		}
	})
}

// Jitter spreads each delay over ±25 %.
func TestMailOutboxJitter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		for i, tc := range []struct {
			jitter float64
			want   time.Duration
		}{{0, 22500 * time.Millisecond}, {0.999999, 37499 * time.Millisecond}} {
			opts := options(c)
			opts.Jitter = func() float64 { return tc.jitter }
			o := mail.NewOutbox(db, sender(t, freePort(t)), testRenderer(map[int64]mail.OrderView{17: sampleView()}), nil, opts)
			key := fmt.Sprint("k", i)
			if err := db.EnqueueMail(ctx, mail.KindNewOrder, "17", key, c.Now()); err != nil {
				t.Fatal(err)
			}
			if _, err := o.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			// Stored in whole seconds.
			if got := row(t, db, key).NextAttemptAt.Sub(c.Now()); got != want(tc.want) {
				t.Errorf("jitter %v: delay %v, want %v", tc.jitter, got, want(tc.want))
			}
		}
	})
}

func want(d time.Duration) time.Duration { return d.Truncate(time.Second) }

// A message that can never be rendered (the order is gone, the kind is
// unknown, the ref is malformed, the address is invalid) is given up at
// once; a transient render failure is retried.
func TestMailOutboxPermanentRenderError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		smtp := mailtest.Start(t, mailtest.Options{})
		bad := sampleView()
		bad.Email = "not an address"
		render := testRenderer(map[int64]mail.OrderView{17: sampleView(), 18: bad})
		flaky := true
		o := mail.NewOutbox(db, sender(t, smtp.Port(t)), func(ctx context.Context, kind, ref string) (mail.Message, error) {
			if kind == mail.KindOrderConfirmation && ref == "17" && flaky {
				return mail.Message{}, errTransient
			}
			return render(ctx, kind, ref)
		}, nil, options(c))
		for _, e := range []struct{ kind, ref, key string }{
			{mail.KindOrderConfirmation, "999", "missing"},
			{"birthday", "17", "kind"},
			{mail.KindNewOrder, "17; DROP", "ref"},
			{mail.KindOrderConfirmation, "18", "address"},
			{mail.KindOrderConfirmation, "17", "flaky"},
		} {
			if err := db.EnqueueMail(ctx, e.kind, e.ref, e.key, c.Now()); err != nil {
				t.Fatal(err)
			}
		}
		res, err := o.RunOnce(ctx)
		if err != nil || res != (mail.Result{GivenUp: 4, Retried: 1}) {
			all, _ := db.MailOutbox(ctx, "", 10)
			t.Fatalf("run: %+v %v\n%+v", res, err, all)
		}
		for key, want := range map[string]string{"missing": "not found", "kind": "unknown kind", "ref": "bad order ref", "address": "mail: to"} {
			q := row(t, db, key)
			if q.FailedAt.IsZero() || q.Attempts != 1 || !strings.Contains(q.LastError, want) {
				t.Errorf("%s: %+v (want error containing %q)", key, q, want)
			}
		}
		q := row(t, db, "flaky")
		if !q.FailedAt.IsZero() || q.Attempts != 1 || !strings.Contains(q.LastError, errTransient.Error()) {
			t.Errorf("transient render error: %+v", q)
		}
		flaky = false
		c.Add(time.Hour)
		if res, err := o.RunOnce(ctx); err != nil || res != (mail.Result{Sent: 1}) {
			t.Fatalf("second run: %+v %v", res, err)
		}
		if got := smtp.Messages(); len(got) != 1 || got[0].To[0] != "jane@example.com" {
			t.Fatalf("delivered: %+v", got)
		}
	})
}

// Run polls and wakes at once on Kick; without a sender it does not run and
// messages stay queued.
func TestMailOutboxRunKick(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := newClock()
		views := map[int64]mail.OrderView{17: sampleView()}

		idle := mail.NewOutbox(db, nil, testRenderer(views), nil, options(c))
		if idle.Enabled() {
			t.Error("outbox without sender enabled")
		}
		idle.Kick() // harmless
		if err := idle.Run(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := idle.RunOnce(ctx); err == nil {
			t.Error("RunOnce without sender succeeded")
		}
		if err := db.EnqueueMail(ctx, mail.KindOrderConfirmation, "17", "before", c.Now()); err != nil {
			t.Fatal(err)
		}
		if cnt, _ := db.CountMail(ctx); cnt != (mail.Counts{Queued: 1}) {
			t.Fatalf("counts without sender: %+v", cnt)
		}

		// With a sender: the first poll sends what was queued; a kick sends a
		// new message at once although the interval is an hour.
		smtp := mailtest.Start(t, mailtest.Options{})
		o := mail.NewOutbox(db, sender(t, smtp.Port(t)), testRenderer(views), nil, options(c))
		if !o.Enabled() {
			t.Fatal("outbox with sender not enabled")
		}
		done := make(chan error, 1)
		go func() { done <- o.Run(ctx) }()
		smtp.WaitFor(t, 1)
		if err := db.EnqueueMail(ctx, mail.KindNewOrder, "17", "after", c.Now()); err != nil {
			t.Fatal(err)
		}
		o.Kick()
		got := smtp.WaitFor(t, 2)
		if got[1].To[0] != "orders@shop.example" {
			t.Errorf("second message to %v", got[1].To)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}
