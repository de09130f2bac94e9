package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseFlagsAnywhereAndEnv(t *testing.T) {
	var errb bytes.Buffer
	c, pos, err := parse([]string{"import", "woocommerce-csv", "x.csv", "--db", "postgres://db/x", "--cache-mb=0"},
		env(map[string]string{"VITRINE_ADDR": "127.0.0.1:9999", "VITRINE_NO_SEED": "true", "VITRINE_DB": "sqlite:ignored.db"}), &errb)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, " ") != "import woocommerce-csv x.csv" {
		t.Errorf("positional = %q", pos)
	}
	if c.DB != "postgres://db/x" {
		t.Errorf("a flag must override the environment: db = %q", c.DB)
	}
	if c.Addr != "127.0.0.1:9999" || !c.NoSeed || c.CacheMB != 0 {
		t.Errorf("config = %+v", c)
	}
	if c.BaseURL != "http://127.0.0.1:9999" {
		t.Errorf("base url derived from addr = %q", c.BaseURL)
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
