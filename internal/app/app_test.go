package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/review"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseFlagsAnywhereAndEnv(t *testing.T) {
	var errb bytes.Buffer
	c, pos, err := parse([]string{"import", "woocommerce-csv", "x.csv", "--db", "postgres://db/x", "--cache-mb=0"},
		env(map[string]string{"VITRINE_ADDR": "127.0.0.1:9999", "VITRINE_DEMO": "true", "VITRINE_DB": "sqlite:ignored.db"}), &errb)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, " ") != "import woocommerce-csv x.csv" {
		t.Errorf("positional = %q", pos)
	}
	if c.DB != "postgres://db/x" {
		t.Errorf("a flag must override the environment: db = %q", c.DB)
	}
	if c.Addr != "127.0.0.1:9999" || !c.Demo || c.CacheMB != 0 {
		t.Errorf("config = %+v", c)
	}
	if c.BaseURL != "http://127.0.0.1:9999" {
		t.Errorf("base url derived from addr = %q", c.BaseURL)
	}
}

// The README's promise: the shop's flags may come before or after a
// subcommand, also for the commands that parse flags of their own (user,
// currency, page). The command keeps its own flags, values and order.
func TestParseShopFlagsAfterSubcommand(t *testing.T) {
	var errb bytes.Buffer
	for _, c := range []struct {
		args []string
		db   string
		pos  string
	}{
		{[]string{"user", "create", "--db", "postgres://db/x", "--email", "a@example.com", "--role", "customer", "--password-stdin", "--log-level=warn"},
			"postgres://db/x", "user create --email a@example.com --role customer --password-stdin"},
		{[]string{"--db", "sqlite:before.db", "user", "set-role", "--email", "a@example.com", "--role", "shop_manager"},
			"sqlite:before.db", "user set-role --email a@example.com --role shop_manager"},
		{[]string{"currency", "set", "EUR", "--rate", "0.92", "-db=sqlite:c.db", "--enable", "--step", "1"},
			"sqlite:c.db", "currency set EUR --rate 0.92 --enable --step 1"},
		{[]string{"currency", "price", "--delete", "tee", "EUR", "--db", "sqlite:p.db"},
			"sqlite:p.db", "currency price --delete tee EUR"},
		{[]string{"currency", "price", "tee", "EUR", "-5", "--db", "sqlite:n.db"},
			"sqlite:n.db", "currency price tee EUR -5"},
		// A command flag's value is never taken for a shop flag, nor is
		// anything after "--".
		{[]string{"page", "set", "about", "--title", "--db", "--file", "-", "--db", "sqlite:t.db", "--", "--db"},
			"sqlite:t.db", "page set about --title --db --file - -- --db"},
	} {
		cfg, pos, err := parse(c.args, env(nil), &errb)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if cfg.DB != c.db || strings.Join(pos, " ") != c.pos {
			t.Errorf("%q: db %q, positional %q; want %q, %q", c.args, cfg.DB, strings.Join(pos, " "), c.db, c.pos)
		}
	}
	if cfg, _, err := parse([]string{"user", "create", "--log-level=warn", "--cache-mb", "0"}, env(nil), &errb); err != nil || cfg.LogLevel != "warn" || cfg.CacheMB != 0 {
		t.Errorf("shop flags after user: %+v %v", cfg, err)
	}
	// A bad shop flag value after the command is refused as before it.
	if _, _, err := parse([]string{"user", "create", "--cache-mb", "many"}, env(nil), &errb); err == nil {
		t.Error("--cache-mb many after user accepted")
	}
}

func TestParseDefaultsAndErrors(t *testing.T) {
	var errb bytes.Buffer
	c, pos, err := parse(nil, env(nil), &errb)
	if err != nil || len(pos) != 0 {
		t.Fatal(err, pos)
	}
	if c.Addr != ":8080" || c.DB != "sqlite:./data/vitrine.db" || c.BaseURL != "http://localhost:8080" || c.Currency != "USD" || c.CacheMB != 64 {
		t.Errorf("defaults = %+v", c)
	}
	if _, _, err := parse([]string{"--currency", "XXX"}, env(nil), &errb); err == nil {
		t.Error("unknown currency accepted")
	}
	if _, _, err := parse([]string{"--addr", "nonsense"}, env(nil), &errb); err == nil {
		t.Error("bad addr accepted")
	}
	if _, _, err := parse([]string{"--infinite-scroll", "sideways"}, env(nil), &errb); err == nil {
		t.Error("bad infinite-scroll accepted")
	}
	if _, _, err := parse([]string{"--no-such-flag"}, env(nil), &errb); err == nil {
		t.Error("unknown flag accepted")
	}
	if c.CartLifetime != 48*time.Hour || !c.Attribution || c.AttributionMonths != 6 || c.SMTPURL != "" {
		t.Errorf("cart/attribution/mail defaults = %+v", c)
	}
	if c.ComingSoon {
		t.Error("coming-soon mode on by default")
	}
	if cs, _, err := parse([]string{"--coming-soon"}, env(nil), &errb); err != nil || !cs.ComingSoon {
		t.Errorf("--coming-soon: %v, on=%v", err, cs.ComingSoon)
	}
	for _, bad := range [][]string{{"--cart-lifetime", "10m"}, {"--cart-lifetime", "forever"}, {"--attribution-lifetime-months", "0"}} {
		if _, _, err := parse(bad, env(nil), &errb); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if c, _, err := parse(nil, env(map[string]string{"VITRINE_CART_LIFETIME": "72h"}), &errb); err != nil || c.CartLifetime != 72*time.Hour {
		t.Errorf("VITRINE_CART_LIFETIME: %v %v", c.CartLifetime, err)
	}
	// Checkout rate limiting and held stock are on by default; 0 turns them off.
	if c.CheckoutRateLimit != 5 || c.CheckoutRateLimitAddress != 30 || c.HoldStockMinutes != 60 {
		t.Errorf("rate limit / hold stock defaults = %d %d %d", c.CheckoutRateLimit, c.CheckoutRateLimitAddress, c.HoldStockMinutes)
	}
	if c, _, err := parse([]string{"--checkout-rate-limit", "0", "--hold-stock-minutes", "0"}, env(map[string]string{"VITRINE_CHECKOUT_RATE_LIMIT_ADDRESS": "0"}), &errb); err != nil ||
		c.CheckoutRateLimit != 0 || c.CheckoutRateLimitAddress != 0 || c.HoldStockMinutes != 0 {
		t.Errorf("turned off: %+v %v", c, err)
	}
	if c, _, err := parse([]string{"--review-ratings-optional", "--review-auto-approve", "--review-rate-limit", "0"}, env(map[string]string{"VITRINE_REVIEW_VERIFIED_ONLY": "true"}), &errb); err != nil ||
		!c.ReviewRatingsOptional || !c.ReviewAutoApprove || !c.ReviewVerifiedOnly || c.ReviewRateLimit != 0 {
		t.Errorf("review flags: %+v %v", c, err)
	}
	if c, _, err := parse(nil, env(nil), &errb); err != nil || c.ReviewRatingsOptional || c.ReviewAutoApprove || c.ReviewVerifiedOnly || c.ReviewRateLimit != review.DefaultRateLimit {
		t.Errorf("review defaults: %+v %v", c, err)
	}
	if _, _, err := parse([]string{"--review-rate-limit", "-1"}, env(nil), &errb); err == nil {
		t.Error("--review-rate-limit -1 accepted")
	}
	// Registrations per client address an hour: 5 by default, 0 off.
	if c, _, err := parse(nil, env(nil), &errb); err != nil || c.RegisterRateLimit != account.RegisterLimitPerAddress {
		t.Errorf("register default: %d %v", c.RegisterRateLimit, err)
	}
	if c, _, err := parse(nil, env(map[string]string{"VITRINE_REGISTER_RATE_LIMIT": "0"}), &errb); err != nil || c.RegisterRateLimit != 0 {
		t.Errorf("register off: %d %v", c.RegisterRateLimit, err)
	}
	if _, _, err := parse([]string{"--register-rate-limit", "-1"}, env(nil), &errb); err == nil {
		t.Error("--register-rate-limit -1 accepted")
	}
	for _, bad := range [][]string{{"--checkout-rate-limit", "-1"}, {"--hold-stock-minutes", "-5"}, {"--checkout-rate-limit-address", "x"}} {
		if _, _, err := parse(bad, env(nil), &errb); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	c, _, _ = parse([]string{"--base-url", "https://shop.example/"}, env(nil), &errb)
	if c.BaseURL != "https://shop.example" {
		t.Errorf("trailing slash kept: %q", c.BaseURL)
	}
}

func TestRunCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if err := Run(context.Background(), []string{"version"}, env(nil), &out, &errb); err != nil || !strings.HasPrefix(out.String(), "vitrine ") {
		t.Errorf("version: %v %q", err, out.String())
	}
	if err := Run(context.Background(), []string{"import", "csv"}, env(nil), &out, &errb); err == nil {
		t.Error("bad import usage accepted")
	}
	if err := Run(context.Background(), []string{"--help"}, env(nil), &out, &errb); err != nil || !strings.Contains(errb.String(), "vitrine import woocommerce-csv FILE") {
		t.Errorf("help: %v %q", err, errb.String())
	}
}

func TestParseEdgeFlags(t *testing.T) {
	var errb bytes.Buffer
	c, _, err := parse(nil, env(nil), &errb)
	if err != nil {
		t.Fatal(err)
	}
	if c.MetricsAddr != "127.0.0.1:9090" || c.MaxConnsPerIP != 64 {
		t.Errorf("defaults: metrics %q, conns per ip %d", c.MetricsAddr, c.MaxConnsPerIP)
	}
	for _, off := range [][]string{{"--metrics-addr", ""}, {"--metrics-addr=off"}} {
		if c, _, err := parse(off, env(nil), &errb); err != nil || c.MetricsAddr != "" {
			t.Errorf("%v: metrics addr %q, %v", off, c.MetricsAddr, err)
		}
	}
	if c, _, err := parse(nil, env(map[string]string{"VITRINE_METRICS_ADDR": "off", "VITRINE_MAX_CONNS_PER_IP": "0"}), &errb); err != nil || c.MetricsAddr != "" || c.MaxConnsPerIP != 0 {
		t.Errorf("from the environment: %q %d %v", c.MetricsAddr, c.MaxConnsPerIP, err)
	}
	if c, _, err := parse([]string{"--trusted-proxies", " 10.0.0.0/8, 192.0.2.7,::1 "}, env(nil), &errb); err != nil ||
		fmt.Sprint(c.trusted) != "[10.0.0.0/8 192.0.2.7/32 ::1/128]" {
		t.Errorf("--trusted-proxies: %v %v", c.trusted, err)
	}
	for _, bad := range [][]string{{"--metrics-addr", "nonsense"}, {"--max-conns-per-ip", "-1"}, {"--trusted-proxies", "10.0.0.0/33"},
		{"--trusted-proxies", "proxy.example"}} {
		if _, _, err := parse(bad, env(nil), &errb); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestHTTPServerTimeouts: a slow client cannot hold a connection for
// minutes (the idle timeout was two minutes); every phase is bounded.
func TestHTTPServerTimeouts(t *testing.T) {
	hs := newHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": hs.ReadHeaderTimeout, "ReadTimeout": hs.ReadTimeout,
		"WriteTimeout": hs.WriteTimeout, "IdleTimeout": hs.IdleTimeout} {
		if d <= 0 || d > 30*time.Second {
			t.Errorf("%s = %s, want more than 0 and at most 30s", name, d)
		}
	}
	if hs.MaxHeaderBytes <= 0 || hs.MaxHeaderBytes > 64<<10 {
		t.Errorf("MaxHeaderBytes = %d", hs.MaxHeaderBytes)
	}
}

// TestMemoryLimitFollowsCacheSize: the Go memory limit is derived from
// --cache-mb, so the process stays within about the cache plus a fixed
// allowance (the product cache's 32 MiB and 64 MiB for the rest).
func TestMemoryLimitFollowsCacheSize(t *testing.T) {
	const mib = 1 << 20
	if got := memoryLimit(64); got != 176*mib {
		t.Errorf("64 MiB cache: limit %d MiB, want 176", got/mib)
	}
	if got := memoryLimit(1024); got != (1024+256+32+64)*mib {
		t.Errorf("1 GiB cache: limit %d MiB", got/mib)
	}
	if got := memoryLimit(0); got != 128*mib {
		t.Errorf("no cache: limit %d MiB, want the 128 MiB floor (the product cache and the rest)", got/mib)
	}
	for _, mb := range []int{0, 16, 64, 256, 4096} {
		if l := memoryLimit(mb); l > int64(2*mb+96)*mib && mb >= 64 || l < int64(mb)*mib*5/4 {
			t.Errorf("cache %d MiB: limit %d MiB outside [1.25x cache, 2x cache + 96 MiB]", mb, l/mib)
		}
	}
}

// The page loader is off unless the shop turns it on (flag or environment).
func TestParsePageLoader(t *testing.T) {
	var errb bytes.Buffer
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want bool
	}{
		{nil, nil, false},
		{[]string{"--page-loader"}, nil, true},
		{nil, map[string]string{"VITRINE_PAGE_LOADER": "true"}, true},
		{[]string{"--page-loader=false"}, map[string]string{"VITRINE_PAGE_LOADER": "true"}, false},
	} {
		c, _, err := parse(tc.args, env(tc.env), &errb)
		if err != nil || c.PageLoader != tc.want {
			t.Errorf("%v %v: PageLoader = %v (%v), want %v", tc.args, tc.env, c.PageLoader, err, tc.want)
		}
	}
}

// parseFlags parses a command line and environment as the binary does,
// with the usage text discarded.
func parseFlags(args []string, vars map[string]string) (Config, error) {
	c, _, err := parse(args, env(vars), io.Discard)
	return c, err
}
