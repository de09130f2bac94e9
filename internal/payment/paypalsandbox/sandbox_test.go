package paypalsandbox_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// shop is a stand-in for the shop: it records the return/cancel visits and
// verified webhook events.
type shop struct {
	srv    *httptest.Server
	mu     sync.Mutex
	visits []*url.URL
	events []*paypal.Event
	got    chan *paypal.Event
	fail   int // answer this many webhook deliveries with 500 first
	client *paypal.Client
}

func newShop(t *testing.T) *shop {
	s := &shop{got: make(chan *paypal.Event, 32)}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/webhook" {
			body, _ := io.ReadAll(r.Body)
			s.mu.Lock()
			if s.fail > 0 {
				s.fail--
				s.mu.Unlock()
				http.Error(w, "down", 500)
				return
			}
			c := s.client
			s.mu.Unlock()
			ev, err := c.VerifyWebhook(r.Context(), r.Header, body)
			if err != nil {
				t.Errorf("webhook refused: %v", err)
				http.Error(w, err.Error(), 400)
				return
			}
			s.mu.Lock()
			s.events = append(s.events, ev)
			s.mu.Unlock()
			s.got <- ev
			return
		}
		s.mu.Lock()
		s.visits = append(s.visits, r.URL)
		s.mu.Unlock()
		io.WriteString(w, "<!doctype html><title>Shop</title><h1>Back at the shop</h1>")
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// setup serves a sandbox at the root, or under prefix through mount.
func setup(t *testing.T, sh *shop, prefix string, strip bool) (*paypalsandbox.Sandbox, *paypal.Client, string) {
	cfg := paypalsandbox.Config{ClientID: "cid", Secret: "sec", WebhookID: "WH-1", WebhookBackoff: 10 * time.Millisecond}
	if sh != nil {
		cfg.WebhookURL = sh.srv.URL + "/webhook"
	}
	sb := paypalsandbox.New(cfg)
	mux := http.NewServeMux()
	var h http.Handler = sb.Handler()
	if strip {
		h = http.StripPrefix(prefix, h)
	}
	if prefix == "" {
		mux.Handle("/", h)
	} else {
		mux.Handle(prefix+"/", h)
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "shop page", 404) })
	}
	srv := httptest.NewServer(mux)
	base := srv.URL + prefix
	sb.SetBaseURL(base)
	c := &paypal.Client{BaseURL: base, ClientID: "cid", Secret: "sec", HTTP: srv.Client(), WebhookID: "WH-1", CertURLPrefixes: []string{sb.CertURLPrefix()}}
	if sh != nil {
		sh.mu.Lock()
		sh.client = c
		sh.mu.Unlock()
	}
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
		if n := sb.MissingRequestIDs(); n != 0 {
			t.Errorf("%d POSTs without PayPal-Request-Id", n)
		}
	})
	return sb, c, base
}

func order(t *testing.T, c *paypal.Client, shopURL, key string) *paypal.Order {
	t.Helper()
	pu, err := paypal.NewPurchaseUnit(paypal.UnitSpec{
		Currency: "USD",
		Items:    []paypal.ItemSpec{{Name: `Mug <script>alert(1)</script>`, Quantity: 2, UnitAmount: 1500}},
		Shipping: 500, TaxTotal: 250, Total: 3750,
	})
	if err != nil {
		t.Fatal(err)
	}
	o, err := c.CreateOrder(ctx(t), key, paypal.CreateOrderRequest{
		Intent: paypal.IntentCapture, PurchaseUnits: []paypal.PurchaseUnit{pu},
		PaymentSource: &paypal.PaymentSource{PayPal: &paypal.PayPalSource{ExperienceContext: &paypal.ExperienceContext{
			ReturnURL: shopURL + "/checkout/paypal-return?x=1", CancelURL: shopURL + "/cart/", BrandName: "Test Shop",
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestApprovalPage(t *testing.T) {
	sh := newShop(t)
	sb, c, _ := setup(t, nil, "", false)
	o := order(t, c, sh.srv.URL, "k1")
	status, page := get(t, o.ApproveURL())
	if status != 200 {
		t.Fatalf("GET approval page: %d", status)
	}
	for _, want := range []string{
		`<html lang="en">`, "<h1>Pay $37.50 USD to Test Shop</h1>", `<label for="email">`, `id="email"`,
		`>Pay with PayPal</button>`, `>Pay Later</button>`, `>Pay with a card that will be declined</button>`,
		`>Cancel and return to the shop</button>`, "Mug &lt;script&gt;", "$15.00", "$5.00", "$2.50", ":focus-visible",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "src=\"http") || strings.Contains(page, "href=\"http") {
		t.Error("page has a script or an external asset")
	}

	// Approve with "Pay with PayPal": 303 to the return URL, followed.
	form := url.Values{"token": {o.ID}, "action": {"paypal"}, "email": {"jo@example.com"}}
	resp, err := http.PostForm(strings.Split(o.ApproveURL(), "?")[0], form)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/checkout/paypal-return" {
		t.Fatalf("after approval: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	q := resp.Request.URL.Query()
	if q.Get("token") != o.ID || q.Get("PayerID") != paypalsandbox.DemoPayerID || q.Get("x") != "1" {
		t.Fatalf("return query %v", q)
	}
	got, err := c.GetOrder(ctx(t), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != paypal.StatusApproved || got.Payer.EmailAddress != "jo@example.com" || got.PurchaseUnits[0].Shipping.Address.AdminArea1 != "CA" {
		t.Fatalf("approved order: %+v", got)
	}
	if _, err := c.CaptureOrder(ctx(t), o.ID, "cap"); err != nil {
		t.Fatal(err)
	}
	if sb.Captures(o.ID) != 1 {
		t.Fatal("capture not counted")
	}
	// The page of a paid order offers no buttons.
	if _, page := get(t, o.ApproveURL()); strings.Contains(page, "<button") || !strings.Contains(page, "already paid") {
		t.Fatal("paid order still payable")
	}
	// Posting again for a paid order is a conflict.
	resp, err = http.PostForm(strings.Split(o.ApproveURL(), "?")[0], form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("approve a paid order: %d", resp.StatusCode)
	}
}

func TestApprovalPageDeclinedCancelAndBadInput(t *testing.T) {
	sh := newShop(t)
	sb, c, base := setup(t, nil, "", false)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	o := order(t, c, sh.srv.URL, "k1")
	resp, err := noRedirect.PostForm(base+"/checkoutnow", url.Values{"token": {o.ID}, "action": {"declined"}, "email": {"jo@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), sh.srv.URL+"/checkout/paypal-return") {
		t.Fatalf("declined approval: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, err := c.CaptureOrder(ctx(t), o.ID, "cap"); !paypal.HasIssue(err, paypal.IssueInstrumentDeclined) {
		t.Fatalf("capture: %v", err)
	}

	o2 := order(t, c, sh.srv.URL, "k2")
	resp, err = noRedirect.PostForm(base+"/checkoutnow", url.Values{"token": {o2.ID}, "action": {"cancel"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != sh.srv.URL+"/cart/?token="+o2.ID {
		t.Fatalf("cancel: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got, _ := sb.Order(o2.ID); got.Status != paypal.StatusVoided {
		t.Fatalf("cancelled order is %s", got.Status)
	}

	o3 := order(t, c, sh.srv.URL, "k3")
	resp, err = noRedirect.PostForm(base+"/checkoutnow", url.Values{"token": {o3.ID}, "action": {"paypal"}, "email": {"not an email"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), `aria-invalid="true"`) || !strings.Contains(string(b), `aria-describedby="email-error"`) {
		t.Fatalf("bad email: %d", resp.StatusCode)
	}
	if got, _ := sb.Order(o3.ID); got.Status != paypal.StatusCreated {
		t.Fatalf("bad input changed the order to %s", got.Status)
	}
	if status, _ := get(t, base+"/checkoutnow?token=NOPE"); status != 404 {
		t.Fatalf("unknown token: %d", status)
	}
	resp, err = noRedirect.PostForm(base+"/checkoutnow", url.Values{"token": {o3.ID}, "action": {"steal"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("unknown action: %d", resp.StatusCode)
	}
}

func TestWebhooksDeliveredSignedAndRetried(t *testing.T) {
	sh := newShop(t)
	sh.fail = 2 // the first two deliveries fail
	sb, c, _ := setup(t, sh, "", false)
	o := order(t, c, sh.srv.URL, "k1")
	if _, err := sb.Approve(o.ID, paypalsandbox.FundingPayPal); err != nil {
		t.Fatal(err)
	}
	approved := wait(t, sh)
	if approved.EventType != paypal.EventOrderApproved {
		t.Fatalf("first event %s", approved.EventType)
	}
	done, err := c.CaptureOrder(ctx(t), o.ID, "cap")
	if err != nil {
		t.Fatal(err)
	}
	captured := wait(t, sh)
	refs, err := captured.Refs()
	if err != nil || captured.EventType != paypal.EventCaptureCompleted || refs.OrderID != o.ID || refs.CaptureID != done.Captures()[0].ID {
		t.Fatalf("capture event %s %+v %v", captured.EventType, refs, err)
	}
	// The sandbox records the outcome once the answer is back: wait for it.
	var evs []paypalsandbox.Event
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		evs = sb.Events()
		if len(evs) == 2 && evs[0].Delivered && evs[1].Delivered {
			break
		}
	}
	if len(evs) != 2 || evs[0].Attempts != 3 || !evs[0].Delivered || evs[1].Attempts != 1 || !evs[1].Delivered {
		for _, e := range evs {
			t.Logf("%s %s attempts=%d delivered=%v last=%q", e.ID, e.Type, e.Attempts, e.Delivered, e.LastError)
		}
		t.Fatal("delivery records are wrong")
	}
	// Redeliver: the same event id arrives again, freshly signed.
	if err := sb.Redeliver(evs[1].ID); err != nil {
		t.Fatal(err)
	}
	again := wait(t, sh)
	if again.ID != captured.ID {
		t.Fatalf("redelivered %s, want %s", again.ID, captured.ID)
	}
	if err := sb.Redeliver("WH-NOPE"); err == nil {
		t.Fatal("redelivered an unknown event")
	}
}

func wait(t *testing.T, sh *shop) *paypal.Event {
	t.Helper()
	select {
	case ev := <-sh.got:
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook arrived")
		return nil
	}
}

func TestMountedUnderPrefix(t *testing.T) {
	for _, strip := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole path", true: "StripPrefix"}[strip], func(t *testing.T) {
			sh := newShop(t)
			sb, c, base := setup(t, sh, "/_sandbox/paypal", strip)
			o := order(t, c, sh.srv.URL, "k1")
			if !strings.HasPrefix(o.ApproveURL(), base+"/checkoutnow?token=") {
				t.Fatalf("approve URL %s", o.ApproveURL())
			}
			status, page := get(t, o.ApproveURL())
			if status != 200 || !strings.Contains(page, `action="checkoutnow"`) {
				t.Fatalf("page under prefix: %d", status)
			}
			resp, err := http.PostForm(base+"/checkoutnow", url.Values{"token": {o.ID}, "action": {"paylater"}, "email": {"jo@example.com"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.Request.URL.Path != "/checkout/paypal-return" {
				t.Fatalf("ended at %s", resp.Request.URL)
			}
			if ev := wait(t, sh); ev.EventType != paypal.EventOrderApproved {
				t.Fatalf("event %s", ev.EventType)
			}
			if _, err := c.CaptureOrder(ctx(t), o.ID, "cap"); err != nil {
				t.Fatal(err)
			}
			if ev := wait(t, sh); ev.EventType != paypal.EventCaptureCompleted {
				t.Fatalf("event %s", ev.EventType)
			}
			if !strings.HasPrefix(sb.CertURL(), base+"/v1/notifications/certs/CERT-") {
				t.Fatalf("cert URL %s", sb.CertURL())
			}
			if status, _ := get(t, base+"/v1/notifications/certs/CERT-nope"); status != 404 {
				t.Fatalf("unknown cert: %d", status)
			}
		})
	}
}

// raw calls the API without the client, to see the sandbox's own checks.
func raw(t *testing.T, base, method, path, token, key, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("PayPal-Request-Id", key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func issue(out map[string]any) string {
	d, _ := out["details"].([]any)
	if len(d) == 0 {
		return ""
	}
	m, _ := d[0].(map[string]any)
	s, _ := m["issue"].(string)
	return s
}

func TestSandboxValidatesRequests(t *testing.T) {
	sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "cid", Secret: "sec", LenientRequestID: false})
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	sb.SetBaseURL(srv.URL)

	req, _ := http.NewRequest("POST", srv.URL+"/v1/oauth2/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth("cid", "sec")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if tok.AccessToken == "" || tok.ExpiresIn <= 0 {
		t.Fatalf("token %+v", tok)
	}
	good := `{"intent":"CAPTURE","purchase_units":[{"amount":{"currency_code":"USD","value":"10.00","breakdown":{"item_total":{"currency_code":"USD","value":"10.00"}}}}]}`
	cases := []struct {
		name, token, key, body string
		status                 int
		issue                  string
	}{
		{"no token", "", "a", good, 401, ""},
		{"no request id", tok.AccessToken, "", good, 400, "PAYPAL_REQUEST_ID_REQUIRED"},
		{"malformed", tok.AccessToken, "b", `{"intent":`, 400, "MALFORMED_REQUEST_JSON"},
		{"bad intent", tok.AccessToken, "c", strings.Replace(good, "CAPTURE", "SALE", 1), 400, "INVALID_PARAMETER_VALUE"},
		{"no units", tok.AccessToken, "d", `{"intent":"CAPTURE","purchase_units":[]}`, 400, "MISSING_REQUIRED_PARAMETER"},
		{"sum off", tok.AccessToken, "e", strings.Replace(good, `"value":"10.00","breakdown"`, `"value":"10.01","breakdown"`, 1), 422, "AMOUNT_MISMATCH"},
		{"too many decimals", tok.AccessToken, "f", strings.Replace(good, `"10.00","breakdown"`, `"10.001","breakdown"`, 1), 422, "DECIMAL_PRECISION"},
		{"unknown currency", tok.AccessToken, "g", strings.ReplaceAll(good, "USD", "XXX"), 422, "CURRENCY_NOT_SUPPORTED"},
		{"JPY decimals", tok.AccessToken, "h", strings.ReplaceAll(good, "USD", "JPY"), 422, "DECIMAL_PRECISION"},
		{"HUF decimals", tok.AccessToken, "i", strings.ReplaceAll(good, "USD", "HUF"), 422, "DECIMAL_PRECISION"},
		{"TWD decimals", tok.AccessToken, "j", strings.ReplaceAll(good, "USD", "TWD"), 422, "DECIMAL_PRECISION"},
		{"KWD not taken", tok.AccessToken, "k", strings.ReplaceAll(strings.ReplaceAll(good, "USD", "KWD"), "10.00", "10.000"), 422, "CURRENCY_NOT_SUPPORTED"},
	}
	for _, c := range cases {
		status, out := raw(t, srv.URL, "POST", "/v2/checkout/orders", c.token, c.key, c.body)
		if status != c.status || issue(out) != c.issue {
			t.Errorf("%s: %d %v, want %d %s", c.name, status, out, c.status, c.issue)
		}
		if status >= 400 && (out["debug_id"] == "" || out["debug_id"] == nil || out["name"] == nil) {
			t.Errorf("%s: error shape %v", c.name, out)
		}
	}
	if sb.OrderCount() != 0 {
		t.Fatal("a refused request made an order")
	}
	// Other currencies PayPal takes are accepted, written with PayPal's decimals.
	for _, c := range []struct{ code, value string }{{"EUR", "10.00"}, {"HUF", "1000"}, {"TWD", "300"}, {"JPY", "1500"}} {
		body := strings.ReplaceAll(strings.ReplaceAll(good, "USD", c.code), "10.00", c.value)
		if status, out := raw(t, srv.URL, "POST", "/v2/checkout/orders", tok.AccessToken, "cur-"+c.code, body); status != 201 || out["id"] == nil {
			t.Errorf("%s order: %d %v", c.code, status, out)
		}
	}
	status, out := raw(t, srv.URL, "POST", "/v2/checkout/orders", tok.AccessToken, "ok", good)
	if status != 201 || out["id"] == nil || out["purchase_units"] != nil {
		t.Fatalf("minimal create answer: %d %v", status, out)
	}
	// Same key, same body: replayed with 200.
	if status, again := raw(t, srv.URL, "POST", "/v2/checkout/orders", tok.AccessToken, "ok", good); status != 200 || again["id"] != out["id"] {
		t.Fatalf("replay: %d %v", status, again)
	}
	id := out["id"].(string)
	if status, _ := raw(t, srv.URL, "DELETE", "/v2/checkout/orders/"+id, tok.AccessToken, "", ""); status != 405 {
		t.Fatalf("DELETE: %d", status)
	}
	if status, out := raw(t, srv.URL, "PATCH", "/v2/checkout/orders/"+id, tok.AccessToken, "", `[{"op":"replace","path":"/purchase_units/@reference_id=='default'/payments","value":{}}]`); status != 422 || issue(out) != "FIELD_NOT_PATCHABLE" {
		t.Fatalf("patch payments: %d %v", status, out)
	}
	if status, out := raw(t, srv.URL, "PATCH", "/v2/checkout/orders/"+id, tok.AccessToken, "", `[{"op":"move","path":"/intent","from":"/x"}]`); status != 400 || issue(out) != "INVALID_PATCH_OPERATION" {
		t.Fatalf("patch move: %d %v", status, out)
	}
	if status, _ := raw(t, srv.URL, "PATCH", "/v2/checkout/orders/"+id, tok.AccessToken, "", `[{"op":"replace","path":"/purchase_units/@reference_id=='default'/custom_id","value":"42"}]`); status != 204 {
		t.Fatalf("patch custom_id: %d", status)
	}
	if o, _ := sb.Order(id); o.PurchaseUnits[0].CustomID != "42" {
		t.Fatalf("custom_id = %q", o.PurchaseUnits[0].CustomID)
	}
}

func TestListenAndServe(t *testing.T) {
	sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "cid", Secret: "sec"})
	t.Cleanup(sb.Close)
	c, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sb.ListenAndServe(c, "127.0.0.1:0") }()
	for sb.BaseURL() == "" {
		time.Sleep(5 * time.Millisecond)
	}
	cl := &paypal.Client{BaseURL: sb.BaseURL(), ClientID: "cid", Secret: "sec"}
	o := order(t, cl, "http://127.0.0.1:1", "k")
	if !strings.HasPrefix(o.ApproveURL(), sb.BaseURL()+"/checkoutnow") {
		t.Fatalf("approve URL %s", o.ApproveURL())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ListenAndServe: %v", err)
	}
}

func TestFaultsBeforeAndAfterProcessing(t *testing.T) {
	sb, c, _ := setup(t, nil, "", false)
	o := order(t, c, "http://127.0.0.1:1", "k1")
	if _, err := sb.Approve(o.ID, paypalsandbox.FundingPayPal); err != nil {
		t.Fatal(err)
	}
	// Replaced after processing: the capture happens, the caller sees 500.
	sb.AddFault(paypalsandbox.Fault{Method: "POST", PathSuffix: "/capture", Status: 500, AfterProcessing: true})
	if _, err := c.CaptureOrder(ctx(t), o.ID, "cap"); !paypal.Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if sb.Captures(o.ID) != 1 {
		t.Fatal("the capture should have happened")
	}
	got, err := c.CaptureOrder(ctx(t), o.ID, "cap")
	if err != nil || !got.Replayed {
		t.Fatalf("retry: %v", err)
	}
	// A fault for another path does not fire.
	sb.FailNext("GET", "/nothing", 1, 500)
	if _, err := c.GetOrder(ctx(t), o.ID); err != nil {
		t.Fatal(err)
	}
	sb.ClearFaults()
}

// TestApprovalPageWholeUnits: a HUF order's page shows whole forints, as
// PayPal writes them (not the ISO two decimals).
func TestApprovalPageWholeUnits(t *testing.T) {
	sh := newShop(t)
	_, c, _ := setup(t, nil, "", false)
	pu, err := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: "HUF", Items: []paypal.ItemSpec{{Name: "Mug", Quantity: 2, UnitAmount: 1500}}, Total: 3000})
	if err != nil {
		t.Fatal(err)
	}
	o, err := c.CreateOrder(ctx(t), "huf", paypal.CreateOrderRequest{Intent: paypal.IntentCapture, PurchaseUnits: []paypal.PurchaseUnit{pu},
		PaymentSource: &paypal.PaymentSource{PayPal: &paypal.PayPalSource{ExperienceContext: &paypal.ExperienceContext{
			ReturnURL: sh.srv.URL + "/checkout/paypal-return", CancelURL: sh.srv.URL + "/cart/", BrandName: "Test Shop"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if pu.Amount.Value != "3000" {
		t.Errorf("HUF amount %q, want whole forints", pu.Amount.Value)
	}
	status, page := get(t, o.ApproveURL())
	if status != 200 || !strings.Contains(page, "<h1>Pay Ft3,000 HUF to Test Shop</h1>") || !strings.Contains(page, "Ft1,500") {
		t.Errorf("HUF page: %d\n%s", status, page)
	}
}
