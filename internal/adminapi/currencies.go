package adminapi

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"

	"vitrine/internal/currency"
)

// Currencies and exchange rates (internal/currency): the list with the
// base first, saving one (new or changed), a rate's history, and importing
// a rates file (the ECB's XML or a CSV), as `vitrine currency` does.

type currencyJSON struct {
	Code        string `json:"code"`
	Name        string `json:"name"`
	Base        bool   `json:"base"`
	Decimals    int    `json:"decimals"`
	Symbol      string `json:"symbol"`
	Position    string `json:"position"`
	ThousandSep string `json:"thousand_separator"`
	DecimalSep  string `json:"decimal_separator"`
	Rate        string `json:"rate"`
	RateDate    string `json:"rate_date"`
	Rounding    string `json:"rounding"`
	Step        int64  `json:"step"`
	Ending      int64  `json:"ending"`
	Enabled     bool   `json:"enabled"`
	Order       int    `json:"order"`
}

func currencyOut(c currency.Currency, base bool) currencyJSON {
	return currencyJSON{Code: c.Code, Name: currency.Name(c.Code), Base: base, Decimals: c.Decimals, Symbol: c.Symbol,
		Position: c.Position, ThousandSep: c.ThousandSep, DecimalSep: c.DecimalSep, Rate: c.Rate.String(), RateDate: c.RateDate,
		Rounding: c.Rounding, Step: c.Step, Ending: c.Ending, Enabled: c.Enabled, Order: c.Order}
}

// GET /wp-json/vitrine/v1/admin/currencies
func (a *API) currenciesList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	list, err := a.d.Currencies.All(r.Context())
	if err != nil {
		return err
	}
	out := make([]currencyJSON, len(list))
	for i, c := range list {
		out[i] = currencyOut(c, i == 0)
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// PUT /wp-json/vitrine/v1/admin/currencies/{code}: add or change one.
// Fields left out take the currency's defaults (its ISO symbol and
// decimals) for a new one, and its stored values for a configured one.
func (a *API) currencyPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	code := strings.ToUpper(r.PathValue("code"))
	c, exists, err := a.d.Currencies.Configured(r.Context(), code)
	if err != nil {
		return err
	}
	if !exists {
		d, ok := currency.Defaults(code)
		if !ok {
			return InvalidParam("code", code+" is not a known ISO 4217 currency code.")
		}
		c = d
	}
	var in struct {
		Decimals    *int    `json:"decimals"`
		Symbol      *string `json:"symbol"`
		Position    *string `json:"position"`
		ThousandSep *string `json:"thousand_separator"`
		DecimalSep  *string `json:"decimal_separator"`
		Rate        *string `json:"rate"`
		Rounding    *string `json:"rounding"`
		Step        *int64  `json:"step"`
		Ending      *int64  `json:"ending"`
		Enabled     *bool   `json:"enabled"`
		Order       *int    `json:"order"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	if in.Rate != nil {
		rate, err := currency.ParseRate(*in.Rate)
		if err != nil {
			return InvalidParam("rate", "A rate is a positive decimal number: units of "+code+" for one unit of the base currency.")
		}
		c.Rate = rate
	}
	setIf(&c.Decimals, in.Decimals)
	setIf(&c.Symbol, in.Symbol)
	setIf(&c.Position, in.Position)
	setIf(&c.ThousandSep, in.ThousandSep)
	setIf(&c.DecimalSep, in.DecimalSep)
	setIf(&c.Rounding, in.Rounding)
	setIf(&c.Step, in.Step)
	setIf(&c.Ending, in.Ending)
	setIf(&c.Enabled, in.Enabled)
	setIf(&c.Order, in.Order)
	if err := a.d.Currencies.SaveCurrency(r.Context(), c); err != nil {
		return currencyError(err)
	}
	saved, _, err := a.d.Currencies.Configured(r.Context(), code)
	if err != nil {
		return err
	}
	verb := "changed"
	if !exists {
		verb = "added"
	}
	Note(r, "currency.save", "currency", 0, code+" "+verb+": rate "+saved.Rate.String()+", "+map[bool]string{true: "offered", false: "not offered"}[saved.Enabled])
	WriteJSON(w, http.StatusOK, currencyOut(saved, false))
	return nil
}

// GET /wp-json/vitrine/v1/admin/currencies/{code}/rates
func (a *API) currencyRates(w http.ResponseWriter, r *http.Request, _ Staff) error {
	code := strings.ToUpper(r.PathValue("code"))
	if _, ok, err := a.d.Currencies.Configured(r.Context(), code); err != nil {
		return err
	} else if !ok {
		return errNotFound
	}
	hist, err := a.d.Currencies.RateHistory(r.Context(), code, 100)
	if err != nil {
		return err
	}
	type rateJSON struct {
		Rate   string `json:"rate"`
		Date   string `json:"date"`
		Source string `json:"source"`
	}
	out := make([]rateJSON, len(hist))
	for i, h := range hist {
		out[i] = rateJSON{Rate: h.Rate.String(), Date: h.Date, Source: h.Source}
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// POST /wp-json/vitrine/v1/admin/currencies/rates: a rates file as the
// body (the ECB's XML or a CSV of code,rate[,date]).
func (a *API) currencyImport(w http.ResponseWriter, r *http.Request, _ Staff) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, currency.MaxRateFile+1))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Code: "rest_body_too_large", Message: "The rates file is too large."}
		}
		// The body broke off (a broken chunked encoding, a client gone):
		// the request's fault, answered like every other route's.
		return errInvalidJSON
	}
	if len(body) == 0 {
		return InvalidParam("file", "The rates file is empty.")
	}
	if len(body) > currency.MaxRateFile {
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: "rest_body_too_large", Message: "The rates file is too large."}
	}
	res, err := a.d.Currencies.ImportRates(r.Context(), bytes.NewReader(body), "")
	var fe *currency.FileError
	if errors.As(err, &fe) {
		return InvalidParam("file", fe.Error())
	}
	if err != nil {
		return err
	}
	Note(r, "currency.import", "currency", 0, "Rates imported ("+res.Format+", "+res.Date+"): "+strings.Join(res.Updated, ", "))
	WriteJSON(w, http.StatusOK, map[string]any{"format": res.Format, "date": res.Date, "recorded": res.Recorded,
		"updated": nonNil(res.Updated), "unknown": nonNil(res.Unknown), "stale": nonNil(res.Stale)})
	return nil
}

func currencyError(err error) error {
	var ie *currency.InputError
	if errors.As(err, &ie) {
		return InvalidParam(strings.ReplaceAll(ie.Field, "-", "_"), upperFirst(ie.Message)+".")
	}
	return err
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
