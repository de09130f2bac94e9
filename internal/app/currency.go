package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
)

// The currency command: the currencies the shop sells in, from the shell.
//
//	vitrine currency list
//	vitrine currency set CODE [--rate R] [--decimals N] [--symbol S] [--position P]
//	    [--thousand-sep S] [--decimal-sep S] [--rounding none|nearest|up|down]
//	    [--step X] [--ending X] [--order N] [--enable|--disable]
//	vitrine currency rates FILE [--format ecb|csv]
//	vitrine currency price PRODUCT CODE REGULAR [SALE]
//	vitrine currency price --delete PRODUCT CODE
//
// Rates are units of the currency for 1 unit of the base (--currency).
// Step and ending are written in the currency's units (--step 1 --ending
// 0.99: prices end in .99). A fixed price is a product's (or variation's)
// price in one currency set by hand, which wins over conversion; its
// amounts are written in that currency (12.99; JPY 1500).

const currencyUsage = "usage: vitrine currency list\n" +
	"       vitrine currency set CODE [--rate R] [--decimals N] [--symbol S] [--position left|right|left_space|right_space]\n" +
	"            [--thousand-sep S] [--decimal-sep S] [--rounding none|nearest|up|down] [--step X] [--ending X] [--order N] [--enable|--disable]\n" +
	"       vitrine currency rates FILE [--format ecb|csv]   (FILE - reads stdin)\n" +
	"       vitrine currency price PRODUCT CODE REGULAR [SALE]   (a fixed price; PRODUCT: id, slug or SKU; amounts in CODE: 12.99)\n" +
	"       vitrine currency price --delete PRODUCT CODE        (back to the converted price)"

func currencyCommand(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return &UsageError{currencyUsage}
	}
	switch args[0] {
	case "list":
		if err := noMoreArgs(args, currencyUsage); err != nil {
			return err
		}
		return withCurrencies(ctx, cfg, log, func(svc *currency.Service) error { return listCurrencies(ctx, svc, stdout) })
	case "set":
		return currencySet(ctx, cfg, args[1:], stdout, log)
	case "rates":
		return currencyRates(ctx, cfg, args[1:], stdin, stdout, log)
	case "price":
		return currencyPrice(ctx, cfg, args[1:], stdout, log)
	}
	return &UsageError{currencyUsage}
}

func withCurrencies(ctx context.Context, cfg Config, log *slog.Logger, fn func(*currency.Service) error) error {
	return withStore(ctx, cfg, log, func(db *sqlstore.DB) error { return fn(currencyService(cfg, db, log)) })
}

func currencyService(cfg Config, db *sqlstore.DB, log *slog.Logger) *currency.Service {
	base, _ := money.Lookup(cfg.Currency)
	return &currency.Service{Store: db, Base: base, Products: db, Log: log}
}

func listCurrencies(ctx context.Context, svc *currency.Service, stdout io.Writer) error {
	list, err := svc.All(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tRATE\tDATE\tEXAMPLE\tROUNDING\tSTATUS")
	for i, c := range list {
		rounding := c.Rounding
		if c.Rounding != currency.RoundNone {
			rounding = fmt.Sprintf("%s step %s", c.Rounding, c.Money().FormatNumber(c.Step))
			if c.Ending > 0 {
				rounding += " ending " + c.Money().FormatNumber(c.Ending)
			}
		}
		status := "enabled"
		switch {
		case i == 0:
			status = "base"
		case !c.Enabled:
			status = "disabled"
		}
		date := c.RateDate
		if date == "" {
			date = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Code, c.Rate, date, c.Format(pow(c.Decimals)*1234+pow(c.Decimals)/2), rounding, status)
	}
	return tw.Flush()
}

func pow(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

func currencySet(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return &UsageError{"currency set: the currency code comes first (vitrine currency set EUR --rate 0.92)\n" + currencyUsage}
	}
	code := strings.ToUpper(strings.TrimSpace(args[0]))
	fs := flag.NewFlagSet("currency set", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rate := fs.String("rate", "", "units of CODE for 1 unit of the base currency")
	decimals := fs.Int("decimals", 0, "decimals (minor unit digits), 0 to 4")
	symbol := fs.String("symbol", "", "symbol")
	position := fs.String("position", "", "symbol position")
	thousand := fs.String("thousand-sep", "", "thousands separator")
	decimal := fs.String("decimal-sep", "", "decimal separator")
	rounding := fs.String("rounding", "", "none, nearest, up or down")
	step := fs.String("step", "", "rounding step in the currency's units (0.05, 1, 10)")
	ending := fs.String("ending", "", "price ending in the currency's units (0.99)")
	order := fs.Int("order", 0, "place in the switcher")
	enable := fs.Bool("enable", false, "offer the currency to shoppers")
	disable := fs.Bool("disable", false, "stop offering the currency (its settings stay)")
	if err := fs.Parse(args[1:]); err != nil {
		return &UsageError{err.Error() + "\n" + currencyUsage}
	}
	if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), currencyUsage)}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *enable && *disable {
		return &UsageError{"--enable and --disable together: choose one"}
	}
	return withCurrencies(ctx, cfg, log, func(svc *currency.Service) error {
		c, exists, err := svc.Configured(ctx, code)
		if err != nil {
			return err
		}
		if !exists {
			var ok bool
			if c, ok = currency.Defaults(code); !ok {
				return &UsageError{fmt.Sprintf("%q is not a known ISO 4217 currency code", code)}
			}
			if !given["rate"] {
				return &UsageError{fmt.Sprintf("%s is new: give its rate (--rate, units of %s for 1 %s)", code, code, svc.Base.Code)}
			}
		}
		if given["rate"] {
			if c.Rate, err = currency.ParseRate(*rate); err != nil {
				return &UsageError{"--rate: " + err.Error()}
			}
		}
		if given["decimals"] {
			if c.Decimals != *decimals && !given["step"] && c.Rounding != currency.RoundNone {
				return &UsageError{"--decimals changes the minor unit: give --step (and --ending) again"}
			}
			c.Decimals = *decimals
		}
		strs := []struct {
			name string
			dst  *string
			v    string
		}{{"symbol", &c.Symbol, *symbol}, {"position", &c.Position, *position}, {"thousand-sep", &c.ThousandSep, *thousand},
			{"decimal-sep", &c.DecimalSep, *decimal}, {"rounding", &c.Rounding, *rounding}}
		for _, s := range strs {
			if given[s.name] {
				*s.dst = s.v
			}
		}
		if given["rounding"] && c.Rounding == currency.RoundNone {
			c.Step, c.Ending = 1, 0
		}
		if given["step"] {
			if c.Step, err = money.Parse(*step, max(c.Decimals, 0)); err != nil {
				return &UsageError{"--step: " + err.Error()}
			}
			if !given["ending"] {
				c.Ending = 0
			}
		}
		if given["ending"] {
			if c.Ending, err = money.Parse(*ending, max(c.Decimals, 0)); err != nil {
				return &UsageError{"--ending: " + err.Error()}
			}
		}
		if given["order"] {
			c.Order = *order
		}
		if *enable {
			c.Enabled = true
		}
		if *disable {
			c.Enabled = false
		}
		err = svc.SaveCurrency(ctx, c)
		var in *currency.InputError
		if errors.As(err, &in) {
			return &UsageError{"--" + in.Field + ": " + in.Message}
		}
		if err != nil {
			return err
		}
		saved, _, err := svc.Configured(ctx, code)
		if err != nil {
			return err
		}
		verb := "updated"
		if !exists {
			verb = "added"
		}
		state := "enabled"
		if !saved.Enabled {
			state = "disabled"
		}
		fmt.Fprintf(stdout, "%s %s: 1 %s = %s %s (%s), %s\n", verb, code, svc.Base.Code, saved.Rate, code, saved.Format(pow(saved.Decimals)*1234+pow(saved.Decimals)/2), state)
		return nil
	})
}

func currencyRates(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("currency rates", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "", "ecb or csv (default: from the content)")
	var file string
	rest := args
	if len(rest) > 0 && (!strings.HasPrefix(rest[0], "-") || rest[0] == "-") {
		file, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		return &UsageError{err.Error() + "\n" + currencyUsage}
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", fs.Arg(0), currencyUsage)}
	}
	if file == "" {
		return &UsageError{"currency rates: name the rates file (ECB XML or CSV code,rate[,date]; - for stdin)\n" + currencyUsage}
	}
	if *format != "" && *format != currency.FormatECB && *format != currency.FormatCSV {
		return &UsageError{fmt.Sprintf("--format %q: use ecb or csv", *format)}
	}
	in := stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return &UsageError{err.Error()}
		}
		defer f.Close()
		in = f
	}
	return withCurrencies(ctx, cfg, log, func(svc *currency.Service) error {
		start := time.Now()
		res, err := svc.ImportRates(ctx, in, *format)
		if err != nil {
			var bad *currency.FileError
			if errors.As(err, &bad) {
				return &UsageError{"rates not imported (nothing changed): " + err.Error()}
			}
			return err
		}
		fmt.Fprintf(stdout, "%d rates recorded (%s, newest %s) in %s\n", res.Recorded, res.Format, res.Date, time.Since(start).Round(time.Millisecond))
		fmt.Fprintf(stdout, "updated: %s\n", listOrNone(res.Updated))
		if len(res.Stale) > 0 {
			fmt.Fprintf(stdout, "kept (their rate is newer than the file's): %s\n", listOrNone(res.Stale))
		}
		if len(res.Unknown) > 0 {
			fmt.Fprintf(stdout, "not sold in (history only; add with vitrine currency set): %s\n", listOrNone(res.Unknown))
		}
		return nil
	})
}

func listOrNone(codes []string) string {
	if len(codes) == 0 {
		return "none"
	}
	return strings.Join(codes, ", ")
}

// currencyPrice sets or deletes a fixed price:
//
//	vitrine currency price PRODUCT CODE REGULAR [SALE]
//	vitrine currency price --delete PRODUCT CODE
//
// Refused input (exit 2) changes nothing: the checks are
// currency.Service.SetFixedPrice's.
func currencyPrice(ctx context.Context, cfg Config, args []string, stdout io.Writer, log *slog.Logger) error {
	del := false
	var pos []string
	for _, a := range args {
		switch {
		case a == "--delete" || a == "-delete":
			del = true
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.ContainsAny(a[1:2], "0123456789."):
			// "-5" is a (refused) amount, not a flag.
			return &UsageError{fmt.Sprintf("currency price: unknown flag %q\n%s", a, currencyUsage)}
		default:
			pos = append(pos, a)
		}
	}
	switch {
	case del && len(pos) != 2:
		return &UsageError{"currency price --delete: give the product and the currency (vitrine currency price --delete classic-tee EUR)\n" + currencyUsage}
	case !del && (len(pos) < 3 || len(pos) > 4):
		return &UsageError{"currency price: give the product, the currency, the regular price and optionally the sale price (vitrine currency price classic-tee EUR 25.99 19.99)\n" + currencyUsage}
	}
	code := strings.ToUpper(strings.TrimSpace(pos[1]))
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := currencyService(cfg, db, log)
	p, err := findProduct(ctx, db, pos[0])
	if err != nil {
		return err
	}
	c, configured, err := svc.Configured(ctx, code)
	if err != nil {
		return err
	}
	if !configured { // SetFixedPrice refuses it; its decimals read the amounts meanwhile
		var ok bool
		if c, ok = currency.Defaults(code); !ok {
			return &UsageError{fmt.Sprintf("currency price: CODE: %q is not a known ISO 4217 currency code", pos[1])}
		}
	}
	if del {
		f, had, err := svc.DeleteFixedPrice(ctx, p.ID, code)
		if err != nil {
			return err
		}
		if !had {
			fmt.Fprintf(stdout, "%s has no fixed %s price: nothing changed\n", productLabel(p), code)
			return nil
		}
		fmt.Fprintf(stdout, "deleted the fixed %s price of %s: %s; its %s price is converted again\n", code, productLabel(p), fixedText(c, f, false), code)
		return nil
	}
	f := currency.FixedPrice{ProductID: p.ID, Code: code}
	if f.Regular, err = currency.ParseAmount(pos[2], c.Decimals); err != nil {
		return &UsageError{"currency price: REGULAR " + err.Error()}
	}
	if len(pos) == 4 {
		sale, err := currency.ParseAmount(pos[3], c.Decimals)
		if err != nil {
			return &UsageError{"currency price: SALE " + err.Error()}
		}
		f.Sale = &sale
	}
	err = svc.SetFixedPrice(ctx, f)
	var in *currency.InputError
	if errors.As(err, &in) {
		arg := map[string]string{"currency": "CODE", "regular": "REGULAR", "sale": "SALE", "product": "PRODUCT"}[in.Field]
		msg := "currency price: " + arg + ": " + in.Message
		if p.Type == catalog.TypeVariable && in.Field == "product" {
			msg += variationList(ctx, db, p.ID)
		}
		return &UsageError{msg + " (nothing changed)"}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fixed %s price of %s: %s\n", code, productLabel(p), fixedText(c, f, true))
	if !c.Enabled {
		fmt.Fprintf(stdout, "%s is disabled: shoppers see this price once it is enabled (vitrine currency set %s --enable)\n", code, code)
	}
	return nil
}

// findProduct resolves a product or variation by id, else by slug (a
// parent product), else by SKU.
func findProduct(ctx context.Context, db *sqlstore.DB, ref string) (*catalog.Product, error) {
	ref = strings.TrimSpace(ref)
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		p, err := db.Product(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, &UsageError{fmt.Sprintf("currency price: PRODUCT: no product or variation has id %d", id)}
		}
		return p, err
	}
	p, err := db.ProductBySlug(ctx, ref)
	if !errors.Is(err, catalog.ErrNotFound) {
		return p, err
	}
	id, err := db.ProductIDBySKU(ctx, ref)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, &UsageError{fmt.Sprintf("currency price: PRODUCT: no product has the id, slug or SKU %q", ref)}
	}
	if err != nil {
		return nil, err
	}
	return db.Product(ctx, id)
}

// variationList names a variable product's variations for its refusal
// (" — variations: id 58 TEE-POCKET-WHITE-S, …"), "" when they cannot be read.
func variationList(ctx context.Context, db *sqlstore.DB, parentID int64) string {
	vs, err := db.Variations(ctx, parentID)
	if err != nil || len(vs) == 0 {
		return ""
	}
	var names []string
	for i, v := range vs {
		if i == 6 {
			names = append(names, fmt.Sprintf("and %d more", len(vs)-i))
			break
		}
		n := fmt.Sprintf("id %d", v.ID)
		if v.SKU != "" {
			n += " " + v.SKU
		}
		names = append(names, n)
	}
	return " — variations: " + strings.Join(names, ", ")
}

func productLabel(p *catalog.Product) string {
	s := fmt.Sprintf("%q (id %d", p.Name, p.ID)
	if p.SKU != "" {
		s += ", SKU " + p.SKU
	}
	return s + ")"
}

// fixedText writes a fixed price in its currency; explain says what a
// missing sale price means.
func fixedText(c currency.Currency, f currency.FixedPrice, explain bool) string {
	s := "regular " + c.Format(f.Regular)
	switch {
	case f.Sale != nil:
		return s + ", sale " + c.Format(*f.Sale)
	case explain:
		return s + ", no fixed sale price (a sale price is converted)"
	}
	return s
}
