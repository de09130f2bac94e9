package server

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientIP(t *testing.T) {
	t.Parallel()
	direct := &Server{}
	proxied := &Server{cfg: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}}}
	for _, c := range []struct {
		name   string
		s      *Server
		remote string
		xff    []string
		want   string
	}{
		{"no proxies: the peer, whatever the header says", direct, "198.51.100.9:4000", []string{"203.0.113.1"}, "198.51.100.9"},
		{"a peer that is not a trusted proxy", proxied, "198.51.100.9:4000", []string{"203.0.113.1"}, "198.51.100.9"},
		{"a trusted proxy names the client", proxied, "10.1.2.3:4000", []string{"203.0.113.1"}, "203.0.113.1"},
		{"entries the client wrote are skipped", proxied, "10.1.2.3:4000", []string{"6.6.6.6, 203.0.113.1"}, "203.0.113.1"},
		{"chains of trusted proxies, several headers", proxied, "[::1]:4000", []string{"6.6.6.6", "203.0.113.1, 10.9.9.9"}, "203.0.113.1"},
		{"a garbled entry counts the proxy", proxied, "10.1.2.3:4000", []string{"203.0.113.1, not-an-ip"}, "10.1.2.3"},
		{"no header from a trusted proxy", proxied, "10.1.2.3:4000", nil, "10.1.2.3"},
		{"IPv4 mapped in IPv6", proxied, "10.1.2.3:4000", []string{"::ffff:203.0.113.1"}, "203.0.113.1"},
		{"a malformed peer", proxied, "nonsense", []string{"203.0.113.1"}, ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := c.s.clientIP(r); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
