package currency

import "testing"

// The switcher's names: WooCommerce's (money.Name) but for its own
// spelling of the dollar, and the code for a currency without a name.
func TestSwitcherNames(t *testing.T) {
	for code, want := range map[string]string{"USD": "United States dollar", "EUR": "Euro", "ISK": "Icelandic króna", "XTS": "XTS"} {
		if got := Name(code); got != want {
			t.Errorf("Name(%q) = %q, want %q", code, got, want)
		}
	}
}
