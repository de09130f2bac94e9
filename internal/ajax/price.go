package ajax

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
	"vitrine/internal/pricing"
	"vitrine/internal/storeapi"
)

// CURCY's price call (admin-ajax wmc_get_products_price): after a cached
// page loads in the base currency, the storefront asks for its prices,
// currency switchers and "price in another currency" snippets in the
// shopper's currency (the server's, Deps.ShopperCurrency).

// CurrencyParam is the link parameter that makes a currency the
// shopper's (?wmc-currency=CODE, answered by the server on any page).
const CurrencyParam = "wmc-currency"

// Price call limits.
const (
	// PriceCallMaxIDs caps pids[] values of one price call; more is 400.
	PriceCallMaxIDs = 200
	// PriceCallMaxWidgets caps shortcodes[] and exchange[] entries each.
	PriceCallMaxWidgets = 20
)

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

// productsPrice answers POST admin-ajax action=wmc_get_products_price
// (protocol notes section 7): the price HTML of each known product or
// variation in pids[] in the shopper's currency, the switchers and
// exchange snippets re-rendered for it. Never cached.
func (a *API) productsPrice(w http.ResponseWriter, r *http.Request) {
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
	t, err := a.d.Pricing.Table(ctx, a.d.ShopperCurrency(r).Code)
	if err != nil {
		a.priceCallInternal(w, err)
		return
	}
	prices, err := a.d.Pricing.PriceHTMLs(ctx, t, req.ids)
	if err != nil {
		a.priceCallInternal(w, err)
		return
	}
	list, err := a.d.Currencies.Currencies(ctx)
	if err != nil {
		a.priceCallInternal(w, err)
		return
	}
	shortcodes := make([]string, len(req.shortcodes))
	for i, sc := range req.shortcodes {
		shortcodes[i] = switcherHTML(sc, list, t.Currency.Code, a.switcherURL(req.currentURL))
	}
	exchange, err := a.exchangeSnippets(ctx, req.exchange, t)
	if err != nil {
		a.priceCallInternal(w, err)
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

func (a *API) priceCallInternal(w http.ResponseWriter, err error) {
	a.d.Log.Error("price call", "err", err)
	httpx.WriteJSON(w, http.StatusInternalServerError, map[string]any{"success": false,
		"data": map[string]string{"code": "wmc_internal_error", "message": "The prices could not be computed."}})
}

// switcherURL is the page the switchers' links return to: the request's
// wmc_current_url when it is a path on this shop, else "/".
func (a *API) switcherURL(raw string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" || len(raw) > 2000 {
		return &url.URL{Path: "/"}
	}
	if u.IsAbs() || u.Host != "" {
		base, berr := url.Parse(a.d.BaseURL)
		if berr != nil || !strings.EqualFold(u.Host, base.Host) || (u.Scheme != "http" && u.Scheme != "https") {
			return &url.URL{Path: "/"}
		}
	}
	if !strings.HasPrefix(u.Path, "/") {
		return &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Del(CurrencyParam)
	return &url.URL{Path: u.Path, RawQuery: q.Encode()}
}

// currencyLink is page with ?wmc-currency=code.
func currencyLink(page *url.URL, code string) string {
	q := page.Query()
	q.Set(CurrencyParam, code)
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
func (a *API) exchangeSnippets(ctx context.Context, entries []map[string]string, shopper *currency.Table) ([]map[string]string, error) {
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
		amount, err := money.Parse(strings.TrimSpace(e["price"]), a.d.Currency.MinorUnit)
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
	conv, err := a.d.Pricing.Exchange(ctx, shopper, reqs)
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

// currencyCountry is the country of a currency as CURCY answers it in
// current_country (its script shows that country's flag): lower case, "eu"
// for the euro, otherwise the ISO 4217 code's first two letters, which are
// the ISO 3166 country ("us" for USD, "gb" for GBP, "jp" for JPY). The
// X codes (gold, SDR, the CFA francs…) belong to no one country: "".
func currencyCountry(code string) string {
	if len(code) != 3 || code[0]|0x20 == 'x' {
		return ""
	}
	for i := range len(code) {
		if c := code[i] | 0x20; c < 'a' || c > 'z' {
			return ""
		}
	}
	return strings.ToLower(code[:2])
}
