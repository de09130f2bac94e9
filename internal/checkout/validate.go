package checkout

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"vitrine/internal/cart"
)

// Address is a billing or shipping address (the Store API's address object).
type Address = cart.Address

// FieldError is one refused checkout field. Field is the classic form name
// ("billing_first_name"); Group and Key split it for the Store API
// ("billing_address", "first_name"). Message is WooCommerce's wording, plain
// text (no markup).
type FieldError struct {
	Field   string `json:"field"`
	Group   string `json:"group"`
	Key     string `json:"key"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ValidationError is a checkout refused for its input: every field error
// found, in form order, plus notices not tied to a field (terms).
type ValidationError struct {
	Fields  []FieldError
	Notices []string
}

func (e *ValidationError) Error() string {
	var parts []string
	for _, f := range e.Fields {
		parts = append(parts, f.Message)
	}
	return "checkout validation: " + strings.Join(append(parts, e.Notices...), " ")
}

// Messages lists every message in order: notices first, then fields.
func (e *ValidationError) Messages() []string {
	out := append([]string{}, e.Notices...)
	for _, f := range e.Fields {
		out = append(out, f.Message)
	}
	return out
}

// Spec messages.
const (
	MsgTerms = "Please read and accept the terms and conditions to proceed with your order."
)

// fieldLabels are WooCommerce's classic checkout labels.
var fieldLabels = map[string]string{
	"first_name": "First name", "last_name": "Last name", "company": "Company name",
	"country": "Country / Region", "address_1": "Street address", "address_2": "Apartment, suite, unit, etc.",
	"city": "Town / City", "state": "State / County", "postcode": "Postcode / ZIP",
	"phone": "Phone", "email": "Email address",
}

// AddressFields are the address keys in form order.
var AddressFields = []string{"first_name", "last_name", "company", "country", "address_1", "address_2",
	"city", "state", "postcode", "phone", "email"}

// maxLen bounds each field in characters.
var maxLen = map[string]int{
	"first_name": 100, "last_name": 100, "company": 200, "country": 2, "address_1": 200, "address_2": 200,
	"city": 100, "state": 100, "postcode": 20, "phone": 40, "email": 254,
}

// Label is the field's label for a country ("ZIP Code" for a US postcode).
func Label(key string, c *Country) string {
	if c != nil && (key == "state" || key == "postcode" || key == "city" || key == "address_2" || key == "company") {
		if l := c.FieldRule(key).Label; l != "" {
			return l
		}
	}
	return fieldLabels[key]
}

// AddressRules are the shop's address settings.
type AddressRules struct {
	// Allowed limits the countries accepted; empty: every known country.
	Allowed []string
	// PhoneRequired makes the billing phone required.
	PhoneRequired bool
}

func (r AddressRules) allows(code string) bool {
	if len(r.Allowed) == 0 {
		return true
	}
	for _, a := range r.Allowed {
		if strings.EqualFold(a, code) {
			return true
		}
	}
	return false
}

// Clean drops control characters and surrounding spaces and collapses
// inner runs of white space (WordPress's sanitize_text_field, without the
// tag stripping: values are always escaped on output).
func Clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func get(a *Address, key string) *string {
	switch key {
	case "first_name":
		return &a.FirstName
	case "last_name":
		return &a.LastName
	case "company":
		return &a.Company
	case "country":
		return &a.Country
	case "address_1":
		return &a.Address1
	case "address_2":
		return &a.Address2
	case "city":
		return &a.City
	case "state":
		return &a.State
	case "postcode":
		return &a.Postcode
	case "phone":
		return &a.Phone
	case "email":
		return &a.Email
	}
	return nil
}

// AddressValue returns one field of an address by key.
func AddressValue(a *Address, key string) string {
	if p := get(a, key); p != nil {
		return *p
	}
	return ""
}

// SetAddressValue sets one field of an address by key.
func SetAddressValue(a *Address, key, v string) {
	if p := get(a, key); p != nil {
		*p = v
	}
}

// ValidateAddress cleans and normalizes a (country and state codes upper
// case, a state name turned into its code, the postcode formatted, hidden
// fields emptied) and checks it. group is "billing" or "shipping"; only
// billing has an email. It returns the refused fields in form order.
func ValidateAddress(group string, a *Address, rules AddressRules) []FieldError {
	prefix := "Billing "
	if group == "shipping" {
		prefix = "Shipping "
		a.Email = ""
	}
	for _, k := range AddressFields {
		p := get(a, k)
		*p = Clean(*p)
	}
	a.Country = strings.ToUpper(a.Country)
	country, known := LookupCountry(a.Country)
	if known && !rules.allows(country.Code) {
		known = false
	}
	var errs []FieldError
	add := func(key, code, msg string) {
		errs = append(errs, FieldError{Field: group + "_" + key, Group: group + "_address", Key: key, Code: code, Message: msg})
	}
	label := func(key string) string {
		if !known {
			return prefix + Label(key, nil)
		}
		return prefix + Label(key, country)
	}
	for _, k := range AddressFields {
		v := *get(a, k)
		if k == "email" && group == "shipping" {
			continue
		}
		required := k == "first_name" || k == "last_name" || k == "country" || k == "address_1" || k == "email" ||
			(k == "phone" && group == "billing" && rules.PhoneRequired)
		if k == "city" || k == "state" || k == "postcode" || k == "address_2" || k == "company" {
			rule := defaultFields[k]
			if known {
				rule = country.FieldRule(k)
			}
			if rule.Hidden {
				*get(a, k) = ""
				continue
			}
			required = rule.Required
			if !known && a.Country != "" && (k == "state" || k == "postcode") {
				continue // the country is refused; its rules are unknown
			}
			if k == "state" && known && len(country.States) == 0 && !rule.Required {
				required = false
			}
		}
		if utf8.RuneCountInString(v) > maxLen[k] && k != "country" {
			add(k, "too_long", fmt.Sprintf("%s is too long.", label(k)))
			continue
		}
		if v == "" {
			if required {
				add(k, "required", fmt.Sprintf("%s is a required field.", label(k)))
			}
			continue
		}
		switch k {
		case "country":
			if !known {
				add(k, "invalid_country", fmt.Sprintf("'%s' is not a valid country code.", v))
			}
		case "state":
			if known && len(country.States) > 0 {
				st, ok := country.StateByInput(v)
				if !ok {
					names := make([]string, len(country.States))
					for i, s := range country.States {
						names[i] = s.Name
					}
					add(k, "invalid_state", fmt.Sprintf("%s is not valid. Please enter one of the following: %s",
						label(k), strings.Join(names, ", ")))
					continue
				}
				a.State = st.Code
			}
		case "postcode":
			if known {
				a.Postcode = NormalizePostcode(country.Code, v)
				if !ValidPostcode(country.Code, a.Postcode) {
					add(k, "invalid_postcode", fmt.Sprintf("%s is not a valid postcode / ZIP.", label(k)))
				}
			}
		case "phone":
			if !ValidPhone(v) {
				add(k, "invalid_phone", fmt.Sprintf("%s is not a valid phone number.", label(k)))
			}
		case "email":
			if !ValidEmail(v) {
				add(k, "invalid_email", fmt.Sprintf("%s is not a valid email address.", label(k)))
			}
		}
	}
	return errs
}

var phoneChars = regexp.MustCompile(`^[0-9\s+\-().]+$`)

// ValidPhone accepts 6 to 15 digits, with spaces, "+", "-", parentheses and
// dots around them.
func ValidPhone(s string) bool {
	if !phoneChars.MatchString(s) {
		return false
	}
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n >= 6 && n <= 15
}

var (
	emailLocal = regexp.MustCompile(`^[a-zA-Z0-9!#$%&'*+/=?^_` + "`" + `{|}~.-]+$`)
	emailLabel = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$`)
)

// ValidEmail follows WordPress's is_email: at least 6 characters, one "@",
// allowed local-part characters, a domain of at least two dot-separated
// labels of letters, digits and inner hyphens.
func ValidEmail(s string) bool {
	if len(s) < 6 || len(s) > 254 || strings.Count(s, "@") != 1 {
		return false
	}
	local, domain, _ := strings.Cut(s, "@")
	if !emailLocal.MatchString(local) || strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !emailLabel.MatchString(l) {
			return false
		}
	}
	return true
}
