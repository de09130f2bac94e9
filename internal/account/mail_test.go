package account_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestSealer(t *testing.T) {
	s := sealer(t, "one shop's secret")
	sealed := s.SealToken("the token", "hash-a")
	if strings.Contains(sealed, "the token") {
		t.Fatal("the seal shows the token")
	}
	if got, err := s.OpenToken(sealed, "hash-a"); err != nil || got != "the token" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := s.OpenToken(sealed, "hash-b"); !errors.Is(err, account.ErrSealed) {
		t.Errorf("opened for another row: %v", err)
	}
	if _, err := sealer(t, "another shop's secret").OpenToken(sealed, "hash-a"); !errors.Is(err, account.ErrSealed) {
		t.Errorf("opened under another secret: %v", err)
	}
	if _, err := s.OpenToken(sealed[:len(sealed)-2]+"AA", "hash-a"); !errors.Is(err, account.ErrSealed) {
		t.Errorf("tampered seal opened: %v", err)
	}
}

// A link's mail carries its token while the link is live; a used or
// expired link, or a verification for an email the account left, is void.
func TestMailContent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Sealer = sealer(t, "one shop's secret")
		u := f.register("ada@example.com", "ada")
		tok, _, err := f.svc.RequestReset(f.ctx, "ada", "192.0.2.1")
		if err != nil || tok == "" {
			t.Fatal(tok, err)
		}
		c, err := f.svc.MailContent(f.ctx, account.MailPasswordReset, account.HashToken(tok))
		if err != nil || c.Token != tok || c.To != "ada@example.com" || c.User.ID != u.ID {
			t.Fatalf("content: %+v %v", c, err)
		}
		if _, err := f.svc.MailContent(f.ctx, account.MailVerifyEmail, account.HashToken(tok)); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("a reset read as a verification: %v", err)
		}
		if _, err := f.svc.ResetPassword(f.ctx, tok, "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.MailContent(f.ctx, account.MailPasswordReset, account.HashToken(tok)); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("used link: %v", err)
		}
		if r, _ := db.Reset(f.ctx, account.HashToken(tok)); r.Sealed != "" {
			t.Error("the seal outlived the use")
		}
		vt, _, err := f.svc.RequestEmailVerification(f.ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := f.svc.MailContent(f.ctx, account.MailVerifyEmail, account.HashToken(vt)); err != nil || c.Token != vt {
			t.Fatalf("verification: %+v %v", c, err)
		}
		f.clock.Add(account.VerifyLifetime)
		if _, err := f.svc.MailContent(f.ctx, account.MailVerifyEmail, account.HashToken(vt)); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("expired link: %v", err)
		}
		if _, err := f.svc.MailContent(f.ctx, account.MailPasswordChanged, "999999"); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("unknown notice: %v", err)
		}
		if _, err := f.svc.MailContent(f.ctx, "account_nope", "1"); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("unknown kind: %v", err)
		}
		// Without a sealer nothing is queued, but the token is returned.
		f.svc.Sealer = nil
		f.clock.Add(2 * time.Hour)
		tok2, _, err := f.svc.RequestReset(f.ctx, "ada@example.com", "")
		if err != nil || tok2 == "" {
			t.Fatal(err)
		}
		if _, err := f.svc.MailContent(f.ctx, account.MailPasswordReset, account.HashToken(tok2)); !errors.Is(err, account.ErrMailVoid) {
			t.Errorf("unsealed link: %v", err)
		}
	})
}

// Lost-password requests: more than the address limit is *LockedError
// whatever the login; beyond the account limit answers quietly with no link.
func TestRequestResetLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.register("ada@example.com", "")
		for i := range account.ResetLimitPerAccount {
			if tok, _, err := f.svc.RequestReset(f.ctx, "ada@example.com", "192.0.2.1"); tok == "" || err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
		}
		tok, u, err := f.svc.RequestReset(f.ctx, "ada@example.com", "192.0.2.2")
		if tok != "" || u != nil || err != nil {
			t.Errorf("over the account limit: %q %v %v", tok, u, err)
		}
		for range account.ResetLimitPerAddress - account.ResetLimitPerAccount {
			if _, _, err := f.svc.RequestReset(f.ctx, "nobody@example.com", "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
		}
		var locked *account.LockedError
		if _, _, err := f.svc.RequestReset(f.ctx, "nobody@example.com", "192.0.2.1"); !errors.As(err, &locked) || locked.RetryAfter <= 0 {
			t.Errorf("over the address limit: %v", err)
		}
		f.clock.Add(account.LinkLimitWindow)
		if tok, _, err := f.svc.RequestReset(f.ctx, "ada@example.com", "192.0.2.1"); tok == "" || err != nil {
			t.Errorf("after the window: %v", err)
		}
	})
}
