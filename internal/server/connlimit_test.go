package server

import (
	"net"
	"testing"
)

// TestConnKey: IPv4 clients are counted by address, IPv6 clients by /64,
// and an IPv4-mapped IPv6 address counts as its IPv4 address.
func TestConnKey(t *testing.T) {
	t.Parallel()
	key := func(ip string) string {
		p, ok := connKey(&net.TCPAddr{IP: net.ParseIP(ip), Port: 1234})
		if !ok {
			t.Fatalf("%s: no key", ip)
		}
		return p.String()
	}
	for ip, want := range map[string]string{
		"192.0.2.7":        "192.0.2.7/32",
		"::ffff:192.0.2.7": "192.0.2.7/32",
		"2001:db8:1:2::5":  "2001:db8:1:2::/64",
		"2001:db8:1:2:a::": "2001:db8:1:2::/64",
	} {
		if got := key(ip); got != want {
			t.Errorf("%s counted as %s, want %s", ip, got, want)
		}
	}
	if _, ok := connKey(&net.UnixAddr{Name: "/tmp/s", Net: "unix"}); ok {
		t.Error("a unix socket address was given an IP key")
	}
}
