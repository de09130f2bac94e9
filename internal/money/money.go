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

// Symbol positions, WooCommerce's four values of woocommerce_currency_pos.
const (
	PosLeft       = "left"        // $12.50
	PosRight      = "right"       // 12.50$
	PosLeftSpace  = "left_space"  // $ 12.50
	PosRightSpace = "right_space" // 12.50 $
)

// Affixes returns the prefix and suffix that write symbol at position, as
// the Store API's currency block carries them (a plain space for the two
// spaced positions); ok is false for an unknown position.
func Affixes(symbol, position string) (prefix, suffix string, ok bool) {
	switch position {
	case PosLeft:
		return symbol, "", true
	case PosLeftSpace:
		return symbol + " ", "", true
	case PosRight:
		return "", symbol, true
	case PosRightSpace:
		return "", " " + symbol, true
	}
	return "", "", false
}

// Position is the inverse of Affixes: the position a currency's prefix and
// suffix describe (PosLeft when both are empty).
func (c Currency) Position() string {
	switch {
	case c.Suffix != "" && strings.HasPrefix(c.Suffix, " "):
		return PosRightSpace
	case c.Suffix != "":
		return PosRight
	case strings.HasSuffix(c.Prefix, " "):
		return PosLeftSpace
	}
	return PosLeft
}

// WithFormat returns c written with symbol at position and the given
// separators (the multi-currency settings of internal/currency).
func (c Currency) WithFormat(symbol, position, thousand, decimal string) Currency {
	c.Symbol, c.ThousandSeparator, c.DecimalSeparator = symbol, thousand, decimal
	c.Prefix, c.Suffix, _ = Affixes(symbol, position)
	return c
}

// iso holds the ISO 4217 currencies the shop knows: symbol and minor unit
// (decimals). They are written "$12.50"-style (symbol left, "," thousands,
// "." decimals) until configured otherwise.
var iso = []struct {
	code, symbol string
	minor        int
}{
	{"USD", "$", 2}, {"EUR", "€", 2}, {"GBP", "£", 2}, {"JPY", "¥", 0},
	{"CHF", "CHF", 2}, {"CAD", "$", 2}, {"AUD", "$", 2}, {"NZD", "$", 2},
	{"SEK", "kr", 2}, {"NOK", "kr", 2}, {"DKK", "kr.", 2}, {"ISK", "kr.", 0},
	{"PLN", "zł", 2}, {"CZK", "Kč", 2}, {"HUF", "Ft", 2}, {"RON", "lei", 2},
	{"BGN", "лв.", 2}, {"TRY", "₺", 2}, {"CNY", "¥", 2}, {"HKD", "$", 2},
	{"SGD", "$", 2}, {"KRW", "₩", 0}, {"INR", "₹", 2}, {"IDR", "Rp", 2},
	{"MYR", "RM", 2}, {"PHP", "₱", 2}, {"THB", "฿", 2}, {"ZAR", "R", 2},
	{"BRL", "R$", 2}, {"MXN", "$", 2}, {"ILS", "₪", 2}, {"AED", "د.إ", 2},
	{"SAR", "ر.س", 2}, {"KWD", "د.ك", 3}, {"BHD", ".د.ب", 3}, {"OMR", "ر.ع.", 3},
	{"JOD", "د.ا", 3}, {"TND", "د.ت", 3}, {"VND", "₫", 0}, {"CLP", "$", 0},
}

// known maps each ISO code to its default way of writing.
var known = func() map[string]Currency {
	m := make(map[string]Currency, len(iso))
	for _, c := range iso {
		m[c.code] = Currency{Code: c.code, Symbol: c.symbol, MinorUnit: c.minor, DecimalSeparator: ".", ThousandSeparator: ",", Prefix: c.symbol}
	}
	return m
}()

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
