package contact_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/botcheck"
	"vitrine/internal/contact"
	"vitrine/internal/contactform"
	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

type harness struct {
	t   *testing.T
	db  *sqlstore.DB
	now time.Time
	bot *botcheck.Service
	svc *contact.Service
}

func newHarness(t *testing.T, db *sqlstore.DB) *harness {
	h := &harness{t: t, db: db, now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return h.now }
	h.bot = &botcheck.Service{Store: db, Secret: secret, Purpose: "contact", Now: clock}
	h.svc = &contact.Service{Store: db, Bots: h.bot, IsRefusal: botcheck.IsRefusal, Secret: secret, Now: clock}
	return h
}

// token solves a fresh contact challenge, as the widget does.
func (h *harness) token(purpose string) string {
	h.t.Helper()
	b := *h.bot
	b.Purpose = purpose
	c, err := b.Challenge(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	p, err := botcheck.Solve(c)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) counts() contact.Counts {
	h.t.Helper()
	c, err := h.db.CountContact(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (h *harness) mails() int {
	h.t.Helper()
	q, err := h.db.MailOutbox(context.Background(), "", 1000)
	if err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, m := range q {
		if m.Kind == contact.KindMessage {
			n++
		}
	}
	return n
}

var pdf = []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")

func good(h *harness) contact.Submission {
	return contact.Submission{FormID: 1, UnitTag: "wpcf7-f1-o1", ClientIP: "192.0.2.7", UserAgent: "test",
		Values: map[string][]string{"your-name": {"Ada"}, "your-email": {"ada@example.com"}, "your-subject": {"Hello"},
			"your-message": {"A question\r\nabout sizes."}, "your-consent": {"1"}, "_wpcf7": {"1"}, "extra": {"dropped"}},
		BotToken: h.token("contact")}
}

// Every check in CF7's order; a refused submission changes nothing.
func TestSubmitOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		refused := func(name string, sub contact.Submission, status, msg string) contact.Result {
			t.Helper()
			before, mails := h.counts(), h.mails()
			r, err := h.svc.Submit(ctx, sub)
			if err != nil || r.Status != status || (msg != "" && r.Message != msg) {
				t.Fatalf("%s: %+v %v", name, r, err)
			}
			if after := h.counts(); after != before || h.mails() != mails {
				t.Fatalf("%s changed the store: %+v -> %+v", name, before, after)
			}
			return r
		}
		texts := contactform.DefaultMessages()

		// The request itself: unknown form, bad unit tags.
		if _, err := h.svc.Submit(ctx, contact.Submission{FormID: 2, UnitTag: "wpcf7-f2-o1"}); !errors.Is(err, contact.ErrNotFound) {
			t.Fatalf("unknown form: %v", err)
		}
		for _, tag := range []string{"", "wpcf7-f2-o1", "wpcf7-f1", "wpcf7-f1-o1 ", "wpcf7-f1-px-o1", "xwpcf7-f1-o1", "wpcf7-f01-o1"} {
			sub := good(h)
			sub.UnitTag = tag
			if _, err := h.svc.Submit(ctx, sub); !errors.Is(err, contact.ErrUnitTag) {
				t.Fatalf("unit tag %q: %v", tag, err)
			}
		}

		// 1. The schema: errors with CF7's error ids, no hash.
		sub := good(h)
		sub.UnitTag = "wpcf7-f1-p5-o2"
		sub.Values["your-email"] = []string{"not an email"}
		delete(sub.Values, "your-name")
		r := refused("validation", sub, contact.StatusValidationFailed, texts.ValidationError)
		if r.PostedDataHash != "" || len(r.Invalid) != 2 ||
			r.Invalid[0] != (contact.Invalid{Field: "your-name", Message: texts.InvalidRequired, ErrorID: "wpcf7-f1-p5-o2-ve-your-name"}) ||
			r.Invalid[1] != (contact.Invalid{Field: "your-email", Message: texts.InvalidEmail, ErrorID: "wpcf7-f1-p5-o2-ve-your-email"}) {
			t.Fatalf("validation: %+v", r)
		}
		// Files by content: a .pdf holding a Windows program is the
		// file-type error, as is HTML; too large is the size error; two
		// files in the one-file field are too many.
		for name, c := range map[string]struct {
			files []contact.Upload
			msg   string
		}{
			"exe":      {[]contact.Upload{{Name: "invoice.pdf", ContentType: "application/pdf", Content: append([]byte("MZ\x90\x00"), make([]byte, 60)...)}}, texts.FileTypeInvalid},
			"html":     {[]contact.Upload{{Name: "a.pdf", Content: []byte("<html><script>alert(1)</script>")}}, texts.FileTypeInvalid},
			"ext":      {[]contact.Upload{{Name: "a.exe", Content: pdf}}, texts.FileTypeInvalid},
			"large":    {[]contact.Upload{{Name: "a.pdf", Content: pdf, Size: 2*contactform.MiB + 1}}, texts.FileTooLarge},
			"too many": {[]contact.Upload{{Name: "a.pdf", Content: pdf}, {Name: "b.pdf", Content: pdf}}, texts.TooManyItems},
		} {
			sub := good(h)
			sub.Files = map[string][]contact.Upload{"your-file": c.files}
			r := refused(name, sub, contact.StatusValidationFailed, "")
			if len(r.Invalid) != 1 || r.Invalid[0].Field != "your-file" || r.Invalid[0].Message != c.msg {
				t.Fatalf("%s: %+v", name, r.Invalid)
			}
		}
		// 2. Acceptance.
		sub = good(h)
		sub.Values["your-consent"] = []string{" "}
		if r := refused("acceptance", sub, contact.StatusAcceptanceMissing, texts.AcceptTerms); r.PostedDataHash != "" {
			t.Fatalf("acceptance hash: %+v", r)
		}
		// 3. The bot-check: missing, malformed, another purpose's, expired, replayed.
		for name, tok := range map[string]string{"missing": "", "malformed": "eyJ4Ijo", "login's": h.token("login")} {
			sub := good(h)
			sub.BotToken = tok
			if r := refused("spam "+name, sub, contact.StatusSpam, texts.Spam); r.PostedDataHash != "" {
				t.Fatalf("spam hash: %+v", r)
			}
		}
		sub = good(h)
		h.now = h.now.Add(botcheck.DefaultTTL + time.Second)
		refused("spam expired", sub, contact.StatusSpam, texts.Spam)

		// Sent: stored with the mail, values of the form only, CRLF made LF.
		sub = good(h)
		sub.UserID = 0
		sub.Files = map[string][]contact.Upload{"your-file": {{Name: "../../etc/Invoice <1>.pdf", ContentType: "text/html", Content: pdf}}}
		r, err := h.svc.Submit(ctx, sub)
		if err != nil || r.Status != contact.StatusMailSent || r.Message != texts.MailSentOK || len(r.PostedDataHash) != 32 || r.ID <= 0 {
			t.Fatalf("sent: %+v %v", r, err)
		}
		if c := h.counts(); c.Submissions != 1 || c.Files != 1 || c.KeptFiles != 1 || c.KeptBytes != int64(len(pdf)) || h.mails() != 1 {
			t.Fatalf("after sending: %+v, %d mails", c, h.mails())
		}
		st, err := db.ContactSubmission(ctx, r.ID)
		if err != nil || st.Values["your-message"][0] != "A question\nabout sizes." || st.Values["extra"] != nil || st.Values["_wpcf7"] != nil ||
			st.Files[0].Name != "Invoice _1_.pdf" || st.Files[0].MIME != "application/pdf" || !bytes.Equal(st.Files[0].Content, pdf) ||
			st.ClientIP != "192.0.2.7" || st.UserAgent != "test" || st.UserID != 0 || !st.CreatedAt.Equal(h.now) {
			t.Fatalf("stored: %+v %v", st, err)
		}
		// The same payload again is replayed: spam.
		refused("spam replayed", sub, contact.StatusSpam, texts.Spam)

		// 4. The rate limit: DefaultRateLimit sent per address, then aborted.
		for i := 1; i < contact.DefaultRateLimit; i++ {
			if r, err := h.svc.Submit(ctx, good(h)); err != nil || r.Status != contact.StatusMailSent {
				t.Fatalf("send %d: %+v %v", i, r, err)
			}
		}
		r = refused("limited", good(h), contact.StatusAborted, "")
		if !strings.Contains(r.Message, "Please try again in 60 minutes") || r.PostedDataHash == "" {
			t.Fatalf("limited: %+v", r)
		}
		other := good(h)
		other.ClientIP = "198.51.100.1"
		if r, err := h.svc.Submit(ctx, other); err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("other address: %+v %v", r, err)
		}
		h.now = h.now.Add(contact.DefaultRateWindow + time.Second)
		if r, err := h.svc.Submit(ctx, good(h)); err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("after the window: %+v %v", r, err)
		}

		// The store is down: mail_failed, the form's text, no error.
		sub = good(h)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if r, err := h.svc.Submit(ctx, sub); err != nil || r.Status != contact.StatusMailFailed || r.Message != texts.MailSentNG {
			t.Fatalf("store down: %+v %v", r, err)
		}
	})
}

// posted_data_hash: the same data in the same window from the same client
// and unit tag gives the same hash; any of them changing changes it.
func TestPostedDataHash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		h.svc.RateLimit = 100
		h.now = time.Date(2026, 11, 23, 12, 1, 0, 0, time.UTC)
		hash := func(mod func(*contact.Submission)) string {
			sub := good(h)
			mod(&sub)
			r, err := h.svc.Submit(ctx, sub)
			if err != nil || r.Status != contact.StatusMailSent {
				t.Fatalf("%+v %v", r, err)
			}
			return r.PostedDataHash
		}
		base := hash(func(*contact.Submission) {})
		if again := hash(func(*contact.Submission) {}); again != base {
			t.Fatal("same data, other hash")
		}
		for name, mod := range map[string]func(*contact.Submission){
			"ip":    func(s *contact.Submission) { s.ClientIP = "192.0.2.8" },
			"tag":   func(s *contact.Submission) { s.UnitTag = "wpcf7-f1-o2" },
			"value": func(s *contact.Submission) { s.Values["your-subject"] = []string{"Hello!"} },
		} {
			if hash(mod) == base {
				t.Errorf("%s: same hash", name)
			}
		}
		h.now = h.now.Add(30 * time.Minute)
		if hash(func(*contact.Submission) {}) == base {
			t.Error("next window: same hash")
		}
		other := *h.svc
		other.Secret = []byte("another secret, another key......")
		h.svc = &other
		h.now = h.now.Add(-30 * time.Minute)
		if hash(func(*contact.Submission) {}) == base {
			t.Error("other secret: same hash")
		}
	})
}

// Retention empties the files of old submissions only; the submissions,
// and the files' names and sizes, stay; the mail then lists the file as
// removed.
func TestRetention(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		send := func() int64 {
			sub := good(h)
			sub.Files = map[string][]contact.Upload{"your-file": {{Name: "a.pdf", Content: pdf}}}
			r, err := h.svc.Submit(ctx, sub)
			if err != nil || r.Status != contact.StatusMailSent {
				t.Fatalf("%+v %v", r, err)
			}
			return r.ID
		}
		old := send()
		h.now = h.now.Add(20 * 24 * time.Hour)
		recent := send()
		h.now = h.now.Add(10*24*time.Hour + time.Second) // old is 30 days and a second old, recent 10 days
		if n, err := h.svc.PurgeFiles(ctx); err != nil || n != 1 {
			t.Fatalf("purge: %d %v", n, err)
		}
		if n, err := h.svc.PurgeFiles(ctx); err != nil || n != 0 {
			t.Fatalf("second purge: %d %v", n, err)
		}
		if c := h.counts(); c.Submissions != 2 || c.Files != 2 || c.KeptFiles != 1 {
			t.Fatalf("after purge: %+v", c)
		}
		o, err := db.ContactSubmission(ctx, old)
		if err != nil || !o.Files[0].Purged || o.Files[0].Content != nil || o.Files[0].Size != int64(len(pdf)) || o.Files[0].Name != "a.pdf" {
			t.Fatalf("old: %+v %v", o, err)
		}
		r, err := db.ContactSubmission(ctx, recent)
		if err != nil || r.Files[0].Purged || !bytes.Equal(r.Files[0].Content, pdf) {
			t.Fatalf("recent: %+v %v", r, err)
		}
		render := h.svc.Renderer([]string{"shop@example.com"}, "Vitrine")
		m, err := render(ctx, contact.KindMessage, itoa(old))
		if err != nil || len(m.Attachments) != 0 || !strings.Contains(m.Text, "a.pdf (application/pdf, 51 bytes): removed") {
			t.Fatalf("old mail: %+v %v", m, err)
		}
		m, err = render(ctx, contact.KindMessage, itoa(recent))
		if err != nil || len(m.Attachments) != 1 || !bytes.Equal(m.Attachments[0].Data, pdf) || m.Attachments[0].ContentType != "application/pdf" {
			t.Fatalf("recent mail: %+v %v", m, err)
		}
		// A shorter retention takes the recent one too.
		h.svc.FileRetention = 24 * time.Hour
		if n, err := h.svc.PurgeFiles(ctx); err != nil || n != 1 {
			t.Fatalf("short retention: %d %v", n, err)
		}
	})
}

// The shop's mail: subject, Reply-To only for a valid address (no line
// break can reach a header), fields by label, attachments.
func TestRenderer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		sub := good(h)
		sub.Files = map[string][]contact.Upload{"your-file": {{Name: "a.pdf", Content: pdf}}}
		r, err := h.svc.Submit(ctx, sub)
		if err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("%+v %v", r, err)
		}
		render := h.svc.Renderer([]string{"shop@example.com"}, "Vitrine")
		m, err := render(ctx, contact.KindMessage, itoa(r.ID))
		if err != nil || m.To[0] != "shop@example.com" || m.ReplyTo != "ada@example.com" || m.Subject != "[Vitrine] Hello" ||
			!strings.Contains(m.Text, "Your name: Ada\n") || !strings.Contains(m.Text, "Your message:\nA question\nabout sizes.\n") ||
			!strings.Contains(m.Text, "I agree to the shop's privacy policy and terms.: yes") || len(m.Attachments) != 1 {
			t.Fatalf("mail: %+v %v", m, err)
		}
		for _, c := range []struct{ kind, ref string }{{contact.KindMessage, "999"}, {contact.KindMessage, "x"}, {"other", itoa(r.ID)}} {
			if _, err := render(ctx, c.kind, c.ref); !errors.Is(err, mail.ErrPermanent) {
				t.Fatalf("%v: %v", c, err)
			}
		}
		if _, err := h.svc.Renderer(nil, "")(ctx, contact.KindMessage, itoa(r.ID)); !errors.Is(err, mail.ErrPermanent) {
			t.Fatalf("no shop address: %v", err)
		}
		// Header injection through stored values: no Reply-To, the subject
		// folded onto one line.
		st := &contact.Stored{ID: 9, FormID: 1, Values: map[string][]string{
			"your-email":   {"ada@example.com\r\nBcc: victim@example.org"},
			"your-subject": {"Hi\r\nBcc: victim@example.org"},
		}}
		m = contact.Compose(contactform.DefaultForm(), st, []string{"shop@example.com"}, "")
		if m.ReplyTo != "" || strings.ContainsAny(m.Subject, "\r\n") || m.Subject != "Hi Bcc: victim@example.org" {
			t.Fatalf("injection: %q %q", m.ReplyTo, m.Subject)
		}
		// Without a subject: the form's title and the sender's name.
		st.Values = map[string][]string{"your-name": {"Bo\nB"}}
		if m := contact.Compose(contactform.DefaultForm(), st, []string{"s@example.com"}, "Shop"); m.Subject != "[Shop] Contact form from Bo B" {
			t.Fatalf("subject: %q", m.Subject)
		}
	})
}

func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"report.pdf":                      "report.pdf",
		"../../etc/passwd":                "passwd",
		`C:\Users\a\b.png`:                "b.png",
		"a\r\nContent-Type: x.pdf":        "aContent-Type_ x.pdf",
		".htaccess":                       "htaccess",
		"   ":                             "file",
		"\"quoted\";.pdf":                 "_quoted__.pdf",
		strings.Repeat("é", 120) + ".pdf": strings.Repeat("é", 96) + ".pdf",
		"bad\xffutf8.pdf":                 "badutf8.pdf",
	} {
		if got := contact.SafeFileName(in); got != want {
			t.Errorf("SafeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckForms(t *testing.T) {
	s := &contact.Service{}
	if err := s.Check(); err != nil {
		t.Fatalf("default: %v", err)
	}
	f := contactform.DefaultForm()
	s.Forms = []contactform.Form{f, f}
	if err := s.Check(); !errors.Is(err, contactform.ErrInvalidForm) {
		t.Fatalf("same id twice: %v", err)
	}
	bad := contactform.DefaultForm()
	bad.ID = 2
	bad.Fields = append(bad.Fields, contactform.Field{Name: "x", Kind: "bogus"})
	s.Forms = []contactform.Form{f, bad}
	if err := s.Check(); !errors.Is(err, contactform.ErrInvalidForm) {
		t.Fatalf("bad field: %v", err)
	}
	if !contact.ValidUnitTag("wpcf7-f12-p3-o4", 12) || contact.ValidUnitTag("wpcf7-f12-p3-o4", 1) {
		t.Fatal("ValidUnitTag")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
