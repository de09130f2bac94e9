package paypal

import (
	"fmt"
	"strconv"
	"strings"

	"vitrine/internal/money"
)

// maxValueLen is the longest amount string PayPal accepts.
const maxValueLen = 32

// Money is PayPal's amount object: an ISO currency code and a decimal string
// written with the currency's number of decimals ("12.50" in USD, "1250" in
// JPY). Build it with NewMoney from minor units; read it back with Minor.
type Money struct {
	CurrencyCode string `json:"currency_code"`
	Value        string `json:"value"`
}

// currency looks up a currency the shop knows (vitrine/internal/money).
func currency(code string) (money.Currency, error) {
	c, ok := money.Lookup(code)
	if !ok || c.Code != code {
		return money.Currency{}, fmt.Errorf("paypal: unsupported currency %q", code)
	}
	return c, nil
}

// FormatValue writes minor units as PayPal's decimal string for a currency:
// FormatValue("USD", 1250) is "12.50", FormatValue("JPY", 1250) is "1250".
// Negative amounts and unknown currencies are refused.
func FormatValue(currencyCode string, minor int64) (string, error) {
	c, err := currency(currencyCode)
	if err != nil {
		return "", err
	}
	if minor < 0 {
		return "", fmt.Errorf("paypal: negative amount %d %s", minor, currencyCode)
	}
	c.ThousandSeparator = ""
	c.DecimalSeparator = "."
	return c.FormatNumber(minor), nil
}

// ParseValue reads PayPal's decimal string back into minor units, strictly:
// only ASCII digits with at most the currency's number of decimals after a
// single ".", no sign, no spaces, no thousands separators, no exponent, and
// nothing that would overflow int64. JPY amounts have no "." at all.
func ParseValue(currencyCode, value string) (int64, error) {
	c, err := currency(currencyCode)
	if err != nil {
		return 0, err
	}
	bad := func(why string) (int64, error) {
		return 0, fmt.Errorf("paypal: amount %q in %s: %s", value, currencyCode, why)
	}
	if value == "" {
		return bad("empty")
	}
	if len(value) > maxValueLen {
		return bad("too long")
	}
	whole, frac, hasDot := strings.Cut(value, ".")
	if whole == "" || !allDigits(whole) {
		return bad("not a decimal number")
	}
	if hasDot {
		if c.MinorUnit == 0 {
			return bad("the currency has no decimals")
		}
		if frac == "" || !allDigits(frac) {
			return bad("not a decimal number")
		}
		if len(frac) > c.MinorUnit {
			return bad(fmt.Sprintf("more than %d decimals", c.MinorUnit))
		}
	}
	frac += strings.Repeat("0", c.MinorUnit-len(frac))
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return bad("too large")
	}
	return n, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NewMoney builds an amount from minor units.
func NewMoney(currencyCode string, minor int64) (Money, error) {
	v, err := FormatValue(currencyCode, minor)
	if err != nil {
		return Money{}, err
	}
	return Money{CurrencyCode: currencyCode, Value: v}, nil
}

// Minor reads the amount back as minor units (strictly, see ParseValue).
func (m Money) Minor() (int64, error) { return ParseValue(m.CurrencyCode, m.Value) }
