package catalog

import (
	"context"
	"errors"
)

// ErrNotFound is returned by stores for a missing row.
var ErrNotFound = errors.New("not found")

// ProductQuery selects catalogue products (never variations) the way the
// Store API's products route does. Zero values mean "no filter".
type ProductQuery struct {
	Page, PerPage int    // 1-based page; PerPage 1..100
	OrderBy       string // date, modified, id, include, title, slug, price, popularity, rating, menu_order, relevance
	// Search finds products by name, SKU (theirs or a variation's),
	// description words and tag names, diacritics and case folded, the last
	// word as a prefix, forgiving typos and plurals (PlanSearch); a query
	// that is a SKU finds its product. Only published, not hidden products are found,
	// narrowed further by Visibility ("search" for the shop's search). With Search,
	// an empty OrderBy means relevance: the exact name (or SKU) first, then
	// name matches, then matches anywhere; in stock before out of stock;
	// best-sellers, then menu order and name. A very common word considers only the first
	// sqlstore.SearchCandidates matches of each kind, or SearchCandidates
	// when set (live search asks for fewer: it shows ten).
	SearchCandidates int
	// NoCount skips counting every match (the total is returned as -1):
	// live search shows ten suggestions and needs no total.
	NoCount bool
	// Cards loads what a product card shows and no more: the product rows
	// without their descriptions, their images, and the links a grouped
	// product's price is read from; no terms, attributes or meta (pages'
	// listings, related products and the home page's sections).
	Cards       bool
	Order       string // asc or desc
	Type        string
	CategoryIDs []int64 // any of these (including their descendants when Descendants)
	Descendants bool
	TagIDs      []int64
	// TagOperator says how TagIDs match (the Store API's tag_operator):
	// "in" (or empty) any of them, "and" all of them, "not_in" none.
	TagOperator string
	Search      string
	// Synonyms are the owner's synonym groups the search also matches
	// (the search settings).
	Synonyms    Synonyms
	Include     []int64
	Exclude     []int64
	SKUs        []string
	Slug        string
	Featured    *bool
	OnSale      *bool
	MinPrice    *int64
	MaxPrice    *int64
	StockStatus []string
	// Attributes narrow by global attribute terms (filters.go), joined by
	// AttributeRelation: "and" (or empty) every filter, "in" any of them.
	Attributes        []AttributeFilter
	AttributeRelation string
	// Ratings keeps products whose rounded average rating (RoundedRating)
	// is one of these (1..5).
	Ratings []int
	// Visibility: "catalog" lists what the shop shows (visible+catalog),
	// "search" what search shows (visible+search), "listable" everything
	// published but hidden, "any" everything published, "all" everything.
	Visibility string
}

// Store is what the catalogue needs from storage. Reads return published and
// unpublished rows alike; callers apply visibility rules.
type Store interface {
	// Product loads one product or variation with its relations.
	Product(ctx context.Context, id int64) (*Product, error)
	// ProductBySlug loads a parent product by slug.
	ProductBySlug(ctx context.Context, slug string) (*Product, error)
	// Products loads products by id, in the order of ids, skipping missing ones.
	Products(ctx context.Context, ids []int64) ([]*Product, error)
	// Variations loads a variable product's variations in menu order.
	Variations(ctx context.Context, parentID int64) ([]*Product, error)
	// VariationsOf loads the variations of many parents at once, with their
	// attribute values but without images or meta: enough for cards and
	// lists (prices, stock, variation references).
	VariationsOf(ctx context.Context, parentIDs []int64) (map[int64][]*Product, error)
	// QueryProducts returns one page of matching products and the total count.
	QueryProducts(ctx context.Context, q ProductQuery) ([]*Product, int, error)

	Categories(ctx context.Context) ([]Category, error)
	Category(ctx context.Context, id int64) (*Category, error)
	CategoryBySlug(ctx context.Context, slug string) (*Category, error)
	Tags(ctx context.Context) ([]Tag, error)
	Attributes(ctx context.Context) ([]Attribute, error)
	Attribute(ctx context.Context, id int64) (*Attribute, error)
	AttributeTerms(ctx context.Context, attributeID int64) ([]AttrTerm, error)
	// FilterAttributes is every global attribute with its terms, in the
	// orders Attributes and AttributeTerms give, for the listing filters;
	// their Count fields may be 0 (the filters count products themselves).
	// The SQL store keeps them in memory until the change log announces a
	// taxonomy change; callers must not modify them.
	FilterAttributes(ctx context.Context) ([]FilterAttribute, error)
	Reviews(ctx context.Context, productID int64, limit int) ([]Review, error)

	// CountProducts counts all products and variations (for "is the store empty").
	CountProducts(ctx context.Context) (int, error)

	// FacetStore counts a listing's filter options (CountFacets).
	FacetStore
}

// Writer is what import and seeding need: idempotent upserts by natural keys.
type Writer interface {
	// SaveProduct inserts or updates a parent product and its variations in
	// one transaction. A product is matched by ID when set, else by SKU when
	// set, else by slug. Variations are matched by ID, then SKU, then their
	// attribute combination; variations of the parent not in the list are
	// kept. IDs are filled in. It reports whether the parent was created.
	SaveProduct(ctx context.Context, p *Product, variations []*Product) (created bool, err error)
	// EnsureCategoryPath finds or creates each category of a path ("Clothing",
	// "Hoodies") under the previous one and returns the last one's id and how
	// many were created.
	EnsureCategoryPath(ctx context.Context, path []string) (id int64, created int, err error)
	EnsureTag(ctx context.Context, name string) (int64, error)
	// EnsureAttribute finds a global attribute by slug or creates it.
	EnsureAttribute(ctx context.Context, a Attribute) (Attribute, error)
	// EnsureTerm finds a term by attribute and slug or creates it; swatch
	// fields of an existing term are updated when non-empty.
	EnsureTerm(ctx context.Context, t AttrTerm) (AttrTerm, error)
	// SaveImage stores image metadata (and returns its id); Data, when not
	// nil, is stored as a media file served under Src.
	SaveImage(ctx context.Context, img *Image, media []MediaFile) error
	SaveReview(ctx context.Context, r *Review) error
	// ProductIDBySKU resolves a SKU to an id (for import links).
	ProductIDBySKU(ctx context.Context, sku string) (int64, error)
}

// MediaFile is a stored file served under /media/ (generated or imported).
type MediaFile struct {
	Path        string // path under /media/, e.g. "2026/11/tee-red-600.jpg"
	ContentType string
	Data        []byte
}
