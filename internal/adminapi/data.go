package adminapi

import (
	"net/http"
	"strings"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// Reference data: WooCommerce REST v3's /data/currencies, /data/countries
// and /data/continents, from the shop's own tables (money's currencies,
// checkout's countries: the ones the shop can sell to).

const dataPath = wcPrefix + "/data"

func dataLinks(base, self, collection string) map[string][]any {
	return map[string][]any{
		"self":       {map[string]any{"href": base + self, "targetHints": map[string]any{"allow": []string{"GET"}}}},
		"collection": {map[string]string{"href": base + collection}},
	}
}

type currencyDataJSON struct {
	Code   string           `json:"code"`
	Name   string           `json:"name"`
	Symbol string           `json:"symbol"`
	Links  map[string][]any `json:"_links"`
}

func (a *API) currencyData(code string) currencyDataJSON {
	c, _ := money.Lookup(code)
	return currencyDataJSON{Code: c.Code, Name: money.Name(c.Code), Symbol: c.Symbol,
		Links: dataLinks(a.d.BaseURL, dataPath+"/currencies/"+c.Code, dataPath+"/currencies")}
}

// GET /wp-json/wc/v3/data/currencies
func (a *API) dataCurrencies(w http.ResponseWriter, r *http.Request, _ Staff) error {
	out := []currencyDataJSON{}
	for _, code := range money.Codes() {
		out = append(out, a.currencyData(code))
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

var errDataInvalid = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_data_invalid_location", Message: "There are no locations matching these parameters."}

// GET /wp-json/wc/v3/data/currencies/{code}; "current" is the shop's.
func (a *API) dataCurrency(w http.ResponseWriter, r *http.Request, _ Staff) error {
	code := strings.ToUpper(r.PathValue("code"))
	if code == "CURRENT" {
		code = a.d.Base.Code
	}
	if _, ok := money.Lookup(code); !ok {
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_data_invalid_currency", Message: "There are no currencies matching these parameters."}
	}
	WriteJSON(w, http.StatusOK, a.currencyData(code))
	return nil
}

type countryDataJSON struct {
	Code   string           `json:"code"`
	Name   string           `json:"name"`
	States []checkout.State `json:"states"`
	Links  map[string][]any `json:"_links,omitempty"`
}

func (a *API) countryData(c *checkout.Country, links bool) countryDataJSON {
	out := countryDataJSON{Code: c.Code, Name: c.Name, States: c.States}
	if out.States == nil {
		out.States = []checkout.State{}
	}
	if links {
		out.Links = dataLinks(a.d.BaseURL, dataPath+"/countries/"+strings.ToLower(c.Code), dataPath+"/countries")
	}
	return out
}

// GET /wp-json/wc/v3/data/countries
func (a *API) dataCountries(w http.ResponseWriter, r *http.Request, _ Staff) error {
	out := []countryDataJSON{}
	for _, c := range checkout.Countries() {
		out = append(out, a.countryData(c, true))
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// GET /wp-json/wc/v3/data/countries/{code}
func (a *API) dataCountry(w http.ResponseWriter, r *http.Request, _ Staff) error {
	c, ok := checkout.LookupCountry(r.PathValue("code"))
	if !ok {
		return errDataInvalid
	}
	WriteJSON(w, http.StatusOK, a.countryData(c, true))
	return nil
}

// continents are WooCommerce's continent codes and names, with the
// continent of each country the shop knows.
var continents = []struct{ code, name string }{
	{"AF", "Africa"}, {"AN", "Antarctica"}, {"AS", "Asia"}, {"EU", "Europe"},
	{"NA", "North America"}, {"OC", "Oceania"}, {"SA", "South America"},
}

var continentOf = map[string]string{"AU": "OC", "CA": "NA", "US": "NA", "JP": "AS",
	"DE": "EU", "ES": "EU", "FR": "EU", "GB": "EU", "IT": "EU", "NL": "EU"}

type continentJSON struct {
	Code      string            `json:"code"`
	Name      string            `json:"name"`
	Countries []countryDataJSON `json:"countries"`
	Links     map[string][]any  `json:"_links"`
}

func (a *API) continentData(code, name string) continentJSON {
	out := continentJSON{Code: code, Name: name, Countries: []countryDataJSON{},
		Links: dataLinks(a.d.BaseURL, dataPath+"/continents/"+strings.ToLower(code), dataPath+"/continents")}
	for _, c := range checkout.Countries() {
		if continentOf[c.Code] == code {
			out.Countries = append(out.Countries, a.countryData(c, false))
		}
	}
	return out
}

// GET /wp-json/wc/v3/data/continents: every continent, with the shop's
// countries on it.
func (a *API) dataContinents(w http.ResponseWriter, r *http.Request, _ Staff) error {
	out := make([]continentJSON, 0, len(continents))
	for _, c := range continents {
		out = append(out, a.continentData(c.code, c.name))
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// GET /wp-json/wc/v3/data/continents/{code}
func (a *API) dataContinent(w http.ResponseWriter, r *http.Request, _ Staff) error {
	code := strings.ToUpper(r.PathValue("code"))
	for _, c := range continents {
		if c.code == code {
			WriteJSON(w, http.StatusOK, a.continentData(c.code, c.name))
			return nil
		}
	}
	return errDataInvalid
}
