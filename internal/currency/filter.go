package currency

// Price filters in a shopper's currency. A listing's price filter is typed
// in the currency the prices are shown in; the catalogue is filtered in the
// base currency. Convert is monotonic (a larger base amount never shows as
// a smaller price), so each bound has an exact base counterpart: the
// products whose shown price is at least lo are those whose base price is
// at least MinBase(lo), and those shown at most hi have a base price of at
// most MaxBase(hi). Products with a fixed price in the currency are shown
// at that price and filtered by their converted one.

// MinBase is the smallest base amount (in base minor units, at most limit)
// that Convert shows at lo or more; ok false when none up to limit does.
func MinBase(lo int64, baseDecimals int, to Currency, limit int64) (int64, bool) {
	if lo <= 0 {
		return 0, true
	}
	shows := func(b int64) bool {
		v, err := Convert(b, baseDecimals, to)
		return err != nil || v >= lo // an overflow is above any bound
	}
	if !shows(limit) {
		return 0, false
	}
	a, b := int64(0), limit // shows(b) holds
	for a < b {
		m := a + (b-a)/2
		if shows(m) {
			b = m
		} else {
			a = m + 1
		}
	}
	return a, true
}

// MaxBase is the largest base amount (at most limit) that Convert shows at
// hi or less; ok false when even a base amount of zero shows above hi
// (never: zero shows as zero, so only for a negative hi).
func MaxBase(hi int64, baseDecimals int, to Currency, limit int64) (int64, bool) {
	if hi < 0 {
		return 0, false
	}
	within := func(b int64) bool {
		v, err := Convert(b, baseDecimals, to)
		return err == nil && v <= hi
	}
	if within(limit) {
		return limit, true
	}
	a, b := int64(0), limit // within(a) holds, within(b) does not
	for b-a > 1 {
		m := a + (b-a)/2
		if within(m) {
			a = m
		} else {
			b = m
		}
	}
	return a, true
}

// BaseBounds turns a price filter's bounds typed in the currency to (lo,
// hi, either nil for no bound) into base bounds that find exactly the
// products shown within them (MinBase, MaxBase): a lower bound no base
// amount up to limit reaches becomes limit+1, so nothing is found.
func BaseBounds(lo, hi *int64, baseDecimals int, to Currency, limit int64) (min, max *int64) {
	if lo != nil {
		b, ok := MinBase(*lo, baseDecimals, to, limit)
		if !ok {
			b = limit + 1
		}
		min = &b
	}
	if hi != nil {
		if b, ok := MaxBase(*hi, baseDecimals, to, limit); ok {
			max = &b
		}
	}
	return min, max
}
