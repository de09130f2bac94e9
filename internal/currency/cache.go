package currency

import (
	"context"
	"slices"
	"strconv"
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
// TTL. FixedPrices answers are cached the same way, by currency and id
// list; the rate history is not cached.
type CachedStore struct {
	Store
	TTL time.Duration    // 0: DefaultCacheTTL
	Now func() time.Time // nil: time.Now

	mu      sync.Mutex
	list    []Currency
	fetched time.Time
	gen     uint64 // bumped by every write, so a read racing a write is not kept
	// fixed caches FixedPrices answers by currency and id list (a page of
	// prices asks for the same ids again and again), bounded.
	fixed map[string]fixedEntry
}

type fixedEntry struct {
	at  time.Time
	res map[int64]FixedPrice
}

// maxFixedEntries bounds the cached FixedPrices answers (then it starts over).
const maxFixedEntries = 4096

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

// Invalidate drops the cached list and fixed prices.
func (c *CachedStore) Invalidate() {
	c.mu.Lock()
	c.list, c.fixed = nil, nil
	c.gen++
	c.mu.Unlock()
}

// FixedPrices answers from the cache when the same currency and ids were
// asked for within TTL. The answer is shared: callers must not change it.
func (c *CachedStore) FixedPrices(ctx context.Context, code string, ids []int64) (map[int64]FixedPrice, error) {
	ttl := c.TTL
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	key := make([]byte, 0, len(code)+1+len(ids)*8)
	key = append(append(key, code...), ':')
	for _, id := range ids {
		key = strconv.AppendInt(key, id, 36)
		key = append(key, ',')
	}
	c.mu.Lock()
	if e, ok := c.fixed[string(key)]; ok && c.now().Sub(e.at) < ttl {
		c.mu.Unlock()
		return e.res, nil
	}
	gen := c.gen
	c.mu.Unlock()
	res, err := c.Store.FixedPrices(ctx, code, ids)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen == gen {
		if c.fixed == nil || len(c.fixed) >= maxFixedEntries {
			c.fixed = map[string]fixedEntry{}
		}
		c.fixed[string(key)] = fixedEntry{at: c.now(), res: res}
	}
	c.mu.Unlock()
	return res, nil
}

// SetFixedPrice writes through and drops the cache.
func (c *CachedStore) SetFixedPrice(ctx context.Context, p FixedPrice) error {
	defer c.Invalidate()
	return c.Store.SetFixedPrice(ctx, p)
}

// DeleteFixedPrice writes through and drops the cache.
func (c *CachedStore) DeleteFixedPrice(ctx context.Context, productID int64, code string) error {
	defer c.Invalidate()
	return c.Store.DeleteFixedPrice(ctx, productID, code)
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
