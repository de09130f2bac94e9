package adminapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/settings"
)

// Shipping zones and tax rates (checkout.Rules, kept by settings.Rules):
// the whole document read and saved at once, versioned like the shop's
// settings. Amounts are decimal strings in the shop's base currency, tax
// rates percentages ("7.25"), regions "US" or "US:CA".

type methodJSON struct {
	InstanceID int    `json:"instance_id"`
	MethodID   string `json:"method_id"`
	Title      string `json:"title"`
	Cost       string `json:"cost"`
	Taxable    bool   `json:"taxable"`
	MinAmount  string `json:"min_amount"`
}

type zoneJSON struct {
	ID        int          `json:"id"`
	Name      string       `json:"name"`
	Locations []string     `json:"locations"`
	Methods   []methodJSON `json:"methods"`
}

type taxRateJSON struct {
	ID       int    `json:"id"`
	Country  string `json:"country"`
	State    string `json:"state"`
	Rate     string `json:"rate"`
	Name     string `json:"name"`
	Priority int    `json:"priority"`
	Shipping bool   `json:"shipping"`
}

type rulesJSON struct {
	PricesIncludeTax bool          `json:"prices_include_tax"`
	TaxRates         []taxRateJSON `json:"tax_rates"`
	Zones            []zoneJSON    `json:"zones"`
	RestOfWorld      struct {
		Methods []methodJSON `json:"methods"`
	} `json:"rest_of_world"`
	Version   int64  `json:"version"`
	UpdatedAt string `json:"updated_at,omitempty"`
	// Currency is the base currency the amounts are in (answers only).
	Currency string `json:"currency,omitempty"`
}

// percent writes thousandths of a percent as a percentage ("7.25").
var percent = money.Currency{MinorUnit: 3}

func (a *API) rulesOut(d settings.Doc[checkout.Rules]) rulesJSON {
	c := a.d.Base
	r := d.Value
	out := rulesJSON{PricesIncludeTax: r.PricesIncludeTax, TaxRates: []taxRateJSON{}, Zones: []zoneJSON{}, Version: d.Version,
		UpdatedAt: savedAt(d.UpdatedAt), Currency: c.Code}
	methods := func(ms []checkout.Method) []methodJSON {
		o := []methodJSON{}
		for _, m := range ms {
			o = append(o, methodJSON{InstanceID: m.InstanceID, MethodID: m.Type, Title: m.Title, Cost: plain(c, m.Cost), Taxable: m.Taxable, MinAmount: plain(c, m.MinAmount)})
		}
		return o
	}
	for _, t := range r.TaxRates {
		rate := strings.TrimRight(strings.TrimRight(plain(percent, t.Rate), "0"), ".")
		out.TaxRates = append(out.TaxRates, taxRateJSON{ID: t.ID, Country: t.Country, State: t.State, Rate: rate, Name: t.Label, Priority: t.Priority, Shipping: t.Shipping})
	}
	for _, z := range r.Zones {
		zj := zoneJSON{ID: z.ID, Name: z.Name, Locations: []string{}, Methods: methods(z.Methods)}
		for _, l := range z.Locations {
			code := l.Country
			if l.State != "" {
				code += ":" + l.State
			}
			zj.Locations = append(zj.Locations, code)
		}
		out.Zones = append(out.Zones, zj)
	}
	out.RestOfWorld.Methods = methods(r.RestOfWorld.Methods)
	return out
}

// rulesIn parses the document; an amount or rate that does not parse is
// rest_invalid_param naming its field.
func (a *API) rulesIn(in rulesJSON) (checkout.Rules, error) {
	minor := a.d.Base.MinorUnit
	amount := func(field, v string) (int64, error) {
		if strings.TrimSpace(v) == "" {
			return 0, nil
		}
		n, err := money.Parse(v, minor)
		if err != nil || n < 0 {
			return 0, InvalidParam(field, fmt.Sprintf("An amount such as 5 or 4.99 (at most %d decimals), not negative.", minor))
		}
		return n, nil
	}
	methods := func(prefix string, ms []methodJSON) ([]checkout.Method, error) {
		out := []checkout.Method{}
		for i, m := range ms {
			f := fmt.Sprintf("%smethods[%d].", prefix, i)
			cost, err := amount(f+"cost", m.Cost)
			if err != nil {
				return nil, err
			}
			min, err := amount(f+"min_amount", m.MinAmount)
			if err != nil {
				return nil, err
			}
			out = append(out, checkout.Method{InstanceID: m.InstanceID, Type: m.MethodID, Title: m.Title, Cost: cost, Taxable: m.Taxable, MinAmount: min})
		}
		return out, nil
	}
	r := checkout.Rules{PricesIncludeTax: in.PricesIncludeTax, TaxRates: []checkout.TaxRate{}, Zones: []checkout.Zone{}}
	for i, t := range in.TaxRates {
		rate, err := money.Parse(t.Rate, 3)
		if err != nil {
			return r, InvalidParam(fmt.Sprintf("tax_rates[%d].rate", i), "A percentage such as 20 or 7.25 (at most 3 decimals).")
		}
		r.TaxRates = append(r.TaxRates, checkout.TaxRate{ID: t.ID, Country: t.Country, State: t.State, Rate: rate, Label: t.Name, Priority: t.Priority, Shipping: t.Shipping})
	}
	for i, z := range in.Zones {
		ms, err := methods(fmt.Sprintf("zones[%d].", i), z.Methods)
		if err != nil {
			return r, err
		}
		zone := checkout.Zone{ID: z.ID, Name: z.Name, Methods: ms}
		for _, code := range z.Locations {
			country, state, _ := strings.Cut(strings.TrimSpace(code), ":")
			zone.Locations = append(zone.Locations, checkout.Location{Country: country, State: state})
		}
		r.Zones = append(r.Zones, zone)
	}
	ms, err := methods("rest_of_world.", in.RestOfWorld.Methods)
	if err != nil {
		return r, err
	}
	r.RestOfWorld.Methods = ms
	return r, nil
}

// GET /wp-json/vitrine/v1/admin/shipping-tax
func (a *API) shippingGet(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteJSON(w, http.StatusOK, a.rulesOut(a.d.Rules.Current()))
	return nil
}

// PUT /wp-json/vitrine/v1/admin/shipping-tax: the whole document and the
// version it was read at.
func (a *API) shippingPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in rulesJSON
	version, err := decodeSave(r, &in)
	if err != nil {
		return err
	}
	rules, err := a.rulesIn(in)
	if err != nil {
		return err
	}
	d, err := a.d.Rules.Update(r.Context(), rules, version)
	var re *checkout.RuleError
	switch {
	case errors.Is(err, settings.ErrStale):
		return staleSettings("the shipping and tax settings", a.rulesOut(a.d.Rules.Current()))
	case errors.As(err, &re):
		return InvalidParam(re.Field, re.Message)
	case err != nil:
		return err
	}
	n := 0
	for _, z := range d.Value.Zones {
		n += len(z.Methods)
	}
	Note(r, "settings.shipping_tax", "settings", 0, fmt.Sprintf("Shipping and tax saved: %d zones, %d methods, %d tax rates",
		len(d.Value.Zones), n+len(d.Value.RestOfWorld.Methods), len(d.Value.TaxRates)))
	WriteJSON(w, http.StatusOK, a.rulesOut(d))
	return nil
}
