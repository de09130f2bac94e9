package catalog

import (
	"context"
	"time"
)

// SitemapPageSize is how many product URLs one product sitemap lists (the
// protocol allows 50,000; smaller files are cheaper to rebuild).
const SitemapPageSize = 10000

// SitemapEntry is a product page a sitemap lists.
type SitemapEntry struct {
	Slug      string
	UpdatedAt time.Time
}

// SitemapStore reads the products the sitemaps list (published, not
// hidden) in id order, without loading them.
type SitemapStore interface {
	// SitemapPages is the newest update of each page of size products.
	SitemapPages(ctx context.Context, size int) ([]time.Time, error)
	// SitemapProducts calls fn with page n (from 1) of size products,
	// row by row.
	SitemapProducts(ctx context.Context, n, size int, fn func(SitemapEntry) error) error
}

// Sitemap is the catalogue's read for the product sitemaps: the products
// in pages of SitemapPageSize, in id order.
type Sitemap struct {
	Store SitemapStore
}

// Pages is the newest update of each product sitemap: the sitemap
// index's lastmod of each (one per page, none for an empty catalogue).
func (s *Sitemap) Pages(ctx context.Context) ([]time.Time, error) {
	return s.Store.SitemapPages(ctx, SitemapPageSize)
}

// Products calls fn with product sitemap n's products (n from 1), in id
// order; past the last page it never calls fn.
func (s *Sitemap) Products(ctx context.Context, n int, fn func(SitemapEntry) error) error {
	return s.Store.SitemapProducts(ctx, n, SitemapPageSize, fn)
}
