package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/integration"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/webhook"
)

// hookEvent is one delivery the listener got: its topic and body.
type hookEvent struct{ topic, body string }

// events are the listener's deliveries with a topic (pings have none).
func (l *hookListener) events() []hookEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []hookEvent
	for i, r := range l.got {
		if topic := r.Header.Get("X-WC-Webhook-Topic"); topic != "" {
			out = append(out, hookEvent{topic, string(l.raw[i])})
		}
	}
	return out
}

// customer.* and coupon.* are raised from the admin (a staff cookie), the
// REST API (a key, OAuth over plain HTTP) and not for staff accounts; a
// use case that writes several times (a customer made or edited with names
// and addresses) sends each webhook one event, carrying all of it.
func TestWebhooksCustomerAndCouponTopics(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		for _, topic := range []string{"customer.created", "customer.updated", "customer.deleted", "coupon.created", "coupon.updated", "coupon.deleted"} {
			if _, err := f.srv.Webhooks().Create(ctx, f.users["Mia"], webhook.Input{Topic: &topic, DeliveryURL: &hs.URL}); err != nil {
				t.Fatal(err)
			}
		}
		deliver := func() []hookEvent {
			t.Helper()
			before := len(l.events())
			if _, err := f.srv.WebhookWorker().RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			return l.events()[before:]
		}
		deliver() // the pings
		mia := f.cookie("Mia")
		admin := func(method, target, body string) frameAnswer {
			t.Helper()
			a := f.do(method, target, mia, body, "X-WP-Nonce", f.nonce("Mia"), "Content-Type", "application/json")
			if a.status >= 300 {
				t.Fatalf("%s %s: %d %s", method, target, a.status, a.body)
			}
			return a
		}
		key, err := (&integration.Service{Store: f.db, Now: f.db.Now}).Create(ctx, f.users["Mia"], "Sync", integration.ReadWrite)
		if err != nil {
			t.Fatal(err)
		}
		nonce := 0
		rest := func(method, path string, query url.Values, body string) frameAnswer {
			t.Helper()
			nonce++
			a := f.do(method, oauthTarget(f.db, key, method, path, query, "n"+strconv.Itoa(nonce)), nil, body, "Content-Type", "application/json")
			if a.status >= 300 {
				t.Fatalf("%s %s (key): %d %s", method, path, a.status, a.body)
			}
			return a
		}

		// The admin makes a customer with names and both addresses (the
		// account, then its names and addresses): customer.created with
		// all of it, and one customer.updated for the writes after the
		// account (each webhook holds one untried event per customer).
		a := admin("POST", "/wp-json/wc/v3/customers", `{"email":"nina@example.com","first_name":"Nina","last_name":"Hook",`+
			`"billing":{"city":"Lyon","country":"FR","email":"nina@example.com"},"shipping":{"city":"Nantes","country":"FR"}}`)
		nina := num(a.json(t)["id"])
		// A staff account is not a customer: nothing is announced.
		f.addUsers(frameUser{"Sam Staff", account.RoleShopManager})
		got := deliver()
		if len(got) != 2 || got[0].topic != "customer.created" || got[1].topic != "customer.updated" || got[1].body != got[0].body {
			t.Fatalf("after the admin's create: %v", got)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(got[0].body), &body); err != nil || num(body["id"]) != nina || body["email"] != "nina@example.com" ||
			body["first_name"] != "Nina" || !strings.Contains(got[0].body, `"city":"Lyon"`) || !strings.Contains(got[0].body, `"city":"Nantes"`) {
			t.Errorf("customer.created body: %s %v", got[0].body, err)
		}

		// The REST API changes the name: customer.updated with it.
		rest("PUT", "/wp-json/wc/v3/customers/"+strconv.FormatInt(nina, 10), nil, `{"first_name":"Ninon"}`)
		if got = deliver(); len(got) != 1 || got[0].topic != "customer.updated" || !strings.Contains(got[0].body, `"first_name":"Ninon"`) {
			t.Errorf("after the key's update: %v", got)
		}
		// The admin changes the billing city: another one.
		admin("PUT", "/wp-json/wc/v3/customers/"+strconv.FormatInt(nina, 10), `{"billing":{"city":"Lille"}}`)
		if got = deliver(); len(got) != 1 || got[0].topic != "customer.updated" || !strings.Contains(got[0].body, `"city":"Lille"`) {
			t.Errorf("after the admin's update: %v", got)
		}
		// The REST API makes one too, then deletes it (deleted carries its
		// id only).
		made := num(rest("POST", "/wp-json/wc/v3/customers", nil, `{"email":"omar@example.com"}`).json(t)["id"])
		if got = deliver(); len(got) != 1 || got[0].topic != "customer.created" || !strings.Contains(got[0].body, `"email":"omar@example.com"`) {
			t.Errorf("the key's create: %v", got)
		}
		rest("DELETE", "/wp-json/wc/v3/customers/"+strconv.FormatInt(made, 10), url.Values{"force": {"true"}}, "")
		if got = deliver(); len(got) != 1 || got[0].topic != "customer.deleted" || got[0].body != `{"id":`+strconv.FormatInt(made, 10)+`}` {
			t.Errorf("the key's delete: %v", got)
		}
		// The admin deletes a customer, the batch route included.
		admin("POST", "/wp-json/wc/v3/customers/batch", `{"delete":[`+strconv.FormatInt(nina, 10)+`]}`)
		if got = deliver(); len(got) != 1 || got[0].topic != "customer.deleted" || got[0].body != `{"id":`+strconv.FormatInt(nina, 10)+`}` {
			t.Errorf("the admin's batch delete: %v", got)
		}

		// Coupons through the REST API: created, updated, deleted.
		c := num(rest("POST", "/wp-json/wc/v3/coupons", nil, `{"code":"keyed","discount_type":"percent","amount":"5"}`).json(t)["id"])
		if got = deliver(); len(got) != 1 || got[0].topic != "coupon.created" || !strings.Contains(got[0].body, `"code":"keyed"`) {
			t.Errorf("coupon.created: %v", got)
		}
		rest("PUT", "/wp-json/wc/v3/coupons/"+strconv.FormatInt(c, 10), nil, `{"amount":"7"}`)
		if got = deliver(); len(got) != 1 || got[0].topic != "coupon.updated" || !strings.Contains(got[0].body, `"amount":"7.00"`) {
			t.Errorf("coupon.updated: %v", got)
		}
		rest("DELETE", "/wp-json/wc/v3/coupons/"+strconv.FormatInt(c, 10), url.Values{"force": {"true"}}, "")
		if got = deliver(); len(got) != 1 || got[0].topic != "coupon.deleted" || got[0].body != `{"id":`+strconv.FormatInt(c, 10)+`}` {
			t.Errorf("coupon.deleted: %v", got)
		}
	})
}

// A shopper's registration on the storefront (the real form, bot-check
// solved) raises customer.created, delivered by the started shop's own
// worker.
func TestWebhooksCustomerCreatedOnRegistration(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{WebhooksAllowPrivate: true, Webhooks: webhook.Options{Interval: 20 * time.Millisecond}}, func(t *testing.T, s *loginShop) {
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		topic := "customer.created"
		if _, err := s.srv.Webhooks().Create(context.Background(), 0, webhook.Input{Topic: &topic, DeliveryURL: &hs.URL}); err != nil {
			t.Fatal(err)
		}
		b := s.browser()
		if a := b.submitRegister("email", "reg@example.com", "password", loginPass, "wfls-captcha", b.solve("register")); a.status != 303 {
			t.Fatalf("register: %d %s", a.status, a.raw)
		}
		u, err := s.db.UserByEmail(context.Background(), "reg@example.com")
		if err != nil {
			t.Fatal(err)
		}
		var got []hookEvent
		for deadline := time.Now().Add(20 * time.Second); len(got) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			got = l.events()
		}
		if len(got) != 1 || got[0].topic != "customer.created" || !strings.Contains(got[0].body, `"id":`+strconv.FormatInt(u.ID, 10)+`,`) ||
			!strings.Contains(got[0].body, `"email":"reg@example.com"`) {
			t.Errorf("deliveries: %v", got)
		}
	})
}
