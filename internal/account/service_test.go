package account_test

// The account use cases called directly, without HTTP, on every configured
// engine (storetest), with a clock the tests move.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"vitrine/internal/account"
	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// start is on a 30-second boundary, so TOTP steps are start+k*30s.
var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const goodPassword = "correct horse battery"

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

type fixture struct {
	t     *testing.T
	ctx   context.Context
	db    *sqlstore.DB
	clock *clock
	svc   *account.Service
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	c := &clock{t: start}
	return &fixture{t: t, ctx: context.Background(), db: db, clock: c, svc: &account.Service{Store: db, Now: c.Now}}
}

func (f *fixture) register(email, username string) *account.User {
	f.t.Helper()
	u, err := f.svc.Register(f.ctx, account.Registration{Email: email, Username: username, Password: goodPassword})
	if err != nil {
		f.t.Fatalf("register %s: %v", email, err)
	}
	return u
}

// atOnce runs try(0) … try(n-1) concurrently and returns their errors.
func atOnce(n int, try func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = try(i) })
	}
	wg.Wait()
	return errs
}

// oneSucceeded checks that exactly one of concurrent attempts succeeded
// and that the others were refused as lost says they may be.
func oneSucceeded(t *testing.T, what string, errs []error, lost func(error) bool) {
	t.Helper()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case !lost(err):
			t.Errorf("%s %d: %v", what, i, err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d concurrent attempts (%s) succeeded, want 1", ok, len(errs), what)
	}
}

// queued is the mail of one kind in the outbox.
func (f *fixture) queued(kind string) []mail.Queued {
	f.t.Helper()
	q, err := f.db.MailOutbox(f.ctx, "", 100)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []mail.Queued
	for _, m := range q {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

func (f *fixture) code(secret string, at time.Time) string {
	f.t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// enable2FA enrolls and confirms TOTP for u at the clock's now and returns
// the secret and recovery codes.
func (f *fixture) enable2FA(u *account.User) (string, []string) {
	f.t.Helper()
	e, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword)
	if err != nil {
		f.t.Fatal(err)
	}
	codes, err := f.svc.ConfirmTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now()))
	if err != nil {
		f.t.Fatal(err)
	}
	return e.Secret, codes
}

func inputField(err error) string {
	var ie *account.InputError
	if errors.As(err, &ie) {
		return ie.Field
	}
	return ""
}

func TestRegister(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("  Ada@Example.COM ", "Ada_L")
		if u.ID == 0 || u.Email != "ada@example.com" || u.Username != "ada_l" || u.Role != account.RoleCustomer || u.DisplayName != "ada" {
			t.Fatalf("registered %+v", u)
		}
		got, err := db.UserByEmail(f.ctx, "ada@example.com")
		if err != nil || got.ID != u.ID || got.PasswordHash == "" || got.PasswordHash == goodPassword || !got.CreatedAt.Equal(start) {
			t.Fatalf("stored %+v, %v", got, err)
		}
		if got.CanEditPages() {
			t.Error("a customer can edit pages")
		}

		_, err = f.svc.Register(f.ctx, account.Registration{Email: "ADA@example.com", Password: goodPassword})
		if !errors.Is(err, account.ErrEmailTaken) {
			t.Errorf("duplicate email: %v", err)
		}
		_, err = f.svc.Register(f.ctx, account.Registration{Email: "other@example.com", Username: "ADA_L", Password: goodPassword})
		if !errors.Is(err, account.ErrUsernameTaken) {
			t.Errorf("duplicate username: %v", err)
		}

		bad := []struct {
			r     account.Registration
			field string
		}{
			{account.Registration{Email: "b@example.com", Password: "short pass"}, "password"},                  // 10 characters
			{account.Registration{Email: "b@example.com", Password: "Password1234"}, "password"},                // common
			{account.Registration{Email: "b@example.com", Password: "b@example.com"}, "password"},               // the email itself
			{account.Registration{Email: "b@example.com", Password: string(make([]byte, 1025))}, "password"},    // too long
			{account.Registration{Email: "not-an-email", Password: goodPassword}, "email"},                      //
			{account.Registration{Email: "", Password: goodPassword}, "email"},                                  //
			{account.Registration{Email: "b@example.com", Username: "b@c", Password: goodPassword}, "username"}, // '@'
			{account.Registration{Email: "b@example.com", Username: "ab", Password: goodPassword}, "username"},  // too short
		}
		for _, b := range bad {
			_, err := f.svc.Register(f.ctx, b.r)
			if inputField(err) != b.field {
				t.Errorf("%q/%q/%d bytes: %v, want an input error on %s", b.r.Email, b.r.Username, len(b.r.Password), err, b.field)
			}
		}
		if _, err := f.svc.Register(f.ctx, account.Registration{Email: "b@example.com", Password: goodPassword, Role: "root"}); !errors.Is(err, account.ErrInvalidRole) {
			t.Errorf("role root: %v", err)
		}
		if _, err := db.UserByEmail(f.ctx, "b@example.com"); !errors.Is(err, account.ErrNoUser) {
			t.Errorf("refused registrations wrote a user: %v", err)
		}
		// 12 characters in any script pass, though longer in bytes.
		if _, err := f.svc.Register(f.ctx, account.Registration{Email: "c@example.com", Password: "ééééééééééé1"}); err != nil {
			t.Errorf("12 accented characters: %v", err)
		}
		m, err := f.svc.Register(f.ctx, account.Registration{Email: "m@example.com", Password: goodPassword, Role: account.RoleShopManager})
		if err != nil || !m.CanEditPages() {
			t.Errorf("manager: %+v, %v", m, err)
		}
	})
}

func TestAuthenticate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "ada")
		for _, login := range []string{"ada@example.com", " ADA@Example.com", "Ada"} {
			l, err := f.svc.Authenticate(f.ctx, login, goodPassword, "192.0.2.1")
			if err != nil || l.User.ID != u.ID || l.TwoFactorRequired {
				t.Errorf("login %q: %+v, %v", login, l, err)
			}
		}
		_, wrong := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword+"!", "192.0.2.1")
		_, unknown := f.svc.Authenticate(f.ctx, "nobody@example.com", goodPassword, "192.0.2.1")
		_, unknownName := f.svc.Authenticate(f.ctx, "nobody", goodPassword, "192.0.2.1")
		_, empty := f.svc.Authenticate(f.ctx, "ada@example.com", "", "192.0.2.1")
		for name, err := range map[string]error{"wrong password": wrong, "unknown email": unknown, "unknown username": unknownName, "empty password": empty} {
			if err != account.ErrBadCredentials {
				t.Errorf("%s: %v, want ErrBadCredentials", name, err)
			}
		}
	})
}

func lockedFor(t *testing.T, err error) time.Duration {
	t.Helper()
	var le *account.LockedError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a LockedError", err)
	}
	return le.RetryAfter
}

func TestAccountUnderAttackNeedsStrongerCheck(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.register("ada@example.com", "ada")
		f.register("bob@example.com", "")
		// Five failures from five addresses, by email and by username: one
		// account's counter.
		for i := range 5 {
			login := "ada@example.com"
			if i%2 == 1 {
				login = "ada"
			}
			if _, err := f.svc.Authenticate(f.ctx, login, "wrong password "+fmt.Sprint(i), fmt.Sprintf("198.51.100.%d", i)); err != account.ErrBadCredentials {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		f.clock.Add(time.Minute)
		// The account is under attack: an attempt without the stronger
		// check is refused unchecked (never a lockout), right password or
		// wrong, and changes nothing.
		for _, pw := range []string{goodPassword, "wrong password"} {
			if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", pw, "203.0.113.9"); err != account.ErrStepUp {
				t.Fatalf("under attack, %q without the stronger check: %v", pw, err)
			}
		}
		// Other accounts are not affected.
		if _, err := f.svc.Authenticate(f.ctx, "bob@example.com", goodPassword, "203.0.113.9"); err != nil {
			t.Errorf("bob: %v", err)
		}
		// With it, a wrong password is still checked (and counted), and
		// the owner's right password gets in at once: no waiting out the
		// window.
		if _, err := f.svc.AuthenticateAttempt(f.ctx, account.Attempt{Login: "ada", Password: "wrong again", ClientIP: "198.51.100.40", Strong: true}); err != account.ErrBadCredentials {
			t.Fatalf("strong wrong password under attack: %v", err)
		}
		l, err := f.svc.AuthenticateAttempt(f.ctx, account.Attempt{Login: "ada@example.com", Password: goodPassword, ClientIP: "203.0.113.9", Strong: true})
		if err != nil || l.User.Email != "ada@example.com" {
			t.Fatalf("owner with the stronger check under attack: %+v %v", l, err)
		}
		// The right password cleared the count.
		for i := range 4 {
			if _, err := f.svc.Authenticate(f.ctx, "ada", "wrong password", fmt.Sprintf("198.51.100.%d", 10+i)); err != account.ErrBadCredentials {
				t.Fatalf("failure %d after reset: %v", i+1, err)
			}
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada", goodPassword, "203.0.113.10"); err != nil {
			t.Errorf("4 failures after a success lock the account: %v", err)
		}

		// An unknown login behaves the same (no enumeration by the
		// stronger check).
		for i := range 5 {
			if _, err := f.svc.Authenticate(f.ctx, "ghost@example.com", "wrong password", fmt.Sprintf("198.51.100.%d", 20+i)); err != account.ErrBadCredentials {
				t.Fatalf("ghost failure %d: %v", i+1, err)
			}
		}
		if _, err = f.svc.Authenticate(f.ctx, "ghost@example.com", "wrong password", "198.51.100.30"); err != account.ErrStepUp {
			t.Fatalf("ghost under attack: %v", err)
		}
		if _, err := f.svc.AuthenticateAttempt(f.ctx, account.Attempt{Login: "ghost@example.com", Password: "x", ClientIP: "198.51.100.31", Strong: true}); err != account.ErrBadCredentials {
			t.Fatalf("ghost, strong: %v", err)
		}
	})
}

func TestLockoutPerAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.register("ada@example.com", "")
		for i := range 5 {
			_, err := f.svc.Authenticate(f.ctx, fmt.Sprintf("user%d@example.com", i), "wrong password", "2001:db8:1:2::10")
			if err != account.ErrBadCredentials {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		// The sixth from the same /64, for a real account with its right
		// password: refused.
		_, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "2001:db8:1:2::99")
		if wait := lockedFor(t, err); wait != 15*time.Minute {
			t.Errorf("retry after %s", wait)
		}
		// Another address gets in.
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "2001:db8:1:3::10"); err != nil {
			t.Errorf("other address: %v", err)
		}
	})
}

func TestPasswordReset(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		sessToken, _, err := f.svc.CreateSession(f.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		// Unknown and malformed emails: the same quiet answer, nothing stored.
		for _, e := range []string{"nobody@example.com", "not an email"} {
			if tok, who, err := f.svc.RequestReset(f.ctx, e, ""); tok != "" || who != nil || err != nil {
				t.Errorf("%q: %q %v %v", e, tok, who, err)
			}
		}
		tok, who, err := f.svc.RequestReset(f.ctx, "ADA@example.com", "")
		if err != nil || tok == "" || who.ID != u.ID {
			t.Fatalf("request: %q %v %v", tok, who, err)
		}
		// A bad new password leaves the link usable.
		if _, err := f.svc.ResetPassword(f.ctx, tok, "short"); inputField(err) != "password" {
			t.Fatalf("bad password: %v", err)
		}
		if _, err := f.svc.ResetPassword(f.ctx, tok+"x", "a brand new password"); err != account.ErrResetInvalid {
			t.Errorf("forged token: %v", err)
		}
		f.clock.Add(59 * time.Minute)
		if _, err := f.svc.ResetPassword(f.ctx, tok, "a brand new password"); err != nil {
			t.Fatalf("reset: %v", err)
		}
		if _, err := f.svc.ResetPassword(f.ctx, tok, "another new password"); err != account.ErrResetInvalid {
			t.Errorf("second use: %v", err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != account.ErrBadCredentials {
			t.Errorf("old password: %v", err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", "a brand new password", ""); err != nil {
			t.Errorf("new password: %v", err)
		}
		if _, err := f.svc.Session(f.ctx, sessToken); err != account.ErrNoSession {
			t.Errorf("session survived the reset: %v", err)
		}

		// Expired after an hour.
		tok2, _, err := f.svc.RequestReset(f.ctx, "ada@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(time.Hour)
		if _, err := f.svc.ResetPassword(f.ctx, tok2, "yet another password"); err != account.ErrResetInvalid {
			t.Errorf("expired link: %v", err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", "a brand new password", ""); err != nil {
			t.Errorf("expired link changed the password: %v", err)
		}
	})
}

func TestPasswordResetConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.register("ada@example.com", "")
		tok, _, err := f.svc.RequestReset(f.ctx, "ada@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		errs := atOnce(8, func(i int) error {
			_, err := f.svc.ResetPassword(f.ctx, tok, fmt.Sprintf("new password number %d", i))
			return err
		})
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Errorf("two resets won: %d and %d", won, i)
			case err == nil:
				won = i
			case err != account.ErrResetInvalid:
				t.Errorf("reset %d: %v", i, err)
			}
		}
		if won < 0 {
			t.Fatal("no reset won")
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", fmt.Sprintf("new password number %d", won), ""); err != nil {
			t.Errorf("the winner's password: %v", err)
		}
	})
}

func TestChangePasswordAndEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		f.register("bob@example.com", "")
		s1, _, _ := f.svc.CreateSession(f.ctx, u.ID)
		if err := f.svc.ChangePassword(f.ctx, u.ID, "wrong password!", "a brand new password"); err != account.ErrBadCredentials {
			t.Errorf("wrong current password: %v", err)
		}
		if err := f.svc.ChangePassword(f.ctx, u.ID, goodPassword, "123456789012"); inputField(err) != "password" {
			t.Errorf("common new password: %v", err)
		}
		if _, err := f.svc.Session(f.ctx, s1); err != nil {
			t.Fatalf("refused changes ended the session: %v", err)
		}
		if err := f.svc.ChangePassword(f.ctx, u.ID, goodPassword, "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(f.ctx, s1); err != account.ErrNoSession {
			t.Errorf("session after a password change: %v", err)
		}
		if err := f.svc.ChangeEmail(f.ctx, u.ID, "a brand new password", "BOB@example.com"); err != account.ErrEmailTaken {
			t.Errorf("taken email: %v", err)
		}
		if err := f.svc.ChangeEmail(f.ctx, u.ID, goodPassword, "ada2@example.com"); err != account.ErrBadCredentials {
			t.Errorf("old password: %v", err)
		}
		if err := f.svc.ChangeEmail(f.ctx, u.ID, "a brand new password", "bad email"); inputField(err) != "email" {
			t.Errorf("bad email: %v", err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); got.Email != "ada@example.com" {
			t.Errorf("refused changes changed the email to %q", got.Email)
		}
		if err := f.svc.ChangeEmail(f.ctx, u.ID, "a brand new password", "Ada2@example.com"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada2@example.com", "a brand new password", ""); err != nil {
			t.Errorf("login with the new email: %v", err)
		}
		if err := f.svc.DeleteAccount(f.ctx, u.ID, "wrong password!"); err != account.ErrBadCredentials {
			t.Errorf("delete with a wrong password: %v", err)
		}
		if err := f.svc.DeleteAccount(f.ctx, u.ID, "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.User(f.ctx, u.ID); err != account.ErrNoUser {
			t.Errorf("deleted user: %v", err)
		}
	})
}

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		tok, s, err := f.svc.CreateSession(f.ctx, u.ID)
		if err != nil || len(tok) != 43 || s.UserID != u.ID || !s.ExpiresAt.Equal(start.Add(14*24*time.Hour)) {
			t.Fatalf("create: %q %+v %v", tok, s, err)
		}
		if _, err := db.SessionByHash(f.ctx, tok); err != account.ErrNoSession {
			t.Errorf("the token itself is stored: %v", err)
		}
		for _, bad := range []string{"", tok + "x", tok[:42]} {
			if _, err := f.svc.Session(f.ctx, bad); err != account.ErrNoSession {
				t.Errorf("token %q: %v", bad, err)
			}
		}
		// Idle: seen again just before two days keeps it; two days idle ends it.
		f.clock.Add(48*time.Hour - time.Second)
		if got, err := f.svc.Session(f.ctx, tok); err != nil || got.UserID != u.ID || !got.LastSeenAt.Equal(f.clock.Now()) {
			t.Fatalf("before idle end: %+v %v", got, err)
		}
		f.clock.Add(48 * time.Hour)
		if _, err := f.svc.Session(f.ctx, tok); err != account.ErrNoSession {
			t.Errorf("idle two days: %v", err)
		}

		// Absolute: seen every day, it still ends 14 days after login.
		tok, _, _ = f.svc.CreateSession(f.ctx, u.ID)
		for d := 1; d < 14; d++ {
			f.clock.Add(24 * time.Hour)
			if _, err := f.svc.Session(f.ctx, tok); err != nil {
				t.Fatalf("day %d: %v", d, err)
			}
		}
		f.clock.Add(24 * time.Hour)
		if _, err := f.svc.Session(f.ctx, tok); err != account.ErrNoSession {
			t.Errorf("day 14: %v", err)
		}

		// Renewal: a new token, the old one dead, the same absolute end.
		tok, s, _ = f.svc.CreateSession(f.ctx, u.ID)
		f.clock.Add(time.Hour)
		next, s2, err := f.svc.RenewSession(f.ctx, tok)
		if err != nil || next == tok || s2.UserID != u.ID || !s2.ExpiresAt.Equal(s.ExpiresAt) {
			t.Fatalf("renew: %+v %v", s2, err)
		}
		if _, err := f.svc.Session(f.ctx, tok); err != account.ErrNoSession {
			t.Errorf("old token after renewal: %v", err)
		}
		if _, err := f.svc.Session(f.ctx, next); err != nil {
			t.Errorf("new token: %v", err)
		}
		if _, _, err := f.svc.RenewSession(f.ctx, tok); err != account.ErrNoSession {
			t.Errorf("renewing a dead token: %v", err)
		}

		// Log out, and log out everywhere.
		other, _, _ := f.svc.CreateSession(f.ctx, u.ID)
		if err := f.svc.DeleteSession(f.ctx, next); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(f.ctx, next); err != account.ErrNoSession {
			t.Errorf("after logout: %v", err)
		}
		if _, err := f.svc.Session(f.ctx, other); err != nil {
			t.Errorf("logout ended another session: %v", err)
		}
		if err := f.svc.DeleteUserSessions(f.ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(f.ctx, other); err != account.ErrNoSession {
			t.Errorf("after log out everywhere: %v", err)
		}

		// Upkeep removes ended sessions.
		f.svc.CreateSession(f.ctx, u.ID)
		f.clock.Add(3 * 24 * time.Hour)
		if n, err := f.svc.DeleteExpired(f.ctx); err != nil || n < 1 {
			t.Errorf("delete expired: %d %v", n, err)
		}
	})
}

func TestTOTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		if _, err := f.svc.ConfirmTOTP(f.ctx, u.ID, "123456"); err != account.ErrTOTPNotPending {
			t.Errorf("confirm before enrolling: %v", err)
		}
		// Turning it on needs the password: a stolen session alone
		// cannot start a setup.
		if _, err := f.svc.EnrollTOTP(f.ctx, u.ID, ""); inputField(err) != "password" {
			t.Errorf("enroll without the password: %v", err)
		}
		if _, err := f.svc.EnrollTOTP(f.ctx, u.ID, "wrong password!"); err != account.ErrBadCredentials {
			t.Errorf("enroll with a wrong password: %v", err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); got.TOTPPending != "" {
			t.Fatal("a refused enroll stored a pending secret")
		}
		e, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword)
		if err != nil || e.Secret == "" || e.URL == "" {
			t.Fatalf("enroll: %+v %v", e, err)
		}
		// Pending: logins do not ask for it yet, a wrong code does not confirm.
		if l, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil || l.TwoFactorRequired {
			t.Errorf("pending 2FA asked at login: %+v %v", l, err)
		}
		now := f.clock.Now()
		wrong := "000000"
		if f.code(e.Secret, now) == wrong {
			wrong = "000001"
		}
		for _, c := range []string{wrong, "12345", "abcdef", ""} {
			if _, err := f.svc.ConfirmTOTP(f.ctx, u.ID, c); err != account.ErrCodeInvalid {
				t.Errorf("confirm %q: %v", c, err)
			}
		}
		codes, err := f.svc.ConfirmTOTP(f.ctx, u.ID, f.code(e.Secret, now))
		if err != nil || len(codes) != 10 {
			t.Fatalf("confirm: %v %v", codes, err)
		}
		if _, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword); err != account.ErrTOTPEnabled {
			t.Errorf("enroll again: %v", err)
		}
		if l, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil || !l.TwoFactorRequired {
			t.Errorf("login with 2FA on: %+v %v", l, err)
		}
		// The confirming code's step is used.
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now)); err != account.ErrCodeReused {
			t.Errorf("confirming code again: %v", err)
		}
		// Next step: accepted once, then refused; the step before is refused.
		f.clock.Add(30 * time.Second)
		now = f.clock.Now()
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now)); err != nil {
			t.Fatalf("fresh code: %v", err)
		}
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now)); err != account.ErrCodeReused {
			t.Errorf("replayed code: %v", err)
		}
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now.Add(-30*time.Second))); err != account.ErrCodeReused {
			t.Errorf("previous step after a newer one: %v", err)
		}
		// A code of the next step (a fast clock) is accepted; then the
		// current step's code is behind it and refused.
		f.clock.Add(60 * time.Second)
		now = f.clock.Now()
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now.Add(30*time.Second))); err != nil {
			t.Fatalf("next step's code: %v", err)
		}
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now)); err != account.ErrCodeReused {
			t.Errorf("current step after the next: %v", err)
		}
		// Two steps away is out of the window.
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, now.Add(90*time.Second))); err != account.ErrCodeInvalid {
			t.Errorf("code three steps ahead: %v", err)
		}
		// Disabling needs the password and a current code (or a
		// recovery code): the password alone, or a code alone, is not
		// enough.
		f.clock.Add(60 * time.Second)
		now = f.clock.Now()
		if err := f.svc.DisableTOTP(f.ctx, u.ID, "wrong password!", f.code(e.Secret, now)); err != account.ErrBadCredentials {
			t.Errorf("disable with a wrong password: %v", err)
		}
		if err := f.svc.DisableTOTP(f.ctx, u.ID, "", f.code(e.Secret, now)); inputField(err) != "password" {
			t.Errorf("disable without the password: %v", err)
		}
		if err := f.svc.DisableTOTP(f.ctx, u.ID, goodPassword, ""); inputField(err) != "code" {
			t.Errorf("disable without a code: %v", err)
		}
		wrongCode := "000000"
		if f.code(e.Secret, now) == wrongCode || f.code(e.Secret, now.Add(-30*time.Second)) == wrongCode || f.code(e.Secret, now.Add(30*time.Second)) == wrongCode {
			wrongCode = "000001"
		}
		if err := f.svc.DisableTOTP(f.ctx, u.ID, goodPassword, wrongCode); err != account.ErrCodeInvalid {
			t.Errorf("disable with a wrong code: %v", err)
		}
		if err := f.svc.DisableTOTP(f.ctx, u.ID, goodPassword, "aaaa-bbbb-cccc-dddd"); err != account.ErrCodeInvalid {
			t.Errorf("disable with a made-up recovery code: %v", err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); !got.TwoFactor() {
			t.Fatal("a refused disable turned 2FA off")
		}
		// A recovery code stands in for the app.
		if err := f.svc.DisableTOTP(f.ctx, u.ID, goodPassword, codes[3]); err != nil {
			t.Fatal(err)
		}
		if l, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil || l.TwoFactorRequired {
			t.Errorf("login after disabling: %+v %v", l, err)
		}
		if n, _ := f.svc.RecoveryCodesLeft(f.ctx, u.ID); n != 0 {
			t.Errorf("%d recovery codes left after disabling", n)
		}
	})
}

func TestTOTPConcurrentSameCode(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		secret, _ := f.enable2FA(u)
		f.clock.Add(30 * time.Second)
		code := f.code(secret, f.clock.Now())
		errs := atOnce(8, func(int) error { return f.svc.VerifyTOTP(f.ctx, u.ID, code) })
		oneSucceeded(t, "use of one code", errs, func(err error) bool {
			var le *account.LockedError
			return err == account.ErrCodeReused || errors.As(err, &le)
		})
	})
}

func TestSecondFactorLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		secret, _ := f.enable2FA(u)
		f.clock.Add(30 * time.Second)
		good := f.code(secret, f.clock.Now())
		valid := map[string]bool{}
		for d := -1; d <= 1; d++ {
			valid[f.code(secret, f.clock.Now().Add(time.Duration(d)*30*time.Second))] = true
		}
		next := 0
		for i := range 5 {
			bad := fmt.Sprintf("%06d", next)
			for ; valid[bad]; bad = fmt.Sprintf("%06d", next) {
				next++
			}
			next++
			if err := f.svc.VerifyTOTP(f.ctx, u.ID, bad); err != account.ErrCodeInvalid {
				t.Fatalf("wrong code %d: %v", i+1, err)
			}
		}
		lockedFor(t, f.svc.VerifyTOTP(f.ctx, u.ID, good))
		f.clock.Add(15 * time.Minute)
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(secret, f.clock.Now())); err != nil {
			t.Errorf("after the window: %v", err)
		}
	})
}

func TestRecoveryCodes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		other := f.register("bob@example.com", "")
		_, codes := f.enable2FA(u)
		seen := map[string]bool{}
		for _, c := range codes {
			if len(c) != 19 || seen[c] {
				t.Fatalf("codes %q", codes)
			}
			seen[c] = true
		}
		if err := f.svc.UseRecoveryCode(f.ctx, other.ID, codes[0]); err != account.ErrCodeInvalid {
			t.Errorf("another user's code: %v", err)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, codes[0]); err != nil {
			t.Fatalf("first use: %v", err)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, codes[0]); err != account.ErrCodeInvalid {
			t.Errorf("second use: %v", err)
		}
		// Case, dashes and spaces do not matter.
		loose := "  " + strings.ToUpper(codes[1][:4]) + " " + codes[1][5:]
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, loose); err != nil {
			t.Errorf("%q for %q: %v", loose, codes[1], err)
		}
		if n, err := f.svc.RecoveryCodesLeft(f.ctx, u.ID); err != nil || n != 8 {
			t.Errorf("left %d %v, want 8", n, err)
		}
	})
}

func TestRememberedDevices(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		other := f.register("bob@example.com", "")
		tok, d, err := f.svc.RememberDevice(f.ctx, u.ID, "Firefox on Linux")
		if err != nil || d.ID == 0 || !d.ExpiresAt.Equal(start.Add(30*24*time.Hour)) {
			t.Fatalf("remember: %+v %v", d, err)
		}
		check := func(user int64, token string, want bool, what string) {
			t.Helper()
			got, err := f.svc.DeviceRemembered(f.ctx, user, token)
			if err != nil || got != want {
				t.Errorf("%s: %v %v, want %v", what, got, err, want)
			}
		}
		check(u.ID, tok, true, "own token")
		check(u.ID, tok+"A", false, "forged token")
		check(u.ID, "", false, "no token")
		check(other.ID, tok, false, "another user's token")

		f.clock.Add(30*24*time.Hour - time.Second)
		check(u.ID, tok, true, "just before 30 days")
		f.clock.Add(time.Second)
		check(u.ID, tok, false, "after 30 days")

		t1, d1, _ := f.svc.RememberDevice(f.ctx, u.ID, "phone")
		t2, d2, _ := f.svc.RememberDevice(f.ctx, u.ID, "laptop")
		list, err := f.svc.ListDevices(f.ctx, u.ID)
		if err != nil || len(list) != 2 || list[0].ID != d2.ID || list[1].Label != "phone" {
			t.Errorf("list: %+v %v", list, err)
		}
		if err := f.svc.RevokeDevice(f.ctx, other.ID, d1.ID); err != account.ErrDeviceNotFound {
			t.Errorf("revoking another user's device: %v", err)
		}
		check(u.ID, t1, true, "after another user's revoke")
		if err := f.svc.RevokeDevice(f.ctx, u.ID, d1.ID); err != nil {
			t.Fatal(err)
		}
		check(u.ID, t1, false, "revoked")
		check(u.ID, t2, true, "not revoked")
		if err := f.svc.RevokeDevice(f.ctx, u.ID, d1.ID); err != account.ErrDeviceNotFound {
			t.Errorf("revoking twice: %v", err)
		}
		if err := f.svc.RevokeAllDevices(f.ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		check(u.ID, t2, false, "after revoking all")

		// A password change forgets the devices.
		t3, _, _ := f.svc.RememberDevice(f.ctx, u.ID, "tablet")
		if err := f.svc.ChangePassword(f.ctx, u.ID, goodPassword, "a brand new password"); err != nil {
			t.Fatal(err)
		}
		check(u.ID, t3, false, "after a password change")
	})
}

// Concurrent guesses cannot pass the limit together: of 12 at once, 5 are
// checked and 7 refused, for passwords and for second-factor codes.
func TestLimitsUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		const n = 12
		count := func(what string, try func(i int) error, failure error) {
			t.Helper()
			errs := atOnce(n, try)
			checked, locked := 0, 0
			for _, err := range errs {
				var le *account.LockedError
				switch {
				case err == failure:
					checked++
				case errors.As(err, &le), err == account.ErrStepUp:
					locked++
				default:
					t.Errorf("%s: %v", what, err)
				}
			}
			if checked != 5 || locked != n-5 {
				t.Errorf("%s: %d checked, %d locked; want 5 and %d", what, checked, locked, n-5)
			}
		}
		count("passwords", func(i int) error {
			_, err := f.svc.Authenticate(f.ctx, "ada@example.com", fmt.Sprintf("guess number %d", i), fmt.Sprintf("198.51.100.%d", i))
			return err
		}, account.ErrBadCredentials)

		secret, _ := f.enable2FA(u)
		valid := map[string]bool{}
		for d := -1; d <= 1; d++ {
			valid[f.code(secret, f.clock.Now().Add(time.Duration(d)*30*time.Second))] = true
		}
		var wrong []string
		for c := 100000; len(wrong) < n; c++ {
			if s := fmt.Sprint(c); !valid[s] {
				wrong = append(wrong, s)
			}
		}
		count("codes", func(i int) error { return f.svc.VerifyTOTP(f.ctx, u.ID, wrong[i]) }, account.ErrCodeInvalid)
	})
}

func TestEmailVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		tok, who, err := f.svc.RequestEmailVerification(f.ctx, u.ID)
		if err != nil || tok == "" || who.Email != "ada@example.com" {
			t.Fatalf("request: %q %v %v", tok, who, err)
		}
		if _, err := f.svc.VerifyEmail(f.ctx, tok+"x"); err != account.ErrVerificationInvalid {
			t.Errorf("forged: %v", err)
		}
		f.clock.Add(time.Hour)
		got, err := f.svc.VerifyEmail(f.ctx, tok)
		if err != nil || !got.EmailVerifiedAt.Equal(start.Add(time.Hour)) {
			t.Fatalf("verify: %+v %v", got, err)
		}
		if _, err := f.svc.VerifyEmail(f.ctx, tok); err != account.ErrVerificationInvalid {
			t.Errorf("second use: %v", err)
		}

		// A link for an email the account no longer has is void; an
		// expired one too.
		old, _, _ := f.svc.RequestEmailVerification(f.ctx, u.ID)
		if err := f.svc.ChangeEmail(f.ctx, u.ID, goodPassword, "ada2@example.com"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.VerifyEmail(f.ctx, old); err != account.ErrVerificationInvalid {
			t.Errorf("link for the old email: %v", err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); !got.EmailVerifiedAt.IsZero() {
			t.Errorf("the new email is verified by the old link: %v", got.EmailVerifiedAt)
		}
		late, _, _ := f.svc.RequestEmailVerification(f.ctx, u.ID)
		f.clock.Add(24 * time.Hour)
		if _, err := f.svc.VerifyEmail(f.ctx, late); err != account.ErrVerificationInvalid {
			t.Errorf("expired link: %v", err)
		}
	})
}

func TestSetRole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		if err := f.svc.SetRole(f.ctx, u.ID, "root"); err != account.ErrInvalidRole {
			t.Errorf("role root: %v", err)
		}
		if err := f.svc.SetRole(f.ctx, u.ID+100, account.RoleAdministrator); err != account.ErrNoUser {
			t.Errorf("unknown user: %v", err)
		}
		if err := f.svc.SetRole(f.ctx, u.ID, account.RoleAdministrator); err != nil {
			t.Fatal(err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); got.Role != account.RoleAdministrator || !got.CanEditPages() {
			t.Errorf("after SetRole: %+v", got)
		}
	})
}

// Concurrent registrations of one email: one account, the others told
// the email is taken (the unique index decides a race the check missed).
func TestRegisterConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		errs := atOnce(6, func(int) error {
			_, err := f.svc.Register(f.ctx, account.Registration{Email: "Ada@example.com", Password: goodPassword})
			return err
		})
		oneSucceeded(t, "registration", errs, func(err error) bool { return err == account.ErrEmailTaken })
	})
}

// A hash with older parameters is replaced at the next right password;
// the session stays.
func TestRehashOnLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		sess, _, _ := f.svc.CreateSession(f.ctx, u.ID)
		old, err := argon2id.CreateHash(goodPassword, &argon2id.Params{Memory: 8 * 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.UpdatePasswordHash(f.ctx, u.ID, u.PasswordHash, old); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword+"x", ""); err != account.ErrBadCredentials {
			t.Fatalf("wrong password: %v", err)
		}
		if got, _ := f.svc.User(f.ctx, u.ID); got.PasswordHash != old {
			t.Error("a wrong password rehashed")
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil {
			t.Fatal(err)
		}
		got, _ := f.svc.User(f.ctx, u.ID)
		p, _, _, err := argon2id.DecodeHash(got.PasswordHash)
		if err != nil || *p != *account.HashParams {
			t.Errorf("after login the hash has %+v (%v)", p, err)
		}
		if _, err := f.svc.Session(f.ctx, sess); err != nil {
			t.Errorf("rehash ended the session: %v", err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil {
			t.Errorf("login after rehash: %v", err)
		}
	})
}

// Confirming two-factor tests codes under the same wrong-code limit as
// logging in: a sixth try in the window is refused, even with the right
// code, and two-factor stays off.
func TestConfirmTOTPWrongCodeLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		e, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword)
		if err != nil {
			t.Fatal(err)
		}
		right := f.code(e.Secret, f.clock.Now())
		wrong := "000000"
		if right == wrong {
			wrong = "000001"
		}
		for i := range account.CodeFailureLimit {
			if _, err := f.svc.ConfirmTOTP(f.ctx, u.ID, wrong); err != account.ErrCodeInvalid {
				t.Fatalf("wrong code %d: %v", i+1, err)
			}
		}
		var le *account.LockedError
		if _, err := f.svc.ConfirmTOTP(f.ctx, u.ID, right); !errors.As(err, &le) {
			t.Fatalf("a try past the limit: %v, want a LockedError", err)
		}
		if got, err := f.svc.User(f.ctx, u.ID); err != nil || got.TwoFactor() {
			t.Errorf("two-factor on after a locked confirmation: %v", err)
		}
	})
}

// Right passwords in flight at once from one address: those beyond the
// limit are refused unchecked, but none of them is left counted, so the
// address is not locked afterwards; failures still lock after five.
func TestConcurrentRightLoginsLeaveNoLock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.register("ada@example.com", "")
		errs := atOnce(9, func(int) error {
			_, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "203.0.113.7")
			return err
		})
		for _, err := range errs {
			var le *account.LockedError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("concurrent right login: %v", err)
			}
		}
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "203.0.113.7"); err != nil {
			t.Fatalf("after the burst the address is still locked: %v", err)
		}
		for i := range 5 {
			if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", "wrong", "203.0.113.7"); err != account.ErrBadCredentials {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		var le *account.LockedError
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "203.0.113.7"); !errors.As(err, &le) {
			t.Fatalf("sixth attempt after five failures: %v", err)
		}
		// Refused attempts do not add up beyond the limit either: the lock
		// lasts the window, and no longer.
		for range 10 {
			f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "203.0.113.7")
		}
		f.clock.Add(account.FailureWindow + time.Second)
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, "203.0.113.7"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

// The forms of a logged-in user that take the password (email, password,
// deleting the account, turning two-factor off) share one per-user limit,
// so a stolen session cannot guess at the password through them.
func TestPasswordConfirmationLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		tries := []func(pw string) error{
			func(pw string) error { return f.svc.ChangeEmail(f.ctx, u.ID, pw, "ada.new@example.com") },
			func(pw string) error { return f.svc.ChangePassword(f.ctx, u.ID, pw, "another long passphrase here") },
			func(pw string) error { return f.svc.DeleteAccount(f.ctx, u.ID, pw) },
		}
		for i := range account.CodeFailureLimit {
			if err := tries[i%len(tries)]("not my password"); err != account.ErrBadCredentials {
				t.Fatalf("wrong password %d: %v", i+1, err)
			}
		}
		var le *account.LockedError
		for i, try := range tries {
			if err := try(goodPassword); !errors.As(err, &le) || le.RetryAfter <= 0 {
				t.Fatalf("form %d after the limit, right password: %v", i, err)
			}
		}
		if err := f.svc.DisableTOTP(f.ctx, u.ID, goodPassword, "123456"); !errors.As(err, &le) {
			t.Fatalf("turning two-factor off after the limit: %v", err)
		}
		if _, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword); !errors.As(err, &le) {
			t.Fatalf("turning two-factor on after the limit: %v", err)
		}
		if got, err := f.svc.User(f.ctx, u.ID); err != nil || got.Email != "ada@example.com" {
			t.Fatalf("the account changed under the lock: %+v %v", got, err)
		}
		f.clock.Add(account.FailureWindow + time.Second)
		if err := f.svc.ChangeEmail(f.ctx, u.ID, goodPassword, "ada.new@example.com"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

// Registration from the public form is limited per client address, counted
// whatever the outcome; the owner of a taken email is told by mail, at most
// once an hour.
func TestRegisterLimitAndAttemptNotice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		owner := f.register("ada@example.com", "")
		for i := range account.RegisterLimitPerAddress {
			// New, taken and bad registrations all count.
			var err error
			switch i % 3 {
			case 0:
				_, err = f.svc.Register(f.ctx, account.Registration{Email: fmt.Sprintf("new%d@example.com", i), Password: goodPassword, ClientIP: "2001:db8:5:6::1"})
			case 1:
				_, err = f.svc.Register(f.ctx, account.Registration{Email: "ada@example.com", Password: goodPassword, ClientIP: "2001:db8:5:6::2"})
				if err != account.ErrEmailTaken {
					t.Fatalf("taken: %v", err)
				}
				err = nil
			case 2:
				_, err = f.svc.Register(f.ctx, account.Registration{Email: "short@example.com", Password: "short", ClientIP: "2001:db8:5:6::3"})
				if inputField(err) != "password" {
					t.Fatalf("bad password: %v", err)
				}
				err = nil
			}
			if err != nil {
				t.Fatalf("registration %d: %v", i+1, err)
			}
		}
		// The next one from the same /64 is refused before anything is
		// checked or written.
		_, err := f.svc.Register(f.ctx, account.Registration{Email: "late@example.com", Password: goodPassword, ClientIP: "2001:db8:5:6::9"})
		if wait := lockedFor(t, err); wait <= 0 || wait > account.LinkLimitWindow {
			t.Errorf("retry after %s", wait)
		}
		if _, err := f.svc.Store.UserByEmail(f.ctx, "late@example.com"); err != account.ErrNoUser {
			t.Errorf("refused registration stored an account: %v", err)
		}
		// Another address, and the CLI (no address), are not limited.
		if _, err := f.svc.Register(f.ctx, account.Registration{Email: "late@example.com", Password: goodPassword, ClientIP: "2001:db8:5:7::1"}); err != nil {
			t.Errorf("other address: %v", err)
		}
		if _, err := f.svc.Register(f.ctx, account.Registration{Email: "cli@example.com", Password: goodPassword}); err != nil {
			t.Errorf("no address: %v", err)
		}
		// A shop that turned the limit off (--register-rate-limit 0).
		off := &account.Service{Store: db, Now: f.clock.Now, RegisterLimit: -1}
		if _, err := off.Register(f.ctx, account.Registration{Email: "unlimited@example.com", Password: goodPassword, ClientIP: "2001:db8:5:6::9"}); err != nil {
			t.Errorf("limit off: %v", err)
		}

		// The attempt notice: queued for an existing account only, once
		// an hour, and its mail names the account's address.
		attempts := func() []mail.Queued { return f.queued(account.MailRegisterAttempt) }
		for range 3 {
			if err := f.svc.NotifyRegisterAttempt(f.ctx, " ADA@example.com"); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.svc.NotifyRegisterAttempt(f.ctx, "nobody@example.com"); err != nil {
			t.Fatal(err)
		}
		q := attempts()
		if len(q) != 1 {
			t.Fatalf("%d attempt notices, want 1", len(q))
		}
		c, err := f.svc.MailContent(f.ctx, q[0].Kind, q[0].Ref)
		if err != nil || c.To != "ada@example.com" || c.User.ID != owner.ID {
			t.Fatalf("notice content: %+v %v", c, err)
		}
		f.clock.Add(account.LinkLimitWindow)
		if err := f.svc.NotifyRegisterAttempt(f.ctx, "ada@example.com"); err != nil {
			t.Fatal(err)
		}
		if n := len(attempts()); n != 2 {
			t.Errorf("%d attempt notices an hour later, want 2", n)
		}
	})
}
