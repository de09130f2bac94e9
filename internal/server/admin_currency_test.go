package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Currencies and rates in the admin (internal/adminapi/currencies.go): the
// list, adding and changing one, its rate history, a rates file; refusals;
// and the switcher in the storefront's pages following a change on every
// instance (the change log).
func TestAdminCurrencies(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour,
			ChangePoll: 20 * time.Millisecond})
		servertest.Start(t, f.srv)
		const base = "/wp-json/vitrine/v1/admin/currencies"
		ada, nonce := f.cookie("Ada"), f.nonce("Ada")
		call := func(method, path, body string, c *http.Cookie, n string) frameAnswer {
			return f.do(method, path, c, body, "Content-Type", "application/json", "X-WP-Nonce", n)
		}
		list := call("GET", base, "", ada, nonce)
		if list.status != 200 || !strings.HasPrefix(list.body, `[{"code":"USD","name":"United States dollar","base":true`) {
			t.Fatalf("list: %d %.300s", list.status, list.body)
		}
		if strings.Contains(list.body, `"code":"CHF"`) {
			t.Fatal("CHF configured before the test")
		}
		// Warm a page: the switcher has no CHF.
		if home := f.do("GET", "/", nil, ""); strings.Contains(home.body, `"code":"CHF"`) {
			t.Fatal("CHF in the switcher before it is added")
		}

		// Refusals change nothing.
		carla := f.cookie("Carla")
		for name, c := range map[string]struct {
			method, path, body string
			cookie             *http.Cookie
			nonce              string
			status             int
			want               string
		}{
			"a customer":        {"PUT", base + "/CHF", `{"rate":"0.88"}`, carla, f.nonce("Carla"), 403, "rest_forbidden"},
			"no rate":           {"PUT", base + "/CHF", `{}`, ada, nonce, 400, `"rate"`},
			"a bad rate":        {"PUT", base + "/CHF", `{"rate":"-3"}`, ada, nonce, 400, `"rate"`},
			"an unknown code":   {"PUT", base + "/ABC", `{"rate":"2"}`, ada, nonce, 400, `"code"`},
			"the base":          {"PUT", base + "/USD", `{"rate":"1"}`, ada, nonce, 400, `"code"`},
			"a bad position":    {"PUT", base + "/CHF", `{"rate":"0.88","position":"middle"}`, ada, nonce, 400, `"position"`},
			"same separators":   {"PUT", base + "/CHF", `{"rate":"0.88","thousand_separator":".","decimal_separator":"."}`, ada, nonce, 400, `"decimal_sep"`},
			"not JSON":          {"PUT", base + "/CHF", `rate=1`, ada, nonce, 400, "rest_invalid_json"},
			"an empty file":     {"POST", base + "/rates", ``, ada, nonce, 400, `"file"`},
			"a bad file":        {"POST", base + "/rates", "CHF,abc\n", ada, nonce, 400, `"file"`},
			"unknown history":   {"GET", base + "/CHF/rates", ``, ada, nonce, 404, "rest_not_found"},
			"customer's import": {"POST", base + "/rates", "EUR,0.9\n", carla, f.nonce("Carla"), 403, "rest_forbidden"},
		} {
			a := call(c.method, c.path, c.body, c.cookie, c.nonce)
			if a.status != c.status || !strings.Contains(a.body, c.want) {
				t.Errorf("%s: %d %s", name, a.status, a.body)
			}
		}
		if a := call("GET", base, "", ada, nonce); strings.Contains(a.body, `"code":"CHF"`) {
			t.Fatal("a refused save stored CHF")
		}

		// Add CHF: the ISO defaults fill what is not given.
		add := call("PUT", base+"/chf", `{"rate":"0.88","position":"right_space","order":5}`, ada, nonce)
		if add.status != 200 || !strings.Contains(add.body, `"code":"CHF"`) || !strings.Contains(add.body, `"rate":"0.88"`) ||
			!strings.Contains(add.body, `"position":"right_space"`) || !strings.Contains(add.body, `"decimals":2`) || !strings.Contains(add.body, `"enabled":true`) {
			t.Fatalf("add: %d %s", add.status, add.body)
		}
		hist := call("GET", base+"/CHF/rates", "", ada, nonce)
		if hist.status != 200 || !strings.Contains(hist.body, `"rate":"0.88"`) || !strings.Contains(hist.body, `"source":"manual"`) {
			t.Errorf("history: %d %s", hist.status, hist.body)
		}
		// The storefront's switcher offers it after the change poll.
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if home := f.do("GET", "/", nil, ""); strings.Contains(home.body, `"code":"CHF"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the switcher does not offer CHF")
			}
		}
		// A rates file moves its current rate.
		imp := call("POST", base+"/rates", "code,rate,date\nCHF,0.91,2099-01-02\nSEK,11.02,2099-01-02\n", ada, nonce)
		if imp.status != 200 || !strings.Contains(imp.body, `"updated":["CHF"]`) || !strings.Contains(imp.body, `"unknown":["SEK"]`) {
			t.Fatalf("import: %d %s", imp.status, imp.body)
		}
		if a := call("GET", base, "", ada, nonce); !strings.Contains(a.body, `"rate":"0.91"`) {
			t.Errorf("after the import: %s", a.body)
		}
		// Turn it off: the switcher drops it.
		if a := call("PUT", base+"/CHF", `{"enabled":false}`, ada, nonce); a.status != 200 || !strings.Contains(a.body, `"enabled":false`) {
			t.Fatalf("disable: %d %s", a.status, a.body)
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if home := f.do("GET", "/", nil, ""); !strings.Contains(home.body, `"code":"CHF"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the switcher still offers CHF")
			}
		}
		audit := call("GET", "/wp-json/vitrine/v1/admin/audit?object=currency", "", ada, nonce)
		if strings.Count(audit.body, `"action":"currency.save"`) != 2 || strings.Count(audit.body, `"action":"currency.import"`) != 1 {
			t.Errorf("audit: %s", audit.body)
		}
	})
}
