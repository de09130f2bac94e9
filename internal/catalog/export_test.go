package catalog

// ApproxBytes is approxBytes, for the cache's tests.
func ApproxBytes(p *Product) int64 { return p.approxBytes() }

// Bytes is what the cache counts its products as taking.
func (c *Cache) Bytes() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.bytes
}
