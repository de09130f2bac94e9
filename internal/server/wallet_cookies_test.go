package server_test

import (
	"net/http"
	"strings"
	"testing"

	"vitrine/internal/payment/paypalsandbox"
)

// TestWalletReturnClearsCartCookies: a paid wallet order empties the
// server's cart, and the return clears the browser's
// woocommerce_items_in_cart and woocommerce_cart_hash cookies as a placed
// bank-transfer order does, so later pages' headers show no phantom cart.
// A buyer coming back in another browser, which has a cart of its own,
// keeps that browser's cookies.
func TestWalletReturnClearsCartCookies(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		cookieIn := func(res cartResp, name string) *http.Cookie {
			for _, ck := range (&http.Response{Header: res.header}).Cookies() {
				if ck.Name == name {
					return ck
				}
			}
			return nil
		}
		browserCart := func(c *client) {
			c.cookies["woocommerce_items_in_cart"] = &http.Cookie{Name: "woocommerce_items_in_cart", Value: "1"}
			c.cookies["woocommerce_cart_hash"] = &http.Cookie{Name: "woocommerce_cart_hash", Value: "0123456789abcdef0123456789abcdef"}
		}

		c, id, o := ws.startWallet("cotton-tank-top", 1, nil)
		browserCart(c)
		res := c.do("GET", ws.approve(id, paypalsandbox.FundingPayPal), "")
		if res.status != 303 || !strings.HasPrefix(res.header.Get("Location"), "/checkout/order-received/"+itoa(o.ID)+"/") {
			t.Fatalf("return: %d %q", res.status, res.header.Get("Location"))
		}
		items, hash := cookieIn(res, "woocommerce_items_in_cart"), cookieIn(res, "woocommerce_cart_hash")
		if items == nil || items.MaxAge >= 0 || hash == nil || hash.Value != "" {
			t.Errorf("cart cookies after a paid wallet order: items %+v, hash %+v", items, hash)
		}
		if cart := c.do("GET", cartAPI, ""); len(cart.items()) != 0 {
			t.Errorf("the server's cart is not empty: %s", cart.raw)
		}

		// Another browser with a cart of its own finishes someone's order:
		// its cookies stay.
		_, id2, _ := ws.startWallet("cotton-tank-top", 1, nil)
		other := ws.client()
		other.addItem(ws.productID("studio-staff-cap"), 1)
		browserCart(other)
		res = other.do("GET", ws.approve(id2, paypalsandbox.FundingPayPal), "")
		if res.status != 303 || cookieIn(res, "woocommerce_items_in_cart") != nil || cookieIn(res, "woocommerce_cart_hash") != nil {
			t.Errorf("another browser's cart cookies changed: %d %v", res.status, res.header["Set-Cookie"])
		}
	})
}
