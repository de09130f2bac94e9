package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
)

// The user command: accounts made and promoted from the shell.
//
//	vitrine user create --email E [--username U] --role R [--password-stdin]
//	vitrine user set-role --email E --role R
//	vitrine user two-factor-off --email E
//
// The password never comes from a flag (shell history, ps): it is read from
// stdin with --password-stdin (its first line), or prompted twice without
// echo when stdin is a terminal. A role change ends the user's sessions (a
// change of privilege logs them in again). two-factor-off is the shop's
// recovery for an owner who lost both the app and the recovery codes: it
// removes the second factor and ends the account's sessions.

// UsageError is bad input to a command (exit status 2; other failures 1).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

const userUsage = "usage: vitrine user create --email E [--username U] --role administrator|shop_manager|customer [--password-stdin]\n" +
	"       vitrine user set-role --email E --role administrator|shop_manager|customer\n" +
	"       vitrine user two-factor-off --email E"

// Stdin is what the user command reads the password from (tests replace it).
var Stdin io.Reader = os.Stdin

func userCommand(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) == 0 || (args[0] != "create" && args[0] != "set-role" && args[0] != "two-factor-off") {
		return &UsageError{userUsage}
	}
	sub := args[0]
	fs := flag.NewFlagSet("user "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	email := fs.String("email", "", "the account's email")
	role := new(string)
	if sub != "two-factor-off" {
		role = fs.String("role", "", "administrator, shop_manager or customer")
	}
	username := ""
	fromStdin := false
	if sub == "create" {
		fs.StringVar(&username, "username", "", "optional username")
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the password from stdin")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return &UsageError{err.Error() + "\n" + userUsage}
	}
	if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q (the password is never a flag or an argument)\n%s", fs.Arg(0), userUsage)}
	}
	if strings.TrimSpace(*email) == "" {
		return &UsageError{"--email is required\n" + userUsage}
	}
	if sub != "two-factor-off" && !account.ValidRole(*role) {
		return &UsageError{fmt.Sprintf("unknown role %q: use administrator, shop_manager or customer", *role)}
	}
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := &account.Service{Store: db, Log: log}
	if sub == "two-factor-off" {
		u, err := userByEmail(ctx, db, *email)
		if err != nil {
			return err
		}
		err = svc.ResetTwoFactor(ctx, u.ID)
		if errors.Is(err, account.ErrTOTPNotEnabled) {
			return &UsageError{fmt.Sprintf("%s has no two-factor authentication", u.Email)}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "two-factor authentication is off for %s; their recovery codes, remembered devices and sessions were removed\n", u.Email)
		return nil
	}
	if sub == "set-role" {
		u, err := userByEmail(ctx, db, *email)
		if err != nil {
			return err
		}
		if err := svc.SetRole(ctx, u.ID, *role); err != nil {
			return err
		}
		if err := svc.DeleteUserSessions(ctx, u.ID); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is now %s (was %s); their sessions were ended\n", u.Email, *role, u.Role)
		return nil
	}
	pw, err := readNewPassword(stdin, stderr, fromStdin)
	if err != nil {
		return err
	}
	u, err := svc.Register(ctx, account.Registration{Email: *email, Username: username, Password: pw, Role: *role})
	var in *account.InputError
	switch {
	case errors.As(err, &in):
		return &UsageError{in.Field + ": " + in.Message}
	case errors.Is(err, account.ErrEmailTaken):
		return &UsageError{"an account is already registered with this email address"}
	case errors.Is(err, account.ErrUsernameTaken):
		return &UsageError{"this username is taken"}
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "created %s %s (id %d)\n", u.Role, u.Email, u.ID)
	return nil
}

// readNewPassword reads the password: stdin's first line with
// --password-stdin, else a no-echo prompt (twice) on a terminal.
func readNewPassword(stdin io.Reader, stderr io.Writer, fromStdin bool) (string, error) {
	if fromStdin {
		line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return "", &UsageError{"--password-stdin: no password on stdin"}
		}
		return line, nil
	}
	f, ok := stdin.(*os.File)
	if !ok || !isTerminal(f) {
		return "", &UsageError{"stdin is not a terminal: pipe the password with --password-stdin"}
	}
	fmt.Fprint(stderr, "Password: ")
	p1, err := readNoEcho(f)
	fmt.Fprintln(stderr)
	if err != nil {
		return "", err
	}
	fmt.Fprint(stderr, "Password again: ")
	p2, err := readNoEcho(f)
	fmt.Fprintln(stderr)
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", &UsageError{"the passwords do not match"}
	}
	return p1, nil
}

// userByEmail is the account with email, a usage error when there is none.
func userByEmail(ctx context.Context, db *sqlstore.DB, email string) (*account.User, error) {
	u, err := db.UserByEmail(ctx, account.NormalizeEmail(email))
	if errors.Is(err, account.ErrNoUser) {
		return nil, &UsageError{fmt.Sprintf("no account has the email %s", account.NormalizeEmail(email))}
	}
	return u, err
}
