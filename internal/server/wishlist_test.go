package server_test

// The wishlist's HTTP surface (internal/wishlistapi) on the composed
// server, on both engines: the hearts' form with and without scripts,
// YITH's links and admin-ajax actions, the merge at login, sharing.

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/httpx"
	"vitrine/internal/server"
	"vitrine/internal/wishlist"
)

type wishState struct {
	Count   int     `json:"count"`
	Items   []int64 `json:"items"`
	On      *bool   `json:"on"`
	Message string  `json:"message"`
	URL     string  `json:"wishlist_url"`
}

func (b *browser) wishState() wishState {
	b.s.t.Helper()
	a := b.do("GET", "/wishlist/state", nil)
	if a.status != 200 {
		b.s.t.Fatalf("state: %d %s", a.status, a.raw)
	}
	var st wishState
	if err := json.Unmarshal([]byte(a.raw), &st); err != nil {
		b.s.t.Fatal(err)
	}
	return st
}

func (b *browser) wish(action string, id any, headers ...string) answer {
	b.s.t.Helper()
	req := httpFormReq("/wishlist/", url.Values{"wishlist_action": {action}, "product_id": {fmt.Sprint(id)}})
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.send(req)
}

func httpFormReq(path string, form url.Values) *http.Request {
	req, _ := http.NewRequest("POST", "https://shop.example"+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req
}

func (b *browser) countCookie() string {
	if c := b.cookies["vitrine_wishlist_count"]; c != nil {
		return c.Value
	}
	return ""
}

func ids(xs ...int64) string { return fmt.Sprint(xs) }

func TestWishlistFormWithAndWithoutScripts(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		tank := storetestProduct(t, s, "cotton-tank-top")
		b := s.browser()
		// Without scripts: a form post, 303 back to the page it was on.
		req := httpFormReq("/wishlist/", url.Values{"wishlist_action": {"add"}, "product_id": {fmt.Sprint(tank)}})
		req.Header.Set("Referer", "https://shop.example/product/cotton-tank-top/")
		a := b.send(req)
		if a.status != http.StatusSeeOther || a.header.Get("Location") != "/product/cotton-tank-top/" {
			t.Fatalf("no-script add: %d %q", a.status, a.header.Get("Location"))
		}
		if b.countCookie() != "1" || b.cookie("vitrine_wishlist_") == nil {
			t.Fatalf("cookies after the add: count %q", b.countCookie())
		}
		// A double submit changes nothing.
		b.send(httpFormReq("/wishlist/", url.Values{"wishlist_action": {"add"}, "product_id": {fmt.Sprint(tank)}}))
		if st := b.wishState(); st.Count != 1 || ids(st.Items...) != ids(tank) {
			t.Fatalf("after a double add: %+v", st)
		}
		// The page lists it, per visitor, never cached.
		page := b.do("GET", "/wishlist/", nil)
		if page.status != 200 || !strings.Contains(page.header.Get("Cache-Control"), "no-store") || page.header.Get("X-Cache") != "" {
			t.Fatalf("page: %d %q %q", page.status, page.header.Get("Cache-Control"), page.header.Get("X-Cache"))
		}
		var d struct {
			Page  string `json:"page"`
			Items []struct {
				ID         int64 `json:"id"`
				PriceAdded int64 `json:"price_added"`
			} `json:"items"`
		}
		pageData(t, page.raw, &d)
		if d.Page != "wishlist" || len(d.Items) != 1 || d.Items[0].ID != tank || d.Items[0].PriceAdded <= 0 {
			t.Fatalf("page data: %+v", d)
		}
		if !strings.Contains(page.raw, `content="noindex, nofollow"`) {
			t.Error("the wishlist page is not noindex")
		}
		// With scripts: JSON, and asking twice is asking once.
		for range 2 {
			a = b.wish("remove", tank, "Accept", "application/json")
			var st wishState
			if err := json.Unmarshal([]byte(a.raw), &st); err != nil || a.status != 200 || st.On == nil || *st.On || st.Count != 0 ||
				st.Message != "Removed from your wishlist" {
				t.Fatalf("JSON remove: %d %s", a.status, a.raw)
			}
		}
		if b.countCookie() != "" {
			t.Fatalf("the count cookie stays at 0: %q", b.countCookie())
		}
		// Bad input: a clear refusal, nothing changed.
		for _, bad := range []string{"", "abc", "-4", "0", "99999999", "1e3"} {
			a := b.wish("add", bad, "Accept", "application/json")
			if a.status != http.StatusBadRequest || !strings.Contains(a.raw, "vitrine_wishlist_invalid") {
				t.Errorf("add %q: %d %s", bad, a.status, a.raw)
			}
		}
		if a := b.wish("explode", tank, "Accept", "application/json"); a.status != http.StatusBadRequest {
			t.Errorf("unknown action: %d", a.status)
		}
		if st := b.wishState(); st.Count != 0 {
			t.Fatalf("bad input changed the list: %+v", st)
		}
		// A stranger's browser has its own (empty) list and makes none by asking.
		other := s.browser()
		if st := other.wishState(); st.Count != 0 || len(st.Items) != 0 || other.cookie("vitrine_wishlist_") != nil {
			t.Fatalf("a new visitor's state: %+v", st)
		}
	})
}

func storetestProduct(t *testing.T, s *loginShop, slug string) int64 {
	t.Helper()
	p, err := s.db.ProductBySlug(t.Context(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func TestWishlistYITHWire(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		tank := storetestProduct(t, s, "cotton-tank-top")
		b := s.browser()
		tick := httpx.NonceTickAt(s.clock.Now())
		addNonce := s.srv.Sessions.ActionNonce("add_to_wishlist", "", tick)
		removeNonce := s.srv.Sessions.ActionNonce("remove_from_wishlist", "", tick)
		ajax := func(f url.Values) map[string]any {
			t.Helper()
			a := b.do("POST", "/wp-admin/admin-ajax.php", f)
			return a.json(t)
		}
		// No nonce, a wrong one, another action's: YITH's refusal, nothing added.
		for _, n := range []string{"", "0123456789", removeNonce} {
			got := ajax(url.Values{"action": {"add_to_wishlist"}, "add_to_wishlist": {fmt.Sprint(tank)}, "nonce": {n}})
			if len(got) != 1 || got["result"] != false {
				t.Fatalf("add with nonce %q: %v", n, got)
			}
		}
		if st := b.wishState(); st.Count != 0 {
			t.Fatalf("a refused add changed the list: %+v", st)
		}
		got := ajax(url.Values{"action": {"add_to_wishlist"}, "add_to_wishlist": {fmt.Sprint(tank)}, "nonce": {addNonce},
			"fragments[add-to-wishlist-" + fmt.Sprint(tank) + "]": {"{}"}})
		if got["result"] != "true" || got["wishlist_url"] != "https://shop.example/wishlist/" || got["prod_id"] != float64(tank) {
			t.Fatalf("add: %v", got)
		}
		frags, _ := got["fragments"].(map[string]any)
		if !strings.Contains(fmt.Sprint(frags["yith_wcwl_fragments"]), `data-count="1"`) ||
			!strings.Contains(fmt.Sprint(frags["add-to-wishlist-"+fmt.Sprint(tank)]), `aria-pressed="true"`) {
			t.Fatalf("add's fragments: %v", frags)
		}
		// product_id is read too; the same product again "exists".
		if got := ajax(url.Values{"action": {"add_to_wishlist"}, "product_id": {fmt.Sprint(tank)}, "nonce": {addNonce}}); got["result"] != "exists" {
			t.Fatalf("second add: %v", got)
		}
		if got := ajax(url.Values{"action": {"add_to_wishlist"}, "add_to_wishlist": {"x1"}, "nonce": {addNonce}}); got["result"] != "error" || got["message"] == "" {
			t.Fatalf("garbage id: %v", got)
		}
		// Remove: a refused nonce answers empty fragments and keeps the item.
		a := b.do("POST", "/wp-admin/admin-ajax.php", url.Values{"action": {"remove_from_wishlist"}, "remove_from_wishlist": {fmt.Sprint(tank)}})
		if strings.TrimSpace(a.raw) != `{"fragments":[]}` {
			t.Fatalf("remove without nonce: %s", a.raw)
		}
		if st := b.wishState(); st.Count != 1 {
			t.Fatalf("a refused remove changed the list: %+v", st)
		}
		got = ajax(url.Values{"action": {"remove_from_wishlist"}, "remove_from_wishlist": {fmt.Sprint(tank)}, "nonce": {removeNonce}})
		if frags, _ := got["fragments"].(map[string]any); !strings.Contains(fmt.Sprint(frags["yith_wcwl_fragments"]), `data-count="0"`) {
			t.Fatalf("remove: %v", got)
		}
		// ?add_to_wishlist= links: added, then 303 to the page without it.
		a = b.do("GET", fmt.Sprintf("/product/cotton-tank-top/?add_to_wishlist=%d", tank), nil)
		if a.status != http.StatusSeeOther || a.header.Get("Location") != "/product/cotton-tank-top/" {
			t.Fatalf("link: %d %q", a.status, a.header.Get("Location"))
		}
		if st := b.wishState(); st.Count != 1 {
			t.Fatalf("after the link: %+v", st)
		}
		// From another site, the link adds nothing.
		c := s.browser()
		req := servertestGet(fmt.Sprintf("/?add_to_wishlist=%d", tank))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if a := c.send(req); a.status != http.StatusSeeOther || c.cookie("vitrine_wishlist_") != nil {
			t.Fatalf("cross-site link: %d", a.status)
		}
		// The localised script carries the nonces the actions accept.
		l10n := s.srv.WishlistL10n(tick)
		if n := l10n["nonce"].(map[string]string); n["add_to_wishlist_nonce"] != addNonce || n["remove_from_wishlist_nonce"] != removeNonce {
			t.Fatalf("l10n: %v", l10n)
		}
	})
}

func servertestGet(path string) *http.Request {
	req, _ := http.NewRequest("GET", "https://shop.example"+path, nil)
	return req
}

func TestWishlistMergesAtLogin(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		tank, capP, tee := storetestProduct(t, s, "cotton-tank-top"), storetestProduct(t, s, "studio-staff-cap"), storetestProduct(t, s, "classic-tee")
		u := s.register("wisher@example.com")
		// The customer wished for the cap and the tee on another device.
		phone := s.browser()
		if a := phone.submitLogin("username", "wisher@example.com", "password", loginPass, "wfls-captcha", phone.solve("login")); a.status != http.StatusFound && a.status != http.StatusSeeOther {
			t.Fatalf("login: %d", a.status)
		}
		phone.wish("add", capP, "Accept", "application/json")
		phone.wish("add", tee, "Accept", "application/json")
		// As a guest on this browser: the tank and the cap.
		b := s.browser()
		b.wish("add", tank, "Accept", "application/json")
		b.wish("add", capP, "Accept", "application/json")
		guestCookie := b.cookie("vitrine_wishlist_")
		if guestCookie == nil || b.countCookie() != "2" {
			t.Fatal("no guest list cookie")
		}
		if a := b.submitLogin("username", "wisher@example.com", "password", loginPass, "wfls-captcha", b.solve("login")); a.status != http.StatusFound && a.status != http.StatusSeeOther {
			t.Fatalf("login: %d %s", a.status, a.raw)
		}
		st := b.wishState()
		if st.Count != 3 {
			t.Fatalf("after login: %+v (user %d)", st, u.ID)
		}
		if b.countCookie() != "3" {
			t.Fatalf("count cookie after login: %q", b.countCookie())
		}
		// The guest's list is gone: its old cookie names nothing.
		old := s.browser()
		old.cookies[guestCookie.Name] = guestCookie
		if st := old.wishState(); st.Count != 0 {
			t.Fatalf("the guest's list survived the merge: %+v", st)
		}
		if st := phone.wishState(); st.Count != 3 {
			t.Fatalf("the other device: %+v", st)
		}
	})
}

func TestWishlistSharing(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		tank := storetestProduct(t, s, "cotton-tank-top")
		b := s.browser()
		// Nothing to share yet.
		if a := b.do("POST", "/wishlist/", url.Values{"wishlist_action": {"share"}}); a.status != http.StatusSeeOther {
			t.Fatalf("share without a list: %d", a.status)
		}
		b.wish("add", tank, "Accept", "application/json")
		share := func() string {
			t.Helper()
			a := b.do("POST", "/wishlist/", url.Values{"wishlist_action": {"share"}})
			var d struct {
				ShareURL     string `json:"share_url"`
				ShareEnabled bool   `json:"share_enabled"`
			}
			pageData(t, a.raw, &d)
			if a.status != 200 || !d.ShareEnabled || !strings.HasPrefix(d.ShareURL, "https://shop.example/wishlist/view/") {
				t.Fatalf("share: %d %+v", a.status, d)
			}
			return strings.TrimPrefix(d.ShareURL, "https://shop.example")
		}
		link := share()
		friend := s.browser()
		a := friend.do("GET", link, nil)
		var d struct {
			Shared bool `json:"shared"`
			Items  []struct {
				ID int64 `json:"id"`
			} `json:"items"`
		}
		pageData(t, a.raw, &d)
		if a.status != 200 || !d.Shared || len(d.Items) != 1 || d.Items[0].ID != tank || a.header.Get("X-Robots-Tag") != "noindex, nofollow" ||
			!strings.Contains(a.raw, `content="noindex, nofollow"`) {
			t.Fatalf("shared page: %d %+v %q", a.status, d, a.header.Get("X-Robots-Tag"))
		}
		if friend.cookie("vitrine_wishlist_") != nil || friend.countCookie() != "" {
			t.Fatal("viewing a shared list gave the friend a list")
		}
		renewed := share()
		if renewed == link {
			t.Fatal("renewing kept the link")
		}
		if a := friend.do("GET", link, nil); a.status != http.StatusNotFound {
			t.Fatalf("old link after renewal: %d", a.status)
		}
		if a := friend.do("GET", renewed, nil); a.status != 200 {
			t.Fatalf("new link: %d", a.status)
		}
		if a := b.do("POST", "/wishlist/", url.Values{"wishlist_action": {"unshare"}}); a.status != http.StatusSeeOther {
			t.Fatalf("unshare: %d", a.status)
		}
		for _, p := range []string{renewed, "/wishlist/view/x/", "/wishlist/view/" + strings.Repeat("A", 43) + "/"} {
			if a := friend.do("GET", p, nil); a.status != http.StatusNotFound {
				t.Fatalf("%s after sharing off: %d", p, a.status)
			}
		}
	})
}

// A cached product page is the same for every visitor: the heart is a
// form, unpressed, and nothing in the page says what anyone wished for.
func TestWishlistCachedPagesStayShared(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{CacheBytes: 16 << 20, CacheMaxAge: time.Hour}, func(t *testing.T, s *loginShop) {
		tank := storetestProduct(t, s, "cotton-tank-top")
		b := s.browser()
		b.wish("add", tank, "Accept", "application/json")
		first := b.do("GET", "/product/cotton-tank-top/", nil)
		second := s.browser().do("GET", "/product/cotton-tank-top/", nil)
		if first.status != 200 || second.header.Get("X-Cache") != "hit" {
			t.Fatalf("product page: %d, second %q", first.status, second.header.Get("X-Cache"))
		}
		if first.raw != second.raw {
			t.Fatal("the wisher's page differs from a stranger's")
		}
		// YITH's localised script, allowed by the policy by its hash.
		script := s.srv.WishlistL10nScript(httpx.NonceTickAt(s.clock.Now()))
		sum := sha256.Sum256([]byte(script))
		if !strings.Contains(first.raw, `<script id="jquery-yith-wcwl-js-extra">`+script+`</script>`) ||
			!strings.Contains(second.header.Get("Content-Security-Policy"), "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") ||
			!strings.Contains(script, `"add_to_wishlist_nonce":"`+s.srv.Sessions.ActionNonce("add_to_wishlist", "", httpx.NonceTickAt(s.clock.Now()))+`"`) {
			t.Fatalf("yith_wcwl_l10n: script %q, policy %q", script, second.header.Get("Content-Security-Policy"))
		}
		if !strings.Contains(first.raw, `<form method="post" action="/wishlist/" class="wishlist-heart-form product-wishlist"><input type="hidden" name="wishlist_action" value="add"/>`+
			`<input type="hidden" name="product_id" value="`+fmt.Sprint(tank)+`"/>`) || strings.Contains(first.raw, "wishlist-heart is-on") {
			t.Fatal("the heart's form is missing or pressed in the shared page")
		}
	})
}

// Staff see how many lists hold each product and the most wished; a
// customer and a visitor see nothing; bad ids are refused.
func TestWishlistAdminCounts(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		tank, err := f.db.ProductBySlug(t.Context(), "cotton-tank-top")
		if err != nil {
			t.Fatal(err)
		}
		capP, _ := f.db.ProductBySlug(t.Context(), "studio-staff-cap")
		for i, ps := range [][]int64{{tank.ID, capP.ID}, {tank.ID}} {
			if _, _, _, err := f.srv.Wishlists().Set(t.Context(), wishlistGuest(i), ps[0], true); err != nil {
				t.Fatal(err)
			}
			for _, id := range ps[1:] {
				if _, _, _, err := f.srv.Wishlists().Set(t.Context(), wishlistGuest(i), id, true); err != nil {
					t.Fatal(err)
				}
			}
		}
		counts := "/wp-json/vitrine/v1/admin/wishlists/counts?include=" + fmt.Sprintf("%d,%d,%d", tank.ID, capP.ID, 987654)
		a := f.staffCall("Mia", "GET", counts, "")
		want := fmt.Sprintf(`{"%d":2,"%d":1,"987654":0}`, tank.ID, capP.ID)
		var got, wantMap map[string]int
		_ = json.Unmarshal([]byte(a.body), &got)
		_ = json.Unmarshal([]byte(want), &wantMap)
		if a.status != 200 || fmt.Sprint(got) != fmt.Sprint(wantMap) {
			t.Fatalf("counts: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "GET", "/wp-json/vitrine/v1/admin/wishlists/top?per_page=1", "")
		if a.status != 200 || a.body != fmt.Sprintf(`[{"id":%d,"name":"Cotton Tank Top","lists":2}]`, tank.ID) {
			t.Fatalf("top: %d %s", a.status, a.body)
		}
		for _, bad := range []string{"?include=1,x", "?include=-1", "?include=" + strings.Repeat("1,", 100) + "1"} {
			if a := f.staffCall("Mia", "GET", "/wp-json/vitrine/v1/admin/wishlists/counts"+bad, ""); a.status != 400 || !strings.Contains(a.body, "rest_invalid_param") {
				t.Errorf("counts%s: %d %s", bad, a.status, a.body)
			}
		}
		if a := f.staffCall("Mia", "GET", "/wp-json/vitrine/v1/admin/wishlists/top?per_page=0", ""); a.status != 400 {
			t.Errorf("top per_page=0: %d", a.status)
		}
		if a := f.staffCall("Carla", "GET", counts, ""); a.status != 403 {
			t.Errorf("customer: %d", a.status)
		}
		if a := f.do("GET", counts, nil, ""); a.status != 401 {
			t.Errorf("visitor: %d", a.status)
		}
	})
}

func wishlistGuest(i int) wishlist.Owner { return wishlist.Guest(fmt.Sprintf("w_%030x", i+1)) }
