package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Resolver looks a host's addresses up.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// ErrPrivate is the refusal of an internal address.
var ErrPrivate = errors.New("webhook: the delivery URL resolves to a loopback, private or link-local address")

// cgnat is the carrier-grade NAT range (RFC 6598), internal too.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Internal reports whether ip is one a webhook may not reach without
// AllowPrivate: loopback, private (RFC 1918, fc00::/7), link-local,
// unspecified, multicast, CGNAT.
func Internal(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip)
}

// checkHost refuses a host that is, or resolves to, an internal address.
// A lookup that fails is not a refusal (the dial checks again).
func checkHost(ctx context.Context, resolve Resolver, host string) error {
	if ip, err := netip.ParseAddr(host); err == nil {
		if Internal(ip) {
			return ErrPrivate
		}
		return nil
	}
	if resolve == nil {
		resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	ips, err := resolve(ctx, host)
	if err != nil {
		return nil
	}
	for _, ip := range ips {
		if Internal(ip) {
			return ErrPrivate
		}
	}
	return nil
}

// dialControl refuses, at connect time, an internal address: the address
// the dialer resolved and is about to connect to, so a name that resolved
// to a public address when the webhook was saved and to an internal one
// now is refused too.
func dialControl(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook: dial %s: %w", address, err)
	}
	if Internal(ap.Addr()) {
		return fmt.Errorf("%w (%s)", ErrPrivate, ap.Addr())
	}
	return nil
}
