package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Settings saved in the admin (settings.go, internal/adminapi/settings.go):
// staff only, versioned, validated, audited, and in force on every page
// (and on another instance on the same store) after the change poll.
func TestAdminSettings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		cfg := server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", CacheBytes: 16 << 20, CacheMaxAge: time.Hour,
			ChangePoll: 20 * time.Millisecond}
		f := newFrameShopWith(t, db, cfg)
		servertest.Start(t, f.srv)
		const path = "/wp-json/vitrine/v1/admin/settings"
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		get := f.do("GET", path, mia, "", "X-WP-Nonce", nonce)
		var cur map[string]any
		if err := json.Unmarshal([]byte(get.body), &cur); err != nil || get.status != 200 {
			t.Fatalf("get: %d %s", get.status, get.body)
		}
		if cur["name"] != "Vitrine" || cur["version"] != float64(0) || cur["infinite_scroll"] != "spinner" || cur["coming_soon"] != false || cur["consent_banner"] != false {
			t.Fatalf("the flags' defaults: %v", cur)
		}
		// Warm the home page's cache with the old name.
		if home := f.do("GET", "/", nil, ""); !strings.Contains(home.body, "<title>Vitrine – Tagline</title>") {
			t.Fatalf("home before: %.300s", home.body)
		}

		put := func(c *http.Cookie, nonce string, change func(map[string]any)) frameAnswer {
			body := map[string]any{}
			for k, v := range cur {
				body[k] = v
			}
			change(body)
			b, _ := json.Marshal(body)
			h := []string{"Content-Type", "application/json"}
			if nonce != "" {
				h = append(h, "X-WP-Nonce", nonce)
			}
			return f.do("PUT", path, c, string(b), h...)
		}
		// Refused: a customer, a missing nonce, bad fields; nothing changes.
		carla := f.cookie("Carla")
		if a := put(carla, f.nonce("Carla"), func(m map[string]any) { m["name"] = "Mine" }); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}
		if a := put(mia, "", func(m map[string]any) { m["name"] = "Mine" }); a.status != 401 {
			t.Errorf("no nonce: %d %s", a.status, a.body)
		}
		for field, change := range map[string]func(map[string]any){
			"name":            func(m map[string]any) { m["name"] = "" },
			"infinite_scroll": func(m map[string]any) { m["infinite_scroll"] = "sideways" },
			"store_notice":    func(m map[string]any) { m["store_notice"] = "<script>alert(1)</script>" },
			"address.country": func(m map[string]any) { m["address"] = map[string]any{"country": "Narnia"} },
			"version":         func(m map[string]any) { delete(m, "version") },
		} {
			a := put(mia, nonce, change)
			if a.status != 400 || a.json(t)["code"] != "rest_invalid_param" || !strings.Contains(a.body, `"`+field+`"`) {
				t.Errorf("%s: %d %s", field, a.status, a.body)
			}
		}
		if a := f.do("PUT", path, mia, "{nope", "X-WP-Nonce", nonce); a.status != 400 || a.json(t)["code"] != "rest_invalid_json" {
			t.Errorf("not JSON: %d %s", a.status, a.body)
		}

		// A save: the answer, the audit entry, and every page after the poll.
		saved := put(mia, nonce, func(m map[string]any) {
			m["name"], m["tagline"], m["store_notice"], m["infinite_scroll"] = "Maison Vitrine", "Since 2026", "Free returns in <em>30 days</em>", "button"
			m["consent_banner"] = true
		})
		if saved.status != 200 || saved.json(t)["version"] != float64(1) || saved.json(t)["name"] != "Maison Vitrine" {
			t.Fatalf("save: %d %s", saved.status, saved.body)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			home := f.do("GET", "/", nil, "")
			if strings.Contains(home.body, "<title>Maison Vitrine – Since 2026</title>") {
				if !strings.Contains(home.body, "Free returns in <em>30 days</em>") || !strings.Contains(home.body, `"infinite_scroll":{"type":"button"`) ||
					!strings.Contains(home.body, `"consent":{"banner":true}`) || !strings.Contains(home.body, "Cookie settings") {
					t.Errorf("home after: notice or settings missing")
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the home page still shows the old name: %.300s", home.body)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if m := f.do("GET", "/manifest.webmanifest", nil, ""); !strings.Contains(m.body, `"name": "Maison Vitrine"`) {
			t.Errorf("manifest: %s", m.body)
		}
		audit := f.do("GET", "/wp-json/vitrine/v1/admin/audit?object=settings", mia, "", "X-WP-Nonce", nonce)
		if !strings.Contains(audit.body, `"action":"settings.update"`) || !strings.Contains(audit.body, "Changed name, tagline, store notice, infinite scroll, consent banner (on)") {
			t.Errorf("audit: %s", audit.body)
		}

		// A save based on the old version (another tab) is refused with the settings now in force.
		stale := put(mia, nonce, func(m map[string]any) { m["name"] = "Lost Update" })
		if stale.status != 409 || stale.json(t)["code"] != "vitrine_settings_stale" || !strings.Contains(stale.body, `"name":"Maison Vitrine"`) {
			t.Fatalf("stale: %d %s", stale.status, stale.body)
		}

		// Coming-soon mode from the admin: visitors get the 503 page, staff browse.
		cur = saved.json(t)
		if a := put(f.cookie("Ada"), f.nonce("Ada"), func(m map[string]any) { m["coming_soon"] = true }); a.status != 200 {
			t.Fatalf("coming soon: %d %s", a.status, a.body)
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if a := f.do("GET", "/shop/", nil, ""); a.status == http.StatusServiceUnavailable {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("coming-soon mode not in force")
			}
		}
		if a := f.do("GET", "/shop/", mia, ""); a.status != 200 {
			t.Errorf("staff in coming-soon mode: %d", a.status)
		}

		// Another instance on the same store starts with the saved settings.
		other := newServerOn(t, db, "", 1, cfg)
		r := httptestGet(other, "/manifest.webmanifest")
		if !strings.Contains(r, `"name": "Maison Vitrine"`) {
			t.Errorf("another instance: %s", r)
		}
	})
}

// httptestGet answers a GET on srv, as a visitor.
func httptestGet(srv http.Handler, target string) string {
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	return w.Body.String()
}

// The settings' test message goes through the shop's real SMTP sender at
// once, and says what went wrong when it cannot.
func TestAdminTestMail(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/vitrine/v1/admin/settings/test-mail"
		ada, nonce := f.cookie("Ada"), f.nonce("Ada")
		send := func(body string) frameAnswer {
			return f.do("POST", path, ada, body, "Content-Type", "application/json", "X-WP-Nonce", nonce)
		}
		if a := send(`{"to":"owner@example.com"}`); a.status != 503 || a.json(t)["code"] != "vitrine_mail_not_configured" {
			t.Errorf("without SMTP: %d %s", a.status, a.body)
		}
		sender, sink := servertest.SMTPSender(t)
		f.srv.SetMailSender(sender)
		for _, bad := range []string{`{"to":""}`, `{"to":"not an address"}`, `{"to":"A <a@example.com>"}`, `{"to":"a@example.com, b@example.com"}`} {
			if a := send(bad); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" {
				t.Errorf("%s: %d %s", bad, a.status, a.body)
			}
		}
		if a := f.do("POST", path, f.cookie("Carla"), `{"to":"owner@example.com"}`, "Content-Type", "application/json",
			"X-WP-Nonce", f.nonce("Carla")); a.status != 403 {
			t.Errorf("customer: %d", a.status)
		}
		if len(sink.Messages()) != 0 {
			t.Fatal("a refused call sent mail")
		}
		if a := send(`{"to":" owner@example.com "}`); a.status != 200 || a.json(t)["to"] != "owner@example.com" {
			t.Fatalf("send: %d %s", a.status, a.body)
		}
		got := sink.WaitFor(t, 1)
		if got[0].To[0] != "owner@example.com" || !strings.Contains(string(got[0].Data), "Subject: [Vitrine] Test message") {
			t.Errorf("delivered: %+v %s", got[0].To, got[0].Data)
		}
		// The SMTP server gone: the failure is reported, not hidden.
		sink.Stop()
		if a := send(`{"to":"owner@example.com"}`); a.status != 502 || a.json(t)["code"] != "vitrine_mail_failed" {
			t.Errorf("SMTP down: %d %s", a.status, a.body)
		}
	})
}
