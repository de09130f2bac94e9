package checkout_test

import (
	"testing"

	"vitrine/internal/checkout"
)

// What a WooCommerce rate may carry and this shop's rates cannot hold is
// refused by its WooCommerce field; what they can hold passes.
func TestWooRateHeldBy(t *testing.T) {
	for _, c := range []struct {
		rate  checkout.WooRate
		field string
	}{
		{checkout.WooRate{}, ""},
		{checkout.WooRate{Class: "standard"}, ""},
		{checkout.WooRate{Places: "cities"}, "cities"},
		{checkout.WooRate{Compound: true}, "compound"},
		{checkout.WooRate{Class: "reduced-rate"}, "class"},
	} {
		err := c.rate.HeldBy()
		if got := ""; err != nil {
			got = err.Field
			if got != c.field {
				t.Errorf("%+v: refused for %q, want %q", c.rate, got, c.field)
			}
		} else if c.field != "" {
			t.Errorf("%+v: taken, want refused for %q", c.rate, c.field)
		}
	}
}

// Rates are read into thousandths of a percent, at most 3 decimals.
func TestParseWooRate(t *testing.T) {
	for in, want := range map[string]int64{"20": 20_000, "7.25": 7_250, "8.8750": 8_875, " 0 ": 0} {
		if got, err := checkout.ParseWooRate(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"20.12345", "7.2501", "abc", ""} {
		if _, err := checkout.ParseWooRate(in); err == nil || err.Field != "rate" {
			t.Errorf("%q: %v, want a refusal of rate", in, err)
		}
	}
}
