package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/wcrest"
)

// The import command: a WooCommerce product CSV (importCSV in app.go), or
// a running WooCommerce shop read through its REST API v3
// (internal/wcimport):
//
//	vitrine import woocommerce-store --url https://old-shop.example \
//	    --consumer-key ck_… --consumer-secret cs_… [--concurrency 4] [--dry-run] [--report FILE]
//	    [--wordpress-users users.csv]
//
// The key and secret may come from VITRINE_WC_CONSUMER_KEY and
// VITRINE_WC_CONSUMER_SECRET instead (kept out of the shell's history
// and the process list). Progress goes to stdout: a bar per resource on
// a terminal, JSON lines otherwise; the report to stdout and, as JSON, to
// --report (default wcimport-report-<time>.json in the working directory).
// --wordpress-users names a CSV export of WordPress's wp_users (user_email,
// user_pass): once the run is through, the moved-in customers' WordPress
// password hashes are applied as `vitrine customers import-passwords`
// does (internal/account).

const importUsage = "usage: vitrine import woocommerce-csv FILE\n" +
	"       vitrine import woocommerce-store --url URL --consumer-key ck_… --consumer-secret cs_… [--concurrency 4] [--dry-run] [--report FILE] [--wordpress-users users.csv]"

func importCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return &UsageError{importUsage}
	}
	switch args[0] {
	case "woocommerce-csv":
		if len(args) != 2 {
			return &UsageError{importUsage}
		}
		return importCSV(ctx, cfg, log, args[1], stdout)
	case "woocommerce-store":
		return importStore(ctx, cfg, log, args[1:], getenv, stdout)
	}
	// The command's own flags may come before the source's name.
	for i, a := range args {
		if a == "woocommerce-store" {
			return importStore(ctx, cfg, log, append(append([]string{}, args[:i]...), args[i+1:]...), getenv, stdout)
		}
	}
	return &UsageError{importUsage}
}

func importStore(ctx context.Context, cfg Config, log *slog.Logger, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("import woocommerce-store", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rawURL := fs.String("url", "", "the old shop's address")
	key := fs.String("consumer-key", getenv("VITRINE_WC_CONSUMER_KEY"), "a read-only REST API key (ck_…)")
	secret := fs.String("consumer-secret", getenv("VITRINE_WC_CONSUMER_SECRET"), "its secret (cs_…)")
	conc := fs.Int("concurrency", 4, "pages read at once")
	dry := fs.Bool("dry-run", false, "read everything, write nothing, report what would be written")
	reportPath := fs.String("report", "", "the report's file")
	wpUsers := fs.String("wordpress-users", "", "a CSV export of WordPress's wp_users (user_email,user_pass): the customers' old passwords")
	if err := fs.Parse(args); err != nil {
		return &UsageError{err.Error() + "\n" + importUsage}
	}
	if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), importUsage)}
	}
	u, err := url.Parse(strings.TrimSpace(*rawURL))
	if *rawURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &UsageError{"--url must be the old shop's address, such as https://old-shop.example\n" + importUsage}
	}
	if !strings.HasPrefix(*key, "ck_") || !strings.HasPrefix(*secret, "cs_") {
		return &UsageError{"--consumer-key (ck_…) and --consumer-secret (cs_…) are required: make a Read key in the old shop's " +
			"WooCommerce → Settings → Advanced → REST API\n" + importUsage}
	}
	if *conc < 1 || *conc > 32 {
		return &UsageError{fmt.Sprintf("--concurrency %d: use 1 to 32 (the old shop serves each page with a PHP worker)", *conc)}
	}
	var passwords []byte
	if *wpUsers != "" {
		// Read before the run: a missing file is known at once.
		if passwords, err = os.ReadFile(*wpUsers); err != nil {
			return &UsageError{"--wordpress-users: " + err.Error()}
		}
	}
	// Ctrl-C stops the run between records: the report is still written,
	// and the next run resumes after the last page finished.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now().UTC()
	if *reportPath == "" {
		*reportPath = "wcimport-report-" + start.Format("20060102-150405") + ".json"
	}
	origin := u.Scheme + "://" + u.Host
	base := strings.TrimRight(origin+u.EscapedPath(), "/")
	client := &wcrest.Client{Base: base, ConsumerKey: *key, ConsumerSecret: *secret}
	return withStore(ctx, cfg, log, func(db *sqlstore.DB) error {
		deps, err := wcimportDeps(ctx, cfg, db)
		if err != nil {
			return err
		}
		show := newProgress(stdout)
		run := wcimport.New(deps, client, wcimport.Options{Source: origin, DryRun: *dry, Concurrency: *conc, Progress: show.update})
		rep, runErr := run.Execute(ctx)
		show.end()
		writeReport(stdout, rep, time.Since(start))
		b, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = os.WriteFile(*reportPath, append(b, '\n'), 0o644)
		}
		if err != nil {
			return errors.Join(runErr, fmt.Errorf("write the report: %w", err))
		}
		fmt.Fprintf(stdout, "Report written to %s\n", *reportPath)
		if runErr != nil {
			return fmt.Errorf("the import stopped (run it again to resume after the last page it finished): %w", runErr)
		}
		if passwords == nil {
			return nil
		}
		if *dry {
			fmt.Fprintf(stdout, "Passwords from %s: applied on a run without --dry-run\n", *wpUsers)
			return nil
		}
		fmt.Fprintf(stdout, "Passwords from %s:\n", *wpUsers)
		r, err := (&account.Service{Store: db, Log: log}).ImportWordPressPasswords(ctx, bytes.NewReader(passwords))
		if errors.Is(err, account.ErrBadPasswordsCSV) {
			return &UsageError{fmt.Sprintf("--wordpress-users %s: %v (no password was changed; the import itself is done)", *wpUsers, err)}
		}
		if err != nil {
			return err
		}
		printPasswordImport(stdout, r)
		return nil
	})
}

// wcimportDeps are the migration's writers over db: the catalogue's, and
// the history's on the shop's settings and rules loaded over the flags'
// defaults, as the server loads them.
func wcimportDeps(ctx context.Context, cfg Config, db *sqlstore.DB) (wcimport.Deps, error) {
	cur, _ := money.Lookup(cfg.Currency)
	shop := &settings.Service{Store: db, Now: time.Now, Defaults: settings.FromPages(cfg.SiteName, cfg.Tagline, cfg.ComingSoon, pages.DefaultSettings())}
	if _, err := shop.Load(ctx); err != nil {
		return wcimport.Deps{}, fmt.Errorf("load settings: %w", err)
	}
	def := checkout.DefaultConfig(cur)
	rules := &settings.Rules{Store: db, Defaults: def.Rules(), Now: time.Now}
	if _, err := rules.Load(ctx); err != nil {
		return wcimport.Deps{}, fmt.Errorf("load shipping and tax rules: %w", err)
	}
	return wcimport.Deps{
		Legacy: db,
		Catalogue: wcimport.CatalogueDeps{Store: db, Writer: db, MinorUnit: cur.MinorUnit,
			Admin: &catalog.Admin{Store: db, MinorUnit: cur.MinorUnit}},
		History: wcimport.StoreHistoryDeps(db, shop, rules, cur, time.Now),
		Now:     time.Now,
		Analyze: db.Analyze,
	}, nil
}

// progress shows a run's progress: a bar per resource redrawn in place on
// a terminal, else one JSON line per event.
type progress struct {
	w    io.Writer
	tty  bool
	last string
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && isTerminal(f)}
}

func (p *progress) update(ev wcimport.Progress) {
	if !p.tty {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(p.w, "%s\n", b)
		return
	}
	const width = 30
	filled := width
	if ev.Pages > 0 {
		filled = width * ev.Page / ev.Pages
	}
	c := ev.Count
	line := fmt.Sprintf("\r%-16s [%s%s] %d/%d pages  %d read, %d created, %d updated, %d unchanged, %d refused",
		ev.Resource, strings.Repeat("#", filled), strings.Repeat("-", width-filled), ev.Page, ev.Pages,
		c.Read, c.Created, c.Updated, c.Unchanged, c.Refused)
	fmt.Fprint(p.w, line)
	p.last = ev.Resource
	if ev.Done {
		fmt.Fprintln(p.w)
		p.last = ""
	}
}

func (p *progress) end() {
	if p.tty && p.last != "" {
		fmt.Fprintln(p.w)
	}
}

// writeReport prints the counts per resource, every refusal and warning.
func writeReport(w io.Writer, rep wcimport.Report, took time.Duration) {
	what := "Imported"
	if rep.DryRun {
		what = "Dry run (nothing written): would import"
	}
	fmt.Fprintf(w, "%s from %s in %s\n", what, rep.Source, took.Round(time.Second))
	fmt.Fprintf(w, "%-16s %8s %8s %8s %10s %8s\n", "", "read", "created", "updated", "unchanged", "refused")
	for _, name := range rep.Resources {
		c := rep.Counts[name]
		fmt.Fprintf(w, "%-16s %8d %8d %8d %10d %8d\n", name, c.Read, c.Created, c.Updated, c.Unchanged, c.Refused)
	}
	if len(rep.Refusals) > 0 {
		fmt.Fprintf(w, "Refused: %d\n", len(rep.Refusals))
		for _, r := range rep.Refusals {
			fmt.Fprintf(w, "  %s %d %s: %s\n", r.Resource, r.OldID, r.Name, r.Reason)
		}
	}
	if len(rep.Warnings) > 0 {
		fmt.Fprintf(w, "Warnings: %d\n", len(rep.Warnings))
		for _, x := range rep.Warnings {
			fmt.Fprintf(w, "  %s %d %s: %s\n", x.Resource, x.OldID, x.Name, x.Message)
		}
	}
}
