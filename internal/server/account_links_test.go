package server_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	vmail "vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func loginCookieName(base string) string { return "wordpress_logged_in_" + md5hex(base) }
func md5hex(s string) string             { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }

// linkShop is a login shop (not started) with a real SMTP server behind
// its outbox: a clock the test moves, and the account service on the same
// store and clock.
type linkShop struct {
	*loginShop
	sink   *mailtest.Sink
	outbox *vmail.Outbox
}

const linkBase = "https://shop.example"

func newLinkShop(t *testing.T, db *sqlstore.DB) *linkShop {
	t.Helper()
	clk := storetest.FrozenClock(time.Now().Truncate(time.Second))
	srv := newServer(t, db, "", 1, server.Config{BaseURL: linkBase, ChangePoll: time.Hour, Now: clk.Now,
		Secret: []byte("the shop secret, shared by instances")})
	ob, sink := accountOutbox(t, db, srv, clk.Now)
	ls := &loginShop{t: t, db: db, srv: srv, clock: clk, accounts: &account.Service{Store: db, Now: clk.Now}}
	return &linkShop{loginShop: ls, sink: sink, outbox: ob}
}

// send runs the outbox once and answers what it did.
func (s *linkShop) send() vmail.Result {
	s.t.Helper()
	r, err := s.outbox.RunOnce(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	return r
}

// mail is one delivered message's recipient, subject and text part.
type sentMail struct{ to, subject, text, html string }

func (s *linkShop) mails() []sentMail {
	s.t.Helper()
	var out []sentMail
	for _, d := range s.sink.Messages() {
		m, text, html := textAndHTML(s.t, d.Data)
		out = append(out, sentMail{to: strings.Join(d.To, ","), subject: m.Header.Get("Subject"), text: text, html: html})
	}
	return out
}

func (s *linkShop) register(email, username string) *account.User {
	s.t.Helper()
	u, err := s.accounts.Register(context.Background(), account.Registration{Email: email, Username: username, Password: "the old password 1"})
	if err != nil {
		s.t.Fatal(err)
	}
	return u
}

// browser is a browser at the client address addr.
func (s *linkShop) browser(addr string) *browser {
	return &browser{s: s.loginShop, addr: addr + ":4242", cookies: servertest.Jar{}}
}

type lostData struct {
	Page  string `json:"page"`
	Stage string `json:"stage"`
	Nonce string `json:"nonce"`
	Login string `json:"login"`
	Error string `json:"error"`
	Field string `json:"field"`
}

func (b *browser) lostPage(path string) (answer, lostData) {
	b.s.t.Helper()
	p := b.do("GET", path, nil)
	var d lostData
	pageData(b.s.t, p.raw, &d)
	return p, d
}

// requestReset posts the lost-password form for login.
func (b *browser) requestReset(login string) answer {
	b.s.t.Helper()
	_, d := b.lostPage("/my-account/lost-password/")
	return b.do("POST", "/my-account/lost-password/", url.Values{"user_login": {login}, "woocommerce-lost-password-nonce": {d.Nonce}})
}

var resetLink = regexp.MustCompile(`https://shop\.example/my-account/lost-password/\?key=[A-Za-z0-9_%-]+&id=\d+`)
var verifyLink = regexp.MustCompile(`https://shop\.example/my-account/verify-email/\?key=[A-Za-z0-9_%-]+`)

// The whole lost-password path: the form, the mail through SMTP, the link
// (moved into a cookie, off the address bar), the new password, the
// "password changed" notice, and the link refused afterwards.
func TestLostPasswordThroughMail(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		u := s.register("ada@example.com", "ada")
		b := s.browser("192.0.2.10")

		p, d := b.lostPage("/my-account/lost-password/")
		if p.status != 200 || d.Page != "account-lost-password" || d.Stage != "request" || d.Nonce == "" {
			t.Fatalf("form: %d %+v", p.status, d)
		}
		if p.header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(p.header.Get("Cache-Control"), "no-store") {
			t.Errorf("headers: %v", p.header)
		}
		if !strings.Contains(p.raw, "Username or email") {
			t.Error("the server-rendered form has no label")
		}
		p = b.requestReset("ada") // by username
		if p.status != 303 || p.header.Get("Location") != "/my-account/lost-password/?reset-link-sent=true" {
			t.Fatalf("request: %d %s", p.status, p.header.Get("Location"))
		}
		if _, d := b.lostPage(p.header.Get("Location")); d.Stage != "sent" {
			t.Errorf("sent page: %+v", d)
		}
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("outbox: %+v", r)
		}
		m := s.mails()[0]
		if m.to != "ada@example.com" || !strings.Contains(m.subject, "Password Reset") || !strings.Contains(m.text, "Username: ada") {
			t.Fatalf("mail: %+v", m)
		}
		link := resetLink.FindString(m.text)
		if link == "" || !strings.Contains(m.html, `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`) {
			t.Fatalf("no working link in both parts: %s", m.text)
		}
		if !strings.HasSuffix(link, fmt.Sprintf("&id=%d", u.ID)) {
			t.Errorf("link: %s", link)
		}
		// The store keeps the token only hashed and sealed.
		key, _ := url.ParseQuery(strings.SplitN(link, "?", 2)[1])
		ctx := context.Background()
		if _, err := s.db.Reset(ctx, key.Get("key")); !errors.Is(err, account.ErrNoRow) {
			t.Errorf("the token is a lookup key: %v", err)
		}
		if row, err := s.db.Reset(ctx, account.HashToken(key.Get("key"))); err != nil || row.Sealed == "" || strings.Contains(row.Sealed, key.Get("key")) {
			t.Errorf("the token is not sealed: %+v %v", row, err)
		}
		// Following the link: the key goes into a cookie and leaves the URL.
		p = b.do("GET", pathOf(t, link), nil)
		if p.status != 302 || p.header.Get("Location") != "/my-account/lost-password/?show-reset-form=true" {
			t.Fatalf("link: %d %s", p.status, p.header.Get("Location"))
		}
		if p.header.Get("Referrer-Policy") != "no-referrer" {
			t.Error("the link's answer may leak the key through Referer")
		}
		if !strings.Contains(strings.Join(p.header.Values("Set-Cookie"), "\n"), "HttpOnly") {
			t.Errorf("reset cookie: %v", p.header.Values("Set-Cookie"))
		}
		p, d = b.lostPage("/my-account/lost-password/?show-reset-form=true")
		if p.status != 200 || d.Stage != "reset" || d.Login != "ada" || strings.Contains(p.raw, key.Get("key")) {
			t.Fatalf("reset form: %d %+v", p.status, d)
		}
		post := func(p1, p2, nonce string) answer {
			return b.do("POST", "/my-account/lost-password/", url.Values{"password_1": {p1}, "password_2": {p2},
				"woocommerce-reset-password-nonce": {nonce}, "wc_reset_password": {"true"}})
		}
		// Bad input: a clear error, nothing changed, the link still usable.
		for _, c := range []struct {
			p1, p2, nonce string
			status        int
			field         string
		}{
			{"a brand new password", "a brand new passwort", d.Nonce, 400, "password_2"},
			{"", "", d.Nonce, 400, "password_1"},
			{"short", "short", d.Nonce, 400, "password_1"},
			{"ada@example.com", "ada@example.com", d.Nonce, 400, "password_1"},
			{"a brand new password", "a brand new password", "forged", 403, ""},
		} {
			r := post(c.p1, c.p2, c.nonce)
			var e lostData
			pageData(t, r.raw, &e)
			if r.status != c.status || e.Stage != "reset" || e.Error == "" || e.Field != c.field {
				t.Errorf("%q/%q: %d %+v", c.p1, c.p2, r.status, e)
			}
		}
		if _, err := s.accounts.Authenticate(context.Background(), "ada", "the old password 1", ""); err != nil {
			t.Fatalf("bad input changed the password: %v", err)
		}
		p = post("a brand new password", "a brand new password", d.Nonce)
		if p.status != 303 || p.header.Get("Location") != "/my-account/lost-password/?password-reset=true" {
			t.Fatalf("reset: %d %s", p.status, p.raw)
		}
		if b.cookie("wp-resetpass-"+md5hex(linkBase)) != nil {
			t.Error("the reset cookie outlived the reset")
		}
		if _, d := b.lostPage(p.header.Get("Location")); d.Stage != "done" {
			t.Errorf("done page: %+v", d)
		}
		if _, err := s.accounts.Authenticate(context.Background(), "ada", "a brand new password", ""); err != nil {
			t.Fatalf("new password: %v", err)
		}
		// The notice goes out; the used link is refused.
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("notice: %+v", r)
		}
		if n := s.mails()[1]; n.to != "ada@example.com" || !strings.Contains(n.subject, "Password Changed") {
			t.Errorf("notice: %+v", n)
		}
		b.do("GET", pathOf(t, link), nil)
		p, d = b.lostPage("/my-account/lost-password/?show-reset-form=true")
		if p.status != 400 || d.Stage != "invalid" {
			t.Errorf("used link: %d %+v", p.status, d)
		}
		if !strings.Contains(p.raw, "This key is invalid or has already been used.") {
			t.Error("the invalid page has no message")
		}
		// A forged id or key is refused the same way.
		b.do("GET", pathOf(t, link)+"0", nil)
		if p, _ := b.lostPage("/my-account/lost-password/?show-reset-form=true"); p.status != 400 {
			t.Errorf("forged id: %d", p.status)
		}
		if p := b.do("GET", "/my-account/lost-password/?key=x&id=abc", nil); p.status != 400 {
			t.Errorf("malformed link: %d", p.status)
		}
	})
}

// Known and unknown accounts get the same answer, and only a known one
// gets a mail.
func TestLostPasswordNoEnumeration(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		s.register("ada@example.com", "ada")
		var answers []string
		for i, login := range []string{"ada@example.com", "nobody@example.com", "ADA", "nobody"} {
			b := s.browser(fmt.Sprintf("192.0.2.%d", 20+i))
			p := b.requestReset(login)
			_, d := b.lostPage(p.header.Get("Location"))
			answers = append(answers, fmt.Sprintf("%d %s %s", p.status, p.header.Get("Location"), d.Stage))
		}
		for _, a := range answers[1:] {
			if a != answers[0] {
				t.Errorf("answers differ: %q", answers)
			}
		}
		if r := s.send(); r.Sent != 2 {
			t.Errorf("mails: %+v", r)
		}
		for _, m := range s.mails() {
			if m.to != "ada@example.com" {
				t.Errorf("mail to %s", m.to)
			}
		}
		// Bad input: an empty login is refused with a clear error and
		// no mail; a missing nonce is 403.
		b := s.browser("192.0.2.30")
		if p := b.requestReset(" "); p.status != 400 || !strings.Contains(p.raw, "Enter a username or email address.") {
			t.Errorf("empty: %d", p.status)
		}
		if p := b.do("POST", "/my-account/lost-password/", url.Values{"user_login": {"ada"}}); p.status != 403 {
			t.Errorf("no nonce: %d", p.status)
		}
		if r := s.send(); r.Sent != 0 {
			t.Errorf("bad input mailed: %+v", r)
		}
	})
}

// A link older than an hour is refused, and a mail whose link expired
// before it could be sent is given up rather than sent dead.
func TestLostPasswordExpiredLink(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		s.register("ada@example.com", "")
		b := s.browser("192.0.2.40")
		b.requestReset("ada@example.com")
		s.send()
		link := resetLink.FindString(s.mails()[0].text)
		b.requestReset("ada@example.com") // queued, not sent yet
		s.clock.Add(time.Hour + time.Second)
		if r := s.send(); r.Sent != 0 || r.GivenUp != 1 {
			t.Errorf("expired mail: %+v", r)
		}
		b.do("GET", pathOf(t, link), nil)
		p, d := b.lostPage("/my-account/lost-password/?show-reset-form=true")
		if p.status != 400 || d.Stage != "invalid" {
			t.Fatalf("expired link: %d %+v", p.status, d)
		}
		// Posting a new password with the expired link changes nothing.
		b.do("GET", pathOf(t, link), nil)
		r := b.do("POST", "/my-account/lost-password/", url.Values{"password_1": {"a brand new password"}, "password_2": {"a brand new password"},
			"woocommerce-reset-password-nonce": {d.Nonce}})
		if r.status != 400 {
			t.Errorf("post with an expired link: %d", r.status)
		}
		if _, err := s.accounts.Authenticate(context.Background(), "ada@example.com", "the old password 1", ""); err != nil {
			t.Errorf("expired link changed the password: %v", err)
		}
	})
}

// Requests are limited per address (then 429 with Retry-After) and per
// account (quietly: the answer stays the same, no more mails).
func TestLostPasswordRateLimits(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		s.register("ada@example.com", "")
		b := s.browser("192.0.2.50")
		for i := range account.ResetLimitPerAddress {
			if p := b.requestReset(fmt.Sprintf("someone%d@example.com", i)); p.status != 303 {
				t.Fatalf("request %d: %d", i, p.status)
			}
		}
		p := b.requestReset("ada@example.com")
		if p.status != 429 || p.header.Get("Retry-After") == "" || !strings.Contains(p.raw, "Too many password reset requests") {
			t.Fatalf("over the address limit: %d %v", p.status, p.header)
		}
		if r := s.send(); r.Sent != 0 {
			t.Errorf("a refused request mailed: %+v", r)
		}
		for i := range account.ResetLimitPerAccount + 2 {
			if p := s.browser(fmt.Sprintf("198.51.100.%d", i)).requestReset("ada@example.com"); p.status != 303 {
				t.Fatalf("account request %d: %d", i, p.status)
			}
		}
		if r := s.send(); r.Sent != account.ResetLimitPerAccount {
			t.Errorf("mails over the account limit: %+v", r)
		}
		// An hour later the address may ask again.
		s.clock.Add(time.Hour)
		if p := b.requestReset("ada@example.com"); p.status != 303 {
			t.Errorf("after the window: %d", p.status)
		}
	})
}

type verifyData struct {
	Page     string `json:"page"`
	Outcome  string `json:"outcome"`
	LoggedIn bool   `json:"logged_in"`
	Nonce    string `json:"nonce"`
	Error    string `json:"error"`
}

func (s *linkShop) logIn(b *browser, u *account.User) {
	s.t.Helper()
	tok, _, err := s.accounts.CreateSession(context.Background(), u.ID)
	if err != nil {
		s.t.Fatal(err)
	}
	b.cookies[loginCookieName(linkBase)] = &http.Cookie{Name: loginCookieName(linkBase), Value: tok}
}

// A logged-in customer asks for a verification link; the mail's link
// verifies the email once; a link sent before an email change is refused,
// and the old address is told of the change.
func TestVerifyEmailThroughMail(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		u := s.register("ada@example.com", "")
		b := s.browser("192.0.2.60")
		if p := b.do("GET", "/my-account/verify-email/", nil); p.status != 302 {
			t.Errorf("visitor: %d", p.status)
		}
		if p := b.do("POST", "/my-account/verify-email/", url.Values{}); p.status != 303 || p.header.Get("Location") != "/my-account/" {
			t.Errorf("visitor post: %d", p.status)
		}
		s.logIn(b, u)
		p := b.do("GET", "/my-account/verify-email/", nil)
		var d verifyData
		pageData(t, p.raw, &d)
		if p.status != 200 || d.Page != "account-verify-email" || d.Outcome != "pending" || d.Nonce == "" || !d.LoggedIn {
			t.Fatalf("pending: %d %+v", p.status, d)
		}
		if r := b.do("POST", "/my-account/verify-email/", url.Values{"_wpnonce": {"forged"}}); r.status != 403 {
			t.Errorf("forged nonce: %d", r.status)
		}
		if r := s.send(); r.Sent != 0 {
			t.Errorf("forged nonce mailed: %+v", r)
		}
		r := b.do("POST", "/my-account/verify-email/", url.Values{"_wpnonce": {d.Nonce}})
		if r.status != 303 || r.header.Get("Location") != "/my-account/verify-email/?sent=1" {
			t.Fatalf("resend: %d %s", r.status, r.raw)
		}
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("outbox: %+v", r)
		}
		m := s.mails()[0]
		link := verifyLink.FindString(m.text)
		if m.to != "ada@example.com" || link == "" || !strings.Contains(m.subject, "Confirm your email") {
			t.Fatalf("mail: %+v", m)
		}
		visitor := s.browser("192.0.2.61")
		p = visitor.do("GET", pathOf(t, link), nil)
		pageData(t, p.raw, &d)
		if p.status != 200 || d.Outcome != "verified" || p.header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("verify: %d %+v", p.status, d)
		}
		if got, _ := s.accounts.User(context.Background(), u.ID); got.EmailVerifiedAt.IsZero() {
			t.Error("not verified")
		}
		p = visitor.do("GET", pathOf(t, link), nil)
		pageData(t, p.raw, &d)
		if p.status != 400 || d.Outcome != "invalid" {
			t.Errorf("second use: %d %+v", p.status, d)
		}

		// A link for the old address, then the email changes.
		v := s.register("bob@example.com", "")
		if _, _, err := (&account.Service{Store: s.db, Now: s.clock.Now, Sealer: mustSealer(t, "the shop secret, shared by instances")}).
			RequestEmailVerification(context.Background(), v.ID); err != nil {
			t.Fatal(err)
		}
		s.send()
		old := verifyLink.FindString(s.mails()[1].text)
		if err := s.accounts.ChangeEmail(context.Background(), v.ID, "the old password 1", "robert@example.com"); err != nil {
			t.Fatal(err)
		}
		p = visitor.do("GET", pathOf(t, old), nil)
		pageData(t, p.raw, &d)
		if p.status != 400 || d.Outcome != "invalid" {
			t.Errorf("link for a changed email: %d %+v", p.status, d)
		}
		if got, _ := s.accounts.User(context.Background(), v.ID); !got.EmailVerifiedAt.IsZero() {
			t.Error("the new address was verified by the old link")
		}
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("email-changed notice: %+v", r)
		}
		n := s.mails()[2]
		if n.to != "bob@example.com" || !strings.Contains(n.text, "robert@example.com") || !strings.Contains(n.subject, "Email Changed") {
			t.Errorf("notice: %+v", n)
		}
	})
}

// The verification links asked for are limited per account.
func TestVerifyEmailResendLimit(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		u := s.register("ada@example.com", "")
		b := s.browser("192.0.2.70")
		s.logIn(b, u)
		var d verifyData
		pageData(t, b.do("GET", "/my-account/verify-email/", nil).raw, &d)
		for i := range account.VerifyLimitPerUser {
			if r := b.do("POST", "/my-account/verify-email/", url.Values{"_wpnonce": {d.Nonce}}); r.status != 303 {
				t.Fatalf("resend %d: %d", i, r.status)
			}
		}
		r := b.do("POST", "/my-account/verify-email/", url.Values{"_wpnonce": {d.Nonce}})
		var e verifyData
		pageData(t, r.raw, &e)
		if r.status != 429 || e.Outcome != "limited" || r.header.Get("Retry-After") == "" {
			t.Errorf("over the limit: %d %+v", r.status, e)
		}
		if res := s.send(); res.Sent != account.VerifyLimitPerUser {
			t.Errorf("mails: %+v", res)
		}
	})
}

// The upkeep deletes ended sessions, links, devices and spent bot-check
// records, and keeps live ones.
func TestAccountUpkeep(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		ctx := context.Background()
		u := s.register("ada@example.com", "")
		if _, _, err := s.accounts.CreateSession(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.accounts.RequestReset(ctx, "ada@example.com", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.SpendBotcheck(ctx, "sig-old", s.clock.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := s.srv.AccountUpkeep(ctx); n != 0 {
			t.Fatalf("deleted live rows: %d", n)
		}
		s.clock.Add(3 * 24 * time.Hour) // past the idle end, the reset and the bot-check record
		live, _, err := s.accounts.CreateSession(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.SpendBotcheck(ctx, "sig-new", s.clock.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := s.srv.AccountUpkeep(ctx); n != 3 {
			t.Errorf("deleted %d rows, want 3 (session, reset, bot-check record)", n)
		}
		if _, err := s.accounts.Session(ctx, live); err != nil {
			t.Errorf("live session deleted: %v", err)
		}
		if n, _ := s.db.CountSpentBotcheck(ctx); n != 1 {
			t.Errorf("spent records left: %d", n)
		}
	})
}

// The account kinds the store queues are the kinds the mail package renders.
func TestAccountMailKinds(t *testing.T) {
	t.Parallel()
	want := []string{vmail.KindAccountPasswordReset, vmail.KindAccountVerifyEmail, vmail.KindAccountPasswordChanged, vmail.KindAccountEmailChanged, vmail.KindAccountRegisterAttempt,
		vmail.KindAccountInvitation}
	if len(account.MailKinds) != len(want) {
		t.Fatalf("kinds %q, want %q", account.MailKinds, want)
	}
	for i, k := range account.MailKinds {
		if k != want[i] {
			t.Errorf("kind %d: %q vs %q", i, k, want[i])
		}
	}
	_, err := vmail.AccountRenderer(nil)(context.Background(), "account_nope", "1")
	if !errors.Is(err, vmail.ErrPermanent) {
		t.Errorf("unknown kind: %v", err)
	}
}

func mustSealer(t *testing.T, secret string) *account.Sealer {
	t.Helper()
	s, err := account.NewSealer([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
