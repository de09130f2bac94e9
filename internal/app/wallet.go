package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
)

// sandboxPrefix is where the built-in PayPal sandbox is mounted on the
// shop's own listener in demo mode.
const sandboxPrefix = "/_sandbox/paypal"

// webhookPath is the shop's PayPal webhook route.
const webhookPath = "/wp-json/paypal/v1/incoming"

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// walletSetup configures the wallet from the flags: PayPal (or any Orders
// v2 API at --paypal-base-url) with a client id; else, with --paypal-sandbox
// (the default), the built-in sandbox mounted at /_sandbox/paypal on the
// shop's listener with generated credentials, delivering its webhooks to the
// shop; else no wallet (nil, nil).
func walletSetup(cfg Config, log *slog.Logger) (*server.WalletConfig, *paypalsandbox.Sandbox) {
	if cfg.PayPalClientID != "" {
		base := strings.TrimRight(cfg.PayPalBaseURL, "/")
		if base == "" {
			base = paypal.SandboxBaseURL
		}
		c := &paypal.Client{BaseURL: base, ClientID: cfg.PayPalClientID, Secret: cfg.PayPalSecret, WebhookID: cfg.PayPalWebhookID}
		if base != paypal.LiveBaseURL && base != paypal.SandboxBaseURL {
			// Another Orders v2 API (a stand-alone built-in sandbox): accept
			// its webhook certificates too.
			c.CertURLPrefixes = append(append([]string{}, paypal.DefaultCertURLPrefixes...), base+"/v1/notifications/certs/")
		}
		log.Info("wallet: PayPal", "base_url", base)
		return &server.WalletConfig{PayPal: c}, nil
	}
	if !cfg.PayPalSandbox {
		return nil, nil
	}
	id, secret := "sb-"+randomHex(12), randomHex(24)
	sb := paypalsandbox.New(paypalsandbox.Config{ClientID: id, Secret: secret,
		BaseURL: cfg.BaseURL + sandboxPrefix, WebhookURL: cfg.BaseURL + webhookPath, BrandName: cfg.SiteName})
	c := &paypal.Client{BaseURL: sb.BaseURL(), ClientID: id, Secret: secret, WebhookID: sb.WebhookID(),
		CertURLPrefixes: []string{sb.CertURLPrefix()}, CertRoots: sb.CertPool()}
	log.Info("wallet: built-in PayPal sandbox (no real payments)", "base_url", sb.BaseURL())
	return &server.WalletConfig{PayPal: c}, sb
}

// withSandbox serves the built-in sandbox under its prefix next to the shop.
func withSandbox(shop http.Handler, sb *paypalsandbox.Sandbox) http.Handler {
	if sb == nil {
		return shop
	}
	mux := http.NewServeMux()
	mux.Handle(sandboxPrefix+"/", sb.Handler())
	mux.Handle("/", shop)
	return mux
}

// runPayPalSandbox is `vitrine paypal-sandbox`: the built-in sandbox alone
// on --addr, with --paypal-client-id and --paypal-secret (generated when
// empty), until interrupted.
func runPayPalSandbox(ctx context.Context, cfg Config, stdout io.Writer, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	id, secret := cfg.PayPalClientID, cfg.PayPalSecret
	if id == "" {
		id = "sb-" + randomHex(12)
	}
	if secret == "" {
		secret = randomHex(24)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	sb := paypalsandbox.New(paypalsandbox.Config{ClientID: id, Secret: secret, WebhookID: cfg.PayPalWebhookID})
	defer sb.Close()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	sb.SetBaseURL("http://" + net.JoinHostPort(host, port))
	fmt.Fprintf(stdout, "PayPal sandbox listening on %s\nclient id: %s\nsecret:    %s\nwebhook id: %s\n"+
		"Run the shop with --paypal-base-url %s --paypal-client-id %s --paypal-secret %s --paypal-webhook-id %s\n",
		sb.BaseURL(), id, secret, sb.WebhookID(), sb.BaseURL(), id, secret, sb.WebhookID())
	log.Info("paypal sandbox listening", "base_url", sb.BaseURL())
	err = sb.Serve(ctx, ln)
	if err == http.ErrServerClosed || ctx.Err() != nil {
		return nil
	}
	return err
}
