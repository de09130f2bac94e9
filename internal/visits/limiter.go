package visits

import (
	"net/netip"
	"sync"
	"time"
)

// Limiter bounds the session starts this instance takes: a token bucket
// per client address (an IPv6 address by its /64, what one subscriber
// holds) and one for every address together. A real browser starts a
// session at most every 30 minutes, so a household or an office behind one
// address stays far below the per-address bucket; a script posting in a
// loop gets its burst and then one start per Every. The buckets live in
// memory (a count need not be exact across instances: each instance bounds
// its own share), at most MaxClients of them; when that many are in use
// and none has refilled, a new address is refused rather than memory grown.
type Limiter struct {
	// Burst starts an address may make at once; Every is how long one
	// more takes to come back.
	Burst int
	Every time.Duration
	// AllBurst and AllEvery bound every address together (0: unbounded).
	AllBurst int
	AllEvery time.Duration
	// MaxClients bounds the addresses tracked.
	MaxClients int

	mu      sync.Mutex
	clients map[netip.Prefix]*bucket
	all     bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// DefaultLimiter: 10 starts at once and one more every 3 minutes per
// address (20 an hour); 200 at once and 50 a second for the instance;
// 100,000 addresses.
func DefaultLimiter() *Limiter {
	return &Limiter{Burst: 10, Every: 3 * time.Minute, AllBurst: 200, AllEvery: 20 * time.Millisecond, MaxClients: 100000}
}

// take refills b to now (up to burst) and takes a token if there is one;
// wait is how long until one comes back when there is none.
func (b *bucket) take(now time.Time, burst int, every time.Duration) (wait time.Duration, ok bool) {
	if b.at.IsZero() {
		b.tokens, b.at = float64(burst), now
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(float64(burst), b.tokens+float64(d)/float64(every))
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) * float64(every)), false
}

// full says whether b has refilled to burst by now (it can be forgotten).
func (b *bucket) full(now time.Time, burst int, every time.Duration) bool {
	return b.tokens+float64(now.Sub(b.at))/float64(every) >= float64(burst)
}

// key is the bucket a client address falls in: an IPv4 address itself, an
// IPv6 address's /64; anything unreadable shares one bucket.
func key(client string) netip.Prefix {
	a, err := netip.ParseAddr(client)
	if err != nil {
		return netip.Prefix{}
	}
	a = a.Unmap().WithZone("")
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// Allow takes one start for client at now, or says how long to wait.
func (l *Limiter) Allow(client string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clients == nil {
		l.clients = map[netip.Prefix]*bucket{}
	}
	k := key(client)
	b := l.clients[k]
	if b == nil {
		if l.MaxClients > 0 && len(l.clients) >= l.MaxClients {
			for ck, cb := range l.clients {
				if cb.full(now, l.Burst, l.Every) {
					delete(l.clients, ck)
				}
			}
			if len(l.clients) >= l.MaxClients {
				return l.Every, false
			}
		}
		b = &bucket{}
		l.clients[k] = b
	}
	// The address's own bucket first: a flood from one address does not
	// spend everyone's.
	probe := *b
	if wait, ok := probe.take(now, l.Burst, l.Every); !ok {
		*b = probe
		return wait, false
	}
	if l.AllBurst > 0 {
		if wait, ok := l.all.take(now, l.AllBurst, l.AllEvery); !ok {
			return wait, false // the address's token is not spent
		}
	}
	*b = probe
	return 0, true
}

// Clients is how many addresses are tracked (for tests).
func (l *Limiter) Clients() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}
