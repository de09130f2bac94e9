// Package seed owns the demo catalogue that a fresh Vitrine store starts
// with: a small clothing and accessories shop whose products exercise every
// storefront feature (variations with swatches, "any" values, pre-orders,
// stock limits, grouped and external products, reviews), with product
// pictures generated locally as SVG so seeding needs no network.
package seed

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"vitrine/internal/catalog"
)

// Writer is what seeding needs (implemented by *sqlstore.DB).
type Writer interface {
	catalog.Writer
	SetCategoryDetails(ctx context.Context, id int64, description string, menuOrder int, imageID int64) error
}

// Result counts what Demo wrote.
type Result struct{ Products, Variations, Categories, Reviews, Images int }

// colour is a term of the global "Color" attribute.
type colour struct{ Name, Slug, Hex string }

var colours = []colour{
	{"Navy", "navy", "#1f3a5f"},
	{"Black", "black", "#1d1d1f"},
	{"Chalk", "chalk", "#f2eee6"},
	{"Heather grey", "heather-grey", "#a3a7ab"},
	{"Forest", "forest", "#2f5d46"},
	{"Rust", "rust", "#b5522b"},
	{"Mustard", "mustard", "#d9a23a"},
	{"Sky", "sky", "#8fb8d8"},
	{"Oat", "oat", "#d8c8a8"},
	{"Burgundy", "burgundy", "#6d2333"},
	{"Olive", "olive", "#6b6b3a"},
	{"Rose", "rose", "#d99a9a"},
}

var sizes = []string{"XS", "S", "M", "L", "XL", "XXL"}

// Demo seeds the demo catalogue. It is meant for an empty store: products
// are upserted by SKU, but reviews are appended on every call. now dates
// everything (creation, sales, pre-orders), so the same now gives the same
// data.
func Demo(ctx context.Context, w Writer, now time.Time) (Result, error) {
	b := &builder{
		ctx:    ctx,
		w:      w,
		now:    now.UTC(),
		cats:   map[string]int64{},
		tags:   map[string]int64{},
		colour: map[string]colour{},
		terms:  map[string]catalog.AttrTerm{},
		bySlug: map[string]*catalog.Product{},
	}
	steps := []func() error{b.attributes, b.categories, b.products, b.links, b.reviews}
	for _, step := range steps {
		if err := step(); err != nil {
			return b.res, fmt.Errorf("seed demo catalogue: %w", err)
		}
	}
	return b.res, nil
}

type builder struct {
	ctx context.Context
	w   Writer
	now time.Time
	res Result

	color, size catalog.Attribute
	colour      map[string]colour           // by slug
	terms       map[string]catalog.AttrTerm // "pa_color/navy"
	cats        map[string]int64            // "Clothing/T-shirts"
	tags        map[string]int64
	bySlug      map[string]*catalog.Product
	saved       []*catalog.Product // parents in save order
	pending     []linkSpec
}

type linkSpec struct {
	slug                string
	upsells, crossSells []string
}

func (b *builder) attributes() error {
	var err error
	if b.color, err = b.w.EnsureAttribute(b.ctx, catalog.Attribute{Name: "Color", Slug: "color", Type: catalog.SwatchColor, OrderBy: "menu_order"}); err != nil {
		return err
	}
	if b.size, err = b.w.EnsureAttribute(b.ctx, catalog.Attribute{Name: "Size", Slug: "size", Type: catalog.SwatchLabel, OrderBy: "menu_order"}); err != nil {
		return err
	}
	for i, c := range colours {
		t, err := b.w.EnsureTerm(b.ctx, catalog.AttrTerm{AttributeID: b.color.ID, Name: c.Name, Slug: c.Slug, Color: c.Hex, MenuOrder: i + 1})
		if err != nil {
			return fmt.Errorf("colour %s: %w", c.Name, err)
		}
		b.colour[c.Slug] = c
		b.terms["pa_color/"+c.Slug] = t
	}
	for i, s := range sizes {
		t, err := b.w.EnsureTerm(b.ctx, catalog.AttrTerm{AttributeID: b.size.ID, Name: s, Slug: strings.ToLower(s), MenuOrder: i + 1})
		if err != nil {
			return fmt.Errorf("size %s: %w", s, err)
		}
		b.terms["pa_size/"+strings.ToLower(s)] = t
	}
	return nil
}

type categorySpec struct {
	path        string
	order       int
	kind, color string // picture
	description string
}

var categorySpecs = []categorySpec{
	{"Clothing", 1, kindSweater, "#b5522b", "<p>Everyday clothes cut from honest fabrics, made in small runs and meant to be worn for years.</p>"},
	{"Clothing/T-shirts", 1, kindTee, "#1f3a5f", "<p>Heavy, soft, properly stitched tees in colours that age well.</p>"},
	{"Clothing/Shirts", 2, kindShirt, "#8fb8d8", "<p>Oxford and linen shirts for warm days and layering.</p>"},
	{"Clothing/Hoodies", 3, kindHoodie, "#a3a7ab", "<p>Loopback cotton hoodies and sweatshirts that keep their shape.</p>"},
	{"Clothing/Knitwear", 4, kindSweater, "#d8c8a8", "<p>Merino, lambswool and cotton knits, from light crews to chunky cables.</p>"},
	{"Clothing/Trousers", 5, kindTrousers, "#6b6b3a", "<p>Chinos, work pants and linen trousers with room to move.</p>"},
	{"Accessories", 2, kindTote, "#d9a23a", "<p>The small things that finish an outfit: bags, hats, scarves and socks.</p>"},
	{"Accessories/Bags", 1, kindTote, "#2f5d46", "<p>Canvas totes and pouches for the market, the office and the weekend.</p>"},
	{"Accessories/Hats", 2, kindPomBeanie, "#6d2333", "<p>Caps for the sun and knitted beanies for everything after.</p>"},
	{"Accessories/Scarves", 3, kindScarf, "#d99a9a", "<p>Wool, cashmere-blend and cotton scarves in every weight.</p>"},
	{"Accessories/Socks", 4, kindSocks, "#d9a23a", "<p>Cushioned cotton and wool socks, sold in pairs.</p>"},
	{"Prints", 3, kindPrint, "#1f3a5f", "<p>Small editions of prints by artists we like, signed and numbered.</p>"},
	{"Gift cards", 4, kindGiftCard, "#2f5d46", "<p>Let them choose. Gift cards are sent by email and never expire.</p>"},
}

func (b *builder) categories() error {
	for _, c := range categorySpecs {
		id, created, err := b.w.EnsureCategoryPath(b.ctx, strings.Split(c.path, "/"))
		if err != nil {
			return fmt.Errorf("category %s: %w", c.path, err)
		}
		b.res.Categories += created
		b.cats[c.path] = id
		name := c.path[strings.LastIndex(c.path, "/")+1:]
		img, err := b.saveImage("category-"+catalog.Slugify(name), 1, picture{
			Kind: c.kind, Color: c.color, View: viewFlat, Title: name + " collection", Label: "$50",
		})
		if err != nil {
			return err
		}
		if err := b.w.SetCategoryDetails(b.ctx, id, c.description, c.order, img.ID); err != nil {
			return fmt.Errorf("category %s: %w", c.path, err)
		}
	}
	return nil
}

// saveImage renders and stores one picture as demo/<slug>-<n>.svg.
func (b *builder) saveImage(slug string, n int, pic picture) (catalog.Image, error) {
	name := fmt.Sprintf("%s-%d.svg", slug, n)
	img := catalog.Image{Src: "/media/demo/" + name, Width: 1200, Height: 1200, Alt: pic.Title, Name: name}
	err := b.w.SaveImage(b.ctx, &img, []catalog.MediaFile{{Path: "demo/" + name, ContentType: "image/svg+xml", Data: renderSVG(pic)}})
	if err != nil {
		return img, fmt.Errorf("image %s: %w", name, err)
	}
	b.res.Images++
	return img, nil
}

func (b *builder) tagTerms(names []string) ([]catalog.Term, error) {
	var out []catalog.Term
	for _, n := range names {
		id, ok := b.tags[n]
		if !ok {
			var err error
			if id, err = b.w.EnsureTag(b.ctx, n); err != nil {
				return nil, fmt.Errorf("tag %s: %w", n, err)
			}
			b.tags[n] = id
		}
		out = append(out, catalog.Term{ID: id, Name: n, Slug: catalog.Slugify(n)})
	}
	return out, nil
}

func price(v int64) *int64 { return &v }

// stockFor is a believable, deterministic stock count for a SKU.
func stockFor(sku string, lo, spread int) int64 {
	h := fnv.New32a()
	h.Write([]byte(sku))
	return int64(lo + int(h.Sum32()%uint32(spread)))
}

// at is a day offset from now at a given UTC hour, for sale and release dates.
func (b *builder) at(days, hour int) *time.Time {
	d := b.now.AddDate(0, 0, days)
	t := time.Date(d.Year(), d.Month(), d.Day(), hour, 0, 0, 0, time.UTC)
	return &t
}

func viewLabel(kind string, view int) string {
	switch view {
	case viewBack:
		if garments[kind] {
			return "back view"
		}
		return "side view"
	case viewDetail:
		return "close-up"
	case viewFlat:
		return "flat lay"
	}
	return "front view"
}

// base fills the fields every demo product shares.
func (b *builder) base(d *def) (*catalog.Product, error) {
	tags, err := b.tagTerms(d.tags)
	if err != nil {
		return nil, err
	}
	catID, ok := b.cats[d.cat]
	if !ok {
		return nil, fmt.Errorf("product %s: unknown category %q", d.name, d.cat)
	}
	cats := []catalog.Term{{ID: catID}}
	p := &catalog.Product{
		Type:             catalog.TypeSimple,
		Name:             d.name,
		Slug:             catalog.Slugify(d.name),
		SKU:              d.sku,
		Status:           catalog.StatusPublish,
		Featured:         d.featured,
		ShortDescription: "<p>" + d.short + "</p>",
		Description:      d.long,
		Purchasable:      true,
		Visible:          true,
		Active:           true,
		MenuOrder:        d.order,
		Categories:       cats,
		Tags:             tags,
		Weight:           d.weight,
		CreatedAt:        b.now.Add(-time.Duration(d.age)*24*time.Hour - time.Duration(d.order)*time.Hour),
	}
	if d.dims != "" {
		dim := strings.Split(d.dims, "x")
		p.Length, p.Width, p.Height = dim[0], dim[1], dim[2]
	}
	if d.price > 0 {
		p.RegularPrice = price(d.price)
	}
	if d.sale > 0 {
		p.SalePrice = price(d.sale)
	}
	if d.stock > 0 {
		p.ManageStock = true
		p.StockQuantity = price(d.stock)
	}
	return p, nil
}

// simple saves a simple (or grouped, external) product with its gallery.
func (b *builder) simple(d def, tweak func(p *catalog.Product)) (*catalog.Product, error) {
	p, err := b.base(&d)
	if err != nil {
		return nil, err
	}
	views := d.views
	if len(views) == 0 {
		views = []int{viewFront, viewBack}
	}
	c := b.colour[d.colour]
	for i, v := range views {
		img, err := b.saveImage(p.Slug, i+1, picture{
			Kind: d.kind, Color: c.Hex, View: v, Label: d.label,
			Title: fmt.Sprintf("%s in %s, %s", d.name, strings.ToLower(c.Name), viewLabel(d.kind, v)),
		})
		if err != nil {
			return nil, err
		}
		p.Images = append(p.Images, catalog.Image{ID: img.ID})
	}
	if tweak != nil {
		tweak(p)
	}
	return p, b.save(p, nil, d)
}

// variable saves a variable product with a variation per colour and size.
// With no sizes it varies by colour alone; with anySize the size attribute
// is offered but each colour has one variation for any size.
func (b *builder) variable(d def, cols, szs []string, anySize bool, tweak func(v *catalog.Product, colour, size string)) (*catalog.Product, error) {
	p, err := b.base(&d)
	if err != nil {
		return nil, err
	}
	p.Type = catalog.TypeVariable
	p.ManageStock, p.StockQuantity = false, nil

	// The first colour's front shot is both the main image and that
	// colour's variation image; the gallery adds a back view, a close-up
	// and a flat lay of the second colour.
	n := 0
	shot := func(col string, view int) (int64, error) {
		n++
		c := b.colour[col]
		img, err := b.saveImage(p.Slug, n, picture{
			Kind: d.kind, Color: c.Hex, View: view,
			Title: fmt.Sprintf("%s in %s, %s", d.name, strings.ToLower(c.Name), viewLabel(d.kind, view)),
		})
		return img.ID, err
	}
	byColour := map[string]int64{}
	gallery := []struct {
		col  string
		view int
	}{{cols[0], viewFront}, {cols[0], viewBack}, {cols[0], viewDetail}}
	if len(cols) > 1 {
		gallery = append(gallery, struct {
			col  string
			view int
		}{cols[1], viewFlat})
	}
	for _, g := range gallery {
		id, err := shot(g.col, g.view)
		if err != nil {
			return nil, err
		}
		if g.view == viewFront {
			byColour[g.col] = id
		}
		p.Images = append(p.Images, catalog.Image{ID: id})
	}
	for _, col := range cols[1:] {
		id, err := shot(col, viewFront)
		if err != nil {
			return nil, err
		}
		byColour[col] = id
	}

	colourAttr := catalog.ProductAttribute{AttributeID: b.color.ID, Name: b.color.Name, Taxonomy: b.color.Taxonomy(), Visible: true, Variation: true}
	for _, c := range cols {
		t := b.terms["pa_color/"+c]
		colourAttr.Values = append(colourAttr.Values, catalog.AttributeValue{TermID: t.ID, Name: t.Name, Slug: t.Slug})
	}
	p.Attributes = append(p.Attributes, colourAttr)
	if len(szs) > 0 {
		sizeAttr := catalog.ProductAttribute{AttributeID: b.size.ID, Name: b.size.Name, Taxonomy: b.size.Taxonomy(), Position: 1, Visible: true, Variation: true}
		for _, s := range szs {
			t := b.terms["pa_size/"+strings.ToLower(s)]
			sizeAttr.Values = append(sizeAttr.Values, catalog.AttributeValue{TermID: t.ID, Name: t.Name, Slug: t.Slug})
		}
		p.Attributes = append(p.Attributes, sizeAttr)
	}
	variationSizes := szs
	if anySize || len(szs) == 0 {
		variationSizes = []string{""}
	}
	var vars []*catalog.Product
	for _, col := range cols {
		for _, s := range variationSizes {
			sku := d.sku + "-" + strings.ToUpper(col)
			attrs := []catalog.VariationAttr{{Name: "pa_color", Value: col}}
			if len(szs) > 0 {
				attrs = append(attrs, catalog.VariationAttr{Name: "pa_size", Value: strings.ToLower(s)})
				if s != "" {
					sku += "-" + s
				}
			}
			v := &catalog.Product{
				Type:          catalog.TypeVariation,
				Name:          d.name,
				SKU:           sku,
				Status:        catalog.StatusPublish,
				RegularPrice:  p.RegularPrice,
				SalePrice:     p.SalePrice,
				ManageStock:   true,
				StockQuantity: price(stockFor(sku, 8, 34)),
				Weight:        d.weight,
				Purchasable:   true,
				Visible:       true,
				Active:        true,
				MenuOrder:     len(vars) + 1,
				CreatedAt:     p.CreatedAt,
				Images:        []catalog.Image{{ID: byColour[col]}},
				Variation:     attrs,
			}
			if tweak != nil {
				tweak(v, col, s)
			}
			vars = append(vars, v)
		}
	}
	// The parent carries prices only through its variations.
	p.RegularPrice, p.SalePrice = nil, nil
	return p, b.save(p, vars, d)
}

func (b *builder) save(p *catalog.Product, vars []*catalog.Product, d def) error {
	for _, slug := range d.children {
		c, ok := b.bySlug[slug]
		if !ok {
			return fmt.Errorf("product %s: child %q is not saved yet", d.name, slug)
		}
		p.Children = append(p.Children, c.ID)
	}
	if _, err := b.w.SaveProduct(b.ctx, p, vars); err != nil {
		return fmt.Errorf("product %s: %w", p.Name, err)
	}
	b.res.Products++
	b.res.Variations += len(vars)
	b.bySlug[p.Slug] = p
	b.saved = append(b.saved, p)
	if len(d.upsells)+len(d.crossSells) > 0 {
		b.pending = append(b.pending, linkSpec{p.Slug, d.upsells, d.crossSells})
	}
	return nil
}

// links adds upsells and cross-sells once every product has an id, saving
// the parent again (its variations are kept).
func (b *builder) links() error {
	resolve := func(slugs []string) ([]int64, error) {
		var ids []int64
		for _, s := range slugs {
			p, ok := b.bySlug[s]
			if !ok {
				return nil, fmt.Errorf("linked product %q does not exist", s)
			}
			ids = append(ids, p.ID)
		}
		return ids, nil
	}
	for _, l := range b.pending {
		p := b.bySlug[l.slug]
		var err error
		if p.Upsells, err = resolve(l.upsells); err != nil {
			return fmt.Errorf("product %s: %w", p.Name, err)
		}
		if p.CrossSells, err = resolve(l.crossSells); err != nil {
			return fmt.Errorf("product %s: %w", p.Name, err)
		}
		if _, err := b.w.SaveProduct(b.ctx, p, nil); err != nil {
			return fmt.Errorf("product %s: links: %w", p.Name, err)
		}
	}
	return nil
}

func (b *builder) reviews() error {
	for i, r := range demoReviews {
		p, ok := b.bySlug[r.slug]
		if !ok {
			return fmt.Errorf("review for unknown product %q", r.slug)
		}
		rev := catalog.Review{
			ProductID: p.ID,
			Author:    r.author,
			Email:     strings.ToLower(strings.Fields(r.author)[0]) + "@example.com",
			Rating:    r.rating,
			Content:   r.text,
			Verified:  r.verified,
			Approved:  true,
			CreatedAt: b.now.Add(-time.Duration(r.daysAgo)*24*time.Hour - time.Duration(i)*37*time.Minute),
		}
		if err := b.w.SaveReview(b.ctx, &rev); err != nil {
			return fmt.Errorf("review of %s: %w", p.Name, err)
		}
		b.res.Reviews++
	}
	return nil
}
