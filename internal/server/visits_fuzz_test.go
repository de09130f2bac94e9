package server_test

import (
	"net/http"
	"testing"

	"vitrine/internal/visitsapi"
)

// FuzzVisitsBeacon: POST /wp-json/vitrine/v1/visits with any query, body
// and the headers the route reads. Answers are below 500: 204 with no body
// (counted, or a quiet refusal naming its reason), or a refusal in the
// REST error shape with its status.
func FuzzVisitsBeacon(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []struct{ query, body, site, origin, ua, gpc, cookie string }{
		{"", "", "same-origin", "", shopBrowser, "", ""},
		{"", "", "", "https://shop.example", shopBrowser, "", ""},
		{"", "x", "same-origin", "", shopBrowser, "", ""},
		{"sessions=1000", "", "same-origin", "", shopBrowser, "", ""},
		{"", `{"n":1}`, "same-origin", "", shopBrowser, "", ""},
		{"", "", "cross-site", "https://evil.example", shopBrowser, "", ""},
		{"", "", "same-origin", "", "curl/8.5.0", "", ""},
		{"", "", "same-origin", "", shopBrowser, "1", ""},
		{"", "", "same-origin", "", shopBrowser, "", "vitrine_consent=denied"},
		{"", "", "same-origin", "", "", "", ""},
		{"%zz", "\x00", "\x00", "%", "\xff", "\x00", "a=\x00"},
	} {
		f.Add(s.query, s.body, s.site, s.origin, s.ua, s.gpc, s.cookie)
	}
	f.Fuzz(func(t *testing.T, query, body, site, origin, ua, gpc, cookie string) {
		h := http.Header{}
		for k, v := range map[string]string{"Sec-Fetch-Site": site, "Origin": origin, "User-Agent": ua, "Sec-GPC": gpc, "Cookie": cookie} {
			if v != "" {
				h.Set(k, v)
			}
		}
		target := visitsapi.Path
		if query != "" {
			target += "?" + query
		}
		for _, srv := range shops {
			rec, ok := fuzzDo(t, srv, http.MethodPost, target, body, h)
			if !ok {
				return
			}
			switch rec.Code {
			case http.StatusNoContent:
				if rec.Body.Len() != 0 || len(rec.Result().Cookies()) != 0 {
					t.Fatalf("counted with a body or a cookie: %q %v", rec.Body.String(), rec.Result().Cookies())
				}
			case http.StatusBadRequest, http.StatusForbidden, http.StatusTooManyRequests:
				if isJSON(rec) {
					checkStoreAPIError(t, rec.Code, rec.Body.Bytes())
				}
			default:
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
		}
	})
}
