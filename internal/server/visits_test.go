package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/visitsapi"
)

// The session beacon (POST /wp-json/vitrine/v1/visits, internal/visitsapi)
// and the conversion rate it feeds (the orders/conversion performance
// indicator), through the real server on both engines: a page's beacon is
// counted with no cookie set; every refusal answers the REST error shape
// and counts nothing; one address's flood stops at its bucket; the
// indicator is orders ÷ sessions as a percentage, null without sessions.

const shopBrowser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"

func TestVisitsBeaconAndConversion(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		post := func(remote, body string, headers ...string) frameAnswer {
			t.Helper()
			var rd *strings.Reader
			if body != "" {
				rd = strings.NewReader(body)
			}
			var r *http.Request
			if rd != nil {
				r = httptest.NewRequest("POST", "https://shop.example"+visitsapi.Path, rd)
			} else {
				r = httptest.NewRequest("POST", "https://shop.example"+visitsapi.Path, nil)
			}
			r.RemoteAddr = remote + ":4711"
			r.Header.Set("User-Agent", shopBrowser)
			for i := 0; i+1 < len(headers); i += 2 {
				if headers[i+1] == "" {
					r.Header.Del(headers[i])
				} else {
					r.Header.Set(headers[i], headers[i+1])
				}
			}
			w := httptest.NewRecorder()
			f.srv.ServeHTTP(w, r)
			return frameAnswer{status: w.Code, header: w.Header(), body: w.Body.String()}
		}
		counted := func() int64 {
			t.Helper()
			hours, err := f.db.VisitsHours(ctx, 0, 1<<40)
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			for _, h := range hours {
				n += h.Sessions
			}
			return n
		}
		same := []string{"Sec-Fetch-Site", "same-origin"}

		// A page's beacon: 204, nothing in the body, no cookie.
		a := post("192.0.2.10", "", same...)
		if a.status != 204 || a.body != "" || len(a.header.Values("Set-Cookie")) != 0 || !strings.Contains(a.header.Get("Cache-Control"), "no-store") {
			t.Fatalf("beacon: %d %q cookies %v cache %q", a.status, a.body, a.header.Values("Set-Cookie"), a.header.Get("Cache-Control"))
		}
		// A browser without Sec-Fetch-Site, by its Origin.
		if a := post("192.0.2.11", "", "Origin", "https://shop.example"); a.status != 204 {
			t.Fatalf("beacon by Origin: %d %s", a.status, a.body)
		}
		if n := counted(); n != 2 {
			t.Fatalf("%d sessions counted, want 2", n)
		}

		// Refusals: what no page of the shop sends in the REST error shape,
		// what one may send (status 204 there) answered 204 with the reason
		// in a header; none counted.
		for _, c := range []struct {
			name    string
			body    string
			headers []string
			status  int
			code    string
		}{
			{"no Sec-Fetch-Site nor Origin (a script)", "", nil, 403, "vitrine_visits_not_from_shop"},
			{"a sibling site", "", []string{"Sec-Fetch-Site", "same-site"}, 403, "rest_cross_origin_refused"}, // the edge's own check
			{"typed in the address bar", "", []string{"Sec-Fetch-Site", "none"}, 403, "vitrine_visits_not_from_shop"},
			{"another site", "", []string{"Sec-Fetch-Site", "cross-site"}, 403, "rest_cross_origin_refused"},
			{"another origin", "", []string{"Origin", "https://evil.example"}, 403, "rest_cross_origin_refused"},
			{"the shop's host over http", "", []string{"Origin", "http://shop.example"}, 403, "vitrine_visits_not_from_shop"},
			{"an opaque origin", "", []string{"Origin", "null"}, 403, "rest_cross_origin_refused"},
			{"a body", "garbage", append([]string{"Content-Type", "text/plain"}, same...), 400, "vitrine_visits_body"},
			{"a JSON body", `{"sessions":1000}`, append([]string{"Content-Type", "application/json"}, same...), 400, "vitrine_visits_body"},
			{"Global Privacy Control", "", append([]string{"Sec-GPC", "1"}, same...), 204, "vitrine_visits_no_consent"},
			{"a Reject", "", append([]string{"Cookie", "vitrine_consent=denied"}, same...), 204, "vitrine_visits_no_consent"},
			{"a crawler", "", append([]string{"User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}, same...), 204, "vitrine_visits_robot"},
			{"no user agent", "", append([]string{"User-Agent", ""}, same...), 204, "vitrine_visits_robot"},
		} {
			a := post("198.51.100.20", c.body, c.headers...)
			if c.status == 204 {
				if a.status != 204 || a.body != "" || a.header.Get(visitsapi.NotCountedHeader) != c.code {
					t.Errorf("%s: %d %q %s %q, want 204 naming %s", c.name, a.status, a.body, visitsapi.NotCountedHeader, a.header.Get(visitsapi.NotCountedHeader), c.code)
				}
				continue
			}
			var e struct {
				Code    string         `json:"code"`
				Message string         `json:"message"`
				Data    map[string]any `json:"data"`
			}
			if err := json.Unmarshal([]byte(a.body), &e); err != nil || a.status != c.status || e.Code != c.code || e.Message == "" ||
				e.Data["status"] != float64(c.status) {
				t.Errorf("%s: %d %s, want %d %s in the REST error shape", c.name, a.status, a.body, c.status, c.code)
			}
		}
		if n := counted(); n != 2 {
			t.Fatalf("refusals counted: %d sessions, want still 2", n)
		}

		// A flood from one address: its burst, then nothing counted (204
		// naming the limit, with Retry-After); another address is still
		// counted.
		accepted := 0
		var last frameAnswer
		for range 50 {
			last = post("203.0.113.99", "", same...)
			if last.status == 204 && last.header.Get(visitsapi.NotCountedHeader) == "" {
				accepted++
			}
		}
		if accepted != 10 || last.status != 204 || last.header.Get("Retry-After") == "" || last.header.Get(visitsapi.NotCountedHeader) != "vitrine_visits_rate_limited" {
			t.Fatalf("flood: %d accepted, last %d %q %q; want 10 then 204 naming the limit with Retry-After", accepted, last.status, last.header.Get("Retry-After"), last.header.Get(visitsapi.NotCountedHeader))
		}
		if a := post("2001:db8::1", "", same...); a.status != 204 {
			t.Fatalf("another address during the flood: %d %s", a.status, a.body)
		}
		sessions := counted()
		if sessions != 13 {
			t.Fatalf("%d sessions counted, want 13 (2 + 10 + 1)", sessions)
		}

		// The conversion rate: the range's counted orders ÷ its sessions.
		tank := f.shop.productID("cotton-tank-top")
		billing := `"billing":{"first_name":"Ann","last_name":"Bee","email":"ann@example.com","country":"US","state":"CA","postcode":"95814","city":"Sacramento","address_1":"1 Main"}`
		for _, status := range []string{"processing", "on-hold", "pending"} { // pending: not counted
			if a := f.staffCall("Mia", "POST", "/wp-json/wc/v3/orders",
				fmt.Sprintf(`{"status":%q,%s,"line_items":[{"product_id":%d,"quantity":1}]}`, status, billing, tank)); a.status != 201 {
				t.Fatalf("order: %d %s", a.status, a.body)
			}
		}
		day := f.db.Now().UTC().Format("2006-01-02")
		indicators := func(after, before string) []map[string]any {
			t.Helper()
			q := url.Values{"after": {after + "T00:00:00"}, "before": {before + "T23:59:59"}, "stats": {"orders/orders_count,orders/conversion"}}
			a := f.staffCall("Mia", "GET", "/wp-json/wc-analytics/reports/performance-indicators?"+q.Encode(), "")
			if a.status != 200 {
				t.Fatalf("indicators: %d %s", a.status, a.body)
			}
			var out []map[string]any
			if err := json.Unmarshal([]byte(a.body), &out); err != nil || len(out) != 2 {
				t.Fatalf("indicators: %v %s", err, a.body)
			}
			return out
		}
		got := indicators(day, day)
		conv := got[1]
		if d := sameShape("conversion indicator", any(conv), decodeAny(t, refAnalyticsIndicator)); len(d) > 0 {
			t.Errorf("the conversion indicator's shape differs from WooCommerce's indicators:\n%s", strings.Join(d, "\n"))
		}
		want := math.Round(2.0/float64(sessions)*10000) / 100
		if got[0]["value"] != float64(2) || conv["stat"] != "orders/conversion" || conv["chart"] != "conversion" || conv["label"] != "Conversion rate" ||
			conv["format"] != "percent" || conv["value"] != want {
			t.Errorf("today: orders %v, conversion %v; want 2 orders and %v%%", got[0]["value"], conv, want)
		}
		// A range without sessions has no rate (null), not 0 or infinity.
		lastYear := f.db.Now().UTC().AddDate(-1, 0, 0).Format("2006-01-02")
		if c := indicators(lastYear, lastYear)[1]; c["value"] != nil {
			t.Errorf("a range without sessions: %v, want null", c["value"])
		}
		// A bad stat is still refused, the conversion among the known ones.
		a = f.staffCall("Mia", "GET", "/wp-json/wc-analytics/reports/performance-indicators?stats=orders/conversions", "")
		wantError(t, "unknown stat", a, 400, "rest_invalid_param")
	})
}
