package main_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"vitrine/internal/integration"
	"vitrine/internal/storage/storetest"
)

// `vitrine api-key create|list|revoke` against a real store: the key and
// secret printed once, a key that authenticates as its user, the list
// without secrets, revocation, and clear refusals (exit 2) for bad input.
func TestAPIKeyCommand(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		db := []string{"--db", dsn, "--log-level", "warn"}
		if out, code := run(t, bin, "a long admin password\n", append(db, "user", "create", "--email", "boss@example.com", "--role", "shop_manager", "--password-stdin")...); code != 0 {
			t.Fatalf("user create: %d %s", code, out)
		}
		key := func(args ...string) (string, int) { return run(t, bin, "", append(append(db, "api-key"), args...)...) }
		out, code := key("create", "--email", "Boss@Example.com", "--permissions", "read_write", "--description", "Accounting sync")
		m := regexp.MustCompile(`^consumer_key=(ck_[0-9a-f]{40}) consumer_secret=(cs_[0-9a-f]{40})\n$`).FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("create: %d %q", code, out)
		}
		st := storetest.OpenDSN(t, dsn)
		ctx := context.Background()
		svc := &integration.Service{Store: st}
		auth, err := svc.Basic(ctx, m[1], m[2], "192.0.2.1")
		if err != nil || auth.User.Email != "boss@example.com" || auth.Key.Permissions != integration.ReadWrite || auth.Key.Description != "Accounting sync" {
			t.Fatalf("the printed key: %+v %v", auth, err)
		}

		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"create", "--email", "boss@example.com", "--permissions", "admin", "--description", "x"}, `unknown permissions "admin"`},
			{[]string{"create", "--email", "boss@example.com", "--permissions", "read"}, "--description is required"},
			{[]string{"create", "--permissions", "read", "--description", "x"}, "--email is required"},
			{[]string{"create", "--email", "nobody@example.com", "--permissions", "read", "--description", "x"}, "no account has the email"},
			{[]string{"revoke", "x"}, "is not a key id"},
			{[]string{"revoke", "999"}, "no API key has the id 999"},
			{[]string{"rotate"}, "usage: vitrine api-key create"},
		} {
			if out, code := key(c.args...); code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s", c.args, code, out)
			}
		}

		out, code = key("list")
		if code != 0 || !strings.Contains(out, "boss@example.com") || !strings.Contains(out, "…"+m[1][36:]) || !strings.Contains(out, "Accounting sync") ||
			!strings.Contains(out, "read_write") || strings.Contains(out, m[2]) || strings.Contains(out, m[1]) {
			t.Errorf("list: %d %s", code, out)
		}
		if out, code := key("revoke", "1"); code != 0 || !strings.Contains(out, "revoked API key 1") {
			t.Fatalf("revoke: %d %s", code, out)
		}
		if _, err := svc.Basic(ctx, m[1], m[2], "192.0.2.1"); !errors.Is(err, integration.ErrInvalidKey) {
			t.Errorf("the revoked key: %v", err)
		}
		if out, _ := key("list"); strings.Contains(out, "Accounting sync") {
			t.Errorf("listed after revoking: %s", out)
		}
	})
}
