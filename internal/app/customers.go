package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore"
)

// The customers command: what lets customers moved in from a WooCommerce
// shop log in (internal/account, wpimport.go and invite.go).
//
//	vitrine customers import-passwords FILE
//	vitrine customers invite [--per-minute N] [--again] [--dry-run]
//
// import-passwords reads a CSV export of WordPress's wp_users (user_email
// and user_pass columns) and stores each moved-in customer's WordPress
// hash, unless they chose a password here; it prints what it applied and
// every row it did not, with why. invite queues a "set your password for
// our new shop" mail to each moved-in customer still without a password,
// once (--again: also those invited before), due --per-minute a minute;
// the running shop's outbox sends them. --dry-run lists who would get one.

const customersUsage = "usage: vitrine customers import-passwords FILE\n" +
	"       vitrine customers invite [--per-minute N] [--again] [--dry-run]"

func customersCommand(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return &UsageError{customersUsage}
	}
	switch args[0] {
	case "import-passwords":
		if len(args) != 2 {
			return &UsageError{"import-passwords takes one FILE\n" + customersUsage}
		}
		f, err := os.Open(args[1])
		if err != nil {
			return &UsageError{err.Error()}
		}
		defer f.Close()
		return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
			r, err := (&account.Service{Store: db, Log: log}).ImportWordPressPasswords(ctx, f)
			if errors.Is(err, account.ErrBadPasswordsCSV) {
				return &UsageError{fmt.Sprintf("%s: %v (nothing was changed)", args[1], err)}
			}
			if err != nil {
				return err
			}
			printPasswordImport(stdout, r)
			return nil
		})
	case "invite":
		fs := flag.NewFlagSet("customers invite", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		perMinute := fs.Int("per-minute", account.InvitesPerMinute, "invitation mails a minute at most")
		again := fs.Bool("again", false, "invite again those invited before who still have no password (a new link)")
		dry := fs.Bool("dry-run", false, "list who would be invited; change nothing")
		if err := fs.Parse(args[1:]); err != nil {
			return &UsageError{err.Error() + "\n" + customersUsage}
		}
		if fs.NArg() > 0 {
			return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), customersUsage)}
		}
		if *perMinute < 1 || *perMinute > 6000 {
			return &UsageError{fmt.Sprintf("--per-minute %d: use 1 to 6000", *perMinute)}
		}
		return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
			svc := &account.Service{Store: db, Log: log}
			if !*dry {
				sealer, err := shopSealer(ctx, cfg, db)
				if err != nil {
					return err
				}
				svc.Sealer = sealer
			}
			r, err := svc.InviteMovedIn(ctx, account.InviteOptions{PerMinute: *perMinute, Again: *again, DryRun: *dry})
			if r != nil {
				printInvites(stdout, r, *dry)
			}
			return err
		})
	}
	return &UsageError{customersUsage}
}

// shopSealer is the sealer the running shop opens link tokens with: the
// same secret (--secret, else the one kept in the store) as serve's.
func shopSealer(ctx context.Context, cfg Config, db *sqlstore.DB) (*account.Sealer, error) {
	secret := []byte(cfg.Secret)
	if len(secret) == 0 {
		var err error
		if secret, err = db.Secret(ctx, "session_secret"); err != nil {
			return nil, err
		}
	}
	return account.NewSealer(secret)
}

func printPasswordImport(w io.Writer, r *account.PasswordImport) {
	fmt.Fprintf(w, "%d rows: %d WordPress passwords stored, %d already stored, %d skipped\n",
		r.Rows, r.Applied, r.Unchanged, len(r.Skipped))
	for _, reason := range []string{account.SkipOwnPassword, account.SkipNotMovedIn, account.SkipUnknownEmail, account.SkipUnknownFormat, account.SkipDuplicate} {
		if n := r.Count(reason); n > 0 {
			fmt.Fprintf(w, "  %d: %s\n", n, reason)
		}
	}
	if len(r.Skipped) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tEMAIL\tSKIPPED")
	for _, s := range r.Skipped {
		fmt.Fprintf(tw, "%d\t%s\t%s\n", s.Line, s.Email, s.Reason)
	}
	tw.Flush()
}

func printInvites(w io.Writer, r *account.InviteResult, dry bool) {
	verb := "invited"
	if dry {
		verb = "would invite"
	}
	fmt.Fprintf(w, "%s %d moved-in customers; %d invited before (--again to invite them again), %d have a password",
		verb, len(r.Invited), r.AlreadyInvited, r.HavePassword)
	if r.Raced > 0 {
		fmt.Fprintf(w, ", %d changed meanwhile (not invited)", r.Raced)
	}
	fmt.Fprintln(w)
	if len(r.Invited) == 0 {
		return
	}
	last := r.Invited[len(r.Invited)-1].DueAt
	if !dry {
		fmt.Fprintf(w, "the shop's outbox sends them until %s (UTC); the shop must be running with --smtp-url\n", last.UTC().Format(time.DateTime))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tMAIL DUE (UTC)\tAGAIN")
	for _, i := range r.Invited {
		again := ""
		if i.Again {
			again = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", i.Email, i.DueAt.UTC().Format(time.DateTime), again)
	}
	tw.Flush()
}
