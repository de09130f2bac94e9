package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// `vitrine customers import-passwords|invite` against a real store: the
// WordPress hashes stored for moved-in customers only, a bad file refused
// (exit 2) with nothing changed, invitations listed by --dry-run, queued
// once, sealed under the shop's own secret so the running shop can mail
// them.
func TestCustomersCommand(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		ctx := context.Background()
		st := storetest.OpenDSN(t, dsn)
		svc := &account.Service{Store: st}
		var ids []int64
		for i, email := range []string{"ada@example.com", "bob@example.com"} {
			c, err := svc.CreateCustomer(ctx, account.CustomerEdit{Email: &email})
			if err != nil {
				t.Fatal(err)
			}
			if err := st.PutLegacy(ctx, sqlstore.Legacy{Kind: "customer", OldID: int64(40 + i), NewID: c.ID}); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, c.ID)
		}
		db := []string{"--db", dsn, "--log-level", "warn"}
		customers := func(args ...string) (string, int) {
			return run(t, bin, "", append(append(db, "customers"), args...)...)
		}
		dir := t.TempDir()
		file := func(name, body string) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}

		bad := file("bad.csv", "user_login,user_pass\nada,$P$Bsaltsaltc/FDgntba538D7eNXZq/i1\n")
		if out, code := customers("import-passwords", bad); code != 2 || !strings.Contains(out, "no user_email") || !strings.Contains(out, "nothing was changed") {
			t.Errorf("bad file: %d %s", code, out)
		}
		good := file("users.csv", "user_email,user_pass\nada@example.com,$P$Bsaltsaltc/FDgntba538D7eNXZq/i1\nzed@example.com,$P$Bsaltsaltc/FDgntba538D7eNXZq/i1\n")
		out, code := customers("import-passwords", good)
		if code != 0 || !strings.Contains(out, "2 rows: 1 WordPress passwords stored, 0 already stored, 1 skipped") ||
			!strings.Contains(out, "zed@example.com") || !strings.Contains(out, account.SkipUnknownEmail) {
			t.Fatalf("import: %d %s", code, out)
		}
		if _, err := svc.Authenticate(ctx, "ada@example.com", "correct horse battery", ""); err != nil {
			t.Errorf("Ada's WordPress password: %v", err)
		}

		out, code = customers("invite", "--dry-run")
		if code != 0 || !strings.Contains(out, "would invite 1 moved-in customers") || !strings.Contains(out, "bob@example.com") || strings.Contains(out, "ada@example.com") {
			t.Fatalf("dry run: %d %s", code, out)
		}
		if q, _ := st.MailOutbox(ctx, "", 10); len(q) != 0 {
			t.Fatalf("a dry run queued %d", len(q))
		}
		out, code = customers("invite", "--per-minute", "10")
		if code != 0 || !strings.Contains(out, "invited 1 moved-in customers") || !strings.Contains(out, "bob@example.com") {
			t.Fatalf("invite: %d %s", code, out)
		}
		q, err := st.MailOutbox(ctx, "", 10)
		if err != nil || len(q) != 1 || q[0].Kind != account.MailInvitation {
			t.Fatalf("queued: %+v %v", q, err)
		}
		// The shop opens the link's seal with the secret kept in the store.
		secret, err := st.Secret(ctx, "session_secret")
		if err != nil {
			t.Fatal(err)
		}
		sealer, err := account.NewSealer(secret)
		if err != nil {
			t.Fatal(err)
		}
		c, err := (&account.Service{Store: st, Sealer: sealer}).MailContent(ctx, q[0].Kind, q[0].Ref)
		if err != nil || c.User.ID != ids[1] || c.Token == "" {
			t.Fatalf("the shop cannot open the invitation: %+v %v", c, err)
		}
		if out, code := customers("invite"); code != 0 || !strings.Contains(out, "invited 0 moved-in customers; 1 invited before") {
			t.Errorf("second run: %d %s", code, out)
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"invite", "--per-minute", "0"}, "--per-minute 0: use 1 to 6000"},
			{[]string{"invite", "extra"}, `unexpected argument "extra"`},
			{[]string{"import-passwords"}, "usage: vitrine customers"},
			{[]string{"import-passwords", filepath.Join(dir, "missing.csv")}, "missing.csv"},
			{[]string{"nope"}, "usage: vitrine customers"},
		} {
			if out, code := customers(c.args...); code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s", c.args, code, out)
			}
		}
	})
}
