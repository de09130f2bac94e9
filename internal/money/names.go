package money

import (
	"slices"
	"strings"
)

// names are the known currencies' English names (WooCommerce's, in UTF-8 where WooCommerce writes HTML entities).
var names = map[string]string{
	"USD": "United States (US) dollar", "EUR": "Euro", "GBP": "Pound sterling", "JPY": "Japanese yen",
	"CHF": "Swiss franc", "CAD": "Canadian dollar", "AUD": "Australian dollar", "NZD": "New Zealand dollar",
	"SEK": "Swedish krona", "NOK": "Norwegian krone", "DKK": "Danish krone", "ISK": "Icelandic króna",
	"PLN": "Polish złoty", "CZK": "Czech koruna", "HUF": "Hungarian forint", "RON": "Romanian leu",
	"BGN": "Bulgarian lev", "TRY": "Turkish lira", "CNY": "Chinese yuan", "HKD": "Hong Kong dollar",
	"SGD": "Singapore dollar", "KRW": "South Korean won", "INR": "Indian rupee", "IDR": "Indonesian rupiah",
	"MYR": "Malaysian ringgit", "PHP": "Philippine peso", "THB": "Thai baht", "ZAR": "South African rand",
	"BRL": "Brazilian real", "MXN": "Mexican peso", "ILS": "Israeli new shekel", "AED": "United Arab Emirates dirham",
	"SAR": "Saudi riyal", "KWD": "Kuwaiti dinar", "BHD": "Bahraini dinar", "OMR": "Omani rial",
	"JOD": "Jordanian dinar", "TND": "Tunisian dinar", "VND": "Vietnamese đồng", "CLP": "Chilean peso",
}

// Name is a known currency's English name, "" for another code.
func Name(code string) string { return names[strings.ToUpper(code)] }

// Codes are the known currencies' ISO codes, sorted.
func Codes() []string {
	out := make([]string, 0, len(iso))
	for _, c := range iso {
		out = append(out, c.code)
	}
	slices.Sort(out)
	return out
}
