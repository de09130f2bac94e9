package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/money"
)

// The shop admin's use cases on the catalogue: list, create,
// edit, schedule, duplicate, trash and delete products; generate and edit
// variations; categories, tags, attribute swatches. Every write goes
// through AdminStore in one transaction that also appends to the catalogue
// change log, so the running servers drop exactly the cached pages that
// show what changed.
//
// Edits are optimistic: a product carries a Version, bumped by every write
// (the admin's, an import's), and an edit names the version it was based
// on. A stale one is refused with ErrStale, never applied over the newer
// change.

var (
	// ErrStale refuses an edit based on an older version of the product.
	ErrStale = errors.New("catalog: the product was changed since it was loaded")
	// ErrSKUTaken is a SKU another product or variation already has.
	ErrSKUTaken = errors.New("catalog: SKU already used")
	// ErrStockChanged refuses a stock count sent without the count it was
	// based on, when orders took or returned units since the version the
	// edit names (a *StockConflict says which product and its count now).
	ErrStockChanged = errors.New("catalog: the stock was changed by orders since the product was loaded")
)

// Stock edits. Orders move a product's stock without making a new version
// (a busy product would otherwise refuse every edit), so the version alone
// cannot tell an admin save that units were sold since its form was
// loaded. An admin save therefore never writes back the count it loaded:
// it keeps the stored count unless the edit names one, and a count it
// names is applied as a difference to the stored one when the editor says
// what it read (original_stock_quantity, as WooCommerce's editor sends
// _original_stock), so the units sold or returned meanwhile stay counted.
// A count named without the original is written as it is only when no
// order moved the stock since the version the edit names (or when it is
// already the stored count); otherwise the save is refused with a
// *StockConflict and changes nothing. docs/decisions/0057-stock-admin-saves.md
// says why.

// StockEdit is how an admin save writes one product's or variation's
// stock count.
type StockEdit struct {
	// Set: the edit names a count, Quantity. Without it the stored count
	// stays as orders left it.
	Set      bool
	Quantity int64
	// Original is the count the editor read: the stored count moves by
	// Quantity − Original. Nil: Quantity is written as it is if no order
	// moved the stock since the edit's version, else ErrStockChanged.
	Original *int64
}

// StockConflict is ErrStockChanged for one product or variation: its id
// and the count it holds now.
type StockConflict struct {
	ID    int64
	Stock *int64
}

func (e *StockConflict) Error() string {
	return fmt.Sprintf("%v (product %d)", ErrStockChanged, e.ID)
}

// Is makes errors.Is(err, ErrStockChanged) hold.
func (e *StockConflict) Is(target error) bool { return target == ErrStockChanged }

// stockEdit checks a count and the original it is based on.
func stockEdit(qty, original *int64, prefix string) (*StockEdit, error) {
	if original == nil {
		if qty == nil {
			return &StockEdit{}, nil
		}
		return &StockEdit{Set: true, Quantity: *qty}, nil
	}
	if qty == nil {
		return nil, invalid(prefix+"original_stock_quantity", "original_stock_quantity is the stock quantity the form was loaded with: send it with stock_quantity.")
	}
	if *original < -1_000_000_000 || *original > 1_000_000_000 {
		return nil, invalid(prefix+"original_stock_quantity", "The original stock quantity is out of range.")
	}
	o := *original
	return &StockEdit{Set: true, Quantity: *qty, Original: &o}, nil
}

// InputError is a change the admin refuses: the field and why.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return "catalog: " + e.Field + ": " + e.Message }

func invalid(field, format string, a ...any) *InputError {
	return &InputError{Field: field, Message: fmt.Sprintf(format, a...)}
}

// pickTerms is the terms (categories or tags) ids name, in their order,
// from all of them; an id naming none is an invalid field.
func pickTerms[T any](all []T, ids []int64, field, noun string, term func(T) Term) ([]Term, error) {
	known := make(map[int64]Term, len(all))
	for _, x := range all {
		t := term(x)
		known[t.ID] = t
	}
	var out []Term
	for _, id := range ids {
		t, ok := known[id]
		if !ok {
			return nil, invalid(field, "There is no %s %d.", noun, id)
		}
		out = append(out, t)
	}
	return out, nil
}

// AdminQuery selects products for the admin's list. Zero values mean "no
// filter"; Status "" is every status but trash.
type AdminQuery struct {
	Page, PerPage int
	Search        string // name or SKU (theirs or a variation's), case folded
	Type          string
	CategoryID    int64
	StockStatus   string
	Status        string
	OrderBy       string // one of AdminOrderBy; date by default
	Order         string // asc or desc (default)
}

// AdminOrderBy are the orders the admin's product list sorts by.
var AdminOrderBy = []string{"date", "modified", "title", "price", "sku", "id"}

// AdminStore is what the admin's use cases need from storage.
type AdminStore interface {
	Product(ctx context.Context, id int64) (*Product, error)
	Variations(ctx context.Context, parentID int64) ([]*Product, error)
	Categories(ctx context.Context) ([]Category, error)
	Tags(ctx context.Context) ([]Tag, error)
	Attributes(ctx context.Context) ([]Attribute, error)
	AttributeTerms(ctx context.Context, attributeID int64) ([]AttrTerm, error)
	ProductIDBySKU(ctx context.Context, sku string) (int64, error)

	// AdminProducts is one page of the admin's list and the total.
	AdminProducts(ctx context.Context, q AdminQuery) ([]*Product, int, error)
	// AdminStatusCounts counts parent products by status.
	AdminStatusCounts(ctx context.Context) (map[string]int, error)
	// CreateProduct inserts a new parent product (p.ID 0) and its
	// variations.
	CreateProduct(ctx context.Context, p *Product, variations []*Product) error
	// UpdateProduct writes p and the given variations (the others are
	// kept, those in deleteVariations removed) if the product is still
	// at version base: ErrStale when it is not, ErrNotFound when it is
	// gone.
	UpdateProduct(ctx context.Context, p *Product, variations []*Product, deleteVariations []int64, base int64) error
	// SetProductStatus moves parent products to status (publishAt for
	// "future") and returns how many moved.
	SetProductStatus(ctx context.Context, ids []int64, status string, publishAt *time.Time) (int, error)
	// DeleteProducts removes parent products and their variations.
	DeleteProducts(ctx context.Context, ids []int64) (int, error)
	// PublishDue publishes the scheduled products whose time has come.
	PublishDue(ctx context.Context, now time.Time) (int, error)
	// ApplySchedules makes the sales that started or ended by now and the
	// pre-orders whose release date has come take effect (the on-sale
	// state, the price listings sort and filter by, the pre-order flag),
	// and appends one change for every product whose pages show them. It
	// reports how many products changed; a second pass at the same time,
	// from this instance or another, changes nothing.
	ApplySchedules(ctx context.Context, now time.Time) (int, error)

	// SaveCategory inserts (ID 0) or updates a category; DeleteCategory
	// removes one (its children move to its parent).
	SaveCategory(ctx context.Context, c *Category) error
	DeleteCategory(ctx context.Context, id int64) error
	SaveTag(ctx context.Context, t *Tag) error
	DeleteTag(ctx context.Context, id int64) error

	EnsureAttribute(ctx context.Context, a Attribute) (Attribute, error)
	SetAttributeType(ctx context.Context, id int64, swatch string) error
	// SetAttributeFilter sets whether listings filter by the attribute
	// and its default query type ("or", "and").
	SetAttributeFilter(ctx context.Context, id int64, filterable bool, queryType string) error
	EnsureTerm(ctx context.Context, t AttrTerm) (AttrTerm, error)
	// UpdateTerm sets a term's name, colour, image and order.
	UpdateTerm(ctx context.Context, t AttrTerm) error

	// Images lists the catalogue's images, newest first, whose name or
	// src contains search; ImageByID and ImageBySrc find one.
	Images(ctx context.Context, search string, limit int) ([]Image, error)
	ImageByID(ctx context.Context, id int64) (*Image, error)
	ImageBySrc(ctx context.Context, src string) (*Image, error)
}

// Admin is the admin's catalogue service.
type Admin struct {
	Store AdminStore
	// MinorUnit is the shop currency's decimals: prices are typed as
	// decimal strings and stored as minor units.
	MinorUnit int
	Now       func() time.Time
}

func (a *Admin) now() time.Time {
	if a.Now == nil {
		return time.Now().UTC()
	}
	return a.Now().UTC()
}

// MaxVariations bounds a product's variations (generation refuses to make
// more).
const MaxVariations = 100

// List is one page of the admin's product list and the total count.
func (a *Admin) List(ctx context.Context, q AdminQuery) ([]*Product, int, error) {
	if q.Page < 1 {
		q.Page = 1
	}
	if q.PerPage < 1 || q.PerPage > 100 {
		q.PerPage = 20
	}
	if q.Type != "" && !oneOf(q.Type, TypeSimple, TypeVariable, TypeGrouped, TypeExternal) {
		return nil, 0, invalid("type", "type must be simple, variable, grouped or external.")
	}
	if q.StockStatus != "" && !oneOf(q.StockStatus, StockInStock, StockOutOfStock, StockOnBackorder) {
		return nil, 0, invalid("stock_status", "stock_status must be instock, outofstock or onbackorder.")
	}
	if q.Status != "" && q.Status != "any" && !oneOf(q.Status, StatusPublish, StatusDraft, StatusPrivate, StatusFuture, StatusTrash) {
		return nil, 0, invalid("status", "status must be any, publish, draft, private, future or trash.")
	}
	if q.OrderBy != "" && !oneOf(q.OrderBy, AdminOrderBy...) {
		return nil, 0, invalid("orderby", "orderby must be date, modified, title, price, sku or id.")
	}
	if q.Order != "" && !oneOf(q.Order, "asc", "desc") {
		return nil, 0, invalid("order", "order must be asc or desc.")
	}
	q.Search = strings.TrimSpace(q.Search)
	return a.Store.AdminProducts(ctx, q)
}

// StatusCounts counts products by status, for the list's views.
func (a *Admin) StatusCounts(ctx context.Context) (map[string]int, error) {
	return a.Store.AdminStatusCounts(ctx)
}

// Get loads a parent product and, for a variable one, its variations.
func (a *Admin) Get(ctx context.Context, id int64) (*Product, []*Product, error) {
	p, err := a.Store.Product(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if p.ParentID != 0 {
		return nil, nil, ErrNotFound
	}
	var vars []*Product
	if p.Type == TypeVariable {
		if vars, err = a.Store.Variations(ctx, id); err != nil {
			return nil, nil, err
		}
	}
	return p, vars, nil
}

// ProductInput is a create or an edit: nil fields are left as they are
// (a new product's defaults on create). Prices are decimal strings in the
// shop currency, "" to clear.
type ProductInput struct {
	Name, Slug, Type, Status      *string
	Description, ShortDescription *string
	SKU                           *string
	RegularPrice, SalePrice       *string
	ManageStock                   *bool
	StockQuantity                 *int64
	// OriginalStock is the stock quantity the editor read, sent with
	// StockQuantity: an edit applies the difference (StockEdit).
	OriginalStock                 *int64
	StockStatus, Backorders       *string
	Featured                      *bool
	CatalogVisibility             *string
	PublishAt                     *time.Time // with Status "future"
	Weight, Length, Width, Height *string
	MenuOrder                     *int
	ExternalURL, ButtonText       *string
	// SaleFrom and SaleTo schedule the sale price; a zero time clears one.
	SaleFrom, SaleTo *time.Time
	// GroupedProducts are a grouped product's children; Upsells are shown
	// on the product page, CrossSells in the cart.
	GroupedProducts     *[]int64
	Upsells, CrossSells *[]int64
	// LowStockAmount is the "only N left" threshold; negative goes back to
	// the shop's.
	LowStockAmount   *int64
	Quantity         QuantityInput
	SoldIndividually *bool
	TaxStatus        *string // taxable, shipping or none
	TaxClass         *string // "" (standard), reduced-rate or zero-rate
	Categories, Tags *[]int64
	Images           *[]ImageRef
	Attributes       *[]AttributeInput
}

// ImageRef names an image the catalogue holds, by id or by src.
type ImageRef struct {
	ID  int64
	Src string
	Alt string
}

// AttributeInput is one attribute of a product: a global one (ID set; its
// options are term names or slugs, new ones become terms) or a local one
// (Name and free-text options).
type AttributeInput struct {
	ID        int64
	Name      string
	Options   []string
	Visible   bool
	Variation bool
}

// Create makes a product; a new one is a draft unless the input says
// otherwise.
func (a *Admin) Create(ctx context.Context, in ProductInput) (*Product, error) {
	p := &Product{Type: TypeSimple, Status: StatusDraft, CatalogVisibility: VisibilityVisible, StockStatus: StockInStock,
		Backorders: BackordersNo, TaxStatus: "taxable", Purchasable: true, Visible: true, Active: true}
	if in.Name == nil {
		return nil, invalid("name", "A product needs a name.")
	}
	if err := a.apply(ctx, p, in); err != nil {
		return nil, err
	}
	if err := a.Store.CreateProduct(ctx, p, nil); err != nil {
		return nil, skuError(err)
	}
	return a.Store.Product(ctx, p.ID)
}

// Update applies an edit to the product at version base.
func (a *Admin) Update(ctx context.Context, id, base int64, in ProductInput) (*Product, error) {
	p, vars, err := a.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Version != base {
		return nil, ErrStale
	}
	if p.Status == StatusTrash {
		return nil, invalid("status", "Restore the product from the trash before editing it.")
	}
	if err := a.apply(ctx, p, in); err != nil {
		return nil, err
	}
	if p.StockEdit, err = stockEdit(in.StockQuantity, in.OriginalStock, ""); err != nil {
		return nil, err
	}
	// "Sold individually" is the product's: its variations (which the
	// cart reads) follow it in the same write.
	var changed []*Product
	if in.SoldIndividually != nil && p.Type == TypeVariable {
		for _, v := range vars {
			if v.SoldIndividually != p.SoldIndividually {
				v.SoldIndividually = p.SoldIndividually
				v.StockEdit = &StockEdit{}
				changed = append(changed, v)
			}
		}
	}
	if err := a.Store.UpdateProduct(ctx, p, changed, nil, base); err != nil {
		return nil, skuError(err)
	}
	return a.Store.Product(ctx, id)
}

func skuError(err error) error {
	if errors.Is(err, ErrSKUTaken) {
		return invalid("sku", "This SKU is already used by another product.")
	}
	return err
}

// apply checks an input and sets it on p.
func (a *Admin) apply(ctx context.Context, p *Product, in ProductInput) (err error) {
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" {
			return invalid("name", "A product needs a name.")
		}
		if utf8.RuneCountInString(name) > 200 {
			return invalid("name", "The name is longer than 200 characters.")
		}
		p.Name = name
	}
	if in.Slug != nil {
		slug := Slugify(*in.Slug)
		if *in.Slug != "" && slug == "" {
			return invalid("slug", "The slug needs letters or digits.")
		}
		p.Slug = slug // "" makes one from the name
	}
	if in.Type != nil {
		if !oneOf(*in.Type, TypeSimple, TypeVariable, TypeGrouped, TypeExternal) {
			return invalid("type", "type must be simple, variable, grouped or external.")
		}
		p.Type = *in.Type
	}
	if in.Status != nil {
		if !oneOf(*in.Status, StatusPublish, StatusDraft, StatusPrivate, StatusFuture) {
			return invalid("status", "status must be publish, draft, private or future (trash through the trash action).")
		}
		p.Status = *in.Status
	}
	if in.PublishAt != nil {
		t := in.PublishAt.UTC()
		p.PublishAt = &t
	}
	if p.Status == StatusFuture {
		if p.PublishAt == nil || !p.PublishAt.After(a.now()) {
			return invalid("date_publish_gmt", "A scheduled product needs a publication date in the future.")
		}
	} else {
		p.PublishAt = nil
	}
	for _, f := range []struct {
		dst *string
		src *string
	}{{&p.Description, in.Description}, {&p.ShortDescription, in.ShortDescription},
		{&p.Weight, in.Weight}, {&p.Length, in.Length}, {&p.Width, in.Width}, {&p.Height, in.Height},
		{&p.ExternalURL, in.ExternalURL}, {&p.ButtonText, in.ButtonText}} {
		if f.src != nil {
			*f.dst = strings.TrimSpace(*f.src)
		}
	}
	if p.ExternalURL != "" && !strings.HasPrefix(p.ExternalURL, "https://") && !strings.HasPrefix(p.ExternalURL, "http://") {
		return invalid("external_url", "The product URL must start with http:// or https://.")
	}
	if in.SKU != nil {
		sku := strings.TrimSpace(*in.SKU)
		if err := a.checkSKU(ctx, sku, p.ID, "sku"); err != nil {
			return err
		}
		p.SKU = sku
	}
	if err := a.applyPrices(&p.RegularPrice, &p.SalePrice, in.RegularPrice, in.SalePrice, ""); err != nil {
		return err
	}
	if err := applySaleDates(p, in.SaleFrom, in.SaleTo, ""); err != nil {
		return err
	}
	if in.GroupedProducts != nil {
		if err := a.groupedChildren(ctx, p, *in.GroupedProducts); err != nil {
			return err
		}
	}
	if p.Type != TypeGrouped {
		p.Children = nil
	}
	if in.Upsells != nil {
		if p.Upsells, err = a.linkedProducts(ctx, p, *in.Upsells, "upsell_ids", "an up-sell"); err != nil {
			return err
		}
	}
	if in.CrossSells != nil {
		if p.CrossSells, err = a.linkedProducts(ctx, p, *in.CrossSells, "cross_sell_ids", "a cross-sell"); err != nil {
			return err
		}
	}
	if err := applyLowStock(p, in.LowStockAmount, ""); err != nil {
		return err
	}
	if err := applyQuantity(p, in.Quantity, ""); err != nil {
		return err
	}
	if in.SoldIndividually != nil {
		p.SoldIndividually = *in.SoldIndividually
	}
	if in.TaxStatus != nil {
		if !oneOf(*in.TaxStatus, TaxTaxable, TaxShippingOnly, TaxNone) {
			return invalid("tax_status", "tax_status must be taxable, shipping or none.")
		}
		p.TaxStatus = *in.TaxStatus
	}
	if in.TaxClass != nil {
		if !oneOf(*in.TaxClass, TaxClasses...) {
			return invalid("tax_class", "tax_class must be empty (standard), reduced-rate or zero-rate.")
		}
		p.TaxClass = *in.TaxClass
	}
	if err := applyStock(p, in.ManageStock, in.StockQuantity, in.StockStatus, ""); err != nil {
		return err
	}
	if in.Backorders != nil {
		if !oneOf(*in.Backorders, BackordersNo, BackordersNotify, BackordersYes) {
			return invalid("backorders", "backorders must be no, notify or yes.")
		}
		p.Backorders = *in.Backorders
	}
	if in.Featured != nil {
		p.Featured = *in.Featured
	}
	if in.CatalogVisibility != nil {
		if !oneOf(*in.CatalogVisibility, VisibilityVisible, VisibilityCatalog, VisibilitySearch, VisibilityHidden) {
			return invalid("catalog_visibility", "catalog_visibility must be visible, catalog, search or hidden.")
		}
		p.CatalogVisibility = *in.CatalogVisibility
	}
	if in.MenuOrder != nil {
		p.MenuOrder = *in.MenuOrder
	}
	if in.Categories != nil {
		cats, err := a.Store.Categories(ctx)
		if err != nil {
			return err
		}
		if p.Categories, err = pickTerms(cats, *in.Categories, "categories", "category",
			func(c Category) Term { return Term{ID: c.ID, Name: c.Name, Slug: c.Slug} }); err != nil {
			return err
		}
	}
	if in.Tags != nil {
		tags, err := a.Store.Tags(ctx)
		if err != nil {
			return err
		}
		if p.Tags, err = pickTerms(tags, *in.Tags, "tags", "tag",
			func(t Tag) Term { return Term{ID: t.ID, Name: t.Name, Slug: t.Slug} }); err != nil {
			return err
		}
	}
	if in.Images != nil {
		imgs, err := a.images(ctx, *in.Images)
		if err != nil {
			return err
		}
		p.Images = imgs
	}
	if in.Attributes != nil {
		attrs, err := a.attributes(ctx, *in.Attributes)
		if err != nil {
			return err
		}
		p.Attributes = attrs
	}
	return nil
}

func (a *Admin) checkSKU(ctx context.Context, sku string, self int64, field string) error {
	if sku == "" {
		return nil
	}
	if utf8.RuneCountInString(sku) > 100 {
		return invalid(field, "The SKU is longer than 100 characters.")
	}
	id, err := a.Store.ProductIDBySKU(ctx, sku)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if id != self {
		return invalid(field, "The SKU %q is already used by another product.", sku)
	}
	return nil
}

// applyPrices parses decimal prices: "" clears one, a sale price must be
// below the regular one.
func (a *Admin) applyPrices(regular, sale **int64, inRegular, inSale *string, prefix string) error {
	parse := func(field string, s *string, dst **int64) error {
		if s == nil {
			return nil
		}
		if strings.TrimSpace(*s) == "" {
			*dst = nil
			return nil
		}
		n, err := money.Parse(*s, a.MinorUnit)
		if err != nil || n < 0 {
			return invalid(prefix+field, "%s is not a price: use a number such as 12.50 with at most %d decimals.", strings.TrimSpace(*s), a.MinorUnit)
		}
		*dst = &n
		return nil
	}
	if err := parse("regular_price", inRegular, regular); err != nil {
		return err
	}
	if err := parse("sale_price", inSale, sale); err != nil {
		return err
	}
	if *sale != nil && *regular != nil && **sale >= **regular {
		return invalid(prefix+"sale_price", "The sale price must be lower than the regular price.")
	}
	return nil
}

// applySaleDates sets a product's or variation's sale schedule (nil
// leaves a date, a zero time clears it). As in WooCommerce a schedule
// belongs to a sale price: dates sent without one are refused, and
// clearing the sale price clears its dates.
func applySaleDates(p *Product, from, to *time.Time, prefix string) error {
	set := func(dst **time.Time, t *time.Time) {
		if t == nil {
			return
		}
		if t.IsZero() {
			*dst = nil
			return
		}
		u := t.UTC()
		*dst = &u
	}
	if p.SalePrice == nil {
		if (from != nil && !from.IsZero()) || (to != nil && !to.IsZero()) {
			field := "date_on_sale_from"
			if from == nil || from.IsZero() {
				field = "date_on_sale_to"
			}
			return invalid(prefix+field, "A sale schedule needs a sale price.")
		}
		p.SaleFrom, p.SaleTo = nil, nil
		return nil
	}
	set(&p.SaleFrom, from)
	set(&p.SaleTo, to)
	if p.SaleFrom != nil && p.SaleTo != nil && !p.SaleTo.After(*p.SaleFrom) {
		return invalid(prefix+"date_on_sale_to", "The sale must end after it starts.")
	}
	return nil
}

// MaxGroupedProducts bounds a grouped product's children.
const MaxGroupedProducts = 100

// groupedChildren checks and sets a grouped product's children: published
// simple or external products, each once, never the product itself.
func (a *Admin) groupedChildren(ctx context.Context, p *Product, ids []int64) error {
	if len(ids) > 0 && p.Type != TypeGrouped {
		return invalid("grouped_products", "Only a grouped product has grouped products.")
	}
	if len(ids) > MaxGroupedProducts {
		return invalid("grouped_products", "A grouped product has at most %d products.", MaxGroupedProducts)
	}
	seen := map[int64]bool{}
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			return invalid("grouped_products", "Product %d is listed twice.", id)
		}
		seen[id] = true
		if id == p.ID && p.ID != 0 {
			return invalid("grouped_products", "A grouped product cannot contain itself.")
		}
		c, err := a.Store.Product(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return invalid("grouped_products", "There is no product %d.", id)
		}
		if err != nil {
			return err
		}
		if c.ParentID != 0 || !oneOf(c.Type, TypeSimple, TypeExternal) || c.Status != StatusPublish {
			return invalid("grouped_products", "Product %d (%s) is not a published simple or external product.", id, c.Name)
		}
		out = append(out, id)
	}
	p.Children = out
	return nil
}

// Tax statuses and the standard tax classes (WooCommerce's slugs).
const (
	TaxTaxable      = "taxable"
	TaxShippingOnly = "shipping"
	TaxNone         = "none"
)

// TaxClasses are the classes a product may have: standard (""), reduced
// rate and zero rate.
var TaxClasses = []string{"", "reduced-rate", "zero-rate"}

// MaxLinkedProducts bounds a product's up-sells and its cross-sells.
const MaxLinkedProducts = 50

// linkedProducts checks up-sells or cross-sells: existing products (not
// variations), published or private, each once, never the product itself.
func (a *Admin) linkedProducts(ctx context.Context, p *Product, ids []int64, field, what string) ([]int64, error) {
	if len(ids) > MaxLinkedProducts {
		return nil, invalid(field, "A product has at most %d of these.", MaxLinkedProducts)
	}
	seen := map[int64]bool{}
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			return nil, invalid(field, "Product %d is listed twice.", id)
		}
		seen[id] = true
		if id == p.ID && p.ID != 0 {
			return nil, invalid(field, "A product cannot be %s of itself.", what)
		}
		c, err := a.Store.Product(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return nil, invalid(field, "There is no product %d.", id)
		}
		if err != nil {
			return nil, err
		}
		if c.ParentID != 0 || c.Status == StatusTrash {
			return nil, invalid(field, "Product %d (%s) cannot be %s: choose a product, not a variation or a trashed one.", id, c.Name, what)
		}
		out = append(out, id)
	}
	return out, nil
}

// MaxQuantityRule bounds the quantities and thresholds an admin may set.
const MaxQuantityRule = 1_000_000

// QuantityInput is a product's or a variation's quantity rules: nil leaves
// one as it is; 0 means no minimum (beyond 1), no maximum, any step.
type QuantityInput struct {
	Min, Max, Step *int64
}

func applyQuantity(p *Product, in QuantityInput, prefix string) error {
	for _, f := range []struct {
		dst  *int64
		src  *int64
		name string
	}{{&p.MinQty, in.Min, "minimum"}, {&p.MaxQty, in.Max, "maximum"}, {&p.Step, in.Step, "multiple_of"}} {
		if f.src == nil {
			continue
		}
		if *f.src < 0 || *f.src > MaxQuantityRule {
			return invalid(prefix+"quantity_rules."+f.name, "Enter a whole number from 0 to %d.", MaxQuantityRule)
		}
		*f.dst = *f.src
	}
	if p.MaxQty > 0 && p.MinQty > p.MaxQty {
		return invalid(prefix+"quantity_rules.maximum", "The maximum cannot be below the minimum (%d).", p.MinQty)
	}
	if p.Step > 1 {
		if p.MinQty > 0 && p.MinQty%p.Step != 0 {
			return invalid(prefix+"quantity_rules.minimum", "The minimum must be a multiple of the step (%d).", p.Step)
		}
		if p.MaxQty > 0 && p.MaxQty%p.Step != 0 {
			return invalid(prefix+"quantity_rules.maximum", "The maximum must be a multiple of the step (%d).", p.Step)
		}
	}
	return nil
}

func applyLowStock(p *Product, amount *int64, prefix string) error {
	switch {
	case amount == nil:
	case *amount < 0:
		p.LowStockAmount = nil
	case *amount > MaxQuantityRule:
		return invalid(prefix+"low_stock_amount", "Enter a whole number from 0 to %d.", MaxQuantityRule)
	default:
		v := *amount
		p.LowStockAmount = &v
	}
	return nil
}

// MaxPreOrderLabel bounds a pre-order button label, in characters.
const MaxPreOrderLabel = 60

func applyStock(p *Product, manage *bool, qty *int64, status *string, prefix string) error {
	if manage != nil {
		p.ManageStock = *manage
	}
	if qty != nil {
		if *qty < -1_000_000_000 || *qty > 1_000_000_000 {
			return invalid(prefix+"stock_quantity", "The stock quantity is out of range.")
		}
		q := *qty
		p.StockQuantity = &q
	}
	if status != nil {
		if !oneOf(*status, StockInStock, StockOutOfStock, StockOnBackorder) {
			return invalid(prefix+"stock_status", "stock_status must be instock, outofstock or onbackorder.")
		}
		p.StockStatus = *status
	}
	if p.ManageStock && p.StockQuantity == nil {
		return invalid(prefix+"stock_quantity", "Managing stock needs a stock quantity.")
	}
	if p.ManageStock && (manage != nil || qty != nil) {
		// A managed stock's status follows its count, as WooCommerce's does.
		switch {
		case *p.StockQuantity > 0:
			p.StockStatus = StockInStock
		case p.Backorders != BackordersNo && p.Backorders != "":
			p.StockStatus = StockOnBackorder
		default:
			p.StockStatus = StockOutOfStock
		}
	}
	return nil
}

func (a *Admin) images(ctx context.Context, refs []ImageRef) ([]Image, error) {
	out := make([]Image, 0, len(refs))
	for _, r := range refs {
		var img *Image
		var err error
		switch {
		case r.ID > 0:
			img, err = a.Store.ImageByID(ctx, r.ID)
		case strings.TrimSpace(r.Src) != "":
			img, err = a.Store.ImageBySrc(ctx, strings.TrimSpace(r.Src))
		default:
			return nil, invalid("images", "An image needs an id or a src.")
		}
		if errors.Is(err, ErrNotFound) {
			return nil, invalid("images", "The image %d%s is not in the media library: upload it first.", r.ID, r.Src)
		}
		if err != nil {
			return nil, err
		}
		if r.Alt != "" {
			img.Alt = r.Alt
		}
		out = append(out, *img)
	}
	return out, nil
}

// attributes resolves attribute inputs: global ones to their terms
// (creating the terms they name that do not exist yet), local ones as
// typed.
func (a *Admin) attributes(ctx context.Context, ins []AttributeInput) ([]ProductAttribute, error) {
	globals, err := a.Store.Attributes(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]Attribute{}
	for _, g := range globals {
		byID[g.ID] = g
	}
	out := make([]ProductAttribute, 0, len(ins))
	seen := map[string]bool{}
	for i, in := range ins {
		pa := ProductAttribute{Position: i, Visible: in.Visible, Variation: in.Variation}
		if in.ID != 0 {
			g, ok := byID[in.ID]
			if !ok {
				return nil, invalid("attributes", "There is no attribute %d.", in.ID)
			}
			pa.AttributeID, pa.Name, pa.Taxonomy = g.ID, g.Name, g.Taxonomy()
			terms, err := a.Store.AttributeTerms(ctx, g.ID)
			if err != nil {
				return nil, err
			}
			for _, o := range in.Options {
				o = strings.TrimSpace(o)
				if o == "" {
					continue
				}
				var found *AttrTerm
				for j := range terms {
					if strings.EqualFold(terms[j].Name, o) || terms[j].Slug == o {
						found = &terms[j]
						break
					}
				}
				if found == nil {
					t, err := a.Store.EnsureTerm(ctx, AttrTerm{AttributeID: g.ID, Name: o})
					if err != nil {
						return nil, invalid("attributes", "%q cannot be a %s term.", o, g.Name)
					}
					terms = append(terms, t)
					found = &t
				}
				pa.Values = append(pa.Values, AttributeValue{TermID: found.ID, Name: found.Name, Slug: found.Slug})
			}
		} else {
			pa.Name = strings.TrimSpace(in.Name)
			if pa.Name == "" || SanitizeAttributeName(pa.Name) == "" {
				return nil, invalid("attributes", "A custom attribute needs a name.")
			}
			for _, o := range in.Options {
				if o = strings.TrimSpace(o); o != "" {
					pa.Values = append(pa.Values, AttributeValue{Name: o, Slug: o})
				}
			}
		}
		if seen[pa.Key()] {
			return nil, invalid("attributes", "The attribute %s is listed twice.", pa.Name)
		}
		seen[pa.Key()] = true
		if len(pa.Values) == 0 {
			return nil, invalid("attributes", "The attribute %s needs at least one value.", pa.Name)
		}
		out = append(out, pa)
	}
	return out, nil
}

// Bulk actions on the list.
const (
	BulkPublish = "publish"
	BulkDraft   = "draft"
	BulkTrash   = "trash"
	BulkRestore = "restore"
	BulkDelete  = "delete" // permanently, trashed products only
)

// BulkActions are the list's bulk actions.
var BulkActions = []string{BulkPublish, BulkDraft, BulkTrash, BulkRestore, BulkDelete}

// Bulk applies a list action to products and returns how many changed.
// Restore brings a trashed product back as a draft (as WordPress does);
// delete removes only products already in the trash.
func (a *Admin) Bulk(ctx context.Context, action string, ids []int64) (int, error) {
	if len(ids) == 0 {
		return 0, invalid("ids", "Choose at least one product.")
	}
	if len(ids) > 100 {
		return 0, invalid("ids", "At most 100 products at a time.")
	}
	switch action {
	case BulkPublish, BulkDraft, BulkTrash:
		return a.Store.SetProductStatus(ctx, ids, action, nil)
	case BulkRestore:
		trashed, err := a.inTrash(ctx, ids)
		if err != nil {
			return 0, err
		}
		return a.Store.SetProductStatus(ctx, trashed, StatusDraft, nil)
	case BulkDelete:
		trashed, err := a.inTrash(ctx, ids)
		if err != nil {
			return 0, err
		}
		if len(trashed) < len(ids) {
			return 0, invalid("ids", "Only products in the trash can be deleted permanently.")
		}
		return a.Store.DeleteProducts(ctx, trashed)
	}
	return 0, invalid("action", "action must be publish, draft, trash, restore or delete.")
}

func (a *Admin) inTrash(ctx context.Context, ids []int64) ([]int64, error) {
	var out []int64
	for _, id := range ids {
		p, err := a.Store.Product(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if p.Status == StatusTrash && p.ParentID == 0 {
			out = append(out, id)
		}
	}
	return out, nil
}

// PublishDue publishes the scheduled products whose time has come (the
// server calls it every few seconds).
func (a *Admin) PublishDue(ctx context.Context) (int, error) {
	return a.Store.PublishDue(ctx, a.now())
}

// ApplySchedules makes the scheduled sales' starts and ends and the
// pre-orders' release dates that have come take effect, and reports how
// many products changed (the upkeep loop calls it every minute on every
// instance; each change happens once).
func (a *Admin) ApplySchedules(ctx context.Context) (int, error) {
	return a.Store.ApplySchedules(ctx, a.now())
}

// Duplicate copies a product and its variations as a new draft named
// "… (Copy)", without SKUs (they must stay unique) or sales counts.
func (a *Admin) Duplicate(ctx context.Context, id int64) (*Product, error) {
	p, vars, err := a.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	cp := *p
	cp.ID, cp.SKU, cp.Slug, cp.Status, cp.PublishAt = 0, "", "", StatusDraft, nil
	cp.Name = p.Name + " (Copy)"
	cp.TotalSales, cp.AverageRating, cp.ReviewCount = 0, 0, 0
	cp.CreatedAt = time.Time{}
	copies := make([]*Product, len(vars))
	for i, v := range vars {
		c := *v
		c.ID, c.SKU, c.Slug, c.TotalSales = 0, "", "", 0
		c.Name = cp.Name
		copies[i] = &c
	}
	if err := a.Store.CreateProduct(ctx, &cp, copies); err != nil {
		return nil, err
	}
	return a.Store.Product(ctx, cp.ID)
}

// GenerateVariations adds a variation for every combination of the
// product's variation attributes' values it has none for (without a
// price: the shop does not sell a variation before it has one). It
// returns how many it made.
func (a *Admin) GenerateVariations(ctx context.Context, id, base int64) (int, error) {
	p, vars, err := a.Get(ctx, id)
	if err != nil {
		return 0, err
	}
	if p.Version != base {
		return 0, ErrStale
	}
	if p.Type != TypeVariable {
		return 0, invalid("type", "Only a variable product has variations.")
	}
	var axes []ProductAttribute
	for _, at := range p.Attributes {
		if at.Variation && len(at.Values) > 0 {
			axes = append(axes, at)
		}
	}
	if len(axes) == 0 {
		return 0, invalid("attributes", "Mark at least one attribute as used for variations first.")
	}
	have := map[string]bool{}
	for _, v := range vars {
		have[comboKey(v.Variation)] = true
	}
	combos := [][]VariationAttr{{}}
	for _, ax := range axes {
		var next [][]VariationAttr
		for _, c := range combos {
			for _, val := range ax.Values {
				n := append(append([]VariationAttr{}, c...), VariationAttr{Name: ax.Key(), Value: val.Slug})
				next = append(next, n)
			}
		}
		combos = next
		if len(combos) > MaxVariations*4 {
			break
		}
	}
	var fresh []*Product
	for _, c := range combos {
		if have[comboKey(c)] {
			continue
		}
		fresh = append(fresh, &Product{Name: p.Name, Status: StatusPublish, Variation: c, StockStatus: StockInStock,
			Backorders: BackordersNo, TaxStatus: "taxable", Purchasable: true, Visible: true, Active: true,
			MenuOrder: len(vars) + len(fresh) + 1})
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	if len(vars)+len(fresh) > MaxVariations {
		return 0, invalid("attributes", "These attributes make %d variations; a product has at most %d.", len(vars)+len(fresh), MaxVariations)
	}
	if err := a.Store.UpdateProduct(ctx, p, fresh, nil, base); err != nil {
		return 0, err
	}
	return len(fresh), nil
}

func comboKey(as []VariationAttr) string {
	parts := make([]string, 0, len(as))
	for _, x := range as {
		parts = append(parts, x.Name+"="+x.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// VariationEdit changes one variation; nil fields are left as they are.
type VariationEdit struct {
	ID                      int64
	SKU                     *string
	RegularPrice, SalePrice *string
	ManageStock             *bool
	StockQuantity           *int64
	OriginalStock           *int64 // the stock quantity the editor read (StockEdit)
	StockStatus             *string
	Enabled                 *bool // published and active
	ImageID                 *int64
	SaleFrom, SaleTo        *time.Time // a zero time clears one
	LowStockAmount          *int64     // negative: the shop's threshold
	Quantity                QuantityInput
	// PreOrder sells the variation ahead of its availability date
	// (PreOrderAt, a zero time clears it) under the label PreOrderLabel.
	PreOrder      *bool
	PreOrderAt    *time.Time
	PreOrderLabel *string
}

// EditVariations applies edits to a product's variations and deletes
// others, in one write, if the product is still at version base.
func (a *Admin) EditVariations(ctx context.Context, id, base int64, edits []VariationEdit, deletes []int64) error {
	p, vars, err := a.Get(ctx, id)
	if err != nil {
		return err
	}
	if p.Version != base {
		return ErrStale
	}
	byID := map[int64]*Product{}
	for _, v := range vars {
		byID[v.ID] = v
	}
	for _, d := range deletes {
		if byID[d] == nil {
			return invalid("delete", "Variation %d is not one of this product's.", d)
		}
	}
	changed := make([]*Product, 0, len(edits))
	for i, e := range edits {
		v := byID[e.ID]
		if v == nil {
			return invalid("update", "Variation %d is not one of this product's.", e.ID)
		}
		prefix := fmt.Sprintf("update[%d].", i)
		if e.SKU != nil {
			sku := strings.TrimSpace(*e.SKU)
			if err := a.checkSKU(ctx, sku, v.ID, prefix+"sku"); err != nil {
				return err
			}
			v.SKU = sku
		}
		if err := a.applyPrices(&v.RegularPrice, &v.SalePrice, e.RegularPrice, e.SalePrice, prefix); err != nil {
			return err
		}
		if err := applySaleDates(v, e.SaleFrom, e.SaleTo, prefix); err != nil {
			return err
		}
		if err := applyStock(v, e.ManageStock, e.StockQuantity, e.StockStatus, prefix); err != nil {
			return err
		}
		if v.StockEdit, err = stockEdit(e.StockQuantity, e.OriginalStock, prefix); err != nil {
			return err
		}
		if err := applyLowStock(v, e.LowStockAmount, prefix); err != nil {
			return err
		}
		if err := applyQuantity(v, e.Quantity, prefix); err != nil {
			return err
		}
		if err := a.applyPreOrder(v, e, prefix); err != nil {
			return err
		}
		if e.Enabled != nil {
			v.Active = *e.Enabled
			v.Status = StatusPublish
			if !*e.Enabled {
				v.Status = StatusPrivate
			}
		}
		if e.ImageID != nil {
			v.Images = nil
			if *e.ImageID != 0 {
				imgs, err := a.images(ctx, []ImageRef{{ID: *e.ImageID}})
				var ie *InputError
				if errors.As(err, &ie) {
					return &InputError{Field: prefix + "image", Message: ie.Message}
				}
				if err != nil {
					return err
				}
				v.Images = imgs
			}
		}
		changed = append(changed, v)
	}
	return a.Store.UpdateProduct(ctx, p, changed, deletes, base)
}

// applyPreOrder sets a variation's pre-order: a new availability date must
// be in the future; a pre-order needs a label (the default is WooCommerce
// pre-orders' "Pre-order now").
func (a *Admin) applyPreOrder(v *Product, e VariationEdit, prefix string) error {
	if e.PreOrder != nil {
		v.PreOrder = *e.PreOrder
	}
	if e.PreOrderAt != nil {
		if e.PreOrderAt.IsZero() {
			v.PreOrderAt = nil
		} else {
			t := e.PreOrderAt.UTC()
			if v.PreOrderAt == nil || !t.Equal(*v.PreOrderAt) {
				if !t.After(a.now()) {
					return invalid(prefix+"pre_order_date_gmt", "The availability date must be in the future.")
				}
			}
			v.PreOrderAt = &t
		}
	}
	if e.PreOrderLabel != nil {
		label := strings.TrimSpace(*e.PreOrderLabel)
		if utf8.RuneCountInString(label) > MaxPreOrderLabel {
			return invalid(prefix+"pre_order_label", "The label is longer than %d characters.", MaxPreOrderLabel)
		}
		v.PreOrderLabel = label
	}
	if v.PreOrder && v.PreOrderLabel == "" {
		v.PreOrderLabel = DefaultPreOrderLabel
	}
	return nil
}

// DefaultPreOrderLabel is the add button's label on a pre-order.
const DefaultPreOrderLabel = "Pre-order now"

// CategoryInput creates or edits a category.
type CategoryInput struct {
	Name        *string
	Slug        *string
	ParentID    *int64
	Description *string
	ImageID     *int64
	MenuOrder   *int
}

// SaveCategory creates (id 0) or edits a category.
func (a *Admin) SaveCategory(ctx context.Context, id int64, in CategoryInput) (*Category, error) {
	cats, err := a.Store.Categories(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*Category{}
	for i := range cats {
		byID[cats[i].ID] = &cats[i]
	}
	c := &Category{}
	if id != 0 {
		if c = byID[id]; c == nil {
			return nil, ErrNotFound
		}
	} else if in.Name == nil {
		return nil, invalid("name", "A category needs a name.")
	}
	if in.Name != nil {
		if c.Name = strings.TrimSpace(*in.Name); c.Name == "" || utf8.RuneCountInString(c.Name) > 200 {
			return nil, invalid("name", "A category needs a name of at most 200 characters.")
		}
	}
	if in.Slug != nil {
		c.Slug = Slugify(*in.Slug)
	}
	if c.Slug == "" {
		c.Slug = Slugify(c.Name)
	}
	if c.Slug == "" {
		return nil, invalid("slug", "The slug needs letters or digits.")
	}
	for _, o := range cats {
		if o.Slug == c.Slug && o.ID != c.ID {
			return nil, invalid("slug", "Another category has the slug %q.", c.Slug)
		}
	}
	if in.ParentID != nil {
		parent := *in.ParentID
		for p := parent; p != 0; {
			pc := byID[p]
			if pc == nil {
				return nil, invalid("parent", "There is no category %d.", parent)
			}
			if pc.ID == c.ID && c.ID != 0 {
				return nil, invalid("parent", "A category cannot be inside itself.")
			}
			p = pc.ParentID
		}
		c.ParentID = parent
	}
	if in.Description != nil {
		c.Description = *in.Description
	}
	if in.MenuOrder != nil {
		c.MenuOrder = *in.MenuOrder
	}
	if in.ImageID != nil {
		if *in.ImageID != 0 {
			if _, err := a.Store.ImageByID(ctx, *in.ImageID); errors.Is(err, ErrNotFound) {
				return nil, invalid("image", "The image %d is not in the media library.", *in.ImageID)
			} else if err != nil {
				return nil, err
			}
		}
		c.ImageID = *in.ImageID
	}
	if err := a.Store.SaveCategory(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// DeleteCategory removes a category: its products lose it, its
// subcategories move up to its parent.
func (a *Admin) DeleteCategory(ctx context.Context, id int64) error {
	return a.Store.DeleteCategory(ctx, id)
}

// SaveTag creates (id 0) or renames a tag.
func (a *Admin) SaveTag(ctx context.Context, id int64, name, slug *string) (*Tag, error) {
	tags, err := a.Store.Tags(ctx)
	if err != nil {
		return nil, err
	}
	t := &Tag{}
	if id != 0 {
		t = nil
		for i := range tags {
			if tags[i].ID == id {
				t = &tags[i]
			}
		}
		if t == nil {
			return nil, ErrNotFound
		}
	} else if name == nil {
		return nil, invalid("name", "A tag needs a name.")
	}
	if name != nil {
		if t.Name = strings.TrimSpace(*name); t.Name == "" || utf8.RuneCountInString(t.Name) > 200 {
			return nil, invalid("name", "A tag needs a name of at most 200 characters.")
		}
	}
	if slug != nil {
		t.Slug = Slugify(*slug)
	}
	if t.Slug == "" {
		t.Slug = Slugify(t.Name)
	}
	if t.Slug == "" {
		return nil, invalid("slug", "The slug needs letters or digits.")
	}
	for _, o := range tags {
		if o.Slug == t.Slug && o.ID != t.ID {
			return nil, invalid("slug", "Another tag has the slug %q.", t.Slug)
		}
	}
	if err := a.Store.SaveTag(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// DeleteTag removes a tag from every product.
func (a *Admin) DeleteTag(ctx context.Context, id int64) error { return a.Store.DeleteTag(ctx, id) }

// Attributes lists the global attributes with their terms.
func (a *Admin) Attributes(ctx context.Context) ([]Attribute, map[int64][]AttrTerm, error) {
	attrs, err := a.Store.Attributes(ctx)
	if err != nil {
		return nil, nil, err
	}
	terms := map[int64][]AttrTerm{}
	for _, at := range attrs {
		if terms[at.ID], err = a.Store.AttributeTerms(ctx, at.ID); err != nil {
			return nil, nil, err
		}
	}
	return attrs, terms, nil
}

// CreateAttribute adds a global attribute (or answers the one with its slug).
func (a *Admin) CreateAttribute(ctx context.Context, name, swatch string) (Attribute, error) {
	name = strings.TrimSpace(name)
	if name == "" || Slugify(name) == "" {
		return Attribute{}, invalid("name", "An attribute needs a name.")
	}
	if swatch == "" {
		swatch = SwatchSelect
	}
	if !oneOf(swatch, SwatchSelect, SwatchColor, SwatchImage, SwatchLabel) {
		return Attribute{}, invalid("type", "type must be select, color, image or label.")
	}
	at, err := a.Store.EnsureAttribute(ctx, Attribute{Name: name, Type: swatch})
	if err != nil {
		return at, err
	}
	if at.Type != swatch {
		if err := a.Store.SetAttributeType(ctx, at.ID, swatch); err != nil {
			return at, err
		}
		at.Type = swatch
	}
	return at, nil
}

// SetSwatchType sets how an attribute's terms are shown.
func (a *Admin) SetSwatchType(ctx context.Context, id int64, swatch string) error {
	if !oneOf(swatch, SwatchSelect, SwatchColor, SwatchImage, SwatchLabel) {
		return invalid("type", "type must be select, color, image or label.")
	}
	return a.Store.SetAttributeType(ctx, id, swatch)
}

// SetAttributeFilter sets whether listings offer the attribute as a
// filter and whether several chosen terms mean any ("or") or all ("and");
// nil keeps what is set.
func (a *Admin) SetAttributeFilter(ctx context.Context, id int64, filterable *bool, queryType *string) error {
	if queryType != nil && !oneOf(*queryType, "or", "and") {
		return invalid("filter_query_type", "filter_query_type must be or or and.")
	}
	attrs, err := a.Store.Attributes(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(attrs, func(at Attribute) bool { return at.ID == id })
	if i < 0 {
		return ErrNotFound
	}
	f, qt := attrs[i].Filterable, attrs[i].FilterQueryType
	if filterable != nil {
		f = *filterable
	}
	if queryType != nil {
		qt = *queryType
	}
	return a.Store.SetAttributeFilter(ctx, id, f, qt)
}

// TermInput creates or edits a term of a global attribute.
type TermInput struct {
	Name      *string
	Color     *string // "#1f4e79", "" to clear
	ImageURL  *string // an image the catalogue holds, "" to clear
	MenuOrder *int
}

// SaveTerm creates (termID 0) or edits a term with its swatch data.
func (a *Admin) SaveTerm(ctx context.Context, attributeID, termID int64, in TermInput) (AttrTerm, error) {
	terms, err := a.Store.AttributeTerms(ctx, attributeID)
	if err != nil {
		return AttrTerm{}, err
	}
	t := AttrTerm{AttributeID: attributeID}
	if termID != 0 {
		found := false
		for _, o := range terms {
			if o.ID == termID {
				t, found = o, true
			}
		}
		if !found {
			return AttrTerm{}, ErrNotFound
		}
	}
	if in.Name != nil {
		t.Name = strings.TrimSpace(*in.Name)
	}
	if t.Name == "" || Slugify(t.Name) == "" {
		return AttrTerm{}, invalid("name", "A term needs a name.")
	}
	if in.Color != nil {
		c := strings.ToLower(strings.TrimSpace(*in.Color))
		if c != "" && !hexColor(c) {
			return AttrTerm{}, invalid("color", "The colour must be a hex colour such as #1f4e79.")
		}
		t.Color = c
	}
	if in.ImageURL != nil {
		src := strings.TrimSpace(*in.ImageURL)
		if src != "" {
			if _, err := a.Store.ImageBySrc(ctx, src); errors.Is(err, ErrNotFound) {
				return AttrTerm{}, invalid("image", "The image is not in the media library.")
			} else if err != nil {
				return AttrTerm{}, err
			}
		}
		t.ImageURL = src
	}
	if in.MenuOrder != nil {
		t.MenuOrder = *in.MenuOrder
	}
	if termID == 0 {
		t.Slug = Slugify(t.Name)
		for _, o := range terms {
			if o.Slug == t.Slug {
				return AttrTerm{}, invalid("name", "The attribute already has the term %q.", o.Name)
			}
		}
		return a.Store.EnsureTerm(ctx, t)
	}
	return t, a.Store.UpdateTerm(ctx, t)
}

// Images lists the catalogue's images for the image picker.
func (a *Admin) Images(ctx context.Context, search string) ([]Image, error) {
	return a.Store.Images(ctx, strings.TrimSpace(search), 60)
}

func hexColor(s string) bool {
	if len(s) != 7 && len(s) != 4 || s[0] != '#' {
		return false
	}
	for _, r := range s[1:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
