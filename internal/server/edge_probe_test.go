package server_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	dto "github.com/prometheus/client_model/go"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The HTTP edge against the second outside probe: bad bytes, store
// outages, a broken chunked body, route labels of logged-in traffic and
// the cross-origin refusal's shape (edge.go, middleware.go,
// sqlstore/health.go).

// restError decodes a REST error and checks its shape and status.
func restError(t *testing.T, name string, a frameAnswer, status int, code string) {
	t.Helper()
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Status int `json:"status"`
		} `json:"data"`
	}
	if a.status != status || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") ||
		json.Unmarshal([]byte(a.body), &e) != nil || e.Message == "" || e.Data.Status != status || (code != "" && e.Code != code) {
		t.Errorf("%s: want %d %s in the REST error shape, got %d %s %.300s", name, status, code, a.status, a.header.Get("Content-Type"), a.body)
	}
}

// TestBadBytesRefusedAtTheEdge sweeps the endpoints where the probe's NUL
// bytes and invalid UTF-8 answered 500 on PostgreSQL: every one answers
// 400 in its surface's shape on both engines, none answers 5xx, and what
// is not text (a file's bytes, clean input) passes.
func TestBadBytesRefusedAtTheEdge(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ada := f.cookie("Ada")
		nonce := f.nonce("Ada")
		tank, err := f.db.ProductBySlug(context.Background(), "cotton-tank-top")
		if err != nil {
			t.Fatal(err)
		}
		pid := itoa(tank.ID)
		const json_, form = "application/json", "application/x-www-form-urlencoded"
		multipart := func(field, value string) string {
			return "--B\r\nContent-Disposition: form-data; name=\"" + field + "\"\r\n\r\n" + value + "\r\n--B--\r\n"
		}
		type shape int
		const (
			rest shape = iota
			page
			adminAjax
			wcAjax
		)
		for _, c := range []struct {
			name, method, target, ctype, body string
			staff                             bool
			shape                             shape
		}{
			{"lost password", "POST", "/my-account/lost-password/", form, "user_login=%00", false, page},
			{"apply coupon", "POST", "/wp-json/wc/store/v1/cart/apply-coupon", json_, `{"code":"\u0000"}`, false, rest},
			{"batch", "POST", "/wp-json/wc/store/v1/batch", json_, `{"requests":[{"path":"/wc/store/v1/cart/apply-coupon","body":{"code":"a\u0000"}}]}`, false, rest},
			{"add item, raw bytes", "POST", "/wp-json/wc/store/v1/cart/add-item", json_, "{\"id\":" + pid + ",\"variation\":[{\"attribute\":\"\xff\",\"value\":\"x\"}]}", false, rest},
			{"add item, no content type", "POST", "/wp-json/wc/store/v1/cart/add-item", "", `{"id":"\u0000"}`, false, rest},
			{"order received key", "GET", "/checkout/order-received/1/?key=%00", "", "", false, page},
			{"product path", "GET", "/product/a%00b/", "", "", false, page},
			{"product path, not UTF-8", "GET", "/product/a%ffb/", "", "", false, page},
			{"search", "GET", "/?s=%C0%AF&post_type=product", "", "", false, page},
			{"store api search", "GET", "/wp-json/wc/store/v1/products?search=%00", "", "", false, rest},
			{"review text", "POST", "/wp-comments-post.php", form, "comment_post_ID=" + pid + "&comment=nice%00&author=A&email=a%40example.com&rating=5", false, page},
			{"review text, multipart", "POST", "/wp-comments-post.php", "multipart/form-data; boundary=B", multipart("comment", "nice\x00"), false, page},
			{"login form", "POST", "/my-account/", form, "username=%ff&password=x&login=1", false, page},
			{"checkout form", "POST", "/checkout/", form, "billing_first_name=%00", false, page},
			{"contact field", "POST", "/wp-json/contact-form-7/v1/contact-forms/1/feedback", "multipart/form-data; boundary=B", multipart("your-name", "A\x00"), false, rest},
			{"admin-ajax search", "GET", "/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=%00", "", "", false, adminAjax},
			{"wc-ajax add", "POST", "/?wc-ajax=add_to_cart", form, "product_id=" + pid + "&quantity=1&attribute_pa_color=%ff", false, wcAjax},
			{"admin list search", "GET", "/wp-json/wc/v3/products?search=%00", "", "", true, rest},
			{"admin orders search", "GET", "/wp-json/wc/v3/orders?search=%00", "", "", true, rest},
			{"admin product name", "POST", "/wp-json/wc/v3/products", json_, `{"name":"Tee\u0000","regular_price":"5"}`, true, rest},
			{"admin order note", "POST", "/wp-json/wc/v3/orders/1/notes", json_, `{"note":"\u0000"}`, true, rest},
			{"admin media title", "POST", "/wp-json/wp/v2/media/1", json_, `{"title":"\u0000"}`, true, rest},
			{"admin review reply", "PUT", "/wp-json/vitrine/v1/admin/reviews/1/reply", json_, `{"reply":"\u0000"}`, true, rest},
			{"admin settings", "PUT", "/wp-json/vitrine/v1/admin/settings", json_, "{\"site_name\":\"\xc3\x28\"}", true, rest},
		} {
			headers := []string{"Content-Type", c.ctype}
			var cookie *http.Cookie
			if c.staff {
				cookie = ada
				headers = append(headers, "X-WP-Nonce", nonce)
			}
			a := f.do(c.method, c.target, cookie, c.body, headers...)
			if a.status >= 500 {
				t.Errorf("%s: %d %.200s", c.name, a.status, a.body)
				continue
			}
			switch c.shape {
			case rest:
				restError(t, c.name, a, 400, "vitrine_invalid_text")
			case page:
				if a.status != 400 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") || !strings.Contains(a.body, "<h1>") {
					t.Errorf("%s: want a 400 page, got %d %s %.200s", c.name, a.status, a.header.Get("Content-Type"), a.body)
				}
			case adminAjax:
				if a.status != 400 || !strings.Contains(a.body, `"success":false`) || !strings.Contains(a.body, "vitrine_invalid_text") {
					t.Errorf("%s: want admin-ajax's 400 JSON error, got %d %.200s", c.name, a.status, a.body)
				}
			case wcAjax:
				if a.status != 400 || !strings.Contains(a.body, `"error":true`) || !strings.Contains(a.body, "vitrine_invalid_text") {
					t.Errorf("%s: want wc-ajax's 400 error, got %d %.200s", c.name, a.status, a.body)
				}
			}
		}
		// Nothing was made: the product's name never reached the store.
		if list := f.do("GET", "/wp-json/wc/v3/products?search=Tee&per_page=100", ada, "", "X-WP-Nonce", nonce); strings.Contains(list.body, `Tee\u0000`) {
			t.Fatalf("a refused product was stored: %.300s", list.body)
		}

		// What is not text passes: a file's bytes, escaped backslashes,
		// and the same endpoints with clean text.
		for _, c := range []struct{ name, method, target, ctype, body string }{
			{"a file with NUL bytes", "POST", "/wp-json/contact-form-7/v1/contact-forms/1/feedback", "multipart/form-data; boundary=B",
				"--B\r\nContent-Disposition: form-data; name=\"_wpcf7_unit_tag\"\r\n\r\nwpcf7-f1-o1\r\n" +
					"--B\r\nContent-Disposition: form-data; name=\"your-file\"; filename=\"a.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF\x00\xff\r\n--B--\r\n"},
			{"an escaped backslash", "POST", "/wp-json/wc/store/v1/cart/apply-coupon", json_, `{"code":"\\u0000"}`},
			{"clean lost password", "POST", "/my-account/lost-password/", form, "user_login=nobody%40example.com"},
			{"clean search", "GET", "/wp-json/wc/store/v1/products?search=t%C3%A9e", "", ""},
		} {
			a := f.do(c.method, c.target, nil, c.body, "Content-Type", c.ctype)
			if a.status >= 500 || strings.Contains(a.body, "vitrine_invalid_text") || strings.Contains(a.body, "cannot read") {
				t.Errorf("%s: refused or failed: %d %.200s", c.name, a.status, a.body)
			}
		}
	})
}

// TestStoreOutageAnswers503: with the store's connections failing as a lost
// PostgreSQL connection does (57P01), a Store API route, an admin REST
// route and a page answer 503 with Retry-After in their shapes and
// /readyz is not ready; with writes failing as a full disk does (a real
// SQLITE_FULL), writes answer 503, pages still show, and /readyz is not
// ready until the disk takes a write again.
func TestStoreOutageAnswers503(t *testing.T) {
	t.Parallel()
	full := storetest.SQLiteFullError(t)
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		faults := &sqlstore.Faults{}
		db := storetest.OpenFaulty(t, dsn, faults)
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example"}) // no page cache: pages read the store
		ada, nonce := f.cookie("Ada"), f.nonce("Ada")
		tank, err := db.ProductBySlug(context.Background(), "cotton-tank-top")
		if err != nil {
			t.Fatal(err)
		}
		cart := f.do("GET", "/wp-json/wc/store/v1/cart", nil, "")
		token := cart.header.Get("Cart-Token")
		if cart.status != 200 || token == "" {
			t.Fatalf("cart: %d %s", cart.status, cart.body)
		}
		retry := func(name string, a frameAnswer) {
			t.Helper()
			if a.header.Get("Retry-After") == "" {
				t.Errorf("%s: no Retry-After: %v", name, a.header)
			}
		}
		ready := func(want int) {
			t.Helper()
			if a := f.do("GET", "/readyz", nil, ""); a.status != want {
				t.Errorf("/readyz: %d %s, want %d", a.status, a.body, want)
			}
		}
		ready(200)

		faults.FailAll(&pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"})
		a := f.do("GET", "/wp-json/wc/store/v1/cart", nil, "", "Cart-Token", token)
		restError(t, "Store API cart", a, 503, "vitrine_store_unavailable")
		retry("Store API cart", a)
		a = f.do("GET", "/wp-json/wc/v3/products", ada, "", "X-WP-Nonce", nonce)
		restError(t, "admin products", a, 503, "vitrine_store_unavailable")
		retry("admin products", a)
		a = f.do("GET", "/shop/", nil, "")
		if a.status != 503 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
			t.Errorf("page: %d %s %.200s", a.status, a.header.Get("Content-Type"), a.body)
		}
		retry("page", a)
		ready(503)
		faults.Clear()
		ready(200)
		if a := f.do("GET", "/shop/", nil, ""); a.status != 200 {
			t.Errorf("page after the outage: %d", a.status)
		}

		faults.FailWrites(full)
		a = f.do("POST", "/wp-json/wc/store/v1/cart/add-item", nil, `{"id":`+itoa(tank.ID)+`,"quantity":1}`,
			"Content-Type", "application/json", "Cart-Token", token)
		restError(t, "add item on a full disk", a, 503, "vitrine_store_unavailable")
		retry("add item on a full disk", a)
		a = f.do("POST", "/wp-json/wc/v3/products", ada, `{"name":"New tee","regular_price":"5"}`,
			"Content-Type", "application/json", "X-WP-Nonce", nonce)
		restError(t, "product create on a full disk", a, 503, "vitrine_store_unavailable")
		if a := f.do("GET", "/product/cotton-tank-top/", nil, ""); a.status != 200 {
			t.Errorf("a page on a full disk: %d", a.status)
		}
		ready(503)
		faults.Clear()
		ready(200)
		a = f.do("POST", "/wp-json/wc/store/v1/cart/add-item", nil, `{"id":`+itoa(tank.ID)+`,"quantity":1}`,
			"Content-Type", "application/json", "Cart-Token", token)
		if a.status != 201 && a.status != 200 {
			t.Errorf("add item after the disk recovered: %d %.200s", a.status, a.body)
		}
	})
}

// TestPostgresBackendsTerminated is the probe's restart on a real server:
// pg_terminate_backend ends every connection of the shop's pool between
// and during requests; every answer is 2xx or 503 with Retry-After, never
// 500. PostgreSQL only: SQLite has no server to lose.
func TestPostgresBackendsTerminated(t *testing.T) {
	t.Parallel()
	for _, engine := range storetest.Engines(t) {
		if engine != sqlstore.Postgres {
			continue
		}
		t.Run("postgres", func(t *testing.T) {
			b := make([]byte, 6)
			_, _ = rand.Read(b)
			app := "vitrine_probe_" + hex.EncodeToString(b)
			u, err := url.Parse(storetest.DSN(t, engine))
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			q.Set("application_name", app)
			u.RawQuery = q.Encode()
			db := storetest.OpenDSN(t, u.String())
			f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example"})
			admin := storetest.OpenRaw(t, os.Getenv(storetest.EnvPostgres)) // the test database, outside the schema
			terminate := func() {
				if _, err := admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, app); err != nil {
					t.Fatal(err)
				}
			}
			statuses := map[int]int{}
			var mu sync.Mutex
			check := func(a frameAnswer) {
				mu.Lock()
				defer mu.Unlock()
				statuses[a.status]++
				if a.status >= 500 && (a.status != 503 || a.header.Get("Retry-After") == "") {
					t.Errorf("%d %v %.200s", a.status, a.header, a.body)
				}
			}
			for round := 0; round < 5; round++ {
				var wg sync.WaitGroup
				for i := 0; i < 8; i++ {
					wg.Go(func() {
						check(f.do("GET", "/shop/", nil, ""))
						check(f.do("GET", "/wp-json/wc/store/v1/cart", nil, ""))
					})
				}
				terminate()
				wg.Wait()
				terminate() // the idle pool: the next round's first requests meet dead connections
			}
			t.Logf("answers: %v", statuses)
		})
	}
}

// TestBrokenChunkedBody: a rates file sent with a broken chunked encoding
// answers 400 rest_invalid_json like every other route, not 500.
func TestBrokenChunkedBody(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ts := httptest.NewServer(f.srv)
		t.Cleanup(ts.Close)
		ada, nonce := f.cookie("Ada"), f.nonce("Ada")
		for _, c := range []struct{ method, path, ctype string }{
			{"POST", "/wp-json/vitrine/v1/admin/currencies/rates", "text/csv"},
			{"POST", "/wp-json/vitrine/v1/admin/currencies/rates", "application/xml"},
			{"PUT", "/wp-json/vitrine/v1/admin/currencies/CHF", "application/json"},
		} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			_, err = io.WriteString(conn, c.method+" "+c.path+" HTTP/1.1\r\nHost: shop.example\r\nCookie: "+ada.Name+"="+ada.Value+
				"\r\nX-WP-Nonce: "+nonce+"\r\nContent-Type: "+c.ctype+"\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nEUR,0.\r\nzz\r\n")
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, c.path, err)
			}
			body, _ := io.ReadAll(res.Body)
			conn.Close()
			restError(t, c.method+" "+c.path, frameAnswer{status: res.StatusCode, header: res.Header, body: string(body)}, 400, "rest_invalid_json")
		}
	})
}

// requestsByRoute reads vitrine_http_requests_total by route label.
func requestsByRoute(t *testing.T, srv *server.Server) map[string]float64 {
	t.Helper()
	mfs, err := srv.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "vitrine_http_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[label(m, "route")] += m.GetCounter().GetValue()
		}
	}
	return out
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// TestLoggedInRequestsCountedByRoute: a logged-in viewer's requests (the
// admin API, an account page, the home page) are counted under their real
// routes, not "unmatched"; cross-origin refusals under /wp-json/ answer
// in the REST error shape and are counted as such.
func TestLoggedInRequestsCountedByRoute(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ada, carla := f.cookie("Ada"), f.cookie("Carla")
		nonce := f.nonce("Ada")
		for _, c := range []struct {
			target string
			cookie *http.Cookie
			route  string
		}{
			{"/wp-json/vitrine/v1/admin/currencies", ada, "GET /wp-json/vitrine/v1/admin/currencies"},
			{"/my-account/orders/", carla, "GET /my-account/orders/{$}"},
			{"/", carla, "GET /{$}"},
		} {
			before := requestsByRoute(t, f.srv)
			a := f.do("GET", c.target, c.cookie, "", "X-WP-Nonce", nonce)
			if a.status != 200 {
				t.Fatalf("%s: %d %.200s", c.target, a.status, a.body)
			}
			after := requestsByRoute(t, f.srv)
			if after[c.route]-before[c.route] != 1 || after["unmatched"] != before["unmatched"] {
				t.Errorf("%s: counted under %v, want %q", c.target, after, c.route)
			}
		}

		before := requestsByRoute(t, f.srv)
		a := f.do("POST", "/wp-json/wc/store/v1/cart/add-item", nil, `{"id":1}`, "Content-Type", "application/json",
			"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		restError(t, "cross-origin Store API", a, 403, "rest_cross_origin_refused")
		if after := requestsByRoute(t, f.srv); after["cross-origin"]-before["cross-origin"] != 1 {
			t.Errorf("cross-origin refusal not counted: %v", after)
		}
		if a := f.do("POST", "/wp-admin/admin-ajax.php", nil, "action=x", "Sec-Fetch-Site", "cross-site"); a.status != 403 || !strings.Contains(a.body, `"success":false`) {
			t.Errorf("cross-origin admin-ajax: %d %q", a.status, a.body)
		}
		if a := f.do("POST", "/cart/", nil, "x=1", "Sec-Fetch-Site", "cross-site"); a.status != 403 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
			t.Errorf("cross-origin page form: %d %s", a.status, a.header.Get("Content-Type"))
		}
	})
}
