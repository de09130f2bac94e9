package adminapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/money"
	"vitrine/internal/storeapi"
)

// Products: WooCommerce's /wc/v3/products routes with their
// field names, on catalog.Admin.
//
// Optimistic concurrency: every product answer carries "version" (and an
// ETag of it); an edit (PUT/PATCH, variations' generate and batch) must
// name the version it was based on, in an If-Match header or a "version"
// field of the body. Without one it is refused with 428, and with a stale
// one with 409 vitrine_product_stale, whose data holds the current
// version: the edit is never applied over the newer change.
//
// Stock: orders move stock without a new version, so an edit that sets
// stock_quantity also sends original_stock_quantity, the count its form
// was loaded with (WooCommerce's editor sends _original_stock): the stock
// moves by the difference, and the units sold meanwhile stay sold. Without
// it the count is written as it is only if no order moved the stock since
// the edit's version; otherwise 409 vitrine_stock_changed, whose data
// holds the count now, and nothing is saved (catalog.StockEdit).

// productJSON is a product in WooCommerce's shape, plus version and
// date_publish_gmt.
type productJSON struct {
	ID                int64  `json:"id"`
	Name              string `json:"name"`
	Slug              string `json:"slug"`
	Permalink         string `json:"permalink"`
	Type              string `json:"type"`
	Status            string `json:"status"`
	Featured          bool   `json:"featured"`
	CatalogVisibility string `json:"catalog_visibility"`
	Description       string `json:"description"`
	ShortDescription  string `json:"short_description"`
	SKU               string `json:"sku"`
	Price             string `json:"price"`
	RegularPrice      string `json:"regular_price"`
	SalePrice         string `json:"sale_price"`
	OnSale            bool   `json:"on_sale"`
	saleDatesJSON
	ManageStock      bool              `json:"manage_stock"`
	StockQuantity    *int64            `json:"stock_quantity"`
	StockStatus      string            `json:"stock_status"`
	Backorders       string            `json:"backorders"`
	Weight           string            `json:"weight"`
	Dimensions       dimensionsJSON    `json:"dimensions"`
	MenuOrder        int               `json:"menu_order"`
	ExternalURL      string            `json:"external_url"`
	ButtonText       string            `json:"button_text"`
	GroupedProducts  []int64           `json:"grouped_products"`
	UpsellIDs        []int64           `json:"upsell_ids"`
	CrossSellIDs     []int64           `json:"cross_sell_ids"`
	LowStockAmount   *int64            `json:"low_stock_amount"`
	QuantityRules    quantityRulesJSON `json:"quantity_rules"`
	SoldIndividually bool              `json:"sold_individually"`
	TaxStatus        string            `json:"tax_status"`
	TaxClass         string            `json:"tax_class"`
	TotalSales       int64             `json:"total_sales"`
	Categories       []termJSON        `json:"categories"`
	Tags             []termJSON        `json:"tags"`
	Images           []imageJSON       `json:"images"`
	Attributes       []attributeJSON   `json:"attributes"`
	Variations       []int64           `json:"variations"`
	DateCreatedGMT   string            `json:"date_created_gmt"`
	DateModifiedGMT  string            `json:"date_modified_gmt"`
	DatePublishGMT   *string           `json:"date_publish_gmt"`
	Version          int64             `json:"version"`
}

// saleDatesJSON is WooCommerce's sale schedule. The shop's times are UTC,
// so the local and _gmt fields are the same; null when not scheduled.
type saleDatesJSON struct {
	DateOnSaleFrom    *string `json:"date_on_sale_from"`
	DateOnSaleFromGMT *string `json:"date_on_sale_from_gmt"`
	DateOnSaleTo      *string `json:"date_on_sale_to"`
	DateOnSaleToGMT   *string `json:"date_on_sale_to_gmt"`
}

func saleDatesOut(p *catalog.Product) saleDatesJSON {
	var out saleDatesJSON
	if p.SaleFrom != nil {
		s := p.SaleFrom.UTC().Format(gmtLayout)
		out.DateOnSaleFrom, out.DateOnSaleFromGMT = &s, &s
	}
	if p.SaleTo != nil {
		s := p.SaleTo.UTC().Format(gmtLayout)
		out.DateOnSaleTo, out.DateOnSaleToGMT = &s, &s
	}
	return out
}

// saleDatesBody is a sale schedule in an edit: absent or null leaves a
// date, "" clears it; the _gmt field wins over the local one.
type saleDatesBody struct {
	DateOnSaleFrom    *string `json:"date_on_sale_from"`
	DateOnSaleFromGMT *string `json:"date_on_sale_from_gmt"`
	DateOnSaleTo      *string `json:"date_on_sale_to"`
	DateOnSaleToGMT   *string `json:"date_on_sale_to_gmt"`
}

// dates parses the schedule; prefix names a batch item's fields.
func (b saleDatesBody) dates(prefix string) (from, to *time.Time, err error) {
	parse := func(field string, local, gmt *string) (*time.Time, error) {
		s := gmt
		if s == nil {
			s, field = local, strings.TrimSuffix(field, "_gmt")
		}
		if s == nil {
			return nil, nil
		}
		if strings.TrimSpace(*s) == "" {
			return &time.Time{}, nil
		}
		t, err := parseGMT(strings.TrimSpace(*s))
		if err != nil {
			return nil, InvalidParam(prefix+field, field+" must be a date and time such as 2026-12-01T09:00:00 (UTC), or \"\" to clear it.")
		}
		return &t, nil
	}
	if from, err = parse("date_on_sale_from_gmt", b.DateOnSaleFrom, b.DateOnSaleFromGMT); err != nil {
		return nil, nil, err
	}
	if to, err = parse("date_on_sale_to_gmt", b.DateOnSaleTo, b.DateOnSaleToGMT); err != nil {
		return nil, nil, err
	}
	return from, to, nil
}

type dimensionsJSON struct {
	Length string `json:"length"`
	Width  string `json:"width"`
	Height string `json:"height"`
}

type termJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

type imageJSON struct {
	ID   int64  `json:"id"`
	Src  string `json:"src"`
	Name string `json:"name"`
	Alt  string `json:"alt"`
}

type attributeJSON struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	Slug      string   `json:"slug"`
	Position  int      `json:"position"`
	Visible   bool     `json:"visible"`
	Variation bool     `json:"variation"`
	Options   []string `json:"options"`
}

type variationJSON struct {
	ID           int64  `json:"id"`
	SKU          string `json:"sku"`
	Price        string `json:"price"`
	RegularPrice string `json:"regular_price"`
	SalePrice    string `json:"sale_price"`
	saleDatesJSON
	ManageStock     bool                `json:"manage_stock"`
	StockQuantity   *int64              `json:"stock_quantity"`
	StockStatus     string              `json:"stock_status"`
	Status          string              `json:"status"`
	Enabled         bool                `json:"enabled"`
	Image           *imageJSON          `json:"image"`
	Attributes      []variationAttrJSON `json:"attributes"`
	LowStockAmount  *int64              `json:"low_stock_amount"`
	QuantityRules   quantityRulesJSON   `json:"quantity_rules"`
	PreOrder        bool                `json:"pre_order"`
	PreOrderDateGMT *string             `json:"pre_order_date_gmt"`
	PreOrderLabel   string              `json:"pre_order_label"`
}

type variationAttrJSON struct {
	Name   string `json:"name"`
	Slug   string `json:"slug"`
	Option string `json:"option"`
}

const gmtLayout = "2006-01-02T15:04:05"

func (a *API) decimal(amount *int64) string {
	if amount == nil {
		return ""
	}
	return money.Currency{MinorUnit: a.d.Catalog.MinorUnit, DecimalSeparator: "."}.FormatNumber(*amount)
}

func (a *API) productOut(p *catalog.Product, vars []*catalog.Product) productJSON {
	out := productJSON{ID: p.ID, Name: p.Name, Slug: p.Slug, Permalink: storeapi.ProductPath(p.Slug), Type: p.Type, Status: p.Status,
		Featured: p.Featured, CatalogVisibility: p.CatalogVisibility, Description: p.Description, ShortDescription: p.ShortDescription,
		SKU: p.SKU, RegularPrice: a.decimal(p.RegularPrice), SalePrice: a.decimal(p.SalePrice),
		ManageStock: p.ManageStock, StockQuantity: p.StockQuantity, StockStatus: p.StockStatus, Backorders: p.Backorders,
		Weight: p.Weight, Dimensions: dimensionsJSON{p.Length, p.Width, p.Height}, MenuOrder: p.MenuOrder,
		ExternalURL: p.ExternalURL, ButtonText: p.ButtonText, GroupedProducts: append([]int64{}, p.Children...), TotalSales: p.TotalSales,
		UpsellIDs: append([]int64{}, p.Upsells...), CrossSellIDs: append([]int64{}, p.CrossSells...),
		LowStockAmount: p.LowStockAmount, QuantityRules: quantityRulesOut(p), SoldIndividually: p.SoldIndividually,
		TaxStatus: p.TaxStatus, TaxClass: p.TaxClass,
		saleDatesJSON: saleDatesOut(p),
		Categories:    terms(p.Categories), Tags: terms(p.Tags), Images: []imageJSON{}, Attributes: []attributeJSON{}, Variations: []int64{},
		DateCreatedGMT: p.CreatedAt.UTC().Format(gmtLayout), DateModifiedGMT: p.UpdatedAt.UTC().Format(gmtLayout), Version: p.Version}
	now := a.d.Now()
	if price, ok := p.Price(now); ok {
		out.Price = a.decimal(&price)
	}
	out.OnSale = p.SaleActive(now)
	if p.PublishAt != nil {
		s := p.PublishAt.UTC().Format(gmtLayout)
		out.DatePublishGMT = &s
	}
	for _, img := range p.Images {
		out.Images = append(out.Images, imageJSON{ID: img.ID, Src: img.Src, Name: img.Name, Alt: img.Alt})
	}
	for _, at := range p.Attributes {
		aj := attributeJSON{ID: at.AttributeID, Name: at.Name, Slug: at.Key(), Position: at.Position, Visible: at.Visible, Variation: at.Variation, Options: []string{}}
		for _, v := range at.Values {
			aj.Options = append(aj.Options, v.Name)
		}
		out.Attributes = append(out.Attributes, aj)
	}
	for _, v := range vars {
		out.Variations = append(out.Variations, v.ID)
	}
	return out
}

func terms(ts []catalog.Term) []termJSON {
	out := make([]termJSON, 0, len(ts))
	for _, t := range ts {
		out = append(out, termJSON{ID: t.ID, Name: t.Name, Slug: t.Slug})
	}
	return out
}

func (a *API) variationOut(parent *catalog.Product, v *catalog.Product) variationJSON {
	out := variationJSON{ID: v.ID, SKU: v.SKU, RegularPrice: a.decimal(v.RegularPrice), SalePrice: a.decimal(v.SalePrice),
		ManageStock: v.ManageStock, StockQuantity: v.StockQuantity, StockStatus: v.StockStatus, Status: v.Status,
		Enabled: v.Active && v.Published(), Attributes: []variationAttrJSON{}, saleDatesJSON: saleDatesOut(v),
		LowStockAmount: v.LowStockAmount, QuantityRules: quantityRulesOut(v),
		PreOrder: v.PreOrder, PreOrderDateGMT: preOrderDateOut(v), PreOrderLabel: v.PreOrderLabel}
	if price, ok := v.Price(a.d.Now()); ok {
		out.Price = a.decimal(&price)
	}
	if len(v.Images) > 0 {
		out.Image = &imageJSON{ID: v.Images[0].ID, Src: v.Images[0].Src, Name: v.Images[0].Name, Alt: v.Images[0].Alt}
	}
	for _, va := range v.Variation {
		aj := variationAttrJSON{Name: va.Name, Slug: va.Name, Option: va.Value}
		for _, at := range parent.Attributes {
			if at.Key() != va.Name {
				continue
			}
			aj.Name = at.Name
			for _, val := range at.Values {
				if val.Slug == va.Value {
					aj.Option = val.Name
				}
			}
		}
		out.Attributes = append(out.Attributes, aj)
	}
	return out
}

// writeProduct answers a product with its version as ETag.
func (a *API) writeProduct(w http.ResponseWriter, status int, p *catalog.Product, vars []*catalog.Product) {
	w.Header().Set("ETag", `"`+strconv.FormatInt(p.Version, 10)+`"`)
	WriteJSON(w, status, a.productOut(p, vars))
}

// GET /wp-json/wc/v3/products?search=&type=&category=&stock_status=&status=&page=&per_page=&orderby=&order=
func (a *API) productsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q catalog.AdminQuery
	return List[*catalog.Product, productJSON]{
		Search: &q.Search,
		Filters: []Filter{
			Text("type", &q.Type), Text("stock_status", &q.StockStatus), Text("status", &q.Status),
			Int64("category", &q.CategoryID, 1, "category must be a category id."),
		},
		Sort: &Sort{Keys: catalog.AdminOrderBy, By: &q.OrderBy, Order: &q.Order},
		Fetch: func(ctx context.Context, p Paging) ([]*catalog.Product, int, error) {
			q.Page, q.PerPage = p.Page, p.PerPage
			return a.d.Catalog.List(ctx, q)
		},
		Row: func(p *catalog.Product) productJSON { return a.productOut(p, nil) },
	}.Serve(w, r)
}

// GET /wp-json/vitrine/v1/admin/products/counts: products per status, and
// "all" but the trash.
func (a *API) productCounts(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return Tabs{
		Count:    a.d.Catalog.StatusCounts,
		Statuses: []string{catalog.StatusPublish, catalog.StatusDraft, catalog.StatusPrivate, catalog.StatusFuture, catalog.StatusTrash},
		All:      "all",
		NotInAll: []string{catalog.StatusTrash},
	}.Serve(w, r)
}

// GET /wp-json/wc/v3/products/{id}
func (a *API) productGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	p, vars, err := a.d.Catalog.Get(r.Context(), id)
	if err != nil {
		return err
	}
	a.writeProduct(w, http.StatusOK, p, vars)
	return nil
}

// decimalString is a price as WooCommerce takes it: a string, though a
// JSON number is accepted too.
type decimalString string

func (d *decimalString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = decimalString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*d = decimalString(n.String())
	return nil
}

func (d *decimalString) ptr() *string {
	if d == nil {
		return nil
	}
	s := string(*d)
	return &s
}

type idRef struct {
	ID int64 `json:"id"`
}

// productBody is a create or an edit; absent fields are left as they are.
type productBody struct {
	Name              *string        `json:"name"`
	Slug              *string        `json:"slug"`
	Type              *string        `json:"type"`
	Status            *string        `json:"status"`
	Description       *string        `json:"description"`
	ShortDescription  *string        `json:"short_description"`
	SKU               *string        `json:"sku"`
	RegularPrice      *decimalString `json:"regular_price"`
	SalePrice         *decimalString `json:"sale_price"`
	ManageStock       *bool          `json:"manage_stock"`
	StockQuantity     *int64         `json:"stock_quantity"`
	OriginalStock     *int64         `json:"original_stock_quantity"`
	StockStatus       *string        `json:"stock_status"`
	Backorders        *string        `json:"backorders"`
	Featured          *bool          `json:"featured"`
	CatalogVisibility *string        `json:"catalog_visibility"`
	DatePublishGMT    *string        `json:"date_publish_gmt"`
	Weight            *string        `json:"weight"`
	Dimensions        *struct {
		Length *string `json:"length"`
		Width  *string `json:"width"`
		Height *string `json:"height"`
	} `json:"dimensions"`
	MenuOrder        *int               `json:"menu_order"`
	ExternalURL      *string            `json:"external_url"`
	ButtonText       *string            `json:"button_text"`
	GroupedProducts  *[]int64           `json:"grouped_products"`
	UpsellIDs        *[]int64           `json:"upsell_ids"`
	CrossSellIDs     *[]int64           `json:"cross_sell_ids"`
	LowStockAmount   nullableInt        `json:"low_stock_amount"`
	QuantityRules    *quantityRulesBody `json:"quantity_rules"`
	SoldIndividually *bool              `json:"sold_individually"`
	TaxStatus        *string            `json:"tax_status"`
	TaxClass         *string            `json:"tax_class"`
	saleDatesBody
	Categories *[]idRef `json:"categories"`
	Tags       *[]idRef `json:"tags"`
	Images     *[]struct {
		ID  int64  `json:"id"`
		Src string `json:"src"`
		Alt string `json:"alt"`
	} `json:"images"`
	Attributes *[]struct {
		ID        int64    `json:"id"`
		Name      string   `json:"name"`
		Options   []string `json:"options"`
		Visible   bool     `json:"visible"`
		Variation bool     `json:"variation"`
	} `json:"attributes"`
	Version *int64 `json:"version"`
}

func ids(refs *[]idRef) *[]int64 {
	if refs == nil {
		return nil
	}
	out := make([]int64, 0, len(*refs))
	for _, r := range *refs {
		out = append(out, r.ID)
	}
	return &out
}

// input turns a body into the service's input.
func (b *productBody) input() (catalog.ProductInput, error) {
	in := catalog.ProductInput{Name: b.Name, Slug: b.Slug, Type: b.Type, Status: b.Status, Description: b.Description,
		ShortDescription: b.ShortDescription, SKU: b.SKU, RegularPrice: b.RegularPrice.ptr(), SalePrice: b.SalePrice.ptr(),
		ManageStock: b.ManageStock, StockQuantity: b.StockQuantity, OriginalStock: b.OriginalStock, StockStatus: b.StockStatus, Backorders: b.Backorders,
		Featured: b.Featured, CatalogVisibility: b.CatalogVisibility, Weight: b.Weight, MenuOrder: b.MenuOrder,
		ExternalURL: b.ExternalURL, ButtonText: b.ButtonText, GroupedProducts: b.GroupedProducts, Categories: ids(b.Categories), Tags: ids(b.Tags),
		Upsells: b.UpsellIDs, CrossSells: b.CrossSellIDs, Quantity: b.QuantityRules.input(),
		SoldIndividually: b.SoldIndividually, TaxStatus: b.TaxStatus, TaxClass: b.TaxClass}
	var err error
	if in.LowStockAmount, err = b.LowStockAmount.lowStock("low_stock_amount"); err != nil {
		return in, err
	}
	if in.SaleFrom, in.SaleTo, err = b.saleDatesBody.dates(""); err != nil {
		return in, err
	}
	if b.Dimensions != nil {
		in.Length, in.Width, in.Height = b.Dimensions.Length, b.Dimensions.Width, b.Dimensions.Height
	}
	if b.DatePublishGMT != nil && *b.DatePublishGMT != "" {
		t, err := parseGMT(*b.DatePublishGMT)
		if err != nil {
			return in, InvalidParam("date_publish_gmt", "date_publish_gmt must be a date and time such as 2026-12-01T09:00:00 (UTC).")
		}
		in.PublishAt = &t
	}
	if b.Images != nil {
		refs := make([]catalog.ImageRef, 0, len(*b.Images))
		for _, img := range *b.Images {
			refs = append(refs, catalog.ImageRef{ID: img.ID, Src: img.Src, Alt: img.Alt})
		}
		in.Images = &refs
	}
	if b.Attributes != nil {
		attrs := make([]catalog.AttributeInput, 0, len(*b.Attributes))
		for _, at := range *b.Attributes {
			attrs = append(attrs, catalog.AttributeInput{ID: at.ID, Name: at.Name, Options: at.Options, Visible: at.Visible, Variation: at.Variation})
		}
		in.Attributes = &attrs
	}
	return in, nil
}

func parseGMT(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	return time.Parse(gmtLayout, s)
}

// baseVersion is the version an edit was based on: If-Match, else the
// body's "version".
func baseVersion(r *http.Request, body *int64) (int64, error) {
	if h := strings.Trim(strings.TrimPrefix(strings.TrimSpace(r.Header.Get("If-Match")), "W/"), `"`); h != "" {
		n, err := strconv.ParseInt(h, 10, 64)
		if err != nil || n < 1 {
			return 0, InvalidParam("version", "If-Match must be the product's version, as its ETag gives it.")
		}
		return n, nil
	}
	if body == nil {
		return 0, &Error{Status: http.StatusPreconditionRequired, Code: "vitrine_version_required",
			Message: "Send the version of the product this edit is based on (If-Match header or \"version\" field), so a newer change is never overwritten."}
	}
	if *body < 1 {
		return 0, InvalidParam("version", "version must be the product's version.")
	}
	return *body, nil
}

// editBase is the version an edit of product id is based on
// (baseVersion). A REST API key's edit without one is based on the
// current version, as WooCommerce's clients know no versions and
// WooCommerce keeps the last write; an If-Match or "version" it sends is
// checked as any other.
func (a *API) editBase(r *http.Request, id int64, body *int64) (int64, error) {
	if body == nil && r.Header.Get("If-Match") == "" && a.d.ByAPIKey != nil && a.d.ByAPIKey(r) {
		p, _, err := a.d.Catalog.Get(r.Context(), id)
		if err != nil {
			return 0, err
		}
		return p.Version, nil
	}
	return baseVersion(r, body)
}

// stale is the 409 answer to an edit based on an old version: the
// current version comes with it, so the client can offer to reload.
func (a *API) stale(r *http.Request, id int64) error {
	data := map[string]any{}
	if p, _, err := a.d.Catalog.Get(r.Context(), id); err == nil {
		data["version"] = p.Version
		data["date_modified_gmt"] = p.UpdatedAt.UTC().Format(gmtLayout)
	}
	return Conflict("vitrine_product_stale",
		"This product was changed by someone else after you opened it, so your edit was not saved. Reload the product to see the newer version, then make your change again.", data)
}

// stockChanged is the 409 answer to a stock count sent without the count
// it was based on, after orders moved the stock: field names the count
// refused, and data holds the count now, so the client can send it as
// original_stock_quantity or show it.
func stockChanged(c *catalog.StockConflict, field string) error {
	return Conflict("vitrine_stock_changed",
		"Orders changed this stock after the form was loaded, so the stock quantity was not saved (and nothing else was). Send the quantity the form was loaded with as original_stock_quantity to apply your change on top of the orders, or reload the product.",
		map[string]any{"id": c.ID, "field": field, "stock_quantity": c.Stock})
}

// changed tells the server the catalogue moved, so this instance drops
// the cached pages at once (the others within a poll).
func (a *API) changed(r *http.Request) {
	if a.d.CatalogChanged != nil {
		a.d.CatalogChanged(r.Context())
	}
}

// POST /wp-json/wc/v3/products
func (a *API) productCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b productBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	in, err := b.input()
	if err != nil {
		return err
	}
	p, err := a.d.Catalog.Create(r.Context(), in)
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "product.create", "product", p.ID, fmt.Sprintf("Created %s %q (%s)", p.Type, p.Name, p.Status))
	a.writeProduct(w, http.StatusCreated, p, nil)
	return nil
}

// PUT|PATCH /wp-json/wc/v3/products/{id}
func (a *API) productUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b productBody
	id, err := idAndBody(r, &b)
	if err != nil {
		return err
	}
	base, err := a.editBase(r, id, b.Version)
	if err != nil {
		return err
	}
	in, err := b.input()
	if err != nil {
		return err
	}
	p, err := a.d.Catalog.Update(r.Context(), id, base, in)
	if errors.Is(err, catalog.ErrStale) {
		return a.stale(r, id)
	}
	if c := (*catalog.StockConflict)(nil); errors.As(err, &c) {
		return stockChanged(c, "stock_quantity")
	}
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "product.update", "product", p.ID, fmt.Sprintf("Edited %q (version %d)", p.Name, p.Version))
	return a.writeSaved(w, r, http.StatusOK, p)
}

// DELETE /wp-json/wc/v3/products/{id}[?force=true]: to the trash, or
// (force) out of the trash for good.
func (a *API) productDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	p, vars, err := a.d.Catalog.Get(r.Context(), id)
	if err != nil {
		return err
	}
	out := a.productOut(p, vars)
	action, what, note := catalog.BulkTrash, "product.trash", fmt.Sprintf("Moved %q to the trash", p.Name)
	force := r.URL.Query().Get("force") == "true"
	if force {
		action, what, note = catalog.BulkDelete, "product.delete", fmt.Sprintf("Deleted %q permanently", p.Name)
		// WooCommerce deletes for good whatever the status; the catalogue
		// deletes from the trash only, so a product not in it goes there
		// first (which raises product.deleted, as a trashing does).
		if p.Status != catalog.StatusTrash {
			if _, err := a.d.Catalog.Bulk(r.Context(), catalog.BulkTrash, []int64{id}); err != nil {
				return err
			}
		}
	}
	if _, err := a.d.Catalog.Bulk(r.Context(), action, []int64{id}); err != nil {
		return err
	}
	a.changed(r)
	Note(r, what, "product", id, note)
	if !force {
		out.Status = catalog.StatusTrash
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// POST /wp-json/vitrine/v1/admin/products/bulk {"action","ids"}: publish,
// draft, trash, restore (to draft) or delete (trashed ones, for good), on
// the set at once.
func (a *API) productsBulk(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return Bulk{
		Object: "product", Objects: "products",
		Actions: catalog.BulkActions,
		Apply: func(ctx context.Context, action string, ids []int64) (BulkResult, error) {
			n, err := a.d.Catalog.Bulk(ctx, action, ids)
			if err != nil {
				return BulkResult{}, err
			}
			a.changed(r)
			return BulkResult{Changed: n}, nil
		},
	}.Serve(w, r)
}

// POST /wp-json/wc/v3/products/{id}/duplicate: a draft copy.
func (a *API) productDuplicate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	p, err := a.d.Catalog.Duplicate(r.Context(), id)
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "product.duplicate", "product", p.ID, fmt.Sprintf("Duplicated product %d as %q", id, p.Name))
	return a.writeSaved(w, r, http.StatusCreated, p)
}

// writeSaved answers a product just saved, with its variations as stored.
func (a *API) writeSaved(w http.ResponseWriter, r *http.Request, status int, p *catalog.Product) error {
	_, vars, err := a.d.Catalog.Get(r.Context(), p.ID)
	if err != nil {
		return err
	}
	a.writeProduct(w, status, p, vars)
	return nil
}

// productSub routes /wp-json/wc/v3/products/{id}/… by what follows the id.
func (a *API) productSub(w http.ResponseWriter, r *http.Request, st Staff) error {
	switch r.Method + " " + r.PathValue("sub") {
	case "GET variations":
		return a.variationsList(w, r, st)
	case "POST variations/generate":
		return a.variationsGenerate(w, r, st)
	case "POST variations/batch":
		return a.variationsBatch(w, r, st)
	case "POST duplicate":
		return a.productDuplicate(w, r, st)
	}
	return errNoRoute
}

// GET /wp-json/wc/v3/products/{id}/variations
func (a *API) variationsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	p, vars, err := a.d.Catalog.Get(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]variationJSON, 0, len(vars))
	for _, v := range vars {
		out = append(out, a.variationOut(p, v))
	}
	w.Header().Set("ETag", `"`+strconv.FormatInt(p.Version, 10)+`"`)
	w.Header().Set("X-Vitrine-Version", strconv.FormatInt(p.Version, 10))
	WriteAll(w, out)
	return nil
}

// variationsAnswer is what generate and batch answer: the product's new
// version and its variations.
func (a *API) variationsAnswer(w http.ResponseWriter, r *http.Request, id int64, extra map[string]any) error {
	p, vars, err := a.d.Catalog.Get(r.Context(), id)
	if err != nil {
		return err
	}
	list := make([]variationJSON, 0, len(vars))
	for _, v := range vars {
		list = append(list, a.variationOut(p, v))
	}
	extra["version"] = p.Version
	extra["variations"] = list
	w.Header().Set("ETag", `"`+strconv.FormatInt(p.Version, 10)+`"`)
	WriteJSON(w, http.StatusOK, extra)
	return nil
}

// POST /wp-json/wc/v3/products/{id}/variations/generate {"version"}
func (a *API) variationsGenerate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	var b struct {
		Version *int64 `json:"version"`
	}
	if r.ContentLength != 0 {
		if err := Decode(r, &b); err != nil {
			return err
		}
	}
	base, err := a.editBase(r, id, b.Version)
	if err != nil {
		return err
	}
	n, err := a.d.Catalog.GenerateVariations(r.Context(), id, base)
	if errors.Is(err, catalog.ErrStale) {
		return a.stale(r, id)
	}
	if err != nil {
		return err
	}
	if n > 0 {
		a.changed(r)
	}
	Note(r, "product.variations_generate", "product", id, fmt.Sprintf("Generated %d variations", n))
	return a.variationsAnswer(w, r, id, map[string]any{"count": n})
}

// variationBody is one variation's edit in a batch.
type variationBody struct {
	ID            int64          `json:"id"`
	SKU           *string        `json:"sku"`
	RegularPrice  *decimalString `json:"regular_price"`
	SalePrice     *decimalString `json:"sale_price"`
	ManageStock   *bool          `json:"manage_stock"`
	StockQuantity *int64         `json:"stock_quantity"`
	OriginalStock *int64         `json:"original_stock_quantity"`
	StockStatus   *string        `json:"stock_status"`
	Enabled       *bool          `json:"enabled"`
	saleDatesBody
	preOrderBody
	LowStockAmount nullableInt        `json:"low_stock_amount"`
	QuantityRules  *quantityRulesBody `json:"quantity_rules"`
	Image          *struct {
		ID int64 `json:"id"`
	} `json:"image"`
}

// POST /wp-json/wc/v3/products/{id}/variations/batch {"version","update":[…],"delete":[ids]}
func (a *API) variationsBatch(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b struct {
		Version *int64          `json:"version"`
		Update  []variationBody `json:"update"`
		Delete  []int64         `json:"delete"`
	}
	id, err := idAndBody(r, &b)
	if err != nil {
		return err
	}
	base, err := a.editBase(r, id, b.Version)
	if err != nil {
		return err
	}
	if len(b.Update)+len(b.Delete) == 0 {
		return InvalidParam("update", "Nothing to change: send update or delete.")
	}
	edits := make([]catalog.VariationEdit, 0, len(b.Update))
	for _, u := range b.Update {
		e := catalog.VariationEdit{ID: u.ID, SKU: u.SKU, RegularPrice: u.RegularPrice.ptr(), SalePrice: u.SalePrice.ptr(),
			ManageStock: u.ManageStock, StockQuantity: u.StockQuantity, OriginalStock: u.OriginalStock, StockStatus: u.StockStatus, Enabled: u.Enabled,
			Quantity: u.QuantityRules.input()}
		if e.LowStockAmount, err = u.LowStockAmount.lowStock(fmt.Sprintf("update[%d].low_stock_amount", len(edits))); err != nil {
			return err
		}
		if err := u.preOrderBody.apply(&e, fmt.Sprintf("update[%d].", len(edits))); err != nil {
			return err
		}
		if u.Image != nil {
			e.ImageID = &u.Image.ID
		}
		if e.SaleFrom, e.SaleTo, err = u.saleDatesBody.dates(fmt.Sprintf("update[%d].", len(edits))); err != nil {
			return err
		}
		edits = append(edits, e)
	}
	err = a.d.Catalog.EditVariations(r.Context(), id, base, edits, b.Delete)
	if errors.Is(err, catalog.ErrStale) {
		return a.stale(r, id)
	}
	if c := (*catalog.StockConflict)(nil); errors.As(err, &c) {
		field := "stock_quantity"
		for i, e := range edits {
			if e.ID == c.ID {
				field = fmt.Sprintf("update[%d].stock_quantity", i)
			}
		}
		return stockChanged(c, field)
	}
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "product.variations_batch", "product", id, fmt.Sprintf("Edited %d variations, deleted %d", len(edits), len(b.Delete)))
	return a.variationsAnswer(w, r, id, map[string]any{"updated": len(edits), "deleted": len(b.Delete)})
}

// GET /wp-json/vitrine/v1/admin/product-images?search=: the catalogue's
// images, for the editor's picker.
func (a *API) productImages(w http.ResponseWriter, r *http.Request, _ Staff) error {
	imgs, err := a.d.Catalog.Images(r.Context(), r.URL.Query().Get("search"))
	if err != nil {
		return err
	}
	out := make([]imageJSON, 0, len(imgs))
	for _, img := range imgs {
		out = append(out, imageJSON{ID: img.ID, Src: img.Src, Name: img.Name, Alt: img.Alt})
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
