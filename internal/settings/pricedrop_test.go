package settings_test

import (
	"errors"
	"testing"

	"vitrine/internal/settings"
)

// The price-drop threshold: blank is 10 %, a percentage with two decimals
// at most, above 0 and below 100; anything else is refused on its field.
func TestPriceDropPercent(t *testing.T) {
	for in, want := range map[string]int{"": 1000, "10": 1000, "12.5": 1250, "9.99": 999, "0.01": 1, "99.99": 9999} {
		s := defaults()
		s.PriceDropPercent = in
		if err := settings.Validate(s); err != nil {
			t.Errorf("%q refused: %v", in, err)
		}
		if got := s.PriceDropBP(); got != want {
			t.Errorf("%q = %d bp, want %d", in, got, want)
		}
	}
	for _, bad := range []string{"0", "100", "-1", "ten", "1.234", "5%%", "1e1"} {
		s := defaults()
		s.PriceDropPercent = bad
		var ie *settings.InputError
		if err := settings.Validate(s); !errors.As(err, &ie) || ie.Field != "price_drop_percent" {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
