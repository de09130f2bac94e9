package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Payment methods in the admin (internal/adminapi/payments.go,
// settings.PaymentMethods): the start-up configuration until the first
// save; disabling cash on delivery takes it off the next cart at once;
// PayPal credentials are checked with a token request to the wallet's
// sandbox on loopback before they are saved; the secret is never
// answered nor audited.
func TestAdminPayments(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "test-client", Secret: "test-secret"})
		base := serveSandbox(t, sb)
		wc := server.WalletConfig{PayPal: &paypal.Client{BaseURL: base, ClientID: "test-client", Secret: "test-secret", WebhookID: sb.WebhookID()},
			CallTimeout: 5 * time.Second, ReconcileEvery: time.Hour}
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
			CacheBytes: 16 << 20, CacheMaxAge: time.Hour, Wallet: &wc})
		const path = "/wp-json/vitrine/v1/admin/payments"
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		get := f.do("GET", path, mia, "", "X-WP-Nonce", nonce)
		if get.status != 200 || !strings.Contains(get.body, `"cod":{"enabled":true`) ||
			!strings.Contains(get.body, `"paypal":{"enabled":true,"client_id":"test-client","secret_set":true,"environment":"sandbox"}`) ||
			!strings.Contains(get.body, `"version":0`) || strings.Contains(get.body, "test-secret") {
			t.Fatalf("get: %d %s", get.status, get.body)
		}

		// A shopper's cart offers cash on delivery.
		s := f.shop
		c := s.client()
		c.do("GET", cartAPI, "")
		if r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top"))); r.status != 201 {
			t.Fatalf("add: %d %s", r.status, r.raw)
		}
		methods := func() string {
			r := c.do("GET", cartAPI, "")
			b, _ := json.Marshal(r.body["payment_methods"])
			return string(b)
		}
		if got := methods(); got != `["bacs","cod","ppcp-gateway"]` {
			t.Fatalf("methods before: %s", got)
		}

		put := func(cookie string, body string) frameAnswer {
			return f.do("PUT", path, f.cookie(cookie), body, "X-WP-Nonce", f.nonce(cookie), "Content-Type", "application/json")
		}
		replace := func(b, old, new string) string {
			if !strings.Contains(b, old) {
				t.Fatalf("%q not in %s", old, b)
			}
			return strings.Replace(b, old, new, 1)
		}
		codOff := replace(get.body, `"cod":{"enabled":true`, `"cod":{"enabled":false`)
		// A customer is refused; bad input names its field; wrong credentials are PayPal's refusal.
		if a := put("Carla", codOff); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}
		for field, body := range map[string]string{
			"version":               replace(codOff, `"version":0`, `"version":-1`),
			"paypal.environment":    replace(codOff, `"environment":"sandbox"`, `"environment":"prod"`),
			"bacs.accounts[0].iban": replace(codOff, `"iban":""`, `"iban":"DE00 3704 0044 0532 0130 00"`),
			"bacs.title":            replace(codOff, `"title":""`, `"title":"a\nb"`),
		} {
			if a := put("Mia", body); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" || !strings.Contains(a.body, `"`+field+`"`) {
				t.Errorf("%s: %d %s", field, a.status, a.body)
			}
		}
		wrong := replace(codOff, `"client_id":"test-client","secret_set":true`, `"client_id":"test-client","secret":"not-the-secret"`)
		if a := put("Mia", wrong); a.status != 400 || a.json(t)["code"] != "vitrine_paypal_refused" || !strings.Contains(a.body, "invalid_client") {
			t.Errorf("wrong credentials: %d %s", a.status, a.body)
		}
		if got := methods(); got != `["bacs","cod","ppcp-gateway"]` {
			t.Fatalf("a refused save changed the methods: %s", got)
		}

		// The test call alone.
		test := func(body string) frameAnswer {
			return f.do("POST", path+"/paypal/test", mia, body, "X-WP-Nonce", nonce, "Content-Type", "application/json")
		}
		if a := test(`{"client_id":"test-client","secret":"test-secret","environment":"sandbox"}`); a.status != 200 || a.json(t)["ok"] != true {
			t.Errorf("test, good: %d %s", a.status, a.body)
		}
		if a := test(`{"client_id":"test-client","secret":"nope","environment":"live"}`); a.status != 400 || a.json(t)["code"] != "vitrine_paypal_refused" {
			t.Errorf("test, wrong: %d %s", a.status, a.body)
		}
		if a := test(`{"client_id":"","secret":"x","environment":"sandbox"}`); a.status != 400 || !strings.Contains(a.body, `"paypal.client_id"`) {
			t.Errorf("test, no client id: %d %s", a.status, a.body)
		}

		// Disable cash on delivery, with a bank account and the secret kept (omitted).
		saved := put("Mia", replace(codOff, `"iban":""`, `"iban":"DE89 3704 0044 0532 0130 00"`))
		if saved.status != 200 || saved.json(t)["version"] != float64(1) || !strings.Contains(saved.body, `"iban":"DE89370400440532013000"`) ||
			!strings.Contains(saved.body, `"secret_set":true`) || strings.Contains(saved.body, "test-secret") {
			t.Fatalf("save: %d %s", saved.status, saved.body)
		}
		if got := methods(); got != `["bacs","ppcp-gateway"]` {
			t.Fatalf("methods after disabling cash on delivery: %s", got)
		}
		// Saving from the old version again is refused.
		if a := put("Mia", codOff); a.status != 409 || a.json(t)["code"] != "vitrine_settings_stale" {
			t.Errorf("stale: %d %.300s", a.status, a.body)
		}
		audit := f.do("GET", "/wp-json/vitrine/v1/admin/audit?object=settings", mia, "", "X-WP-Nonce", nonce)
		if !strings.Contains(audit.body, "Payment methods: changed bank accounts, cash on delivery (off)") ||
			!strings.Contains(audit.body, "PayPal credentials checked") || strings.Contains(audit.body, "test-secret") || strings.Contains(audit.body, "not-the-secret") {
			t.Errorf("audit: %s", audit.body)
		}
		// Another instance on the store starts without cash on delivery.
		other := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Wallet: &wc})
		o := &shop{t: t, db: db, srv: other}
		oc := o.client()
		oc.do("GET", cartAPI, "")
		r := oc.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top")))
		if !strings.Contains(r.raw, `"payment_methods":["bacs","ppcp-gateway"]`) {
			t.Errorf("another instance: %.300s", r.raw)
		}

		// PayPal turned off: this instance keeps its wallet until it restarts; one started after has none.
		off := put("Mia", replace(saved.body, `"paypal":{"enabled":true`, `"paypal":{"enabled":false`))
		if off.status != 200 || off.json(t)["version"] != float64(2) {
			t.Fatalf("PayPal off: %d %s", off.status, off.body)
		}
		if got := methods(); got != `["bacs","ppcp-gateway"]` {
			t.Errorf("this instance after PayPal off: %s", got)
		}
		restarted := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Wallet: &wc})
		rc := (&shop{t: t, db: db, srv: restarted}).client()
		rc.do("GET", cartAPI, "")
		r = rc.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top")))
		if !strings.Contains(r.raw, `"payment_methods":["bacs"]`) {
			t.Errorf("restarted with PayPal off: %.300s", r.raw)
		}
	})
}
