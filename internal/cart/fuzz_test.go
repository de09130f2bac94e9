package cart

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParseQuantity: whatever a client sends, an accepted quantity is a
// whole number from 1 to MaxQuantity that the input really says (S2). The
// seeds are the boundaries a random search misses.
//
//	go test -fuzz FuzzParseQuantity -fuzztime 60s ./internal/cart/
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"0", "-1", "1", "9999", "10000", "2147483648", "9223372036854775807", "-9223372036854775808",
		"1e309", "1e4", "9999.0", "1.5", " 1", "1 ", "\t2\n", "１", "-0", "0x10", "+3", "1_000", "NaN", "Inf", "", "３"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n, err := ParseQuantity(raw)
		if err != nil {
			if n != 0 {
				t.Fatalf("ParseQuantity(%q) = %d with an error", raw, n)
			}
			return
		}
		if n < 1 || n > MaxQuantity {
			t.Fatalf("ParseQuantity(%q) = %d, outside 1..%d", raw, n, MaxQuantity)
		}
		// The value is the one written: as an integer, or as a float with
		// no fraction (JSON numbers like 2.0 or 1e2).
		s := strings.TrimSpace(raw)
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			if i != n {
				t.Fatalf("ParseQuantity(%q) = %d, want %d", raw, n, i)
			}
			return
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v != float64(n) {
			t.Fatalf("ParseQuantity(%q) = %d accepted something that is not that number", raw, n)
		}
	})
}
