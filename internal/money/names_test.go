package money

import "testing"

func TestEveryKnownCurrencyHasAName(t *testing.T) {
	codes := Codes()
	if len(codes) != len(iso) || codes[0] != "AED" {
		t.Fatalf("codes %v", codes)
	}
	for _, c := range codes {
		if Name(c) == "" {
			t.Errorf("%s has no name", c)
		}
	}
	if Name("usd") != "United States (US) dollar" || Name("XXX") != "" {
		t.Errorf("lookup: %q %q", Name("usd"), Name("XXX"))
	}
}
