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

// pageStore is the catalogue store the page loaders read: the category
// list in memory (categoryCache), and products, variations and their
// lists from the product cache (s.products, the cart's), which the change
// log keeps current. A page the page cache does not hold then reads its
// product, its variations and its linked products without SQL: of a
// product page's 18 to 32 statements, what is left is its reviews and the
// related products' query. A product page's read (ProductBySlug, and
// Product for the quick view) first brings the cache up to the change log
// (one statement), so it sees every change committed before it, as a
// direct read would; the reads after it in the same page share that.
type pageStore struct {
	*categoryCache
	products *catalog.Cache
}

func (s pageStore) ProductBySlug(ctx context.Context, slug string) (*catalog.Product, error) {
	if err := s.products.Synced(ctx); err != nil {
		return nil, err
	}
	return s.products.ProductBySlug(ctx, slug)
}

func (s pageStore) Product(ctx context.Context, id int64) (*catalog.Product, error) {
	if err := s.products.Synced(ctx); err != nil {
		return nil, err
	}
	return s.products.Product(ctx, id)
}

func (s pageStore) Products(ctx context.Context, ids []int64) ([]*catalog.Product, error) {
	return s.products.Products(ctx, ids)
}

func (s pageStore) Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error) {
	return s.products.Variations(ctx, parentID)
}

func (s pageStore) VariationsOf(ctx context.Context, parentIDs []int64) (map[int64][]*catalog.Product, error) {
	return s.products.VariationsOf(ctx, parentIDs)
}
