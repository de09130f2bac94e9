package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"vitrine/internal/ajax"
	"vitrine/internal/currency"
	"vitrine/internal/pages"
	"vitrine/internal/pricing"
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

// Currency cookie and link parameter (the CURCY plugin's names; the
// switchers of the price call link to the parameter, internal/ajax).
const (
	currencyCookie = "wmc_current_currency"
	currencyParam  = ajax.CurrencyParam
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
