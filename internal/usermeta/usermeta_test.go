package usermeta_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/usermeta"
)

func newUser(t *testing.T, db *sqlstore.DB, email string) int64 {
	t.Helper()
	id, err := db.CreateUser(context.Background(), &account.User{Email: email, DisplayName: email, Role: account.RoleShopManager,
		PasswordHash: "x", CreatedAt: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestBannerFlag(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := &usermeta.Service{Store: db}
		a, b := newUser(t, db, "a@example.com"), newUser(t, db, "b@example.com")

		if d, err := s.BannerDismissed(ctx, a); err != nil || d {
			t.Fatalf("fresh user: dismissed=%v err=%v, want false", d, err)
		}
		m, err := s.Update(ctx, a, a, map[string]string{usermeta.KeyComingSoonBannerDismissed: "yes"})
		if err != nil || m.ComingSoonBannerDismissed != "yes" {
			t.Fatalf("dismiss: %+v %v", m, err)
		}
		if d, _ := s.BannerDismissed(ctx, a); !d {
			t.Fatal("dismissal not kept")
		}
		if d, _ := s.BannerDismissed(ctx, b); d {
			t.Fatal("one user's dismissal leaked to another")
		}

		// Someone else's settings, unknown keys and bad values change nothing.
		if _, err := s.Update(ctx, a, b, map[string]string{usermeta.KeyComingSoonBannerDismissed: "yes"}); !errors.Is(err, usermeta.ErrForbidden) {
			t.Fatalf("other user: err=%v, want ErrForbidden", err)
		}
		var ie *usermeta.InputError
		if _, err := s.Update(ctx, b, b, map[string]string{usermeta.KeyComingSoonBannerDismissed: "maybe"}); !errors.As(err, &ie) {
			t.Fatalf("bad value: err=%v, want InputError", err)
		}
		if _, err := s.Update(ctx, b, b, map[string]string{usermeta.KeyComingSoonBannerDismissed: "yes", "role": "administrator"}); !errors.As(err, &ie) {
			t.Fatalf("unknown key: err=%v, want InputError", err)
		}
		if d, _ := s.BannerDismissed(ctx, b); d {
			t.Fatal("a refused update wrote the flag")
		}

		// A login shows the banner again.
		if err := s.ResetAtLogin(ctx, a); err != nil {
			t.Fatal(err)
		}
		if d, _ := s.BannerDismissed(ctx, a); d {
			t.Fatal("the flag survived the login")
		}
		// The row goes with the user.
		if err := db.DeleteUser(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := db.UserMeta(ctx, a, usermeta.KeyComingSoonBannerDismissed); ok || err != nil {
			t.Fatalf("meta of a deleted user: ok=%v err=%v", ok, err)
		}
	})
}
