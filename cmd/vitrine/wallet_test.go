package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/storage/sqlstore"
)

// TestWalletCrashBetweenCaptureAndOrder (R1) runs the real binary against
// a PayPal sandbox in this process: a buyer approves, the shop captures,
// PayPal's answer hangs so the money is taken but the shop has not recorded
// it, the shop is SIGKILLed, and restarted. The reconciler must end with the
// order paid exactly once (one capture at PayPal, status processing) and
// the stock conserved.
func TestWalletCrashBetweenCaptureAndOrder(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "r1-client", Secret: "r1-secret"})
		defer sb.Close()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		sb.SetBaseURL("http://" + ln.Addr().String()) // before the shop is given it
		served := make(chan struct{})
		go func() { _ = sb.Serve(ctx, ln); close(served) }()
		defer func() { cancel(); <-served }()

		addr := freeAddr(t)
		base := "http://" + addr
		start := func() (*exec.Cmd, *bytes.Buffer, <-chan error) {
			return serve(t, bin, addr, dsn, nil, "--demo", // the demo catalogue; the wallet is the sandbox above
				"--paypal-base-url", sb.BaseURL(), "--paypal-client-id", "r1-client", "--paypal-secret", "r1-secret")
		}
		shop, logs, exited := start()

		jar, _ := cookiejar.New(nil)
		hc := &http.Client{Jar: jar, Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		call := func(method, path, body string, hdr ...string) (*http.Response, []byte) {
			t.Helper()
			req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i+1 < len(hdr); i += 2 {
				req.Header.Set(hdr[i], hdr[i+1])
			}
			res, err := hc.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res, b
		}
		var product struct {
			ID int64 `json:"id"`
		}
		if _, b := call("GET", "/wp-json/wc/store/v1/products/studio-staff-cap", ""); json.Unmarshal(b, &product) != nil || product.ID == 0 {
			t.Fatalf("product: %s", b)
		}
		capID := product.ID
		res, _ := call("GET", "/wp-json/wc/store/v1/cart", "")
		if res, b := call("POST", "/wp-json/wc/store/v1/cart/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, capID), "Nonce", res.Header.Get("Nonce")); res.StatusCode != 201 {
			t.Fatalf("add: %d %s", res.StatusCode, b)
		}
		nonces := func() map[string]string {
			var env struct {
				Data struct {
					Nonces map[string]string `json:"nonces"`
				} `json:"data"`
			}
			_, b := call("GET", "/?wc-ajax=ppc-cart-script-params", "")
			if json.Unmarshal(b, &env) != nil || env.Data.Nonces["ppc-create-order"] == "" {
				t.Fatalf("script params: %s", b)
			}
			return env.Data.Nonces
		}
		form := url.Values{"billing_first_name": {"Ada"}, "billing_last_name": {"Lovelace"}, "billing_address_1": {"1 Main St"},
			"billing_city": {"Sacramento"}, "billing_state": {"CA"}, "billing_postcode": {"95814"}, "billing_country": {"US"},
			"billing_email": {"ada@example.com"}, "billing_phone": {"+1 555 010 0200"}, "terms": {"on"}, "payment_method": {"ppcp-gateway"}}
		body, _ := json.Marshal(map[string]any{"nonce": nonces()["ppc-create-order"], "context": "checkout", "payment_method": "ppcp-gateway",
			"funding_source": "paypal", "form_encoded": form.Encode()})
		var created struct {
			Success bool `json:"success"`
			Data    struct {
				ID         string `json:"id"`
				CustomID   string `json:"custom_id"`
				ApproveURL string `json:"approve_url"`
			} `json:"data"`
		}
		if _, b := call("POST", "/?wc-ajax=ppc-create-order", string(body)); json.Unmarshal(b, &created) != nil || !created.Success {
			t.Fatalf("create-order: %s\n%s", b, logs.String())
		}
		ppID := created.Data.ID
		orderID, _ := strconv.ParseInt(created.Data.CustomID, 10, 64)
		back, err := sb.Approve(ppID, paypalsandbox.FundingPayPal)
		if err != nil || !strings.HasPrefix(back, base+"/checkout/paypal-return/") {
			t.Fatalf("approve: %q %v", back, err)
		}
		// PayPal captures, then its answer hangs.
		sb.DelayNext("POST", "/capture", 1, 10*time.Minute)
		returned := make(chan error, 1)
		go func() {
			r, err := hc.Get(back)
			if err == nil {
				r.Body.Close()
				err = fmt.Errorf("the return answered %d while the capture answer hung", r.StatusCode)
			}
			returned <- err
		}()
		for deadline := time.Now().Add(30 * time.Second); sb.Captures(ppID) == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the shop never captured:\n%s", logs.String())
			}
		}
		if err := shop.Process.Kill(); err != nil { // SIGKILL between capture and order update
			t.Fatal(err)
		}
		<-exited
		if err := <-returned; err == nil || strings.Contains(err.Error(), "answered") {
			t.Fatalf("return: %v", err)
		}

		db, err := sqlstore.Open(context.Background(), dsn, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		o, err := db.Order(context.Background(), orderID)
		if err != nil || o.Paid() || o.PaymentState != checkout.PayCaptureRequested {
			t.Fatalf("after the kill the order should await its capture: %+v %v", o, err)
		}

		// Restart: the reconciler's startup pass finishes the order.
		_, logs2, _ := start()
		var paid *checkout.Order
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if paid, err = db.Order(context.Background(), orderID); err == nil && paid.Paid() {
				break
			}
		}
		if paid == nil || !paid.Paid() {
			t.Fatalf("order not paid after restart: %+v\n%s", paid, logs2.String())
		}
		pp, _ := sb.Order(ppID)
		caps := pp.Captures()
		if sb.Captures(ppID) != 1 || len(caps) != 1 || paid.Status != checkout.StatusProcessing || paid.CaptureID != caps[0].ID {
			t.Errorf("captures %d, order %s capture %q (PayPal's %v)", sb.Captures(ppID), paid.Status, paid.CaptureID, caps)
		}
		if v, err := caps[0].Amount.Minor(); err != nil || v != paid.Total {
			t.Errorf("captured %v, order total %d", caps[0].Amount, paid.Total)
		}
		// The buyer reloading the return page changes nothing.
		if res, _ := call("GET", strings.TrimPrefix(back, base), ""); res.StatusCode != 303 ||
			res.Header.Get("Location") != "/checkout/order-received/"+created.Data.CustomID+"/?key="+paid.Key {
			t.Errorf("return after restart: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		if sb.Captures(ppID) != 1 {
			t.Errorf("captured again: %d", sb.Captures(ppID))
		}
		// Stock conservation: 5 units = 4 in stock + 1 sold.
		p, err := db.Product(context.Background(), capID)
		if err != nil || p.StockQuantity == nil || *p.StockQuantity+1 != 5 {
			t.Errorf("stock after the paid order: %v %v", p.StockQuantity, err)
		}
	})
}
