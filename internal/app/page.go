package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"vitrine/internal/contentpage"
	"vitrine/internal/storage/sqlstore"
)

// The page command: the shop's content pages (about, shipping, returns,
// terms), served at /<slug>/ and linked from every page's footer.
//
//	vitrine page set SLUG --title T --file body.html|- [--draft]
//	vitrine page list
//	vitrine page delete SLUG
//
// The body is HTML; it is sanitized as product descriptions are (no
// scripts, styles, forms or iframes; a YouTube or Vimeo URL alone on its
// line becomes a video). A running shop shows the change within a second.

const pageUsage = "usage: vitrine page set SLUG --title TITLE --file BODY.html [--draft]   (--file - reads stdin)\n" +
	"       vitrine page list\n" +
	"       vitrine page delete SLUG"

func pageCommand(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return &UsageError{pageUsage}
	}
	switch args[0] {
	case "list":
		if err := noMoreArgs(args, pageUsage); err != nil {
			return err
		}
		return withPages(ctx, cfg, log, func(svc *contentpage.Service) error { return listPages(ctx, svc, stdout) })
	case "set":
		return pageSet(ctx, cfg, args[1:], stdin, stdout, log)
	case "delete":
		if len(args) != 2 || strings.HasPrefix(args[1], "-") {
			return &UsageError{"page delete: give the page's slug (vitrine page delete about)\n" + pageUsage}
		}
		slug := args[1]
		return withPages(ctx, cfg, log, func(svc *contentpage.Service) error {
			err := svc.Delete(ctx, slug)
			if errors.Is(err, contentpage.ErrNotFound) {
				return &UsageError{fmt.Sprintf("no page has the slug %q (vitrine page list shows them)", slug)}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "deleted %s\n", contentpage.Path(slug))
			return nil
		})
	}
	return &UsageError{pageUsage}
}

func withPages(ctx context.Context, cfg Config, log *slog.Logger, fn func(*contentpage.Service) error) error {
	return withStore(ctx, cfg, log, func(db *sqlstore.DB) error { return fn(&contentpage.Service{Store: db}) })
}

func listPages(ctx context.Context, svc *contentpage.Service, stdout io.Writer) error {
	list, err := svc.List(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no pages (vitrine page set SLUG --title T --file body.html adds one)")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tSTATUS\tUPDATED\tTITLE")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Path(), p.Status, p.UpdatedAt.Format("2006-01-02 15:04"), p.Title)
	}
	return tw.Flush()
}

// maxPageFile bounds what set reads: a little over the largest body, so a
// body just over the limit is refused by the service with its message.
const maxPageFile = contentpage.MaxBody + 1

func pageSet(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return &UsageError{"page set: the page's slug comes first (vitrine page set about --title \"About us\" --file about.html)\n" + pageUsage}
	}
	slug := args[0]
	fs := flag.NewFlagSet("page set", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	title := fs.String("title", "", "the page's title")
	file := fs.String("file", "", "the body's HTML file, or - for stdin")
	draft := fs.Bool("draft", false, "save without publishing (the page answers 404 until set again without --draft)")
	if err := fs.Parse(args[1:]); err != nil {
		return &UsageError{err.Error() + "\n" + pageUsage}
	}
	if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), pageUsage)}
	}
	if *file == "" {
		return &UsageError{"page set: --file is required (the body's HTML, or - for stdin)\n" + pageUsage}
	}
	// Refuse a bad slug or title before reading anything.
	if err := contentpage.CheckSlug(slug); err != nil {
		return &UsageError{"page set: " + err.Error()}
	}
	var r io.Reader = stdin
	if *file != "-" {
		f, err := os.Open(*file)
		if err != nil {
			return &UsageError{"page set: " + err.Error()}
		}
		defer f.Close()
		r = f
	}
	body, err := io.ReadAll(io.LimitReader(r, maxPageFile))
	if err != nil {
		return fmt.Errorf("read the body: %w", err)
	}
	in := contentpage.Input{Slug: slug, Title: *title, Body: string(body), Status: contentpage.Published}
	if *draft {
		in.Status = contentpage.Draft
	}
	return withPages(ctx, cfg, log, func(svc *contentpage.Service) error {
		_, getErr := svc.Get(ctx, slug)
		p, err := svc.Set(ctx, in)
		var ie *contentpage.InputError
		if errors.As(err, &ie) {
			return &UsageError{"page set: " + ie.Error()}
		}
		if err != nil {
			return err
		}
		verb := "updated"
		if errors.Is(getErr, contentpage.ErrNotFound) {
			verb = "added"
		}
		state := "published"
		if p.Status == contentpage.Draft {
			state = "draft, not shown"
		}
		fmt.Fprintf(stdout, "%s %s %q (%s)\n", verb, p.Path(), p.Title, state)
		return nil
	})
}
