// Package catalogstore is the catalogue's SQL: products and their
// variations, categories, tags, attributes and terms, images and the media
// library, listing and search queries, the listing filters' counts and
// their kept index (facetindex.go), the admin's product list and
// schedules, stock edits, and the catalogue's change log. sqlstore.DB
// embeds a Catalog, so these are methods of the store the server opens.
package catalogstore

import "vitrine/internal/storage/sqlstore/sqlcore"

// Catalog is the catalogue's store over the shared connection core.
// Facets, when set, is the listed products' filter index kept from the
// change log (facetindex.go); without it counts are computed in SQL.
type Catalog struct {
	*sqlcore.DB
	Facets *FacetIndex
}
