package server_test

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"vitrine/web"
)

// The admin app's shell and its API's guard (admin_shell.go,
// internal/adminapi): staff only, with a REST nonce; and no storefront page
// ever names the admin's files.

func TestAdminShell(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		a := f.do("GET", "/wp-admin/products/12/", f.cookie("Mia"), "")
		if a.status != 200 {
			t.Fatalf("a screen's address: %d", a.status)
		}
		m := regexp.MustCompile(`<script type="application/json" id="vitrine-admin-data">(.*?)</script>`).FindStringSubmatch(a.body)
		if m == nil {
			t.Fatalf("no admin data: %.400s", a.body)
		}
		var d struct {
			User struct {
				ID   int64
				Name string
				Role string
			}
			Nonce     string
			LogoutURL string `json:"logout_url"`
			Site      struct{ Name, Currency string }
		}
		if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
			t.Fatal(err)
		}
		if d.User.ID != f.users["Mia"] || d.User.Name != "Mia Manager" || d.User.Role != "shop_manager" || d.Site.Name != "Vitrine" ||
			d.Site.Currency != "USD" || !strings.HasPrefix(d.LogoutURL, "/my-account/customer-logout/?_wpnonce=") {
			t.Errorf("admin data: %+v", d)
		}
		if d.Nonce != f.nonce("Mia") {
			t.Errorf("the shell's nonce is not Mia's REST nonce")
		}
		// The nonce it carries opens the admin API.
		me := f.do("GET", "/wp-json/vitrine/v1/admin/me", f.cookie("Mia"), "", "X-WP-Nonce", d.Nonce)
		if me.status != 200 || me.json(t)["name"] != "Mia Manager" {
			t.Errorf("me: %d %s", me.status, me.body)
		}
	})
}

func TestAdminAPIGuard(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const me = "/wp-json/vitrine/v1/admin/me"
		mia, carla := f.cookie("Mia"), f.cookie("Carla")
		miaNonce, carlaNonce := f.nonce("Mia"), f.nonce("Carla")
		for _, c := range []struct {
			name   string
			cookie *http.Cookie
			nonce  string
			status int
			code   string
		}{
			{"a visitor", nil, "", 401, "rest_not_logged_in"},
			{"a visitor with a nonce", nil, miaNonce, 401, "rest_not_logged_in"},
			{"a customer", carla, carlaNonce, 403, "rest_forbidden"},
			// Without a nonce the login cookie is not used: a page on another
			// site cannot call the admin API with the manager's cookie.
			{"staff without a nonce", mia, "", 401, "rest_not_logged_in"},
			{"staff with another user's nonce", mia, carlaNonce, 403, "rest_cookie_invalid_nonce"},
			{"staff with a made-up nonce", mia, "0123456789", 403, "rest_cookie_invalid_nonce"},
		} {
			var h []string
			if c.nonce != "" {
				h = []string{"X-WP-Nonce", c.nonce}
			}
			for _, path := range []string{me, "/wp-json/vitrine/v1/admin/audit"} {
				a := f.do("GET", path, c.cookie, "", h...)
				if a.status != c.status || a.json(t)["code"] != c.code {
					t.Errorf("%s, %s: %d %s, want %d %s", c.name, path, a.status, a.body, c.status, c.code)
				}
				if a.header.Get("Cache-Control") != "no-store, private" {
					t.Errorf("%s, %s: Cache-Control %q", c.name, path, a.header.Get("Cache-Control"))
				}
			}
		}
		// Staff with their nonce: the route answers; an unknown one is WordPress's no-route.
		if a := f.do("GET", me, mia, "", "X-WP-Nonce", miaNonce); a.status != 200 || a.json(t)["role"] != "shop_manager" {
			t.Errorf("staff: %d %s", a.status, a.body)
		}
		if a := f.do("GET", "/wp-json/vitrine/v1/admin/nothing-here", mia, "", "X-WP-Nonce", miaNonce); a.status != 404 || a.json(t)["code"] != "rest_no_route" {
			t.Errorf("unknown route: %d %s", a.status, a.body)
		}
		if a := f.do("POST", me, mia, "{}", "X-WP-Nonce", miaNonce); a.status != 404 || a.json(t)["code"] != "rest_no_route" {
			t.Errorf("wrong method: %d %s", a.status, a.body)
		}
		// admin-ajax still answers every method it did.
		if a := f.do("PUT", "/wp-admin/admin-ajax.php?action=rest-nonce", nil, ""); a.status != http.StatusMethodNotAllowed || a.body != "0" {
			t.Errorf("admin-ajax PUT: %d %q", a.status, a.body)
		}
	})
}

// The admin app is its own bundle: no storefront page names its entry,
// its screens or its stylesheet.
func TestStorefrontNeverLoadsTheAdmin(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		shell := f.do("GET", "/wp-admin/", f.cookie("Ada"), "")
		src := adminScriptRE.FindString(shell.body)
		css := regexp.MustCompile(`/assets/main-[\w-]+\.css`).FindString(shell.body)
		if src == "" || css == "" {
			t.Fatalf("the admin shell names no entry or stylesheet: %.400s", shell.body)
		}
		entry := regexp.MustCompile(`/assets/main-[\w-]+\.js`).FindString(src)
		admin := append(adminOnlyFiles(t), entry, css, "src/admin/")
		if len(admin) < 8 {
			t.Fatalf("only %d admin files found: %v", len(admin), admin)
		}
		for _, path := range []string{"/", "/shop/", "/product/classic-tee/", "/product-category/clothing/", "/cart/",
			"/my-account/", "/contact/", "/?s=tee"} {
			for _, who := range []string{"", "Ada"} {
				var c *http.Cookie
				if who != "" {
					c = f.cookie(who)
				}
				a := f.do("GET", path, c, "")
				if a.status != 200 {
					t.Errorf("%s as %q: %d", path, who, a.status)
					continue
				}
				for _, name := range admin {
					if strings.Contains(a.body, name) {
						t.Errorf("%s as %q names the admin's %s", path, who, name)
					}
				}
			}
		}
	})
}

// adminOnlyFiles are the built files reachable from the admin's entry
// (its static and dynamic imports, their stylesheets) and not from the
// storefront's: every admin screen's chunk, read from Vite's manifest.
func adminOnlyFiles(t *testing.T) []string {
	t.Helper()
	client, err := web.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := fs.ReadFile(client, ".vite/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]struct {
		File           string   `json:"file"`
		CSS            []string `json:"css"`
		Imports        []string `json:"imports"`
		DynamicImports []string `json:"dynamicImports"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	reach := func(entry string) map[string]bool {
		files := map[string]bool{}
		seen := map[string]bool{}
		var walk func(k string)
		walk = func(k string) {
			c, ok := m[k]
			if seen[k] || !ok {
				return
			}
			seen[k] = true
			files["/"+c.File] = true
			for _, css := range c.CSS {
				files["/"+css] = true
			}
			for _, i := range append(append([]string{}, c.Imports...), c.DynamicImports...) {
				walk(i)
			}
		}
		walk(entry)
		return files
	}
	store := reach("src/entry-client.tsx")
	var out []string
	for f := range reach("src/admin/main.tsx") {
		if !store[f] {
			out = append(out, f)
		}
	}
	return out
}
