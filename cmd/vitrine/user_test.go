package main_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"vitrine/internal/account"
	"vitrine/internal/storage/storetest"
)

// run runs the binary with stdin and answers its output and exit status.
func run(t *testing.T, bin, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// `vitrine user create` and `user set-role` against a real store: the
// password from stdin only, clear refusals (exit 2) for bad input, and a
// role change that ends the user's sessions.
func TestUserCommand(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		db := []string{"--db", dsn, "--log-level", "warn"}
		user := func(stdin string, args ...string) (string, int) {
			return run(t, bin, stdin, append(append(db, "user"), args...)...)
		}
		out, code := user("a long admin password\n", "create", "--email", "Boss@Example.com", "--username", "boss", "--role", "administrator", "--password-stdin")
		if code != 0 || !strings.Contains(out, "created administrator boss@example.com") {
			t.Fatalf("create: %d %s", code, out)
		}
		for _, c := range []struct {
			stdin string
			args  []string
			want  string
		}{
			{"a long admin password\n", []string{"create", "--email", "x@example.com", "--role", "king", "--password-stdin"}, `unknown role "king"`},
			{"a long admin password\n", []string{"create", "--email", "boss@example.com", "--role", "customer", "--password-stdin"}, "already registered"},
			{"short\n", []string{"create", "--email", "y@example.com", "--role", "customer", "--password-stdin"}, "password:"},
			{"", []string{"create", "--email", "z@example.com", "--role", "customer", "--password-stdin"}, "no password on stdin"},
			{"a long admin password\n", []string{"create", "--email", "z@example.com", "--role", "customer"}, "not a terminal"},
			{"", []string{"create", "--email", "z@example.com", "--role", "customer", "--password", "hunter2hunter2"}, "flag provided but not defined: -password"},
			{"", []string{"create", "--role", "customer"}, "--email is required"},
			{"", []string{"set-role", "--email", "nobody@example.com", "--role", "customer"}, "no account has the email"},
			{"", []string{"delete"}, "usage: vitrine user create"},
		} {
			out, code := user(c.stdin, c.args...)
			if code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s", c.args, code, out)
			}
		}

		// The shop's flags may also follow the command (README, "Subcommands").
		out, code = run(t, bin, "a long customer password\n", "user", "create", "--email", "after@example.com", "--db", dsn,
			"--role", "customer", "--password-stdin", "--log-level", "warn")
		if code != 0 || !strings.Contains(out, "created customer after@example.com") {
			t.Fatalf("create with --db after user: %d %s", code, out)
		}

		// Nothing else was created; the admin logs in with the piped password.
		st := storetest.OpenDSN(t, dsn)
		ctx := context.Background()
		svc := &account.Service{Store: st}
		for _, e := range []string{"x@example.com", "y@example.com", "z@example.com"} {
			if _, err := st.UserByEmail(ctx, e); !errors.Is(err, account.ErrNoUser) {
				t.Errorf("%s was created: %v", e, err)
			}
		}
		if u, err := st.UserByEmail(ctx, "after@example.com"); err != nil || u.Role != account.RoleCustomer {
			t.Errorf("after@example.com: %+v %v", u, err)
		}
		login, err := svc.Authenticate(ctx, "boss", "a long admin password", "")
		if err != nil || login.User.Role != account.RoleAdministrator {
			t.Fatalf("login: %+v %v", login, err)
		}
		tok, _, err := svc.CreateSession(ctx, login.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		out, code = user("", "set-role", "--email", "boss@example.com", "--role", "shop_manager")
		if code != 0 || !strings.Contains(out, "boss@example.com is now shop_manager (was administrator)") {
			t.Fatalf("set-role: %d %s", code, out)
		}
		if u, _ := st.UserByEmail(ctx, "boss@example.com"); u.Role != account.RoleShopManager {
			t.Errorf("role: %s", u.Role)
		}
		if _, err := svc.Session(ctx, tok); !errors.Is(err, account.ErrNoSession) {
			t.Errorf("the session survived the role change: %v", err)
		}

		// two-factor-off: the shop's recovery for an owner who lost both
		// the app and the recovery codes (a password reset keeps it on).
		if out, code := user("", "two-factor-off", "--email", "boss@example.com"); code != 2 || !strings.Contains(out, "has no two-factor authentication") {
			t.Errorf("two-factor-off without it: %d %s", code, out)
		}
		if out, code := user("", "two-factor-off", "--email", "nobody@example.com"); code != 2 || !strings.Contains(out, "no account has the email") {
			t.Errorf("two-factor-off, unknown email: %d %s", code, out)
		}
		e, err := svc.EnrollTOTP(ctx, login.User.ID, "a long admin password")
		if err != nil {
			t.Fatal(err)
		}
		code6, err := totp.GenerateCode(e.Secret, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.ConfirmTOTP(ctx, login.User.ID, code6); err != nil {
			t.Fatal(err)
		}
		tok, _, err = svc.CreateSession(ctx, login.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		out, code = user("", "two-factor-off", "--email", "Boss@Example.com")
		if code != 0 || !strings.Contains(out, "two-factor authentication is off for boss@example.com") {
			t.Fatalf("two-factor-off: %d %s", code, out)
		}
		if u, _ := st.UserByEmail(ctx, "boss@example.com"); u.TwoFactor() || u.TOTPPending != "" {
			t.Error("two-factor still on")
		}
		if n, _ := svc.RecoveryCodesLeft(ctx, login.User.ID); n != 0 {
			t.Errorf("%d recovery codes left", n)
		}
		if _, err := svc.Session(ctx, tok); !errors.Is(err, account.ErrNoSession) {
			t.Errorf("a session survived two-factor-off: %v", err)
		}
	})
}
