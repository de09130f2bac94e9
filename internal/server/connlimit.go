package server

import (
	"net"
	"net/netip"
	"sync"
)

// LimitConnsPerIP wraps ln so that one remote address holds at most max
// open connections: an extra connection is closed as soon as it is
// accepted, before anything is read from it, and counted in
// vitrine_connections_rejected_total. IPv6 clients are counted by /64 (one
// host usually has the whole prefix). max <= 0 returns ln unchanged.
//
// Behind a reverse proxy every connection comes from the proxy: the limit
// must then be off (0) or above what the proxy opens.
func (s *Server) LimitConnsPerIP(ln net.Listener, max int) net.Listener {
	return limitConnsPerIP(ln, max, s.metrics.connsRejected.Inc)
}

func limitConnsPerIP(ln net.Listener, max int, rejected func()) net.Listener {
	if max <= 0 {
		return ln
	}
	return &perIPListener{Listener: ln, max: max, open: map[netip.Prefix]int{}, rejected: rejected}
}

type perIPListener struct {
	net.Listener
	max      int
	rejected func()

	mu   sync.Mutex
	open map[netip.Prefix]int
}

func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, ok := connKey(c.RemoteAddr())
		if !ok {
			return c, nil // not an IP connection (a unix socket): not limited
		}
		l.mu.Lock()
		if l.open[key] >= l.max {
			l.mu.Unlock()
			// Counted before the close: whoever sees the close sees the count.
			if l.rejected != nil {
				l.rejected()
			}
			_ = c.Close()
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

func (l *perIPListener) release(key netip.Prefix) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// connKey is the address a connection is counted under: the IPv4 address,
// or the IPv6 /64.
func connKey(a net.Addr) (netip.Prefix, bool) {
	var ip netip.Addr
	switch a := a.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return netip.Prefix{}, false
		}
		ip = ap.Addr()
	}
	if !ip.IsValid() {
		return netip.Prefix{}, false
	}
	ip = ip.Unmap()
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, err := ip.Prefix(bits)
	return p, err == nil
}

// countedConn gives its slot back once, on the first Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
