package myaccount

import (
	"strings"
	"testing"
	"time"
)

func TestSafeRedirectKeepsOnlySameSitePaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/checkout/", "/checkout/"},
		{"/my-account/orders/?page=2", "/my-account/orders/?page=2"},
		{"", ""},
		{"checkout/", ""},
		{"https://evil.example/", ""},
		{"//evil.example/", ""},
		{`/\evil.example/`, ""},
		{"/a\\b", ""},
		{"/a\r\nSet-Cookie: x=1", ""},
		{"/a\tb", ""},
		{"/" + strings.Repeat("a", 2000), ""},
	} {
		if got := safeRedirect(tc.in); got != tc.want {
			t.Errorf("safeRedirect(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWaitsAndLifetimesForPeople(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		wait string // waitText: whole minutes, rounded up
		life string // humanDuration: hours when whole, else minutes
	}{
		{0, "1 minute", "1 minute"},
		{30 * time.Second, "1 minute", "1 minute"},
		{61 * time.Second, "2 minutes", "1 minute"},
		{30 * time.Minute, "30 minutes", "30 minutes"},
		{time.Hour, "60 minutes", "1 hour"},
		{90 * time.Minute, "90 minutes", "90 minutes"},
		{24 * time.Hour, "1440 minutes", "24 hours"},
	} {
		if got := waitText(tc.d); got != tc.wait {
			t.Errorf("waitText(%v) = %q, want %q", tc.d, got, tc.wait)
		}
		if got := humanDuration(tc.d); got != tc.life {
			t.Errorf("humanDuration(%v) = %q, want %q", tc.d, got, tc.life)
		}
	}
}

func TestDeviceLabel(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes: cut inside a rune
	for _, tc := range []struct{ in, want string }{
		{"  Mozilla/5.0 (X11)  ", "Mozilla/5.0 (X11)"},
		{"", "Unknown browser"},
		{"\xff\xfe", "Unknown browser"},
		{long, strings.Repeat("é", 60)},
	} {
		if got := deviceLabel(tc.in); got != tc.want {
			t.Errorf("deviceLabel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
