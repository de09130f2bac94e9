package server_test

import (
	"io"
	"strings"
	"testing"
)

// TestSwitcherOnPagesWithoutPrices: the pages with no price on them
// (contact, about, my account, 404, an empty search) carry the header's
// currency switcher with every currency the shopper may choose, and no
// price wrapper: the page makes no price call, so the switcher marks the
// shopper's choice from the wmc_current_currency cookie after hydration
// (CurrencySwitcher.test.tsx, "on a page without prices"). The page is the
// same for every currency (one cache entry per URL), so a shopper in EUR
// and one in the base share it.
func TestSwitcherOnPagesWithoutPrices(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		for _, path := range []string{"/contact/", "/about/", "/my-account/", "/no-such-page/", "/?s=zzqqxxnothing&post_type=product"} {
			read := func(headers ...string) (int, string) {
				res := s.get(path, headers...)
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, string(b)
			}
			status, html := read("Cookie", "wmc_current_currency=EUR")
			if status != 200 && status != 404 {
				t.Fatalf("%s: %d", path, status)
			}
			var data struct {
				Page     string `json:"page"`
				Settings struct {
					Currencies []struct {
						Code string `json:"code"`
					} `json:"currencies"`
				} `json:"settings"`
			}
			pageData(t, html, &data)
			var codes []string
			for _, c := range data.Settings.Currencies {
				codes = append(codes, c.Code)
			}
			if !strings.Contains(html, `id="currency-switcher-select"`) || strings.Join(codes, ",") != "USD,EUR,JPY" {
				t.Errorf("%s (%s): switcher %v, currencies %v", path, data.Page, strings.Contains(html, `id="currency-switcher-select"`), codes)
			}
			if strings.Contains(html, "data-wmc_product_id") {
				t.Errorf("%s (%s): a price wrapper on a page without prices", path, data.Page)
			}
			if path != "/my-account/" {
				if _, base := read(); base != html {
					t.Errorf("%s: the page differs with the EUR cookie", path)
				}
			}
		}
	})
}
