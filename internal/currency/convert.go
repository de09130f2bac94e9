// Package currency is the multi-currency capability: the
// currencies the shop sells in, their exchange rates to the shop's base
// currency (with a history), fixed per-product prices, and the one
// function that converts and rounds a base amount into another currency.
// Money stays integer minor units; rates are exact decimals (never float).
// It speaks no HTTP; the adapters (the price call, the Store API, the
// command line) call the Service.
package currency

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"vitrine/internal/money"
)

// Rounding rules, applied to the exact converted value.
const (
	// RoundNone rounds to the currency's minor unit, half away from zero
	// (as PHP's round, which WooCommerce uses). No step or ending.
	RoundNone = "none"
	// RoundNearest takes the nearest price on the step/ending grid (a tie
	// goes away from zero).
	RoundNearest = "nearest"
	// RoundUp takes the first grid price at or above the exact value
	// (away from zero for a negative amount).
	RoundUp = "up"
	// RoundDown takes the last grid price at or below the exact value
	// (towards zero for a negative amount).
	RoundDown = "down"
)

// ErrOverflow is a converted amount that does not fit in int64 minor units.
var ErrOverflow = errors.New("currency: converted amount out of range")

// Rate is an exact positive decimal: mant / 10^scale units of the currency
// for one unit of the base currency.
type Rate struct {
	mant  int64
	scale int
}

// Rate bounds: at most MaxRateDigits significant digits, between 10^-12
// and 10^9. The ECB's rates have 4 to 6 significant digits; a rebased
// rate is kept to RebaseDigits.
const (
	MaxRateDigits = 18
	maxRateScale  = 18
	RebaseDigits  = 10
	// MaxDecimals is the most decimals (minor unit digits) a currency has.
	MaxDecimals = 4
)

var (
	minRate = big.NewRat(1, 1_000_000_000_000)
	maxRate = big.NewRat(1_000_000_000, 1)
)

// One is the base currency's own rate.
var One = Rate{mant: 1}

// ParseRate reads a rate written as a plain decimal ("1.0867", "157",
// "0.000412"): digits with at most one point, no sign, no exponent.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	whole, frac, hasPoint := strings.Cut(s, ".")
	if s == "" || (hasPoint && whole == "" && frac == "") {
		return Rate{}, fmt.Errorf("rate %q is not a decimal number", s)
	}
	digits := whole + frac
	for _, r := range digits {
		if r < '0' || r > '9' {
			return Rate{}, fmt.Errorf("rate %q is not a decimal number (write it as 1.0867)", s)
		}
	}
	frac = strings.TrimRight(frac, "0")
	digits = strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return Rate{}, fmt.Errorf("rate %q must be more than 0", s)
	}
	if len(digits) > MaxRateDigits || len(frac) > maxRateScale {
		return Rate{}, fmt.Errorf("rate %q has more than %d significant digits", s, MaxRateDigits)
	}
	var m int64
	for _, r := range digits {
		m = m*10 + int64(r-'0')
	}
	r := Rate{mant: m, scale: len(frac)}
	if rat := r.Rat(); rat.Cmp(minRate) < 0 || rat.Cmp(maxRate) > 0 {
		return Rate{}, fmt.Errorf("rate %q is out of range (0.000000000001 to 1000000000)", s)
	}
	return r, nil
}

// RateFromRat rounds an exact ratio to digits significant digits (half
// to even) and checks it as ParseRate does.
func RateFromRat(x *big.Rat, digits int) (Rate, error) {
	if x.Sign() <= 0 {
		return Rate{}, fmt.Errorf("rate %s must be more than 0", x.FloatString(6))
	}
	f := new(big.Float).SetPrec(256).SetRat(x)
	s := f.Text('e', digits-1) // d.ddddde±XX, correctly rounded
	mantStr, expStr, _ := strings.Cut(s, "e")
	var exp int
	if _, err := fmt.Sscan(expStr, &exp); err != nil {
		return Rate{}, err
	}
	mantStr = strings.Replace(mantStr, ".", "", 1)
	// value = 0.mantStr... × 10^(exp+1); place the point.
	point := exp + 1
	var dec string
	switch {
	case point <= 0:
		dec = "0." + strings.Repeat("0", -point) + mantStr
	case point >= len(mantStr):
		dec = mantStr + strings.Repeat("0", point-len(mantStr))
	default:
		dec = mantStr[:point] + "." + mantStr[point:]
	}
	return ParseRate(dec)
}

// IsZero reports the zero Rate (unset).
func (r Rate) IsZero() bool { return r.mant == 0 }

// Rat is the rate as an exact fraction.
func (r Rate) Rat() *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(r.mant), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.scale)), nil))
}

// String writes the rate as a plain decimal without trailing zeros.
func (r Rate) String() string {
	if r.mant == 0 {
		return "0"
	}
	s := fmt.Sprintf("%0*d", r.scale+1, r.mant)
	if r.scale == 0 {
		return s
	}
	return s[:len(s)-r.scale] + "." + s[len(s)-r.scale:]
}

// Currency is one currency the shop sells in, as configured.
type Currency struct {
	Code     string // ISO 4217
	Decimals int    // minor unit: JPY 0, USD 2, KWD 3
	Symbol   string
	Position string // money.PosLeft, PosRight, PosLeftSpace, PosRightSpace
	// ThousandSep and DecimalSep write the number ("1.234,50").
	ThousandSep string
	DecimalSep  string
	// Rate is units of this currency for one unit of the base currency.
	Rate     Rate
	RateDate string // YYYY-MM-DD of Rate ("" when set by hand)
	// Rounding (RoundNone, RoundNearest, RoundUp, RoundDown), on a grid of
	// Step minor units shifted by Ending minor units (0 ≤ Ending < Step):
	// Step 100 and Ending 99 with two decimals is "prices end in .99";
	// Step 5 is "to 0.05"; with no decimals Step 10 is "to tens".
	Rounding string
	Step     int64
	Ending   int64
	Enabled  bool
	Order    int // place in the switcher
	// BaseCode is the base currency Rate is relative to.
	BaseCode string
}

// Money is the currency's Store API currency block (money.Currency), so
// formatting stays in one place.
func (c Currency) Money() money.Currency {
	return money.Currency{Code: c.Code, MinorUnit: c.Decimals}.WithFormat(c.Symbol, c.Position, c.ThousandSep, c.DecimalSep)
}

// Format writes minor units of the currency ("1.234,50 €").
func (c Currency) Format(amount int64) string { return c.Money().Format(amount) }

// Base describes the shop's base currency as a Currency: rate 1, no
// rounding beyond its minor unit, always enabled, first.
func Base(m money.Currency) Currency {
	return Currency{Code: m.Code, Decimals: m.MinorUnit, Symbol: m.Symbol, Position: m.Position(),
		ThousandSep: m.ThousandSeparator, DecimalSep: m.DecimalSeparator, Rate: One,
		Rounding: RoundNone, Step: 1, Enabled: true, Order: -1, BaseCode: m.Code}
}

var pow10 = func() [40]*big.Int {
	var p [40]*big.Int
	for i := range p {
		p[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return p
}()

// Convert turns amount, in minor units of the base currency with
// baseDecimals decimals, into minor units of to: the exact value
// amount × rate (rescaled from baseDecimals to to.Decimals), then the
// rounding rule on to's grid. It is exact integer arithmetic (no float),
// symmetric (Convert(-a) = -Convert(a)), keeps zero at zero, and with a
// rounding rule other than none never turns a nonzero amount into zero:
// it becomes the smallest grid price instead (rule none may give 0 for an
// amount worth less than half a minor unit). A result beyond int64 is ErrOverflow
// (never wrapped or clamped).
func Convert(amount int64, baseDecimals int, to Currency) (int64, error) {
	if to.Decimals < 0 || to.Decimals > MaxDecimals || baseDecimals < 0 || baseDecimals > MaxDecimals || to.Rate.IsZero() {
		return 0, fmt.Errorf("currency: cannot convert to %s (decimals %d, rate %s)", to.Code, to.Decimals, to.Rate)
	}
	if amount == 0 {
		return 0, nil
	}
	if v, ok := convertSmall(amount, baseDecimals, to); ok {
		return v, nil
	}
	neg := amount < 0
	mag := new(big.Int).SetInt64(amount)
	mag.Abs(mag)
	// exact = num / den minor units of to.
	num := mag.Mul(mag, big.NewInt(to.Rate.mant))
	den := new(big.Int)
	if shift := to.Decimals - baseDecimals; shift >= 0 {
		num.Mul(num, pow10[shift])
		den.Set(pow10[to.Rate.scale])
	} else {
		den.Mul(pow10[to.Rate.scale], pow10[-shift])
	}
	step, ending := to.Step, to.Ending
	rule := to.Rounding
	grid := rule == RoundNearest || rule == RoundUp || rule == RoundDown
	if !grid || step <= 0 {
		grid = false
		rule, step, ending = RoundNearest, 1, 0
	}
	// The grid is ending + step×k; k from (exact − ending) / step.
	t := num.Sub(num, new(big.Int).Mul(big.NewInt(ending), den))
	unit := den.Mul(den, big.NewInt(step))
	k, rem := new(big.Int).DivMod(t, unit, new(big.Int)) // Euclidean: floor, rem ≥ 0
	switch rule {
	case RoundUp:
		if rem.Sign() > 0 {
			k.Add(k, big.NewInt(1))
		}
	case RoundNearest:
		if rem.Lsh(rem, 1).Cmp(unit) >= 0 {
			k.Add(k, big.NewInt(1))
		}
	}
	res := k.Mul(k, big.NewInt(step))
	res.Add(res, big.NewInt(ending))
	if res.Sign() <= 0 && grid {
		res.SetInt64(ending) // the smallest positive grid price
		if ending == 0 {
			res.SetInt64(step)
		}
	}
	if neg {
		res.Neg(res)
	}
	if !res.IsInt64() {
		return 0, ErrOverflow
	}
	return res.Int64(), nil
}

// mulOK is a×b for non-negative a and b, ok false when it does not fit in
// int64.
func mulOK(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

var pow10i64 = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// convertSmall is Convert's arithmetic in int64 when every intermediate
// value fits (the usual case: shop prices at ordinary rates), the same
// steps as the big.Int path; ok false sends Convert to that path. The
// property test compares both against big.Rat references.
func convertSmall(amount int64, baseDecimals int, to Currency) (int64, bool) {
	if amount == math.MinInt64 {
		return 0, false
	}
	neg := amount < 0
	mag := amount
	if neg {
		mag = -amount
	}
	num, ok := mulOK(mag, to.Rate.mant)
	if !ok {
		return 0, false
	}
	var den int64
	if shift := to.Decimals - baseDecimals; shift >= 0 {
		if num, ok = mulOK(num, pow10i64[shift]); !ok {
			return 0, false
		}
		den = pow10i64[to.Rate.scale]
	} else {
		if to.Rate.scale-shift > 18 {
			return 0, false
		}
		den = pow10i64[to.Rate.scale-shift]
	}
	step, ending, rule := to.Step, to.Ending, to.Rounding
	grid := rule == RoundNearest || rule == RoundUp || rule == RoundDown
	if !grid || step <= 0 {
		grid = false
		rule, step, ending = RoundNearest, 1, 0
	}
	endDen, ok := mulOK(ending, den)
	if !ok {
		return 0, false
	}
	unit, ok := mulOK(step, den)
	if !ok {
		return 0, false
	}
	t := num - endDen // num ≥ 0, endDen ≥ 0: no overflow
	k, rem := t/unit, t%unit
	if rem < 0 { // Euclidean: floor, rem ≥ 0
		k, rem = k-1, rem+unit
	}
	switch rule {
	case RoundUp:
		if rem > 0 {
			k++
		}
	case RoundNearest:
		if rem >= unit-rem {
			k++
		}
	}
	res, ok := mulOK(max(k, 0), step)
	if !ok {
		return 0, false
	}
	if k < 0 {
		res = -1 // below the grid's first price
	} else if res > math.MaxInt64-ending {
		return 0, false
	} else {
		res += ending
	}
	if res <= 0 && grid {
		res = ending
		if ending == 0 {
			res = step
		}
	}
	if res < 0 {
		// Rule none never goes below zero for a positive amount (k ≥ 0).
		return 0, false
	}
	if neg {
		res = -res
	}
	return res, true
}
