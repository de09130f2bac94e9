package server

import (
	"context"
	"sync"

	"vitrine/internal/catalog"
)

// categoryCache is the catalogue store with its category list kept in
// memory. Every page and many Store API answers need the category tree (for
// the menu and category links), and loading it counts the products of each
// category, which costs about 250 ms at 100,000 products. The change log
// resets it when categories change or a product enters or leaves listings.
type categoryCache struct {
	catalog.Store
	mu   sync.Mutex
	gen  uint64
	cats []catalog.Category
	ok   bool
}

// Categories implements catalog.Store from memory when it can.
func (c *categoryCache) Categories(ctx context.Context) ([]catalog.Category, error) {
	c.mu.Lock()
	if c.ok {
		cats := c.cats
		c.mu.Unlock()
		return cats, nil
	}
	gen := c.gen
	c.mu.Unlock()
	cats, err := c.Store.Categories(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if gen == c.gen { // no reset while loading: the list is current
		c.cats, c.ok = cats, true
	}
	c.mu.Unlock()
	return cats, nil
}

// Reset forgets the list; the next call loads it again.
func (c *categoryCache) Reset() {
	c.mu.Lock()
	c.gen++
	c.cats, c.ok = nil, false
	c.mu.Unlock()
}
