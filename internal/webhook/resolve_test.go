package webhook_test

import (
	"errors"
	"net/netip"
)

type netipAddr = netip.Addr

// resolve is a fake DNS: internal.example resolves to a private address,
// public.example to a public one.
func resolve(host string) ([]netip.Addr, error) {
	switch host {
	case "internal.example":
		return []netip.Addr{netip.MustParseAddr("192.168.1.20")}, nil
	case "public.example":
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return nil, errors.New("no such host")
}
