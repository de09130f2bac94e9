package main_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"vitrine/internal/integration"
	"vitrine/internal/mail/mailtest"
	"vitrine/internal/storage/storetest"
)

// restKey signs REST API requests to the binary as WooCommerce's clients
// do over plain HTTP: OAuth 1.0a one-legged, HMAC-SHA256, the oauth_*
// parameters in the query.
type restKey struct {
	t           *testing.T
	base        string // http://127.0.0.1:port
	key, secret string
}

// newRESTKey makes a shop manager and a read_write key with the binary's
// command line, on the store behind dsn.
func newRESTKey(t *testing.T, bin, dsn, base string) *restKey {
	t.Helper()
	db := []string{"--db", dsn, "--log-level", "warn"}
	if out, code := run(t, bin, "a long and unguessable password\n", append(db, "user", "create", "--email", "sync@example.com", "--role", "shop_manager", "--password-stdin")...); code != 0 {
		t.Fatalf("user create: %d %s", code, out)
	}
	out, code := run(t, bin, "", append(db, "api-key", "create", "--email", "sync@example.com", "--permissions", "read_write", "--description", "kill test")...)
	m := regexp.MustCompile(`consumer_key=(ck_[0-9a-f]{40}) consumer_secret=(cs_[0-9a-f]{40})`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("api-key create: %d %s", code, out)
	}
	return &restKey{t: t, base: base, key: m[1], secret: m[2]}
}

// call sends a signed request with a JSON body (or none) and decodes the
// answer into out; a non-2xx answer fails the test.
func (k *restKey) call(method, path, body string, out any) {
	k.t.Helper()
	nonce := make([]byte, 12)
	_, _ = rand.Read(nonce)
	q := url.Values{"oauth_consumer_key": {k.key}, "oauth_nonce": {hex.EncodeToString(nonce)}, "oauth_signature_method": {integration.HMACSHA256},
		"oauth_timestamp": {strconv.FormatInt(time.Now().Unix(), 10)}, "oauth_version": {"1.0"}}
	var params []integration.Param
	for name, v := range q {
		params = append(params, integration.Param{Name: name, Value: v[0]})
	}
	sig, _ := integration.Sign(integration.HMACSHA256, k.secret+"&", integration.BaseString(method, k.base+path, params))
	q.Set("oauth_signature", sig)
	req, _ := http.NewRequest(method, k.base+path+"?"+q.Encode(), strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		k.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		k.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			k.t.Fatalf("%s %s: %v: %.300s", method, path, err, b)
		}
	}
}

// killListener receives order.created deliveries. It answers 200 to the
// first `answer` of them, then holds every later one unanswered until the
// shop's connection goes (the shop is killed mid-delivery) or release
// (after the restart, when it answers everything).
type killListener struct {
	mu       sync.Mutex
	answer   int
	answered []killDelivery // 200 sent
	held     []killDelivery // received, never answered
	release  chan struct{}
	changed  chan struct{} // a buffered nudge on every request
}

type killDelivery struct {
	deliveryID, topic string
	orderID           int64
}

func (l *killListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	d := killDelivery{deliveryID: r.Header.Get("X-WC-Webhook-Delivery-ID"), topic: r.Header.Get("X-WC-Webhook-Topic")}
	if d.topic != "order.created" { // the ping
		return
	}
	var order struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(b, &order)
	d.orderID = order.ID
	l.mu.Lock()
	hold := len(l.answered) >= l.answer && l.release != nil
	if hold {
		l.held = append(l.held, d)
	}
	release := l.release
	l.mu.Unlock()
	defer l.nudge()
	if hold {
		// Held until the shop is killed: it is the delivery the kill
		// cuts, never answered, whichever of the closed connection and
		// the release this handler sees first.
		select {
		case <-r.Context().Done():
		case <-release:
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	l.mu.Lock()
	l.answered = append(l.answered, d)
	l.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (l *killListener) nudge() {
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

func (l *killListener) counts() (answered, held int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.answered), len(l.held)
}

// waitFor polls cond until it holds or the deadline passes (then fails
// with what).
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
	}
}

// TestWebhookQueueSurvivesKill runs the real binary: N orders each queue
// an order.created delivery to a listener here; the listener answers the
// first few, then holds the next one open, and the shop is SIGKILLed in
// the middle of that delivery with the rest still queued. Restarted on
// the same store, the shop delivers the rest: every order is answered
// exactly once, under one X-WC-Webhook-Delivery-ID, and the delivery cut
// by the kill comes again (after its lease) with the same ID.
func TestWebhookQueueSurvivesKill(t *testing.T) {
	const orders, answerFirst = 24, 6
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		l := &killListener{answer: answerFirst, release: make(chan struct{}), changed: make(chan struct{}, 1)}
		hs := httptest.NewServer(l)
		defer hs.Close()
		addr := freeAddr(t)
		base := "http://" + addr
		shop, logs, exited := serve(t, bin, addr, dsn, nil, "--demo", "--webhooks-allow-private")
		k := newRESTKey(t, bin, dsn, base)

		var product struct {
			ID int64 `json:"id"`
		}
		k.call("POST", "/wp-json/wc/v3/products", `{"name":"Kill Test Mug","type":"simple","regular_price":"9.00","status":"publish"}`, &product)
		var hook struct {
			ID int64 `json:"id"`
		}
		k.call("POST", "/wp-json/wc/v3/webhooks", `{"name":"kill test","topic":"order.created","delivery_url":"`+hs.URL+`/orders","secret":"kill-secret"}`, &hook)

		placed := map[int64]bool{}
		for i := range orders {
			var o struct {
				ID int64 `json:"id"`
			}
			k.call("POST", "/wp-json/wc/v3/orders", fmt.Sprintf(`{"billing":{"first_name":"K","last_name":"Nine","email":"k%d@example.com",`+
				`"address_1":"1 Main St","city":"Albany","state":"NY","postcode":"12207","country":"US"},"line_items":[{"product_id":%d,"quantity":1}]}`,
				i, product.ID), &o)
			placed[o.ID] = true
		}
		if len(placed) != orders {
			t.Fatalf("%d distinct orders, want %d", len(placed), orders)
		}

		// Mid-delivery: the listener holds one, and every answered one is
		// recorded as delivered in the store (so the kill cuts only the held one).
		st := storetest.OpenDSN(t, dsn)
		delivered := func() int {
			var n int
			if err := st.Read.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM webhook_queue WHERE topic = 'order.created' AND delivered_at IS NOT NULL`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		waitFor(t, 60*time.Second, "a held delivery", func() bool { _, h := l.counts(); return h >= 1 })
		waitFor(t, 60*time.Second, "the answered deliveries recorded", func() bool { a, _ := l.counts(); return delivered() == a })
		if err := shop.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-exited
		answeredBefore, heldAtKill := l.counts()
		if answeredBefore != answerFirst || heldAtKill != 1 {
			t.Fatalf("at the kill: %d answered, %d held; want %d and 1", answeredBefore, heldAtKill, answerFirst)
		}
		t.Logf("killed with %d delivered, 1 in flight, %d queued", answeredBefore, orders-answeredBefore-1)

		// Restart on the same store; everything is answered from now on.
		l.mu.Lock()
		close(l.release)
		l.release = nil
		l.mu.Unlock()
		_, logs2, _ := serve(t, bin, addr, dsn, nil, "--demo", "--webhooks-allow-private")
		// The cut delivery waits for its lease (the timeout, 5 s, plus 30 s).
		waitFor(t, 3*time.Minute, "every order delivered", func() bool { a, _ := l.counts(); return a >= orders })
		// Anything delivered twice would come now: the queue is drained.
		waitFor(t, 30*time.Second, "the queue drained", func() bool { return delivered() == orders })

		l.mu.Lock()
		defer l.mu.Unlock()
		byID, byOrder := map[string]int{}, map[int64]int{}
		idOf := map[int64]string{}
		for _, d := range l.answered {
			byID[d.deliveryID]++
			byOrder[d.orderID]++
			if prev, ok := idOf[d.orderID]; ok && prev != d.deliveryID {
				t.Errorf("order %d delivered under two IDs: %s, %s", d.orderID, prev, d.deliveryID)
			}
			idOf[d.orderID] = d.deliveryID
		}
		if len(l.answered) != orders || len(byID) != orders || len(byOrder) != orders {
			t.Errorf("answered %d deliveries: %d delivery IDs, %d orders; want %d each\n%s\n%s", len(l.answered), len(byID), len(byOrder), orders, logs, logs2)
		}
		for id, n := range byID {
			if n != 1 {
				t.Errorf("delivery %s answered %d times", id, n)
			}
		}
		for o := range placed {
			if byOrder[o] != 1 {
				t.Errorf("order %d answered %d times", o, byOrder[o])
			}
		}
		cut := l.held[0]
		if idOf[cut.orderID] != cut.deliveryID {
			t.Errorf("the cut delivery (order %d, %s) came again as %q", cut.orderID, cut.deliveryID, idOf[cut.orderID])
		}
	})
}

// TestWebhookDisabledMailsStaff runs the real binary with SMTP to a sink
// here: a webhook whose receiver answers 500 fails five deliveries in a
// row (five orders, each tried once), is disabled, and the shop's address
// gets the "Webhook disabled" mail through the outbox.
func TestWebhookDisabledMailsStaff(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		var mu sync.Mutex
		failed := 0
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-WC-Webhook-Topic") == "order.created" {
				mu.Lock()
				failed++
				mu.Unlock()
				w.WriteHeader(http.StatusInternalServerError)
			}
		}))
		defer hs.Close()
		sink := mailtest.Start(t, mailtest.Options{})
		addr := freeAddr(t)
		serve(t, bin, addr, dsn, nil, "--demo", "--webhooks-allow-private",
			"--smtp-url", "smtp://"+sink.Addr+"?tls=none&from=shop@example.com", "--shop-email", "owner@example.com")
		k := newRESTKey(t, bin, dsn, "http://"+addr)
		var product, hook struct {
			ID int64 `json:"id"`
		}
		k.call("POST", "/wp-json/wc/v3/products", `{"name":"Failing Mug","type":"simple","regular_price":"9.00","status":"publish"}`, &product)
		k.call("POST", "/wp-json/wc/v3/webhooks", `{"name":"Broken CRM","topic":"order.created","delivery_url":"`+hs.URL+`/crm"}`, &hook)
		for i := range 5 {
			k.call("POST", "/wp-json/wc/v3/orders", fmt.Sprintf(`{"billing":{"first_name":"F","last_name":"Ail","email":"f%d@example.com",`+
				`"address_1":"1 Main St","city":"Albany","state":"NY","postcode":"12207","country":"US"},"line_items":[{"product_id":%d,"quantity":1}]}`,
				i, product.ID), nil)
		}
		var got struct {
			Status string `json:"status"`
		}
		waitFor(t, 60*time.Second, "the webhook disabled", func() bool {
			k.call("GET", "/wp-json/wc/v3/webhooks/"+strconv.FormatInt(hook.ID, 10), "", &got)
			return got.Status == "disabled"
		})
		mu.Lock()
		if failed != 5 {
			t.Errorf("%d failed deliveries before the webhook was disabled, want 5", failed)
		}
		mu.Unlock()
		var notice *mailtest.Delivered
		waitFor(t, 60*time.Second, "the webhook-disabled mail", func() bool {
			for _, m := range sink.Messages() {
				if strings.Contains(string(m.Data), "Webhook disabled: Broken CRM") {
					notice = &m
					return true
				}
			}
			return false
		})
		if len(notice.To) != 1 || notice.To[0] != "owner@example.com" || !strings.Contains(string(notice.Data), hs.URL+"/crm") {
			t.Errorf("notice to %v:\n%s", notice.To, notice.Data)
		}
	})
}
