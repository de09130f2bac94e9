package server_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/consent"
	"vitrine/internal/pages"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// newConsentShop is newShop with the consent banner on.
func newConsentShop(t *testing.T, db *sqlstore.DB) *shop {
	t.Helper()
	settings := pages.DefaultSettings()
	settings.Consent.Banner = true
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", Settings: settings,
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
	servertest.Start(t, srv)
	return &shop{t: t, db: db, srv: srv}
}

// attributionKept counts the order's attribution meta.
func attributionKept(meta map[string]string) int {
	n := 0
	for k := range meta {
		if strings.HasPrefix(k, "_wc_order_attribution_") {
			n++
		}
	}
	return n
}

const attributionExt = `"extensions":{"woocommerce/order-attribution":{"source_type":"utm","utm_source":"newsletter","session_pages":"3"}}`

// With the consent banner on, a checkout's attribution is kept only with
// the shopper's Accept in the consent cookie, and never under Sec-GPC: 1;
// the shared page is the same bytes whatever the shopper chose.
func TestConsentCheckoutAttribution(t *testing.T) {
	each(t, newConsentShop, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")

		// One cached page for every viewer: the choice is the browser's to read.
		var first string
		for i, h := range [][]string{nil, {"Cookie", "vitrine_consent=granted"}, {"Cookie", "vitrine_consent=denied"}, {"Sec-GPC", "1"}} {
			r := s.get("/shop/", h...)
			b := body(t, r)
			if r.StatusCode != 200 {
				t.Fatalf("shop page %v: %d", h, r.StatusCode)
			}
			if i == 0 {
				first = b
				var data struct {
					Settings struct {
						Consent struct {
							Banner bool `json:"banner"`
						} `json:"consent"`
					} `json:"settings"`
				}
				pageData(t, b, &data)
				if !data.Settings.Consent.Banner || !strings.Contains(b, "Cookie settings") || strings.Contains(b, "consent-banner") {
					t.Errorf("page: banner %v, footer button %v, banner rendered %v", data.Settings.Consent.Banner,
						strings.Contains(b, "Cookie settings"), strings.Contains(b, "consent-banner"))
				}
			} else if b != first {
				t.Errorf("the page for %v differs from the visitors' page", h)
			}
		}

		// The Store API checkout.
		for _, tc := range []struct {
			name    string
			cookie  string
			headers []string
			kept    bool
		}{
			{"no choice yet", "", nil, false},
			{"accepted", consent.ValueGranted, nil, true},
			{"rejected", consent.ValueDenied, nil, false},
			{"accepted, but Global Privacy Control", consent.ValueGranted, []string{"Sec-GPC", "1"}, false},
			{"Global Privacy Control alone", "", []string{"Sec-GPC", "1"}, false},
		} {
			c := s.client()
			if tc.cookie != "" {
				c.cookies[consent.CookieName] = &http.Cookie{Name: consent.CookieName, Value: tc.cookie}
			}
			c.addItem(tank, 1)
			r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), attributionExt), tc.headers...)
			if r.status != 200 {
				t.Fatalf("%s: checkout %d %s", tc.name, r.status, r.raw)
			}
			o := s.order(num(r.body["order_id"]))
			if n := attributionKept(o.Meta); (n > 0) != tc.kept || (tc.kept && o.Meta["_wc_order_attribution_origin"] != "Source: Newsletter") {
				t.Errorf("%s: %d attribution fields kept, want kept %v: %v", tc.name, n, tc.kept, o.Meta)
			}
		}

		// The no-script form checkout reads the same cookie and header.
		for _, tc := range []struct {
			name    string
			cookie  string
			headers []string
			kept    bool
		}{
			{"form, accepted", consent.ValueGranted, nil, true},
			{"form, no choice yet", "", nil, false},
			{"form, accepted, but Global Privacy Control", consent.ValueGranted, []string{"Sec-GPC", "1"}, false},
		} {
			c := s.client()
			if tc.cookie != "" {
				c.cookies[consent.CookieName] = &http.Cookie{Name: consent.CookieName, Value: tc.cookie}
			}
			c.addItem(tank, 1)
			var data struct {
				ProcessNonce string `json:"process_nonce"`
			}
			pageData(t, c.do("GET", "/checkout/", "").raw, &data)
			form := url.Values{"payment_method": {"cod"}, "terms": {"on"}, "woocommerce-process-checkout-nonce": {data.ProcessNonce},
				"wc_order_attribution_source_type": {"typein"}, "wc_order_attribution_user_agent": {"Mozilla/5.0 (Windows NT 10.0)"}}
			for k, v := range goodBilling() {
				form.Set("billing_"+k, v)
			}
			r := c.do("POST", "/checkout/", form.Encode(), tc.headers...)
			loc := r.header.Get("Location")
			if r.status != 303 || !strings.HasPrefix(loc, "/checkout/order-received/") {
				t.Fatalf("%s: %d %s", tc.name, r.status, loc)
			}
			u, _ := url.Parse(loc)
			o, err := s.db.OrderByKey(t.Context(), u.Query().Get("key"))
			if err != nil {
				t.Fatal(err)
			}
			if n := attributionKept(o.Meta); (n > 0) != tc.kept || (tc.kept && o.Meta["_wc_order_attribution_origin"] != "Direct") {
				t.Errorf("%s: %d attribution fields kept, want kept %v: %v", tc.name, n, tc.kept, o.Meta)
			}
		}
	})
}

// A shop without the banner keeps attribution as before, but Global
// Privacy Control still refuses it.
func TestConsentGPCWithoutBanner(t *testing.T) {
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		for _, tc := range []struct {
			name    string
			headers []string
			kept    bool
		}{
			{"nothing said", nil, true},
			{"Sec-GPC: 1", []string{"Sec-GPC", "1"}, false},
		} {
			c := s.client()
			c.addItem(tank, 1)
			r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), attributionExt), tc.headers...)
			if r.status != 200 {
				t.Fatalf("%s: checkout %d %s", tc.name, r.status, r.raw)
			}
			if n := attributionKept(s.order(num(r.body["order_id"])).Meta); (n > 0) != tc.kept {
				t.Errorf("%s: %d attribution fields kept, want kept %v", tc.name, n, tc.kept)
			}
		}
	})
}

// The wallet's checkout-form orders follow the same rule: a shopper who
// rejected non-essential cookies gets no attribution kept, even in a shop
// without the banner.
func TestConsentWalletAttribution(t *testing.T) {
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		for _, tc := range []struct {
			name   string
			cookie string
			kept   bool
		}{
			{"nothing said", "", true},
			{"rejected", consent.ValueDenied, false},
		} {
			c := ws.client()
			if tc.cookie != "" {
				c.cookies[consent.CookieName] = &http.Cookie{Name: consent.CookieName, Value: tc.cookie}
			}
			c.addItem(ws.productID("studio-staff-cap"), 1)
			r := c.wallet("ppc-create-order", c.walletNonces(), map[string]any{"context": "checkout", "payment_method": "ppcp-gateway",
				"funding_source": "paypal", "form_encoded": walletForm(nil)})
			if !r.success() {
				t.Fatalf("%s: create-order %s", tc.name, r.raw)
			}
			id, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
			if n := attributionKept(ws.order(id).Meta); (n > 0) != tc.kept {
				t.Errorf("%s: %d attribution fields kept, want kept %v", tc.name, n, tc.kept)
			}
		}
	})
}
