package storeapi

import (
	"context"
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/money"
)

// LowStockThreshold is the stock count at or below which "only N left" is
// shown (spec section 9).
const LowStockThreshold = 5

// Builder converts catalogue values. BaseURL ("https://shop.example") is
// prefixed to links and media paths; leave it empty for site-relative links
// (pages). ExactStock includes stock counts, which change with every sale;
// cached pages leave them out and fetch them after load.
type Builder struct {
	BaseURL    string
	Currency   money.Currency
	Now        time.Time
	ExactStock bool
	// CategoryPaths maps a category id to its URL path below
	// /product-category/ ("clothing/hoodies").
	CategoryPaths map[int64]string
	// Convert, when set, turns products' base prices into Currency (the
	// shopper's currency; internal/currency's Table): Products loads it
	// with every id whose prices it writes before writing any. nil: prices
	// are written as stored, in Currency.
	Convert Converter
}

// Converter turns a product's base amounts into the Builder's currency.
type Converter interface {
	// Load prepares the conversion of ids' prices (fixed prices).
	Load(ctx context.Context, ids []int64) error
	// Amount is the product's base amount converted; sale says it is the
	// product's sale price.
	Amount(productID, amount int64, sale bool) int64
}

// ProductPrice is p's current price and regular price at b.Now in the
// Builder's currency; ok is false when p has no price.
func (b *Builder) ProductPrice(p *catalog.Product) (price, regular int64, ok bool) {
	price, ok = p.Price(b.Now)
	if !ok {
		return 0, 0, false
	}
	onSale := p.SaleActive(b.Now)
	regular = price
	if p.RegularPrice != nil {
		regular = *p.RegularPrice
	}
	if b.Convert != nil {
		price, regular = b.Convert.Amount(p.ID, price, onSale), b.Convert.Amount(p.ID, regular, false)
	}
	return price, regular, true
}

// rangeOf is catalog.RangeOf in the Builder's currency (a fixed price may
// reorder the children, so the range is taken after conversion).
func (b *Builder) rangeOf(children []*catalog.Product) catalog.PriceRange {
	if b.Convert == nil {
		return catalog.RangeOf(children, b.Now)
	}
	var r catalog.PriceRange
	for _, c := range children {
		if !c.Published() || (c.Type == catalog.TypeVariation && !c.Active) {
			continue
		}
		price, regular, ok := b.ProductPrice(c)
		if !ok {
			continue
		}
		if !r.Set {
			r = catalog.PriceRange{Min: price, Max: price, RegularMin: regular, RegularMax: regular, Set: true}
			continue
		}
		r.Min, r.Max = min(r.Min, price), max(r.Max, price)
		r.RegularMin, r.RegularMax = min(r.RegularMin, regular), max(r.RegularMax, regular)
	}
	return r
}

// Link makes an absolute (or site-relative) URL of a path.
func (b *Builder) Link(path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return b.BaseURL + path
}

// ProductPath is a product's page path.
func ProductPath(slug string) string { return "/product/" + slug + "/" }

// CategoryPath is a category page's path.
func (b *Builder) CategoryPath(id int64, slug string) string {
	if p, ok := b.CategoryPaths[id]; ok {
		return "/product-category/" + p + "/"
	}
	return "/product-category/" + slug + "/"
}

// Image is a Store API image, with the intrinsic size added.
type Image struct {
	ID              int64  `json:"id"`
	Src             string `json:"src"`
	Thumbnail       string `json:"thumbnail"`
	Srcset          string `json:"srcset"`
	Sizes           string `json:"sizes"`
	ThumbnailSrcset string `json:"thumbnail_srcset"`
	ThumbnailSizes  string `json:"thumbnail_sizes"`
	Name            string `json:"name"`
	Alt             string `json:"alt"`
	Width           int    `json:"width"`
	Height          int    `json:"height"`
}

// ThumbnailWidth is the rendition listings use.
const ThumbnailWidth = 600

// Image converts an image.
func (b *Builder) Image(img catalog.Image) Image {
	out := Image{ID: img.ID, Src: b.Link(img.Src), Name: img.Name, Alt: img.Alt, Width: img.Width, Height: img.Height}
	var set []string
	if img.Width > 0 {
		set = append(set, fmt.Sprintf("%s %dw", out.Src, img.Width))
	}
	out.Thumbnail = out.Src
	thumbW := img.Width
	for _, s := range img.Sizes {
		set = append(set, fmt.Sprintf("%s %dw", b.Link(s.Src), s.Width))
		// The smallest rendition at least as wide as a listing card needs.
		if s.Width >= ThumbnailWidth && (thumbW == 0 || s.Width < thumbW) {
			out.Thumbnail, thumbW = b.Link(s.Src), s.Width
		}
	}
	out.Srcset = strings.Join(set, ", ")
	out.ThumbnailSrcset = out.Srcset
	if img.Width > 0 {
		out.Sizes = fmt.Sprintf("(max-width: %dpx) 100vw, %dpx", img.Width, img.Width)
	}
	out.ThumbnailSizes = "(max-width: 549px) 50vw, (max-width: 1200px) 33vw, 400px"
	return out
}

// Prices is the Store API prices object.
type Prices struct {
	Price        string      `json:"price"`
	RegularPrice string      `json:"regular_price"`
	SalePrice    string      `json:"sale_price"`
	PriceRange   *PriceRange `json:"price_range"`
	money.Currency
}

// PriceRange is the min and max of a variable product's prices.
type PriceRange struct {
	MinAmount string `json:"min_amount"`
	MaxAmount string `json:"max_amount"`
}

// TermRef is a category, tag or brand as attached to a product.
type TermRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
	Link string `json:"link"`
}

// AttributeTerm is a term of a product attribute.
type AttributeTerm struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Slug    string `json:"slug"`
	Default bool   `json:"default"`
}

// ProductAttribute is a product's attribute.
type ProductAttribute struct {
	ID            int64           `json:"id"`
	Name          string          `json:"name"`
	Taxonomy      *string         `json:"taxonomy"`
	HasVariations bool            `json:"has_variations"`
	Terms         []AttributeTerm `json:"terms"`
}

// VariationRef names a variation and its attribute values.
type VariationRef struct {
	ID         int64          `json:"id"`
	Attributes []NameValueRef `json:"attributes"`
}

// NameValueRef is an attribute name and value pair.
type NameValueRef struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Dimensions are length, width and height as entered.
type Dimensions struct {
	Length string `json:"length"`
	Width  string `json:"width"`
	Height string `json:"height"`
}

// AddToCart describes the product's add-to-cart button.
type AddToCart struct {
	Text        string `json:"text"`
	Description string `json:"description"`
	URL         string `json:"url"`
	SingleText  string `json:"single_text"`
	Minimum     int64  `json:"minimum"`
	Maximum     int64  `json:"maximum"`
	MultipleOf  int64  `json:"multiple_of"`
}

// StockAvailability is the stock text and its CSS class.
type StockAvailability struct {
	Text  string `json:"text"`
	Class string `json:"class"`
}

// Product is the Store API product object.
type Product struct {
	ID                  int64              `json:"id"`
	Name                string             `json:"name"`
	Slug                string             `json:"slug"`
	Parent              int64              `json:"parent"`
	Type                string             `json:"type"`
	Variation           string             `json:"variation"`
	Permalink           string             `json:"permalink"`
	SKU                 string             `json:"sku"`
	ShortDescription    string             `json:"short_description"`
	Description         string             `json:"description"`
	OnSale              bool               `json:"on_sale"`
	Prices              Prices             `json:"prices"`
	PriceHTML           string             `json:"price_html"`
	AverageRating       string             `json:"average_rating"`
	ReviewCount         int                `json:"review_count"`
	Images              []Image            `json:"images"`
	Categories          []TermRef          `json:"categories"`
	Tags                []TermRef          `json:"tags"`
	Brands              []TermRef          `json:"brands"`
	Attributes          []ProductAttribute `json:"attributes"`
	Variations          []VariationRef     `json:"variations"`
	GroupedProducts     []int64            `json:"grouped_products"`
	HasOptions          bool               `json:"has_options"`
	IsPurchasable       bool               `json:"is_purchasable"`
	IsInStock           bool               `json:"is_in_stock"`
	IsOnBackorder       bool               `json:"is_on_backorder"`
	LowStockRemaining   *int64             `json:"low_stock_remaining"`
	StockAvailability   StockAvailability  `json:"stock_availability"`
	SoldIndividually    bool               `json:"sold_individually"`
	Weight              string             `json:"weight"`
	Dimensions          Dimensions         `json:"dimensions"`
	FormattedWeight     string             `json:"formatted_weight"`
	FormattedDimensions string             `json:"formatted_dimensions"`
	AddToCart           AddToCart          `json:"add_to_cart"`
	Extensions          map[string]any     `json:"extensions"`
}

func amount(v int64) string { return strconv.FormatInt(v, 10) }

// Product converts a parent product. variations are its variations (for a
// variable product) or children (for a grouped one), used for the price
// range and stock; they may be nil for other types.
func (b *Builder) Product(p *catalog.Product, children []*catalog.Product) Product {
	out := Product{
		ID: p.ID, Name: p.Name, Slug: p.Slug, Parent: p.ParentID, Type: p.Type, SKU: p.SKU,
		Permalink:        b.Link(ProductPath(p.Slug)),
		ShortDescription: p.ShortDescription, Description: p.Description,
		AverageRating: strconv.FormatFloat(p.AverageRating, 'f', 2, 64), ReviewCount: p.ReviewCount,
		Images: []Image{}, Categories: []TermRef{}, Tags: []TermRef{}, Brands: []TermRef{},
		Attributes: []ProductAttribute{}, Variations: []VariationRef{}, GroupedProducts: []int64{},
		SoldIndividually: p.SoldIndividually, Weight: p.Weight,
		Dimensions: Dimensions{p.Length, p.Width, p.Height}, Extensions: map[string]any{},
	}
	if p.AverageRating == 0 {
		out.AverageRating = "0"
	}
	for _, img := range p.Images {
		out.Images = append(out.Images, b.Image(img))
	}
	for _, c := range p.Categories {
		out.Categories = append(out.Categories, TermRef{c.ID, c.Name, c.Slug, b.Link(b.CategoryPath(c.ID, c.Slug))})
	}
	for _, t := range p.Tags {
		out.Tags = append(out.Tags, TermRef{t.ID, t.Name, t.Slug, b.Link("/product-tag/" + t.Slug + "/")})
	}
	for _, a := range p.Attributes {
		if !a.Visible && !a.Variation {
			continue
		}
		pa := ProductAttribute{ID: a.AttributeID, Name: a.Name, HasVariations: a.Variation, Terms: []AttributeTerm{}}
		if a.Taxonomy != "" {
			tax := a.Taxonomy
			pa.Taxonomy = &tax
		}
		for _, v := range a.Values {
			pa.Terms = append(pa.Terms, AttributeTerm{ID: v.TermID, Name: v.Name, Slug: v.Slug})
		}
		out.Attributes = append(out.Attributes, pa)
	}

	names := map[string]string{} // attribute key -> display name
	for _, a := range p.Attributes {
		names[a.Key()] = a.Name
	}
	var live []*catalog.Product
	for _, c := range children {
		if !c.Published() || (c.Type == catalog.TypeVariation && !c.Active) {
			continue
		}
		live = append(live, c)
	}
	switch p.Type {
	case catalog.TypeVariable:
		for _, v := range live {
			ref := VariationRef{ID: v.ID, Attributes: []NameValueRef{}}
			for _, a := range v.Variation {
				name := names[a.Name]
				if name == "" {
					name = a.Name
				}
				ref.Attributes = append(ref.Attributes, NameValueRef{name, a.Value})
			}
			out.Variations = append(out.Variations, ref)
		}
	case catalog.TypeGrouped:
		out.GroupedProducts = append(out.GroupedProducts, p.Children...)
	}

	b.setPrices(&out, p, live)
	b.setStock(&out, p, live)
	out.HasOptions = p.Type == catalog.TypeVariable
	out.FormattedWeight = formatWeight(p.Weight)
	out.FormattedDimensions = formatDimensions(out.Dimensions)
	out.AddToCart = b.addToCart(p, out)
	return out
}

func (b *Builder) setPrices(out *Product, p *catalog.Product, children []*catalog.Product) {
	out.Prices.Currency = b.Currency
	if p.Type == catalog.TypeVariable || p.Type == catalog.TypeGrouped {
		r := b.rangeOf(children)
		if !r.Set {
			out.PriceHTML = ""
			return
		}
		out.Prices.Price, out.Prices.RegularPrice, out.Prices.SalePrice = amount(r.Min), amount(r.RegularMin), amount(r.Min)
		out.Prices.PriceRange = &PriceRange{amount(r.Min), amount(r.Max)}
		for _, c := range children {
			if c.SaleActive(b.Now) {
				out.OnSale = true
			}
		}
		if r.Min == r.Max {
			out.Prices.PriceRange = nil
			out.PriceHTML = b.PriceHTML(r.Min, r.RegularMin, out.OnSale && r.Min < r.RegularMin)
		} else {
			out.PriceHTML = b.RangeHTML(r.Min, r.Max)
		}
		return
	}
	price, regular, ok := b.ProductPrice(p)
	if !ok {
		return
	}
	out.OnSale = p.SaleActive(b.Now)
	out.Prices.Price, out.Prices.RegularPrice, out.Prices.SalePrice = amount(price), amount(regular), amount(price)
	out.PriceHTML = b.PriceHTML(price, regular, out.OnSale)
}

// PriceHTMLOf is p's price_html as Product writes it (a range for a
// variable or grouped product, del/ins on sale), in the Builder's
// currency: what the price call answers for a product or variation id.
// children are a variable product's variations or a grouped product's
// children ("" when p has no price).
func (b *Builder) PriceHTMLOf(p *catalog.Product, children []*catalog.Product) string {
	var live []*catalog.Product
	for _, c := range children {
		if c.Published() && (c.Type != catalog.TypeVariation || c.Active) {
			live = append(live, c)
		}
	}
	var out Product
	b.setPrices(&out, p, live)
	return out.PriceHTML
}

// PriceHTML writes WooCommerce's price markup for one price.
func (b *Builder) PriceHTML(price, regular int64, onSale bool) string {
	if !onSale {
		return b.amountHTML(price, false)
	}
	c := b.Currency
	return `<del aria-hidden="true">` + b.amountHTML(regular, true) + `</del> <span class="screen-reader-text">Original price was: ` +
		html.EscapeString(c.Format(regular)) + `.</span><ins aria-hidden="true">` + b.amountHTML(price, true) +
		`</ins><span class="screen-reader-text">Current price is: ` + html.EscapeString(c.Format(price)) + `.</span>`
}

// RangeHTML writes WooCommerce's markup for a price range.
func (b *Builder) RangeHTML(lo, hi int64) string {
	c := b.Currency
	return `<span class="woocommerce-Price-amount amount" aria-hidden="true">` + b.amountInner(lo) + `</span> <span aria-hidden="true">&ndash;</span> ` +
		`<span class="woocommerce-Price-amount amount" aria-hidden="true">` + b.amountInner(hi) + `</span>` +
		`<span class="screen-reader-text">Price range: ` + html.EscapeString(c.Format(lo)) + ` through ` + html.EscapeString(c.Format(hi)) + `</span>`
}

func (b *Builder) amountHTML(v int64, bdi bool) string {
	inner := b.amountInner(v)
	if bdi {
		inner = "<bdi>" + inner + "</bdi>"
	}
	return `<span class="woocommerce-Price-amount amount">` + inner + `</span>`
}

func (b *Builder) amountInner(v int64) string {
	c := b.Currency
	sym := `<span class="woocommerce-Price-currencySymbol">` + html.EscapeString(c.Symbol) + `</span>`
	num := html.EscapeString(c.FormatNumber(v))
	switch c.Position() { // WooCommerce's four formats, a non-breaking space for the spaced ones
	case money.PosRight:
		return num + sym
	case money.PosRightSpace:
		return num + "&nbsp;" + sym
	case money.PosLeftSpace:
		return sym + "&nbsp;" + num
	}
	return sym + num
}

func (b *Builder) setStock(out *Product, p *catalog.Product, children []*catalog.Product) {
	switch p.Type {
	case catalog.TypeVariable, catalog.TypeGrouped:
		out.IsInStock = false
		for _, c := range children {
			if c.InStock() {
				out.IsInStock = true
			}
		}
		if len(children) == 0 {
			out.IsInStock = p.InStock()
		}
	default:
		out.IsInStock = p.InStock()
		out.IsOnBackorder = p.OnBackorder()
		if b.ExactStock {
			out.LowStockRemaining = p.LowStockRemaining(LowStockThreshold)
		}
	}
	out.IsPurchasable = p.IsPurchasable(b.Now)
	out.StockAvailability = b.availability(p, out.IsInStock, out.IsOnBackorder)
}

func (b *Builder) availability(p *catalog.Product, inStock, backorder bool) StockAvailability {
	switch {
	case !inStock:
		return StockAvailability{"Out of stock", "out-of-stock"}
	case backorder:
		return StockAvailability{"Available on backorder", "available-on-backorder"}
	case b.ExactStock && p.ManageStock && p.StockQuantity != nil:
		return StockAvailability{fmt.Sprintf("%d in stock", *p.StockQuantity), "in-stock"}
	case p.Type == catalog.TypeVariable || p.Type == catalog.TypeGrouped:
		return StockAvailability{"", "in-stock"}
	}
	return StockAvailability{"In stock", "in-stock"}
}

func (b *Builder) addToCart(p *catalog.Product, out Product) AddToCart {
	l := p.Limits()
	maxQ := l.Maximum
	if maxQ == 0 {
		maxQ = 9999
	}
	a := AddToCart{SingleText: "Add to cart", Minimum: l.Minimum, Maximum: maxQ, MultipleOf: l.MultipleOf, URL: out.Permalink}
	name := "&ldquo;" + html.EscapeString(p.Name) + "&rdquo;"
	switch {
	case p.Type == catalog.TypeVariable:
		a.Text, a.Description = "Select options", "Select options for "+name
	case p.Type == catalog.TypeGrouped:
		a.Text, a.Description = "View products", "View products in the "+name+" group"
	case p.Type == catalog.TypeExternal:
		a.Text = p.ButtonText
		if a.Text == "" {
			a.Text = "Buy product"
		}
		a.Description, a.URL, a.SingleText = html.EscapeString(a.Text), p.ExternalURL, a.Text
	case out.IsPurchasable && out.IsInStock:
		a.Text, a.Description = "Add to cart", "Add to cart: "+name
		a.URL = "?add-to-cart=" + strconv.FormatInt(p.ID, 10)
	default:
		a.Text, a.Description = "Read more", "Read more about "+name
	}
	return a
}

func formatWeight(w string) string {
	if w == "" {
		return ""
	}
	return w + " kg"
}

func formatDimensions(d Dimensions) string {
	var parts []string
	for _, v := range []string{d.Length, d.Width, d.Height} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		return "N/A"
	}
	return strings.Join(parts, " &times; ") + " cm"
}
