// Package money holds amounts as integer minor units with a currency, and
// formats them only at the edge. No float ever touches a price.
package money

import (
	"fmt"
	"strconv"
	"strings"
)

// Currency describes how a currency's amounts are written. The field names
// follow the Store API's "currency block" so it can be sent as is.
type Currency struct {
	Code              string `json:"currency_code"`
	Symbol            string `json:"currency_symbol"`
	MinorUnit         int    `json:"currency_minor_unit"`
	DecimalSeparator  string `json:"currency_decimal_separator"`
	ThousandSeparator string `json:"currency_thousand_separator"`
	Prefix            string `json:"currency_prefix"`
	Suffix            string `json:"currency_suffix"`
}

// Known currencies the shop can be configured with. More are easy to add;
// multi-currency display comes with its own issue.
var known = map[string]Currency{
	"USD": {Code: "USD", Symbol: "$", MinorUnit: 2, DecimalSeparator: ".", ThousandSeparator: ",", Prefix: "$"},
	"EUR": {Code: "EUR", Symbol: "€", MinorUnit: 2, DecimalSeparator: ".", ThousandSeparator: ",", Prefix: "€"},
	"GBP": {Code: "GBP", Symbol: "£", MinorUnit: 2, DecimalSeparator: ".", ThousandSeparator: ",", Prefix: "£"},
	"JPY": {Code: "JPY", Symbol: "¥", MinorUnit: 0, DecimalSeparator: ".", ThousandSeparator: ",", Prefix: "¥"},
}

// Lookup returns the currency for an ISO code.
func Lookup(code string) (Currency, bool) {
	c, ok := known[strings.ToUpper(code)]
	return c, ok
}

// Money is an amount in minor units of a currency.
type Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// Format writes an amount in minor units the way the currency is written,
// for example 1250 in USD as "$12.50".
func (c Currency) Format(amount int64) string {
	return c.Prefix + c.FormatNumber(amount) + c.Suffix
}

// FormatNumber writes the number part only: "1,234.50".
func (c Currency) FormatNumber(amount int64) string {
	neg := amount < 0
	if neg {
		amount = -amount
	}
	div := int64(1)
	for i := 0; i < c.MinorUnit; i++ {
		div *= 10
	}
	whole := strconv.FormatInt(amount/div, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(c.ThousandSeparator)
		}
		b.WriteRune(r)
	}
	if c.MinorUnit > 0 {
		b.WriteString(c.DecimalSeparator)
		frac := strconv.FormatInt(amount%div, 10)
		b.WriteString(strings.Repeat("0", c.MinorUnit-len(frac)))
		b.WriteString(frac)
	}
	return b.String()
}

// Parse reads a decimal string such as "12.5", "12.50" or "1,234.00" into
// minor units. It refuses more decimals than the currency has, so no amount
// is ever rounded silently.
func Parse(s string, minorUnit int) (int64, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	if s == "" {
		return 0, fmt.Errorf("empty amount")
	}
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" {
		whole = "0"
	}
	if len(frac) > minorUnit {
		// Allow trailing zeros beyond the minor unit ("12.500").
		if strings.Trim(frac[minorUnit:], "0") != "" {
			return 0, fmt.Errorf("amount %q has more than %d decimals", s, minorUnit)
		}
		frac = frac[:minorUnit]
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, fmt.Errorf("amount %q is not a number", s)
			}
		}
	}
	if len(whole) > 15 {
		return 0, fmt.Errorf("amount %q is too large", s)
	}
	frac += strings.Repeat("0", minorUnit-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("amount %q: %w", s, err)
	}
	if neg {
		n = -n
	}
	return n, nil
}
