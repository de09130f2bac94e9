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

// webhookPath is the shop's PayPal webhook route.
const webhookPath = "/wp-json/paypal/v1/incoming"

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// walletSetup configures the wallet from the flags: PayPal (or any Orders
// v2 API at --paypal-base-url) with a client id; else, in demo mode only
// (--demo), the built-in sandbox mounted at /_sandbox/paypal inside the
// shop's handler (behind its middleware) with generated credentials,
// delivering its webhooks to the shop; else no wallet (nil, nil). Orders
// paid through a sandbox (the built-in one, PayPal's sandbox API, or a
// stand-alone sandbox on loopback) are marked as test orders.
func walletSetup(cfg Config, log *slog.Logger) (*server.WalletConfig, *paypalsandbox.Sandbox, error) {
	if cfg.PayPalClientID != "" {
		base := strings.TrimRight(cfg.PayPalBaseURL, "/")
		if base == "" {
			base = paypal.SandboxBaseURL
		}
		c := &paypal.Client{BaseURL: base, ClientID: cfg.PayPalClientID, Secret: cfg.PayPalSecret, WebhookID: cfg.PayPalWebhookID}
		wc := &server.WalletConfig{PayPal: c}
		switch base {
		case paypal.LiveBaseURL:
		case paypal.SandboxBaseURL:
			wc.TestPayments = server.TestPaymentsPayPalSandbox
		default:
			// Another Orders v2 API (a stand-alone built-in sandbox): accept
			// its webhook certificates too, from exactly that host and path
			// (https, or http to a loopback host).
			prefix, err := paypal.SafeCertURLPrefix(base)
			if err != nil {
				return nil, nil, fmt.Errorf("--paypal-base-url: %w", err)
			}
			c.CertURLPrefixes = append(append([]string{}, paypal.DefaultCertURLPrefixes...), prefix)
			if strings.HasPrefix(base, "http://") { // loopback only: a stand-alone sandbox
				wc.TestPayments = server.TestPaymentsPayPalSandbox
			}
		}
		log.Info("wallet: PayPal", "base_url", base, "test_payments", wc.TestPayments != "")
		return wc, nil, nil
	}
	if !cfg.Demo {
		log.Info("wallet: off (no --paypal-client-id; the built-in sandbox needs --demo)")
		return nil, nil, nil
	}
	id, secret := "sb-"+randomHex(12), randomHex(24)
	sb := paypalsandbox.New(paypalsandbox.Config{ClientID: id, Secret: secret,
		BaseURL: cfg.BaseURL + server.SandboxPrefix, WebhookURL: cfg.BaseURL + webhookPath, BrandName: cfg.SiteName})
	c := &paypal.Client{BaseURL: sb.BaseURL(), ClientID: id, Secret: secret, WebhookID: sb.WebhookID(),
		CertURLPrefixes: []string{sb.CertURLPrefix()}, CertRoots: sb.CertPool()}
	log.Info("wallet: built-in PayPal sandbox, demo mode (no real payments)", "base_url", sb.BaseURL())
	return &server.WalletConfig{PayPal: c, TestPayments: server.TestPaymentsBuiltinSandbox}, sb, nil
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
