package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/integration"
	"vitrine/internal/money"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/webhook"
)

// Webhooks through the server: WooCommerce's routes and shapes
// (reference: woocommerce-11-responses/wc-v3-webhooks*.http), staff only,
// and a real checkout's order.created delivered with the order's v3 JSON
// and a signature that verifies.

type hookListener struct {
	mu  sync.Mutex
	got []*http.Request
	raw [][]byte
}

func (l *hookListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	l.got, l.raw = append(l.got, r), append(l.raw, b)
	l.mu.Unlock()
}

func TestWebhooksRoutesAndOrderCreated(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/webhooks"
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		mia := f.cookie("Mia")
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.do(method, target, mia, body, "X-WP-Nonce", f.nonce("Mia"))
		}
		deliver := func() {
			t.Helper()
			if _, err := f.srv.WebhookWorker().RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}

		// A customer is refused.
		if a := f.do("GET", path, f.cookie("Carla"), "", "X-WP-Nonce", f.nonce("Carla")); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}
		// WooCommerce's refusals.
		if a := staff("POST", path, `{"topic":"order.exploded","delivery_url":"`+hs.URL+`"}`); a.status != 400 || a.json(t)["code"] != "woocommerce_rest_shop_webhook_invalid_topic" {
			t.Errorf("bad topic: %d %s", a.status, a.body)
		}
		if a := staff("POST", path, `{"topic":"order.created","delivery_url":"ftp://x"}`); a.status != 400 || a.json(t)["code"] != "woocommerce_rest_shop_webhook_invalid_delivery_url" {
			t.Errorf("bad url: %d %s", a.status, a.body)
		}

		a := staff("POST", path, `{"name":"Fixture order.created","topic":"order.created","delivery_url":"`+hs.URL+`/hook","status":"active","secret":"s3cret"}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		h := a.json(t)
		id := int64(h["id"].(float64))
		self := "https://shop.example/wp-json/wc/v3/webhooks/" + strconv.FormatInt(id, 10)
		keys := []string{"id", "name", "status", "topic", "resource", "event", "hooks", "delivery_url", "date_created", "date_created_gmt",
			"date_modified", "date_modified_gmt", "_links"}
		var got []string
		for k := range h {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(keys)
		if !slices.Equal(got, keys) {
			t.Errorf("fields %v, want %v", got, keys)
		}
		if h["resource"] != "order" || h["event"] != "created" || h["status"] != "active" || h["date_modified"] != nil ||
			a.header.Get("Location") != self || !strings.Contains(a.body, `"hooks":["woocommerce_new_order"]`) ||
			!strings.Contains(a.body, `"self":[{"href":"`+self+`","targetHints":{"allow":["GET","POST","PUT","PATCH","DELETE"]}}]`) ||
			!strings.Contains(a.body, `"collection":[{"href":"https://shop.example/wp-json/wc/v3/webhooks"}]`) {
			t.Errorf("created: %s (Location %q)", a.body, a.header.Get("Location"))
		}
		if strings.Contains(a.body, "s3cret") {
			t.Errorf("the secret is shown: %s", a.body)
		}

		// The ping, then a real checkout's order.created.
		deliver()
		c := f.client()
		c.do("GET", cartAPI, "")
		c.addItem(f.productID("cotton-tank-top"), 2)
		r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", c.nonce)
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		orderID := num(r.body["order_id"])
		deliver()
		l.mu.Lock()
		reqs, raws := l.got, l.raw
		l.mu.Unlock()
		if len(reqs) != 2 || string(raws[0]) != "webhook_id="+strconv.FormatInt(id, 10) {
			t.Fatalf("listener got %d requests (first %q)", len(reqs), raws[0])
		}
		d, body := reqs[1], raws[1]
		m := hmac.New(sha256.New, []byte("s3cret"))
		m.Write(body)
		if d.Header.Get("X-WC-Webhook-Signature") != base64.StdEncoding.EncodeToString(m.Sum(nil)) || d.Header.Get("X-WC-Webhook-Topic") != "order.created" ||
			d.Header.Get("X-WC-Webhook-Source") != "https://shop.example/" || d.Header.Get("X-WC-Webhook-ID") != strconv.FormatInt(id, 10) {
			t.Errorf("headers: %v", d.Header)
		}
		var order map[string]any
		if err := json.Unmarshal(body, &order); err != nil || num(order["id"]) != orderID || order["total"] == nil || order["line_items"] == nil || order["billing"] == nil {
			t.Errorf("order body: %s %v", body, err)
		}
		for _, k := range []string{"notes", "mails", "next_statuses"} {
			if _, ok := order[k]; ok {
				t.Errorf("the body has the admin screen's %s", k)
			}
		}

		// List, one, the delivery log.
		a = staff("GET", path, "")
		if a.status != 200 || a.header.Get("X-WP-Total") != "1" || a.header.Get("X-WP-TotalPages") != "1" || !strings.HasPrefix(a.body, `[{"id":`) {
			t.Errorf("list: %d %s", a.status, a.body)
		}
		if a = staff("GET", path+"/"+strconv.FormatInt(id, 10), ""); a.status != 200 || a.json(t)["delivery_url"] != hs.URL+"/hook" {
			t.Errorf("get: %d %s", a.status, a.body)
		}
		a = staff("GET", path+"/"+strconv.FormatInt(id, 10)+"/deliveries", "")
		var log []map[string]any
		if err := json.Unmarshal([]byte(a.body), &log); err != nil || len(log) != 2 || log[0]["response_code"] != "200" || log[0]["topic"] != "order.created" ||
			num(log[0]["request_body_size"]) != int64(len(body)) {
			t.Errorf("deliveries: %d %s", a.status, a.body)
		}

		// Pause, then delete (force only).
		if a = staff("PUT", path+"/"+strconv.FormatInt(id, 10), `{"status":"paused"}`); a.status != 200 || a.json(t)["status"] != "paused" || a.json(t)["date_modified"] == nil {
			t.Errorf("pause: %d %s", a.status, a.body)
		}
		if a = staff("DELETE", path+"/"+strconv.FormatInt(id, 10), ""); a.status != 501 || a.json(t)["code"] != "woocommerce_rest_trash_not_supported" {
			t.Errorf("delete without force: %d %s", a.status, a.body)
		}
		if a = staff("DELETE", path+"/"+strconv.FormatInt(id, 10)+"?force=true", ""); a.status != 200 || num(a.json(t)["id"]) != id {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a = staff("GET", path+"/"+strconv.FormatInt(id, 10), ""); a.status != 404 || a.json(t)["code"] != "woocommerce_rest_shop_webhook_invalid_id" {
			t.Errorf("deleted: %d %s", a.status, a.body)
		}
	})
}

// Without --webhooks-allow-private a loopback delivery URL is refused.
func TestWebhooksPrivateRefused(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		a := f.do("POST", "/wp-json/wc/v3/webhooks", f.cookie("Mia"), `{"topic":"order.created","delivery_url":"http://127.0.0.1:8080/hook"}`, "X-WP-Nonce", f.nonce("Mia"))
		if a.status != 400 || a.json(t)["code"] != "woocommerce_rest_shop_webhook_invalid_delivery_url" {
			t.Errorf("loopback: %d %s", a.status, a.body)
		}
	})
}

// Each topic is raised where its change commits: a product edited and
// trashed, a coupon made, an order's status changed by staff.
func TestWebhooksTopics(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		mia := f.cookie("Mia")
		staff := func(method, target, body string, headers ...string) frameAnswer {
			t.Helper()
			a := f.do(method, target, mia, body, append([]string{"X-WP-Nonce", f.nonce("Mia")}, headers...)...)
			if a.status >= 300 {
				t.Fatalf("%s %s: %d %s", method, target, a.status, a.body)
			}
			return a
		}
		for _, topic := range []string{"product.updated", "product.deleted", "product.restored", "coupon.created", "order.updated"} {
			staff("POST", "/wp-json/wc/v3/webhooks", `{"topic":"`+topic+`","delivery_url":"`+hs.URL+`/`+topic+`","status":"paused"}`)
		}
		hooks := staff("GET", "/wp-json/wc/v3/webhooks", "")
		var list []map[string]any
		_ = json.Unmarshal([]byte(hooks.body), &list)
		for _, h := range list {
			staff("PUT", "/wp-json/wc/v3/webhooks/"+strconv.FormatInt(num(h["id"]), 10), `{"status":"active"}`) // no ping when made paused
		}
		c := f.client()
		c.do("GET", cartAPI, "")
		c.addItem(f.productID("cotton-tank-top"), 1)
		r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", c.nonce)
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		orderID := num(r.body["order_id"])
		tank := f.productID("cotton-tank-top")
		etag := staff("GET", "/wp-json/wc/v3/products/"+strconv.FormatInt(tank, 10), "").header.Get("ETag")
		staff("PUT", "/wp-json/wc/v3/products/"+strconv.FormatInt(tank, 10), `{"name":"Cotton tank top, renamed"}`, "If-Match", etag)
		staff("POST", "/wp-json/wc/v3/coupons", `{"code":"hooked","discount_type":"percent","amount":"5"}`)
		staff("PUT", "/wp-json/wc/v3/orders/"+strconv.FormatInt(orderID, 10), `{"status":"cancelled"}`)
		other := f.productID("zip-pouch")
		staff("DELETE", "/wp-json/wc/v3/products/"+strconv.FormatInt(other, 10), "") // to the trash
		if a := staff("POST", "/wp-json/vitrine/v1/admin/products/bulk", `{"action":"restore","ids":[`+strconv.FormatInt(other, 10)+`]}`); a.status != 200 {
			t.Fatalf("restore: %d %s", a.status, a.body)
		}
		if _, err := f.srv.WebhookWorker().RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		got := map[string]string{}
		for i, r := range l.got {
			got[r.Header.Get("X-WC-Webhook-Topic")] = string(l.raw[i])
			if "/"+r.Header.Get("X-WC-Webhook-Topic") != r.URL.Path {
				t.Errorf("%s delivered to %s", r.Header.Get("X-WC-Webhook-Topic"), r.URL.Path)
			}
		}
		if !strings.Contains(got["product.updated"], `"name":"Cotton tank top, renamed"`) || !strings.Contains(got["coupon.created"], `"code":"hooked"`) ||
			!strings.Contains(got["order.updated"], `"status":"cancelled"`) || got["product.deleted"] != `{"id":`+strconv.FormatInt(other, 10)+`}` ||
			!strings.Contains(got["product.restored"], `"id":`+strconv.FormatInt(other, 10)+`,`) || !strings.Contains(got["product.restored"], `"status":"draft"`) {
			t.Errorf("deliveries: %v", got)
		}
	})
}

// Two instances on one store, each with its worker running: every
// checkout's order.created reaches the listener once.
func TestWebhooksTwoInstancesDeliverOnce(t *testing.T) {
	t.Parallel()
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		usd, _ := money.Lookup("USD")
		ck := checkout.DefaultConfig(usd)
		ck.RateLimitPerAddress = 1000
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clock := storetest.NewClock(seedTime)
		var shops []*shop
		for i := range 2 {
			db := storetest.OpenDSN(t, dsn)
			db.SetClock(clock.Now)
			cfg := server.Config{BaseURL: "https://shop.example", Checkout: ck, Secret: []byte("one shop, two instances"), Now: clock.Now,
				WebhooksAllowPrivate: true, Webhooks: webhook.Options{Interval: 20 * time.Millisecond}}
			var srv *server.Server
			if i == 0 {
				srv = newServer(t, db, "", 1, cfg)
			} else {
				srv = newServerOn(t, db, "", 1, cfg)
			}
			if err := srv.Start(ctx); err != nil {
				t.Fatal(err)
			}
			shops = append(shops, &shop{t: t, db: db, srv: srv})
		}
		h, err := shops[0].srv.Webhooks().Create(ctx, 0, webhook.Input{Topic: ptr("order.created"), DeliveryURL: ptr(hs.URL), Secret: ptr("s")})
		if err != nil {
			t.Fatal(err)
		}
		const n = 10
		want := map[int64]bool{}
		tank := shops[0].productID("cotton-tank-top")
		for i := range n {
			c := shops[i%2].client()
			c.do("GET", cartAPI, "")
			c.addItem(tank, 1)
			r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", c.nonce)
			if r.status != 200 {
				t.Fatalf("checkout %d: %d %s", i, r.status, r.raw)
			}
			want[num(r.body["order_id"])] = true
		}
		count := func() int { l.mu.Lock(); defer l.mu.Unlock(); return len(l.got) }
		for deadline := time.Now().Add(30 * time.Second); count() < n+1 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		for _, s := range shops { // anything still queued goes now
			if _, err := s.srv.WebhookWorker().RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		seen := map[int64]int{}
		for i, r := range l.got {
			if r.Header.Get("X-WC-Webhook-Topic") != "order.created" {
				if string(l.raw[i]) != "webhook_id="+strconv.FormatInt(h.ID, 10) {
					t.Errorf("unexpected request %q", l.raw[i])
				}
				continue
			}
			var o map[string]any
			_ = json.Unmarshal(l.raw[i], &o)
			seen[num(o["id"])]++
		}
		if len(l.got) != n+1 || len(seen) != n {
			t.Errorf("listener got %d requests for %d orders, want %d for %d", len(l.got), len(seen), n+1, n)
		}
		for id, c := range seen {
			if !want[id] || c != 1 {
				t.Errorf("order %d delivered %d times", id, c)
			}
		}
	})
}

func ptr(s string) *string { return &s }

// POST /webhooks/batch: WooCommerce's batch answer, a refused item as its
// error next to its id, the others applied.
func TestWebhooksBatch(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/webhooks"
		mia := f.cookie("Mia")
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.do(method, target, mia, body, "X-WP-Nonce", f.nonce("Mia"))
		}
		first := staff("POST", path, `{"topic":"coupon.created","delivery_url":"http://127.0.0.1:9/a","status":"paused"}`)
		id := strconv.FormatInt(num(first.json(t)["id"]), 10)
		a := staff("POST", path+"/batch", `{"create":[{"name":"B","topic":"product.updated","delivery_url":"http://127.0.0.1:9/b","status":"paused"},
			{"topic":"nope","delivery_url":"http://127.0.0.1:9/c"}],
			"update":[{"id":`+id+`,"name":"Renamed"},{"id":999999,"name":"x"}],"delete":[`+id+`]}`)
		var out struct {
			Create []map[string]any `json:"create"`
			Update []map[string]any `json:"update"`
			Delete []map[string]any `json:"delete"`
		}
		if err := json.Unmarshal([]byte(a.body), &out); err != nil || a.status != 200 || len(out.Create) != 2 || len(out.Update) != 2 || len(out.Delete) != 1 {
			t.Fatalf("batch: %d %s", a.status, a.body)
		}
		if out.Create[0]["name"] != "B" || out.Create[1]["error"].(map[string]any)["code"] != "woocommerce_rest_shop_webhook_invalid_topic" ||
			out.Update[0]["name"] != "Renamed" || out.Update[1]["error"].(map[string]any)["code"] != "woocommerce_rest_shop_webhook_invalid_id" ||
			num(out.Delete[0]["id"]) != num(first.json(t)["id"]) {
			t.Errorf("batch: %s", a.body)
		}
		if a := staff("GET", path, ""); a.header.Get("X-WP-Total") != "1" || !strings.Contains(a.body, `"name":"B"`) {
			t.Errorf("after the batch: %s", a.body)
		}
	})
}

// A REST API key manages webhooks as WooCommerce's clients do (OAuth 1.0a
// over plain HTTP, as the reference recordings): a read key lists them and
// is refused a write; a read_write key creates one.
func TestWebhooksWithAPIKey(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		k := &apiKeyShop{frameShop: f, keys: &integration.Service{Store: f.db, Now: f.db.Now}}
		rw, ro := k.key("Mia", integration.ReadWrite), k.key("Mia", integration.Read)
		const path = "/wp-json/wc/v3/webhooks"
		body := `{"name":"Fixture order.created","topic":"order.created","delivery_url":"http://127.0.0.1:8080/hook","status":"paused","secret":"x"}`
		ct := []string{"Content-Type", "application/json;charset=utf-8"}
		a := f.do("POST", oauthTarget(f.db, ro, "POST", path, nil, "n1"), nil, body, ct...)
		wantWooError(t, "read key writing", a, 401, "woocommerce_rest_authentication_error", "The API key provided does not have write permissions.")
		if a = f.do("POST", oauthTarget(f.db, rw, "POST", path, nil, "n2"), nil, body, ct...); a.status != 201 || a.json(t)["topic"] != "order.created" {
			t.Fatalf("read_write key: %d %s", a.status, a.body)
		}
		if a = f.do("GET", oauthTarget(f.db, ro, "GET", path, nil, "n3"), nil, ""); a.status != 200 || a.header.Get("X-WP-Total") != "1" {
			t.Errorf("read key listing: %d %s", a.status, a.body)
		}
	})
}

// A receiver that keeps failing: the webhook is disabled after
// webhook.MaxFailures attempts, and its delivery log tells the admin
// screen why (each attempt's code, status text and summary, newest first).
func TestWebhookDisabledAfterFailuresLog(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true,
			Webhooks: webhook.Options{Backoff: time.Nanosecond, MaxBackoff: time.Nanosecond}})
	}, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/webhooks"
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
		defer hs.Close()
		a := f.staffCall("Mia", "POST", path, `{"name":"Failing","topic":"order.created","delivery_url":"`+hs.URL+`/hook"}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		id := strconv.FormatInt(num(a.json(t)["id"]), 10)
		for range webhook.MaxFailures {
			if _, err := f.srv.WebhookWorker().RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if a := f.staffCall("Mia", "GET", path+"/"+id, ""); a.json(t)["status"] != "disabled" {
			t.Fatalf("after %d failures: %s", webhook.MaxFailures, a.body)
		}
		var log []map[string]any
		a = f.staffCall("Mia", "GET", path+"/"+id+"/deliveries", "")
		if err := json.Unmarshal([]byte(a.body), &log); err != nil || len(log) != webhook.MaxFailures {
			t.Fatalf("deliveries: %d %s", a.status, a.body)
		}
		for _, e := range log {
			if e["response_code"] != "500" || e["response_message"] != "Internal Server Error" || e["summary"] != "HTTP 500 Internal Server Error" || e["topic"] != "ping" {
				t.Errorf("attempt: %v", e)
			}
		}
	})
}
