package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	ajaxapi "vitrine/internal/ajax" // the name ajax is the tests' admin-ajax path
	"vitrine/internal/currency"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// wmcAnswer is the price call's answer.
type wmcAnswer struct {
	Success bool `json:"success"`
	Data    struct {
		Prices          map[string]string   `json:"prices"`
		CurrentCurrency string              `json:"current_currency"`
		CurrentCountry  string              `json:"current_country"`
		Shortcodes      []string            `json:"shortcodes"`
		Exchange        []map[string]string `json:"exchange"`
		Code            string              `json:"code"`
		Message         string              `json:"message"`
	} `json:"data"`
}

// wmcShop is a started demo shop selling in EUR (0.92, "1.234,56 €"), JPY
// (157.2, to tens) and a disabled GBP, with ids by slug.
type wmcShop struct {
	*shop
	ids map[string]int64
}

func wmcConfigure(t testing.TB, svc *currency.Service) {
	t.Helper()
	ctx := context.Background()
	eur, _ := currency.Defaults("EUR")
	eur.Rate, _ = currency.ParseRate("0.92")
	eur.Position, eur.ThousandSep, eur.DecimalSep, eur.Order = "right_space", ".", ",", 1
	jpy, _ := currency.Defaults("JPY")
	jpy.Rate, _ = currency.ParseRate("157.2")
	jpy.Rounding, jpy.Step, jpy.Order = currency.RoundNearest, 10, 3
	gbp, _ := currency.Defaults("GBP")
	gbp.Rate, _ = currency.ParseRate("0.79")
	gbp.Enabled, gbp.Order = false, 2
	for _, c := range []currency.Currency{eur, jpy, gbp} {
		if err := svc.SaveCurrency(ctx, c); err != nil {
			t.Fatalf("save %s: %v", c.Code, err)
		}
	}
}

func newWMCShop(t *testing.T, db *sqlstore.DB, cfg server.Config) *wmcShop {
	t.Helper()
	cfg.BaseURL, cfg.Tagline, cfg.CacheBytes, cfg.CacheMaxAge, cfg.ChangePoll = "https://shop.example", "Tagline", 16<<20, time.Hour, 10*time.Millisecond
	srv := newServer(t, db, "", 2, cfg)
	servertest.Start(t, srv)
	wmcConfigure(t, srv.Currencies())
	s := &wmcShop{shop: &shop{t: t, db: db, srv: srv}, ids: map[string]int64{}}
	for _, slug := range []string{"striped-breton-tee", "pocket-tee", "weekend-set", "classic-tee"} {
		s.ids[slug] = s.productID(slug)
	}
	return s
}

// wmcCall posts a price call; headers are name, value pairs ("remote"
// sets the peer address).
func (s *wmcShop) wmcCall(form string, headers ...string) (*httptest.ResponseRecorder, wmcAnswer) {
	s.t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/wp-admin/admin-ajax.php", strings.NewReader("action=wmc_get_products_price&"+form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "remote" {
			req.RemoteAddr = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	var out wmcAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		s.t.Fatalf("price call %q: %d not JSON: %s", form, rec.Code, rec.Body)
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		s.t.Errorf("price call Cache-Control = %q", cc)
	}
	return rec, out
}

func (s *wmcShop) pids(slugs ...string) string {
	var parts []string
	for _, sl := range slugs {
		parts = append(parts, "pids[]="+itoa(s.ids[sl]))
	}
	return strings.Join(parts, "&")
}

const currencyCookieName = "wmc_current_currency"

const euroSym = `<span class="woocommerce-Price-currencySymbol">€</span>`

func TestWMCPriceCall(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		ctx := context.Background()
		tee, pocket, set := s.ids["striped-breton-tee"], s.ids["pocket-tee"], s.ids["weekend-set"]
		pocketVar := pocket + 1 // the demo's first variation follows its parent
		if p, err := s.db.Product(ctx, pocketVar); err != nil || p.ParentID != pocket {
			t.Fatalf("variation %d of pocket-tee: %+v %v", pocketVar, p, err)
		}

		// No cookie: the base, unchanged.
		rec, out := s.wmcCall(s.pids("striped-breton-tee"))
		if rec.Code != 200 || !out.Success || out.Data.CurrentCurrency != "USD" || out.Data.CurrentCountry != "us" {
			t.Fatalf("base: %d %+v", rec.Code, out)
		}
		if h := out.Data.Prices[itoa(tee)]; !strings.Contains(h, `<del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>36.00</bdi>`) ||
			!strings.Contains(h, "Current price is: $29.00.") {
			t.Errorf("base price html %s", h)
		}

		// EUR: sale del/ins, a variation, a grouped range, an unknown id left out, ids deduplicated.
		form := s.pids("striped-breton-tee", "pocket-tee", "weekend-set") + "&pids[]=" + itoa(pocketVar) + "&pids[]=" + itoa(tee) + "&pids=999999&pids[]="
		rec, out = s.wmcCall(form, "Cookie", "wmc_current_currency=EUR")
		if rec.Code != 200 || !out.Success || out.Data.CurrentCurrency != "EUR" {
			t.Fatalf("EUR: %d %s", rec.Code, rec.Body)
		}
		if len(out.Data.Prices) != 4 {
			t.Errorf("prices for %d ids, want 4 (unknown left out): %v", len(out.Data.Prices), out.Data.Prices)
		}
		if _, ok := out.Data.Prices["999999"]; ok {
			t.Error("unknown id answered")
		}
		for id, want := range map[int64][]string{
			tee: {`<del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>33,12&nbsp;` + euroSym + `</bdi></span></del>`,
				`<ins aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>26,68&nbsp;` + euroSym + `</bdi></span></ins>`,
				"Original price was: 33,12 €.", "Current price is: 26,68 €."},
			pocket:    {"<del", "29,44&nbsp;", "22,08&nbsp;"},
			pocketVar: {"<del", "29,44&nbsp;", "22,08&nbsp;"},
			set:       {"26,68&nbsp;" + euroSym, "&ndash;", "63,48&nbsp;" + euroSym, "Price range: 26,68 € through 63,48 €"},
		} {
			h := out.Data.Prices[itoa(id)]
			for _, w := range want {
				if !strings.Contains(h, w) {
					t.Errorf("id %d: %q not in %s", id, w, h)
				}
			}
			if strings.Contains(h, "$") || strings.Contains(h, `class="price"`) {
				t.Errorf("id %d: %s", id, h)
			}
		}

		// A fixed price wins over conversion (regular and sale).
		sale := int64(2500)
		if err := s.srv.Currencies().SetFixedPrice(ctx, currency.FixedPrice{ProductID: tee, Code: "EUR", Regular: 3000, Sale: &sale}); err != nil {
			t.Fatal(err)
		}
		_, out = s.wmcCall(s.pids("striped-breton-tee"), "Cookie", "wmc_current_currency=EUR")
		if h := out.Data.Prices[itoa(tee)]; !strings.Contains(h, "Original price was: 30,00 €.") || !strings.Contains(h, "Current price is: 25,00 €.") {
			t.Errorf("fixed price: %s", h)
		}

		// JPY: no decimals, rounded to tens (29.00 × 157.2 = 4558.8 → 4560).
		_, out = s.wmcCall(s.pids("striped-breton-tee"), "Cookie", "wmc_current_currency=jpy")
		if h := out.Data.Prices[itoa(tee)]; out.Data.CurrentCurrency != "JPY" || !strings.Contains(h, "Current price is: ¥4,560.") {
			t.Errorf("JPY: %s %s", out.Data.CurrentCurrency, h)
		}

		// An unknown or disabled currency in the cookie: the base.
		for _, ck := range []string{"XYZ", "GBP", "", "EURO", "%00", "eur\x00"} {
			rec, out := s.wmcCall(s.pids("striped-breton-tee"), "Cookie", "wmc_current_currency="+ck)
			if rec.Code != 200 || out.Data.CurrentCurrency != "USD" || !strings.Contains(out.Data.Prices[itoa(tee)], "$29.00") {
				t.Errorf("cookie %q: %d %+v", ck, rec.Code, out.Data)
			}
		}

		// Switchers re-rendered for the shopper, links back to the page.
		_, out = s.wmcCall("shortcodes[0][layout]=plain_vertical&shortcodes[1][flag_size]=0.5&wmc_current_url="+url.QueryEscape("/shop/?orderby=price&wmc-currency=JPY"),
			"Cookie", "wmc_current_currency=EUR")
		if len(out.Data.Shortcodes) != 2 || len(out.Data.Prices) != 0 {
			t.Fatalf("shortcodes: %+v", out.Data)
		}
		sc := out.Data.Shortcodes[0]
		for _, w := range []string{`<div class="woo-multi-currency woocommerce-multi-currency wmc-shortcode wmc-layout-plain_vertical" data-layout="plain_vertical">`, `<li class="wmc-currency wmc-active" data-currency="EUR"><a rel="nofollow" href="/shop/?orderby=price&amp;wmc-currency=EUR" aria-current="true">`,
			`href="/shop/?orderby=price&amp;wmc-currency=JPY"`, `href="/shop/?orderby=price&amp;wmc-currency=USD"`} {
			if !strings.Contains(sc, w) {
				t.Errorf("switcher: %q not in %s", w, sc)
			}
		}
		if strings.Contains(sc, "GBP") {
			t.Errorf("a disabled currency in the switcher: %s", sc)
		}
		_, out = s.wmcCall("shortcodes[0][layout]=x&wmc_current_url="+url.QueryEscape("https://evil.example/shop/"), "Cookie", "wmc_current_currency=EUR")
		if sc := out.Data.Shortcodes[0]; !strings.Contains(sc, `href="/?wmc-currency=EUR"`) || strings.Contains(sc, "evil") {
			t.Errorf("foreign current url: %s", sc)
		}

		// Exchange snippets: in the entry's currency, with markup or plain.
		_, out = s.wmcCall("exchange[0][price]=10&exchange[0][currency]=JPY&exchange[0][keep_format]=1&exchange[1][price]=10&exchange[1][product_id]=5&exchange[2][price]=zz",
			"Cookie", "wmc_current_currency=EUR")
		if len(out.Data.Exchange) != 3 {
			t.Fatalf("exchange: %+v", out.Data.Exchange)
		}
		if e := out.Data.Exchange[0]; e["price"] != "10" || e["currency"] != "JPY" ||
			!strings.Contains(e["shortcode"], `<span class="woocommerce-Price-currencySymbol">¥</span>1,570`) {
			t.Errorf("exchange 0: %+v", e)
		}
		if e := out.Data.Exchange[1]; e["shortcode"] != `<span class="wmc-price-exchange">9,20 €</span>` {
			t.Errorf("exchange 1: %+v", e)
		}
		if e := out.Data.Exchange[2]; e["shortcode"] != "" {
			t.Errorf("exchange 2: %+v", e)
		}
	})
}

func TestWMCPriceCallBadInput(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		var many []string
		for i := 1; i <= ajaxapi.PriceCallMaxIDs+1; i++ {
			many = append(many, fmt.Sprintf("pids[]=%d", i))
		}
		for form, code := range map[string]string{
			"":                               "wmc_no_pids",
			"pids[]=":                        "wmc_no_pids",
			"wmc_current_url=/shop/":         "wmc_no_pids",
			strings.Join(many, "&"):          "wmc_too_many_pids",
			"pids[]=abc":                     "wmc_invalid_pid",
			"pids[]=1&pids[]=-4":             "wmc_invalid_pid",
			"pids[]=0":                       "wmc_invalid_pid",
			"pids[]=1e3":                     "wmc_invalid_pid",
			"pids[]=99999999999999999999":    "wmc_invalid_pid",
			"pids[]=1&shortcodes[x][a]=1":    "wmc_invalid_field",
			"pids[]=1&shortcodes[0]=1":       "wmc_invalid_field",
			"pids[]=1&exchange[20][price]=1": "wmc_too_many_widgets",
			"shortcodes[0][layout]=" + strings.Repeat("a", 201): "wmc_invalid_field",
		} {
			rec, out := s.wmcCall(form, "Cookie", "wmc_current_currency=EUR")
			if rec.Code != http.StatusBadRequest || out.Success || out.Data.Code != code || out.Data.Message == "" {
				t.Errorf("%.60q: %d %s, want 400 %s", form, rec.Code, rec.Body, code)
			}
			if rec.Header().Get("Set-Cookie") != "" {
				t.Errorf("%.60q set a cookie", form)
			}
		}
		// A price call never changes the shopper's currency.
		_, out := s.wmcCall(s.pids("classic-tee"), "Cookie", "wmc_current_currency=EUR")
		if !out.Success || out.Data.CurrentCurrency != "EUR" {
			t.Errorf("after refusals: %+v", out)
		}
	})
}

func TestWMCCountryFromTrustedProxyOnly(t *testing.T) {
	t.Parallel()
	eachWMCShopWith(t, server.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, func(t *testing.T, s *wmcShop) {
		for _, c := range []struct {
			remote, country, cookie, currency, current string
		}{
			// current_country is the shown currency's country (CURCY's flag).
			{"10.0.0.1:4000", "DE", "", "EUR", "eu"},                         // euro area, from the proxy
			{"10.0.0.1:4000", "jp", "", "JPY", "jp"},                         // JPY is enabled
			{"10.0.0.1:4000", "GB", "", "USD", "us"},                         // GBP is disabled: the base
			{"10.0.0.1:4000", "US", "", "USD", "us"},                         // no mapping
			{"10.0.0.1:4000", "DE", "wmc_current_currency=JPY", "JPY", "jp"}, // the cookie wins
			{"10.0.0.1:4000", "XX", "", "USD", "us"},                         // unknown country
			{"10.0.0.1:4000", "D1", "", "USD", "us"},                         // not a country code
			{"192.0.2.7:4000", "DE", "", "USD", "us"},                        // not from a trusted proxy
		} {
			_, out := s.wmcCall(s.pids("classic-tee"), "remote", c.remote, "CF-IPCountry", c.country, "Cookie", c.cookie)
			if out.Data.CurrentCurrency != c.currency || out.Data.CurrentCountry != c.current {
				t.Errorf("%+v: currency %s country %q", c, out.Data.CurrentCurrency, out.Data.CurrentCountry)
			}
		}
	})
	// Without trusted proxies the header is never read.
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		_, out := s.wmcCall(s.pids("classic-tee"), "remote", "10.0.0.1:4000", "CF-IPCountry", "DE")
		if out.Data.CurrentCurrency != "USD" || out.Data.CurrentCountry != "us" {
			t.Errorf("no trusted proxies: %+v", out.Data)
		}
	})
}

// The price call answers current_country as CURCY does: the country of
// the currency it answers in (its script shows that country's flag), "eu"
// for the euro, never "" for a currency the shop sells in.
func TestWMCCurrentCountryIsTheCurrencys(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		gbp, _, err := s.srv.Currencies().Configured(context.Background(), "GBP")
		if err != nil {
			t.Fatal(err)
		}
		gbp.Enabled = true
		if err := s.srv.Currencies().SaveCurrency(context.Background(), gbp); err != nil {
			t.Fatal(err)
		}
		for code, want := range map[string]string{"USD": "us", "EUR": "eu", "GBP": "gb", "JPY": "jp", "CHF": "us"} {
			_, out := s.wmcCall(s.pids("classic-tee"), "Cookie", currencyCookieName+"="+code)
			wantCode := code
			if code == "CHF" { // not sold: the base
				wantCode = "USD"
			}
			if !out.Success || out.Data.CurrentCurrency != wantCode || out.Data.CurrentCountry != want {
				t.Errorf("%s: currency %q country %q, want %s %q", code, out.Data.CurrentCurrency, out.Data.CurrentCountry, wantCode, want)
			}
		}
	})
}

func TestWMCCurrencyLinkAndSettings(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		for _, c := range []struct{ target, location, cookie string }{
			{"/shop/?wmc-currency=EUR&orderby=price", "/shop/?orderby=price", "EUR"},
			{"/product/pocket-tee/?wmc-currency=jpy", "/product/pocket-tee/", "JPY"},
			{"/?wmc-currency=XYZ", "/", ""}, // unknown: only redirects
			{"/?wmc-currency=GBP", "/", ""}, // disabled
			{"/shop/?wmc-currency=", "/shop/", ""},
		} {
			r := s.get(c.target)
			if r.StatusCode != http.StatusFound || r.Header.Get("Location") != c.location {
				t.Errorf("%s: %d → %q, want 302 → %q", c.target, r.StatusCode, r.Header.Get("Location"), c.location)
			}
			ck := r.Header.Get("Set-Cookie")
			if c.cookie == "" {
				if ck != "" {
					t.Errorf("%s: set %q", c.target, ck)
				}
				continue
			}
			for _, w := range []string{"wmc_current_currency=" + c.cookie + ";", "Path=/", "Max-Age=31536000", "SameSite=Lax", "Secure"} {
				if !strings.Contains(ck, w) {
					t.Errorf("%s: cookie %q lacks %q", c.target, ck, w)
				}
			}
			if strings.Contains(ck, "HttpOnly") {
				t.Errorf("%s: the storefront must read the cookie: %q", c.target, ck)
			}
		}
		// Only GET and HEAD redirect.
		req := httptest.NewRequest(http.MethodHead, "/shop/?wmc-currency=EUR", nil)
		rec := httptest.NewRecorder()
		s.srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusFound {
			t.Errorf("HEAD: %d", rec.Code)
		}

		// One cached page for every currency, carrying the switcher's list.
		usd := body(t, s.get("/shop/"))
		eur := body(t, s.get("/shop/", "Cookie", "wmc_current_currency=EUR"))
		if usd != eur {
			t.Error("the listing differs by currency")
		}
		for _, w := range []string{`"base_currency":"USD"`, `"currencies":[{"code":"USD","name":"United States dollar","symbol":"$","position":"left","decimals":2,"thousand_separator":",","decimal_separator":"."},{"code":"EUR","name":"Euro","symbol":"€","position":"right_space","decimals":2,"thousand_separator":".","decimal_separator":","},{"code":"JPY"`} {
			if !strings.Contains(usd, w) {
				t.Errorf("page settings lack %s", w)
			}
		}
		if strings.Contains(usd, `"code":"GBP"`) {
			t.Error("a disabled currency in the settings")
		}
	})
}

func TestWMCStoreAPIInCurrency(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		tee := itoa(s.ids["striped-breton-tee"])
		type prices struct {
			Price, RegularPrice, SalePrice, Code, Symbol, Prefix, Suffix, Dec, Thou string
			Minor                                                                   int
		}
		get := func(path, cookie string) (prices, string) {
			t.Helper()
			r := s.get(path, "Cookie", cookie)
			if r.StatusCode != 200 {
				t.Fatalf("%s: %d", path, r.StatusCode)
			}
			raw := body(t, r)
			var one struct {
				ID     int64 `json:"id"`
				Prices struct {
					Price        string `json:"price"`
					RegularPrice string `json:"regular_price"`
					SalePrice    string `json:"sale_price"`
					Code         string `json:"currency_code"`
					Symbol       string `json:"currency_symbol"`
					Minor        int    `json:"currency_minor_unit"`
					Dec          string `json:"currency_decimal_separator"`
					Thou         string `json:"currency_thousand_separator"`
					Prefix       string `json:"currency_prefix"`
					Suffix       string `json:"currency_suffix"`
				} `json:"prices"`
				PriceHTML string `json:"price_html"`
			}
			if strings.HasPrefix(raw, "[") {
				var list []json.RawMessage
				_ = json.Unmarshal([]byte(raw), &list)
				for _, it := range list {
					_ = json.Unmarshal(it, &one)
					if itoa(one.ID) == tee {
						break
					}
				}
			} else if err := json.Unmarshal([]byte(raw), &one); err != nil {
				t.Fatal(err)
			}
			p := one.Prices
			return prices{p.Price, p.RegularPrice, p.SalePrice, p.Code, p.Symbol, p.Prefix, p.Suffix, p.Dec, p.Thou, p.Minor}, one.PriceHTML
		}
		wantUSD := prices{"2900", "3600", "2900", "USD", "$", "$", "", ".", ",", 2}
		wantEUR := prices{"2668", "3312", "2668", "EUR", "€", "", " €", ",", ".", 2}
		wantJPY := prices{"4560", "5660", "4560", "JPY", "¥", "¥", "", ".", ",", 0}
		one := api + "/products/" + tee
		list := api + "/products?include=" + tee
		// Alternate currencies on each URL: the cache never answers one
		// currency's prices to another.
		for i, c := range []struct {
			path, cookie string
			want         prices
			html         string
		}{
			{one, "wmc_current_currency=EUR", wantEUR, "26,68&nbsp;" + euroSym},
			{one, "", wantUSD, "$</span>29.00"},
			{one, "wmc_current_currency=EUR", wantEUR, "26,68&nbsp;" + euroSym},
			{one, "wmc_current_currency=JPY", wantJPY, "¥</span>4,560"},
			{one, "wmc_current_currency=XYZ", wantUSD, "$</span>29.00"},
			{list, "", wantUSD, "$</span>29.00"},
			{list, "wmc_current_currency=EUR", wantEUR, "26,68&nbsp;" + euroSym},
			{list, "", wantUSD, "$</span>29.00"},
			{list, "wmc_current_currency=EUR", wantEUR, "26,68&nbsp;" + euroSym},
		} {
			got, h := get(c.path, c.cookie)
			if got != c.want || !strings.Contains(h, c.html) {
				t.Errorf("%d %s %q: %+v %s, want %+v %s", i, c.path, c.cookie, got, h, c.want, c.html)
			}
		}
	})
}

func FuzzPriceCall(f *testing.F) {
	shops := fuzzServer(f)
	for _, s := range []string{
		"pids[]={tee}&pids[]={tank}", "pids[]={tee}&shortcodes[0][layout]=plain&wmc_current_url=/shop/",
		"exchange[0][price]=12.5&exchange[0][currency]=EUR", "pids[]=-1", "pids[]=%00", "shortcodes[999][x]=1",
		"exchange[0][price]=99999999999999999999", "exchange[0][price]=1e400&exchange[0][product_id]=-9", "", "pids=",
		"wmc_current_url=javascript:alert(1)&shortcodes[0][layout]=a", "wmc_current_url=%2F%2Fevil&shortcodes[0][layout]=a",
	} {
		f.Add(s, "EUR")
	}
	f.Add("pids[]={tee}", "JPY")
	f.Add("pids[]={tee}", "\x00")
	f.Fuzz(func(t *testing.T, form, cur string) {
		for _, srv := range shops {
			func() {
				form = fuzzFill(form, "")
				h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
				if ck := (&http.Cookie{Name: "wmc_current_currency", Value: cur}).String(); ck != "" {
					h.Set("Cookie", ck)
				}
				rec, ok := fuzzDo(t, srv, http.MethodPost, "/wp-admin/admin-ajax.php", "action=wmc_get_products_price&"+form, h)
				if !ok {
					return
				}
				var out wmcAnswer
				if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || !isJSON(rec) {
					t.Fatalf("%q: not JSON: %d %s", form, rec.Code, rec.Body)
				}
				switch {
				case rec.Code == 200 && out.Success && out.Data.CurrentCurrency != "":
				case rec.Code == 400 && !out.Success && out.Data.Code != "" && out.Data.Message != "":
				default:
					t.Fatalf("%q: %d %s", form, rec.Code, rec.Body)
				}
			}()
		}
	})
}

// TestWMCCartAndOrderInCurrency: a shopper in EUR sees the cart, its
// fragments and its shipping in EUR, and the order is placed, stored,
// shown and mailed in EUR at the quoted amounts, with the rate.
func TestWMCCartAndOrderInCurrency(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		tee := s.ids["striped-breton-tee"] // on sale: 29.00 USD, 26,68 € at 0.92
		c := s.client()
		c.cookies[currencyCookieName] = &http.Cookie{Name: currencyCookieName, Value: "EUR"}
		c.addItem(tee, 2)
		bill, _ := json.Marshal(goodBilling())
		if r := c.do("POST", cartAPI+"/update-customer", `{"billing_address":`+string(bill)+`}`); r.status != 200 {
			t.Fatalf("update customer: %d %s", r.status, r.raw)
		}
		r := c.do("GET", cartAPI, "")
		totals, _ := r.body["totals"].(map[string]any)
		items := r.items()
		if r.status != 200 || len(items) != 1 || totals["currency_code"] != "EUR" || totals["currency_suffix"] != " €" ||
			totals["currency_decimal_separator"] != "," || totals["total_items"] != "5336" {
			t.Fatalf("EUR cart: %d %s", r.status, r.raw)
		}
		ip := items[0]["prices"].(map[string]any)
		if ip["price"] != "2668" || ip["regular_price"] != "3312" || ip["sale_price"] != "2668" || ip["currency_code"] != "EUR" ||
			items[0]["totals"].(map[string]any)["line_subtotal"] != "5336" {
			t.Errorf("EUR line: %v", items[0])
		}
		pkgs, _ := r.body["shipping_rates"].([]any)
		if len(pkgs) == 0 {
			t.Fatalf("no shipping package: %s", r.raw)
		}
		for _, rt := range pkgs[0].(map[string]any)["shipping_rates"].([]any) {
			rate := rt.(map[string]any)
			if rate["currency_code"] != "EUR" || (rate["method_id"] == "flat_rate" && rate["price"] != "460") { // 5.00 USD
				t.Errorf("shipping rate: %v", rate)
			}
		}
		eurHash, eurTotal := r.header.Get("Cart-Hash"), totals["total_price"].(string)

		// The same cart in the base currency: other amounts, another hash
		// (the mini cart's fragments refresh when the currency changes).
		base := &client{s: s.shop, cookies: map[string]*http.Cookie{}, nonce: c.nonce}
		for k, v := range c.cookies {
			if k != currencyCookieName {
				base.cookies[k] = v
			}
		}
		rb := base.do("GET", cartAPI, "")
		if bt := rb.body["totals"].(map[string]any); bt["currency_code"] != "USD" || bt["total_items"] != "5800" ||
			rb.header.Get("Cart-Hash") == eurHash || eurHash == "" {
			t.Errorf("base cart: %s (hash %s, EUR %s)", rb.raw, rb.header.Get("Cart-Hash"), eurHash)
		}

		// The mini cart's fragments are in EUR.
		fr := c.do("POST", "/?wc-ajax=get_refreshed_fragments", "time=1")
		if fr.status != 200 || !strings.Contains(fr.raw, "53,36") || !strings.Contains(fr.raw, "€") || strings.Contains(fr.raw, "58.00") {
			t.Errorf("fragments: %d %s", fr.status, fr.raw)
		}

		// A review that showed another currency (switched in another
		// window) is refused with the cart in the new one; nothing placed.
		r = c.do("POST", checkoutAPI, checkoutBody(goodBilling(), `"extensions":{"woo-multi-currency":{"currency":"USD"}}`))
		if data, _ := r.body["data"].(map[string]any); r.status != 409 || r.code() != "woocommerce_rest_checkout_currency_changed" ||
			data == nil || data["cart"].(map[string]any)["totals"].(map[string]any)["currency_code"] != "EUR" {
			t.Fatalf("shown USD, shopper EUR: %d %.300s", r.status, r.raw)
		}
		if rc := c.do("GET", cartAPI, ""); len(rc.items()) != 1 {
			t.Fatalf("the refused checkout changed the cart: %s", rc.raw)
		}

		// The order: EUR, the rate, the quoted total.
		r = c.do("POST", checkoutAPI, checkoutBody(goodBilling(), `"extensions":{"woo-multi-currency":{"currency":"EUR"}}`))
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		id := num(r.body["order_id"])
		o := s.order(id)
		if o.Currency != "EUR" || o.CurrencyRate != "0.92" || o.BaseCurrency != "USD" || itoa(o.Total) != eurTotal ||
			o.Lines[0].UnitPrice != 2668 || o.ShippingTotal != 460 {
			t.Errorf("order: %s rate %s base %s total %d (cart %s) unit %d shipping %d", o.Currency, o.CurrencyRate, o.BaseCurrency,
				o.Total, eurTotal, o.Lines[0].UnitPrice, o.ShippingTotal)
		}
		page := s.get(fmt.Sprintf("/checkout/order-received/%d/?key=%s", id, o.Key))
		if html := body(t, page); page.StatusCode != 200 || !strings.Contains(html, "53,36") || !strings.Contains(html, "€") {
			t.Errorf("order received: %d", page.StatusCode)
		}
		mv, err := s.srv.OrderMailView(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(mv); !strings.Contains(string(b), "53,36") || !strings.Contains(string(b), "€") || strings.Contains(string(b), "$") {
			t.Errorf("order mail: %s", b)
		}
	})
}

// Live search suggestions carry the shopper's currency: the cached answer
// (base prices) is shared by every currency and each non-base shopper's
// prices are converted per request, byte for byte the price call's.
func TestWMCLiveSearchInCurrency(t *testing.T) {
	t.Parallel()
	eachWMCShop(t, func(t *testing.T, s *wmcShop) {
		ctx := context.Background()
		tee, set := s.ids["striped-breton-tee"], s.ids["weekend-set"]
		search := func(query, cookie string) (*http.Response, suggestions) {
			t.Helper()
			r := s.get(liveSearch(query), "Cookie", cookie)
			if r.StatusCode != 200 {
				t.Fatalf("%s %q: %d", query, cookie, r.StatusCode)
			}
			for h, want := range map[string]string{"Content-Type": "application/json; charset=UTF-8", "Cache-Control": "no-store"} {
				if got := r.Header.Get(h); got != want {
					t.Errorf("%s %q: %s = %q, want %q", query, cookie, h, got, want)
				}
			}
			return r, decode[suggestions](t, r)
		}
		priceOf := func(res suggestions, id int64) string {
			t.Helper()
			for _, sg := range res.Suggestions {
				if sg.ID == id {
					return sg.Price
				}
			}
			t.Fatalf("no suggestion %d in %+v", id, res.Suggestions)
			return ""
		}

		// EUR first, so the shared cache is filled by a EUR shopper: the
		// base shopper after it still gets base prices, and the reverse.
		_, eur := search("breton", "wmc_current_currency=EUR")
		if h := priceOf(eur, tee); !strings.Contains(h, "Current price is: 26,68 €.") || !strings.Contains(h, "Original price was: 33,12 €.") || strings.Contains(h, "$") {
			t.Errorf("EUR tee: %s", h)
		}
		if h := priceOf(eur, set); !strings.Contains(h, "Price range: 26,68 € through 63,48 €") {
			t.Errorf("EUR grouped set: %s", h)
		}
		_, usd := search("breton", "")
		if h := priceOf(usd, tee); !strings.Contains(h, "Current price is: $29.00.") {
			t.Errorf("base after EUR: %s", h)
		}
		_, jpy := search("breton", "wmc_current_currency=JPY")
		if h := priceOf(jpy, tee); !strings.Contains(h, "Current price is: ¥4,560.") || !strings.Contains(h, "Original price was: ¥5,660.") {
			t.Errorf("JPY tee: %s", h)
		}
		// Only the prices differ: same products, names, links and pictures.
		for i := range usd.Suggestions {
			a, b := usd.Suggestions[i], jpy.Suggestions[i]
			a.Price, b.Price = "", ""
			if a != b {
				t.Errorf("suggestion %d: %+v in USD, %+v in JPY", i, a, b)
			}
		}
		// The cached answer decoded again (its memo emptied) converts the same.
		s.srv.ForgetDecodedSuggestionsForTest()
		if _, again := search("breton", "wmc_current_currency=JPY"); priceOf(again, tee) != priceOf(jpy, tee) || len(again.Suggestions) != len(jpy.Suggestions) {
			t.Errorf("JPY after the memo was emptied: %+v", again.Suggestions)
		}
		// An unknown or disabled currency in the cookie: the base.
		for _, ck := range []string{"wmc_current_currency=XYZ", "wmc_current_currency=GBP", "wmc_current_currency="} {
			if _, res := search("breton", ck); priceOf(res, tee) != priceOf(usd, tee) {
				t.Errorf("%s: %s", ck, priceOf(res, tee))
			}
		}

		// The same HTML as the price call, variable products included.
		_, eurTee := search("pocket tee", "wmc_current_currency=EUR")
		var ids []string
		for _, sg := range eurTee.Suggestions {
			ids = append(ids, "pids[]="+itoa(sg.ID))
		}
		_, call := s.wmcCall(strings.Join(ids, "&"), "Cookie", "wmc_current_currency=EUR")
		for _, sg := range eurTee.Suggestions {
			if want := call.Data.Prices[itoa(sg.ID)]; sg.Price != want || want == "" {
				t.Errorf("%s: suggestion %q, price call %q", sg.Value, sg.Price, want)
			}
			// The dropdown shows it as it is: no price-refresh wrapper, so
			// the client's price call never converts it a second time.
			if strings.Contains(sg.Price, "wmc-cache-pid") {
				t.Errorf("%s: wrapped for the price refresh: %s", sg.Value, sg.Price)
			}
		}
		if priceOf(eurTee, s.ids["pocket-tee"]) == "" {
			t.Error("pocket tee (variable) missing")
		}

		// A fixed price shows at once, in its currency only.
		sale := int64(2500)
		if err := s.srv.Currencies().SetFixedPrice(ctx, currency.FixedPrice{ProductID: tee, Code: "EUR", Regular: 3000, Sale: &sale}); err != nil {
			t.Fatal(err)
		}
		_, eur = search("breton", "wmc_current_currency=EUR")
		if h := priceOf(eur, tee); !strings.Contains(h, "Current price is: 25,00 €.") || !strings.Contains(h, "Original price was: 30,00 €.") {
			t.Errorf("EUR fixed price: %s", h)
		}
		if _, res := search("breton", ""); priceOf(res, tee) != priceOf(usd, tee) {
			t.Errorf("base after a EUR fixed price: %s", priceOf(res, tee))
		}

		// "No results" is the same for every currency.
		if b := body(t, s.get(liveSearch("zebra"), "Cookie", "wmc_current_currency=EUR")); b != noResultsJSON {
			t.Errorf("no results in EUR: %s", b)
		}
	})
}
