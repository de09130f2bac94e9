package wcimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/importer"
	"vitrine/internal/money"
)

// The catalogue's import: global attributes with their terms and swatch
// colours, categories with their tree, tags, then products of every type
// with their variations and images, and a second pass for the links
// between products (up-sells, cross-sells, grouped children), which may
// point forward. Everything is written through the catalogue's own
// writer and admin use cases, so caches, search and webhooks follow as
// they do for the owner's edits.

// CatalogueStore is what the catalogue's import reads (sqlstore.DB).
type CatalogueStore interface {
	Product(ctx context.Context, id int64) (*catalog.Product, error)
	Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error)
	Categories(ctx context.Context) ([]catalog.Category, error)
	Tags(ctx context.Context) ([]catalog.Tag, error)
	Attributes(ctx context.Context) ([]catalog.Attribute, error)
	AttributeTerms(ctx context.Context, attributeID int64) ([]catalog.AttrTerm, error)
	ImageByID(ctx context.Context, id int64) (*catalog.Image, error)
}

// CatalogueDeps are what the catalogue's import writes with.
type CatalogueDeps struct {
	Store  CatalogueStore
	Writer catalog.Writer
	// Admin saves categories, tags and terms with the admin's checks.
	Admin *catalog.Admin
	// MinorUnit is the shop currency's decimals (prices are decimal
	// strings in the old shop).
	MinorUnit int
}

// catalogueState is what the catalogue's resources share during a run.
type catalogueState struct {
	mu    sync.Mutex
	terms map[int64][]catalog.AttrTerm // by new attribute id
	attrs map[int64]catalog.Attribute  // by new attribute id
	cats  map[int64]wcCategory         // every category read, by old id
	links map[int64]productLinks       // products with links, by old id
}

type productLinks struct {
	name                 string
	upsells, cross, kids []int64 // old ids
}

// catalogueResources are the catalogue's resources, in order.
func (r *Run) catalogueResources() []resource {
	return []resource{
		{name: "attributes", path: "wc/v3/products/attributes", one: importAttribute},
		{name: "categories", path: "wc/v3/products/categories", one: importCategory, finish: finishCategories},
		{name: "tags", path: "wc/v3/products/tags", one: importTag},
		{name: "products", path: "wc/v3/products", query: url.Values{"status": {"any"}}, one: importProduct, finish: finishProducts},
	}
}

// volatile are fields that change without the record changing for this
// shop (counts, sales, ratings, the related products WooCommerce picks at
// random, links): the digest leaves them out.
var volatile = []string{"count", "total_sales", "average_rating", "rating_count", "related_ids", "_links", "price_html"}

// stable is raw without its volatile fields, keys sorted.
func stable(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	for _, f := range volatile {
		delete(m, f)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// oldPath is a permalink's path ("/product/hoodie/"), "" when none.
func oldPath(permalink string) string {
	u, err := url.Parse(permalink)
	if err != nil || permalink == "" {
		return ""
	}
	return u.EscapedPath()
}

func (r *Run) catState() *catalogueState {
	c := &r.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.terms == nil {
		c.terms, c.attrs = map[int64][]catalog.AttrTerm{}, map[int64]catalog.Attribute{}
		c.cats, c.links = map[int64]wcCategory{}, map[int64]productLinks{}
	}
	return c
}

// --- attributes and terms

type wcAttribute struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Type        string `json:"type"`
	OrderBy     string `json:"order_by"`
	HasArchives bool   `json:"has_archives"`
}

type wcTerm struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Slug        string   `json:"slug"`
	Description string   `json:"description"`
	MenuOrder   int      `json:"menu_order"`
	Color       string   `json:"color"` // some swatch plugins answer it as a field
	Meta        []wcMeta `json:"meta_data"`
}

// swatchType maps a swatch plugin's attribute type onto the shop's.
func swatchType(t string) string {
	switch t {
	case "color", "colour":
		return catalog.SwatchColor
	case "image":
		return catalog.SwatchImage
	case "label", "button":
		return catalog.SwatchLabel
	}
	return catalog.SwatchSelect
}

// termColor is a term's swatch colour: the term's own field, or the meta
// a swatch plugin keeps it in.
func termColor(t wcTerm) string {
	c := t.Color
	for _, m := range t.Meta {
		if s, ok := m.Value.(string); ok && c == "" && (m.Key == "product_attribute_color" || m.Key == "color" || m.Key == "swatch_color") {
			c = s
		}
	}
	c = strings.ToLower(strings.TrimSpace(c))
	if len(c) != 7 && len(c) != 4 || !strings.HasPrefix(c, "#") {
		return ""
	}
	return c
}

func importAttribute(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var a wcAttribute
	if err := json.Unmarshal(raw, &a); err != nil {
		return Refused, refuse("", "not an attribute: "+err.Error())
	}
	slug := strings.TrimPrefix(a.Slug, "pa_")
	if strings.TrimSpace(a.Name) == "" || catalog.Slugify(slug) == "" {
		return Refused, refuse(a.Name, "an attribute needs a name and a slug")
	}
	st := stable(raw)
	newID, unchanged, err := r.seen(ctx, "attribute", a.ID, st)
	if err != nil {
		return Refused, err
	}
	out := Created
	if newID != 0 {
		out = Updated
	}
	if unchanged {
		out = Unchanged
	} else if !r.dry {
		at, err := r.deps.Catalogue.Writer.EnsureAttribute(ctx, catalog.Attribute{Name: a.Name, Slug: catalog.Slugify(slug),
			Type: swatchType(a.Type), OrderBy: a.OrderBy, HasArchives: a.HasArchives})
		if err != nil {
			return Refused, refuse(a.Name, "could not be saved: "+err.Error())
		}
		newID = at.ID
	}
	if out != Unchanged {
		if err := r.remember(ctx, "attribute", a.ID, newID, "", st); err != nil {
			return Refused, err
		}
		if r.dry {
			newID, _ = r.newID(ctx, "attribute", a.ID)
		}
	}
	// The terms have digests of their own: an unchanged attribute may
	// have new or changed terms.
	terms, err := r.listAll(ctx, fmt.Sprintf("wc/v3/products/attributes/%d/terms", a.ID))
	if err != nil {
		return Refused, err
	}
	for _, traw := range terms {
		o, err := importTerm(ctx, r, newID, a, traw)
		var ref *refusal
		if errors.As(err, &ref) {
			r.refused("attribute_terms", oldID(traw), ref)
			continue
		}
		if err != nil {
			return Refused, err
		}
		r.tally("attribute_terms", o)
	}
	return out, nil
}

func importTerm(ctx context.Context, r *Run, attrID int64, a wcAttribute, raw json.RawMessage) (Outcome, error) {
	var t wcTerm
	if err := json.Unmarshal(raw, &t); err != nil {
		return Refused, refuse("", "not a term: "+err.Error())
	}
	if strings.TrimSpace(t.Name) == "" {
		return Refused, refuse(t.Slug, "a term needs a name")
	}
	st := stable(raw)
	newID, unchanged, err := r.seen(ctx, "term", t.ID, st)
	if err != nil || unchanged {
		return Unchanged, err
	}
	out := Created
	if newID != 0 {
		out = Updated
	}
	if !r.dry {
		color := termColor(t)
		if newID != 0 {
			name, order := t.Name, t.MenuOrder
			_, err = r.deps.Catalogue.Admin.SaveTerm(ctx, attrID, newID, catalog.TermInput{Name: &name, Color: &color, MenuOrder: &order})
			if errors.Is(err, catalog.ErrNotFound) {
				newID = 0 // deleted in this shop since: made again
			}
		}
		if newID == 0 {
			var term catalog.AttrTerm
			term, err = r.deps.Catalogue.Writer.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: attrID, Name: strings.TrimSpace(t.Name),
				Slug: catalog.Slugify(t.Slug), Description: t.Description, Color: color, MenuOrder: t.MenuOrder})
			newID = term.ID
		}
		var ie *catalog.InputError
		if errors.As(err, &ie) {
			return Refused, refuse(t.Name, ie.Message)
		}
		if err != nil {
			return Refused, err
		}
		r.catState().forgetTerms(attrID)
	}
	return out, r.remember(ctx, "term", t.ID, newID, "", st)
}

func (c *catalogueState) forgetTerms(attrID int64) {
	c.mu.Lock()
	delete(c.terms, attrID)
	c.mu.Unlock()
}

// --- categories

type wcImage struct {
	ID   int64  `json:"id"`
	Src  string `json:"src"`
	Name string `json:"name"`
	Alt  string `json:"alt"`
}

type wcCategory struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Slug        string   `json:"slug"`
	Parent      int64    `json:"parent"`
	Description string   `json:"description"`
	Image       *wcImage `json:"image"`
	MenuOrder   int      `json:"menu_order"`
	raw         json.RawMessage
}

func importCategory(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var c wcCategory
	if err := json.Unmarshal(raw, &c); err != nil {
		return Refused, refuse("", "not a category: "+err.Error())
	}
	c.raw = stable(raw)
	cs := r.catState()
	cs.mu.Lock()
	cs.cats[c.ID] = c
	cs.mu.Unlock()
	newID, unchanged, err := r.seen(ctx, "category", c.ID, c.raw)
	if err != nil || unchanged {
		return Unchanged, err
	}
	out := Created
	if newID != 0 {
		out = Updated
	}
	if !r.dry {
		if newID == 0 {
			// A category of the same slug in this shop is taken over.
			if newID, err = categoryBySlug(ctx, r, catalog.Slugify(c.Slug)); err != nil {
				return Refused, err
			}
		}
		name, slug, desc, order := c.Name, c.Slug, c.Description, c.MenuOrder
		in := catalog.CategoryInput{Name: &name, Slug: &slug, Description: &desc, MenuOrder: &order}
		if parent, err := r.newID(ctx, "category", c.Parent); err != nil {
			return Refused, err
		} else if parent > 0 || c.Parent == 0 {
			in.ParentID = &parent // else later, once the parent is in (finishCategories)
		}
		var imageID int64
		if c.Image != nil && c.Image.Src != "" {
			img, err := r.image(ctx, "categories", c.ID, c.Name, *c.Image)
			if err != nil {
				return Refused, err
			}
			imageID = img.ID
		}
		in.ImageID = &imageID
		saved, err := r.deps.Catalogue.Admin.SaveCategory(ctx, newID, in)
		if errors.Is(err, catalog.ErrNotFound) {
			saved, err = r.deps.Catalogue.Admin.SaveCategory(ctx, 0, in)
		}
		var ie *catalog.InputError
		if errors.As(err, &ie) {
			return Refused, refuse(c.Name, ie.Message)
		}
		if err != nil {
			return Refused, err
		}
		newID = saved.ID
	}
	return out, r.remember(ctx, "category", c.ID, newID, "", c.raw)
}

func categoryBySlug(ctx context.Context, r *Run, slug string) (int64, error) {
	cats, err := r.deps.Catalogue.Store.Categories(ctx)
	if err != nil {
		return 0, err
	}
	for _, c := range cats {
		if c.Slug == slug {
			return c.ID, nil
		}
	}
	return 0, nil
}

// finishCategories sets the parents of categories listed before their
// parent, and records every category's old path
// (/product-category/clothing/hoodies/), once the whole tree is known.
func finishCategories(ctx context.Context, r *Run) error {
	cs := r.catState()
	if err := r.rereadEarlierPages(ctx, "categories", "wc/v3/products/categories", nil, func(raw json.RawMessage) {
		var c wcCategory
		if json.Unmarshal(raw, &c) == nil {
			c.raw = stable(raw)
			cs.mu.Lock()
			if _, ok := cs.cats[c.ID]; !ok {
				cs.cats[c.ID] = c
			}
			cs.mu.Unlock()
		}
	}); err != nil {
		return err
	}
	cs.mu.Lock()
	cats := make(map[int64]wcCategory, len(cs.cats))
	for k, v := range cs.cats {
		cats[k] = v
	}
	cs.mu.Unlock()
	var have map[int64]catalog.Category
	if !r.dry {
		all, err := r.deps.Catalogue.Store.Categories(ctx)
		if err != nil {
			return err
		}
		have = map[int64]catalog.Category{}
		for _, c := range all {
			have[c.ID] = c
		}
	}
	ids := make([]int64, 0, len(cats))
	for id := range cats {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := cats[id]
		newID, err := r.newID(ctx, "category", id)
		if err != nil {
			return err
		}
		if newID == 0 {
			continue // refused
		}
		var slugs []string
		for p, n := c, 0; n < 100; n++ {
			slugs = append([]string{p.Slug}, slugs...)
			next, ok := cats[p.Parent]
			if p.Parent == 0 || !ok {
				break
			}
			p = next
		}
		path := "/product-category/" + strings.Join(slugs, "/") + "/"
		if !r.dry {
			parent, err := r.newID(ctx, "category", c.Parent)
			if err != nil {
				return err
			}
			if h, ok := have[newID]; ok && h.ParentID != parent && (parent > 0 || c.Parent == 0) {
				if _, err := r.deps.Catalogue.Admin.SaveCategory(ctx, newID, catalog.CategoryInput{ParentID: &parent}); err != nil {
					var ie *catalog.InputError
					if !errors.As(err, &ie) {
						return err
					}
					r.warn("categories", id, c.Name, "its parent could not be set: "+ie.Message)
				}
			}
			l, ok, err := r.deps.Legacy.LegacyByOldID(ctx, "category", id)
			if err != nil {
				return err
			}
			if ok && l.OldPath != path {
				l.OldPath, l.ImportedAt = path, r.deps.Now().Unix()
				if err := r.deps.Legacy.PutLegacy(ctx, l); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// rereadEarlierPages reads again the pages of a resource an earlier,
// interrupted run finished (a second pass needs every record).
func (r *Run) rereadEarlierPages(ctx context.Context, name, path string, query url.Values, fn func(json.RawMessage)) error {
	for p := 1; p <= r.resumed[name]; p++ {
		items, _, err := r.src.List(ctx, path, query, p)
		if err != nil {
			return err
		}
		for _, raw := range items {
			fn(raw)
		}
	}
	return nil
}

// --- tags

type wcTag struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

func importTag(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var t wcTag
	if err := json.Unmarshal(raw, &t); err != nil {
		return Refused, refuse("", "not a tag: "+err.Error())
	}
	st := stable(raw)
	newID, unchanged, err := r.seen(ctx, "tag", t.ID, st)
	if err != nil || unchanged {
		return Unchanged, err
	}
	out := Created
	if newID != 0 {
		out = Updated
	}
	slug := catalog.Slugify(t.Slug)
	if !r.dry {
		if newID == 0 {
			tags, err := r.deps.Catalogue.Store.Tags(ctx)
			if err != nil {
				return Refused, err
			}
			for _, o := range tags {
				if o.Slug == slug {
					newID = o.ID // taken over
				}
			}
		}
		name := t.Name
		saved, err := r.deps.Catalogue.Admin.SaveTag(ctx, newID, &name, &slug)
		if errors.Is(err, catalog.ErrNotFound) {
			saved, err = r.deps.Catalogue.Admin.SaveTag(ctx, 0, &name, &slug)
		}
		var ie *catalog.InputError
		if errors.As(err, &ie) {
			return Refused, refuse(t.Name, ie.Message)
		}
		if err != nil {
			return Refused, err
		}
		newID = saved.ID
	}
	return out, r.remember(ctx, "tag", t.ID, newID, "/product-tag/"+t.Slug+"/", st)
}

// wcRef is a record's reference to another by id ({"id": …}).
type wcRef struct {
	ID int64 `json:"id"`
}

// terms are a product's categories or tags (kind) here; one that was not
// imported refuses the product named name.
func (r *Run) terms(ctx context.Context, name, kind string, refs []wcRef) ([]catalog.Term, error) {
	var out []catalog.Term
	for _, ref := range refs {
		id, err := r.newID(ctx, kind, ref.ID)
		if err != nil {
			return nil, err
		}
		if id == 0 {
			return nil, refuse(name, fmt.Sprintf("its %s %d was not imported", kind, ref.ID))
		}
		out = append(out, catalog.Term{ID: id})
	}
	return out, nil
}

// --- images

// absolute is a link the old shop gave, resolved against its origin: a
// shop behind some proxies or plugins answers image sources as paths
// ("/wp-content/uploads/…") instead of whole URLs.
func (r *Run) absolute(src string) string {
	u, err := url.Parse(src)
	if err != nil || u.IsAbs() || r.source == "" {
		return src
	}
	base, err := url.Parse(r.source)
	if err != nil {
		return src
	}
	return base.ResolveReference(u).String()
}

// image is the media library's copy of an old image (kind media): made
// from a download the first time, its alt text updated when only that
// changed, reused when nothing did. A dry run downloads nothing.
func (r *Run) image(ctx context.Context, resName string, owner int64, ownerName string, im wcImage) (catalog.Image, error) {
	im.Src = r.absolute(im.Src)
	key, _ := json.Marshal(struct{ Src, Alt string }{im.Src, im.Alt})
	newID, unchanged, err := r.seen(ctx, "media", im.ID, key)
	if err != nil {
		return catalog.Image{}, err
	}
	if r.dry {
		if newID == 0 {
			_ = r.remember(ctx, "media", im.ID, 0, "", key)
			newID, _ = r.newID(ctx, "media", im.ID)
		}
		return catalog.Image{ID: newID, Src: im.Src, Alt: im.Alt}, nil
	}
	if newID != 0 {
		img, err := r.deps.Catalogue.Store.ImageByID(ctx, newID)
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			newID = 0 // deleted here since: downloaded again
		case err != nil:
			return catalog.Image{}, err
		case unchanged:
			return *img, nil
		default:
			// The same file with another alt text is updated in place.
			if l, ok, err := r.deps.Legacy.LegacyByOldID(ctx, "media", im.ID); err != nil {
				return catalog.Image{}, err
			} else if ok && l.OldPath == oldPath(im.Src) {
				img.Alt = im.Alt
				if err := r.deps.Catalogue.Writer.SaveImage(ctx, img, nil); err != nil {
					return catalog.Image{}, err
				}
				return *img, r.remember(ctx, "media", im.ID, img.ID, oldPath(im.Src), key)
			}
			newID = 0 // another file: downloaded
		}
	}
	data, _, err := r.src.Download(ctx, im.Src)
	if err == nil {
		var img catalog.Image
		if img, err = importer.StoreImage(ctx, r.deps.Catalogue.Writer, data, im.Src, im.Alt); err == nil {
			return img, r.remember(ctx, "media", im.ID, img.ID, oldPath(im.Src), key)
		}
	}
	if ctx.Err() != nil {
		return catalog.Image{}, ctx.Err()
	}
	r.warn(resName, owner, ownerName, fmt.Sprintf("image %s left out: %v", im.Src, err))
	return catalog.Image{}, nil
}

// --- products

type wcAttr struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	Slug      string   `json:"slug"`
	Position  int      `json:"position"`
	Visible   bool     `json:"visible"`
	Variation bool     `json:"variation"`
	Options   []string `json:"options"`
	Option    string   `json:"option"` // a variation's value
}

type wcProduct struct {
	ID                int64    `json:"id"`
	Name              string   `json:"name"`
	Slug              string   `json:"slug"`
	Permalink         string   `json:"permalink"`
	Type              string   `json:"type"`
	Status            string   `json:"status"`
	Featured          bool     `json:"featured"`
	CatalogVisibility string   `json:"catalog_visibility"`
	Description       string   `json:"description"`
	ShortDescription  string   `json:"short_description"`
	SKU               string   `json:"sku"`
	RegularPrice      string   `json:"regular_price"`
	SalePrice         string   `json:"sale_price"`
	SaleFrom          *string  `json:"date_on_sale_from"`
	SaleFromGMT       *string  `json:"date_on_sale_from_gmt"`
	SaleTo            *string  `json:"date_on_sale_to"`
	SaleToGMT         *string  `json:"date_on_sale_to_gmt"`
	DateCreatedGMT    string   `json:"date_created_gmt"`
	ManageStock       any      `json:"manage_stock"` // a variation answers "parent" when its parent's stock applies
	StockQuantity     *float64 `json:"stock_quantity"`
	StockStatus       string   `json:"stock_status"`
	Backorders        string   `json:"backorders"`
	LowStockAmount    *float64 `json:"low_stock_amount"`
	SoldIndividually  bool     `json:"sold_individually"`
	Weight            string   `json:"weight"`
	Dimensions        struct {
		Length string `json:"length"`
		Width  string `json:"width"`
		Height string `json:"height"`
	} `json:"dimensions"`
	MenuOrder         int       `json:"menu_order"`
	ExternalURL       string    `json:"external_url"`
	ButtonText        string    `json:"button_text"`
	TaxStatus         string    `json:"tax_status"`
	TaxClass          string    `json:"tax_class"`
	PurchaseNote      string    `json:"purchase_note"`
	UpsellIDs         []int64   `json:"upsell_ids"`
	CrossSellIDs      []int64   `json:"cross_sell_ids"`
	GroupedProducts   []int64   `json:"grouped_products"`
	Categories        []wcRef   `json:"categories"`
	Tags              []wcRef   `json:"tags"`
	Images            []wcImage `json:"images"`
	Image             *wcImage  `json:"image"` // a variation's
	Attributes        []wcAttr  `json:"attributes"`
	DefaultAttributes []wcAttr  `json:"default_attributes"`
	Meta              []wcMeta  `json:"meta_data"`
}

// wcDate reads a date of the old shop's, the _gmt field before the
// local one (wcTime, history.go); nil when neither is set.
func wcDate(gmt, local *string) (*time.Time, error) {
	s := gmt
	if s == nil || *s == "" {
		s = local
	}
	if s == nil || *s == "" {
		return nil, nil
	}
	t, err := wcTime(*s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a date such as 2026-12-01T09:00:00", *s)
	}
	return &t, nil
}

// fill sets the fields a product and a variation share; it refuses
// values the shop cannot hold.
func (r *Run) fill(p *catalog.Product, w *wcProduct) error {
	price := func(field, s string) (*int64, error) {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, nil
		}
		n, err := money.Parse(s, r.deps.Catalogue.MinorUnit)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %q is not a price in the shop's currency (at most %d decimals)", field, s, r.deps.Catalogue.MinorUnit)
		}
		return &n, nil
	}
	var err error
	if p.RegularPrice, err = price("regular_price", w.RegularPrice); err != nil {
		return err
	}
	if p.SalePrice, err = price("sale_price", w.SalePrice); err != nil {
		return err
	}
	if p.SaleFrom, err = wcDate(w.SaleFromGMT, w.SaleFrom); err != nil {
		return fmt.Errorf("date_on_sale_from: %v", err)
	}
	if p.SaleTo, err = wcDate(w.SaleToGMT, w.SaleTo); err != nil {
		return fmt.Errorf("date_on_sale_to: %v", err)
	}
	p.SKU = strings.TrimSpace(w.SKU)
	p.ManageStock = w.ManageStock == true
	p.StockQuantity = nil
	if w.StockQuantity != nil {
		q := int64(*w.StockQuantity)
		p.StockQuantity = &q
	}
	if p.ManageStock && p.StockQuantity == nil {
		zero := int64(0)
		p.StockQuantity = &zero
	}
	p.StockStatus = w.StockStatus
	if !slices.Contains([]string{catalog.StockInStock, catalog.StockOutOfStock, catalog.StockOnBackorder}, p.StockStatus) {
		p.StockStatus = catalog.StockInStock
	}
	p.Backorders = w.Backorders
	if !slices.Contains([]string{catalog.BackordersNo, catalog.BackordersNotify, catalog.BackordersYes}, p.Backorders) {
		p.Backorders = catalog.BackordersNo
	}
	p.LowStockAmount = nil
	if w.LowStockAmount != nil {
		n := int64(*w.LowStockAmount)
		p.LowStockAmount = &n
	}
	p.Weight, p.Length, p.Width, p.Height = w.Weight, w.Dimensions.Length, w.Dimensions.Width, w.Dimensions.Height
	p.MenuOrder = w.MenuOrder
	p.TaxStatus = w.TaxStatus
	if !slices.Contains([]string{catalog.TaxTaxable, catalog.TaxShippingOnly, catalog.TaxNone}, p.TaxStatus) {
		p.TaxStatus = catalog.TaxTaxable
	}
	p.TaxClass = w.TaxClass
	p.Description = w.Description
	// Quantity rules: the Min/Max Quantities extension's meta.
	p.MinQty, p.MaxQty, p.Step = 0, 0, 0
	for _, m := range w.Meta {
		var dst *int64
		switch m.Key {
		case "minimum_allowed_quantity", "_min_qty":
			dst = &p.MinQty
		case "maximum_allowed_quantity", "_max_qty":
			dst = &p.MaxQty
		case "group_of_quantity", "_step":
			dst = &p.Step
		default:
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(fmt.Sprint(m.Value)), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("meta %s %v is not a whole number of 0 or more", m.Key, m.Value)
		}
		*dst = n
	}
	if p.MaxQty > 0 && p.MinQty > p.MaxQty {
		return fmt.Errorf("the minimum quantity %d is above the maximum %d", p.MinQty, p.MaxQty)
	}
	return nil
}

// attribute is the shop's attribute for an old attribute id, and its terms.
func (r *Run) attribute(ctx context.Context, oldID int64) (catalog.Attribute, []catalog.AttrTerm, error) {
	newID, err := r.newID(ctx, "attribute", oldID)
	if err != nil || newID == 0 {
		return catalog.Attribute{}, nil, err
	}
	cs := r.catState()
	cs.mu.Lock()
	a, ok := cs.attrs[newID]
	terms, tok := cs.terms[newID]
	cs.mu.Unlock()
	if r.dry && newID < 0 {
		return catalog.Attribute{ID: newID}, nil, nil
	}
	if !ok {
		all, err := r.deps.Catalogue.Store.Attributes(ctx)
		if err != nil {
			return a, nil, err
		}
		for _, x := range all {
			if x.ID == newID {
				a, ok = x, true
			}
		}
		if !ok {
			return catalog.Attribute{}, nil, nil
		}
	}
	if !tok {
		if terms, err = r.deps.Catalogue.Store.AttributeTerms(ctx, newID); err != nil {
			return a, nil, err
		}
	}
	cs.mu.Lock()
	cs.attrs[newID], cs.terms[newID] = a, terms
	cs.mu.Unlock()
	return a, terms, nil
}

// term finds (or, in a real run, makes) the term an option names.
func (r *Run) term(ctx context.Context, a catalog.Attribute, terms []catalog.AttrTerm, option string) (catalog.AttrTerm, error) {
	for _, t := range terms {
		if strings.EqualFold(t.Name, option) || t.Slug == option || t.Slug == catalog.Slugify(option) {
			return t, nil
		}
	}
	if r.dry || a.ID <= 0 {
		return catalog.AttrTerm{Name: option, Slug: catalog.Slugify(option)}, nil
	}
	t, err := r.deps.Catalogue.Writer.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: a.ID, Name: option})
	if err != nil {
		return t, err
	}
	r.catState().forgetTerms(a.ID)
	return t, nil
}

func importProduct(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var w wcProduct
	if err := json.Unmarshal(raw, &w); err != nil {
		return Refused, refuse("", "not a product: "+err.Error())
	}
	name := w.Name
	if w.SKU != "" {
		name = w.Name + " (" + w.SKU + ")"
	}
	if !slices.Contains([]string{catalog.TypeSimple, catalog.TypeVariable, catalog.TypeGrouped, catalog.TypeExternal}, w.Type) {
		return Refused, refuse(name, fmt.Sprintf("the product type %q is not one this shop sells (simple, variable, grouped, external)", w.Type))
	}
	if strings.TrimSpace(w.Name) == "" {
		return Refused, refuse(w.Slug, "a product needs a name")
	}
	// A variable product's digest covers its variations.
	st := stable(raw)
	var varRaws []json.RawMessage
	if w.Type == catalog.TypeVariable {
		var err error
		if varRaws, err = r.listAll(ctx, fmt.Sprintf("wc/v3/products/%d/variations", w.ID)); err != nil {
			return Refused, err
		}
		all := []json.RawMessage{st}
		for _, v := range varRaws {
			all = append(all, stable(v))
		}
		st, _ = json.Marshal(all)
	}
	if len(w.UpsellIDs)+len(w.CrossSellIDs)+len(w.GroupedProducts) > 0 {
		cs := r.catState()
		cs.mu.Lock()
		cs.links[w.ID] = productLinks{name: name, upsells: w.UpsellIDs, cross: w.CrossSellIDs, kids: w.GroupedProducts}
		cs.mu.Unlock()
	}
	newID, unchanged, err := r.seen(ctx, "product", w.ID, st)
	if err != nil {
		return Refused, err
	}
	if unchanged {
		for range varRaws {
			r.tally("variations", Unchanged)
		}
		return Unchanged, nil
	}
	out := Created
	if newID != 0 {
		out = Updated
	}
	p := &catalog.Product{ID: newID, Type: w.Type, Name: strings.TrimSpace(w.Name), Slug: w.Slug,
		Featured: w.Featured, CatalogVisibility: w.CatalogVisibility, ShortDescription: w.ShortDescription,
		SoldIndividually: w.SoldIndividually, ExternalURL: w.ExternalURL, ButtonText: w.ButtonText,
		Purchasable: true, Visible: true, Active: true}
	if err := r.fill(p, &w); err != nil {
		return Refused, refuse(name, err.Error())
	}
	switch w.Status {
	case "publish", "draft", "private":
		p.Status = w.Status
	case "pending":
		p.Status = catalog.StatusDraft
	case "future":
		p.Status = catalog.StatusFuture
		t, err := wcDate(&w.DateCreatedGMT, nil)
		if err != nil || t == nil {
			return Refused, refuse(name, "a scheduled product needs its publication date (date_created_gmt)")
		}
		p.PublishAt = t
	default:
		return Refused, refuse(name, fmt.Sprintf("status %q is not imported (trashed products stay behind)", w.Status))
	}
	if !slices.Contains([]string{catalog.VisibilityVisible, catalog.VisibilityCatalog, catalog.VisibilitySearch, catalog.VisibilityHidden}, p.CatalogVisibility) {
		p.CatalogVisibility = catalog.VisibilityVisible
	}
	if t, err := wcDate(&w.DateCreatedGMT, nil); err == nil && t != nil {
		p.CreatedAt = *t
	}
	if w.PurchaseNote != "" {
		p.Meta = map[string]string{"_purchase_note": w.PurchaseNote}
	}
	if p.Categories, err = r.terms(ctx, name, "category", w.Categories); err != nil {
		return Refused, err
	}
	if p.Tags, err = r.terms(ctx, name, "tag", w.Tags); err != nil {
		return Refused, err
	}
	if err := r.productAttributes(ctx, p, &w); err != nil {
		return Refused, refuse(name, err.Error())
	}
	// Links resolved now when their products are in already; the second
	// pass (finishProducts) adds the others.
	p.Upsells, _ = r.resolve(ctx, w.UpsellIDs)
	p.CrossSells, _ = r.resolve(ctx, w.CrossSellIDs)
	p.Children, _ = r.resolve(ctx, w.GroupedProducts)
	if p.Type != catalog.TypeGrouped {
		p.Children = nil
	}

	// Variations.
	type varIn struct {
		old int64
		raw json.RawMessage
		p   *catalog.Product
	}
	var vars []varIn
	for _, vraw := range varRaws {
		var vw wcProduct
		if err := json.Unmarshal(vraw, &vw); err != nil {
			return Refused, refuse(name, "a variation is not readable: "+err.Error())
		}
		vid, err := r.newID(ctx, "variation", vw.ID)
		if err != nil {
			return Refused, err
		}
		if vid < 0 {
			vid = 0
		}
		v := &catalog.Product{ID: vid, Type: catalog.TypeVariation, Name: p.Name, Status: catalog.StatusPublish,
			Purchasable: true, Visible: true, Active: true, CatalogVisibility: catalog.VisibilityVisible}
		if err := r.fill(v, &vw); err != nil {
			return Refused, refuse(name, fmt.Sprintf("variation %d: %v", vw.ID, err))
		}
		if vw.Status == "private" {
			v.Status, v.Active = catalog.StatusPrivate, false
		}
		given := map[string]string{}
		for _, va := range vw.Attributes {
			key := catalog.SanitizeAttributeName(va.Name)
			value := va.Option
			if va.ID != 0 {
				a, terms, err := r.attribute(ctx, va.ID)
				if err != nil {
					return Refused, err
				}
				key = a.Taxonomy()
				t, err := r.term(ctx, a, terms, va.Option)
				if err != nil {
					return Refused, refuse(name, fmt.Sprintf("variation %d: %s %q: %v", vw.ID, va.Name, va.Option, err))
				}
				value = t.Slug
			}
			given[key] = value
		}
		// An attribute used for variations that the variation does not
		// name is "any".
		for _, pa := range p.Attributes {
			if pa.Variation {
				v.Variation = append(v.Variation, catalog.VariationAttr{Name: pa.Key(), Value: given[pa.Key()]})
			}
		}
		if vw.Image != nil && vw.Image.Src != "" {
			img, err := r.image(ctx, "products", w.ID, name, *vw.Image)
			if err != nil {
				return Refused, err
			}
			if img.ID != 0 {
				v.Images = []catalog.Image{img}
			}
		}
		vars = append(vars, varIn{vw.ID, stable(vraw), v})
	}
	for _, im := range w.Images {
		img, err := r.image(ctx, "products", w.ID, name, im)
		if err != nil {
			return Refused, err
		}
		if img.ID != 0 {
			p.Images = append(p.Images, img)
		}
	}
	// Each variation's outcome, by its own digest.
	varOut := make([]Outcome, len(vars))
	for i, v := range vars {
		_, same, err := r.seen(ctx, "variation", v.old, v.raw)
		if err != nil {
			return Refused, err
		}
		switch {
		case same:
			varOut[i] = Unchanged
		case v.p.ID > 0:
			varOut[i] = Updated
		default:
			varOut[i] = Created
		}
	}
	tallyVars := func() {
		for _, o := range varOut {
			r.tally("variations", o)
		}
	}
	if r.dry {
		if err := r.remember(ctx, "product", w.ID, newID, oldPath(w.Permalink), st); err != nil {
			return Refused, err
		}
		for _, v := range vars {
			if err := r.remember(ctx, "variation", v.old, v.p.ID, "", v.raw); err != nil {
				return Refused, err
			}
		}
		tallyVars()
		return out, nil
	}
	if err := r.checkSKUs(ctx, p, vars2(vars, func(v varIn) *catalog.Product { return v.p })); err != nil {
		return Refused, refuse(name, err.Error())
	}
	vps := make([]*catalog.Product, len(vars))
	for i, v := range vars {
		vps[i] = v.p
	}
	if p.ID != 0 {
		if _, err := r.deps.Catalogue.Store.Product(ctx, p.ID); errors.Is(err, catalog.ErrNotFound) {
			p.ID = 0 // deleted here since: made again
		} else if err != nil {
			return Refused, err
		}
	}
	if _, err := r.deps.Catalogue.Writer.SaveProduct(ctx, p, vps); err != nil {
		if errors.Is(err, catalog.ErrSKUTaken) {
			return Refused, refuse(name, err.Error())
		}
		return Refused, err
	}
	if err := r.remember(ctx, "product", w.ID, p.ID, oldPath(w.Permalink), st); err != nil {
		return Refused, err
	}
	for _, v := range vars {
		if err := r.remember(ctx, "variation", v.old, v.p.ID, "", v.raw); err != nil {
			return Refused, err
		}
	}
	tallyVars()
	return out, nil
}

func vars2[T any](in []T, f func(T) *catalog.Product) []*catalog.Product {
	out := make([]*catalog.Product, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// checkSKUs refuses SKUs this shop gives a product that is not the one
// being imported: a variation's SKU on another product, or the product's
// on a variation (saving would take it over).
func (r *Run) checkSKUs(ctx context.Context, p *catalog.Product, vars []*catalog.Product) error {
	check := func(sku string, self int64, variation bool) error {
		if sku == "" {
			return nil
		}
		id, err := r.deps.Catalogue.Writer.ProductIDBySKU(ctx, sku)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if id == self {
			return nil
		}
		other, err := r.deps.Catalogue.Store.Product(ctx, id)
		if err != nil {
			return err
		}
		if variation || other.ParentID != 0 {
			return fmt.Errorf("SKU %q is already used by %s in this shop", sku, other.Name)
		}
		return nil // a product of this shop with the SKU is taken over
	}
	if err := check(p.SKU, p.ID, false); err != nil {
		return err
	}
	// The product this one saves over: its own, or the one with its SKU.
	owner := p.ID
	if owner == 0 && p.SKU != "" {
		if id, err := r.deps.Catalogue.Writer.ProductIDBySKU(ctx, p.SKU); err == nil {
			owner = id
		}
	}
	for _, v := range vars {
		if v.ID == 0 && owner != 0 && v.SKU != "" {
			// A new variation may match one of the product's by SKU.
			if id, err := r.deps.Catalogue.Writer.ProductIDBySKU(ctx, v.SKU); err == nil {
				if o, err := r.deps.Catalogue.Store.Product(ctx, id); err == nil && o.ParentID == owner {
					continue
				}
			}
		}
		if err := check(v.SKU, v.ID, true); err != nil {
			return err
		}
	}
	return nil
}

// productAttributes sets a product's attributes: global ones on the
// shop's terms (made when missing), local ones as written.
func (r *Run) productAttributes(ctx context.Context, p *catalog.Product, w *wcProduct) error {
	attrs := slices.Clone(w.Attributes)
	slices.SortStableFunc(attrs, func(a, b wcAttr) int { return a.Position - b.Position })
	for i, wa := range attrs {
		pa := catalog.ProductAttribute{Name: wa.Name, Position: i, Visible: wa.Visible, Variation: wa.Variation && p.Type == catalog.TypeVariable}
		if wa.ID != 0 {
			a, terms, err := r.attribute(ctx, wa.ID)
			if err != nil {
				return err
			}
			if a.ID == 0 {
				return fmt.Errorf("its attribute %s (%d) was not imported", wa.Name, wa.ID)
			}
			pa.AttributeID, pa.Name, pa.Taxonomy = a.ID, a.Name, a.Taxonomy()
			if r.dry && a.ID < 0 {
				pa.Taxonomy = wa.Slug
			}
			for _, o := range wa.Options {
				t, err := r.term(ctx, a, terms, o)
				if err != nil {
					return fmt.Errorf("attribute %s value %q: %v", wa.Name, o, err)
				}
				pa.Values = append(pa.Values, catalog.AttributeValue{TermID: t.ID, Name: t.Name, Slug: t.Slug})
			}
		} else {
			for _, o := range wa.Options {
				if o = strings.TrimSpace(o); o != "" {
					pa.Values = append(pa.Values, catalog.AttributeValue{Name: o, Slug: o})
				}
			}
		}
		if len(pa.Values) == 0 {
			continue
		}
		p.Attributes = append(p.Attributes, pa)
	}
	if len(w.DefaultAttributes) > 0 {
		defaults := map[string]string{}
		for _, d := range w.DefaultAttributes {
			key, value := catalog.SanitizeAttributeName(d.Name), d.Option
			if d.ID != 0 {
				a, _, err := r.attribute(ctx, d.ID)
				if err != nil {
					return err
				}
				key, value = a.Taxonomy(), catalog.Slugify(d.Option)
			}
			defaults[key] = value
		}
		b, _ := json.Marshal(defaults)
		if p.Meta == nil {
			p.Meta = map[string]string{}
		}
		p.Meta["_default_attributes"] = string(b) // as the CSV import keeps them
	}
	return nil
}

// resolve maps old product ids to this shop's; missing are the old ids
// with no product here (yet).
func (r *Run) resolve(ctx context.Context, old []int64) (ids, missing []int64) {
	for _, o := range old {
		id, err := r.newID(ctx, "product", o)
		if err != nil || id == 0 {
			missing = append(missing, o)
			continue
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, missing
}

// finishProducts is the second pass: every product is in, so the links
// that pointed forward are set. A link to a product the old shop no
// longer has (or that was refused) is left out with a warning.
func finishProducts(ctx context.Context, r *Run) error {
	cs := r.catState()
	if err := r.rereadEarlierPages(ctx, "products", "wc/v3/products", url.Values{"status": {"any"}}, func(raw json.RawMessage) {
		var w wcProduct
		if json.Unmarshal(raw, &w) == nil && len(w.UpsellIDs)+len(w.CrossSellIDs)+len(w.GroupedProducts) > 0 {
			cs.mu.Lock()
			if _, ok := cs.links[w.ID]; !ok {
				cs.links[w.ID] = productLinks{name: w.Name, upsells: w.UpsellIDs, cross: w.CrossSellIDs, kids: w.GroupedProducts}
			}
			cs.mu.Unlock()
		}
	}); err != nil {
		return err
	}
	cs.mu.Lock()
	old := make([]int64, 0, len(cs.links))
	for id := range cs.links {
		old = append(old, id)
	}
	cs.mu.Unlock()
	slices.Sort(old)
	for _, oid := range old {
		if err := ctx.Err(); err != nil {
			return err
		}
		cs.mu.Lock()
		l := cs.links[oid]
		cs.mu.Unlock()
		newID, err := r.newID(ctx, "product", oid)
		if err != nil {
			return err
		}
		if newID == 0 {
			continue // refused
		}
		ups, m1 := r.resolve(ctx, l.upsells)
		cross, m2 := r.resolve(ctx, l.cross)
		kids, m3 := r.resolve(ctx, l.kids)
		for _, m := range []struct {
			what string
			ids  []int64
		}{{"up-sell", m1}, {"cross-sell", m2}, {"grouped product", m3}} {
			for _, id := range m.ids {
				r.warn("products", oid, l.name, fmt.Sprintf("%s %d left out: the old shop has no such product (deleted?) or it was refused", m.what, id))
			}
		}
		if r.dry {
			continue
		}
		p, err := r.deps.Catalogue.Store.Product(ctx, newID)
		if errors.Is(err, catalog.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if p.Type != catalog.TypeGrouped {
			kids = nil
		}
		if slices.Equal(p.Upsells, ups) && slices.Equal(p.CrossSells, cross) && slices.Equal(p.Children, kids) {
			continue
		}
		p.Upsells, p.CrossSells, p.Children = ups, cross, kids
		if _, err := r.deps.Catalogue.Writer.SaveProduct(ctx, p, nil); err != nil {
			return fmt.Errorf("product %d's links: %w", oid, err)
		}
	}
	return nil
}
