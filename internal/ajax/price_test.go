package ajax

import "testing"

func TestCurrencyCountry(t *testing.T) {
	for code, want := range map[string]string{
		"USD": "us", "EUR": "eu", "gbp": "gb", "JPY": "jp",
		"XAU": "", "xof": "", "EU": "", "EURO": "", "E1R": "", "U$D": "", "": "",
	} {
		if got := currencyCountry(code); got != want {
			t.Errorf("currencyCountry(%q) = %q, want %q", code, got, want)
		}
	}
}
