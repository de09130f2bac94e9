package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server"
	"vitrine/internal/storage/storetest"
)

// Fuzz targets for the routes that parse client input, one per route
// family (S2): whatever is sent, the answer is below 500, nothing
// panics, and a JSON body is in the surface's documented shape. The seeds,
// which include the inputs of the outside probe, run in every go test; to
// search further, one target per run:
//
//	go test -run '^$' -fuzz '^FuzzBatch$' -fuzztime 60s ./internal/server/
//
// The shops behind them are built once per process (one per engine, the
// demo catalogue, the wallet on the built-in PayPal sandbox over loopback)
// and shared by the targets; every input runs on each; TestMain removes
// them at the end.

var (
	fuzzOnce     sync.Once
	fuzzSrvs     []*server.Server // one shop per engine: SQLite, and PostgreSQL when configured
	fuzzIDs      map[string]int64 // slug → product ID of the demo catalogue (the same on every engine)
	fuzzCleanups []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(fuzzCleanups) - 1; i >= 0; i-- {
		fuzzCleanups[i]()
	}
	os.Exit(code)
}

// processTB is the first fuzz target's TB whose cleanups and temporary
// directories last until the process ends (TestMain runs them), so the
// shared shop outlives the target that built it.
type processTB struct{ testing.TB }

func (processTB) Helper()           {}
func (processTB) Cleanup(fn func()) { fuzzCleanups = append(fuzzCleanups, fn) }
func (p processTB) TempDir() string { return processTempDir(p.TB) }
func processTempDir(tb testing.TB) string {
	dir, err := os.MkdirTemp("", "vitrine-fuzz-")
	if err != nil {
		tb.Fatal(err)
	}
	fuzzCleanups = append(fuzzCleanups, func() { _ = os.RemoveAll(dir) })
	return dir
}

// fuzzServer is the shared fuzzing shops, one per engine (storetest's:
// SQLite, and PostgreSQL when VITRINE_TEST_POSTGRES is set, as in CI), so
// every seed runs on both: PostgreSQL refuses bytes SQLite stores.
func fuzzServer(f *testing.F) []*server.Server {
	f.Helper()
	fuzzOnce.Do(func() {
		tb := processTB{f}
		for _, engine := range storetest.Engines(f) {
			db := storetest.Open(tb, engine)
			sb := paypalsandbox.New(paypalsandbox.Config{ClientID: "test-client", Secret: "test-secret"})
			wc := server.WalletConfig{CallTimeout: 5 * time.Second, ReconcileEvery: time.Hour,
				PayPal: sandboxClient(sb, serveSandbox(tb, sb))}
			srv := newServer(tb, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
				CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: time.Second, Wallet: &wc})
			ctx, cancel := context.WithCancel(context.Background())
			tb.Cleanup(cancel)
			if err := srv.Start(ctx); err != nil {
				f.Fatal(err)
			}
			<-srv.WalletStarted()
			ids := map[string]int64{}
			for _, slug := range []string{"cotton-tank-top", "classic-tee"} {
				p, err := db.ProductBySlug(ctx, slug)
				if err != nil {
					f.Fatalf("%s: product %s: %v", engine, slug, err)
				}
				ids[slug] = p.ID
			}
			if fuzzIDs == nil {
				fuzzIDs = ids
			} else if fmt.Sprint(ids) != fmt.Sprint(fuzzIDs) {
				f.Fatalf("%s: the demo catalogue's IDs %v differ from %v", engine, ids, fuzzIDs)
			}
			fuzzSrvs = append(fuzzSrvs, srv)
		}
	})
	if len(fuzzSrvs) == 0 {
		f.Fatal("the fuzzing shop could not be built")
	}
	return fuzzSrvs
}

// fuzzFill replaces the seeds' placeholders: {tank} and {tee} by the demo
// products' IDs, {nonce} by nonce.
func fuzzFill(s, nonce string) string {
	return strings.NewReplacer("{tank}", fmt.Sprint(fuzzIDs["cotton-tank-top"]), "{tee}", fmt.Sprint(fuzzIDs["classic-tee"]),
		"{nonce}", nonce).Replace(s)
}

// fuzzDo serves one request in process. target is a request target as a
// client would send it; ok is false when no HTTP client could send it (the
// server's own parser refuses it before any handler runs).
func fuzzDo(t *testing.T, srv *server.Server, method, target, body string, header http.Header) (rec *httptest.ResponseRecorder, ok bool) {
	t.Helper()
	u, err := url.ParseRequestURI(target)
	if err != nil || u.Host != "" || !strings.HasPrefix(target, "/") {
		return nil, false
	}
	req := httptest.NewRequest(method, "/", strings.NewReader(body))
	req.URL, req.RequestURI = u, target
	for k, v := range header {
		req.Header[k] = v
	}
	if body != "" && req.Header.Get("Content-Type") == "" {
		if strings.HasPrefix(strings.TrimSpace(body), "{") {
			req.Header.Set("Content-Type", "application/json")
		} else {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s %q %q: status %d: %s", method, target, body, rec.Code, rec.Body.String())
	}
	return rec, true
}

// isJSON: the answer says it is JSON.
func isJSON(rec *httptest.ResponseRecorder) bool {
	return strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json")
}

// checkStoreAPIError asserts the Store API's error shape, {code, message,
// data: {status}}, with the status of the answer.
func checkStoreAPIError(t *testing.T, status int, raw []byte) {
	t.Helper()
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Status int `json:"status"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || e.Code == "" || e.Message == "" || e.Data.Status != status {
		t.Fatalf("status %d: not a Store API error (%v): %s", status, err, raw)
	}
}

// checkStoreAPI asserts a Store API answer's shape: an error in the error
// shape, anything else a JSON object or array (or no body).
func checkStoreAPI(t *testing.T, status int, raw []byte) {
	t.Helper()
	raw = bytes.TrimSpace(raw)
	switch {
	case status >= 400:
		checkStoreAPIError(t, status, raw)
	case len(raw) == 0:
	case !json.Valid(raw) || (raw[0] != '{' && raw[0] != '['):
		t.Fatalf("status %d: not a JSON object: %s", status, raw)
	}
}

// cartToken opens a fresh cart session and returns its Cart-Token.
func cartToken(t *testing.T, srv *server.Server) string {
	t.Helper()
	rec, _ := fuzzDo(t, srv, http.MethodGet, "/wp-json/wc/store/v1/cart", "", nil)
	tok := rec.Header().Get("Cart-Token")
	if tok == "" {
		t.Fatal("no Cart-Token on GET cart")
	}
	return tok
}

// FuzzBatch: POST /wp-json/wc/store/v1/batch. The answer is 207 with one
// response per request, each below 500 and in the Store API's shape, or an
// error in that shape; never a 500 (the probe's "%zz" path and a space in
// a query panicked).
func FuzzBatch(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []string{
		`{"requests":[{"path":"%zz"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item?a b","body":{"id":{tank}}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item?%","body":{"id":{tank}}}]}`,
		`{"requests":[{"path":"/wp-json/wc/store/v1/cart/add-item","method":"POST","body":{"id":{tank},"quantity":2}},{"path":"/wc/store/v1/cart/items","method":"DELETE"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":{"id":{tee},"variation":[{"attribute":"pa_color","value":"blue"}]}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/items/%zz","method":"PUT","body":{"quantity":1}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/items/abc","method":"PATCH","body":{"quantity":"1e309"}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/update-customer","body":{"billing_address":{"country":"\u0000"}}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/select-shipping-rate","body":{"package_id":-1,"rate_id":""}}]}`,
		`{"requests":[{"path":"//evil.example/wc/store/v1/cart/add-item"}]}`,
		`{"requests":[{"path":"http://x/wc/store/v1/cart"}]}`,
		`{"requests":[{"path":"mailto:wc/store/v1/cart"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/../checkout"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item","method":"GET"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":[1]}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":"x"}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/add-item","headers":{"Nonce":"x","Content-Type":"text/plain"}}]}`,
		`{"requests":[{"path":"/wc/store/v1/cart/apply-coupon","body":{"code":"\u0000"}}]}`,
		"{\"requests\":[{\"path\":\"/wc/store/v1/cart/add-item\",\"body\":{\"id\":\"\xff\"}}]}",
		`{"requests":[{"path":"/wc/store/v1/cart/add-item?x=%00"}]}`,
		`{"requests":[{}]}`, `{"requests":{}}`, `{"requests":null}`, `{}`, `[]`, `null`, ``, `{"requests":[`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, srv := range shops {
			func() {
				body = fuzzFill(body, "")
				rec, _ := fuzzDo(t, srv, http.MethodPost, batchAPI, body, http.Header{"Cart-Token": {cartToken(t, srv)}})
				raw := rec.Body.Bytes()
				if rec.Code != http.StatusMultiStatus {
					checkStoreAPIError(t, rec.Code, raw)
					return
				}
				var out struct {
					Responses []struct {
						Status int             `json:"status"`
						Body   json.RawMessage `json:"body"`
					} `json:"responses"`
				}
				if err := json.Unmarshal(raw, &out); err != nil || out.Responses == nil {
					t.Fatalf("207 without responses (%v): %s", err, raw)
				}
				for i, r := range out.Responses {
					if r.Status < 200 || r.Status >= 500 {
						t.Fatalf("responses[%d]: status %d: %s", i, r.Status, r.Body)
					}
					if string(r.Body) != "null" {
						checkStoreAPI(t, r.Status, r.Body)
					}
				}
			}()
		}
	})
}

// FuzzStoreAPICart: the Store API's cart routes (reads and writes) with any
// method, path below /cart, query and body. Answers are below 500 and in
// the Store API's shape.
func FuzzStoreAPICart(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []struct {
		method uint8
		path   string
		body   string
	}{
		{1, "/add-item", `{"id":{tank},"quantity":2}`},
		{1, "/add-item", `{"id":{tank},"quantity":"1e309"}`},
		{1, "/add-item", `{"id":{tank},"quantity":9223372036854775807}`},
		{1, "/add-item", `{"id":{tee},"variation":[{"attribute":"pa_color","value":"<script>"}]}`},
		{1, "/add-item", `{"id":"{tank}","quantity":-1}`},
		{1, "/add-item?id={tank}&quantity=%zz", ``},
		{1, "/add-item?id={tank}&quantity=1 2", ``},
		{1, "/items", `{"id":{tank}}`},
		{1, "/remove-item", `{"key":"../../x"}`},
		{1, "/update-item", `{"key":"","quantity":0}`},
		{1, "/update-customer", `{"billing_address":{"email":"a@b","country":"ZZ","postcode":"\u0000"},"shipping_address":[]}`},
		{1, "/select-shipping-rate", `{"package_id":"x","rate_id":{"a":1}}`},
		{2, "/items/%zz", `{"quantity":1}`},
		{2, "/items/ ", `{"quantity":1}`},
		{3, "/items/abc", ``},
		{3, "/items", ``},
		{0, "/items/abc", ``},
		{0, "?a b", ``},
		{1, "/add-item", `{"id":`},
		{1, "/add-item", `[]`},
		{1, "/add-item", `id={tank}&quantity=2`},
		{1, "/apply-coupon", `{"code":"\u0000"}`},
		{1, "/apply-coupon", "{\"code\":\"\xc3\x28\"}"},
		{1, "/apply-coupon", `{"code":"\\u0000"}`},
		{0, "/items/%00", ``},
		{0, "?key=%ff", ``},
		{1, "/add-item?id={tank}&quantity=%00", ``},
		{1, "/update-customer", "{\"billing_address\":{\"first_name\":\"\x00\"}}"},
	} {
		f.Add(s.method, s.path, s.body)
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}
	f.Fuzz(func(t *testing.T, m uint8, path, body string) {
		for _, srv := range shops {
			func() {
				method := methods[int(m)%len(methods)]
				target := "/wp-json/wc/store/v1/cart" + fuzzFill(path, "")
				rec, ok := fuzzDo(t, srv, method, target, fuzzFill(body, ""), http.Header{"Cart-Token": {cartToken(t, srv)}})
				if !ok || rec.Code == http.StatusMovedPermanently || rec.Code == http.StatusTemporaryRedirect || rec.Code == http.StatusPermanentRedirect {
					return // not sendable, or the mux's path cleaning
				}
				if rec.Code != http.StatusMethodNotAllowed || isJSON(rec) {
					checkStoreAPI(t, rec.Code, rec.Body.Bytes())
				}
			}()
		}
	})
}

// walletShaped lists the wc-ajax endpoints that answer in the wallet's
// envelope {success, data}.
var walletShaped = map[string]bool{
	"ppc-create-order": true, "ppc-approve-order": true, "ppc-get-order": true, "ppc-simulate-cart": true,
	"ppc-change-cart": true, "ppc-validate-checkout": true, "ppc-save-checkout-form": true, "ppc-update-shipping": true,
	"ppc-cart-script-params": true, "ppc-vault-paypal": true, "ppc-create-setup-token": true,
	"ppc-create-payment-token": true, "ppc-update-customer-id": true, "ppc-approve-subscription": true,
}

// FuzzWCAjax: /?wc-ajax=ENDPOINT with any query and body, GET or POST, in a
// session holding a cart item; {nonce} in the body is the endpoint's
// wallet nonce for the session. Answers are below 500; a JSON answer is
// valid JSON, and the wallet's endpoints answer in their envelope.
func FuzzWCAjax(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []struct {
		post           bool
		endpoint, q, b string
	}{
		{true, "add_to_cart", "", "product_id={tank}&quantity=2"},
		{true, "add_to_cart", "", "product_id={tank}&quantity=%zz"},
		{true, "add_to_cart", "", "product_id={tee}&quantity=1&variation_id=-1&attribute_pa_color=blue"},
		{true, "add_to_cart", "", "product_id=9223372036854775808&quantity=1e309"},
		{false, "add_to_cart", "product_id={tank}&quantity=1 2", ""},
		{true, "remove_from_cart", "", "cart_item_key=%zz"},
		{true, "remove_from_cart", "", "cart_item_key="},
		{true, "get_variation", "", "product_id={tee}&attribute_pa_color=blue&attribute_pa_size=M"},
		{false, "get_variation", "product_id={tee}&attribute_pa_color=%00", ""},
		{true, "get_refreshed_fragments", "", "time=1"},
		{false, "get_refreshed_fragments", "a b", ""},
		{false, "ppc-cart-script-params", "", ""},
		{true, "ppc-create-order", "", `{"nonce":"{nonce}","context":"cart","payment_method":"ppcp-gateway","funding_source":"paypal"}`},
		{true, "ppc-create-order", "", `{"nonce":"{nonce}","context":"product","purchase_units":[{"amount":{"value":"1e309"}}]}`},
		{true, "ppc-approve-order", "", `{"nonce":"{nonce}","order_id":"%zz"}`},
		{true, "ppc-get-order", "", `{"nonce":"{nonce}","order_id":""}`},
		{true, "ppc-simulate-cart", "", `{"nonce":"{nonce}","products":[{"id":{tank},"quantity":-5,"variations":null}]}`},
		{true, "ppc-change-cart", "", `{"nonce":"{nonce}","products":[{"id":{tee},"quantity":1,"variations":[{"name":"attribute_pa_color","value":"blue"}]}]}`},
		{true, "ppc-validate-checkout", "", `{"nonce":"{nonce}","form_encoded":"%zz"}`},
		{true, "ppc-save-checkout-form", "", `{"nonce":"{nonce}","form_encoded":"billing_email=a b"}`},
		{true, "ppc-update-shipping", "", `{"nonce":"{nonce}","order_id":"x","shipping_address":{"country_code":"\u0000"}}`},
		{true, "ppc-data-client-id", "", `{"nonce":"{nonce}"}`},
		{true, "ppc-vault-paypal", "", `{}`},
		{true, "update_shipping_method", "", "security={nonce}&shipping_method[0]=%zz"},
		{true, "ppc-create-order", "", `{"nonce":`},
		{true, "ppc-create-order", "", `[]`},
		{true, "nope", "", ""},
		{true, "add_to_cart", "", "product_id={tank}&quantity=1&attribute_pa_color=%00"},
		{true, "add_to_cart", "", "product_id=%ff"},
		{false, "get_variation", "product_id={tee}&attribute_pa_color=%C0%AF", ""},
		{true, "ppc-create-order", "", `{"nonce":"{nonce}","context":"cart","funding_source":"\u0000"}`},
		{true, "ppc-save-checkout-form", "", `{"nonce":"{nonce}","form_encoded":"billing_email=a%00b"}`},
	} {
		f.Add(s.post, s.endpoint, s.q, s.b)
	}
	f.Fuzz(func(t *testing.T, post bool, endpoint, query, body string) {
		for _, srv := range shops {
			func() {
				// A session with an item and the wallet's nonces for it.
				add, _ := fuzzDo(t, srv, http.MethodPost, "/?wc-ajax=add_to_cart", fuzzFill("product_id={tank}&quantity=1", ""), nil)
				h := http.Header{}
				for _, c := range add.Result().Cookies() {
					h.Add("Cookie", c.Name+"="+c.Value)
				}
				params, _ := fuzzDo(t, srv, http.MethodGet, "/?wc-ajax=ppc-cart-script-params", "", h)
				var p struct {
					Data struct {
						Nonces map[string]string `json:"nonces"`
					} `json:"data"`
				}
				_ = json.Unmarshal(params.Body.Bytes(), &p)
				target := "/?wc-ajax=" + url.QueryEscape(endpoint)
				if query != "" {
					target += "&" + query
				}
				method := http.MethodGet
				if post {
					method = http.MethodPost
				}
				rec, ok := fuzzDo(t, srv, method, target, fuzzFill(body, p.Data.Nonces[endpoint]), h)
				if !ok {
					return
				}
				raw := bytes.TrimSpace(rec.Body.Bytes())
				if !isJSON(rec) || len(raw) == 0 {
					return
				}
				if !json.Valid(raw) {
					t.Fatalf("%s: not JSON: %s", endpoint, raw)
				}
				// The endpoint as the server read it (a query may name it again).
				if u, err := url.ParseRequestURI(target); err == nil && walletShaped[u.Query().Get("wc-ajax")] {
					var env struct {
						Success *bool           `json:"success"`
						Data    json.RawMessage `json:"data"`
					}
					if err := json.Unmarshal(raw, &env); err != nil || env.Success == nil {
						t.Fatalf("%s: not the wallet envelope (%v): %s", endpoint, err, raw)
					}
				}
			}()
		}
	})
}

// FuzzAdminAjax: /wp-admin/admin-ajax.php with any method, query and body
// (live search, quick view). Answers are below 500, a refusal says why
// ("0" for an unknown action, a message for a bad product), JSON is valid.
func FuzzAdminAjax(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []struct {
		m    uint8
		q, b string
	}{
		{0, "action=flatsome_ajax_search_products&query=tee", ""},
		{0, "action=flatsome_ajax_search_products&query=%zz", ""},
		{0, "action=flatsome_ajax_search_products&query=a b&product_cat=-1", ""},
		{1, "", "action=flatsome_ajax_search_products&query=%E2%80%AE%00&product_cat=clothing"},
		{0, "action=flatsome_quickview&product={tank}", ""},
		{1, "", "action=flatsome_quickview&product=9223372036854775808"},
		{1, "", "action=flatsome_quickview&product=%zz"},
		{2, "action=flatsome_quickview", ""},
		{0, "action=nope", ""},
		{1, "", `{"action":"flatsome_quickview"}`},
		{0, "action=flatsome_ajax_search_products&query=%00", ""},
		{1, "", "action=flatsome_ajax_search_products&query=%ff%fe"},
		{0, "action=flatsome_quickview&product=%00", ""},
	} {
		f.Add(s.m, s.q, s.b)
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodHead}
	f.Fuzz(func(t *testing.T, m uint8, query, body string) {
		for _, srv := range shops {
			func() {
				target := "/wp-admin/admin-ajax.php"
				if query != "" {
					target += "?" + fuzzFill(query, "")
				}
				method := methods[int(m)%len(methods)]
				rec, ok := fuzzDo(t, srv, method, target, fuzzFill(body, ""), nil)
				if !ok {
					return
				}
				raw := bytes.TrimSpace(rec.Body.Bytes())
				if rec.Code >= 400 && len(raw) == 0 && method != http.MethodHead {
					t.Fatalf("status %d without a message", rec.Code)
				}
				if isJSON(rec) && len(raw) > 0 && !json.Valid(raw) {
					t.Fatalf("not JSON: %s", raw)
				}
			}()
		}
	})
}
