package account_test

// Customers moved in from a WordPress shop: their WordPress hashes at
// login, the import of those hashes, and the invitations to set a
// password, on every configured engine.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Hashes of "correct horse battery" (goodPassword), computed outside Go
// (wppass_test.go says how).
const (
	wpPhpass = "$P$Bsaltsaltc/FDgntba538D7eNXZq/i1"
	wpBcrypt = "$2y$10$abcdefghijklmnopqrstuuCj7fyLDJytXL.TfOiOeiv0fQvSOK1/2"
	wp68     = "$wp$2y$10$ABCDEFGHIJKLMNOPQRSTUuu4vvg95ADwcdkqxOnKD5aKppYll6v2y"
)

// movedIn creates a customer as the WooCommerce migration does (no
// password) and records its old id.
func (f *fixture) movedIn(email string, oldID int64) *account.User {
	f.t.Helper()
	c, err := f.svc.CreateCustomer(f.ctx, account.CustomerEdit{Email: &email})
	if err != nil {
		f.t.Fatal(err)
	}
	f.legacy(c.ID, oldID)
	return &c.User
}

func (f *fixture) legacy(userID, oldID int64) {
	f.t.Helper()
	if err := f.db.PutLegacy(f.ctx, sqlstore.Legacy{Kind: "customer", OldID: oldID, NewID: userID}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) hash(id int64) string {
	f.t.Helper()
	u, err := f.db.UserByID(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return u.PasswordHash
}

func (f *fixture) importCSV(csv string) *account.PasswordImport {
	f.t.Helper()
	r, err := f.svc.ImportWordPressPasswords(f.ctx, strings.NewReader(csv))
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// An account made without a password cannot log in with any password.
func TestCustomerWithoutPassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.movedIn("ada@example.com", 7)
		if h := f.hash(u.ID); !account.HasNoPassword(h) {
			t.Fatalf("hash %q", h)
		}
		for _, pw := range []string{"", goodPassword, f.hash(u.ID), "!"} {
			if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", pw, ""); !errors.Is(err, account.ErrBadCredentials) {
				t.Errorf("%q: %v", pw, err)
			}
		}
	})
}

// Each WordPress format logs in through the login use case with the old
// password and is replaced by argon2id; a wrong password fails and
// leaves the hash as it was.
func TestWordPressHashLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		for i, h := range []string{wpPhpass, wpBcrypt, wp68} {
			email := []string{"phpass@example.com", "bcrypt@example.com", "wp68@example.com"}[i]
			u := f.movedIn(email, int64(100+i))
			if r := f.importCSV("user_email,user_pass\n" + email + "," + h + "\n"); r.Applied != 1 {
				t.Fatalf("%s: import %+v", h, r)
			}
			if _, err := f.svc.Authenticate(f.ctx, email, goodPassword+"x", "192.0.2.1"); !errors.Is(err, account.ErrBadCredentials) {
				t.Fatalf("%s: wrong password: %v", h, err)
			}
			if got := f.hash(u.ID); got != h {
				t.Fatalf("%s: a wrong password rehashed to %s", h, got)
			}
			l, err := f.svc.Authenticate(f.ctx, email, goodPassword, "192.0.2.1")
			if err != nil || l.User.ID != u.ID {
				t.Fatalf("%s: login: %v", h, err)
			}
			got := f.hash(u.ID)
			p, _, _, err := argon2id.DecodeHash(got)
			if err != nil || *p != *account.HashParams {
				t.Fatalf("%s: not rehashed to argon2id: %s", h, got)
			}
			if _, err := f.svc.Authenticate(f.ctx, email, goodPassword, "192.0.2.1"); err != nil {
				t.Fatalf("%s: second login: %v", h, err)
			}
			if f.hash(u.ID) != got {
				t.Errorf("%s: rehashed twice", h)
			}
		}
	})
}

// The import applies to moved-in customers without a password of their
// own, reports every other row, and a second run changes nothing.
func TestImportWordPressPasswords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ada := f.movedIn("ada@example.com", 1)
		bob := f.movedIn("bob@example.com", 2)
		own := f.register("own@example.com", "") // linked by the migration: kept its password
		f.legacy(own.ID, 3)
		ownHash := f.hash(own.ID)
		f.register("local@example.com", "")
		odd := f.movedIn("odd@example.com", 4)
		none := f.movedIn("none@example.com", 5) // not in the file

		// A wp_users export: other columns, another order, a byte-order
		// mark, quoted fields, an email in capitals.
		file := "\ufeffID,user_login,user_pass,user_nicename,user_email,display_name\n" +
			`1,ada,` + wpPhpass + `,ada,ADA@Example.com,"Ada, L."` + "\n" +
			`2,bob,"` + wp68 + `",bob,bob@example.com,Bob` + "\n" +
			`3,own,` + wpBcrypt + `,own,own@example.com,Own` + "\n" +
			`4,local,` + wpBcrypt + `,local,local@example.com,Local` + "\n" +
			`5,ghost,` + wpBcrypt + `,ghost,ghost@example.com,Ghost` + "\n" +
			`6,odd,$1$abc$def,odd,odd@example.com,Odd` + "\n" +
			`7,ada2,` + wpBcrypt + `,ada,ada@example.com,Ada again` + "\n" +
			`8,nomail,` + wpBcrypt + `,nomail,,No mail` + "\n"

		// A bad file first: a clear error, nothing changed.
		for name, bad := range map[string]string{
			"empty":           "",
			"no user_pass":    "user_email,hash\nada@example.com," + wpPhpass + "\n",
			"fields":          "user_email,user_pass\nada@example.com," + wpPhpass + ",extra\n",
			"quote":           "user_email,user_pass\n\"ada@example.com," + wpPhpass + "\n",
			"half good file":  "user_email,user_pass\nada@example.com," + wpPhpass + "\nbob@example.com\n",
			"header only bad": "user_email;user_pass\nada@example.com;" + wpPhpass + "\n",
		} {
			r, err := f.svc.ImportWordPressPasswords(f.ctx, strings.NewReader(bad))
			if !errors.Is(err, account.ErrBadPasswordsCSV) || r != nil {
				t.Errorf("%s: %+v %v", name, r, err)
			}
		}
		if !account.HasNoPassword(f.hash(ada.ID)) || !account.HasNoPassword(f.hash(bob.ID)) {
			t.Fatal("a bad file changed a hash")
		}

		r := f.importCSV(file)
		if r.Rows != 8 || r.Applied != 2 || r.Unchanged != 0 {
			t.Fatalf("import: %+v", r)
		}
		want := map[string]int{account.SkipOwnPassword: 1, account.SkipNotMovedIn: 1, account.SkipUnknownEmail: 2,
			account.SkipUnknownFormat: 1, account.SkipDuplicate: 1}
		for reason, n := range want {
			if r.Count(reason) != n {
				t.Errorf("%s: %d, want %d (%+v)", reason, r.Count(reason), n, r.Skipped)
			}
		}
		if s := r.Skipped[0]; s.Line != 4 || s.Email != "own@example.com" || s.Reason != account.SkipOwnPassword {
			t.Errorf("first skipped row: %+v", s)
		}
		if f.hash(ada.ID) != wpPhpass || f.hash(bob.ID) != wp68 {
			t.Fatal("hashes not applied")
		}
		if f.hash(own.ID) != ownHash || !account.HasNoPassword(f.hash(odd.ID)) || !account.HasNoPassword(f.hash(none.ID)) {
			t.Error("a skipped row changed a hash")
		}
		if _, err := f.svc.Authenticate(f.ctx, "local@example.com", goodPassword, ""); err != nil {
			t.Errorf("an account that did not move in lost its password: %v", err)
		}

		// Idempotent: the same file again applies nothing.
		r2 := f.importCSV(file)
		if r2.Applied != 0 || r2.Unchanged != 2 || len(r2.Skipped) != len(r.Skipped) {
			t.Errorf("second run: %+v", r2)
		}
		// Once Ada logged in (rehashed), her password is her own here.
		if _, err := f.svc.Authenticate(f.ctx, "ada@example.com", goodPassword, ""); err != nil {
			t.Fatal(err)
		}
		r3 := f.importCSV(file)
		if r3.Applied != 0 || r3.Unchanged != 1 || r3.Count(account.SkipOwnPassword) != 2 {
			t.Errorf("after a login: %+v", r3)
		}
		// A newer export with another WordPress hash for Bob (never logged
		// in here) replaces the older one.
		if r4 := f.importCSV("user_email,user_pass\nbob@example.com," + wpBcrypt + "\n"); r4.Applied != 1 || f.hash(bob.ID) != wpBcrypt {
			t.Errorf("newer export: %+v", r4)
		}
	})
}

// inviteFixture: moved-in customers in every state, a sealer.
func inviteFixture(t *testing.T, db *sqlstore.DB) (*fixture, map[string]*account.User) {
	f := newFixture(t, db)
	f.svc.Sealer = sealer(t, "the shop's secret")
	us := map[string]*account.User{}
	for i, name := range []string{"ann", "ben", "cat", "wp"} {
		us[name] = f.movedIn(name+"@example.com", int64(10+i))
	}
	f.importCSV("user_email,user_pass\nwp@example.com," + wpBcrypt + "\n")
	us["own"] = f.register("own@example.com", "")
	f.legacy(us["own"].ID, 20)
	f.movedIn("twice@example.com", 21)
	twice, _ := db.UserByEmail(f.ctx, "twice@example.com")
	f.legacy(twice.ID, 22) // two old ids, one account: invited once
	us["twice"] = twice
	// Not moved in, without a password (the back office): never invited.
	email := "backoffice@example.com"
	if _, err := f.svc.CreateCustomer(f.ctx, account.CustomerEdit{Email: &email}); err != nil {
		t.Fatal(err)
	}
	return f, us
}

func emails(in []account.Invitee) string {
	var out []string
	for _, i := range in {
		out = append(out, strings.TrimSuffix(i.Email, "@example.com"))
	}
	return strings.Join(out, ",")
}

// Invitations: once each, spread to the rate, their link sets a password
// once; a dry run changes nothing; a second run sends nothing; --again
// replaces the link of those still without a password.
func TestInviteMovedIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f, us := inviteFixture(t, db)
		now := f.clock.Now()

		dry, err := f.svc.InviteMovedIn(f.ctx, account.InviteOptions{DryRun: true})
		if err != nil || emails(dry.Invited) != "ann,ben,cat,twice" || dry.HavePassword != 2 || dry.AlreadyInvited != 0 {
			t.Fatalf("dry run: %+v %v", dry, err)
		}
		if q := f.queued(account.MailInvitation); len(q) != 0 {
			t.Fatalf("a dry run queued %d", len(q))
		}
		if _, err := (&account.Service{Store: db, Now: f.clock.Now}).InviteMovedIn(f.ctx, account.InviteOptions{}); !errors.Is(err, account.ErrNoSealer) {
			t.Errorf("without a sealer: %v", err)
		}

		res, err := f.svc.InviteMovedIn(f.ctx, account.InviteOptions{PerMinute: 20})
		if err != nil || emails(res.Invited) != "ann,ben,cat,twice" || res.HavePassword != 2 {
			t.Fatalf("invite: %+v %v", res, err)
		}
		q := f.queued(account.MailInvitation)
		if len(q) != 4 {
			t.Fatalf("queued %d", len(q))
		}
		due := map[time.Time]bool{}
		for i, inv := range res.Invited {
			if want := now.Add(time.Duration(3*i) * time.Second); !inv.DueAt.Equal(want) {
				t.Errorf("%s due %v, want %v", inv.Email, inv.DueAt, want)
			}
			due[inv.DueAt] = true
		}
		for _, m := range q {
			if !due[m.NextAttemptAt] {
				t.Errorf("outbox row due %v, not an invitation's time", m.NextAttemptAt)
			}
		}
		// The outbox claims only what is due: one now, the next 3 s later.
		if c, err := db.ClaimMail(f.ctx, now, time.Minute, 100); err != nil || len(c) != 1 || c[0].Kind != account.MailInvitation {
			t.Fatalf("claimed at once: %+v %v", c, err)
		}
		if c, _ := db.ClaimMail(f.ctx, now.Add(3*time.Second), time.Minute, 100); len(c) != 1 {
			t.Fatalf("claimed 3 s later: %d", len(c))
		}

		// The mail's content: the token of a 14-day reset link.
		tokens := map[string]string{}
		for _, m := range q {
			c, err := f.svc.MailContent(f.ctx, m.Kind, m.Ref)
			if err != nil || c.Token == "" || !c.ExpiresAt.Equal(now.Add(account.InviteLifetime)) {
				t.Fatalf("content: %+v %v", c, err)
			}
			tokens[c.User.Email] = c.Token
		}

		// A second run invites nobody.
		again, err := f.svc.InviteMovedIn(f.ctx, account.InviteOptions{})
		if err != nil || len(again.Invited) != 0 || again.AlreadyInvited != 4 || len(f.queued(account.MailInvitation)) != 4 {
			t.Fatalf("second run: %+v %v", again, err)
		}

		// Ann sets her password with the link (13 days later) and logs in.
		f.clock.Add(13 * 24 * time.Hour)
		if _, err := f.svc.CheckReset(f.ctx, tokens["ann@example.com"]); err != nil {
			t.Fatalf("link after 13 days: %v", err)
		}
		if _, err := f.svc.ResetPassword(f.ctx, tokens["ann@example.com"], "Ann's new password"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(f.ctx, "ann@example.com", "Ann's new password", ""); err != nil {
			t.Fatalf("login after the invitation: %v", err)
		}
		if _, err := f.svc.ResetPassword(f.ctx, tokens["ann@example.com"], "Another password 2"); !errors.Is(err, account.ErrResetInvalid) {
			t.Errorf("the link worked twice: %v", err)
		}
		// Ben's password arrives by import: his queued mail is void.
		f.importCSV("user_email,user_pass\nben@example.com," + wp68 + "\n")
		for _, m := range q {
			if _, err := f.svc.MailContent(f.ctx, m.Kind, m.Ref); (m.Ref == account.HashToken(tokens["ben@example.com"])) != errors.Is(err, account.ErrMailVoid) &&
				m.Ref != account.HashToken(tokens["ann@example.com"]) {
				t.Errorf("mail %s: %v", m.Ref, err)
			}
		}

		// --again: Cat and Twice only (the others have a password now), new
		// links; the old ones stop working.
		res3, err := f.svc.InviteMovedIn(f.ctx, account.InviteOptions{Again: true, PerMinute: 60})
		if err != nil || emails(res3.Invited) != "cat,twice" || !res3.Invited[0].Again || res3.HavePassword != 4 {
			t.Fatalf("again: %+v %v", res3, err)
		}
		if _, err := f.svc.CheckReset(f.ctx, tokens["cat@example.com"]); !errors.Is(err, account.ErrResetInvalid) {
			t.Errorf("the replaced link still works: %v", err)
		}
		if len(f.queued(account.MailInvitation)) != 6 {
			t.Errorf("queued %d", len(f.queued(account.MailInvitation)))
		}
		moved, _ := db.MovedInCustomers(f.ctx)
		for _, m := range moved {
			if m.UserID == us["cat"].ID && (m.Invitations != 2 || !m.InvitedAt.Equal(f.clock.Now())) {
				t.Errorf("cat's invitation: %+v", m)
			}
		}
		// The links expire after 14 days.
		f.clock.Add(account.InviteLifetime)
		if _, err := f.svc.CheckReset(f.ctx, mustToken(t, f, us["cat"].ID)); !errors.Is(err, account.ErrResetInvalid) {
			t.Errorf("expired link: %v", err)
		}
	})
}

// mustToken opens the latest invitation link of userID from its mail.
func mustToken(t *testing.T, f *fixture, userID int64) string {
	t.Helper()
	moved, err := f.db.MovedInCustomers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moved {
		if m.UserID == userID {
			r, err := f.db.Reset(f.ctx, m.InviteHash)
			if err != nil {
				t.Fatal(err)
			}
			tok, err := f.svc.Sealer.OpenToken(r.Sealed, m.InviteHash)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
	}
	t.Fatalf("user %d not moved in", userID)
	return ""
}

// A password set while the invitation is being made wins: nothing is
// queued for that account.
func TestInviteRaced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f, us := inviteFixture(t, db)
		err := db.InsertInvitation(f.ctx, us["ann"].ID, &account.Invitation{
			Reset:        account.PasswordReset{TokenHash: "h1", UserID: us["ann"].ID, CreatedAt: f.clock.Now(), ExpiresAt: f.clock.Now().Add(time.Hour)},
			DueAt:        f.clock.Now(),
			PasswordHash: "not the hash it has"})
		if !errors.Is(err, account.ErrInvitationRaced) {
			t.Fatalf("stale hash: %v", err)
		}
		if _, err := db.Reset(f.ctx, "h1"); !errors.Is(err, account.ErrNoRow) || len(f.queued(account.MailInvitation)) != 0 {
			t.Fatalf("a refused invitation wrote: %v", err)
		}
		if _, err := f.svc.InviteMovedIn(f.ctx, account.InviteOptions{}); err != nil {
			t.Fatal(err)
		}
		// A second first invitation for the same account is refused too.
		err = db.InsertInvitation(f.ctx, us["ann"].ID, &account.Invitation{
			Reset:        account.PasswordReset{TokenHash: "h2", UserID: us["ann"].ID, CreatedAt: f.clock.Now(), ExpiresAt: f.clock.Now().Add(time.Hour)},
			DueAt:        f.clock.Now(),
			PasswordHash: f.hash(us["ann"].ID)})
		if !errors.Is(err, account.ErrInvitationRaced) {
			t.Fatalf("invited twice: %v", err)
		}
		// A deleted account takes its invitation along.
		if err := f.svc.Store.DeleteUser(f.ctx, us["ann"].ID); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.Read.GetContext(f.ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM account_invitations WHERE user_id = ?`), us["ann"].ID); err != nil || n != 0 {
			t.Errorf("invitations left: %d %v", n, err)
		}
	})
}
