package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/audit"
	"vitrine/internal/integration"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
)

// REST API keys through the real server (internal/integrationapi, the
// composition's withRESTAuth): WooCommerce's rules for which credentials
// count on which connection, its refusals, the key acting as its user for
// the admin API, and its writes in the activity log under that user.

// keyShop is a frameShop with the key service on its store.
type apiKeyShop struct {
	*frameShop
	keys *integration.Service
}

func (k *apiKeyShop) key(who string, p integration.Permission) *integration.Created {
	k.t.Helper()
	c, err := k.keys.Create(context.Background(), k.users[who], "Integration for "+who, p)
	if err != nil {
		k.t.Fatal(err)
	}
	return c
}

// oauthTarget is path with query and the oauth_* parameters of a
// one-legged signature for the shop's address (https://shop.example,
// signed as http) at the store's time, as WooCommerce's clients send them
// over plain HTTP. An oauth_timestamp in query replaces the store's time.
func oauthTarget(db *sqlstore.DB, c *integration.Created, method, path string, query url.Values, nonce string) string {
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("oauth_consumer_key", c.ConsumerKey)
	q.Set("oauth_nonce", nonce)
	q.Set("oauth_signature_method", integration.HMACSHA256)
	if q.Get("oauth_timestamp") == "" {
		q.Set("oauth_timestamp", strconv.FormatInt(db.Now().Unix(), 10))
	}
	q.Set("oauth_version", "1.0")
	var params []integration.Param
	for k, vs := range q {
		for _, v := range vs {
			params = append(params, integration.Param{Name: k, Value: v})
		}
	}
	sig, _ := integration.Sign(integration.HMACSHA256, c.ConsumerSecret+"&", integration.BaseString(method, "http://shop.example"+path, params))
	q.Set("oauth_signature", sig)
	return path + "?" + q.Encode()
}

// wantWooError fails unless a is WooCommerce's REST error: status, code,
// message, data.status.
func wantWooError(t *testing.T, what string, a frameAnswer, status int, code, message string) {
	t.Helper()
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Status int `json:"status"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(a.body), &e); err != nil || a.status != status || e.Code != code || e.Data.Status != status ||
		(message != "" && e.Message != message) {
		t.Errorf("%s: %d %s, want %d %s %q", what, a.status, a.body, status, code, message)
	}
}

func TestRESTAPIKeys(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		k := &apiKeyShop{frameShop: f, keys: &integration.Service{Store: f.db, Now: f.db.Now}}
		const products = "/wp-json/wc/v3/products"
		rw, ro := k.key("Mia", integration.ReadWrite), k.key("Mia", integration.Read)
		customer := k.key("Carla", integration.ReadWrite)

		// HTTPS (a real TLS connection): Basic, or the key and secret as query parameters.
		tlsSrv := httptest.NewTLSServer(f.srv)
		t.Cleanup(tlsSrv.Close)
		get := func(target string, basic *integration.Created) (int, http.Header, string) {
			req, _ := http.NewRequest("GET", tlsSrv.URL+target, nil)
			if basic != nil {
				req.SetBasicAuth(basic.ConsumerKey, basic.ConsumerSecret)
			}
			resp, err := tlsSrv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, resp.Header, string(b)
		}
		status, h, body := get(products+"?per_page=3", rw)
		var list []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil || len(list) != 3 || list[0].ID == 0 || h.Get("X-WP-Total") == "" {
			t.Fatalf("Basic over HTTPS: %d %s %.200s", status, h.Get("X-WP-Total"), body)
		}
		if status, _, body := get(products+"?per_page=1&consumer_key="+ro.ConsumerKey+"&consumer_secret="+ro.ConsumerSecret, nil); status != 200 || !strings.HasPrefix(body, "[{") {
			t.Errorf("query parameters over HTTPS: %d %.200s", status, body)
		}
		wrong := *rw
		wrong.ConsumerSecret = ro.ConsumerSecret
		status, h, body = get(products, &wrong)
		wantWooError(t, "wrong secret", frameAnswer{status: status, body: body}, 401, "woocommerce_rest_authentication_error", "Consumer secret is invalid.")
		if !strings.HasPrefix(h.Get("WWW-Authenticate"), `Basic realm="WooCommerce API.`) {
			t.Errorf("challenge: %q", h.Get("WWW-Authenticate"))
		}
		unknown := *rw
		unknown.ConsumerKey = "ck_" + strings.Repeat("0", 40)
		status, _, body = get(products, &unknown)
		wantWooError(t, "unknown key", frameAnswer{status: status, body: body}, 401, "woocommerce_rest_authentication_error", "Consumer key is invalid.")
		// The key's user's role decides, as with the cookie.
		status, _, body = get(products, customer)
		wantWooError(t, "customer's key", frameAnswer{status: status, body: body}, 403, "rest_forbidden", "")

		// Plain HTTP: a key and secret in the clear count for nothing (a visitor).
		plain := f.do("GET", products, nil, "", "Authorization", "Basic "+basicOf(rw))
		wantWooError(t, "Basic over HTTP", plain, 401, "rest_not_logged_in", "")
		plain = f.do("GET", products+"?consumer_key="+rw.ConsumerKey+"&consumer_secret="+rw.ConsumerSecret, nil, "")
		wantWooError(t, "query key over HTTP", plain, 401, "rest_not_logged_in", "")
		// ... and so does X-Forwarded-Proto from anyone but a trusted proxy.
		plain = f.do("GET", products, nil, "", "Authorization", "Basic "+basicOf(rw), "X-Forwarded-Proto", "https")
		wantWooError(t, "X-Forwarded-Proto from a client", plain, 401, "rest_not_logged_in", "")

		// OAuth 1.0a over plain HTTP: list products with a read key.
		a := f.do("GET", oauthTarget(f.db, ro, "GET", products, url.Values{"per_page": {"2"}}, "list-1"), nil, "")
		if a.status != 200 || !strings.HasPrefix(a.body, "[{") || a.header.Get("X-WP-Total") == "" {
			t.Fatalf("OAuth list: %d %.300s", a.status, a.body)
		}
		if err := json.Unmarshal([]byte(a.body), &list); err != nil || len(list) != 2 {
			t.Errorf("per_page=2 signed with the key: %d products", len(list))
		}
		// The same signed request again: its nonce is spent.
		again := f.do("GET", oauthTarget(f.db, ro, "GET", products, url.Values{"per_page": {"2"}}, "list-1"), nil, "")
		wantWooError(t, "replayed nonce", again, 401, "woocommerce_rest_authentication_error", "Invalid nonce - nonce has already been used.")
		// An "Authorization: OAuth" header carries the same parameters.
		target := oauthTarget(f.db, ro, "GET", products, nil, "header-1")
		u, _ := url.Parse(target)
		var parts []string
		for name, v := range u.Query() {
			parts = append(parts, name+`="`+url.PathEscape(v[0])+`"`)
		}
		if a := f.do("GET", products, nil, "", "Authorization", `OAuth realm="shop", `+strings.Join(parts, ", ")); a.status != 200 {
			t.Errorf("OAuth header: %d %.200s", a.status, a.body)
		}

		// A read key may not write: WooCommerce's answer, nothing made.
		body = `{"name":"Key Mug","status":"publish","regular_price":"9.00"}`
		a = f.do("POST", oauthTarget(f.db, ro, "POST", products, nil, "write-1"), nil, body, "Content-Type", "application/json")
		wantWooError(t, "read key writing", a, 401, "woocommerce_rest_authentication_error", "The API key provided does not have write permissions.")
		if a.header.Get("Cache-Control") != "no-store, private" {
			t.Errorf("refusal's Cache-Control: %q", a.header.Get("Cache-Control"))
		}
		// A read-write key creates it, acting as Mia, without a REST nonce.
		a = f.do("POST", oauthTarget(f.db, rw, "POST", products, nil, "write-2"), nil, body, "Content-Type", "application/json")
		if a.status != 201 || !strings.Contains(a.body, `"name":"Key Mug"`) {
			t.Fatalf("create with a read_write key: %d %.300s", a.status, a.body)
		}
		created := savedProductOf(a)
		entries, err := (&audit.Service{Store: f.db}).List(context.Background(), audit.Filter{Object: "product", ObjectID: created.ID})
		if err != nil || len(entries) != 1 || entries[0].ActorID != f.users["Mia"] || entries[0].ActorName != "Mia Manager" || entries[0].Action != "product.create" {
			t.Errorf("activity log: %+v %v", entries, err)
		}

		// Refusals of bad signatures, keys and timestamps.
		tampered := strings.Replace(oauthTarget(f.db, ro, "GET", products, url.Values{"per_page": {"2"}}, "bad-1"), "per_page=2", "per_page=5", 1)
		wantWooError(t, "tampered", f.do("GET", tampered, nil, ""), 401, "woocommerce_rest_authentication_error", "Invalid signature - provided signature does not match.")
		ghost := *ro
		ghost.ConsumerKey = "ck_" + strings.Repeat("1", 40)
		wantWooError(t, "unknown key (OAuth)", f.do("GET", oauthTarget(f.db, &ghost, "GET", products, nil, "ghost"), nil, ""), 401,
			"woocommerce_rest_authentication_error", "Consumer key is invalid.")
		old := strconv.FormatInt(f.db.Now().Add(-16*time.Minute).Unix(), 10)
		stale := oauthTarget(f.db, ro, "GET", products, url.Values{"oauth_timestamp": {old}}, "stale")
		wantWooError(t, "16 minutes old", f.do("GET", stale, nil, ""), 401, "woocommerce_rest_authentication_error", "Invalid timestamp.")
		missing := products + "?oauth_consumer_key=" + ro.ConsumerKey
		wantWooError(t, "missing parameters", f.do("GET", missing, nil, ""), 401, "woocommerce_rest_authentication_missing_parameter",
			"Missing OAuth parameters oauth_timestamp, oauth_nonce, oauth_signature, oauth_signature_method")

		// Revoked: refused at once, here and on another instance of the shop.
		other := newServerOn(t, f.db, "", 1, server.Config{BaseURL: "https://shop.example", TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
		viaProxy := func(c *integration.Created) frameAnswer {
			r := httptest.NewRequest("GET", products+"?per_page=1", nil)
			r.Header.Set("Authorization", "Basic "+basicOf(c))
			r.Header.Set("X-Forwarded-Proto", "https")
			w := httptest.NewRecorder()
			other.ServeHTTP(w, r)
			return frameAnswer{status: w.Code, header: w.Header(), body: w.Body.String()}
		}
		if a := viaProxy(rw); a.status != 200 {
			t.Fatalf("Basic through a trusted proxy's HTTPS: %d %.200s", a.status, a.body)
		}
		if err := k.keys.Revoke(context.Background(), rw.ID); err != nil {
			t.Fatal(err)
		}
		wantWooError(t, "revoked, other instance", viaProxy(rw), 401, "woocommerce_rest_authentication_error", "Consumer key is invalid.")
		wantWooError(t, "revoked, this instance", f.do("GET", oauthTarget(f.db, rw, "GET", products, nil, "after-revoke"), nil, ""), 401,
			"woocommerce_rest_authentication_error", "Consumer key is invalid.")

		// Failed signatures from one address: past the limit it is refused, right ones too.
		from := func(target, addr string) frameAnswer {
			r := httptest.NewRequest("GET", target, nil)
			r.RemoteAddr = addr + ":4000"
			w := httptest.NewRecorder()
			f.srv.ServeHTTP(w, r)
			return frameAnswer{status: w.Code, header: w.Header(), body: w.Body.String()}
		}
		for i := range integration.FailureLimit {
			bad := strings.Replace(oauthTarget(f.db, ro, "GET", products, url.Values{"per_page": {"2"}}, "guess-"+strconv.Itoa(i)), "per_page=2", "per_page=3", 1)
			if a := from(bad, "198.51.100.9"); a.status != 401 {
				t.Fatalf("failure %d: %d %s", i+1, a.status, a.body)
			}
		}
		a = from(oauthTarget(f.db, ro, "GET", products, nil, "right-after"), "198.51.100.9")
		wantWooError(t, "locked address", a, 429, "vitrine_rest_authentication_locked", "")
		if a.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
		if a := from(oauthTarget(f.db, ro, "GET", products, nil, "other-address"), "198.51.100.10"); a.status != 200 {
			t.Errorf("another address: %d %.200s", a.status, a.body)
		}

		// The key's last access was noted.
		keys, _ := k.keys.List(context.Background(), f.users["Mia"])
		if len(keys) != 1 || keys[0].ID != ro.ID || keys[0].LastAccess.IsZero() || keys[0].LastAccess.After(f.db.Now().Add(time.Second)) {
			t.Errorf("last access: %+v", keys)
		}
	})
}

// basicOf is the key's HTTP Basic credentials.
func basicOf(c *integration.Created) string {
	r, _ := http.NewRequest("GET", "/", nil)
	r.SetBasicAuth(c.ConsumerKey, c.ConsumerSecret)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

// In coming-soon mode a key still reaches the admin API (the shop runs
// behind the scenes); a visitor there gets the admin API's 401.
func TestRESTAPIKeysInComingSoon(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop { return newFrameShop(t, db, true) }, func(t *testing.T, f *frameShop) {
		c, err := (&integration.Service{Store: f.db, Now: f.db.Now}).Create(context.Background(), f.users["Mia"], "n8n", integration.Read)
		if err != nil {
			t.Fatal(err)
		}
		if a := f.do("GET", oauthTarget(f.db, c, "GET", "/wp-json/wc/v3/products", nil, "soon"), nil, ""); a.status != 200 || !strings.HasPrefix(a.body, "[{") {
			t.Errorf("key in coming-soon mode: %d %.200s", a.status, a.body)
		}
		wantWooError(t, "visitor", f.do("GET", "/wp-json/wc/v3/products", nil, ""), 401, "rest_not_logged_in", "")
		wantWooError(t, "Store API visitor", f.do("GET", "/wp-json/wc/store/v1/products", nil, ""), 503, "vitrine_coming_soon", "")
	})
}

// The admin's key screen through the real server: an administrator with
// the cookie and nonce makes a key that then works on /wp-json/wc/v3/;
// that key is refused on the key routes (keys authenticate under
// /wp-json/wc/v3/ only, so no key makes another), as is a shop manager.
func TestAPIKeyAdminRoutes(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const keys = "/wp-json/vitrine/v1/admin/api-keys"
		a := f.as("Ada", "POST", keys, `{"description":"Stock sync","user_id":`+strconv.FormatInt(f.users["Mia"], 10)+`,"permissions":"read"}`)
		var made integration.Created
		var body struct {
			ID             int64  `json:"id"`
			ConsumerKey    string `json:"consumer_key"`
			ConsumerSecret string `json:"consumer_secret"`
		}
		if a.status != 201 || json.Unmarshal([]byte(a.body), &body) != nil || body.ConsumerKey == "" {
			t.Fatalf("create: %d %.300s", a.status, a.body)
		}
		made.ConsumerKey, made.ConsumerSecret = body.ConsumerKey, body.ConsumerSecret
		if ok := f.do("GET", oauthTarget(f.db, &made, "GET", "/wp-json/wc/v3/products", nil, "screen-1"), nil, ""); ok.status != 200 {
			t.Errorf("the made key on the REST API: %d %.200s", ok.status, ok.body)
		}
		wantError(t, "a key on the key routes", f.do("GET", oauthTarget(f.db, &made, "GET", keys, nil, "screen-2"), nil, ""), 401, "rest_not_logged_in")
		wantError(t, "a shop manager", f.as("Mia", "GET", keys, ""), 403, "rest_forbidden")
		if a := f.as("Ada", "GET", keys, ""); a.status != 200 || !strings.Contains(a.body, `"description":"Stock sync"`) || strings.Contains(a.body, body.ConsumerSecret) {
			t.Errorf("list: %d %.300s", a.status, a.body)
		}
		if a := f.as("Ada", "DELETE", keys+"/"+strconv.FormatInt(body.ID, 10), ""); a.status != 200 {
			t.Fatalf("revoke: %d %.300s", a.status, a.body)
		}
		wantWooError(t, "the revoked key", f.do("GET", oauthTarget(f.db, &made, "GET", "/wp-json/wc/v3/products", nil, "screen-3"), nil, ""), 401,
			"woocommerce_rest_authentication_error", "Consumer key is invalid.")
	})
}

// A REST API key's product edit without a version is based on the current
// one (WooCommerce's clients send none; WooCommerce keeps the last write),
// while a version it does send is checked; the admin's session still
// must send one.
func TestRESTAPIKeyProductEditWithoutVersion(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		k := &apiKeyShop{frameShop: f, keys: &integration.Service{Store: f.db, Now: f.db.Now}}
		rw := k.key("Mia", integration.ReadWrite)
		path := "/wp-json/wc/v3/products/" + strconv.FormatInt(f.productID("cotton-tank-top"), 10)
		before := savedProductOf(f.staffCall("Mia", "GET", path, ""))
		a := f.do("PUT", oauthTarget(f.db, rw, "PUT", path, nil, "edit-1"), nil, `{"regular_price":"31.00"}`, "Content-Type", "application/json")
		after := savedProductOf(a)
		if a.status != 200 || !strings.Contains(a.body, `"regular_price":"31.00"`) || after.Version != before.Version+1 {
			t.Fatalf("key edit without a version: %d %.300s", a.status, a.body)
		}
		a = f.do("PUT", oauthTarget(f.db, rw, "PUT", path, nil, "edit-2"), nil, `{"regular_price":"32.00","version":`+strconv.FormatInt(before.Version, 10)+`}`,
			"Content-Type", "application/json")
		if a.status != 409 || !strings.Contains(a.body, "vitrine_product_stale") {
			t.Errorf("key edit naming an old version: %d %.300s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "PUT", path, `{"regular_price":"33.00"}`); a.status != 428 {
			t.Errorf("session edit without a version: %d %.300s", a.status, a.body)
		}
		if got := f.staffCall("Mia", "GET", path, ""); !strings.Contains(got.body, `"regular_price":"31.00"`) {
			t.Errorf("after the refusals: %.300s", got.body)
		}
	})
}
