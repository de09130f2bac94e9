package currency

import (
	"context"
	"slices"
	"sync"
	"time"
)

// DefaultCacheTTL is how long CachedStore keeps the configured currencies.
const DefaultCacheTTL = 30 * time.Second

// CachedStore is a Store that keeps the configured currencies in memory
// for TTL, so the hot paths (the price call, the Store API, every page's
// switcher settings) do not read them from the database on every request.
// A write through it (SaveCurrency, RecordRates) drops the copy at once;
// a write by another process (the vitrine currency command) is seen within
// TTL. Fixed prices and the rate history are not cached.
type CachedStore struct {
	Store
	TTL time.Duration    // 0: DefaultCacheTTL
	Now func() time.Time // nil: time.Now

	mu      sync.Mutex
	list    []Currency
	fetched time.Time
	gen     uint64 // bumped by every write, so a read racing a write is not kept
}

// NewCachedStore wraps s.
func NewCachedStore(s Store, ttl time.Duration) *CachedStore { return &CachedStore{Store: s, TTL: ttl} }

func (c *CachedStore) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Currencies answers the cached list (a copy: callers may reorder it).
func (c *CachedStore) Currencies(ctx context.Context) ([]Currency, error) {
	ttl := c.TTL
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	c.mu.Lock()
	if c.list != nil && c.now().Sub(c.fetched) < ttl {
		out := slices.Clone(c.list)
		c.mu.Unlock()
		return out, nil
	}
	gen := c.gen
	c.mu.Unlock()
	list, err := c.Store.Currencies(ctx)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []Currency{}
	}
	c.mu.Lock()
	if c.gen == gen {
		c.list, c.fetched = slices.Clone(list), c.now()
	}
	c.mu.Unlock()
	return list, nil
}

// Invalidate drops the cached list.
func (c *CachedStore) Invalidate() {
	c.mu.Lock()
	c.list = nil
	c.gen++
	c.mu.Unlock()
}

// SaveCurrency writes through and drops the cached list.
func (c *CachedStore) SaveCurrency(ctx context.Context, cur Currency, rate *RateRecord, now time.Time) error {
	defer c.Invalidate()
	return c.Store.SaveCurrency(ctx, cur, rate, now)
}

// RecordRates writes through and drops the cached list.
func (c *CachedStore) RecordRates(ctx context.Context, records []RateRecord, current map[string]RateRecord, now time.Time) error {
	defer c.Invalidate()
	return c.Store.RecordRates(ctx, records, current, now)
}
