package account_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func sealer(t *testing.T, secret string) *account.Sealer {
	t.Helper()
	s, err := account.NewSealer([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealerRoundTrip(t *testing.T) {
	s := sealer(t, "shop secret one")
	a, err := s.Seal(7, "JBSWY3DPEHPK3PXP")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Seal(7, "JBSWY3DPEHPK3PXP")
	if !strings.HasPrefix(a, "v1:") || strings.Contains(a, "JBSWY3DP") || a == b {
		t.Fatalf("sealed %q and %q: want a v1 prefix, no plaintext, a fresh nonce each time", a, b)
	}
	if got, err := s.Open(7, a); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("open: %q %v", got, err)
	}
	for name, open := range map[string]func() (string, error){
		"another user": func() (string, error) { return s.Open(8, a) },
		"another key":  func() (string, error) { return sealer(t, "shop secret two").Open(7, a) },
		"altered":      func() (string, error) { return s.Open(7, a[:len(a)-2]+"AA") },
		"truncated":    func() (string, error) { return s.Open(7, "v1:abc") },
		"unknown v":    func() (string, error) { return s.Open(7, "v9:"+a[3:]) },
	} {
		if got, err := open(); !errors.Is(err, account.ErrSealed) || got != "" {
			t.Errorf("%s: %q %v, want ErrSealed", name, got, err)
		}
	}
	// A plaintext row from before sealing reads as it is.
	if got, err := s.Open(7, "JBSWY3DPEHPK3PXP"); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Errorf("plaintext row: %q %v", got, err)
	}
	if _, err := account.NewSealer(nil); err == nil {
		t.Error("an empty shop secret made a sealer")
	}
}

func TestTOTPSecretSealedAtRest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Sealer = sealer(t, "shop secret one")
		u := f.register("ada@example.com", "")
		e, err := f.svc.EnrollTOTP(f.ctx, u.ID, goodPassword)
		if err != nil {
			t.Fatal(err)
		}
		row, _ := db.UserByID(f.ctx, u.ID)
		if row.TOTPPending == e.Secret || !strings.HasPrefix(row.TOTPPending, "v1:") {
			t.Fatalf("pending secret stored as %q", row.TOTPPending)
		}
		again, err := f.svc.PendingEnrollment(f.ctx, u.ID)
		if err != nil || again.Secret != e.Secret || again.URL != e.URL {
			t.Fatalf("pending enrollment: %+v %v (want %s)", again, err, e.Secret)
		}
		if _, err := f.svc.ConfirmTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now())); err != nil {
			t.Fatal(err)
		}
		row, _ = db.UserByID(f.ctx, u.ID)
		if row.TOTPSecret == e.Secret || !strings.HasPrefix(row.TOTPSecret, "v1:") {
			t.Fatalf("active secret stored as %q", row.TOTPSecret)
		}
		if _, err := f.svc.PendingEnrollment(f.ctx, u.ID); err != account.ErrTOTPEnabled {
			t.Errorf("pending enrollment with 2FA on: %v", err)
		}
		f.clock.Add(30 * time.Second)
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now())); err != nil {
			t.Fatalf("verify with the sealed secret: %v", err)
		}
		// Another shop secret cannot open it: the code is refused, not accepted.
		other := &account.Service{Store: db, Now: f.clock.Now, Sealer: sealer(t, "shop secret two")}
		f.clock.Add(30 * time.Second)
		if err := other.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now())); !errors.Is(err, account.ErrSealed) {
			t.Errorf("verify under another key: %v, want ErrSealed", err)
		}
		// Nor can a service without a sealer.
		bare := &account.Service{Store: db, Now: f.clock.Now}
		if err := bare.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now())); !errors.Is(err, account.ErrSealed) {
			t.Errorf("verify without a sealer: %v, want ErrSealed", err)
		}
		// The refused attempts did not spend the step: the right key still can.
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(e.Secret, f.clock.Now())); err != nil {
			t.Errorf("verify after refusals: %v", err)
		}
	})
}

func TestPlaintextSecretResealed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		secret, _ := f.enable2FA(u) // no sealer: stored as before sealing
		row, _ := db.UserByID(f.ctx, u.ID)
		if row.TOTPSecret != secret {
			t.Fatalf("setup: stored %q", row.TOTPSecret)
		}
		f.svc.Sealer = sealer(t, "shop secret one")
		f.clock.Add(30 * time.Second)
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(secret, f.clock.Now())); err != nil {
			t.Fatalf("plaintext row under a sealer: %v", err)
		}
		row, _ = db.UserByID(f.ctx, u.ID)
		if !strings.HasPrefix(row.TOTPSecret, "v1:") {
			t.Fatalf("not resealed after a good code: %q", row.TOTPSecret)
		}
		f.clock.Add(30 * time.Second)
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(secret, f.clock.Now())); err != nil {
			t.Errorf("resealed secret: %v", err)
		}
		// A wrong code does not reseal anything (nothing to prove it).
		u2 := f.register("bob@example.com", "")
		f.svc.Sealer = nil
		secret2, _ := f.enable2FA(u2)
		f.svc.Sealer = sealer(t, "shop secret one")
		_ = f.svc.VerifyTOTP(f.ctx, u2.ID, "000000")
		if row, _ := db.UserByID(f.ctx, u2.ID); row.TOTPSecret != secret2 {
			t.Errorf("a wrong code rewrote the secret: %q", row.TOTPSecret)
		}
	})
}

func TestNewRecoveryCodes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Sealer = sealer(t, "shop secret one")
		u := f.register("ada@example.com", "")
		if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", goodPassword); err != account.ErrTOTPNotEnabled {
			t.Errorf("with 2FA off: %v", err)
		}
		secret, old := f.enable2FA(u)
		// Refusals change nothing.
		if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", ""); inputField(err) != "code" {
			t.Errorf("no proof: %v", err)
		}
		if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", "wrong password!"); err != account.ErrBadCredentials {
			t.Errorf("wrong password: %v", err)
		}
		if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, f.code(secret, f.clock.Now()), ""); err != account.ErrCodeReused {
			t.Errorf("the confirming code again: %v", err)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, old[0]); err != nil {
			t.Fatalf("old code after refusals: %v", err)
		}
		f.clock.Add(30 * time.Second)
		fresh, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, f.code(secret, f.clock.Now()), "")
		if err != nil || len(fresh) != account.RecoveryCodes {
			t.Fatalf("with a code: %d codes, %v", len(fresh), err)
		}
		if n, _ := f.svc.RecoveryCodesLeft(f.ctx, u.ID); n != account.RecoveryCodes {
			t.Errorf("%d codes left, want %d", n, account.RecoveryCodes)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, old[1]); err != account.ErrCodeInvalid {
			t.Errorf("an old code after renewal: %v", err)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, fresh[0]); err != nil {
			t.Errorf("a new code: %v", err)
		}
		byPassword, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", goodPassword)
		if err != nil || len(byPassword) != account.RecoveryCodes || byPassword[0] == fresh[0] {
			t.Fatalf("with the password: %v %v", byPassword, err)
		}
		if err := f.svc.UseRecoveryCode(f.ctx, u.ID, fresh[1]); err != account.ErrCodeInvalid {
			t.Errorf("a replaced code: %v", err)
		}
	})
}

func TestWrongPasswordForRecoveryCodesLimited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		f.enable2FA(u)
		for i := range account.CodeFailureLimit {
			if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", "wrong password!"); err != account.ErrBadCredentials {
				t.Fatalf("attempt %d: %v", i+1, err)
			}
		}
		var le *account.LockedError
		if _, err := f.svc.NewRecoveryCodes(f.ctx, u.ID, "", goodPassword); !errors.As(err, &le) || le.RetryAfter <= 0 {
			t.Fatalf("after %d wrong passwords: %v, want *LockedError", account.CodeFailureLimit, err)
		}
	})
}

func TestCodeReusedNotice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		u := f.register("ada@example.com", "")
		secret, _ := f.enable2FA(u)
		notices := func() []mail.Queued { return f.queued(mail.KindAccountCodeReused) }
		if n := len(notices()); n != 0 {
			t.Fatalf("%d notices before any replay", n)
		}
		// A wrong code is not a replay.
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, "000000"); err == nil {
			t.Fatal("000000 accepted")
		}
		if n := len(notices()); n != 0 {
			t.Fatalf("%d notices after a wrong code", n)
		}
		code := f.code(secret, f.clock.Now()) // the confirming step: used
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, code); err != account.ErrCodeReused {
			t.Fatalf("replay: %v", err)
		}
		q := notices()
		if len(q) != 1 || !strings.HasPrefix(q[0].Ref, strconv.FormatInt(u.ID, 10)+".") {
			t.Fatalf("after a replay: %+v", q)
		}
		// More replays in the same hour: still one notice.
		f.clock.Add(10 * time.Minute)
		_ = f.svc.VerifyTOTP(f.ctx, u.ID, code)
		if n := len(notices()); n != 1 {
			t.Errorf("%d notices after two replays in an hour", n)
		}
		f.clock.Add(time.Hour)
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, code); err != account.ErrCodeInvalid && err != account.ErrCodeReused {
			t.Fatalf("old code an hour later: %v", err)
		}
		// An hour later the old code is out of the window: invalid, no notice.
		if n := len(notices()); n != 1 {
			t.Errorf("%d notices after an expired code", n)
		}
		now := f.clock.Now()
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(secret, now)); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.VerifyTOTP(f.ctx, u.ID, f.code(secret, now)); err != account.ErrCodeReused {
			t.Fatalf("second replay: %v", err)
		}
		if n := len(notices()); n != 2 {
			t.Errorf("%d notices after a replay in the next hour, want 2", n)
		}
	})
}
