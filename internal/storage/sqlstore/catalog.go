package sqlstore

import "vitrine/internal/storage/sqlstore/catalogstore"

// The catalogue store's names, kept here for the store's callers.

// Change is one entry of the catalogue change log.
type Change = catalogstore.Change

// SitemapEntry is a product page for the sitemap.
type SitemapEntry = catalogstore.SitemapEntry

// ProductSave is one product and its variations for SaveProducts.
type ProductSave = catalogstore.ProductSave

// SearchCandidates is how many index matches a search reads at most.
const SearchCandidates = catalogstore.SearchCandidates
