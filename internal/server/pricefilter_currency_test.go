package server_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/currency"
)

// TestPriceFilterInShopperCurrency: a price filter typed in yen
// (?price_currency=JPY, as the listing's filter sends it when prices show
// in yen) is read in yen and converted to the base with the shop's rate
// and rounding: a product shown at ¥N is found by N as the lower and as the
// upper bound, and not by a bound one grid step past it; 20–40 in yen finds
// nothing, though 20–40 dollars finds the product. Links keep the yen
// bounds and their currency.
func TestPriceFilterInShopperCurrency(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		ctx := context.Background()
		p, err := s.db.ProductBySlug(ctx, "striped-breton-tee")
		if err != nil || p.RegularPrice == nil || p.SaleFrom != nil || p.SaleTo != nil {
			t.Fatalf("product: %+v %v", p, err)
		}
		price := *p.RegularPrice // the price it is shown and filtered at: on sale, the sale price
		if p.SalePrice != nil {
			price = *p.SalePrice
		}
		jpy, err := s.srv.Currencies().Currency(ctx, "JPY")
		if err != nil {
			t.Fatal(err)
		}
		yen, err := currency.Convert(price, 2, jpy)
		if err != nil {
			t.Fatal(err)
		}
		listed := func(query string) (bool, string) {
			t.Helper()
			res := s.get("/shop/?" + query)
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != 200 {
				t.Fatalf("%s: %d", query, res.StatusCode)
			}
			return strings.Contains(string(b), `href="/product/striped-breton-tee/"`), string(b)
		}
		n := strconv.FormatInt(yen, 10)
		step := strconv.FormatInt(yen+int64(jpy.Step), 10)
		below := strconv.FormatInt(yen-int64(jpy.Step), 10)
		usd := strconv.FormatInt(price/100, 10)
		for _, tc := range []struct {
			query string
			want  bool
		}{
			{"min_price=" + n + "&max_price=" + n + "&price_currency=JPY", true},
			{"min_price=" + below + "&max_price=" + n + "&price_currency=JPY", true},
			{"min_price=" + step + "&price_currency=JPY", false},
			{"max_price=" + below + "&price_currency=JPY", false},
			{"min_price=20&max_price=40&price_currency=JPY", false},
			{"min_price=" + usd + "&max_price=" + strconv.FormatInt(price/100+1, 10), true},
			{"min_price=" + usd + "&max_price=" + strconv.FormatInt(price/100+1, 10) + "&price_currency=USD", true},
		} {
			if got, _ := listed(tc.query); got != tc.want {
				t.Errorf("%s (shown at ¥%d, $%d.%02d): listed %v, want %v", tc.query, yen, price/100, price%100, got, tc.want)
			}
		}
		// The page's own links keep the filter as typed, with its currency.
		_, html := listed("max_price=" + n + "&min_price=" + n + "&price_currency=jpy&orderby=price")
		var data struct {
			URL string `json:"url"`
		}
		pageData(t, html, &data)
		if want := "/shop/?orderby=price&min_price=" + n + "&max_price=" + n + "&price_currency=JPY"; data.URL != want {
			t.Errorf("the page's URL %q, want %q", data.URL, want)
		}
	})
}
