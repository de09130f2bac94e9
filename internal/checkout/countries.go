// Package checkout holds the rules of turning a cart into an order as plain,
// table-tested functions: the countries the shop sells to and their address
// fields, address validation with WooCommerce's messages, shipping zones and
// methods, taxes, the one price function Quote (used by the cart, the
// checkout and the wallet), orders and their statuses, and order
// attribution. Money is int64 minor units; nothing here does I/O.
package checkout

import (
	"regexp"
	"slices"
	"strings"
)

// Field is how a country shows one address field.
type Field struct {
	Label    string `json:"label"`
	Required bool   `json:"required"`
	Hidden   bool   `json:"hidden"`
}

// State is a state, province or county a country lists.
type State struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Country is a country the shop knows, with its address-field rules (like
// WooCommerce's locale table): labels, which fields are required or hidden,
// the states it lists, and its postcode format.
type Country struct {
	Code   string
	Name   string
	States []State // empty: the state is free text (or hidden)
	// Fields overrides the default rule for state, postcode, city,
	// address_2 and company.
	Fields map[string]Field
	// Postcode, when set, is the format a postcode must match (after
	// Normalize: upper case, single spaces).
	Postcode *regexp.Regexp
}

// LocaleFields are the fields whose rules vary by country.
var LocaleFields = []string{"state", "postcode", "city", "address_2", "company"}

// defaultFields are WooCommerce's default locale rules.
var defaultFields = map[string]Field{
	"state":     {Label: "State / County", Required: true},
	"postcode":  {Label: "Postcode / ZIP", Required: true},
	"city":      {Label: "Town / City", Required: true},
	"address_2": {Label: "Apartment, suite, unit, etc.", Required: false},
	"company":   {Label: "Company name", Required: false},
}

// FieldRule is the rule of a locale field for the country.
func (c *Country) FieldRule(name string) Field {
	if f, ok := c.Fields[name]; ok {
		return f
	}
	return defaultFields[name]
}

// StateByInput finds a listed state by code or name (case-insensitive).
func (c *Country) StateByInput(s string) (State, bool) {
	s = strings.TrimSpace(s)
	for _, st := range c.States {
		if strings.EqualFold(st.Code, s) || strings.EqualFold(st.Name, s) {
			return st, true
		}
	}
	return State{}, false
}

func hidden(label string) Field { return Field{Label: label, Hidden: true} }

var countries = []*Country{
	{Code: "AU", Name: "Australia", States: []State{
		{"ACT", "Australian Capital Territory"}, {"NSW", "New South Wales"}, {"NT", "Northern Territory"},
		{"QLD", "Queensland"}, {"SA", "South Australia"}, {"TAS", "Tasmania"}, {"VIC", "Victoria"},
		{"WA", "Western Australia"}},
		Fields: map[string]Field{
			"state":    {Label: "State", Required: true},
			"postcode": {Label: "Postcode", Required: true},
			"city":     {Label: "Suburb", Required: true},
		},
		Postcode: regexp.MustCompile(`^\d{4}$`)},
	{Code: "CA", Name: "Canada", States: []State{
		{"AB", "Alberta"}, {"BC", "British Columbia"}, {"MB", "Manitoba"}, {"NB", "New Brunswick"},
		{"NL", "Newfoundland and Labrador"}, {"NT", "Northwest Territories"}, {"NS", "Nova Scotia"},
		{"NU", "Nunavut"}, {"ON", "Ontario"}, {"PE", "Prince Edward Island"}, {"QC", "Quebec"},
		{"SK", "Saskatchewan"}, {"YT", "Yukon Territory"}},
		Fields: map[string]Field{
			"state":    {Label: "Province", Required: true},
			"postcode": {Label: "Postal code", Required: true},
		},
		Postcode: regexp.MustCompile(`^[ABCEGHJKLMNPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d$`)},
	{Code: "DE", Name: "Germany",
		Fields:   map[string]Field{"state": hidden("State"), "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^(0[1-9]|[1-9]\d)\d{3}$`)},
	{Code: "ES", Name: "Spain",
		Fields:   map[string]Field{"state": {Label: "Province"}, "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^(0[1-9]|[1-4]\d|5[0-2])\d{3}$`)},
	{Code: "FR", Name: "France",
		Fields:   map[string]Field{"state": hidden("State"), "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^\d{5}$`)},
	{Code: "GB", Name: "United Kingdom (UK)",
		Fields: map[string]Field{
			"state":    {Label: "County", Required: false},
			"postcode": {Label: "Postcode", Required: true},
		},
		Postcode: regexp.MustCompile(`^([A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}|GIR 0AA)$`)},
	{Code: "IT", Name: "Italy",
		Fields:   map[string]Field{"state": {Label: "Province"}, "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^\d{5}$`)},
	{Code: "JP", Name: "Japan",
		Fields:   map[string]Field{"state": {Label: "Prefecture"}, "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^\d{3}-\d{4}$`)},
	{Code: "NL", Name: "Netherlands",
		Fields:   map[string]Field{"state": hidden("Province"), "postcode": {Label: "Postcode", Required: true}},
		Postcode: regexp.MustCompile(`^[1-9]\d{3} [A-Z]{2}$`)},
	{Code: "US", Name: "United States (US)", States: []State{
		{"AL", "Alabama"}, {"AK", "Alaska"}, {"AZ", "Arizona"}, {"AR", "Arkansas"}, {"CA", "California"},
		{"CO", "Colorado"}, {"CT", "Connecticut"}, {"DE", "Delaware"}, {"DC", "District Of Columbia"},
		{"FL", "Florida"}, {"GA", "Georgia"}, {"HI", "Hawaii"}, {"ID", "Idaho"}, {"IL", "Illinois"},
		{"IN", "Indiana"}, {"IA", "Iowa"}, {"KS", "Kansas"}, {"KY", "Kentucky"}, {"LA", "Louisiana"},
		{"ME", "Maine"}, {"MD", "Maryland"}, {"MA", "Massachusetts"}, {"MI", "Michigan"}, {"MN", "Minnesota"},
		{"MS", "Mississippi"}, {"MO", "Missouri"}, {"MT", "Montana"}, {"NE", "Nebraska"}, {"NV", "Nevada"},
		{"NH", "New Hampshire"}, {"NJ", "New Jersey"}, {"NM", "New Mexico"}, {"NY", "New York"},
		{"NC", "North Carolina"}, {"ND", "North Dakota"}, {"OH", "Ohio"}, {"OK", "Oklahoma"}, {"OR", "Oregon"},
		{"PA", "Pennsylvania"}, {"RI", "Rhode Island"}, {"SC", "South Carolina"}, {"SD", "South Dakota"},
		{"TN", "Tennessee"}, {"TX", "Texas"}, {"UT", "Utah"}, {"VT", "Vermont"}, {"VA", "Virginia"},
		{"WA", "Washington"}, {"WV", "West Virginia"}, {"WI", "Wisconsin"}, {"WY", "Wyoming"},
		{"AA", "Armed Forces (AA)"}, {"AE", "Armed Forces (AE)"}, {"AP", "Armed Forces (AP)"},
		{"AS", "American Samoa"}, {"GU", "Guam"}, {"MP", "Northern Mariana Islands"}, {"PR", "Puerto Rico"},
		{"UM", "US Minor Outlying Islands"}, {"VI", "US Virgin Islands"}},
		Fields: map[string]Field{
			"state":    {Label: "State", Required: true},
			"postcode": {Label: "ZIP Code", Required: true},
		},
		Postcode: regexp.MustCompile(`^\d{5}(-\d{4})?$`)},
}

// Countries lists every known country, by name.
func Countries() []*Country {
	out := slices.Clone(countries)
	slices.SortFunc(out, func(a, b *Country) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// LookupCountry finds a country by its ISO code (case-insensitive).
func LookupCountry(code string) (*Country, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	for _, c := range countries {
		if c.Code == code {
			return c, true
		}
	}
	return nil, false
}

// NormalizePostcode writes a postcode the way WooCommerce stores it: upper
// case, spaces collapsed, and the country's usual separator (a space before
// the inward code in CA and GB, "1234 AB" in NL, a dash in JP).
func NormalizePostcode(country, pc string) string {
	pc = strings.ToUpper(strings.Join(strings.Fields(pc), " "))
	compact := strings.NewReplacer(" ", "", "-", "").Replace(pc)
	switch strings.ToUpper(country) {
	case "CA", "GB":
		if len(compact) > 3 {
			return compact[:len(compact)-3] + " " + compact[len(compact)-3:]
		}
	case "NL":
		if len(compact) == 6 {
			return compact[:4] + " " + compact[4:]
		}
	case "JP":
		if len(compact) == 7 {
			return compact[:3] + "-" + compact[3:]
		}
	}
	return pc
}

// ValidPostcode reports whether a (normalized) postcode fits the country's
// format; countries without a known format accept any.
func ValidPostcode(country, pc string) bool {
	c, ok := LookupCountry(country)
	if !ok || c.Postcode == nil {
		return true
	}
	if !c.Postcode.MatchString(pc) {
		return false
	}
	if c.Code == "NL" { // SA, SD and SS are never issued
		suffix := pc[len(pc)-2:]
		return suffix != "SA" && suffix != "SD" && suffix != "SS"
	}
	return true
}
