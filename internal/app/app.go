// Package app is the vitrine command: configuration from flags and VITRINE_*
// variables, and the subcommands serve, migrate, import and version. Run is
// callable from tests with their own arguments, environment and outputs.
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/backup"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/importer"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/render"
	"vitrine/internal/review"
	"vitrine/internal/seed"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/web"
)

// Version is set at build time with -ldflags "-X vitrine/internal/app.Version=…".
var Version = "dev"

// Config is the whole configuration, built once here and passed down.
type Config struct {
	Addr     string
	DB       string
	BaseURL  string
	LogLevel string
	// Demo is demo mode (--demo, what make run uses): the demo catalogue is
	// seeded into an empty store and, without a PayPal client id, the
	// wallet pays through the built-in sandbox. No other start seeds or
	// accepts sandbox money.
	Demo          bool
	SiteName      string
	Tagline       string
	Currency      string
	CacheMB       int
	RenderWorkers int
	// RenderProcs > 0 renders in that many worker processes (vitrine
	// render-worker, one VM each; default one per CPU); 0 renders in
	// RenderWorkers VMs in this process.
	RenderProcs int
	// RenderNode, when set, is the Node.js executable that runs the
	// RenderProcs workers instead of the built-in QuickJS engine.
	RenderNode    string
	Variations    int
	FetchImages   bool
	Scroll        string
	ScrollHistory string
	Zoom          bool
	PageLoader    bool
	// VideoLoad and VideoDelayMS: when lazy videos load their player
	// (pages.VideoSettings).
	VideoLoad    string
	VideoDelayMS int
	// Secret signs cart session cookies, Cart-Tokens and nonces. Empty:
	// a random secret kept in the store (settings table), shared by every
	// instance on that store and kept across restarts.
	Secret string
	// The wallet (internal/app/wallet.go): PayPal's Orders v2 API at
	// PayPalBaseURL with a client id, else the built-in sandbox in demo
	// mode, else none.
	PayPalBaseURL   string
	PayPalClientID  string
	PayPalSecret    string
	PayPalWebhookID string
	// CartLifetime is how long a guest cart lives after its last change.
	CartLifetime time.Duration
	// SMTPURL configures outgoing mail (smtp://user:pass@host:port?tls=…&from=…);
	// empty keeps order emails queued in the outbox.
	SMTPURL string
	// Attribution turns order attribution tracking on; AttributionMonths is
	// the first-visit cookies' lifetime.
	Attribution       bool
	AttributionMonths int
	// ConsentBanner asks shoppers to accept or reject non-essential
	// cookies and storage first (internal/consent); off by default
	// (decision record 0102).
	ConsentBanner bool
	// ComingSoon: visitors see the coming-soon page; staff browse as usual
	// and see the footer banner.
	ComingSoon bool
	// WebhooksAllowPrivate: webhooks may deliver to loopback, private and
	// link-local addresses (tests, a shop whose receivers are on its LAN).
	WebhooksAllowPrivate bool
	// StoreNotice is the store-notice banner's text (plain text or simple
	// HTML, sanitized); empty: none. storeNotice is it parsed.
	StoreNotice string
	storeNotice *pages.StoreNotice
	// HeaderHideOnScroll hides the stuck header while scrolling down.
	HeaderHideOnScroll bool
	// ShopEmail receives the new-order notices (default: the SMTP from address).
	ShopEmail string
	// MetricsAddr serves /metrics on its own listener; empty (or "off")
	// turns it off. The shop's port never serves it.
	MetricsAddr string
	// DBMaxConns and DBMaxIdleConns size the PostgreSQL connection pool
	// of this instance (0: the default, sqlstore.DefaultPostgresConns;
	// idle 0: as many as DBMaxConns).
	DBMaxConns     int
	DBMaxIdleConns int
	// MaxConnsPerIP caps the open connections of one client address on the
	// shop's port (0: no cap; behind a reverse proxy use 0 or a high value).
	MaxConnsPerIP int
	// TrustedProxies lists the reverse proxies (addresses or CIDR
	// prefixes, comma-separated) whose X-Forwarded-For names the client.
	TrustedProxies string
	// trusted is TrustedProxies parsed.
	trusted []netip.Prefix
	// CheckoutRateLimit and CheckoutRateLimitAddress cap checkout attempts
	// per minute per cart session and per client address (0: off).
	CheckoutRateLimit        int
	CheckoutRateLimitAddress int
	// HoldStockMinutes is how long an unpaid bank-transfer order holds its
	// stock before it is cancelled (0: never).
	HoldStockMinutes int
	// Review options (review.Settings): ratings optional, verified owners
	// only, approve new reviews without moderation, and posts allowed per
	// client address per 10 minutes (0: off).
	ReviewRatingsOptional bool
	ReviewVerifiedOnly    bool
	ReviewAutoApprove     bool
	ReviewRateLimit       int
	// RegisterRateLimit is registrations allowed per client address per
	// hour (0: off).
	RegisterRateLimit int
	// ContactFileRetentionDays is how many days files uploaded with the
	// contact form are kept (1 to 3650); the messages stay.
	ContactFileRetentionDays int
	// Storage bounds (storage.go): the MB of contact files and of media
	// library files the store may hold (0: no bound), and the MB that
	// must stay free on the SQLite store's disk for uploads (0: no check).
	ContactFilesQuotaMB int
	MediaQuotaMB        int
	MinFreeDiskMB       int
	// Backup schedules backups in the running shop (backup.go): the folder,
	// the interval and how many are kept.
	Backup backup.Schedule
}

const usage = `vitrine: an online shop in one binary.

Usage:
  vitrine [serve] [flags]                     run the shop (--demo: seed a demo catalogue, pay in the built-in sandbox)
  vitrine migrate [flags]                     apply database migrations and exit
  vitrine import woocommerce-csv FILE [flags] import a WooCommerce product CSV export
  vitrine import woocommerce-store --url URL --consumer-key ck_… --consumer-secret cs_… [--concurrency 4] [--dry-run] [--report FILE]
                                              move a running WooCommerce shop in through its REST API (again to update or resume)
  vitrine currency list|set|rates|price ...   the currencies the shop sells in, their rates, fixed prices (vitrine currency for details)
  vitrine page set|list|delete [flags]        the shop's content pages (about, shipping, returns, terms; vitrine page for details)
  vitrine api-key create|list|revoke ...      REST API keys for integrations (vitrine api-key for details)
  vitrine customers import-passwords|invite   customers moved in from WooCommerce: their WordPress passwords, "set your password" mails (vitrine customers for details)
  vitrine backup --to FILE                    write a consistent backup archive of the running shop's store
  vitrine restore [--check] FILE [--force]    restore a backup into an empty store (--force replaces one that holds data; --check only verifies it)
  vitrine paypal-sandbox [--addr :8081]       run the built-in PayPal sandbox alone (prints its credentials)
  vitrine render-worker                       render pages for a shop run with --render-procs (started by it, over stdin and stdout)
  vitrine version                             print the version

Every flag can also be set with an environment variable: --base-url is VITRINE_BASE_URL.

Flags:
`

func envName(flagName string) string {
	return "VITRINE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse reads flags placed anywhere among the arguments, with VITRINE_*
// variables as defaults, and returns the positional arguments.
func parse(args []string, getenv func(string) string, stderr io.Writer) (Config, []string, error) {
	var c Config
	fs := flag.NewFlagSet("vitrine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	str := func(p *string, name, def, help string) {
		if v := getenv(envName(name)); v != "" {
			def = v
		}
		fs.StringVar(p, name, def, help+" ("+envName(name)+")")
	}
	num := func(p *int, name string, def int, help string) {
		if v, err := strconv.Atoi(getenv(envName(name))); err == nil {
			def = v
		}
		fs.IntVar(p, name, def, help+" ("+envName(name)+")")
	}
	boolean := func(p *bool, name string, def bool, help string) {
		if v, err := strconv.ParseBool(getenv(envName(name))); err == nil {
			def = v
		}
		fs.BoolVar(p, name, def, help+" ("+envName(name)+")")
	}
	str(&c.Addr, "addr", ":8080", "address to listen on")
	str(&c.MetricsAddr, "metrics-addr", "127.0.0.1:9090", "address of the Prometheus /metrics listener (and Go's /debug/pprof/ profiles); empty or off turns it off")
	num(&c.MaxConnsPerIP, "max-conns-per-ip", 64, "open connections one client address may hold on --addr (0: no cap; behind a reverse proxy use 0 or a high value)")
	str(&c.TrustedProxies, "trusted-proxies", "", "reverse proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For names the client for the per-address limits; empty: the connection's address is the client")
	str(&c.DB, "db", "sqlite:./data/vitrine.db", "store: sqlite:PATH or postgres://…")
	num(&c.DBMaxConns, "db-max-conns", 0, "PostgreSQL: connections this instance opens at most (0: 4 per CPU, at least 4); with several instances keep instances × this below the server's max_connections")
	num(&c.DBMaxIdleConns, "db-max-idle-conns", 0, "PostgreSQL: connections kept open while idle (0: as many as --db-max-conns)")
	str(&c.BaseURL, "base-url", "", "public origin of the shop, e.g. https://shop.example (default: from --addr)")
	str(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	boolean(&c.Demo, "demo", false, "demo mode: seed the demo catalogue into an empty store and, without a PayPal client id, pay through the built-in sandbox at /_sandbox/paypal (no real money)")
	str(&c.SiteName, "site-name", "Vitrine", "shop name")
	str(&c.Tagline, "tagline", "Everyday clothing, made to last", "shop tagline")
	str(&c.Currency, "currency", "USD", "shop currency (ISO code)")
	num(&c.CacheMB, "cache-mb", 64, "page cache size in MiB; 0 turns the cache off")
	num(&c.RenderProcs, "render-procs", min(runtime.GOMAXPROCS(0), 1024), "server rendering in this many worker processes (vitrine render-worker), one JavaScript engine each (default: one per CPU); 0 renders in this process with --render-workers engines")
	str(&c.RenderNode, "render-node", "", "path of a Node.js executable (18 or newer) to run the --render-procs workers instead of the built-in JavaScript engine: renders take a third of the CPU, the HTML is the same (default: none, the built-in engine)")
	num(&c.RenderWorkers, "render-workers", 0, "with --render-procs 0: JavaScript engines for server rendering in this process (0: one per CPU)")
	num(&c.Variations, "variation-threshold", 30, "variations embedded in a product page (30 to 100); more are fetched on demand")
	boolean(&c.FetchImages, "fetch-images", true, "import: download product images into the store")
	str(&c.Scroll, "infinite-scroll", "spinner", "listings: spinner (load near the bottom), button (View more) or off")
	str(&c.ScrollHistory, "infinite-scroll-history", "push", "listings: push or replace the URL as pages load")
	boolean(&c.Zoom, "zoom", false, "hover zoom on product images")
	boolean(&c.PageLoader, "page-loader", false, "show a loading overlay on each page until it has loaded (1 s at most; never under reduced motion)")
	str(&c.Secret, "secret", "", "secret for cart cookies, Cart-Tokens and nonces (default: a random one kept in the store)")
	str(&c.PayPalBaseURL, "paypal-base-url", "", "PayPal Orders v2 API root (default with a client id: PayPal's sandbox, "+paypal.SandboxBaseURL+")")
	str(&c.PayPalClientID, "paypal-client-id", "", "PayPal REST app client id (empty: no wallet, or the built-in sandbox with --demo)")
	str(&c.PayPalSecret, "paypal-secret", "", "PayPal REST app secret")
	str(&c.PayPalWebhookID, "paypal-webhook-id", "", "id of the shop's PayPal webhook (signs deliveries to /wp-json/paypal/v1/incoming)")
	str(&c.SMTPURL, "smtp-url", "", "outgoing mail: smtp://user:pass@host:port?tls=none|starttls|tls&from=shop@example.com (empty: emails stay queued)")
	dur := func(p *time.Duration, name string, def time.Duration, help string) {
		if v, err := time.ParseDuration(getenv(envName(name))); err == nil {
			def = v
		}
		fs.DurationVar(p, name, def, help+" ("+envName(name)+")")
	}
	dur(&c.CartLifetime, "cart-lifetime", 48*time.Hour, "how long a guest cart lives after its last change (e.g. 48h)")
	boolean(&c.Attribution, "attribution", true, "order attribution: remember where shoppers came from in first-party cookies and store it with orders")
	boolean(&c.WebhooksAllowPrivate, "webhooks-allow-private", false, "let webhooks deliver to loopback, private and link-local addresses (refused by default, when a webhook is saved and when it connects)")
	boolean(&c.ComingSoon, "coming-soon", false, "coming-soon mode: visitors and customers get a coming-soon page (503) and can only log in; shop managers and administrators browse as usual and see a reminder banner")
	str(&c.StoreNotice, "store-notice", "", "store notice shown above the header of every page until dismissed: plain text or simple HTML (sanitized; at most 2000 bytes); empty: none")
	boolean(&c.HeaderHideOnScroll, "header-hide-on-scroll", false, "hide the sticky header while shoppers scroll down, show it again when they scroll up")
	boolean(&c.ConsentBanner, "consent-banner", false, "ask shoppers to accept or reject non-essential cookies and storage (order attribution, recently viewed products) before any is stored; Global Privacy Control refuses them either way")
	num(&c.AttributionMonths, "attribution-lifetime-months", 6, "order attribution: lifetime of the first-visit cookies in months")
	str(&c.ShopEmail, "shop-email", "", "address that receives new-order notices (default: the SMTP from address)")
	num(&c.CheckoutRateLimit, "checkout-rate-limit", checkout.DefaultRateLimit, "checkout attempts allowed per minute per cart session, shared by all instances (0: no limit)")
	num(&c.CheckoutRateLimitAddress, "checkout-rate-limit-address", checkout.DefaultRateLimitPerAddress, "checkout attempts allowed per minute per client address (IPv6: per /64), shared by all instances (0: no limit)")
	boolean(&c.ReviewRatingsOptional, "review-ratings-optional", false, "reviews: star ratings are optional (default: required, as WooCommerce's \"Star ratings should be required\")")
	boolean(&c.ReviewVerifiedOnly, "review-verified-only", false, "reviews: only logged-in customers who bought the product may review it")
	boolean(&c.ReviewAutoApprove, "review-auto-approve", false, "reviews: publish new reviews at once instead of holding them for moderation (reviews with more than 2 links are held anyway)")
	num(&c.ReviewRateLimit, "review-rate-limit", review.DefaultRateLimit, "reviews: posts allowed per client address (IPv6: per /64) per 10 minutes, shared by all instances (0: no limit)")
	num(&c.RegisterRateLimit, "register-rate-limit", account.RegisterLimitPerAddress, "registrations allowed per client address (IPv6: per /64) per hour, counted whatever their outcome, shared by all instances (0: no limit)")
	num(&c.HoldStockMinutes, "hold-stock-minutes", 60, "minutes an unpaid bank-transfer order holds its stock before it is cancelled and the stock released (0: never)")
	str(&c.VideoLoad, "video-load", "press", "videos in descriptions and pages load their player on a press of Play (press), or also near the viewport (viewport; phones and Safari after the first touch or --video-delay-ms)")
	num(&c.VideoDelayMS, "video-delay-ms", 0, "with --video-load viewport: on phones and Safari, also start watching the viewport after this many ms without a touch (0: only after one)")
	num(&c.ContactFileRetentionDays, "contact-file-retention", 30, "days files uploaded with the contact form are kept before they are deleted (the messages stay; 1 to 3650)")
	storageFlags(&c, num)          // storage.go
	backupFlags(&c, str, dur, num) // backup.go
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := removedFlags(args, getenv); err != nil {
		return c, nil, err
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return c, nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
		if len(pos) == 1 && (pos[0] == "user" || pos[0] == "currency" || pos[0] == "page" || pos[0] == "api-key" || pos[0] == "customers" || pos[0] == "backup" || pos[0] == "restore" || pos[0] == "import") {
			// The user, currency, page and api-key commands parse their own
			// flags (user.go, currency.go, page.go, apikey.go). The shop's flags (--db) may
			// come before the command or anywhere after it: they are taken
			// out here and the rest is the command's.
			shop, rest := splitShopFlags(fs, args)
			if err := fs.Parse(shop); err != nil {
				return c, nil, err
			}
			pos = append(pos, rest...)
			break
		}
	}
	if c.BaseURL == "" {
		host, port, err := net.SplitHostPort(c.Addr)
		if err != nil {
			return c, nil, fmt.Errorf("--addr %q: %w", c.Addr, err)
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "localhost"
		}
		c.BaseURL = "http://" + net.JoinHostPort(host, port)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.MetricsAddr == "off" {
		c.MetricsAddr = ""
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return c, nil, fmt.Errorf("--metrics-addr %q: %w", c.MetricsAddr, err)
		}
	}
	if c.DBMaxConns < 0 || c.DBMaxConns > 10000 || c.DBMaxIdleConns < 0 || c.DBMaxIdleConns > 10000 {
		return c, nil, fmt.Errorf("--db-max-conns %d, --db-max-idle-conns %d: use 0 (default) to 10000", c.DBMaxConns, c.DBMaxIdleConns)
	}
	if c.RenderWorkers < 0 || c.RenderWorkers > 1024 || c.RenderProcs < 0 || c.RenderProcs > 1024 {
		return c, nil, fmt.Errorf("--render-workers %d, --render-procs %d: use 0 to 1024", c.RenderWorkers, c.RenderProcs)
	}
	if c.RenderNode != "" && c.RenderProcs == 0 {
		return c, nil, errors.New("--render-node runs the render worker processes: it needs --render-procs above 0")
	}
	if c.MaxConnsPerIP < 0 {
		return c, nil, fmt.Errorf("--max-conns-per-ip %d: use 0 (no cap) or more", c.MaxConnsPerIP)
	}
	for _, part := range strings.Split(c.TrustedProxies, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return c, nil, fmt.Errorf("--trusted-proxies %q: want addresses or CIDR prefixes, such as 10.0.0.5 or 10.0.0.0/8", part)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		c.trusted = append(c.trusted, p.Masked())
	}
	if c.Scroll != "spinner" && c.Scroll != "button" && c.Scroll != "off" {
		return c, nil, fmt.Errorf("--infinite-scroll %q: use spinner, button or off", c.Scroll)
	}
	if c.ScrollHistory != "push" && c.ScrollHistory != "replace" {
		return c, nil, fmt.Errorf("--infinite-scroll-history %q: use push or replace", c.ScrollHistory)
	}
	notice, err := pages.NewStoreNotice(c.StoreNotice)
	if err != nil {
		return c, nil, fmt.Errorf("--store-notice: %w", err)
	}
	c.storeNotice = notice
	if c.CartLifetime < time.Hour || c.CartLifetime > 90*24*time.Hour {
		return c, nil, fmt.Errorf("--cart-lifetime %s: use 1h to 2160h (90 days)", c.CartLifetime)
	}
	if c.AttributionMonths < 1 || c.AttributionMonths > 120 {
		return c, nil, fmt.Errorf("--attribution-lifetime-months %d: use 1 to 120", c.AttributionMonths)
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"checkout-rate-limit", c.CheckoutRateLimit}, {"checkout-rate-limit-address", c.CheckoutRateLimitAddress}, {"hold-stock-minutes", c.HoldStockMinutes}, {"review-rate-limit", c.ReviewRateLimit}, {"register-rate-limit", c.RegisterRateLimit}} {
		if v.n < 0 || v.n > 1_000_000 {
			return c, nil, fmt.Errorf("--%s %d: use 0 (off) to 1000000", v.name, v.n)
		}
	}
	if c.VideoLoad != "press" && c.VideoLoad != "viewport" {
		return c, nil, fmt.Errorf("--video-load %q: use press or viewport", c.VideoLoad)
	}
	if c.VideoDelayMS < 0 || c.VideoDelayMS > 60000 {
		return c, nil, fmt.Errorf("--video-delay-ms %d: use 0 to 60000", c.VideoDelayMS)
	}
	if c.ContactFileRetentionDays < 1 || c.ContactFileRetentionDays > 3650 {
		return c, nil, fmt.Errorf("--contact-file-retention %d: use 1 to 3650 (days)", c.ContactFileRetentionDays)
	}
	if err := c.checkStorage(); err != nil {
		return c, nil, err
	}
	if err := c.checkBackup(); err != nil { // backup.go
		return c, nil, err
	}
	if _, ok := money.Lookup(c.Currency); !ok {
		return c, nil, fmt.Errorf("--currency %q is not a supported currency", c.Currency)
	}
	if c.PayPalClientID != "" && c.PayPalBaseURL != "" {
		b := strings.TrimRight(c.PayPalBaseURL, "/")
		if b != paypal.LiveBaseURL && b != paypal.SandboxBaseURL {
			if _, err := paypal.SafeCertURLPrefix(b); err != nil {
				return c, nil, fmt.Errorf("--paypal-base-url %q: use an https URL (plain http only to a loopback host)", c.PayPalBaseURL)
			}
		}
	}
	return c, pos, nil
}

// commandBoolFlags are the flags of the user, currency and page commands
// that take no value; their other flags take the next argument as value
// unless written --flag=value.
var commandBoolFlags = map[string]bool{"password-stdin": true, "enable": true, "disable": true, "draft": true, "delete": true,
	"again": true, "dry-run": true, // customers invite
	"force": true, "check": true} // restore

// splitShopFlags separates the shop's flags (those fs defines, with their
// values) from a command's own arguments, keeping each side's order. No
// command flag shares a name with a shop flag, so a name decides; a
// command flag's value is never read as a flag ("--title --db" keeps
// "--db" as the title). Everything after "--" is the command's.
func splitShopFlags(fs *flag.FlagSet, args []string) (shop, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return shop, append(rest, args[i:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			rest = append(rest, a)
			if !hasValue && !commandBoolFlags[name] && i+1 < len(args) && name != "" && !isNumber(name) {
				i++
				rest = append(rest, args[i])
			}
			continue
		}
		shop = append(shop, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); hasValue || (ok && b.IsBoolFlag()) {
			continue
		}
		if i+1 < len(args) {
			i++
			shop = append(shop, args[i])
		}
	}
	return shop, rest
}

// isNumber reports whether a flag-like argument is a number ("-5", a
// refused amount, is an argument, not a flag).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// removed are flags that no longer exist, with what replaces them.
var removed = map[string]string{
	"paypal-sandbox": "the built-in PayPal sandbox is mounted only in demo mode: use --demo (VITRINE_DEMO=true)",
	"no-seed":        "nothing is seeded unless --demo is given (VITRINE_DEMO=true); drop --no-seed",
}

// removedFlags refuses a removed flag with a message naming its
// replacement, and a removed variable that asks for the sandbox.
func removedFlags(args []string, getenv func(string) string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if why, ok := removed[name]; ok {
			return fmt.Errorf("--%s was removed: %s", name, why)
		}
	}
	if v, err := strconv.ParseBool(getenv("VITRINE_PAYPAL_SANDBOX")); err == nil && v {
		return errors.New("VITRINE_PAYPAL_SANDBOX was removed: " + removed["paypal-sandbox"])
	}
	return nil
}

func newLogger(level string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: l}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return slog.New(slog.NewTextHandler(w, opts)), nil
		}
	}
	return slog.New(slog.NewJSONHandler(w, opts)), nil
}

// Run runs the command line args (without the program name).
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, pos, err := parse(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	cmd := "serve"
	if len(pos) > 0 {
		cmd, pos = pos[0], pos[1:]
	}
	if cmd == "version" {
		fmt.Fprintln(stdout, "vitrine", version())
		return nil
	}
	log, err := newLogger(cfg.LogLevel, stderr)
	if err != nil {
		return err
	}
	switch cmd {
	case "serve":
		return serve(ctx, cfg, log)
	case "migrate":
		db, err := openStore(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer db.Close()
		fmt.Fprintln(stdout, "migrations applied")
		return nil
	case "paypal-sandbox":
		return runPayPalSandbox(ctx, cfg, stdout, log)
	case "render-worker":
		return renderWorker(Stdin, stdout)
	case "import":
		return importCommand(ctx, cfg, log, pos, getenv, stdout) // wcimport.go
	case "user":
		return userCommand(ctx, cfg, pos, Stdin, stdout, stderr, log) // user.go
	case "currency":
		return currencyCommand(ctx, cfg, pos, Stdin, stdout, log) // currency.go
	case "page":
		return pageCommand(ctx, cfg, pos, Stdin, stdout, log) // page.go
	case "api-key":
		return apiKeyCommand(ctx, cfg, pos, stdout, log) // apikey.go
	case "customers":
		return customersCommand(ctx, cfg, pos, stdout, log) // customers.go
	case "backup":
		return backupCommand(ctx, cfg, pos, stdout, log) // backup.go
	case "restore":
		return restoreCommand(ctx, cfg, pos, stdout, log) // backup.go
	}
	return fmt.Errorf("unknown command %q (serve, migrate, import, user, currency, page, api-key, customers, backup, restore, paypal-sandbox, render-worker, version)", cmd)
}

func version() string {
	if Version != "dev" {
		return Version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return Version
}

// withStore runs fn on the store opened for one command, and closes it.
func withStore(ctx context.Context, cfg Config, log *slog.Logger, fn func(*sqlstore.DB) error) error {
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

// noMoreArgs refuses an argument after a subcommand that takes none.
func noMoreArgs(args []string, usage string) error {
	if len(args) > 1 {
		return &UsageError{fmt.Sprintf("unexpected argument %q\n%s", args[1], usage)}
	}
	return nil
}

func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*sqlstore.DB, error) {
	db, err := sqlstore.Open(ctx, cfg.DB, log)
	if err != nil {
		return nil, err
	}
	if err := db.SetPool(cfg.DBMaxConns, cfg.DBMaxIdleConns); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func importCSV(ctx context.Context, cfg Config, log *slog.Logger, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	cur, _ := money.Lookup(cfg.Currency)
	sum, err := importer.Import(ctx, f, db, db, importer.Options{MinorUnit: cur.MinorUnit, FetchImages: cfg.FetchImages})
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, sum.String())
	return nil
}

// memoryLimit is the Go runtime's soft memory limit for a page cache of
// cacheMB: the page cache, the Store API cache (a quarter of it), the
// product cache (catalog.DefaultCacheBytes) and 64 MiB for everything
// else, at least 128 MiB. Without a limit the collector lets
// the heap grow to twice what is live before it collects, and under cache
// churn (every miss leaves its render's buffers behind) the process held
// about six times --cache-mb. GOMEMLIMIT, when set,
// takes precedence.
func memoryLimit(cacheMB int) int64 {
	c := int64(cacheMB) << 20
	return max(c+c/4+catalog.DefaultCacheBytes+64<<20, 128<<20)
}

func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if os.Getenv("GOMEMLIMIT") == "" {
		limit := memoryLimit(cfg.CacheMB)
		debug.SetMemoryLimit(limit)
		log.Debug("memory limit set from --cache-mb", "bytes", limit)
	}

	if err := checkBackupTools(cfg); err != nil { // backup.go
		return err
	}
	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.Demo {
		n, err := db.CountProducts(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			res, err := seed.Demo(ctx, db, time.Now().UTC())
			if err != nil {
				return fmt.Errorf("seed demo catalogue: %w", err)
			}
			log.Info("demo catalogue seeded", "products", res.Products, "variations", res.Variations, "categories", res.Categories)
		}
		if n, err := currencyService(cfg, db, log).SeedDemo(ctx); err != nil {
			return fmt.Errorf("seed demo currencies: %w", err)
		} else if n > 0 {
			log.Info("demo currencies configured", "currencies", n)
		}
		// The demo pages, once: a shop that has any page keeps its own.
		if n, err := (&contentpage.Service{Store: db}).SeedDemo(ctx, seed.DemoPages()); err != nil {
			return fmt.Errorf("seed demo pages: %w", err)
		} else if n > 0 {
			log.Info("demo pages published", "pages", n)
		}
	}
	// A new shop's privacy policy, as a draft to complete: only on a
	// first start (no page at all), never over the owner's pages.
	if n, err := (&contentpage.Service{Store: db}).SeedFirst(ctx, []contentpage.Input{contentpage.PrivacyDraft(cfg.SiteName)}); err != nil {
		return fmt.Errorf("privacy policy draft: %w", err)
	} else if n > 0 {
		log.Info("privacy policy drafted: complete and publish it", "page", contentpage.Path(contentpage.PrivacySlug))
	}

	client, err := web.Client()
	if err != nil {
		return err
	}
	assets, err := render.LoadAssets(client, "src/entry-client.tsx")
	if err != nil {
		return fmt.Errorf("the web app is not built (run make build): %w", err)
	}
	engine, closeEngine := newRenderer(cfg, log)
	defer closeEngine()
	cur, _ := money.Lookup(cfg.Currency)
	settings := pages.DefaultSettings()
	settings.InfiniteScroll.Type, settings.InfiniteScroll.History = cfg.Scroll, cfg.ScrollHistory
	settings.Zoom = cfg.Zoom
	settings.Video = pages.VideoSettings{Load: cfg.VideoLoad, DelayMS: cfg.VideoDelayMS}
	settings.StoreNotice, settings.HeaderHideOnScroll = cfg.storeNotice, cfg.HeaderHideOnScroll
	settings.PageLoader = cfg.PageLoader
	settings.Attribution = pages.Attribution{Enabled: cfg.Attribution, LifetimeMonths: cfg.AttributionMonths}
	settings.Consent = pages.Consent{Banner: cfg.ConsentBanner}
	secret := []byte(cfg.Secret)
	if len(secret) == 0 {
		if secret, err = db.Secret(ctx, "session_secret"); err != nil {
			return err
		}
	}
	walletCfg, sandbox, err := walletSetup(cfg, log) // wallet.go
	if err != nil {
		return err
	}
	var sandboxHandler http.Handler
	if sandbox != nil {
		defer sandbox.Close()
		sandboxHandler = sandbox.Handler()
	}
	checkoutCfg := checkout.DefaultConfig(cur)
	checkoutCfg.RateLimit, checkoutCfg.RateLimitPerAddress = cfg.CheckoutRateLimit, cfg.CheckoutRateLimitAddress
	reviews := review.DefaultSettings()
	reviews.RatingsRequired, reviews.VerifiedOnly, reviews.AutoApprove = !cfg.ReviewRatingsOptional, cfg.ReviewVerifiedOnly, cfg.ReviewAutoApprove
	reviews.RateLimit = cfg.ReviewRateLimit
	accounts := account.Service{RegisterLimit: cfg.RegisterRateLimit}
	if cfg.RegisterRateLimit == 0 {
		accounts.RegisterLimit = -1 // off
	}
	srv, err := server.New(server.Config{Version: version(), Settings: settings, Secret: secret, Wallet: walletCfg, Sandbox: sandboxHandler, Reviews: &reviews, Accounts: accounts,
		Checkout: checkoutCfg, HoldStock: time.Duration(cfg.HoldStockMinutes) * time.Minute,
		BaseURL: cfg.BaseURL, SiteName: cfg.SiteName, Tagline: cfg.Tagline, Currency: cur,
		VariationThreshold: cfg.Variations, CartLifetime: cfg.CartLifetime, CacheBytes: int64(cfg.CacheMB) << 20, CacheMaxAge: 10 * time.Minute,
		ComingSoon: cfg.ComingSoon, TrustedProxies: cfg.trusted, WebhooksAllowPrivate: cfg.WebhooksAllowPrivate,
		ContactFileRetention: time.Duration(cfg.ContactFileRetentionDays) * 24 * time.Hour,
		ContactFilesQuota:    int64(cfg.ContactFilesQuotaMB) << 20, MediaQuota: int64(cfg.MediaQuotaMB) << 20,
		DataDir: storeDir(cfg.DB), DiskFloor: int64(cfg.MinFreeDiskMB) << 20,
		Backup: cfg.Backup, StoreDSN: cfg.DB,
	}, db, engine, client, assets, log)
	if err != nil {
		return err
	}
	if err := srv.Start(ctx); err != nil {
		return err
	}
	if err := startMail(ctx, cfg, db, srv, log); err != nil {
		return err
	}
	hs := newHTTPServer(srv, log)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	ln = srv.LimitConnsPerIP(ln, cfg.MaxConnsPerIP)
	servers := []*http.Server{hs}
	errc := make(chan error, 2)
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		ms := newHTTPServer(srv.MetricsHandler(), log)
		servers = append(servers, ms)
		log.Info("metrics listening", "addr", mln.Addr().String())
		go func() { errc <- ms.Serve(mln) }()
	}
	log.Info("vitrine listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "store", db.Engine, "version", version())
	go func() { errc <- hs.Serve(ln) }()
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
		log.Info("shutting down; finishing requests in flight")
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, s := range servers {
		if err := s.Shutdown(shutdownCtx); err != nil && serveErr == nil {
			serveErr = fmt.Errorf("shutdown: %w", err)
		}
	}
	if serveErr != nil {
		return serveErr
	}
	log.Info("stopped")
	return nil
}

// newRenderer is the server renderer --render-procs and --render-workers
// ask for, and what closes it; nil (pages render in the browser only) when
// the bundle is missing or does not load.
func newRenderer(cfg Config, log *slog.Logger) (server.Renderer, func()) {
	bundle, err := web.ServerBundle()
	if err != nil {
		log.Warn("no server bundle; pages will render in the browser only", "err", err)
		return nil, func() {}
	}
	if cfg.RenderProcs > 0 {
		wc := render.WorkersConfig{Size: cfg.RenderProcs, Log: log, Command: workerCommand(cfg)}
		if cfg.RenderNode != "" {
			wc.Command, wc.Bundle = render.NodeWorkerCommand(cfg.RenderNode), bundle
		}
		ws, err := render.NewWorkers(wc)
		if err == nil {
			log.Debug("rendering in worker processes", "procs", ws.Size())
			return ws, ws.Close
		}
		log.Error("render worker processes unavailable; rendering in this process (--render-workers)", "err", err)
	}
	e, err := render.NewEngine(bundle, cfg.RenderWorkers)
	if err != nil {
		log.Error("server rendering unavailable; pages will render in the browser only", "err", err)
		return nil, func() {}
	}
	return e, e.Close
}

// WorkerCommand, when set, starts a render worker instead of this
// executable's render-worker command (tests, whose executable is the test
// binary, set it).
var WorkerCommand func() *exec.Cmd

func workerCommand(cfg Config) func() *exec.Cmd {
	if WorkerCommand != nil {
		return WorkerCommand
	}
	exe, err := os.Executable()
	if err != nil {
		return nil // NewWorkers reports os.Executable's error
	}
	// On Linux, /proc/self/exe, read by the child between fork and exec, is
	// the shop's own executable even once a deploy has replaced or removed
	// the file at exe: a replacement worker is the same build as the shop.
	path := exe
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			path = "/proc/self/exe"
		}
	}
	return func() *exec.Cmd {
		cmd := exec.Command(path, "render-worker", "--log-level", cfg.LogLevel)
		cmd.Args[0] = exe // what ps shows
		return cmd
	}
}

// renderWorker is the render-worker command, started by a shop run with
// --render-procs: it renders pages for its parent over stdin and stdout
// (render.ServeWorker) and exits when stdin closes. It ignores interrupts
// (a Ctrl-C reaches the whole process group): the parent finishes its
// requests in flight, then closes the workers' stdin.
func renderWorker(stdin io.Reader, stdout io.Writer) error {
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	bundle, err := web.ServerBundle()
	if err != nil {
		return err
	}
	return render.ServeWorker(bundle, stdin, stdout)
}

// The HTTP servers' timeouts. A slow client may hold a connection only
// this long: the request head in 5 s, the whole request in 15 s, the
// answer in 30 s (the largest page is a few hundred KB, and this also
// bounds a wallet call to PayPal), and 30 s idle between requests (a
// keep-alive connection used to sit idle for two minutes).
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 30 * time.Second
)

// newHTTPServer is the shop's and the metrics listener's server: bounded
// headers and timeouts, errors to the log.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
