// Package catalog owns the shop's catalogue: products of every type,
// variations, global attributes with their swatch terms, categories, tags,
// images and reviews, and the rules that read them (effective price, stock,
// purchasability, variation matching). Storage lives behind Store.
package catalog

import (
	"strings"
	"time"
)

// Product types. Variations are products too, with a parent, so product ids
// and variation ids share one id space as they do in WooCommerce: an
// add-to-cart call may name either.
const (
	TypeSimple    = "simple"
	TypeVariable  = "variable"
	TypeGrouped   = "grouped"
	TypeExternal  = "external"
	TypeVariation = "variation"
)

// Publication status.
const (
	StatusPublish = "publish"
	StatusDraft   = "draft"
	StatusPrivate = "private"
	StatusFuture  = "future" // scheduled: published at PublishAt
	StatusTrash   = "trash"
)

// Catalogue visibility (WooCommerce "Visibility in catalog").
const (
	VisibilityVisible = "visible" // shop and search
	VisibilityCatalog = "catalog" // shop only
	VisibilitySearch  = "search"  // search only
	VisibilityHidden  = "hidden"  // only by direct link
)

// Stock status.
const (
	StockInStock     = "instock"
	StockOutOfStock  = "outofstock"
	StockOnBackorder = "onbackorder"
)

// Backorder policy.
const (
	BackordersNo     = "no"
	BackordersNotify = "notify"
	BackordersYes    = "yes"
)

// Swatch types of a global attribute.
const (
	SwatchSelect = "select" // plain drop-down
	SwatchColor  = "color"
	SwatchImage  = "image"
	SwatchLabel  = "label"
)

// Product is a sellable thing or a variation of one. Prices are integer minor
// units of the shop currency; nil means "not set".
type Product struct {
	ID                int64
	ParentID          int64 // variations only
	Type              string
	Name              string
	Slug              string
	SKU               string
	Status            string
	CatalogVisibility string
	Featured          bool
	ShortDescription  string // HTML
	Description       string // HTML

	RegularPrice *int64
	SalePrice    *int64
	SaleFrom     *time.Time
	SaleTo       *time.Time

	ManageStock    bool
	StockQuantity  *int64
	StockStatus    string
	Backorders     string
	LowStockAmount *int64
	// StockEdit is how an admin save writes the stock count (never read
	// back): nil on a create or an import, which write StockQuantity as
	// it is.
	StockEdit *StockEdit

	// Dimensions as the merchant typed them (decimal strings, shop units).
	Weight, Length, Width, Height string

	MinQty           int64 // 0: no minimum beyond 1
	MaxQty           int64 // 0: unlimited
	Step             int64 // quantity multiple; 0 or 1: any
	SoldIndividually bool
	Purchasable      bool
	Visible          bool // variation_is_visible
	Active           bool // variation_is_active

	PreOrder      bool
	PreOrderAt    *time.Time
	PreOrderLabel string

	MenuOrder   int
	ExternalURL string
	ButtonText  string
	TaxStatus   string
	TaxClass    string

	AverageRating float64
	ReviewCount   int
	TotalSales    int64

	CreatedAt time.Time
	UpdatedAt time.Time
	// Version counts the product's writes (the admin's optimistic
	// concurrency); PublishAt is when a scheduled product goes live.
	Version   int64
	PublishAt *time.Time

	Images     []Image // first is the main image
	Categories []Term
	Tags       []Term
	Attributes []ProductAttribute // parents: the attributes shown and used for variations
	Variation  []VariationAttr    // variations: the value per attribute ("" = any)
	Children   []int64            // grouped products
	Upsells    []int64
	CrossSells []int64
	Meta       map[string]string
}

// ProductAttribute is one attribute of a product: a global one (AttributeID
// set, Taxonomy "pa_<slug>") or a local one with free-text values.
type ProductAttribute struct {
	AttributeID int64
	Name        string // display name
	Taxonomy    string // "pa_color" for global attributes, "" for local ones
	Position    int
	Visible     bool // shown on the product page
	Variation   bool // used for variations
	Values      []AttributeValue
}

// Key is the attribute's name as used in variation data and form fields
// ("pa_color", or the sanitized local name).
func (a ProductAttribute) Key() string {
	if a.Taxonomy != "" {
		return a.Taxonomy
	}
	return SanitizeAttributeName(a.Name)
}

// AttributeValue is one value of a product attribute. For global attributes
// it names a term; for local ones TermID is 0 and Slug equals Name.
type AttributeValue struct {
	TermID int64
	Name   string
	Slug   string
}

// VariationAttr is a variation's value for one attribute. Value is the term
// slug (global) or the text value (local); "" means "any value".
type VariationAttr struct {
	Name  string // "pa_color" or the sanitized local attribute name
	Value string
}

// Attribute is a global attribute such as colour or size.
type Attribute struct {
	ID          int64
	Name        string
	Slug        string // without the "pa_" prefix
	Type        string // swatch type
	OrderBy     string // menu_order, name, name_num, id
	HasArchives bool
	Count       int // products using it
	// Filterable: listings offer the attribute as a filter; choosing
	// several terms shows products with any of them (FilterQueryType
	// "or") or all of them ("and").
	Filterable      bool
	FilterQueryType string
}

// Taxonomy is the attribute's taxonomy name, "pa_<slug>".
func (a Attribute) Taxonomy() string { return "pa_" + a.Slug }

// AttrTerm is a term of a global attribute, with its swatch data.
type AttrTerm struct {
	ID          int64
	AttributeID int64
	Name        string
	Slug        string
	Description string
	Color       string // "#1f4e79" for colour swatches
	ImageURL    string // for image swatches
	MenuOrder   int
	Count       int
}

// Term is a category or tag as attached to a product.
type Term struct {
	ID   int64
	Name string
	Slug string
}

// Category is a node of the category tree.
type Category struct {
	ID          int64
	ParentID    int64
	Name        string
	Slug        string
	Description string
	ImageID     int64
	Image       *Image
	MenuOrder   int
	Count       int // published products in this category
	ReviewCount int
}

// Tag is a product tag.
type Tag struct {
	ID    int64
	Name  string
	Slug  string
	Count int
}

// Image is a picture with its generated sizes. Src is an absolute URL or a
// path under /media/.
type Image struct {
	ID      int64
	Src     string
	Width   int
	Height  int
	Alt     string
	Caption string
	Name    string
	Sizes   []ImageSize // smaller renditions, widest first
}

// ImageSize is one rendition of an image.
type ImageSize struct {
	Src    string `json:"src"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Review is a shopper's review of a product.
type Review struct {
	ID        int64
	ProductID int64
	Author    string
	Email     string
	Rating    int
	Content   string
	Verified  bool
	Approved  bool
	CreatedAt time.Time
}

// SanitizeAttributeName turns a local attribute's display name into the key
// WooCommerce uses in form fields and variation data: lower case, spaces to
// dashes.
func SanitizeAttributeName(name string) string {
	s := strings.ToLower(strings.TrimSpace(name))
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '_':
			b.WriteByte('-')
		case r == '-' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Slugify makes a URL slug from a name: lower case ASCII letters, digits and
// single dashes, with common Latin diacritics folded.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r == 'ß' {
			b.WriteString("ss")
			dash = false
			continue
		}
		if f, ok := fold[r]; ok {
			r = f
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

var fold = map[rune]rune{
	'à': 'a', 'á': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a', 'å': 'a', 'ç': 'c',
	'è': 'e', 'é': 'e', 'ê': 'e', 'ë': 'e', 'ì': 'i', 'í': 'i', 'î': 'i',
	'ï': 'i', 'ñ': 'n', 'ò': 'o', 'ó': 'o', 'ô': 'o', 'õ': 'o', 'ö': 'o',
	'ø': 'o', 'ù': 'u', 'ú': 'u', 'û': 'u', 'ü': 'u', 'ý': 'y', 'ÿ': 'y',
	'œ': 'o', 'æ': 'a',
}
