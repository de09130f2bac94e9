package server_test

import (
	"bytes"
	"context"
	"net/mail"
	"testing"
	"time"

	"vitrine/internal/account"
	vmail "vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// The shop's mail in tests: outboxes that deliver through a real SMTP
// server (servertest.SMTPSender), and reading what was queued and sent.

// accountOutbox delivers the store's queued account mails through a real
// SMTP server.
func accountOutbox(t *testing.T, db *sqlstore.DB, srv *server.Server, now func() time.Time) (*vmail.Outbox, *mailtest.Sink) {
	t.Helper()
	sender, sink := servertest.SMTPSender(t)
	kinds := vmail.Renderers{}
	for _, k := range account.MailKinds {
		kinds[k] = vmail.AccountRenderer(srv.AccountMailView)
	}
	return vmail.NewOutbox(db, sender, kinds.Render, nil, vmail.Options{Now: now}), sink
}

// orderOutbox sends srv's order mails (the shop's copy to
// orders@shop.example) from db's outbox through sender.
func orderOutbox(db *sqlstore.DB, srv *server.Server, sender vmail.Sender) *vmail.Outbox {
	return vmail.NewOutbox(db, sender, vmail.OrderRenderer(srv.OrderMailView, []string{"orders@shop.example"}), nil, vmail.Options{})
}

// queuedMails is the mails of kind in db's outbox (the first hundred, in
// any state).
func queuedMails(t *testing.T, db *sqlstore.DB, kind string) []vmail.Queued {
	t.Helper()
	q, err := db.MailOutbox(context.Background(), "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []vmail.Queued
	for _, m := range q {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// onlyMail is the one mail sink received, which must be to the one
// address to, parsed.
func onlyMail(t *testing.T, sink *mailtest.Sink, to string) *mail.Message {
	t.Helper()
	got := sink.Messages()
	if len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != to {
		t.Fatalf("delivered: %+v", got)
	}
	m, err := mail.ReadMessage(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
