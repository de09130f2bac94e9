package server_test

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

var removeLinkRe = regexp.MustCompile(`href="(/cart/\?remove_item=[^"]+)"`)

// removeLink is the first remove link in a page or fragment, unescaped.
func removeLink(t *testing.T, page string) string {
	t.Helper()
	m := removeLinkRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no remove link in %.300s", page)
	}
	return html.UnescapeString(m[1])
}

// GET /cart/?remove_item= changes the cart only with the session's
// _wpnonce and not cross-site: line keys are the same md5 in every cart, so
// a link on another site could otherwise empty anyone's cart.
func TestCartRemoveNeedsNonce(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		c, other := s.client(), s.client()
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		other.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		lines := func() int { return len(c.do("GET", cartAPI, "").items()) }
		link := removeLink(t, c.do("GET", "/cart/", "").raw)
		if !strings.Contains(link, "&_wpnonce=") {
			t.Fatalf("the cart page's remove link has no nonce: %s", link)
		}
		key := strings.TrimPrefix(strings.SplitN(link, "&", 2)[0], "/cart/?remove_item=")
		otherLink := removeLink(t, other.do("GET", "/cart/", "").raw)
		otherNonce := otherLink[strings.Index(otherLink, "_wpnonce=")+len("_wpnonce="):]

		for name, tc := range map[string]struct {
			path    string
			headers []string
		}{
			"no nonce":              {"/cart/?remove_item=" + key, nil},
			"bad nonce":             {"/cart/?remove_item=" + key + "&_wpnonce=0123456789", nil},
			"another session nonce": {"/cart/?remove_item=" + key + "&_wpnonce=" + otherNonce, nil},
			"cross-site":            {link, []string{"Sec-Fetch-Site", "cross-site"}},
		} {
			r := c.do("GET", tc.path, "", tc.headers...)
			if r.status != http.StatusSeeOther || r.header.Get("Location") != "/cart/" {
				t.Errorf("%s: %d %q", name, r.status, r.header.Get("Location"))
			}
			if n := lines(); n != 1 {
				t.Fatalf("%s removed the line", name)
			}
			if page := c.do("GET", "/cart/", "").raw; !strings.Contains(page, "The link you followed has expired.") {
				t.Errorf("%s: no expired-link notice", name)
			}
		}

		// The right nonce, same-site or typed in: removed.
		r := c.do("GET", link, "", "Sec-Fetch-Site", "same-origin")
		if r.status != http.StatusSeeOther || lines() != 0 {
			t.Fatalf("remove with the nonce: %d, %d lines", r.status, lines())
		}
		if n := len(other.do("GET", cartAPI, "").items()); n != 1 {
			t.Errorf("the other cart lost its line")
		}

		// The mini cart fragment's link carries the nonce too, and works.
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		frag := c.do("POST", "/?wc-ajax=get_refreshed_fragments", "time=1")
		mini, _ := frag.body["fragments"].(map[string]any)["div.widget_shopping_cart_content"].(string)
		miniLink := removeLink(t, mini)
		if miniLink != link {
			t.Errorf("mini cart link %q, cart page link %q", miniLink, link)
		}
		c.do("GET", miniLink, "")
		if n := lines(); n != 0 {
			t.Errorf("the mini cart's link did not remove: %d lines", n)
		}

		// The wc-ajax cart writes refuse GET (no nonce there: WooCommerce's
		// own front end posts them).
		c.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "")
		key = c.do("GET", cartAPI, "").items()[0]["key"].(string)
		for _, path := range []string{"/?wc-ajax=remove_from_cart&cart_item_key=" + key, fmt.Sprintf("/?wc-ajax=add_to_cart&product_id=%d", tank)} {
			r := c.do("GET", path, "", "Sec-Fetch-Site", "cross-site")
			if r.status != http.StatusMethodNotAllowed || r.header.Get("Allow") != "POST" || r.raw != "0" {
				t.Errorf("GET %s: %d %q", path, r.status, r.raw)
			}
		}
		if items := c.do("GET", cartAPI, "").items(); len(items) != 1 || items[0]["quantity"].(float64) != 1 {
			t.Fatalf("a wc-ajax GET changed the cart: %v", items)
		}
		if r := c.do("POST", "/?wc-ajax=remove_from_cart", "cart_item_key="+key); r.status != 200 || lines() != 0 {
			t.Errorf("POST remove_from_cart: %d, %d lines", r.status, lines())
		}

		// Decision: add-to-cart links keep working cross-site (WooCommerce's
		// shareable add-to-cart URLs, links in mails and ads); an add only
		// adds, it never removes or pays.
		if r := c.do("GET", fmt.Sprintf("/?add-to-cart=%d", tank), "", "Sec-Fetch-Site", "cross-site"); r.status != 303 || lines() != 1 {
			t.Errorf("cross-site add-to-cart link: %d, %d lines", r.status, lines())
		}
	})
}

// Fragments are cached by cart content, not by session: two fresh carts of
// the same product share one render, and each answer carries its own
// session's nonce (a per-session cache key made every first add render).
func TestFragmentsSharedAcrossSessions(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)
	tank := s.productID("cotton-tank-top")
	renders := func() int64 { return int64(metricValue(t, s, "vitrine_fragment_renders_total")) }
	var links []string
	var before int64
	for i, c := range []*client{s.client(), s.client(), s.client()} {
		if i == 1 {
			before = renders()
		}
		r := c.do("POST", "/?wc-ajax=add_to_cart", fmt.Sprintf("product_id=%d&quantity=1", tank))
		mini, _ := r.body["fragments"].(map[string]any)["div.widget_shopping_cart_content"].(string)
		link := removeLink(t, mini)
		if page := removeLink(t, c.do("GET", "/cart/", "").raw); page != link {
			t.Errorf("session %d: fragment link %q, cart page link %q", i, link, page)
		}
		links = append(links, link)
	}
	if links[0] == links[1] || links[1] == links[2] {
		t.Errorf("sessions share a nonce: %q", links)
	}
	if n := renders() - before; n != 0 {
		t.Errorf("the same cart in new sessions rendered its fragments %d more times", n)
	}
}
