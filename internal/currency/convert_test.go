package currency

import (
	"errors"
	"math"
	"math/big"
	"math/rand"
	"testing"
)

func mustRate(t testing.TB, s string) Rate {
	t.Helper()
	r, err := ParseRate(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func cur(t testing.TB, code string, dec int, rate, rule string, step, ending int64) Currency {
	return Currency{Code: code, Decimals: dec, Rate: mustRate(t, rate), Rounding: rule, Step: step, Ending: ending}
}

func TestConvertTable(t *testing.T) {
	eur := func(rule string, step, ending int64) Currency { return cur(t, "EUR", 2, "0.92", rule, step, ending) }
	jpy := func(rule string, step int64) Currency { return cur(t, "JPY", 0, "157.23", rule, step, 0) }
	kwd := cur(t, "KWD", 3, "0.3075", RoundNone, 1, 0)
	max := int64(math.MaxInt64)
	cases := []struct {
		name   string
		amount int64
		base   int
		to     Currency
		want   int64
		err    error
	}{
		{"USD→EUR none", 1999, 2, eur(RoundNone, 1, 0), 1839, nil}, // 1839.08
		{"USD→EUR none 12.50", 1250, 2, eur(RoundNone, 1, 0), 1150, nil},
		{"half away from zero", 1, 2, cur(t, "EUR", 2, "0.5", RoundNone, 1, 0), 1, nil},
		{"half away, negative", -1, 2, cur(t, "EUR", 2, "0.5", RoundNone, 1, 0), -1, nil},
		{"below half a minor unit", 1, 2, cur(t, "EUR", 2, "0.25", RoundNone, 1, 0), 0, nil},
		{"USD→JPY 0 decimals", 1999, 2, jpy(RoundNone, 1), 3143, nil},                                         // 3143.0277
		{"USD→KWD 3 decimals", 1999, 2, kwd, 6147, nil},                                                       // 6.146925
		{"JPY→USD (base without decimals)", 3143, 0, cur(t, "USD", 2, "0.00636", RoundNone, 1, 0), 1999, nil}, // 19.98948
		{".99 nearest", 1999, 2, eur(RoundNearest, 100, 99), 1799, nil},
		{".99 up", 1999, 2, eur(RoundUp, 100, 99), 1899, nil},
		{".99 down", 1999, 2, eur(RoundDown, 100, 99), 1799, nil},
		{".99 on a .99 price stays", 10000, 2, cur(t, "EUR", 2, "0.1999", RoundUp, 100, 99), 1999, nil},
		{"9.99 endings on tens", 1999, 2, eur(RoundNearest, 1000, 999), 1999, nil},
		{"step 0.05 nearest", 1999, 2, eur(RoundNearest, 5, 0), 1840, nil},
		{"step 0.05 down", 1999, 2, eur(RoundDown, 5, 0), 1835, nil},
		{"step 0.05 tie away from zero", 1250, 2, cur(t, "EUR", 2, "1.47", RoundNearest, 5, 0), 1840, nil}, // 1837.5
		{"JPY to tens down", 1999, 2, jpy(RoundDown, 10), 3140, nil},
		{"JPY to tens up", 1999, 2, jpy(RoundUp, 10), 3150, nil},
		{"JPY to hundreds", 1999, 2, jpy(RoundNearest, 100), 3100, nil},
		{"zero stays zero", 0, 2, eur(RoundUp, 100, 99), 0, nil},
		{"small price never becomes 0 (ending)", 10, 2, eur(RoundDown, 100, 99), 99, nil},
		{"small price never becomes 0 (step)", 10, 2, eur(RoundNearest, 100, 0), 100, nil},
		{"negative .99 up is away from zero", -1999, 2, eur(RoundUp, 100, 99), -1899, nil},
		{"negative none", -1999, 2, eur(RoundNone, 1, 0), -1839, nil},
		{"max int64 at rate 1", max, 2, cur(t, "USD", 2, "1", RoundNone, 1, 0), max, nil},
		{"min int64 at rate 1", math.MinInt64, 2, cur(t, "USD", 2, "1", RoundNone, 1, 0), math.MinInt64, nil},
		{"huge amount to JPY", 1e15, 2, jpy(RoundNone, 1), 1_572_300_000_000_000, nil},
		{"overflow", max, 2, cur(t, "KWD", 3, "2", RoundNone, 1, 0), 0, ErrOverflow},
		{"overflow negative", math.MinInt64 + 1, 2, jpy(RoundNone, 1), 0, ErrOverflow},
	}
	for _, c := range cases {
		got, err := Convert(c.amount, c.base, c.to)
		if !errors.Is(err, c.err) || (c.err == nil && got != c.want) {
			t.Errorf("%s: Convert(%d) = %d, %v; want %d, %v", c.name, c.amount, got, err, c.want, c.err)
		}
	}
	if _, err := Convert(100, 2, Currency{Code: "EUR", Decimals: 2}); err == nil {
		t.Error("a currency without a rate converted")
	}
	if _, err := Convert(100, 2, Currency{Code: "EUR", Decimals: 7, Rate: One}); err == nil {
		t.Error("a currency with 7 decimals converted")
	}
}

func TestParseRate(t *testing.T) {
	for in, want := range map[string]string{"1.0867": "1.0867", "157": "157", "0.000412": "0.000412", "1.50": "1.5", "007.10": "7.1", ".5": "0.5", "1000000000": "1000000000"} {
		r, err := ParseRate(in)
		if err != nil || r.String() != want {
			t.Errorf("ParseRate(%q) = %s, %v; want %s", in, r, err, want)
		}
	}
	for _, in := range []string{"", "0", "0.000", "-1", "1e5", "1,5", "abc", ".", "1.2.3", "1000000001", "0.0000000000001", "1.1234567890123456789"} {
		if r, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) = %s, want an error", in, r)
		}
	}
	// Rebasing: 1 / 1.0867 to 10 significant digits, half to even.
	r, err := RateFromRat(new(big.Rat).Quo(big.NewRat(1, 1), mustRate(t, "1.0867").Rat()), RebaseDigits)
	if err != nil || r.String() != "0.9202171713" {
		t.Errorf("1/1.0867 = %s, %v", r, err)
	}
	r, err = RateFromRat(new(big.Rat).Quo(mustRate(t, "163.8").Rat(), mustRate(t, "1.0867").Rat()), RebaseDigits)
	if err != nil || r.String() != "150.7315727" {
		t.Errorf("163.8/1.0867 = %s, %v", r, err)
	}
}

// exactValue is amount × rate × 10^(to − base) as a fraction, computed
// independently of Convert with big.Rat.
func exactValue(amount int64, base int, to Currency) *big.Rat {
	x := new(big.Rat).SetInt64(amount)
	x.Mul(x, to.Rate.Rat())
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(to.Decimals-base))), nil))
	if to.Decimals >= base {
		return x.Mul(x, scale)
	}
	return x.Quo(x, scale)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// roundHalfAway is the reference rounding of rule none: floor(|x| + 1/2)
// with x's sign.
func roundHalfAway(x *big.Rat) int64 {
	m := new(big.Rat).Abs(x)
	m.Add(m, big.NewRat(1, 2))
	q := new(big.Int).Quo(m.Num(), m.Denom())
	if x.Sign() < 0 {
		q.Neg(q)
	}
	return q.Int64()
}

// TestConvertProperty checks Convert against big.Rat references over many
// random amounts, rates, decimals and rules: rule none equals the exact
// value rounded half away from zero (no minor unit lost or invented); the
// grid rules land on the grid, stay within what the rule allows of the
// exact value, and pick the right grid price; every rule is symmetric.
func TestConvertProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	rules := []string{RoundNone, RoundNearest, RoundUp, RoundDown}
	steps := []int64{1, 5, 10, 25, 50, 100, 1000}
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	overflows := 0
	for i := 0; i < n; i++ {
		base, dec := rng.Intn(4), rng.Intn(5)
		var rate Rate
		for {
			r := Rate{mant: rng.Int63n(10_000_000_000) + 1, scale: rng.Intn(13)}
			if rr, err := ParseRate(r.String()); err == nil {
				rate = rr
				break
			}
		}
		amount := rng.Int63n([]int64{100, 100_000, 10_000_000, 1_000_000_000}[rng.Intn(4)])
		if rng.Intn(5) == 0 {
			amount = -amount
		}
		rule := rules[rng.Intn(len(rules))]
		step, ending := int64(1), int64(0)
		if rule != RoundNone {
			step = steps[rng.Intn(len(steps))]
			if rng.Intn(2) == 0 {
				ending = rng.Int63n(step)
			}
		}
		to := Currency{Code: "XTS", Decimals: dec, Rate: rate, Rounding: rule, Step: step, Ending: ending}
		got, err := Convert(amount, base, to)
		if errors.Is(err, ErrOverflow) {
			// Only when the exact value is out of int64's range.
			lim := new(big.Rat).SetInt64(math.MaxInt64 - step)
			if new(big.Rat).Abs(exactValue(amount, base, to)).Cmp(lim) < 0 {
				t.Fatalf("Convert(%d, %d, %+v): overflow of an amount in range", amount, base, to)
			}
			overflows++
			continue
		}
		if err != nil {
			t.Fatalf("Convert(%d, %d, %+v): %v", amount, base, to, err)
		}
		if neg, _ := Convert(-amount, base, to); neg != -got {
			t.Fatalf("not symmetric: Convert(%d)=%d, Convert(%d)=%d (%+v)", amount, got, -amount, neg, to)
		}
		exact := exactValue(amount, base, to)
		if rule == RoundNone {
			if want := roundHalfAway(exact); got != want {
				t.Fatalf("Convert(%d, %d, %+v) = %d, want %d (exact %s)", amount, base, to, got, want, exact.FloatString(6))
			}
			continue
		}
		if amount == 0 {
			if got != 0 {
				t.Fatalf("zero became %d", got)
			}
			continue
		}
		// Work on magnitudes: |got| against |exact|.
		g := got
		if g < 0 {
			g = -g
		}
		e := new(big.Rat).Abs(exact)
		if g <= 0 || (g-ending)%step != 0 {
			t.Fatalf("%d is off the grid step %d ending %d (%+v)", got, step, ending, to)
		}
		smallest := ending
		if smallest == 0 {
			smallest = step
		}
		diff := new(big.Rat).Sub(new(big.Rat).SetInt64(g), e) // result − exact
		stepR := new(big.Rat).SetInt64(step)
		if g == smallest && e.Cmp(new(big.Rat).SetInt64(smallest)) < 0 {
			continue // clamped: a nonzero price never becomes zero
		}
		switch rule {
		case RoundUp:
			if diff.Sign() < 0 || diff.Cmp(stepR) >= 0 {
				t.Fatalf("up: %d from exact %s (step %d)", got, exact.FloatString(6), step)
			}
		case RoundDown:
			if diff.Sign() > 0 || new(big.Rat).Neg(diff).Cmp(stepR) >= 0 {
				t.Fatalf("down: %d from exact %s (step %d)", got, exact.FloatString(6), step)
			}
		case RoundNearest:
			twice := new(big.Rat).Mul(diff, big.NewRat(2, 1))
			// Within half a step, and a tie goes up (away from zero).
			if twice.Cmp(stepR) > 0 || new(big.Rat).Neg(twice).Cmp(stepR) >= 0 {
				t.Fatalf("nearest: %d from exact %s (step %d ending %d)", got, exact.FloatString(6), step, ending)
			}
		}
	}
	if overflows > n/10 {
		t.Errorf("%d of %d cases overflowed: the generator tests too little", overflows, n)
	}
}

func BenchmarkConvert(b *testing.B) {
	eur := cur(b, "EUR", 2, "0.9202171712", RoundNearest, 100, 99)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Convert(int64(1999+i%1000), 2, eur); err != nil {
			b.Fatal(err)
		}
	}
}
