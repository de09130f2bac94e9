package paypal_test

import (
	"testing"

	"vitrine/internal/payment/paypal"
)

// FuzzAmountRoundTrip: an amount PayPal sends back is read strictly, and a
// value the shop formats reads back to the same minor units, for a
// two-decimal and a zero-decimal currency (S3: no float anywhere).
//
//	go test -fuzz FuzzAmountRoundTrip -fuzztime 60s ./internal/payment/paypal/
func FuzzAmountRoundTrip(f *testing.F) {
	for _, s := range []string{"0", "0.00", "12.50", "12.5", "12.505", "-1.00", "1e3", "1,000.00", " 1.00", "１.00", "0x10",
		"92233720368547758.07", "92233720368547758.08", "9223372036854775807", "00012.30", ".5", "5.", "NaN"} {
		f.Add(s, int64(1250))
	}
	f.Add("1", int64(-1))
	f.Add("1", int64(1<<62))
	f.Fuzz(func(t *testing.T, value string, minor int64) {
		for _, code := range []string{"USD", "JPY"} {
			if n, err := paypal.ParseValue(code, value); err == nil {
				if n < 0 {
					t.Fatalf("ParseValue(%s, %q) = %d", code, value, n)
				}
				// What was read formats back to the same amount.
				again, err := paypal.FormatValue(code, n)
				if err != nil {
					t.Fatal(err)
				}
				if m, err := paypal.ParseValue(code, again); err != nil || m != n {
					t.Fatalf("%s: %q → %d → %q → %d, %v", code, value, n, again, m, err)
				}
			}
			s, err := paypal.FormatValue(code, minor)
			if minor < 0 {
				if err == nil {
					t.Fatalf("FormatValue(%s, %d) accepted a negative amount", code, minor)
				}
				continue
			}
			if err != nil {
				t.Fatalf("FormatValue(%s, %d): %v", code, minor, err)
			}
			if back, err := paypal.ParseValue(code, s); err != nil || back != minor {
				t.Fatalf("%s: %d → %q → %d, %v", code, minor, s, back, err)
			}
		}
	})
}
