package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client's address, for every limit that counts per address (logins,
// lost-password requests, support messages, checkout) and for the proofs
// bound to an address.
//
// Behind a reverse proxy every request arrives from the proxy: counted by
// the TCP peer, all customers would share one address, and five wrong
// passwords from anyone would lock everyone out. Config.TrustedProxies
// names the proxies; when the peer is one of them the client is the
// right-most X-Forwarded-For entry that is not (each trusted proxy appends
// the address it received from, so entries further left were written by
// the client and prove nothing). Without trusted proxies the header is
// ignored: a client cannot pick its own address.

// clientIP is the request's client address ("" when unknown).
func (s *Server) clientIP(r *http.Request) string {
	host, proxied := s.fromTrustedProxy(r)
	if !proxied {
		return host
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		list := strings.Split(hops[i], ",")
		for j := len(list) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(list[j]))
			if err != nil {
				return host // a garbled chain: count the proxy, never a guess
			}
			if !s.trusted(a) {
				return a.Unmap().String()
			}
		}
	}
	return host
}

// fromTrustedProxy returns the TCP peer's address ("" when unknown) and
// whether it is one of --trusted-proxies, whose forwarded headers (the
// client chain, the country) may then be believed.
func (s *Server) fromTrustedProxy(r *http.Request) (host string, trusted bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return "", false
	}
	if len(s.cfg.TrustedProxies) == 0 {
		return host, false
	}
	peer, err := netip.ParseAddr(host)
	return host, err == nil && s.trusted(peer)
}

func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
