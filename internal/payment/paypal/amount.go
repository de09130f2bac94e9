package paypal

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"vitrine/internal/money"
)

// maxValueLen is the longest amount string PayPal accepts.
const maxValueLen = 32

// Money is PayPal's amount object: an ISO currency code and a decimal string
// written with the number of decimals PayPal takes for the currency ("12.50"
// in USD, "1250" in JPY, HUF and TWD). Build it with NewMoney from PayPal's
// minor units (see Decimals; ToPayPal turns the shop's amounts into them);
// read it back with Minor.
type Money struct {
	CurrencyCode string `json:"currency_code"`
	Value        string `json:"value"`
}

// decimals are the currencies PayPal's REST API takes (its "currency codes"
// list) and the decimals of their amounts: HUF, JPY and TWD take none, a
// decimal amount in them is refused.
var decimals = map[string]int{
	"AUD": 2, "BRL": 2, "CAD": 2, "CNY": 2, "CZK": 2, "DKK": 2, "EUR": 2, "HKD": 2,
	"HUF": 0, "ILS": 2, "JPY": 0, "MYR": 2, "MXN": 2, "TWD": 0, "NZD": 2, "NOK": 2,
	"PHP": 2, "PLN": 2, "GBP": 2, "SGD": 2, "SEK": 2, "CHF": 2, "THB": 2, "USD": 2,
}

// Decimals is the number of decimals PayPal writes code's amounts with;
// ok is false for a currency PayPal does not take (codes are upper case).
func Decimals(code string) (n int, ok bool) {
	n, ok = decimals[code]
	return n, ok
}

// currency is a currency PayPal takes, written PayPal's way.
func currency(code string) (money.Currency, error) {
	n, ok := decimals[code]
	if !ok {
		return money.Currency{}, fmt.Errorf("paypal: unsupported currency %q", code)
	}
	return money.Currency{Code: code, MinorUnit: n, DecimalSeparator: "."}, nil
}

// ToPayPal turns v minor units of code, as the shop writes it with
// shopDecimals decimals, into PayPal's minor units of code, exactly: fewer
// shop decimals are padded (12 EUR written without decimals is 1200), more
// are accepted only when the extra digits are zero (HUF 123400 with two
// decimals is 1234; 123456 cannot be paid at PayPal and is an error).
func ToPayPal(code string, shopDecimals int, v int64) (int64, error) {
	n, ok := decimals[code]
	if !ok {
		return 0, fmt.Errorf("paypal: unsupported currency %q", code)
	}
	return rescale(code, v, shopDecimals, n)
}

// FromPayPal is ToPayPal's inverse: PayPal's minor units of code as the
// shop's minor units with shopDecimals decimals, exactly (an error when
// they do not fit).
func FromPayPal(code string, shopDecimals int, v int64) (int64, error) {
	n, ok := decimals[code]
	if !ok {
		return 0, fmt.Errorf("paypal: unsupported currency %q", code)
	}
	return rescale(code, v, n, shopDecimals)
}

// rescale writes v, with from decimals, with to decimals, exactly.
func rescale(code string, v int64, from, to int) (int64, error) {
	if from < 0 || from > 18 || to < 0 || to > 18 {
		return 0, fmt.Errorf("paypal: %s amounts with %d or %d decimals", code, from, to)
	}
	switch {
	case from > to:
		f := pow10(from - to)
		if v%f != 0 {
			return 0, fmt.Errorf("paypal: %s takes %d decimals; %d minor units with %d decimals cannot be written exactly", code, to, v, from)
		}
		return v / f, nil
	case from < to:
		f := pow10(to - from)
		if v > math.MaxInt64/f || v < math.MinInt64/f {
			return 0, fmt.Errorf("paypal: amount %d %s out of range", v, code)
		}
		return v * f, nil
	}
	return v, nil
}

func pow10(n int) int64 {
	p := int64(1)
	for i := 0; i < n; i++ {
		p *= 10
	}
	return p
}

// FormatValue writes PayPal's minor units (Decimals) as PayPal's decimal
// string for a currency: FormatValue("USD", 1250) is "12.50",
// FormatValue("JPY", 1250) and FormatValue("HUF", 1250) are "1250".
// Negative amounts and currencies PayPal does not take are refused.
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
// nothing that would overflow int64. JPY, HUF and TWD amounts have no "."
// at all.
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
