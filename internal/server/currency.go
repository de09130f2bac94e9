package server

import (
	"context"
	"errors"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/pricing"
	"vitrine/internal/storeapi"
)

// The shopper's currency.
//
// Pages are cached once per URL and carry the base currency; the shopper's
// choice lives in the wmc_current_currency cookie (not HttpOnly: the
// storefront reads it), set by a ?wmc-currency=CODE link on any GET page,
// which redirects to the same URL without the parameter. After load the
// storefront asks the price call (admin-ajax wmc_get_products_price) for
// the page's prices in the shopper's currency. The Store API's product
// prices follow the cookie too. A country header from a trusted proxy can
// preselect a currency for a shopper without the cookie.

// Currency cookie and link parameter (the CURCY plugin's names).
const (
	currencyCookie = "wmc_current_currency"
	currencyParam  = "wmc-currency"
	// PriceCallMaxIDs caps pids[] values of one price call; more is 400.
	PriceCallMaxIDs = 200
	// PriceCallMaxWidgets caps shortcodes[] and exchange[] entries each.
	PriceCallMaxWidgets = 20
	// DefaultCountryHeader is the country header read from trusted
	// proxies when Config.CountryHeader is empty.
	DefaultCountryHeader = "CF-IPCountry"
)

// DefaultCountryCurrencies maps countries (ISO 3166 alpha-2) to the
// currency a shopper from there is offered first, when the shop sells in
// it: the euro area to EUR, GB to GBP, JP to JPY.
var DefaultCountryCurrencies = map[string]string{
	"AT": "EUR", "BE": "EUR", "HR": "EUR", "CY": "EUR", "EE": "EUR", "FI": "EUR", "FR": "EUR",
	"DE": "EUR", "GR": "EUR", "IE": "EUR", "IT": "EUR", "LV": "EUR", "LT": "EUR", "LU": "EUR",
	"MT": "EUR", "NL": "EUR", "PT": "EUR", "SK": "EUR", "SI": "EUR", "ES": "EUR",
	"GB": "GBP", "JP": "JPY",
}

// initCurrencies wires the currency service with its in-memory list of
// currencies (the hot paths read no settings from the store).
func (s *Server) initCurrencies() {
	s.currencyStore = &currency.CachedStore{Store: s.db, TTL: s.cfg.CurrencyCacheTTL}
	s.currencies = &currency.Service{Store: s.currencyStore, Base: s.cfg.Currency, Products: s.products, Now: s.now, Log: s.log}
	s.pricing = &pricing.Service{Products: s.products, Currencies: s.currencies, Now: s.now}
	s.checkout.Currencies = s.currencies // carts and orders in the shopper's currency
	s.countryCurrency = s.cfg.CountryCurrencies
	if s.countryCurrency == nil {
		s.countryCurrency = DefaultCountryCurrencies
	}
	s.countryHeader = s.cfg.CountryHeader
	if s.countryHeader == "" {
		s.countryHeader = DefaultCountryHeader
	}
}

// Currencies is the server's currency service (the same cache as the
// handlers use: a currency saved through it is seen at once).
func (s *Server) Currencies() *currency.Service { return s.currencies }

// shopperCurrency is the request's display currency: the cookie's when it
// names an enabled currency, else the country's (currentCountry) when the
// shop sells in it, else the base.
func (s *Server) shopperCurrency(r *http.Request) currency.Currency {
	ctx := r.Context()
	if ck, err := r.Cookie(currencyCookie); err == nil && ck.Value != "" {
		if c, err := s.currencies.Currency(ctx, ck.Value); err == nil {
			return c
		}
		// An unknown or disabled code: as if there were no cookie.
	}
	if code, ok := s.countryCurrency[strings.ToUpper(s.currentCountry(r))]; ok {
		if c, err := s.currencies.Currency(ctx, code); err == nil {
			return c
		}
	}
	return currency.Base(s.cfg.Currency)
}

// currentCountry is the shopper's country (ISO 3166 alpha-2, lower case)
// from the country header, read only when the TCP peer is a trusted proxy
// (a client cannot pick its own); "" when unknown.
func (s *Server) currentCountry(r *http.Request) string {
	if _, ok := s.fromTrustedProxy(r); !ok {
		return ""
	}
	v := strings.TrimSpace(r.Header.Get(s.countryHeader))
	if len(v) != 2 || !isASCIILetters(v) || strings.EqualFold(v, "XX") || strings.EqualFold(v, "T1") {
		return "" // Cloudflare: XX unknown, T1 Tor
	}
	return strings.ToLower(v)
}

// currencyCountry is the country of a currency as CURCY answers it in
// current_country (its script shows that country's flag): lower case, "eu"
// for the euro, otherwise the ISO 4217 code's first two letters, which are
// the ISO 3166 country ("us" for USD, "gb" for GBP, "jp" for JPY). The
// X codes (gold, SDR, the CFA francs…) belong to no one country: "".
func currencyCountry(code string) string {
	if len(code) != 3 || !isASCIILetters(code) || code[0]|0x20 == 'x' {
		return ""
	}
	return strings.ToLower(code[:2])
}

func isASCIILetters(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// setCurrencyCookie remembers the shopper's choice for a year.
func (s *Server) setCurrencyCookie(w http.ResponseWriter, code string) {
	http.SetCookie(w, &http.Cookie{Name: currencyCookie, Value: code, Path: "/", MaxAge: 365 * 24 * 3600,
		Secure: s.SecureCookies(), SameSite: http.SameSiteLaxMode})
}

// withCurrencyParam handles ?wmc-currency=CODE on any GET or HEAD: the
// cookie is set when CODE is an enabled currency, and the answer is a 302
// to the same URL without the parameter (so the page cache keeps one page
// per URL, shared by every currency). An unknown code only redirects.
func (s *Server) withCurrencyParam(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !strings.Contains(r.URL.RawQuery, currencyParam) {
			next.ServeHTTP(w, r)
			return
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil || !q.Has(currencyParam) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := s.currencies.Currency(r.Context(), q.Get(currencyParam)); err == nil {
			s.setCurrencyCookie(w, c.Code)
			s.storeAPI.ForgetOldCurrency(w, r) // the shopper's own choice (internal/storeapi)
		}
		q.Del(currencyParam)
		target := r.URL.EscapedPath()
		if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") {
			target = "/"
		}
		if len(q) > 0 {
			target += "?" + q.Encode()
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, target, http.StatusFound)
	})
}

// currencyOptions is pages' settings.currencies: the switcher's list.
func (s *Server) currencyOptions(ctx context.Context) ([]pages.CurrencyOption, error) {
	list, err := s.currencies.Currencies(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]pages.CurrencyOption, len(list))
	for i, c := range list {
		out[i] = pages.CurrencyOption{Code: c.Code, Name: currency.Name(c.Code), Symbol: c.Symbol, Position: c.Position,
			Decimals: c.Decimals, ThousandSeparator: c.ThousandSep, DecimalSeparator: c.DecimalSep}
	}
	return out, nil
}

// currencyTable is the shopper's currency's converter (the base's when
// the currency was disabled since the cookie was read).
func (s *Server) currencyTable(ctx context.Context, c currency.Currency) (*currency.Table, error) {
	return s.pricing.Table(ctx, c.Code)
}

// priceRequest is a parsed wmc_get_products_price call.
type priceRequest struct {
	ids        []int64
	shortcodes []map[string]string
	exchange   []map[string]string
	currentURL string
}

// priceCallError is a refused price call: 400 in admin-ajax's JSON error
// shape ({"success":false,"data":{"code","message"}}).
type priceCallError struct{ code, message string }

func (e *priceCallError) Error() string { return e.message }

var widgetKey = regexp.MustCompile(`^(shortcodes|exchange)\[(\d{1,3})\]\[([a-z_]{1,32})\]$`)

// Widget fields kept from the request (others are ignored).
var (
	shortcodeFields = []string{"layout", "flag_size", "dropdown_icon", "custom_format"}
	exchangeFields  = []string{"price", "original_price", "currency", "product_id", "keep_format"}
)

// parsePriceRequest reads and checks the call's fields. Product ids must
// be positive integers (empty values are skipped; anything else refuses
// the call); duplicates count once.
func parsePriceRequest(form url.Values) (*priceRequest, error) {
	req := &priceRequest{currentURL: form.Get("wmc_current_url")}
	raw := append(slices.Clone(form["pids[]"]), form["pids"]...)
	if len(raw) > PriceCallMaxIDs {
		return nil, &priceCallError{"wmc_too_many_pids", "Too many product ids: at most " + strconv.Itoa(PriceCallMaxIDs) + " per call."}
	}
	seen := make(map[int64]bool, len(raw))
	for _, v := range raw {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return nil, &priceCallError{"wmc_invalid_pid", "Product ids must be positive whole numbers; got " + strconv.Quote(httpx.Clip(v, 40)) + "."}
		}
		if !seen[id] {
			seen[id] = true
			req.ids = append(req.ids, id)
		}
	}
	widgets := map[string]map[int]map[string]string{"shortcodes": {}, "exchange": {}}
	for k, vs := range form {
		if !strings.HasPrefix(k, "shortcodes[") && !strings.HasPrefix(k, "exchange[") {
			continue
		}
		m := widgetKey.FindStringSubmatch(k)
		if m == nil {
			return nil, &priceCallError{"wmc_invalid_field", "Unknown field " + strconv.Quote(httpx.Clip(k, 60)) + "."}
		}
		i, _ := strconv.Atoi(m[2])
		if i >= PriceCallMaxWidgets {
			return nil, &priceCallError{"wmc_too_many_widgets", "At most " + strconv.Itoa(PriceCallMaxWidgets) + " " + m[1] + " entries per call."}
		}
		fields := shortcodeFields
		if m[1] == "exchange" {
			fields = exchangeFields
		}
		if !slices.Contains(fields, m[3]) {
			continue
		}
		if len(vs[0]) > 200 {
			return nil, &priceCallError{"wmc_invalid_field", "Field " + strconv.Quote(k) + " is too long."}
		}
		if widgets[m[1]][i] == nil {
			widgets[m[1]][i] = map[string]string{}
		}
		widgets[m[1]][i][m[3]] = vs[0]
	}
	for _, kind := range []string{"shortcodes", "exchange"} {
		idx := make([]int, 0, len(widgets[kind]))
		for i := range widgets[kind] {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		for _, i := range idx {
			if kind == "shortcodes" {
				req.shortcodes = append(req.shortcodes, widgets[kind][i])
			} else {
				req.exchange = append(req.exchange, widgets[kind][i])
			}
		}
	}
	if len(req.ids) == 0 && len(req.shortcodes) == 0 && len(req.exchange) == 0 {
		return nil, &priceCallError{"wmc_no_pids", "No product ids (pids[]), switchers (shortcodes[]) or exchange entries to answer."}
	}
	return req, nil
}

// ajaxProductsPrice answers POST admin-ajax action=wmc_get_products_price
// (protocol notes section 7): the price HTML of each known product or
// variation in pids[] in the shopper's currency, the switchers and
// exchange snippets re-rendered for it. Never cached.
func (s *Server) ajaxProductsPrice(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if err := r.ParseForm(); err != nil {
		priceCallFail(w, &priceCallError{"wmc_invalid_request", "The request body could not be read."})
		return
	}
	req, err := parsePriceRequest(r.Form)
	if err != nil {
		priceCallFail(w, err)
		return
	}
	ctx := r.Context()
	t, err := s.currencyTable(ctx, s.shopperCurrency(r))
	if err != nil {
		s.priceCallInternal(w, err)
		return
	}
	prices, err := s.pricing.PriceHTMLs(ctx, t, req.ids)
	if err != nil {
		s.priceCallInternal(w, err)
		return
	}
	list, err := s.currencies.Currencies(ctx)
	if err != nil {
		s.priceCallInternal(w, err)
		return
	}
	shortcodes := make([]string, len(req.shortcodes))
	for i, sc := range req.shortcodes {
		shortcodes[i] = switcherHTML(sc, list, t.Currency.Code, s.switcherURL(req.currentURL))
	}
	exchange, err := s.exchangeSnippets(ctx, req.exchange, t)
	if err != nil {
		s.priceCallInternal(w, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "data": map[string]any{
		"prices": prices, "current_currency": t.Currency.Code, "current_country": currencyCountry(t.Currency.Code),
		"shortcodes": shortcodes, "exchange": exchange,
	}})
}

func priceCallFail(w http.ResponseWriter, err error) {
	var pe *priceCallError
	if !errors.As(err, &pe) {
		pe = &priceCallError{"wmc_invalid_request", err.Error()}
	}
	httpx.WriteJSON(w, http.StatusBadRequest, map[string]any{"success": false, "data": map[string]string{"code": pe.code, "message": pe.message}})
}

func (s *Server) priceCallInternal(w http.ResponseWriter, err error) {
	s.log.Error("price call", "err", err)
	httpx.WriteJSON(w, http.StatusInternalServerError, map[string]any{"success": false,
		"data": map[string]string{"code": "wmc_internal_error", "message": "The prices could not be computed."}})
}

// switcherURL is the page the switchers' links return to: the request's
// wmc_current_url when it is a path on this shop, else "/".
func (s *Server) switcherURL(raw string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" || len(raw) > 2000 {
		return &url.URL{Path: "/"}
	}
	if u.IsAbs() || u.Host != "" {
		base, berr := url.Parse(s.cfg.BaseURL)
		if berr != nil || !strings.EqualFold(u.Host, base.Host) || (u.Scheme != "http" && u.Scheme != "https") {
			return &url.URL{Path: "/"}
		}
	}
	if !strings.HasPrefix(u.Path, "/") {
		return &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Del(currencyParam)
	return &url.URL{Path: u.Path, RawQuery: q.Encode()}
}

// currencyLink is page with ?wmc-currency=code.
func currencyLink(page *url.URL, code string) string {
	q := page.Query()
	q.Set(currencyParam, code)
	return (&url.URL{Path: page.Path, RawQuery: q.Encode()}).String()
}

var switcherLayout = regexp.MustCompile(`^[a-z0-9_-]{0,40}$`)

// switcherHTML renders one currency switcher for the shopper's currency:
// the current one marked, a link per currency to ?wmc-currency=CODE.
func switcherHTML(sc map[string]string, list []currency.Currency, current string, page *url.URL) string {
	layout := strings.ToLower(sc["layout"])
	if !switcherLayout.MatchString(layout) || layout == "" {
		layout = "default"
	}
	var b strings.Builder
	// woo-multi-currency and wmc-shortcode are the classes CURCY's script
	// looks for; woocommerce-multi-currency is kept for our CSS and clients.
	b.WriteString(`<div class="woo-multi-currency woocommerce-multi-currency wmc-shortcode wmc-layout-` + layout + `" data-layout="` + layout + `">`)
	b.WriteString(`<span class="wmc-current-currency" data-currency="` + html.EscapeString(current) + `">` + html.EscapeString(current) + `</span>`)
	b.WriteString(`<ul class="wmc-sub-currency">`)
	for _, c := range list {
		cls := "wmc-currency"
		attr := ""
		if c.Code == current {
			cls += " wmc-active"
			attr = ` aria-current="true"`
		}
		b.WriteString(`<li class="` + cls + `" data-currency="` + html.EscapeString(c.Code) + `"><a rel="nofollow" href="` +
			html.EscapeString(currencyLink(page, c.Code)) + `"` + attr + `>` + html.EscapeString(c.Code) +
			` <span class="wmc-currency-symbol">` + html.EscapeString(c.Symbol) + `</span></a></li>`)
	}
	b.WriteString(`</ul></div>`)
	return b.String()
}

// exchangeSnippets renders the "price in another currency" snippets: price
// (a base amount, "12.50") in the entry's currency when the shop sells in
// it, else the shopper's; product_id applies that product's fixed price.
// keep_format "1" keeps WooCommerce's price markup, else plain text. An
// entry whose price cannot be read or converted answers an empty
// shortcode. The conversion is pricing.Service.Exchange: one fixed-price
// read per currency for all the entries.
func (s *Server) exchangeSnippets(ctx context.Context, entries []map[string]string, shopper *currency.Table) ([]map[string]string, error) {
	out := make([]map[string]string, len(entries))
	var reqs []pricing.ExchangeRequest
	var at []int // reqs[k] answers out[at[k]]
	for i, e := range entries {
		res := map[string]string{}
		for _, f := range exchangeFields {
			res[f] = e[f]
		}
		res["shortcode"] = ""
		out[i] = res
		amount, err := money.Parse(strings.TrimSpace(e["price"]), s.cfg.Currency.MinorUnit)
		if err != nil || amount < 0 {
			continue
		}
		pid, _ := strconv.ParseInt(e["product_id"], 10, 64)
		reqs = append(reqs, pricing.ExchangeRequest{Code: e["currency"], ProductID: pid, Amount: amount})
		at = append(at, i)
	}
	if len(reqs) == 0 {
		return out, nil
	}
	conv, err := s.pricing.Exchange(ctx, shopper, reqs)
	if err != nil {
		return nil, err
	}
	for k, c := range conv {
		if c.Err != nil {
			continue
		}
		e, res := entries[at[k]], out[at[k]]
		if e["keep_format"] == "1" {
			b := &storeapi.Builder{Currency: c.Currency.Money()}
			res["shortcode"] = `<span class="wmc-price-exchange">` + b.PriceHTML(c.Amount, c.Amount, false) + `</span>`
		} else {
			res["shortcode"] = `<span class="wmc-price-exchange">` + html.EscapeString(c.Currency.Format(c.Amount)) + `</span>`
		}
	}
	return out, nil
}
