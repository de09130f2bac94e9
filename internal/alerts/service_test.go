package alerts_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/botcheck"
	"vitrine/internal/catalog"
	"vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var start = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

type fixture struct {
	t     *testing.T
	ctx   context.Context
	db    *sqlstore.DB
	clock *storetest.Clock
	svc   *alerts.Service
	admin *catalog.Admin
	bots  *botcheck.Service
}

var secret = []byte("0123456789abcdef0123456789abcdef")

func newFixture(t *testing.T, db *sqlstore.DB, seeded bool) *fixture {
	t.Helper()
	c := storetest.FrozenClock(start)
	db.SetClock(c.Now)
	ctx := context.Background()
	if seeded {
		if _, err := seed.Demo(ctx, db, start.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	sealer, err := account.NewSealer(secret)
	if err != nil {
		t.Fatal(err)
	}
	bots := &botcheck.Service{Store: db, Secret: secret, Purpose: "stock-alert", Now: c.Now}
	return &fixture{t: t, ctx: ctx, db: db, clock: c, bots: bots,
		svc:   &alerts.Service{Store: db, Bots: bots, Sealer: sealer, Secret: secret, SiteName: func() string { return "Vitrine" }, Now: c.Now},
		admin: &catalog.Admin{Store: db, MinorUnit: 2, Now: c.Now}}
}

// solved is a fresh bot-check payload that passes.
func (f *fixture) solved() string {
	f.t.Helper()
	ch, err := f.bots.Challenge(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	p, err := botcheck.Solve(ch)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func i64(v int64) *int64   { return &v }
func str(v string) *string { return &v }
func yes() *bool           { b := true; return &b }

// soldOut makes a published simple product with managed stock at 0.
func (f *fixture) soldOut(name string) *catalog.Product {
	f.t.Helper()
	p, err := f.admin.Create(f.ctx, catalog.ProductInput{Name: str(name), Status: str("publish"), RegularPrice: str("20.00"),
		ManageStock: yes(), StockQuantity: i64(0)})
	if err != nil {
		f.t.Fatal(err)
	}
	if p.StockStatus != catalog.StockOutOfStock {
		f.t.Fatalf("%s: stock status %q", name, p.StockStatus)
	}
	return p
}

// restockAdmin restocks p as the admin's product screen does.
func (f *fixture) restockAdmin(id int64, qty int64) {
	f.t.Helper()
	p, _, err := f.admin.Get(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	orig := int64(0)
	if p.StockQuantity != nil {
		orig = *p.StockQuantity
	}
	if _, err := f.admin.Update(f.ctx, id, p.Version, catalog.ProductInput{StockQuantity: i64(qty), OriginalStock: i64(orig)}); err != nil {
		f.t.Fatal(err)
	}
}

// setStockImport writes a product's stock as an import does (the catalogue
// writer's upsert).
func (f *fixture) setStockImport(id int64, qty int64) {
	f.t.Helper()
	p, err := f.db.Product(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	parentID := p.ID
	if p.ParentID != 0 {
		parentID = p.ParentID
	}
	parent, err := f.db.Product(f.ctx, parentID)
	if err != nil {
		f.t.Fatal(err)
	}
	p.StockQuantity = i64(qty)
	p.StockStatus = catalog.StockInStock
	if qty <= 0 {
		p.StockStatus = catalog.StockOutOfStock
	}
	if p.ParentID != 0 {
		_, err = f.db.SaveProduct(f.ctx, parent, []*catalog.Product{p})
	} else {
		_, err = f.db.SaveProduct(f.ctx, p, nil)
	}
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) customer(email string) *account.User {
	f.t.Helper()
	u := &account.User{Email: email, DisplayName: "C", Role: account.RoleCustomer, PasswordHash: "x", CreatedAt: start}
	id, err := f.db.CreateUser(f.ctx, u)
	if err != nil {
		f.t.Fatal(err)
	}
	u.ID = id
	return u
}

func (f *fixture) alertRows() int {
	f.t.Helper()
	var n int
	if err := f.db.Read.GetContext(f.ctx, &n, `SELECT COUNT(*) FROM stock_alerts`); err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fixture) outbox(kind string) []mail.Queued {
	f.t.Helper()
	rows, err := f.db.MailOutbox(f.ctx, "", 1000)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []mail.Queued
	for _, r := range rows {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func (f *fixture) render(kind, ref string) (mail.Message, error) {
	return f.svc.Renderer(alerts.MailLinks{BaseURL: "https://shop.example", Mailto: func() string { return "unsubscribe@shop.example" }})(f.ctx, kind, ref)
}

var tokenRE = regexp.MustCompile(`token=([A-Za-z0-9_%.-]+)`)

func linkToken(t *testing.T, body string) string {
	t.Helper()
	m := tokenRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no token link in %q", body)
	}
	tok, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestSubscribeAndConfirm(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		p := f.soldOut("Kettle")

		// A guest: pending, with a confirmation mail in the outbox.
		s, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "  Ann@Example.com ", Botcheck: f.solved()})
		if err != nil || s.Status != alerts.StatusPending || s.Already {
			t.Fatalf("subscribe: %+v %v", s, err)
		}
		confirms := f.outbox(alerts.MailConfirm)
		if len(confirms) != 1 {
			t.Fatalf("confirmation mails: %d", len(confirms))
		}
		m, err := f.render(alerts.MailConfirm, confirms[0].Ref)
		if err != nil || m.To[0] != "ann@example.com" || !strings.Contains(m.Text, "Kettle") {
			t.Fatalf("confirm mail: %+v %v", m, err)
		}
		tok := linkToken(t, m.Text)
		if tok != s.Token {
			t.Fatalf("mailed token differs from the issued one")
		}
		var stored string
		if err := db.Read.GetContext(f.ctx, &stored, `SELECT COALESCE(confirm_hash, '') FROM stock_alerts`); err != nil || stored != account.HashToken(tok) || strings.Contains(stored, tok) {
			t.Fatalf("stored: %q %v", stored, err)
		}

		// Subscribing again is the same alert, with no second mail.
		again, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "ann@example.com", Botcheck: f.solved()})
		if err != nil || !again.Already || again.AlertID != s.AlertID || len(f.outbox(alerts.MailConfirm)) != 1 {
			t.Fatalf("again: %+v %v", again, err)
		}

		// The link's page shows the alert; confirming works once.
		if a, it, err := f.svc.PendingConfirm(f.ctx, tok); err != nil || a.ID != s.AlertID || it.Name != "Kettle" {
			t.Fatalf("pending: %v", err)
		}
		if a, err := f.svc.Confirm(f.ctx, tok); err != nil || a.Status != alerts.StatusWaiting {
			t.Fatalf("confirm: %+v %v", a, err)
		}
		if _, err := f.svc.Confirm(f.ctx, tok); !errors.Is(err, alerts.ErrLinkInvalid) {
			t.Fatalf("second confirm: %v", err)
		}
		if _, _, err := f.svc.PendingConfirm(f.ctx, tok); !errors.Is(err, alerts.ErrLinkInvalid) {
			t.Fatalf("page after use: %v", err)
		}
		// A used link is never mailed again.
		if _, err := f.render(alerts.MailConfirm, confirms[0].Ref); !errors.Is(err, mail.ErrPermanent) {
			t.Fatalf("render after use: %v", err)
		}

		// An expired link: works one second before, not at its expiry.
		s2, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "bo@example.com", Botcheck: f.solved()})
		if err != nil {
			t.Fatal(err)
		}
		s3, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "cy@example.com", Botcheck: f.solved()})
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(alerts.ConfirmLifetime - time.Second)
		if _, err := f.svc.Confirm(f.ctx, s3.Token); err != nil {
			t.Fatalf("confirm just before expiry: %v", err)
		}
		f.clock.Add(time.Second)
		if _, err := f.svc.Confirm(f.ctx, s2.Token); !errors.Is(err, alerts.ErrLinkInvalid) {
			t.Fatalf("expired: %v", err)
		}
		// Once expired, the address may subscribe again (a new link).
		s4, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "bo@example.com", Botcheck: f.solved()})
		if err != nil || s4.Already || s4.Status != alerts.StatusPending {
			t.Fatalf("after expiry: %+v %v", s4, err)
		}

		// A customer waits at once, with no mail.
		u := f.customer("dee@example.com")
		before := len(f.outbox(alerts.MailConfirm))
		cs, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, User: u})
		if err != nil || cs.Status != alerts.StatusWaiting || len(f.outbox(alerts.MailConfirm)) != before {
			t.Fatalf("customer: %+v %v", cs, err)
		}
		counts, err := f.svc.Counts(f.ctx, p.ID)
		if err != nil || len(counts) != 1 || counts[0].Waiting != 3 || counts[0].Pending != 1 {
			t.Fatalf("counts: %+v %v", counts, err)
		}
	})
}

func TestSubscribeRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, true)
		p := f.soldOut("Teapot")
		inStock, err := f.db.ProductBySlug(f.ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := f.db.Variations(f.ctx, inStock.ID)
		if err != nil {
			t.Fatal(err)
		}
		var inStockVar int64
		for _, v := range vars {
			if v.StockStatus == catalog.StockInStock {
				inStockVar = v.ID
				break
			}
		}
		cases := []struct {
			name string
			in   alerts.SubscribeInput
			want func(error) bool
		}{
			{"garbage email", alerts.SubscribeInput{ItemID: p.ID, Email: "not an email", Botcheck: f.solved()}, is(alerts.ErrInvalidEmail)},
			{"empty email", alerts.SubscribeInput{ItemID: p.ID, Email: "", Botcheck: f.solved()}, is(alerts.ErrInvalidEmail)},
			{"long email", alerts.SubscribeInput{ItemID: p.ID, Email: strings.Repeat("a", 250) + "@example.com", Botcheck: f.solved()}, is(alerts.ErrInvalidEmail)},
			{"no bot-check", alerts.SubscribeInput{ItemID: p.ID, Email: "a@example.com"}, botcheck.IsRefusal},
			{"bad bot-check", alerts.SubscribeInput{ItemID: p.ID, Email: "a@example.com", Botcheck: "eyJ4IjoxfQ"}, botcheck.IsRefusal},
			{"unknown product", alerts.SubscribeInput{ItemID: 999999, Email: "a@example.com", Botcheck: f.solved()}, is(alerts.ErrUnknownItem)},
			{"no product", alerts.SubscribeInput{ItemID: 0, Email: "a@example.com", Botcheck: f.solved()}, is(alerts.ErrUnknownItem)},
			{"in stock", alerts.SubscribeInput{ItemID: inStockVar, Email: "a@example.com", Botcheck: f.solved()}, is(alerts.ErrInStock)},
			{"variable product", alerts.SubscribeInput{ItemID: inStock.ID, Email: "a@example.com", Botcheck: f.solved()}, is(alerts.ErrChooseOption)},
		}
		for _, c := range cases {
			if _, err := f.svc.Subscribe(f.ctx, c.in); !c.want(err) {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		// A payload spent once does not pass twice.
		pl := f.solved()
		if _, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "ok@example.com", Botcheck: pl}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "ok2@example.com", Botcheck: pl}); !botcheck.IsRefusal(err) {
			t.Errorf("replayed payload: %v", err)
		}
		if n := f.alertRows(); n != 1 {
			t.Fatalf("refusals recorded alerts: %d rows", n)
		}
		if n := len(f.outbox(alerts.MailConfirm)); n != 1 {
			t.Fatalf("refusals queued mail: %d", n)
		}
	})
}

func is(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }

// waiting subscribes a confirmed guest.
func (f *fixture) waiting(item int64, email string) int64 {
	f.t.Helper()
	s, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: item, Email: email, Botcheck: f.solved()})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.svc.Confirm(f.ctx, s.Token); err != nil {
		f.t.Fatal(err)
	}
	return s.AlertID
}

func sinkSender(t *testing.T, sink *mailtest.Sink) *mail.SMTPSender {
	t.Helper()
	cfg, err := mail.ParseSMTPURL(fmt.Sprintf("smtp://127.0.0.1:%d?tls=none&from=shop@shop.example&timeout=5s", sink.Port(t)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mail.NewSMTPSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f *fixture) outboxWorker(sink *mailtest.Sink) *mail.Outbox {
	return mail.NewOutbox(f.db, sinkSender(f.t, sink), f.svc.Renderer(alerts.MailLinks{BaseURL: "https://shop.example", Mailto: func() string { return "unsubscribe@shop.example" }}),
		nil, mail.Options{Now: f.clock.Now, Interval: time.Hour, Batch: 50})
}

func TestRestockMailsOnceWhateverThePath(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		p := f.soldOut("Lamp")
		other := f.soldOut("Rug")
		a1 := f.waiting(p.ID, "ann@example.com")
		f.waiting(p.ID, "bo@example.com")
		f.waiting(other.ID, "cy@example.com")
		// A pending (unconfirmed) alert is not mailed.
		if _, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, Email: "pending@example.com", Botcheck: f.solved()}); err != nil {
			t.Fatal(err)
		}
		sink := mailtest.Start(t, mailtest.Options{})
		o := f.outboxWorker(sink)

		// Nothing restocked: nothing queued.
		if r, err := f.svc.RunRestocks(f.ctx); err != nil || r != (alerts.RestockResult{}) {
			t.Fatalf("idle: %+v %v", r, err)
		}
		// The admin's save restocks the lamp.
		f.restockAdmin(p.ID, 5)
		r, err := f.svc.RunRestocks(f.ctx)
		if err != nil || r.Alerts != 2 || r.Restocks != 1 {
			t.Fatalf("restock: %+v %v", r, err)
		}
		if _, err := o.RunOnce(f.ctx); err != nil {
			t.Fatal(err)
		}
		// Out of stock again, then an import restocks it: no second mail,
		// and the rug's subscriber was never mailed about the lamp.
		f.setStockImport(p.ID, 0)
		f.setStockImport(p.ID, 3)
		if r, err := f.svc.RunRestocks(f.ctx); err != nil || r.Alerts != 0 {
			t.Fatalf("second restock: %+v %v", r, err)
		}
		// The rug comes back through the import path: its subscriber is mailed.
		f.setStockImport(other.ID, 2)
		if r, err := f.svc.RunRestocks(f.ctx); err != nil || r.Alerts != 1 {
			t.Fatalf("rug restock: %+v %v", r, err)
		}
		if _, err := o.RunOnce(f.ctx); err != nil {
			t.Fatal(err)
		}
		got := backInStock(sink.Messages())
		to := map[string]int{}
		for _, m := range got {
			to[m.To[0]]++
		}
		if len(got) != 3 || to["ann@example.com"] != 1 || to["bo@example.com"] != 1 || to["cy@example.com"] != 1 {
			t.Fatalf("delivered: %v", to)
		}
		var ann []byte
		for _, m := range got {
			if m.To[0] == "ann@example.com" {
				ann = m.Data
			}
		}
		unfold := bytes.ReplaceAll(ann, []byte("\r\n "), []byte(" "))
		for _, want := range []string{
			"List-Unsubscribe: <https://shop.example/stock-alerts/unsubscribe/?token=",
			"mailto:unsubscribe@shop.example?subject=unsubscribe",
			"List-Unsubscribe-Post: List-Unsubscribe=One-Click",
			"https://shop.example/product/lamp/",
		} {
			if !bytes.Contains(unfold, []byte(want)) {
				t.Errorf("mail lacks %q:\n%s", want, ann)
			}
		}
		counts, err := f.svc.Counts(f.ctx, p.ID)
		if err != nil || counts[0].Sent != 2 || counts[0].Waiting != 0 || counts[0].Pending != 1 {
			t.Fatalf("counts: %+v %v", counts, err)
		}
		_ = a1
	})
}

// backInStock keeps the back-in-stock mails (the outbox also sends the
// confirmation mails of alerts still pending).
func backInStock(ms []mailtest.Delivered) []mailtest.Delivered {
	var out []mailtest.Delivered
	for _, m := range ms {
		if bytes.Contains(m.Data, []byte("\nList-Unsubscribe:")) {
			out = append(out, m)
		}
	}
	return out
}

func TestVariationOnlyMailsItsSubscribers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, true)
		tee, err := f.db.ProductBySlug(f.ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := f.db.Variations(f.ctx, tee.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out, other int64
		for _, v := range vars {
			switch {
			case v.StockStatus == catalog.StockOutOfStock && out == 0:
				out = v.ID
			case v.StockStatus == catalog.StockInStock && other == 0:
				other = v.ID
			}
		}
		if out == 0 || other == 0 {
			t.Fatal("no variations to use")
		}
		f.setStockImport(other, 0)
		f.waiting(out, "navy@example.com")
		f.waiting(other, "other@example.com")
		f.setStockImport(out, 4)
		r, err := f.svc.RunRestocks(f.ctx)
		if err != nil || r.Alerts != 1 {
			t.Fatalf("restock: %+v %v", r, err)
		}
		q := f.outbox(alerts.MailBackInStock)
		if len(q) != 1 {
			t.Fatalf("queued: %d", len(q))
		}
		m, err := f.render(q[0].Kind, q[0].Ref)
		if err != nil || m.To[0] != "navy@example.com" || !strings.Contains(m.Text, "/product/classic-tee/") {
			t.Fatalf("mail: %+v %v", m, err)
		}
		counts, err := f.svc.Counts(f.ctx, tee.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range counts {
			switch c.ProductID {
			case out:
				if c.Sent != 1 {
					t.Errorf("restocked variation: %+v", c)
				}
			case other:
				if c.Waiting != 1 || c.Sent != 0 {
					t.Errorf("other variation: %+v", c)
				}
			}
		}
	})
}

func TestUnsubscribe(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, false)
		p := f.soldOut("Chair")
		q := f.soldOut("Table")
		f.waiting(p.ID, "ann@example.com")
		f.waiting(q.ID, "ann@example.com")
		f.waiting(p.ID, "bo@example.com")
		f.restockAdmin(p.ID, 1)
		if _, err := f.svc.RunRestocks(f.ctx); err != nil {
			t.Fatal(err)
		}
		var annMail, boMail mail.Message
		for _, r := range f.outbox(alerts.MailBackInStock) {
			m, err := f.render(r.Kind, r.Ref)
			if err != nil {
				t.Fatal(err)
			}
			if m.To[0] == "ann@example.com" {
				annMail = m
			} else {
				boMail = m
			}
		}
		tok := linkToken(t, annMail.ListUnsubscribe[0])
		if !f.svc.CheckUnsubscribe(tok) {
			t.Fatal("token does not check")
		}
		for _, bad := range []string{"", "garbage", "a1.AAAA", tok + "x", strings.Replace(tok, "a", "c", 1)} {
			if err := f.svc.Unsubscribe(f.ctx, bad); !errors.Is(err, alerts.ErrLinkInvalid) {
				t.Errorf("bad token %q: %v", bad, err)
			}
		}
		// Unsubscribing turns off the address's other waiting alert; twice is fine.
		for range 2 {
			if err := f.svc.Unsubscribe(f.ctx, tok); err != nil {
				t.Fatal(err)
			}
		}
		counts, _ := f.svc.Counts(f.ctx, q.ID)
		if counts[0].Waiting != 0 || counts[0].Unsubscribed != 1 {
			t.Fatalf("table's alerts: %+v", counts)
		}
		// Bo unsubscribes before the outbox sends: the mail never goes.
		if err := f.svc.Unsubscribe(f.ctx, linkToken(t, boMail.ListUnsubscribe[0])); err != nil {
			t.Fatal(err)
		}
		sink := mailtest.Start(t, mailtest.Options{})
		if _, err := f.outboxWorker(sink).RunOnce(f.ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range sink.Messages() {
			if strings.Contains(string(m.Data), "back in stock") {
				t.Errorf("an unsubscribed alert was mailed to %v", m.To)
			}
		}
	})
}

// TestExactlyOnceAcrossInstances races two stores on one database (two
// server instances): each runs the restock worker and its own outbox
// worker to one real SMTP server on loopback; every subscriber gets one
// mail.
func TestExactlyOnceAcrossInstances(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		db1 := storetest.OpenDSN(t, dsn)
		db2 := storetest.OpenDSN(t, dsn)
		f := newFixture(t, db1, false)
		f2 := newFixture(t, db2, false)
		f2.clock = f.clock
		db2.SetClock(f.clock.Now)
		f2.svc.Now = f.clock.Now
		p := f.soldOut("Desk")
		const n = 120
		for i := range n {
			u := f.customer(fmt.Sprintf("c%03d@example.com", i))
			if _, err := f.svc.Subscribe(f.ctx, alerts.SubscribeInput{ItemID: p.ID, User: u}); err != nil {
				t.Fatal(err)
			}
		}
		// Two restocks of the same item queued (out and in twice), so both
		// instances have one to claim.
		f.restockAdmin(p.ID, 2)
		f.setStockImport(p.ID, 0)
		f.setStockImport(p.ID, 2)
		sink := mailtest.Start(t, mailtest.Options{})
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for _, g := range []*fixture{f, f2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := g.svc.RunRestocks(g.ctx); err != nil {
					errs <- err
					return
				}
				if _, err := g.outboxWorker(sink).RunOnce(g.ctx); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		// Whatever one worker left (claimed late), the other finishes.
		for _, g := range []*fixture{f, f2} {
			if _, err := g.svc.RunRestocks(g.ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := g.outboxWorker(sink).RunOnce(g.ctx); err != nil {
				t.Fatal(err)
			}
		}
		got := backInStock(sink.Messages())
		seen := map[string]int{}
		for _, m := range got {
			seen[m.To[0]]++
		}
		if len(got) != n || len(seen) != n {
			t.Fatalf("delivered %d mails to %d addresses, want %d each", len(got), len(seen), n)
		}
	})
}

func TestIsDropAndThreshold(t *testing.T) {
	cases := []struct {
		ref, price int64
		bp         int
		want       bool
	}{
		{10000, 9001, 1000, false}, // 9.99 %
		{10000, 9000, 1000, true},  // 10 %
		{10000, 8999, 1000, true},
		{10000, 10000, 1000, false},
		{10000, 12000, 1000, false},
		{0, 0, 1000, false},
		{2000, 1800, 0, true}, // default 10 %
		{2000, 1801, 0, false},
		{9999, 8999, 1000, true}, // 10.0010 %
	}
	for _, c := range cases {
		if got := alerts.IsDrop(c.ref, c.price, c.bp); got != c.want {
			t.Errorf("IsDrop(%d, %d, %d) = %v", c.ref, c.price, c.bp, got)
		}
	}
	for in, want := range map[string]int{"10": 1000, "12.5": 1250, "9.99 %": 999, "0.01": 1} {
		if got, err := alerts.ParsePercent(in); err != nil || got != want {
			t.Errorf("ParsePercent(%q) = %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "0", "100", "-5", "abc", "1.234", "1e3"} {
		if _, err := alerts.ParsePercent(bad); err == nil {
			t.Errorf("ParsePercent(%q) accepted", bad)
		}
	}
}
