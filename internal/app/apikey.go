package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"vitrine/internal/integration"
	"vitrine/internal/storage/sqlstore"
)

// The api-key command: REST API keys made, listed and revoked from the
// shell (internal/integration).
//
//	vitrine api-key create --email E --permissions read|write|read_write --description TEXT
//	vitrine api-key list
//	vitrine api-key revoke ID
//
// create prints the consumer key and secret on one line, the only time
// they are shown: consumer_key=ck_… consumer_secret=cs_…

const apiKeyUsage = "usage: vitrine api-key create --email E --permissions read|write|read_write --description TEXT\n" +
	"       vitrine api-key list\n" +
	"       vitrine api-key revoke ID"

func apiKeyCommand(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return &UsageError{apiKeyUsage}
	}
	switch args[0] {
	case "create":
		fs := flag.NewFlagSet("api-key create", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		email := fs.String("email", "", "the key's user")
		perms := fs.String("permissions", "", "read, write or read_write")
		desc := fs.String("description", "", "what the key is for")
		if err := fs.Parse(args[1:]); err != nil {
			return &UsageError{err.Error() + "\n" + apiKeyUsage}
		}
		if fs.NArg() > 0 {
			return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), apiKeyUsage)}
		}
		if strings.TrimSpace(*email) == "" {
			return &UsageError{"--email is required\n" + apiKeyUsage}
		}
		p := integration.Permission(*perms)
		if !p.Valid() {
			return &UsageError{fmt.Sprintf("unknown permissions %q: use read, write or read_write", *perms)}
		}
		return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
			u, err := userByEmail(ctx, db, *email)
			if err != nil {
				return err
			}
			c, err := (&integration.Service{Store: db, Log: log}).Create(ctx, u.ID, *desc, p)
			if errors.Is(err, integration.ErrDescription) {
				return &UsageError{"--description is required (up to 200 characters)"}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "consumer_key=%s consumer_secret=%s\n", c.ConsumerKey, c.ConsumerSecret)
			return nil
		})
	case "list":
		if err := noMoreArgs(args, apiKeyUsage); err != nil {
			return err
		}
		return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
			keys, err := (&integration.Service{Store: db, Log: log}).List(ctx, 0)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tUSER\tPERMISSIONS\tKEY\tLAST ACCESS\tDESCRIPTION")
			for _, k := range keys {
				user := strconv.FormatInt(k.UserID, 10)
				if u, err := db.UserByID(ctx, k.UserID); err == nil {
					user = u.Email
				}
				last := "never"
				if !k.LastAccess.IsZero() {
					last = k.LastAccess.Format(time.RFC3339)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t…%s\t%s\t%s\n", k.ID, user, k.Permissions, k.TruncatedKey, last, k.Description)
			}
			return tw.Flush()
		})
	case "revoke":
		if len(args) != 2 {
			return &UsageError{apiKeyUsage}
		}
		id, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || id <= 0 {
			return &UsageError{fmt.Sprintf("%q is not a key id (see vitrine api-key list)", args[1])}
		}
		return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
			err := (&integration.Service{Store: db, Log: log}).Revoke(ctx, id)
			if errors.Is(err, integration.ErrNoKey) {
				return &UsageError{fmt.Sprintf("no API key has the id %d", id)}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "revoked API key %d\n", id)
			return nil
		})
	}
	return &UsageError{apiKeyUsage}
}
