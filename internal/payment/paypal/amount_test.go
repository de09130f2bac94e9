package paypal_test

import (
	"math"
	"strings"
	"testing"

	"vitrine/internal/payment/paypal"
)

func TestFormatValue(t *testing.T) {
	cases := []struct {
		cur   string
		minor int64
		want  string
	}{
		{"USD", 0, "0.00"},
		{"USD", 1, "0.01"},
		{"USD", 9, "0.09"},
		{"USD", 10, "0.10"},
		{"USD", 99, "0.99"},
		{"USD", 100, "1.00"},
		{"USD", 123456, "1234.56"},
		{"USD", 100000000, "1000000.00"},
		{"USD", math.MaxInt64, "92233720368547758.07"},
		{"EUR", 1999, "19.99"},
		{"JPY", 0, "0"},
		{"JPY", 1, "1"},
		{"JPY", 1250, "1250"},
		{"JPY", 1000000, "1000000"},
		{"JPY", math.MaxInt64, "9223372036854775807"},
	}
	for _, c := range cases {
		got, err := paypal.FormatValue(c.cur, c.minor)
		if err != nil || got != c.want {
			t.Errorf("FormatValue(%s, %d) = %q, %v; want %q", c.cur, c.minor, got, err, c.want)
		}
		back, err := paypal.ParseValue(c.cur, got)
		if err != nil || back != c.minor {
			t.Errorf("ParseValue(%s, %q) = %d, %v; want %d", c.cur, got, back, err, c.minor)
		}
	}
	for _, bad := range []struct {
		cur   string
		minor int64
	}{{"USD", -1}, {"JPY", -100}, {"XXX", 100}, {"usd", 100}, {"", 1}} {
		if v, err := paypal.FormatValue(bad.cur, bad.minor); err == nil {
			t.Errorf("FormatValue(%q, %d) = %q, want an error", bad.cur, bad.minor, v)
		}
	}
}

func TestParseValueStrict(t *testing.T) {
	good := []struct {
		cur, in string
		want    int64
	}{
		{"USD", "12.50", 1250},
		{"USD", "12.5", 1250},
		{"USD", "12", 1200},
		{"USD", "0.01", 1},
		{"USD", "007.10", 710},
		{"USD", "0", 0},
		{"USD", "92233720368547758.07", math.MaxInt64},
		{"JPY", "1250", 1250},
		{"JPY", "0", 0},
	}
	for _, c := range good {
		got, err := paypal.ParseValue(c.cur, c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseValue(%s, %q) = %d, %v; want %d", c.cur, c.in, got, err, c.want)
		}
	}
	bad := []struct{ cur, in string }{
		{"USD", ""}, {"USD", "12.345"}, {"USD", "12.500"}, {"USD", "1,000.00"}, {"USD", " 1.00"}, {"USD", "1.00 "},
		{"USD", "+1.00"}, {"USD", "-1.00"}, {"USD", "1e3"}, {"USD", ".50"}, {"USD", "1."}, {"USD", "1.2.3"},
		{"USD", "0x10"}, {"USD", "١٢"}, {"USD", "92233720368547758.08"}, {"USD", strings.Repeat("1", 33)},
		{"JPY", "100.0"}, {"JPY", "100."}, {"JPY", "9223372036854775808"}, {"XXX", "1.00"},
	}
	for _, c := range bad {
		if v, err := paypal.ParseValue(c.cur, c.in); err == nil {
			t.Errorf("ParseValue(%s, %q) = %d, want an error", c.cur, c.in, v)
		}
	}
}

func TestMoneyRoundTrip(t *testing.T) {
	for _, cur := range []string{"USD", "JPY"} {
		for v := int64(0); v < 2000; v += 7 {
			m, err := paypal.NewMoney(cur, v)
			if err != nil {
				t.Fatal(err)
			}
			if m.CurrencyCode != cur {
				t.Fatalf("currency %q", m.CurrencyCode)
			}
			back, err := m.Minor()
			if err != nil || back != v {
				t.Fatalf("%s %d -> %q -> %d, %v", cur, v, m.Value, back, err)
			}
		}
	}
}

// TestPayPalCurrencies: PayPal's own list of currencies and decimals, not
// the ISO minor units — HUF and TWD amounts are whole at PayPal although
// ISO 4217 gives them two decimals; a currency PayPal does not take (KWD)
// is refused everywhere.
func TestPayPalCurrencies(t *testing.T) {
	for _, code := range []string{"AUD", "BRL", "CAD", "CNY", "CZK", "DKK", "EUR", "HKD", "HUF", "ILS", "JPY", "MYR", "MXN", "TWD",
		"NZD", "NOK", "PHP", "PLN", "GBP", "SGD", "SEK", "CHF", "THB", "USD"} {
		n, ok := paypal.Decimals(code)
		want := 2
		if code == "HUF" || code == "JPY" || code == "TWD" {
			want = 0
		}
		if !ok || n != want {
			t.Errorf("Decimals(%s) = %d, %v; want %d", code, n, ok, want)
		}
	}
	for _, code := range []string{"KWD", "INR", "RUB", "ISK", "usd", ""} {
		if _, ok := paypal.Decimals(code); ok {
			t.Errorf("Decimals(%q) ok, want a currency PayPal does not take", code)
		}
		if v, err := paypal.FormatValue(code, 100); err == nil {
			t.Errorf("FormatValue(%q) = %q, want an error", code, v)
		}
	}
	for _, c := range []struct {
		code  string
		minor int64
		want  string
	}{{"HUF", 1234, "1234"}, {"TWD", 990, "990"}, {"JPY", 5, "5"}, {"EUR", 5, "0.05"}} {
		if got, err := paypal.FormatValue(c.code, c.minor); err != nil || got != c.want {
			t.Errorf("FormatValue(%s, %d) = %q, %v; want %q", c.code, c.minor, got, err, c.want)
		}
	}
	for _, bad := range []string{"1234.00", "1234.5", "12.34"} {
		if v, err := paypal.ParseValue("HUF", bad); err == nil {
			t.Errorf("ParseValue(HUF, %q) = %d, want an error (no decimals)", bad, v)
		}
	}
}

// TestToPayPal: the shop's minor units (its own number of decimals for a
// currency) become PayPal's exactly, or not at all.
func TestToPayPal(t *testing.T) {
	good := []struct {
		code     string
		decimals int
		in, want int64
	}{
		{"USD", 2, 1234, 1234},
		{"HUF", 2, 123400, 1234}, // the shop writes forints with 2 decimals; PayPal with none
		{"HUF", 0, 1234, 1234},
		{"EUR", 0, 12, 1200}, // a shop writing euros without decimals
		{"JPY", 0, 1500, 1500},
		{"TWD", 2, 0, 0},
		{"EUR", 4, 123400, 1234},
	}
	for _, c := range good {
		got, err := paypal.ToPayPal(c.code, c.decimals, c.in)
		if err != nil || got != c.want {
			t.Errorf("ToPayPal(%s, %d, %d) = %d, %v; want %d", c.code, c.decimals, c.in, got, err, c.want)
			continue
		}
		back, err := paypal.FromPayPal(c.code, c.decimals, got)
		if err != nil || back != c.in {
			t.Errorf("FromPayPal(%s, %d, %d) = %d, %v; want %d", c.code, c.decimals, got, back, err, c.in)
		}
	}
	bad := []struct {
		code     string
		decimals int
		in       int64
	}{
		{"HUF", 2, 123456}, // 1 234,56 Ft cannot be paid at PayPal
		{"JPY", 1, 15},
		{"EUR", 3, 12345},
		{"KWD", 3, 1000}, // not a PayPal currency
		{"EUR", 0, math.MaxInt64},
		{"EUR", -1, 1},
		{"EUR", 19, 1},
	}
	for _, c := range bad {
		if v, err := paypal.ToPayPal(c.code, c.decimals, c.in); err == nil {
			t.Errorf("ToPayPal(%s, %d, %d) = %d, want an error", c.code, c.decimals, c.in, v)
		}
	}
	if v, err := paypal.FromPayPal("EUR", 0, 1250); err == nil {
		t.Errorf("FromPayPal(EUR, 0, 1250) = %d, want an error (12.50 € is not whole euros)", v)
	}
}
