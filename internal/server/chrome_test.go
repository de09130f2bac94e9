package server_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The site chrome: the store notice in cached pages, hidden
// before paint by the head script the CSP allows; coming-soon mode.

var headScriptRE = regexp.MustCompile(`<script( data-store-notice="([^"]*)")?(?: data-entry="/assets/[^"]+"(?: data-preload="[^"]*")?)>([^<]*)</script>`)

func TestStoreNoticeInCachedPages(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		notice, err := pages.NewStoreNotice(`Free shipping <strong>this week</strong><img src=x onerror="alert(1)">`)
		if err != nil {
			t.Fatal(err)
		}
		settings := pages.DefaultSettings()
		settings.StoreNotice, settings.HeaderHideOnScroll = notice, true
		srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour, Settings: settings})
		f := &frameShop{shop: &shop{t: t, db: db, srv: srv}, users: map[string]int64{}}
		id, err := db.CreateUser(context.Background(), &account.User{Email: "carla@example.com", DisplayName: "Carla", Role: account.RoleCustomer,
			PasswordHash: "unused", CreatedAt: seedTime})
		if err != nil {
			t.Fatal(err)
		}
		f.users["Carla"] = id

		first := f.do("GET", "/product/classic-tee/", nil, "")
		if first.status != 200 || first.header.Get("X-Cache") != "miss" {
			t.Fatalf("first: %d %s", first.status, first.header.Get("X-Cache"))
		}
		m := headScriptRE.FindStringSubmatch(first.body)
		if m == nil || m[2] != notice.ID || m[3] != render.HeadScript {
			t.Fatalf("head script: %q", m)
		}
		if csp := first.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' "+render.HeadScriptCSP+" ") {
			t.Fatalf("the CSP does not allow the head script: %s", csp)
		}
		for _, want := range []string{
			`data-notice-id="` + notice.ID + `"`, `role="region" aria-label="Store notice"`,
			`Free shipping <strong>this week</strong>`, `aria-label="Dismiss the store notice"`, `>Dismiss</button>`,
			`"store_notice":{"id":"` + notice.ID + `"`, `"header_hide_on_scroll":true`, `"sticky_height":70`,
		} {
			if !strings.Contains(first.body, want) {
				t.Errorf("page lacks %s", want)
			}
		}
		if strings.Contains(first.body, "onerror") || strings.Contains(first.body, "alert(1)") {
			t.Error("the notice's script survived")
		}
		// The notice comes before the header, after the skip link.
		if i, j, k := strings.Index(first.body, "Skip to content"), strings.Index(first.body, `data-notice-id=`), strings.Index(first.body, `<header class="site-header"`); !(i < j && j < k) {
			t.Errorf("order: skip %d, notice %d, header %d", i, j, k)
		}

		// A visitor who dismissed it gets the same shared page: the head
		// script hides it, the HTML does not depend on the cookie.
		dismissed := f.do("GET", "/product/classic-tee/", &http.Cookie{Name: "store_notice" + notice.ID, Value: "hidden"}, "")
		if dismissed.header.Get("X-Cache") != "hit" || dismissed.body != first.body {
			t.Fatalf("a dismissal changed the cached page: %s", dismissed.header.Get("X-Cache"))
		}
		// A logged-in customer gets the same shared page, with their part.
		if a, _ := f.viewerPage("/shop/", f.cookie("Carla"), ""); !strings.Contains(a.body, `data-notice-id="`+notice.ID+`"`) {
			t.Fatalf("customer page: %s", a.header.Get("X-Cache"))
		}
		// The 404 page too.
		if a := f.do("GET", "/no-such-page/", nil, ""); a.status != 404 || !strings.Contains(a.body, `data-store-notice="`+notice.ID+`"`) {
			t.Fatalf("404 page: %d", a.status)
		}
	})
}

func TestNoStoreNotice(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		a := f.do("GET", "/", nil, "")
		m := headScriptRE.FindStringSubmatch(a.body)
		if m == nil || m[1] != "" || m[3] != render.HeadScript {
			t.Fatalf("head script without a notice: %q", m)
		}
		if strings.Contains(a.body, `"store_notice":`) || strings.Contains(a.body, "data-notice-id") {
			t.Fatal("a notice without one set")
		}
	})
}

// comingSoonAnswer checks a coming-soon answer's common headers.
func comingSoonAnswer(t *testing.T, what string, a frameAnswer) {
	t.Helper()
	if a.status != http.StatusServiceUnavailable || a.header.Get("Retry-After") != "3600" || !strings.Contains(a.header.Get("Cache-Control"), "no-store") {
		t.Errorf("%s: %d Retry-After=%q Cache-Control=%q", what, a.status, a.header.Get("Retry-After"), a.header.Get("Cache-Control"))
	}
}

func isComingSoonPage(a frameAnswer) bool {
	return strings.Contains(a.body, `"page":"coming-soon"`) && strings.Contains(a.body, "<h1>Coming soon</h1>") &&
		strings.Contains(a.body, `<meta name="robots" content="noindex, nofollow">`)
}

func TestComingSoonMode(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFrameShop(t, db, true)
		mia, carla := f.cookie("Mia"), f.cookie("Carla")

		t.Run("visitors and customers get the coming-soon page on every storefront path", func(t *testing.T) {
			for _, c := range []struct {
				who    string
				cookie *http.Cookie
			}{{"visitor", nil}, {"customer", carla}} {
				for _, target := range []string{"/", "/?s=tee&post_type=product", "/shop/", "/shop/page/2/", "/product-category/clothing/",
					"/product/classic-tee/", "/cart/", "/checkout/", "/contact/", "/no-such-page/", "/sitemap.xml", "/media/x.jpg", "/?add-to-cart=16"} {
					a := f.do("GET", target, c.cookie, "")
					comingSoonAnswer(t, c.who+" "+target, a)
					if !isComingSoonPage(a) || a.header.Get("X-Robots-Tag") != "noindex, nofollow" {
						t.Errorf("%s %s: not the coming-soon page", c.who, target)
					}
					if strings.Contains(a.body, "Classic Tee") || strings.Contains(a.body, "Product categories") || strings.Contains(a.body, "Carla") {
						t.Errorf("%s %s: the coming-soon page shows the shop or the viewer", c.who, target)
					}
				}
			}
			// Forms too, whatever the method; nothing is added.
			a := f.do("POST", "/cart/", nil, "update_cart=1")
			comingSoonAnswer(t, "POST /cart/", a)
			if !isComingSoonPage(a) {
				t.Error("POST /cart/: not the coming-soon page")
			}
			if a := f.do("HEAD", "/shop/", nil, ""); a.status != 503 || a.body != "" {
				t.Errorf("HEAD: %d %q", a.status, a.body)
			}
		})

		t.Run("the REST API, wc-ajax and admin-ajax refuse in their own shapes", func(t *testing.T) {
			api := "/wp-json/wc/store/v1"
			for _, c := range []struct{ method, target, body string }{
				{"GET", api + "/products", ""},
				{"GET", api + "/cart", ""},
				{"POST", api + "/cart/add-item", "id=16&quantity=1"},
				{"POST", api + "/checkout", ""},
				{"POST", api + "/batch", ""},
				{"GET", "/wp-json/contact-form-7/v1/contact-forms/1/feedback/schema", ""},
			} {
				a := f.do(c.method, c.target, nil, c.body)
				comingSoonAnswer(t, c.target, a)
				m := a.json(t)
				if m["code"] != "vitrine_coming_soon" || !strings.Contains(m["message"].(string), "coming-soon mode") ||
					m["data"].(map[string]any)["status"] != float64(503) {
					t.Errorf("%s %s: %s", c.method, c.target, a.body)
				}
			}
			for _, target := range []string{"/?wc-ajax=get_refreshed_fragments", "/?wc-ajax=add_to_cart"} {
				a := f.do("POST", target, nil, "product_id=16")
				comingSoonAnswer(t, target, a)
				if m := a.json(t); m["error"] != true || m["code"] != "vitrine_coming_soon" {
					t.Errorf("%s: %s", target, a.body)
				}
			}
			for _, action := range []string{"flatsome_ajax_search_products&query=tee", "flatsome_quickview&product=16", "wmc_get_products_price"} {
				a := f.do("GET", "/wp-admin/admin-ajax.php?action="+action, nil, "")
				comingSoonAnswer(t, action, a)
				if a.body != "0" {
					t.Errorf("%s: %q", action, a.body)
				}
			}
		})

		t.Run("what logging in needs stays reachable", func(t *testing.T) {
			for _, c := range []struct {
				target string
				status int
			}{
				{"/my-account/", 200}, {"/my-account", 301}, {"/my-account/lost-password/", 200}, {"/favicon.ico", 200}, {"/favicon.svg", 200},
				{"/robots.txt", 200}, {"/healthz", 200}, {"/wp-json/vitrine/v1/botcheck/login", 200}, {"/wp-admin/", 302},
			} {
				if a := f.do("GET", c.target, nil, ""); a.status != c.status {
					t.Errorf("%s: %d, want %d", c.target, a.status, c.status)
				}
			}
			page := f.do("GET", "/my-account/", nil, "")
			if !strings.Contains(page.body, `"page":"account-login"`) {
				t.Error("/my-account/ is not the login page")
			}
			asset := regexp.MustCompile(`/assets/entry-client-[^"]+\.js`).FindString(page.body)
			if a := f.do("GET", asset, nil, ""); asset == "" || a.status != 200 {
				t.Errorf("asset %q: %d", asset, a.status)
			}
			// The login's ajax answers itself (a missing password here), not 503.
			a := f.do("POST", "/wp-admin/admin-ajax.php", nil, "action=wordfence_ls_authenticate&log=mia%40example.com")
			if a.status != 200 || !strings.Contains(a.body, "A username and password must be provided") {
				t.Errorf("login ajax: %d %s", a.status, a.body)
			}
			// A customer keeps their account pages.
			if a := f.do("GET", "/my-account/", carla, ""); a.status != 200 || !strings.Contains(a.body, "Carla Customer") {
				t.Errorf("customer's account: %d", a.status)
			}
		})

		t.Run("staff browse and buy as usual, with the banner, and no cache mixes the two", func(t *testing.T) {
			for _, target := range []string{"/shop/", "/product/classic-tee/", "/"} {
				staff, v := f.viewerPage(target, mia, "")
				if staff.status != 200 || isComingSoonPage(staff) || v.User.ComingSoonBanner == nil {
					t.Errorf("manager %s: %d %s", target, staff.status, staff.header.Get("X-Cache"))
				}
				visitor := f.do("GET", target, nil, "")
				if !isComingSoonPage(visitor) || visitor.header.Get("X-Cache") != "" {
					t.Errorf("visitor after a manager, %s: X-Cache=%q", target, visitor.header.Get("X-Cache"))
				}
				if again := f.do("GET", target, f.cookie("Ada"), ""); isComingSoonPage(again) || again.status != 200 {
					t.Errorf("admin after a visitor, %s: %d", target, again.status)
				}
			}
			if a := f.do("GET", "/product/classic-tee/", mia, ""); !strings.Contains(a.body, "Classic Tee") {
				t.Error("the manager's product page lacks the product")
			}
			if a := f.do("GET", "/wp-json/wc/store/v1/cart", mia, ""); a.status != 200 {
				t.Errorf("manager's cart: %d %s", a.status, a.body)
			}
		})
	})
}

// A manager logs in through the real login flow while the shop is in
// coming-soon mode, then sees the shop; a visitor in the same browser
// before the login saw the coming-soon page.
func TestComingSoonManagerLogsIn(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{ComingSoon: true}, func(t *testing.T, s *loginShop) {
		u, err := s.accounts.Register(context.Background(), account.Registration{Email: "mia@example.com", Password: loginPass, Role: account.RoleShopManager})
		if err != nil {
			t.Fatal(err)
		}
		b := s.browser()
		if a := b.do("GET", "/shop/", nil); a.status != 503 {
			t.Fatalf("before login: %d", a.status)
		}
		a := b.authenticate("username", u.Email, "password", loginPass, "wfls-captcha", b.solve("login"))
		if m := a.json(t); a.status != 200 || m["login"] != float64(1) {
			t.Fatalf("login ajax: %d %s", a.status, a.raw)
		}
		b.submitLogin("username", u.Email, "password", loginPass, "wfls-captcha", b.solve("login"))
		if !b.loggedIn() {
			t.Fatal("the manager could not log in")
		}
		a = b.do("GET", "/shop/", nil)
		if a.status != 200 || strings.Contains(a.raw, `"page":"coming-soon"`) || !strings.Contains(a.raw, `"coming_soon_banner":{"rest_url":"/wp-json/wp/v2/users/`) {
			t.Fatalf("after login: %d", a.status)
		}
		add := b.do("POST", "/?wc-ajax=add_to_cart", url.Values{"product_id": {"16"}, "quantity": {"1"}})
		if add.status != 200 || strings.Contains(add.raw, "vitrine_coming_soon") {
			t.Fatalf("manager's add to cart: %d %s", add.status, add.raw)
		}
	})
}
