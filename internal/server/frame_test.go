package server_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/pages"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The logged-in frame (storefront/frame.go): settings.user and the
// viewer's part of shared pages, edit links, /wp-admin/, REST nonces and
// the coming-soon banner.

// frameShop is a demo shop with named users (by first name) who log in.
type frameShop struct {
	*shop
	users map[string]int64
}

func newFrameShop(t *testing.T, db *sqlstore.DB, comingSoon bool) *frameShop {
	t.Helper()
	return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ComingSoon: comingSoon})
}

// newFrameShopWith is newFrameShop on a configuration of the test's own.
func newFrameShopWith(t *testing.T, db *sqlstore.DB, cfg server.Config) *frameShop {
	t.Helper()
	srv := newServer(t, db, "", 1, cfg)
	f := &frameShop{shop: &shop{t: t, db: db, srv: srv}, users: map[string]int64{}}
	f.addUsers(frameUser{"Carla Customer", account.RoleCustomer}, frameUser{"Dana Customer", account.RoleCustomer},
		frameUser{"Mia Manager", account.RoleShopManager}, frameUser{"Ada Admin", account.RoleAdministrator})
	return f
}

// frameUser is a user of a frameShop: "First Last" and a role.
type frameUser struct{ name, role string }

// addUsers creates the users, each as first@example.com, known to f by
// first name.
func (f *frameShop) addUsers(users ...frameUser) {
	f.t.Helper()
	for _, u := range users {
		first := strings.Fields(u.name)[0]
		id, err := f.db.CreateUser(context.Background(), &account.User{Email: strings.ToLower(first) + "@example.com", DisplayName: u.name,
			Role: u.role, PasswordHash: "unused", CreatedAt: seedTime})
		if err != nil {
			f.t.Fatal(err)
		}
		f.users[first] = id
	}
}

// nonce is the named user's REST nonce (the X-WP-Nonce header).
func (f *frameShop) nonce(name string) string { return f.srv.RESTNonceForTest(f.users[name]) }

// cookie logs the named user in (a new session) and answers its cookie.
func (f *frameShop) cookie(name string) *http.Cookie {
	f.t.Helper()
	c, err := f.srv.LoginCookieForTest(context.Background(), f.users[name])
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

type frameAnswer struct {
	status int
	header http.Header
	body   string
}

func (a frameAnswer) json(t *testing.T) map[string]any {
	t.Helper()
	return jsonObject(t, a.status, a.body)
}

// jsonObject decodes body, answered with status, as a JSON object.
func jsonObject(t *testing.T, status int, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("not JSON (%d): %.200s", status, body)
	}
	return m
}

func (f *frameShop) do(method, target string, c *http.Cookie, body string, headers ...string) frameAnswer {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	if c != nil {
		r.AddCookie(c)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, r)
	return frameAnswer{status: w.Code, header: w.Header(), body: w.Body.String()}
}

const visitorUser = `"user":{"logged_in":false,"can_edit_pages":false}`

// viewerPartRe is a viewer's part of a shared page (storefront/frame.go).
var viewerPartRe = regexp.MustCompile(`<script id="vitrine-viewer" type="application/json">([^<]*)</script>\n`)

// splitViewer splits a page into the shared page and the viewer's part
// (nil: none).
func splitViewer(t *testing.T, body string) (string, *pages.ViewerPart) {
	t.Helper()
	m := viewerPartRe.FindAllStringSubmatchIndex(body, -1)
	switch len(m) {
	case 0:
		return body, nil
	case 1:
	default:
		t.Fatalf("%d viewer parts in one page", len(m))
	}
	var v pages.ViewerPart
	if err := json.Unmarshal([]byte(body[m[0][2]:m[0][3]]), &v); err != nil {
		t.Fatalf("viewer part: %v: %s", err, body[m[0][2]:m[0][3]])
	}
	if !strings.HasPrefix(body[m[0][1]:], "</body>") {
		t.Error("the viewer part is not last in the body")
	}
	return body[:m[0][0]] + body[m[0][1]:], &v
}

// viewerPage is a logged-in viewer's answer for a shared page: its part
// and the page around it, which must be the visitors' page byte for byte.
func (f *frameShop) viewerPage(target string, c *http.Cookie, visitorBody string) (frameAnswer, *pages.ViewerPart) {
	f.t.Helper()
	a := f.do("GET", target, c, "")
	shared, v := splitViewer(f.t, a.body)
	if v == nil {
		f.t.Fatalf("%s: no viewer part (%d)", target, a.status)
	}
	if a.header.Get("Cache-Control") != "no-store, private" || a.header.Get("ETag") != "" {
		f.t.Errorf("%s: a viewer's page is cacheable: Cache-Control=%q ETag=%q", target, a.header.Get("Cache-Control"), a.header.Get("ETag"))
	}
	if visitorBody != "" && shared != visitorBody {
		f.t.Errorf("%s: the page around the viewer's part is not the visitors' page", target)
	}
	return a, v
}

func TestFramePages(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const product = "/product/classic-tee/"
		carla := f.cookie("Carla")

		var first frameAnswer
		t.Run("a customer's first visit renders the shared page and caches it for everyone", func(t *testing.T) {
			var v *pages.ViewerPart
			first, v = f.viewerPage(product, carla, "")
			if first.status != 200 || first.header.Get("X-Cache") != "miss" {
				t.Fatalf("customer: %d X-Cache=%q", first.status, first.header.Get("X-Cache"))
			}
			if !v.User.LoggedIn || v.User.DisplayName != "Carla Customer" {
				t.Errorf("customer's part: %+v", v.User)
			}
		})

		v1 := f.do("GET", product, nil, "")
		t.Run("visitors share one cached page with the visitor value", func(t *testing.T) {
			if v1.header.Get("X-Cache") != "hit" || v1.header.Get("Cache-Control") != "no-cache" {
				t.Fatalf("visitor: X-Cache=%q Cache-Control=%q", v1.header.Get("X-Cache"), v1.header.Get("Cache-Control"))
			}
			if !strings.Contains(v1.body, visitorUser) || strings.Contains(v1.body, "edit_links") || strings.Contains(v1.body, "Log out") ||
				strings.Contains(v1.body, "vitrine-viewer") || strings.Contains(v1.body, "Carla") || strings.Contains(v1.body, "wp-admin/post.php") {
				t.Fatalf("visitor page carries more than the visitor value")
			}
			if shared, _ := splitViewer(t, first.body); shared != v1.body {
				t.Fatal("the page the customer's visit cached is not the one they were sent")
			}
			if !strings.Contains(v1.body, `<nav class="header-account" aria-label="Account"><a href="/my-account/">My account</a></nav>`) {
				t.Fatal("no My account link in the visitor's header")
			}
		})

		t.Run("a customer gets the cached page with their own part", func(t *testing.T) {
			a, v := f.viewerPage(product, carla, v1.body)
			if a.header.Get("X-Cache") != "hit" {
				t.Fatalf("customer: X-Cache=%q", a.header.Get("X-Cache"))
			}
			u := v.User
			if !u.LoggedIn || u.CanEditPages || u.ID != f.users["Carla"] || u.DisplayName != "Carla Customer" ||
				!strings.HasPrefix(u.LogoutURL, "/my-account/customer-logout/?_wpnonce=") || u.RESTNonce != f.nonce("Carla") {
				t.Errorf("customer's user: %+v", u)
			}
			if u.ComingSoonBanner != nil || (v.Page != nil && v.Page.EditLinks != nil) {
				t.Error("a customer sees staff things")
			}
			if v2 := f.do("GET", product, nil, ""); v2.header.Get("X-Cache") != "hit" || v2.body != v1.body {
				t.Fatalf("visitor page changed after a customer's visit (X-Cache=%q)", v2.header.Get("X-Cache"))
			}
		})

		t.Run("staff see edit links on products, categories and content pages", func(t *testing.T) {
			_, v := f.viewerPage(product, f.cookie("Mia"), v1.body)
			if !v.User.CanEditPages || v.Page == nil || len(v.Page.EditLinks) != 1 {
				t.Fatalf("manager's part: %+v", v)
			}
			if l := v.Page.EditLinks[0]; l.Block != "product" || l.Label != "Edit Classic Tee" || !strings.HasPrefix(l.EditorURL, "/wp-admin/post.php?post=") ||
				l.BuilderURL != l.EditorURL+"&app=uxbuilder" {
				t.Errorf("product edit link: %+v", l)
			}
			const cat = "/product-category/clothing/t-shirts/"
			catVisitor := f.do("GET", cat, nil, "")
			_, v = f.viewerPage(cat, f.cookie("Ada"), catVisitor.body)
			if v.Page == nil || len(v.Page.EditLinks) != 1 || v.Page.EditLinks[0].Block != "category" || v.Page.EditLinks[0].Label != "Edit T-shirts" ||
				!strings.HasPrefix(v.Page.EditLinks[0].EditorURL, "/wp-admin/term.php?taxonomy=product_cat") {
				t.Errorf("administrator's category part: %+v", v.Page)
			}
			if _, v := f.viewerPage(cat, carla, catVisitor.body); v.Page != nil {
				t.Errorf("a customer's category part has page fields: %+v", v.Page)
			}
		})

		t.Run("viewers one after another each get their own part, never another's", func(t *testing.T) {
			viewers := []string{"Carla", "Mia", "Dana", "Ada", "", "Carla", "Ada"}
			for round := 0; round < 2; round++ {
				for _, name := range viewers {
					if name == "" {
						if a := f.do("GET", product, nil, ""); a.body != v1.body {
							t.Fatal("a visitor's page changed between viewers")
						}
						continue
					}
					_, v := f.viewerPage(product, f.cookie(name), v1.body)
					if v.User.ID != f.users[name] || !strings.HasPrefix(v.User.DisplayName, name+" ") || v.User.RESTNonce != f.nonce(name) {
						t.Errorf("%s got %q (id %d)", name, v.User.DisplayName, v.User.ID)
					}
					staff := name == "Mia" || name == "Ada"
					if staff != (v.Page != nil && len(v.Page.EditLinks) > 0) {
						t.Errorf("%s: edit links %v, staff %v", name, v.Page, staff)
					}
				}
			}
		})

		t.Run("a name with markup stays inside the part's JSON", func(t *testing.T) {
			f.addUsers(frameUser{"Eve </script><img src=x onerror=alert(1)>", account.RoleCustomer})
			a, v := f.viewerPage(product, f.cookie("Eve"), v1.body)
			if v.User.DisplayName != "Eve </script><img src=x onerror=alert(1)>" || strings.Contains(a.body, "<img src=x") {
				t.Errorf("the name escaped its script: %q", v.User.DisplayName)
			}
		})

		t.Run("gzip: the shared stream with the viewer's part, as a browser reads it", func(t *testing.T) {
			a := f.do("GET", product, f.cookie("Dana"), "", "Accept-Encoding", "gzip, deflate, br")
			if a.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Content-Encoding=%q", a.header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(strings.NewReader(a.body))
			if err != nil {
				t.Fatal(err)
			}
			zr.Multistream(false)
			html, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			shared, v := splitViewer(t, string(html))
			if v == nil || v.User.DisplayName != "Dana Customer" || shared != v1.body {
				t.Errorf("gzip page: part %+v, shared page equal: %v", v, shared == v1.body)
			}
		})

		t.Run("the 404 page and the cart follow the viewer", func(t *testing.T) {
			visitor404 := f.do("GET", "/no-such-page/", nil, "")
			a, v := f.viewerPage("/no-such-page/", f.cookie("Dana"), visitor404.body)
			if a.status != 404 || v.User.DisplayName != "Dana Customer" {
				t.Fatalf("customer 404: %d %+v", a.status, v.User)
			}
			if v := f.do("GET", "/no-such-page/", nil, ""); v.status != 404 || strings.Contains(v.body, "Dana") || !strings.Contains(v.body, visitorUser) {
				t.Fatal("visitor 404 shows a customer")
			}
			c := f.do("GET", "/cart/", f.cookie("Dana"), "")
			if !strings.Contains(c.body, `"display_name":"Dana Customer"`) || strings.Contains(c.body, "vitrine-viewer") {
				t.Fatal("the cart is not rendered for its viewer")
			}
		})

		t.Run("the quick view is shared and carries no viewer", func(t *testing.T) {
			q := "action=flatsome_quickview&product=65"
			staff := f.do("POST", "/wp-admin/admin-ajax.php", f.cookie("Mia"), q)
			visitor := f.do("POST", "/wp-admin/admin-ajax.php", nil, q)
			if staff.status != 200 || staff.body != visitor.body || strings.Contains(staff.body, "Mia") || strings.Contains(staff.body, "edit_links") {
				t.Fatalf("quick view differs for staff (%d)", staff.status)
			}
		})

		t.Run("a dead login cookie is a visitor", func(t *testing.T) {
			pre := f.do("GET", product, nil, "")
			a := f.do("GET", product, &http.Cookie{Name: f.cookie("Carla").Name, Value: "forged"}, "")
			if a.header.Get("X-Cache") != "hit" || a.body != v1.body {
				t.Fatalf("forged cookie: X-Cache=%q (visitor before: %q, same body as v1: %v)", a.header.Get("X-Cache"), pre.header.Get("X-Cache"), pre.body == v1.body)
			}
		})
	})
}

func TestFrameWPAdmin(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		for _, path := range []string{"/wp-admin/", "/wp-admin/post.php?post=1&action=edit", "/wp-admin/term.php?taxonomy=product_cat&tag_ID=2"} {
			for _, who := range []string{"", "Carla"} {
				var c *http.Cookie
				if who != "" {
					c = f.cookie(who)
				}
				if a := f.do("GET", path, c, ""); a.status != http.StatusFound || a.header.Get("Location") != "/my-account/" {
					t.Errorf("%s as %q: %d %q, want 302 to /my-account/", path, who, a.status, a.header.Get("Location"))
				}
			}
			for _, who := range []string{"Mia", "Ada"} {
				a := f.do("GET", path, f.cookie(who), "")
				if a.status != 200 || a.header.Get("Cache-Control") != "no-store, private" || !strings.Contains(a.header.Get("X-Robots-Tag"), "noindex") {
					t.Errorf("%s as %s: %d %v", path, who, a.status, a.header)
				}
				if !strings.Contains(a.body, `<div id="admin-root">`) || !strings.Contains(a.body, `<meta name="robots" content="noindex, nofollow">`) ||
					!adminScriptRE.MatchString(a.body) {
					t.Errorf("%s as %s: not the admin app's shell: %.300s", path, who, a.body)
				}
			}
		}
		if a := f.do("GET", "/wp-admin", nil, ""); a.status != http.StatusMovedPermanently {
			t.Errorf("/wp-admin: %d", a.status)
		}
	})
}

var adminScriptRE = regexp.MustCompile(`<script type="module" src="/assets/main-[\w-]+\.js"></script>`)

var nonceRE = regexp.MustCompile(`^[0-9a-f]{10}$`)

func TestFrameRESTNonces(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		carla, dana := f.cookie("Carla"), f.cookie("Dana")
		const ajax = "/wp-admin/admin-ajax.php?action=rest-nonce"

		t.Run("rest-nonce", func(t *testing.T) {
			if a := f.do("GET", ajax, nil, ""); a.status != 400 || a.body != "0" {
				t.Errorf("visitor: %d %q, want 400 0", a.status, a.body)
			}
			a := f.do("GET", ajax, carla, "")
			if a.status != 200 || !nonceRE.MatchString(a.body) || !strings.HasPrefix(a.header.Get("Content-Type"), "text/plain") ||
				a.header.Get("Cache-Control") != "no-store, private" {
				t.Fatalf("customer: %d %q %v", a.status, a.body, a.header)
			}
			if a.body != f.nonce("Carla") || a.body == f.nonce("Dana") {
				t.Error("rest-nonce is not the viewer's own")
			}
		})

		cart := "/wp-json/wc/store/v1/cart"
		t.Run("X-WP-Nonce on the Store API", func(t *testing.T) {
			own := f.nonce("Carla")
			if a := f.do("GET", cart, carla, "", "X-WP-Nonce", own); a.status != 200 || a.header.Get("Nonce") == "" ||
				a.header.Get("User-ID") != itoa(f.users["Carla"]) {
				t.Fatalf("own nonce: %d User-ID=%q", a.status, a.header.Get("User-ID"))
			}
			if a := f.do("GET", cart, nil, ""); a.header.Get("User-ID") != "0" {
				t.Fatalf("visitor User-ID=%q", a.header.Get("User-ID"))
			}
			for _, bad := range []string{f.nonce("Dana"), "0123456789", "junk"} {
				a := f.do("GET", cart, carla, "", "X-WP-Nonce", bad)
				if a.status != 403 || a.json(t)["code"] != "rest_cookie_invalid_nonce" {
					t.Errorf("nonce %q: %d %s", bad, a.status, a.body)
				}
			}
			// A visitor's X-WP-Nonce means nothing: visitors are not checked.
			if a := f.do("GET", cart, nil, "", "X-WP-Nonce", "junk"); a.status != 200 {
				t.Errorf("visitor with a nonce header: %d", a.status)
			}
		})

		t.Run("Store API nonces are bound to the cart's owner", func(t *testing.T) {
			// The visitor's nonce (anonymous scope) and a customer's.
			visitorNonce := f.do("GET", cart, nil, "").header.Get("Nonce")
			carlaNonce := f.do("GET", cart, carla, "").header.Get("Nonce")
			danaNonce := f.do("GET", cart, dana, "").header.Get("Nonce")
			if carlaNonce == visitorNonce || carlaNonce == danaNonce {
				t.Fatal("customers' Store API nonces are not their own")
			}
			add := `{"id":65,"quantity":1}`
			post := func(c *http.Cookie, nonce string) frameAnswer {
				return f.do("POST", cart+"/add-item", c, add, "Content-Type", "application/json", "Nonce", nonce)
			}
			for name, a := range map[string]frameAnswer{
				"visitor's nonce for a customer": post(carla, visitorNonce),
				"another customer's nonce":       post(carla, danaNonce),
				"a customer's nonce, logged out": post(nil, carlaNonce),
			} {
				if a.status != 403 || a.json(t)["code"] != "woocommerce_rest_invalid_nonce" {
					t.Errorf("%s: %d %s", name, a.status, a.body)
				}
			}
			if a := post(carla, carlaNonce); a.status != 201 {
				t.Errorf("own nonce: %d %s", a.status, a.body)
			}
		})
	})
}

func TestFrameComingSoonBanner(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newFrameShop(t, db, true)
		mia := f.cookie("Mia")
		id := itoa(f.users["Mia"])
		url := "/wp-json/wp/v2/users/" + id
		nonce := f.nonce("Mia")
		const body = "woocommerce_meta%5Bcoming_soon_banner_dismissed%5D=yes"
		banner := `"coming_soon_banner":{"rest_url":"` + url + `","rest_nonce":"` + nonce + `"}`
		// The banner comes in the viewer's part of the shared page; the
		// app shows it (web/src/layout/Layout.tsx, browser tests).
		shows := func(c *http.Cookie) bool {
			_, v := splitViewer(t, f.do("GET", "/", c, "").body)
			return v != nil && v.User.ComingSoonBanner != nil && strings.HasPrefix(v.User.ComingSoonBanner.RESTURL, "/wp-json/wp/v2/users/")
		}

		if p := f.do("GET", "/", mia, ""); !strings.Contains(p.body, banner) {
			t.Fatal("a manager in coming-soon mode sees no banner")
		}
		if shows(f.cookie("Carla")) || strings.Contains(f.do("GET", "/", f.cookie("Carla"), "").body, "coming_soon_banner") ||
			strings.Contains(f.do("GET", "/", nil, "").body, "coming_soon_banner") {
			t.Fatal("the banner shows to a customer or a visitor")
		}

		t.Run("refusals change nothing", func(t *testing.T) {
			cases := []struct {
				name   string
				target string
				c      *http.Cookie
				body   string
				hdr    []string
				status int
				code   string
			}{
				{"visitor", url, nil, body, []string{"X-WP-Nonce", nonce}, 401, "rest_not_logged_in"},
				{"no nonce", url, mia, body, nil, 401, "rest_not_logged_in"},
				{"bad nonce", url, mia, body, []string{"X-WP-Nonce", "0123456789"}, 403, "rest_cookie_invalid_nonce"},
				{"another's nonce", url, mia, body, []string{"X-WP-Nonce", f.nonce("Ada")}, 403, "rest_cookie_invalid_nonce"},
				{"another user", "/wp-json/wp/v2/users/" + itoa(f.users["Ada"]), mia, body, []string{"X-WP-Nonce", nonce}, 403, "rest_cannot_edit"},
				{"bad value", url, mia, "woocommerce_meta%5Bcoming_soon_banner_dismissed%5D=maybe", []string{"X-WP-Nonce", nonce}, 400, "rest_invalid_param"},
				{"unknown key", url, mia, "woocommerce_meta%5Brole%5D=administrator", []string{"X-WP-Nonce", nonce}, 400, "rest_invalid_param"},
				{"other field", url, mia, body + "&email=x%40example.com", []string{"X-WP-Nonce", nonce}, 400, "rest_invalid_param"},
				{"bad JSON", url, mia, "{", []string{"X-WP-Nonce", nonce, "Content-Type", "application/json"}, 400, "rest_invalid_json"},
				{"JSON other field", url, mia, `{"woocommerce_meta":{"coming_soon_banner_dismissed":"yes"},"roles":["administrator"]}`, []string{"X-WP-Nonce", nonce, "Content-Type", "application/json"}, 400, "rest_invalid_param"},
				{"JSON not strings", url, mia, `{"woocommerce_meta":{"coming_soon_banner_dismissed":true}}`, []string{"X-WP-Nonce", nonce, "Content-Type", "application/json"}, 400, "rest_invalid_param"},
			}
			for _, c := range cases {
				a := f.do("POST", c.target, c.c, c.body, c.hdr...)
				if a.status != c.status || a.json(t)["code"] != c.code {
					t.Errorf("%s: %d %s, want %d %s", c.name, a.status, a.body, c.status, c.code)
				}
			}
			if !shows(mia) {
				t.Fatal("a refused request dismissed the banner")
			}
		})

		t.Run("dismissed, then back at the next login", func(t *testing.T) {
			a := f.do("POST", url, mia, body, "X-WP-Nonce", nonce)
			if a.status != 200 || a.header.Get("Cache-Control") != "no-store, private" {
				t.Fatalf("dismiss: %d %s", a.status, a.body)
			}
			m := a.json(t)
			if m["id"] != float64(f.users["Mia"]) || m["name"] != "Mia Manager" ||
				m["woocommerce_meta"].(map[string]any)["coming_soon_banner_dismissed"] != "yes" {
				t.Fatalf("user object: %s", a.body)
			}
			if shows(mia) || strings.Contains(f.do("GET", "/", mia, "").body, "coming_soon_banner") {
				t.Fatal("banner still shown after dismissal")
			}
			if !shows(f.cookie("Ada")) {
				t.Fatal("one manager's dismissal hid another's banner")
			}
			again, err := f.srv.LogInForTest(ctx, f.users["Mia"])
			if err != nil {
				t.Fatal(err)
			}
			if !shows(again) {
				t.Fatal("banner not back after a login")
			}
		})

		t.Run("older body and JSON accepted", func(t *testing.T) {
			a := f.do("POST", url, mia, "meta%5Bwoocommerce_coming_soon_banner_dismissed%5D=yes", "X-WP-Nonce", nonce)
			if a.status != 200 || shows(mia) {
				t.Fatalf("older body: %d %s", a.status, a.body)
			}
			a = f.do("POST", url, mia, `{"woocommerce_meta":{"coming_soon_banner_dismissed":"no"}}`, "X-WP-Nonce", nonce, "Content-Type", "application/json")
			if a.status != 200 || !shows(mia) {
				t.Fatalf("JSON body: %d %s", a.status, a.body)
			}
		})
	})
}

func TestFrameNoBannerOutsideComingSoon(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		if a := f.do("GET", "/", f.cookie("Ada"), ""); strings.Contains(a.body, "coming_soon_banner") || !strings.Contains(a.body, `"can_edit_pages":true`) {
			t.Fatal("banner outside coming-soon mode, or the admin is not staff")
		}
	})
}
