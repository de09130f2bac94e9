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
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/importer"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/render"
	"vitrine/internal/seed"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/web"
)

// Version is set at build time with -ldflags "-X vitrine/internal/app.Version=…".
var Version = "dev"

// Config is the whole configuration, built once here and passed down.
type Config struct {
	Addr          string
	DB            string
	BaseURL       string
	LogLevel      string
	NoSeed        bool
	SiteName      string
	Tagline       string
	Currency      string
	CacheMB       int
	RenderWorkers int
	Variations    int
	FetchImages   bool
	Scroll        string
	ScrollHistory string
	Zoom          bool
	// Secret signs cart session cookies, Cart-Tokens and nonces. Empty:
	// a random secret kept in the store (settings table), shared by every
	// instance on that store and kept across restarts.
	Secret string
	// The wallet (internal/app/wallet.go): PayPal's Orders v2 API at
	// PayPalBaseURL with a client id, else the built-in sandbox when
	// PayPalSandbox is set.
	PayPalBaseURL   string
	PayPalClientID  string
	PayPalSecret    string
	PayPalWebhookID string
	PayPalSandbox   bool
	// CartLifetime is how long a guest cart lives after its last change.
	CartLifetime time.Duration
	// SMTPURL configures outgoing mail (smtp://user:pass@host:port?tls=…&from=…);
	// empty keeps order emails queued in the outbox.
	SMTPURL string
	// Attribution turns order attribution tracking on; AttributionMonths is
	// the first-visit cookies' lifetime.
	Attribution       bool
	AttributionMonths int
	// ShopEmail receives the new-order notices (default: the SMTP from address).
	ShopEmail string
	// CheckoutRateLimit and CheckoutRateLimitAddress cap checkout attempts
	// per minute per cart session and per client address (0: off).
	CheckoutRateLimit        int
	CheckoutRateLimitAddress int
	// HoldStockMinutes is how long an unpaid bank-transfer order holds its
	// stock before it is cancelled (0: never).
	HoldStockMinutes int
}

const usage = `vitrine: an online shop in one binary.

Usage:
  vitrine [serve] [flags]                     run the shop (seeds a demo catalogue on an empty store)
  vitrine migrate [flags]                     apply database migrations and exit
  vitrine import woocommerce-csv FILE [flags] import a WooCommerce product CSV export
  vitrine paypal-sandbox [--addr :8081]       run the built-in PayPal sandbox alone (prints its credentials)
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
	str(&c.DB, "db", "sqlite:./data/vitrine.db", "store: sqlite:PATH or postgres://…")
	str(&c.BaseURL, "base-url", "", "public origin of the shop, e.g. https://shop.example (default: from --addr)")
	str(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	boolean(&c.NoSeed, "no-seed", false, "do not seed the demo catalogue into an empty store")
	str(&c.SiteName, "site-name", "Vitrine", "shop name")
	str(&c.Tagline, "tagline", "Everyday clothing, made to last", "shop tagline")
	str(&c.Currency, "currency", "USD", "shop currency (ISO code)")
	num(&c.CacheMB, "cache-mb", 64, "page cache size in MiB; 0 turns the cache off")
	num(&c.RenderWorkers, "render-workers", 0, "JavaScript engines for server rendering (0: one per CPU)")
	num(&c.Variations, "variation-threshold", 30, "variations embedded in a product page (30 to 100); more are fetched on demand")
	boolean(&c.FetchImages, "fetch-images", true, "import: download product images into the store")
	str(&c.Scroll, "infinite-scroll", "spinner", "listings: spinner (load near the bottom), button (View more) or off")
	str(&c.ScrollHistory, "infinite-scroll-history", "push", "listings: push or replace the URL as pages load")
	boolean(&c.Zoom, "zoom", false, "hover zoom on product images")
	str(&c.Secret, "secret", "", "secret for cart cookies, Cart-Tokens and nonces (default: a random one kept in the store)")
	str(&c.PayPalBaseURL, "paypal-base-url", "", "PayPal Orders v2 API root (default with a client id: PayPal's sandbox, "+paypal.SandboxBaseURL+")")
	str(&c.PayPalClientID, "paypal-client-id", "", "PayPal REST app client id (empty: the built-in sandbox, see --paypal-sandbox)")
	str(&c.PayPalSecret, "paypal-secret", "", "PayPal REST app secret")
	str(&c.PayPalWebhookID, "paypal-webhook-id", "", "id of the shop's PayPal webhook (signs deliveries to /wp-json/paypal/v1/incoming)")
	boolean(&c.PayPalSandbox, "paypal-sandbox", true, "without a PayPal client id, pay through the built-in sandbox at /_sandbox/paypal (no real money)")
	str(&c.SMTPURL, "smtp-url", "", "outgoing mail: smtp://user:pass@host:port?tls=none|starttls|tls&from=shop@example.com (empty: emails stay queued)")
	dur := func(p *time.Duration, name string, def time.Duration, help string) {
		if v, err := time.ParseDuration(getenv(envName(name))); err == nil {
			def = v
		}
		fs.DurationVar(p, name, def, help+" ("+envName(name)+")")
	}
	dur(&c.CartLifetime, "cart-lifetime", 48*time.Hour, "how long a guest cart lives after its last change (e.g. 48h)")
	boolean(&c.Attribution, "attribution", true, "order attribution: remember where shoppers came from in first-party cookies and store it with orders")
	num(&c.AttributionMonths, "attribution-lifetime-months", 6, "order attribution: lifetime of the first-visit cookies in months")
	str(&c.ShopEmail, "shop-email", "", "address that receives new-order notices (default: the SMTP from address)")
	num(&c.CheckoutRateLimit, "checkout-rate-limit", checkout.DefaultRateLimit, "checkout attempts allowed per minute per cart session, shared by all instances (0: no limit)")
	num(&c.CheckoutRateLimitAddress, "checkout-rate-limit-address", checkout.DefaultRateLimitPerAddress, "checkout attempts allowed per minute per client address (IPv6: per /64), shared by all instances (0: no limit)")
	num(&c.HoldStockMinutes, "hold-stock-minutes", 60, "minutes an unpaid bank-transfer order holds its stock before it is cancelled and the stock released (0: never)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
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
	if c.Scroll != "spinner" && c.Scroll != "button" && c.Scroll != "off" {
		return c, nil, fmt.Errorf("--infinite-scroll %q: use spinner, button or off", c.Scroll)
	}
	if c.ScrollHistory != "push" && c.ScrollHistory != "replace" {
		return c, nil, fmt.Errorf("--infinite-scroll-history %q: use push or replace", c.ScrollHistory)
	}
	if c.CartLifetime < time.Hour || c.CartLifetime > 90*24*time.Hour {
		return c, nil, fmt.Errorf("--cart-lifetime %s: use 1h to 2160h (90 days)", c.CartLifetime)
	}
	if c.AttributionMonths < 1 || c.AttributionMonths > 120 {
		return c, nil, fmt.Errorf("--attribution-lifetime-months %d: use 1 to 120", c.AttributionMonths)
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"checkout-rate-limit", c.CheckoutRateLimit}, {"checkout-rate-limit-address", c.CheckoutRateLimitAddress}, {"hold-stock-minutes", c.HoldStockMinutes}} {
		if v.n < 0 || v.n > 1_000_000 {
			return c, nil, fmt.Errorf("--%s %d: use 0 (off) to 1000000", v.name, v.n)
		}
	}
	if _, ok := money.Lookup(c.Currency); !ok {
		return c, nil, fmt.Errorf("--currency %q is not a supported currency", c.Currency)
	}
	return c, pos, nil
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
	case "import":
		if len(pos) != 2 || pos[0] != "woocommerce-csv" {
			return errors.New("usage: vitrine import woocommerce-csv FILE")
		}
		return importCSV(ctx, cfg, log, pos[1], stdout)
	}
	return fmt.Errorf("unknown command %q (serve, migrate, import, paypal-sandbox, version)", cmd)
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

func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*sqlstore.DB, error) {
	db, err := sqlstore.Open(ctx, cfg.DB, log)
	if err != nil {
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

func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	if !cfg.NoSeed {
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
	}

	client, err := web.Client()
	if err != nil {
		return err
	}
	assets, err := render.LoadAssets(client, "src/entry-client.tsx")
	if err != nil {
		return fmt.Errorf("the web app is not built (run make build): %w", err)
	}
	var engine *render.Engine
	if bundle, err := web.ServerBundle(); err != nil {
		log.Warn("no server bundle; pages will render in the browser only", "err", err)
	} else if engine, err = render.NewEngine(bundle, cfg.RenderWorkers); err != nil {
		log.Error("server rendering unavailable; pages will render in the browser only", "err", err)
		engine = nil
	}
	if engine != nil {
		defer engine.Close()
	}
	cur, _ := money.Lookup(cfg.Currency)
	settings := pages.DefaultSettings()
	settings.InfiniteScroll.Type, settings.InfiniteScroll.History = cfg.Scroll, cfg.ScrollHistory
	settings.Zoom = cfg.Zoom
	settings.Attribution = pages.Attribution{Enabled: cfg.Attribution, LifetimeMonths: cfg.AttributionMonths}
	secret := []byte(cfg.Secret)
	if len(secret) == 0 {
		if secret, err = db.Secret(ctx, "session_secret"); err != nil {
			return err
		}
	}
	walletCfg, sandbox := walletSetup(cfg, log) // wallet.go
	if sandbox != nil {
		defer sandbox.Close()
	}
	checkoutCfg := checkout.DefaultConfig(cur)
	checkoutCfg.RateLimit, checkoutCfg.RateLimitPerAddress = cfg.CheckoutRateLimit, cfg.CheckoutRateLimitAddress
	srv, err := server.New(server.Config{Settings: settings, Secret: secret, Wallet: walletCfg,
		Checkout: checkoutCfg, HoldStock: time.Duration(cfg.HoldStockMinutes) * time.Minute,
		BaseURL: cfg.BaseURL, SiteName: cfg.SiteName, Tagline: cfg.Tagline, Currency: cur,
		VariationThreshold: cfg.Variations, CartLifetime: cfg.CartLifetime, CacheBytes: int64(cfg.CacheMB) << 20, CacheMaxAge: 10 * time.Minute,
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
	hs := &http.Server{
		Addr:              cfg.Addr,
		Handler:           withSandbox(srv, sandbox),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	log.Info("vitrine listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "store", db.Engine, "version", version())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}
