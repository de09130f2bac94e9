// Package address writes a postal address the way its country writes it:
// the order of the parts, their line breaks, the state and country by
// name, as WooCommerce's address formats do. Every place that shows an
// address (the order-received page, the account's addresses and orders,
// the order mails, the admin's order screen) takes its lines from Format,
// so they never disagree.
//
// Format returns text lines, never markup: an HTML renderer escapes each
// line and joins them with <br>, a text renderer with newlines.
package address

import (
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
)

// formats are the countries' address layouts (WooCommerce's facts): one
// line per "\n", placeholders in braces. "{name}" is the first and last
// name; "_upper" writes a part in capitals; "{state}" is the state's name,
// "{state_code}" its code. Countries not listed use defaultFormat.
const defaultFormat = "{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}\n{postcode}\n{country}"

// Layouts shared by several countries.
const (
	companyFirstPostcodeCity = "{company}\n{name}\n{address_1}\n{address_2}\n{postcode} {city}\n{country}"
)

var formats = map[string]string{
	"AT": companyFirstPostcodeCity,
	"AU": "{name}\n{company}\n{address_1}\n{address_2}\n{city} {state} {postcode}\n{country}",
	"BE": companyFirstPostcodeCity,
	"CA": "{company}\n{name}\n{address_1}\n{address_2}\n{city} {state_code} {postcode}\n{country}",
	"CH": companyFirstPostcodeCity,
	"CL": "{company}\n{name}\n{address_1}\n{address_2}\n{state}\n{postcode} {city}\n{country}",
	"CN": "{country} {postcode}\n{state}, {city}, {address_2}, {address_1}\n{company}\n{name}",
	"CZ": companyFirstPostcodeCity,
	"DE": companyFirstPostcodeCity,
	"DK": companyFirstPostcodeCity,
	"EE": companyFirstPostcodeCity,
	"ES": "{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city}\n{state}\n{country}",
	"FI": companyFirstPostcodeCity,
	"FR": "{company}\n{name}\n{address_1}\n{address_2}\n{postcode} {city_upper}\n{country}",
	"HK": "{company}\n{first_name} {last_name_upper}\n{address_1}\n{address_2}\n{city_upper}\n{state_upper}\n{country}",
	"HU": "{last_name} {first_name}\n{company}\n{city}\n{address_1}\n{address_2}\n{postcode}\n{country}",
	"IN": "{company}\n{name}\n{address_1}\n{address_2}\n{city} {postcode}\n{state}, {country}",
	"IS": companyFirstPostcodeCity,
	"IT": "{company}\n{name}\n{address_1}\n{address_2}\n{postcode}\n{city}\n{state_upper}\n{country}",
	"JM": "{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}\n{postcode_upper}\n{country}",
	"JP": "{postcode}\n{state} {city} {address_1}\n{address_2}\n{company}\n{last_name} {first_name}\n{country}",
	"LI": companyFirstPostcodeCity,
	"NL": companyFirstPostcodeCity,
	"NO": companyFirstPostcodeCity,
	"NZ": "{name}\n{company}\n{address_1}\n{address_2}\n{city} {postcode}\n{country}",
	"PL": companyFirstPostcodeCity,
	"PR": "{company}\n{name}\n{address_1} {address_2}\n{city}\n{country} {postcode}",
	"PT": companyFirstPostcodeCity,
	"RS": "{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city}\n{country}",
	"SE": companyFirstPostcodeCity,
	"SI": companyFirstPostcodeCity,
	"SK": companyFirstPostcodeCity,
	"TR": "{name}\n{company}\n{address_1}\n{address_2}\n{postcode} {city} {state}\n{country}",
	"TW": "{company}\n{last_name} {first_name}\n{address_1}\n{address_2}\n{state}, {city} {postcode}\n{country}",
	"UG": "{name}\n{company}\n{address_1}\n{address_2}\n{city}\n{state}, {country}",
	"US": "{name}\n{company}\n{address_1}\n{address_2}\n{city}, {state_code} {postcode}\n{country}",
	"VN": "{name}\n{company}\n{address_1}\n{city}\n{country}",
}

// Format writes a as lines in its country's layout. The country and a
// listed state are written by name (the checkout's country table,
// internal/checkout); an unknown country or state is written as given.
// The country is left out when it is base, the shop's own country, as
// WooCommerce does ("" base: always written). Empty parts leave no empty
// line, no doubled space and no dangling comma; a part's own line breaks
// and control characters become spaces, so a line is always one line.
// The email and phone are not part of the address: callers show them on
// their own lines.
func Format(a cart.Address, base string) []string {
	first, last := clean(a.FirstName), clean(a.LastName)
	code := strings.ToUpper(clean(a.Country))
	state := clean(a.State)
	country, stateName, stateCode := code, state, strings.ToUpper(state)
	if c, ok := checkout.LookupCountry(code); ok {
		country = c.Name
		if st, ok := c.StateByInput(state); ok && state != "" {
			stateName, stateCode = st.Name, st.Code
		}
	}
	format, ok := formats[code]
	if !ok {
		format = defaultFormat
	}
	if code == "" || strings.EqualFold(code, strings.TrimSpace(base)) {
		country = ""
	}
	city, postcode := clean(a.City), clean(a.Postcode)
	r := strings.NewReplacer(
		"{first_name}", first,
		"{last_name}", last,
		"{last_name_upper}", strings.ToUpper(last),
		"{name}", first+" "+last,
		"{company}", clean(a.Company),
		"{address_1}", clean(a.Address1),
		"{address_2}", clean(a.Address2),
		"{city}", city,
		"{city_upper}", strings.ToUpper(city),
		"{state}", stateName,
		"{state_upper}", strings.ToUpper(stateName),
		"{state_code}", stateCode,
		"{postcode}", postcode,
		"{postcode_upper}", strings.ToUpper(postcode),
		"{country}", country,
	)
	var out []string
	for line := range strings.SplitSeq(format, "\n") {
		line = strings.Join(strings.Fields(r.Replace(line)), " ")
		line = strings.Trim(line, ", ")
		// A comma left before a space by an empty part ("Austin, , 73301").
		for strings.Contains(line, ", ,") {
			line = strings.ReplaceAll(line, ", ,", ",")
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// Blank reports whether a holds no address to show: no name, no street
// and no city (a country alone, as a shipping address of an order that
// ships nowhere may hold, is blank).
func Blank(a cart.Address) bool {
	return clean(a.FirstName) == "" && clean(a.LastName) == "" && clean(a.Company) == "" &&
		clean(a.Address1) == "" && clean(a.City) == ""
}

// Same reports whether two addresses are one, their email and phone
// aside: the checkout's "ship to a different address", and the order
// mails' shipping block.
func Same(a, b cart.Address) bool {
	a.Email, a.Phone, b.Email, b.Phone = "", "", "", ""
	return a == b
}

// clean makes a part one line: control characters (line breaks, tabs)
// become spaces, runs of spaces one, and the ends are trimmed.
func clean(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == '\u00a0'
	}), " ")
}
