package server_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
)

// Customers moved in from a WordPress shop, through the shop's pages: the
// invitation mail over SMTP, its link on the reset page, the login form
// with the new password; the login form with a WordPress password.

// movedIn creates a customer as the WooCommerce migration does (no
// password, an old id recorded).
func movedIn(t *testing.T, s *loginShop, email string, oldID int64) *account.User {
	t.Helper()
	ctx := context.Background()
	c, err := s.accounts.CreateCustomer(ctx, account.CustomerEdit{Email: &email})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.PutLegacy(ctx, sqlstore.Legacy{Kind: "customer", OldID: oldID, NewID: c.ID}); err != nil {
		t.Fatal(err)
	}
	return &c.User
}

// formLogin logs b in through the my-account form (with a solved
// bot-check) and reports whether it worked.
func formLogin(b *browser, login, password string) bool {
	b.s.t.Helper()
	a := b.submitLogin("username", login, "password", password, "wfls-captcha", b.solve("login"))
	return a.status == 303 && b.cookie("wordpress_logged_in_") != nil && b.loggedIn()
}

func TestInvitationThroughMail(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		ctx := context.Background()
		ann := movedIn(t, s.loginShop, "ann@example.com", 1)
		movedIn(t, s.loginShop, "ben@example.com", 2)
		sealer, err := account.NewSealer([]byte("the shop secret, shared by instances"))
		if err != nil {
			t.Fatal(err)
		}
		inviter := &account.Service{Store: s.db, Now: s.clock.Now, Sealer: sealer}
		expires := s.clock.Now().Add(account.InviteLifetime).UTC().Format("January 2, 2006")
		res, err := inviter.InviteMovedIn(ctx, account.InviteOptions{PerMinute: 30})
		if err != nil || len(res.Invited) != 2 {
			t.Fatalf("invite: %+v %v", res, err)
		}
		// The rate spreads the mails: one now, the next two seconds later.
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("first send: %+v", r)
		}
		s.clock.Add(time.Second)
		if r := s.send(); r.Sent != 0 {
			t.Fatalf("sent before its time: %+v", r)
		}
		s.clock.Add(time.Second)
		if r := s.send(); r.Sent != 1 {
			t.Fatalf("second send: %+v", r)
		}
		m := s.mails()[0]
		if m.to != "ann@example.com" || m.subject != "Vitrine has moved: set your password" ||
			!strings.Contains(m.text, "Vitrine has moved to a new website") || !strings.Contains(m.text, "passwords could not be carried over") ||
			!strings.Contains(m.text, "for 14 days, until "+expires) || !strings.Contains(m.text, "Email address: ann@example.com") {
			t.Fatalf("mail: %+v", m)
		}
		link := resetLink.FindString(m.text)
		if link == "" || !strings.Contains(m.html, `href="`+strings.ReplaceAll(link, "&", "&amp;")+`"`) || !strings.Contains(m.html, "Set your password") {
			t.Fatalf("no working link in both parts: %s\n%s", m.text, m.html)
		}

		// A re-run mails nobody again.
		if r, err := inviter.InviteMovedIn(ctx, account.InviteOptions{}); err != nil || len(r.Invited) != 0 {
			t.Fatalf("re-run: %+v %v", r, err)
		}
		s.clock.Add(time.Minute)
		if r := s.send(); r.Sent != 0 {
			t.Fatalf("re-run mailed: %+v", r)
		}

		// Ten days later the link opens the reset form; the new password
		// logs in through the login form.
		s.clock.Add(10 * 24 * time.Hour)
		b := s.browser("192.0.2.30")
		if p := b.do("GET", pathOf(t, link), nil); p.status != 302 {
			t.Fatalf("link: %d", p.status)
		}
		p, d := b.lostPage("/my-account/lost-password/?show-reset-form=true")
		if p.status != 200 || d.Stage != "reset" || d.Login != "ann@example.com" {
			t.Fatalf("reset form: %d %+v", p.status, d)
		}
		p = b.do("POST", "/my-account/lost-password/", url.Values{"password_1": {"Ann's password here"}, "password_2": {"Ann's password here"},
			"woocommerce-reset-password-nonce": {d.Nonce}, "wc_reset_password": {"true"}})
		if p.status != 303 {
			t.Fatalf("set password: %d %s", p.status, p.raw)
		}
		if !formLogin(s.browser("192.0.2.31"), "ann@example.com", "Ann's password here") {
			t.Fatal("the new password does not log in")
		}
		if u, _ := s.db.UserByID(ctx, ann.ID); account.HasNoPassword(u.PasswordHash) {
			t.Fatal("still no password")
		}
		// The link is used: it cannot set a password again.
		b2 := s.browser("192.0.2.32")
		b2.do("GET", pathOf(t, link), nil)
		if p, d := b2.lostPage("/my-account/lost-password/?show-reset-form=true"); p.status != 400 || d.Stage != "invalid" {
			t.Errorf("used link: %d %+v", p.status, d)
		}
	})
}

// A WordPress password logs in through the login form and is rehashed to
// argon2id; a wrong one is refused and leaves the hash.
func TestWordPressPasswordLoginForm(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		ctx := context.Background()
		u := movedIn(t, s, "wp@example.com", 9)
		const wp68 = "$wp$2y$10$ABCDEFGHIJKLMNOPQRSTUuu4vvg95ADwcdkqxOnKD5aKppYll6v2y" // "correct horse battery"
		r, err := s.accounts.ImportWordPressPasswords(ctx, strings.NewReader("user_email,user_pass\nwp@example.com,"+wp68+"\n"))
		if err != nil || r.Applied != 1 {
			t.Fatalf("import: %+v %v", r, err)
		}
		if formLogin(s.browser(), "wp@example.com", "correct horse batterY") {
			t.Fatal("a wrong password logged in")
		}
		if got, _ := s.db.UserByID(ctx, u.ID); got.PasswordHash != wp68 {
			t.Fatalf("a wrong password changed the hash: %s", got.PasswordHash)
		}
		if !formLogin(s.browser(), "wp@example.com", "correct horse battery") {
			t.Fatal("the WordPress password does not log in")
		}
		got, _ := s.db.UserByID(ctx, u.ID)
		if p, _, _, err := argon2id.DecodeHash(got.PasswordHash); err != nil || *p != *account.HashParams {
			t.Fatalf("not rehashed: %s", got.PasswordHash)
		}
		if !formLogin(s.browser(), "wp@example.com", "correct horse battery") {
			t.Fatal("the rehashed password does not log in")
		}
	})
}
