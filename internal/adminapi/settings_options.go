package adminapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/settings"
)

// Settings options: WooCommerce REST v3's /wc/v3/settings, its groups and
// their options (reference: wc-v3-settings.http, wc-v3-settings-general.http),
// for the groups that mean something here: general, products, tax,
// shipping and checkout. Each option is mapped to the shop's real
// setting: the store address and country are the shop's settings
// (settings.Service, the admin's Settings screen), prices entered with tax
// is the shipping and tax rules' (settings.Rules). A write goes through the
// setting's own save, with its checks, so the storefront sees it at once
// and the activity log records it. An option Vitrine has no setting for
// answers the shop's behaviour and is read-only: a write is refused with
// 400 rest_setting_setting_invalid and data.read_only (decision 0090).

const settingsPath = wcPrefix + "/settings"

// settingsGroup is one of WooCommerce's groups.
type settingsGroup struct {
	id, label string
	options   []option
}

// option is one setting of a group: what it answers, and how a write sets
// it (nil: read-only).
type option struct {
	id, label, description, typ string
	def                         any
	choices                     func() map[string]string
	value                       func(a *API) any
	set                         func(a *API, ctx context.Context, v string) error
}

type optionJSON struct {
	ID          string            `json:"id"`
	Label       string            `json:"label"`
	Description string            `json:"description"`
	Type        string            `json:"type"`
	Default     any               `json:"default"`
	Options     map[string]string `json:"options,omitempty"`
	Tip         *string           `json:"tip,omitempty"` // WooCommerce's multiselect options have none
	Value       any               `json:"value"`
	Links       map[string][]any  `json:"_links"`
}

type groupJSON struct {
	ID          string           `json:"id"`
	Label       string           `json:"label"`
	Description string           `json:"description"`
	ParentID    string           `json:"parent_id"`
	SubGroups   []string         `json:"sub_groups"`
	Links       map[string][]any `json:"_links"`
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func fixed(v any) func(*API) any { return func(*API) any { return v } }

// shopText is an option kept in the shop's settings document.
func shopText(get func(*settings.Shop) *string) (func(*API) any, func(*API, context.Context, string) error) {
	return func(a *API) any {
			s := a.d.Settings.Current().Shop
			return *get(&s)
		}, func(a *API, ctx context.Context, v string) error {
			_, err := a.d.Settings.Edit(ctx, func(s *settings.Shop) error {
				*get(s) = v
				return nil
			})
			return err
		}
}

// countryChoices are "US" and "US:CA" with their names, as WooCommerce's
// country / state select offers them.
func countryChoices() map[string]string {
	out := map[string]string{}
	for _, c := range checkout.Countries() {
		if len(c.States) == 0 {
			out[c.Code] = c.Name
		}
		for _, s := range c.States {
			out[c.Code+":"+s.Code] = c.Name + " - " + s.Name
		}
	}
	return out
}

// countryOnlyChoices are the countries by code (the multiselects').
func countryOnlyChoices() map[string]string {
	out := map[string]string{}
	for _, c := range checkout.Countries() {
		out[c.Code] = c.Name
	}
	return out
}

func (a *API) settingsGroups() []settingsGroup {
	addr1Get, addr1Set := shopText(func(s *settings.Shop) *string { return &s.Address.Line1 })
	addr2Get, addr2Set := shopText(func(s *settings.Shop) *string { return &s.Address.Line2 })
	cityGet, citySet := shopText(func(s *settings.Shop) *string { return &s.Address.City })
	postGet, postSet := shopText(func(s *settings.Shop) *string { return &s.Address.Postcode })
	c := a.d.Base
	return []settingsGroup{
		{id: "general", label: "General", options: []option{
			{id: "woocommerce_store_address", label: "Address line 1", typ: "text", def: "",
				description: "The street address for your business location.", value: addr1Get, set: addr1Set},
			{id: "woocommerce_store_address_2", label: "Address line 2", typ: "text", def: "",
				description: "An additional, optional address line for your business location.", value: addr2Get, set: addr2Set},
			{id: "woocommerce_store_city", label: "City", typ: "text", def: "",
				description: "The city in which your business is located.", value: cityGet, set: citySet},
			{id: "woocommerce_default_country", label: "Country / State", typ: "select", def: "US:CA", choices: countryChoices,
				description: "The country and state or province, if any, in which your business is located.",
				value: func(a *API) any {
					ad := a.d.Settings.Current().Address
					if ad.State != "" {
						return ad.Country + ":" + ad.State
					}
					return ad.Country
				}, set: setShopCountry},
			{id: "woocommerce_store_postcode", label: "Postcode / ZIP", typ: "text", def: "",
				description: "The postal code, if any, in which your business is located.", value: postGet, set: postSet},
			{id: "woocommerce_allowed_countries", label: "Selling location(s)", typ: "select", def: "all",
				description: "This option lets you limit which countries you are willing to sell to.",
				choices:     fixedChoices("all", "Sell to all countries"), value: fixed("all")},
			{id: "woocommerce_all_except_countries", label: "Sell to all countries, except for&hellip;", typ: "multiselect", def: "", choices: countryOnlyChoices, value: fixed("")},
			{id: "woocommerce_specific_allowed_countries", label: "Sell to specific countries", typ: "multiselect", def: "", choices: countryOnlyChoices, value: fixed("")},
			{id: "woocommerce_ship_to_countries", label: "Shipping location(s)", typ: "select", def: "",
				description: "Choose which countries you want to ship to, or choose to ship to all locations you sell to.",
				choices:     fixedChoices("", "Ship to all countries you sell to"), value: fixed("")},
			{id: "woocommerce_specific_ship_to_countries", label: "Ship to specific countries", typ: "multiselect", def: "", choices: countryOnlyChoices, value: fixed("")},
			{id: "woocommerce_default_customer_address", label: "Default customer location", typ: "select", def: "base",
				description: "This option determines a customers default location. The MaxMind GeoLite Database will be periodically downloaded to your wp-content directory if using geolocation.",
				choices:     fixedChoices("base", "Shop country/region"), value: fixed("base")},
			{id: "woocommerce_address_autocomplete_enabled", label: "Enable address autocomplete", typ: "checkbox", def: "no",
				description: "Suggest addresses as customers type them at checkout.", value: fixed("no")},
			{id: "woocommerce_calc_taxes", label: "Enable tax rates and calculations", typ: "checkbox", def: "no",
				description: "Rates will be configurable and taxes will be calculated during checkout.",
				value:       func(a *API) any { return yesNo(len(a.d.Rules.Current().Value.TaxRates) > 0) }},
			{id: "woocommerce_enable_coupons", label: "Enable the use of coupon codes", typ: "checkbox", def: "yes",
				description: "Coupons can be applied from the cart and checkout pages.", value: fixed("yes")},
			{id: "woocommerce_calc_discounts_sequentially", label: "Calculate coupon discounts sequentially", typ: "checkbox", def: "no",
				description: "When applying multiple coupons, apply the first coupon to the full price and the second coupon to the discounted price and so on.",
				value:       fixed("no")},
			{id: "woocommerce_price_thousand_sep", label: "Thousand separator", typ: "text", def: ",",
				description: "This sets the thousand separator of displayed prices.", value: fixed(c.ThousandSeparator)},
			{id: "woocommerce_price_decimal_sep", label: "Decimal separator", typ: "text", def: ".",
				description: "This sets the decimal separator of displayed prices.", value: fixed(c.DecimalSeparator)},
		}},
		{id: "products", label: "Products", options: []option{
			{id: "woocommerce_weight_unit", label: "Weight unit", typ: "select", def: "kg",
				description: "This controls what unit you will define weights in.", choices: fixedChoices("kg", "kg"), value: fixed("kg")},
			{id: "woocommerce_dimension_unit", label: "Dimensions unit", typ: "select", def: "cm",
				description: "This controls what unit you will define lengths in.", choices: fixedChoices("cm", "cm"), value: fixed("cm")},
			{id: "woocommerce_enable_reviews", label: "Enable product reviews", typ: "checkbox", def: "yes",
				description: "Customers can review the products.", value: fixed("yes")},
			{id: "woocommerce_enable_ajax_add_to_cart", label: "Enable AJAX add to cart buttons on archives", typ: "checkbox", def: "yes",
				description: "Add to cart buttons on archives add without leaving the page.", value: fixed("yes")},
			{id: "woocommerce_manage_stock", label: "Enable stock management", typ: "checkbox", def: "yes",
				description: "Products that track their stock count it down with each order.", value: fixed("yes")},
		}},
		{id: "tax", label: "Tax", options: []option{
			{id: "woocommerce_prices_include_tax", label: "Prices entered with tax", typ: "radio", def: "no",
				choices:     fixedChoices("yes", "Yes, I will enter prices inclusive of tax", "no", "No, I will enter prices exclusive of tax"),
				description: "This option is important as it will affect how you input prices. Changing it will not update existing products.",
				value:       func(a *API) any { return yesNo(a.d.Rules.Current().Value.PricesIncludeTax) }, set: setPricesIncludeTax},
			{id: "woocommerce_tax_based_on", label: "Calculate tax based on", typ: "select", def: "shipping",
				description: "This option determines which address is used to calculate tax.",
				choices:     fixedChoices("shipping", "Customer shipping address"), value: fixed("shipping")},
			{id: "woocommerce_tax_classes", label: "Additional tax classes", typ: "textarea", def: "",
				description: "List additional tax classes you need below (1 per line, e.g. Reduced Rates). These are in addition to \"Standard rate\" which exists by default.",
				value: func(*API) any {
					var names []string
					for _, c := range catalog.TaxClasses[1:] {
						names = append(names, taxClassNames[c])
					}
					return strings.Join(names, "\n")
				}},
		}},
		{id: "shipping", label: "Shipping", options: []option{
			{id: "woocommerce_enable_shipping_calc", label: "Calculations", typ: "checkbox", def: "yes",
				description: "Enable the shipping calculator on the cart page", value: fixed("yes")},
			{id: "woocommerce_ship_to_destination", label: "Shipping destination", typ: "radio", def: "billing",
				description: "This controls which shipping address is used by default.",
				choices:     fixedChoices("shipping", "Default to customer shipping address"), value: fixed("shipping")},
			{id: "woocommerce_shipping_debug_mode", label: "Debug mode", typ: "checkbox", def: "no",
				description: "Enable debug mode", value: fixed("no")},
		}},
		{id: "checkout", label: "Payments", options: []option{
			{id: "woocommerce_default_gateway", label: "Default payment method", typ: "select", def: "",
				description: "The payment method selected first at checkout: the first one enabled.",
				value: func(a *API) any {
					for _, g := range a.gatewaysOut(a.d.Payments.Current().Value) {
						if g.Enabled {
							return g.ID
						}
					}
					return ""
				}},
		}},
	}
}

func fixedChoices(kv ...string) func() map[string]string {
	return func() map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
}

func setShopCountry(a *API, ctx context.Context, v string) error {
	country, state, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(v)), ":")
	c, ok := checkout.LookupCountry(country)
	if !ok || (state != "" && !slices.ContainsFunc(c.States, func(s checkout.State) bool { return s.Code == state })) ||
		(state == "" && len(c.States) > 0 && v != "") {
		return &settings.InputError{Field: "value", Message: "A country code, or a country and one of its states, such as US:CA (the option's choices)."}
	}
	_, err := a.d.Settings.Edit(ctx, func(s *settings.Shop) error {
		s.Address.Country, s.Address.State = country, state
		return nil
	})
	return err
}

func setPricesIncludeTax(a *API, ctx context.Context, v string) error {
	if v != "yes" && v != "no" {
		return &settings.InputError{Field: "value", Message: "yes or no."}
	}
	_, err := a.d.Rules.Edit(ctx, func(r *checkout.Rules) error {
		r.PricesIncludeTax = v == "yes"
		return nil
	})
	return err
}

var (
	errSettingsGroup = &Error{Status: http.StatusNotFound, Code: "rest_setting_setting_group_invalid", Message: "Invalid setting group."}
	errSettingID     = &Error{Status: http.StatusNotFound, Code: "rest_setting_setting_invalid", Message: "Invalid setting."}
)

func errReadOnly(id string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "rest_setting_setting_invalid",
		Message: "Vitrine has no setting behind " + id + ": it is read-only and answers how the shop behaves.",
		Data:    map[string]any{"read_only": true}}
}

func (a *API) group(id string) (settingsGroup, error) {
	for _, g := range a.settingsGroups() {
		if g.id == id {
			return g, nil
		}
	}
	return settingsGroup{}, errSettingsGroup
}

func (g settingsGroup) option(id string) (option, error) {
	for _, o := range g.options {
		if o.id == id {
			return o, nil
		}
	}
	return option{}, errSettingID
}

func (a *API) optionOut(group string, o option) optionJSON {
	self := a.d.BaseURL + settingsPath + "/" + group + "/" + o.id
	methods := []string{"GET", "POST", "PUT", "PATCH"}
	if o.set == nil {
		methods = []string{"GET"}
	}
	out := optionJSON{ID: o.id, Label: o.label, Description: o.description, Type: o.typ, Default: o.def,
		Value: o.value(a), Links: map[string][]any{"self": {allow(self, methods...)}, "collection": {link(a.d.BaseURL + settingsPath + "/" + group)}}}
	if o.choices != nil {
		out.Options = o.choices()
	}
	if o.typ != "multiselect" {
		tip := o.description
		out.Tip = &tip
	}
	return out
}

// GET /wp-json/wc/v3/settings: the groups.
func (a *API) settingsGroupsList(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	var out []groupJSON
	for _, g := range a.settingsGroups() {
		out = append(out, groupJSON{ID: g.id, Label: g.label, SubGroups: []string{},
			Links: map[string][]any{"options": {link(a.d.BaseURL + settingsPath + "/" + g.id)}}})
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// GET /wp-json/wc/v3/settings/{group}
func (a *API) settingsGroupGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	g, err := a.group(r.PathValue("group_id"))
	if err != nil {
		return err
	}
	out := make([]optionJSON, 0, len(g.options))
	for _, o := range g.options {
		out = append(out, a.optionOut(g.id, o))
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// GET /wp-json/wc/v3/settings/{group}/{id}
func (a *API) settingGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	g, err := a.group(r.PathValue("group_id"))
	if err != nil {
		return err
	}
	o, err := g.option(r.PathValue("id"))
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, a.optionOut(g.id, o))
	return nil
}

// setOption writes one option's value (raw JSON: a string).
func (a *API) setOption(ctx context.Context, g settingsGroup, id string, raw json.RawMessage) (optionJSON, error) {
	o, err := g.option(id)
	if err != nil {
		return optionJSON{}, err
	}
	if o.set == nil {
		return optionJSON{}, errReadOnly(id)
	}
	var v string
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return optionJSON{}, &Error{Status: http.StatusBadRequest, Code: "rest_setting_value_invalid", Message: "An invalid setting value was passed.",
			Data: map[string]any{"params": map[string]string{"value": "The value is a string."}}}
	}
	if err := o.set(a, ctx, v); err != nil {
		return optionJSON{}, optionError(err)
	}
	return a.optionOut(g.id, o), nil
}

// optionError maps a setting's refusal to WooCommerce's invalid value.
func optionError(err error) error {
	var ie *settings.InputError
	var re *checkout.RuleError
	switch {
	case errors.As(err, &ie):
		return &Error{Status: http.StatusBadRequest, Code: "rest_setting_value_invalid", Message: "An invalid setting value was passed: " + ie.Message,
			Data: map[string]any{"params": map[string]string{"value": ie.Message}}}
	case errors.As(err, &re):
		return &Error{Status: http.StatusBadRequest, Code: "rest_setting_value_invalid", Message: "An invalid setting value was passed: " + re.Message,
			Data: map[string]any{"params": map[string]string{"value": re.Message}}}
	}
	return err
}

// PUT /wp-json/wc/v3/settings/{group}/{id} {"value"}
func (a *API) settingPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	g, err := a.group(r.PathValue("group_id"))
	if err != nil {
		return err
	}
	var in struct {
		Value json.RawMessage `json:"value"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	out, err := a.setOption(r.Context(), g, r.PathValue("id"), in.Value)
	if err != nil {
		return err
	}
	Note(r, "settings.option", "settings", 0, "Setting "+out.ID+" changed through the REST API")
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// POST /wp-json/wc/v3/settings/{group}/batch {"update":[{"id","value"}]}
func (a *API) settingsBatch(w http.ResponseWriter, r *http.Request, _ Staff) error {
	g, err := a.group(r.PathValue("group_id"))
	if err != nil {
		return err
	}
	var in struct {
		Update []struct {
			ID    string          `json:"id"`
			Value json.RawMessage `json:"value"`
		} `json:"update"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	if len(in.Update) > MaxBulk {
		return errBatchTooLarge
	}
	var changed []string
	out := []any{}
	for _, u := range in.Update {
		o, err := a.setOption(r.Context(), g, u.ID, u.Value)
		if err != nil {
			e, ok := asError(err)
			if !ok {
				return err
			}
			out = append(out, map[string]any{"id": u.ID, "error": errorBody(e)})
			continue
		}
		changed = append(changed, o.ID)
		out = append(out, o)
	}
	Note(r, "settings.option", "settings", 0, "Settings changed through the REST API: "+strconv.Itoa(len(changed))+" ("+strings.Join(changed, ", ")+")")
	WriteJSON(w, http.StatusOK, map[string]any{"update": out})
	return nil
}
