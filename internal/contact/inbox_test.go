package contact_test

// The contact inbox (inbox.go) on every engine: listing by status with
// search and paging, counts, opening marks read, statuses, replies (their
// outbox row and mail, refusals changing nothing), delete only from the
// trash, and files (content, purged).

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/contact"
	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// stored inserts a submission as the form would have, created at h.now.
func (h *harness) stored(name, email, text string, files ...contact.StoredFile) int64 {
	h.t.Helper()
	st := &contact.Stored{FormID: 1, UnitTag: "wpcf7-f1-o1", ClientIP: "192.0.2.7", UserAgent: "test", Status: contact.InboxNew, CreatedAt: h.now,
		Values: map[string][]string{"your-name": {name}, "your-email": {email}, "your-subject": {"About " + name}, "your-message": {text}, "your-consent": {"1"}},
		Files:  files}
	id, err := h.db.InsertContactSubmission(context.Background(), st, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	h.now = h.now.Add(time.Minute)
	return id
}

func (h *harness) replyMails() []mail.Queued {
	h.t.Helper()
	q, err := h.db.MailOutbox(context.Background(), "", 1000)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []mail.Queued
	for _, m := range q {
		if m.Kind == contact.KindReply {
			out = append(out, m)
		}
	}
	return out
}

func TestInbox(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		a := h.stored("Ada", "ada@example.com", "Do you ship to Norway?", contact.StoredFile{Field: "your-file", Name: "order.pdf", MIME: "application/pdf", Size: int64(len(pdf)), Content: pdf})
		b := h.stored("Bo", "not an address", "100% wool?")
		c := h.stored("Cy", "cy@example.com", "Where is my parcel?")

		ids := func(q contact.InboxQuery) []int64 {
			t.Helper()
			ms, total, err := h.svc.Inbox(ctx, q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			var out []int64
			for _, m := range ms {
				out = append(out, m.ID)
			}
			if total < len(out) {
				t.Errorf("%+v: total %d below %d", q, total, len(out))
			}
			return out
		}
		if got := ids(contact.InboxQuery{}); len(got) != 3 || got[0] != c || got[2] != a {
			t.Fatalf("all, newest first: %v", got)
		}
		for q, want := range map[string]int{"NORWAY": 1, "100%": 1, "0%w": 0, "cy@example": 1, "_": 0} {
			if got := ids(contact.InboxQuery{Search: q}); len(got) != want {
				t.Errorf("search %q: %v, want %d", q, got, want)
			}
		}
		if got := ids(contact.InboxQuery{PerPage: 2, Page: 2}); len(got) != 1 || got[0] != a {
			t.Errorf("page 2: %v", got)
		}
		if _, _, err := h.svc.Inbox(ctx, contact.InboxQuery{Status: "archived"}); !errors.Is(err, contact.ErrBadStatus) {
			t.Errorf("bad status: %v", err)
		}
		ms, _, _ := h.svc.Inbox(ctx, contact.InboxQuery{Search: "norway"})
		if m := ms[0]; m.Name != "Ada" || m.Email != "ada@example.com" || m.Subject != "About Ada" || m.FormTitle != "Contact form" ||
			len(m.Files) != 1 || m.Files[0].Name != "order.pdf" || m.Files[0].Content != nil || len(m.Fields) != 4 || m.Fields[3].Label != "Your message" {
			t.Errorf("listed message: %+v", m)
		}

		// Opening marks read, once.
		m, err := h.svc.Open(ctx, a)
		if err != nil || m.Status != contact.InboxRead || m.Files[0].Content != nil {
			t.Fatalf("open: %+v %v", m, err)
		}
		if counts, _ := h.svc.InboxCounts(ctx); counts[contact.InboxNew] != 2 || counts[contact.InboxRead] != 1 || counts[contact.InboxTrash] != 0 {
			t.Errorf("counts: %v", counts)
		}
		if _, err := h.svc.Open(ctx, 99999); !errors.Is(err, contact.ErrNotFound) {
			t.Errorf("open unknown: %v", err)
		}

		// Replies: refusals change nothing.
		for _, c := range []struct {
			id    int64
			in    contact.ReplyInput
			field string
			err   error
		}{
			{a, contact.ReplyInput{Text: "  "}, "message", nil},
			{a, contact.ReplyInput{Text: strings.Repeat("x", contact.MaxReplyText+1)}, "message", nil},
			{a, contact.ReplyInput{Text: "ok", Subject: strings.Repeat("s", contact.MaxReplySubject+1)}, "subject", nil},
			{b, contact.ReplyInput{Text: "Yes, pure wool."}, "", contact.ErrNoAddress},
			{99999, contact.ReplyInput{Text: "Hello"}, "", contact.ErrNotFound},
		} {
			_, err := h.svc.Reply(ctx, c.id, c.in)
			var ie *contact.InputError
			if c.err != nil && !errors.Is(err, c.err) || c.err == nil && (!errors.As(err, &ie) || ie.Field != c.field) {
				t.Errorf("reply %d %.20q: %v", c.id, c.in.Text, err)
			}
		}
		if n := len(h.replyMails()); n != 0 {
			t.Fatalf("refused replies queued %d mails", n)
		}

		kicked := 0
		h.svc.Queued = func() { kicked++ }
		r, err := h.svc.Reply(ctx, a, contact.ReplyInput{StaffID: 0, StaffName: "Mia\nManager", Text: "Yes, we do.\r\nShipping takes 5 days."})
		if err != nil {
			t.Fatal(err)
		}
		if r.To != "ada@example.com" || r.Subject != "Re: About Ada" || r.Author != "Mia Manager" || r.Text != "Yes, we do.\nShipping takes 5 days." || kicked != 1 {
			t.Errorf("reply: %+v (kicked %d)", r, kicked)
		}
		queued := h.replyMails()
		if len(queued) != 1 || queued[0].Ref != strconv.FormatInt(r.ID, 10) {
			t.Fatalf("reply mails: %+v", queued)
		}
		m, _ = h.svc.Open(ctx, a)
		if m.Status != contact.InboxReplied || len(m.Replies) != 1 || m.Replies[0].Mail != contact.MailQueued || m.Replies[0].Text != r.Text {
			t.Errorf("after the reply: %+v", m)
		}
		// The mail: to the visitor, Reply-To the shop, the visitor's message quoted.
		msg, err := h.svc.ReplyRenderer([]string{"shop@example.com"}, "Vitrine")(ctx, contact.KindReply, queued[0].Ref)
		if err != nil {
			t.Fatal(err)
		}
		if len(msg.To) != 1 || msg.To[0] != "ada@example.com" || msg.ReplyTo != "shop@example.com" || msg.Subject != "Re: About Ada" ||
			!strings.HasPrefix(msg.Text, "Yes, we do.\nShipping takes 5 days.\n\n-- \nVitrine\n") || !strings.Contains(msg.Text, "> Do you ship to Norway?") ||
			strings.Contains(msg.Text, "> Ada") {
			t.Errorf("reply mail: %+v", msg)
		}
		if err := db.MarkMailSent(ctx, queued[0].ID, h.now); err != nil {
			t.Fatal(err)
		}
		if m, _ := h.svc.Open(ctx, a); m.Replies[0].Mail != contact.MailSent {
			t.Errorf("mail state after sending: %q", m.Replies[0].Mail)
		}

		// Statuses: read on an answered message is replied; trash; no reply in the trash.
		if _, err := h.svc.SetStatus(ctx, a, contact.InboxReplied); !errors.Is(err, contact.ErrBadStatus) {
			t.Errorf("set replied: %v", err)
		}
		if _, err := h.svc.SetStatus(ctx, 99999, contact.InboxRead); !errors.Is(err, contact.ErrNotFound) {
			t.Errorf("set unknown: %v", err)
		}
		if m, err := h.svc.SetStatus(ctx, a, contact.InboxNew); err != nil || m.Status != contact.InboxNew {
			t.Errorf("mark unread: %+v %v", m, err)
		}
		if m, err := h.svc.SetStatus(ctx, a, contact.InboxRead); err != nil || m.Status != contact.InboxReplied {
			t.Errorf("mark read with a reply: %+v %v", m, err)
		}
		if err := h.svc.Delete(ctx, c); !errors.Is(err, contact.ErrNotTrashed) {
			t.Errorf("delete outside the trash: %v", err)
		}
		if _, err := h.svc.SetStatus(ctx, c, contact.InboxTrash); err != nil {
			t.Fatal(err)
		}
		if _, err := h.svc.Reply(ctx, c, contact.ReplyInput{Text: "Hello"}); !errors.Is(err, contact.ErrTrashed) {
			t.Errorf("reply in the trash: %v", err)
		}
		if got := ids(contact.InboxQuery{}); len(got) != 2 {
			t.Errorf("all lists the trash: %v", got)
		}
		if got := ids(contact.InboxQuery{Status: contact.InboxTrash}); len(got) != 1 || got[0] != c {
			t.Errorf("trash: %v", got)
		}
		if err := h.svc.Delete(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := h.svc.Delete(ctx, c); !errors.Is(err, contact.ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}

		// Files: content by id within its message; purged ones say so.
		f, err := h.svc.File(ctx, a, m.Files[0].ID)
		if err != nil || string(f.Content) != string(pdf) || f.MIME != "application/pdf" {
			t.Fatalf("file: %+v %v", f, err)
		}
		if _, err := h.svc.File(ctx, b, m.Files[0].ID); !errors.Is(err, contact.ErrNotFound) {
			t.Errorf("another message's file: %v", err)
		}
		if _, err := db.PurgeContactFiles(ctx, h.now.Add(time.Hour), h.now); err != nil {
			t.Fatal(err)
		}
		if f, err := h.svc.File(ctx, a, m.Files[0].ID); !errors.Is(err, contact.ErrFilePurged) || f == nil || f.Name != "order.pdf" || f.Content != nil {
			t.Errorf("purged file: %+v %v", f, err)
		}

		// A message deleted for good takes its replies, and their unsent mail is given up.
		if _, err := h.svc.SetStatus(ctx, a, contact.InboxTrash); err != nil {
			t.Fatal(err)
		}
		if err := h.svc.Delete(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := h.svc.ReplyRenderer(nil, "")(ctx, contact.KindReply, queued[0].Ref); !errors.Is(err, mail.ErrPermanent) {
			t.Errorf("render a deleted reply: %v", err)
		}
	})
}
