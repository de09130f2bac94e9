package catalogstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore/sqlcore"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"
)

var _ catalog.Store = (*Catalog)(nil)

type productRow struct {
	ID                int64          `db:"id"`
	ParentID          sql.NullInt64  `db:"parent_id"`
	Type              string         `db:"type"`
	Name              string         `db:"name"`
	Slug              string         `db:"slug"`
	SKU               sql.NullString `db:"sku"`
	Status            string         `db:"status"`
	CatalogVisibility string         `db:"catalog_visibility"`
	Featured          bool           `db:"featured"`
	ShortDescription  string         `db:"short_description"`
	Description       string         `db:"description"`
	RegularPrice      sql.NullInt64  `db:"regular_price"`
	SalePrice         sql.NullInt64  `db:"sale_price"`
	SaleFrom          sql.NullTime   `db:"sale_from"`
	SaleTo            sql.NullTime   `db:"sale_to"`
	SortPrice         sql.NullInt64  `db:"sort_price"`
	ManageStock       bool           `db:"manage_stock"`
	StockQuantity     sql.NullInt64  `db:"stock_quantity"`
	StockStatus       string         `db:"stock_status"`
	Backorders        string         `db:"backorders"`
	LowStockAmount    sql.NullInt64  `db:"low_stock_amount"`
	Weight            string         `db:"weight"`
	Length            string         `db:"length"`
	Width             string         `db:"width"`
	Height            string         `db:"height"`
	MinQty            int64          `db:"min_qty"`
	MaxQty            int64          `db:"max_qty"`
	Step              int64          `db:"step"`
	SoldIndividually  bool           `db:"sold_individually"`
	Purchasable       bool           `db:"purchasable"`
	Visible           bool           `db:"visible"`
	Active            bool           `db:"active"`
	PreOrder          bool           `db:"pre_order"`
	PreOrderAt        sql.NullTime   `db:"pre_order_at"`
	PreOrderLabel     string         `db:"pre_order_label"`
	MenuOrder         int            `db:"menu_order"`
	ExternalURL       string         `db:"external_url"`
	ButtonText        string         `db:"button_text"`
	TaxStatus         string         `db:"tax_status"`
	TaxClass          string         `db:"tax_class"`
	AverageRating     float64        `db:"average_rating"`
	ReviewCount       int            `db:"review_count"`
	TotalSales        int64          `db:"total_sales"`
	CreatedAt         sql.NullTime   `db:"created_at"`
	UpdatedAt         sql.NullTime   `db:"updated_at"`
	Version           int64          `db:"version"`
	PublishAt         sql.NullTime   `db:"publish_at"`
}

const productSelect = `SELECT id, parent_id, type, name, slug, sku, status, catalog_visibility, featured,
	short_description, description, regular_price, sale_price, sale_from, sale_to, sort_price,
	manage_stock, stock_quantity, stock_status, backorders, low_stock_amount,
	weight, length, width, height, min_qty, max_qty, step, sold_individually,
	purchasable, visible, active, pre_order, pre_order_at, pre_order_label,
	menu_order, external_url, button_text, tax_status, tax_class,
	average_rating, review_count, total_sales, created_at, updated_at, version, publish_at FROM products`

// productColumnsSelect is productSelect without its FROM clause.
var productColumnsSelect = strings.TrimSuffix(productSelect, " FROM products")

// cardColumnsSelect is productColumnsSelect without the descriptions, which
// a card never shows (catalog.ProductQuery.Cards).
var cardColumnsSelect = strings.Replace(productColumnsSelect, "short_description, description,", "'' AS short_description, '' AS description,", 1)

// loadFor is what q's products load: a card's columns and relations for
// q.Cards, else everything.
func loadFor(q catalog.ProductQuery) (columns string, rel relations) {
	if q.Cards {
		return cardColumnsSelect, relCards
	}
	return productColumnsSelect, relAll
}

func ptr(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	v := n.Int64
	return &v
}

func (r *productRow) product() *catalog.Product {
	p := &catalog.Product{
		ID: r.ID, ParentID: r.ParentID.Int64, Type: r.Type, Name: r.Name, Slug: r.Slug, SKU: r.SKU.String,
		Status: r.Status, CatalogVisibility: r.CatalogVisibility, Featured: r.Featured,
		ShortDescription: r.ShortDescription, Description: r.Description,
		RegularPrice: ptr(r.RegularPrice), SalePrice: ptr(r.SalePrice),
		ManageStock: r.ManageStock, StockQuantity: ptr(r.StockQuantity), StockStatus: r.StockStatus,
		Backorders: r.Backorders, LowStockAmount: ptr(r.LowStockAmount),
		Weight: r.Weight, Length: r.Length, Width: r.Width, Height: r.Height,
		MinQty: r.MinQty, MaxQty: r.MaxQty, Step: r.Step, SoldIndividually: r.SoldIndividually,
		Purchasable: r.Purchasable, Visible: r.Visible, Active: r.Active,
		PreOrder: r.PreOrder, PreOrderLabel: r.PreOrderLabel,
		MenuOrder: r.MenuOrder, ExternalURL: r.ExternalURL, ButtonText: r.ButtonText,
		TaxStatus: r.TaxStatus, TaxClass: r.TaxClass,
		AverageRating: r.AverageRating, ReviewCount: r.ReviewCount, TotalSales: r.TotalSales,
		CreatedAt: r.CreatedAt.Time.UTC(), UpdatedAt: r.UpdatedAt.Time.UTC(), Version: r.Version,
	}
	if r.PublishAt.Valid {
		t := r.PublishAt.Time.UTC()
		p.PublishAt = &t
	}
	if r.SaleFrom.Valid {
		t := r.SaleFrom.Time.UTC()
		p.SaleFrom = &t
	}
	if r.SaleTo.Valid {
		t := r.SaleTo.Time.UTC()
		p.SaleTo = &t
	}
	if r.PreOrderAt.Valid {
		t := r.PreOrderAt.Time.UTC()
		p.PreOrderAt = &t
	}
	return p
}

// relations selects what loadProducts loads besides the product rows.
type relations uint8

const (
	relImages     relations = 1 << iota
	relTerms                // categories and tags
	relAttributes           // product attributes and their values
	relVariation            // a variation's attribute values
	relLinks                // grouped children, up-sells, cross-sells
	relMeta

	relAll = relImages | relTerms | relAttributes | relVariation | relLinks | relMeta
	// A product card's (catalog.ProductQuery.Cards): its pictures, and a
	// grouped product's children for its price.
	relCards = relImages | relLinks
	// Variations have no terms, attributes or links of their own.
	relVariations = relImages | relVariation | relMeta
)

// loadProducts runs a products query and loads every relation for the rows
// in a fixed number of queries, whatever the row count.
func (db *Catalog) loadProducts(ctx context.Context, q string, args ...any) ([]*catalog.Product, error) {
	return db.loadProductsWith(ctx, relAll, q, args...)
}

func (db *Catalog) loadProductsWith(ctx context.Context, rel relations, q string, args ...any) ([]*catalog.Product, error) {
	var rows []productRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("load products: %w", err)
	}
	out := make([]*catalog.Product, len(rows))
	byID := make(map[int64]*catalog.Product, len(rows))
	ids := make([]int64, len(rows))
	for i := range rows {
		out[i] = rows[i].product()
		byID[out[i].ID] = out[i]
		ids[i] = out[i].ID
	}
	if len(ids) == 0 {
		return out, nil
	}
	if err := db.loadRelations(ctx, rel, ids, byID); err != nil {
		return nil, err
	}
	return out, nil
}

// relationLoaders load each relation of a page of products, in this order;
// each reads every product of the page in one statement.
var relationLoaders = []struct {
	rel  relations
	load func(db *Catalog, ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error
}{
	{relImages, (*Catalog).loadImages},
	{relTerms, (*Catalog).loadTerms},
	{relAttributes, (*Catalog).loadAttributes},
	{relVariation, (*Catalog).loadVariationAttrs},
	{relLinks, (*Catalog).loadLinks},
	{relMeta, (*Catalog).loadMeta},
}

func (db *Catalog) loadRelations(ctx context.Context, rel relations, ids []int64, byID map[int64]*catalog.Product) error {
	in, args := sqlcore.InClause(ids)
	for _, l := range relationLoaders {
		if rel&l.rel == 0 {
			continue
		}
		if err := l.load(db, ctx, in, args, byID); err != nil {
			return err
		}
	}
	return nil
}

func (db *Catalog) loadImages(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var imgs []struct {
		ProductID int64 `db:"product_id"`
		imageRow
	}
	if err := db.Read.SelectContext(ctx, &imgs, db.Read.Rebind(`SELECT pi.product_id, i.id, i.src, i.width, i.height, i.alt, i.caption, i.name, i.sizes
		FROM product_images pi JOIN images i ON i.id = pi.image_id WHERE pi.product_id IN `+in+` ORDER BY pi.product_id, pi.position`), args...); err != nil {
		return fmt.Errorf("load images: %w", err)
	}
	for _, r := range imgs {
		byID[r.ProductID].Images = append(byID[r.ProductID].Images, r.image())
	}
	return nil
}

func (db *Catalog) loadTerms(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var terms []struct {
		ProductID int64  `db:"product_id"`
		Kind      string `db:"kind"`
		ID        int64  `db:"id"`
		Name      string `db:"name"`
		Slug      string `db:"slug"`
	}
	if err := db.Read.SelectContext(ctx, &terms, db.Read.Rebind(`
		SELECT pc.product_id, 'cat' AS kind, c.id, c.name, c.slug FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id IN `+in+`
		UNION ALL
		SELECT pt.product_id, 'tag' AS kind, t.id, t.name, t.slug FROM product_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.product_id IN `+in+`
		ORDER BY 1, 2, 4`), append(args, args...)...); err != nil {
		return fmt.Errorf("load terms: %w", err)
	}
	for _, r := range terms {
		p := byID[r.ProductID]
		t := catalog.Term{ID: r.ID, Name: r.Name, Slug: r.Slug}
		if r.Kind == "cat" {
			p.Categories = append(p.Categories, t)
		} else {
			p.Tags = append(p.Tags, t)
		}
	}
	return nil
}

func (db *Catalog) loadAttributes(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var attrs []struct {
		ProductID   int64          `db:"product_id"`
		Position    int            `db:"position"`
		AttributeID sql.NullInt64  `db:"attribute_id"`
		Name        string         `db:"name"`
		Visible     bool           `db:"visible"`
		Variation   bool           `db:"variation"`
		Slug        sql.NullString `db:"slug"`
	}
	if err := db.Read.SelectContext(ctx, &attrs, db.Read.Rebind(`SELECT pa.product_id, pa.position, pa.attribute_id, pa.name, pa.visible, pa.variation, a.slug
		FROM product_attributes pa LEFT JOIN attributes a ON a.id = pa.attribute_id WHERE pa.product_id IN `+in+` ORDER BY pa.product_id, pa.position`), args...); err != nil {
		return fmt.Errorf("load attributes: %w", err)
	}
	type attrKey struct {
		product int64
		pos     int
	}
	attrIndex := map[attrKey]int{}
	for _, r := range attrs {
		p := byID[r.ProductID]
		a := catalog.ProductAttribute{AttributeID: r.AttributeID.Int64, Name: r.Name, Position: r.Position, Visible: r.Visible, Variation: r.Variation}
		if r.Slug.Valid {
			a.Taxonomy = "pa_" + r.Slug.String
		}
		attrIndex[attrKey{r.ProductID, r.Position}] = len(p.Attributes)
		p.Attributes = append(p.Attributes, a)
	}
	if len(attrs) > 0 {
		var vals []struct {
			ProductID int64          `db:"product_id"`
			Position  int            `db:"position"`
			TermID    sql.NullInt64  `db:"term_id"`
			Value     string         `db:"value"`
			Slug      sql.NullString `db:"slug"`
			Name      sql.NullString `db:"term_name"`
		}
		if err := db.Read.SelectContext(ctx, &vals, db.Read.Rebind(`SELECT v.product_id, v.position, v.term_id, v.value, t.slug, t.name AS term_name
			FROM product_attribute_values v LEFT JOIN attribute_terms t ON t.id = v.term_id
			WHERE v.product_id IN `+in+` ORDER BY v.product_id, v.position, COALESCE(t.menu_order, 0), v.value_pos`), args...); err != nil {
			return fmt.Errorf("load attribute values: %w", err)
		}
		for _, r := range vals {
			i, ok := attrIndex[attrKey{r.ProductID, r.Position}]
			if !ok {
				continue
			}
			v := catalog.AttributeValue{TermID: r.TermID.Int64, Name: r.Value, Slug: r.Value}
			if r.Slug.Valid {
				v.Slug, v.Name = r.Slug.String, r.Name.String
			}
			p := byID[r.ProductID]
			p.Attributes[i].Values = append(p.Attributes[i].Values, v)
		}
	}
	return nil
}

func (db *Catalog) loadVariationAttrs(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var vattrs []struct {
		ID    int64  `db:"variation_id"`
		Name  string `db:"name"`
		Value string `db:"value"`
	}
	if err := db.Read.SelectContext(ctx, &vattrs, db.Read.Rebind(`SELECT variation_id, name, value FROM variation_attributes WHERE variation_id IN `+in+` ORDER BY variation_id, name`), args...); err != nil {
		return fmt.Errorf("load variation attributes: %w", err)
	}
	for _, r := range vattrs {
		byID[r.ID].Variation = append(byID[r.ID].Variation, catalog.VariationAttr{Name: r.Name, Value: r.Value})
	}
	return nil
}

func (db *Catalog) loadLinks(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var links []struct {
		ProductID int64  `db:"product_id"`
		Kind      string `db:"kind"`
		LinkedID  int64  `db:"linked_id"`
	}
	if err := db.Read.SelectContext(ctx, &links, db.Read.Rebind(`SELECT product_id, kind, linked_id FROM product_links WHERE product_id IN `+in+` ORDER BY product_id, kind, position`), args...); err != nil {
		return fmt.Errorf("load links: %w", err)
	}
	for _, r := range links {
		p := byID[r.ProductID]
		switch r.Kind {
		case "child":
			p.Children = append(p.Children, r.LinkedID)
		case "upsell":
			p.Upsells = append(p.Upsells, r.LinkedID)
		case "crosssell":
			p.CrossSells = append(p.CrossSells, r.LinkedID)
		}
	}
	return nil
}

func (db *Catalog) loadMeta(ctx context.Context, in string, args []any, byID map[int64]*catalog.Product) error {
	var meta []struct {
		ProductID int64  `db:"product_id"`
		Key       string `db:"meta_key"`
		Value     string `db:"value"`
	}
	if err := db.Read.SelectContext(ctx, &meta, db.Read.Rebind(`SELECT product_id, meta_key, value FROM product_meta WHERE product_id IN `+in), args...); err != nil {
		return fmt.Errorf("load meta: %w", err)
	}
	for _, r := range meta {
		p := byID[r.ProductID]
		if p.Meta == nil {
			p.Meta = map[string]string{}
		}
		p.Meta[r.Key] = r.Value
	}
	return nil
}

func one(ps []*catalog.Product, err error) (*catalog.Product, error) {
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, catalog.ErrNotFound
	}
	return ps[0], nil
}

// ProductsByIDTx reads the products with these ids in tx, by id, without
// their relations (images, terms, …): what a write that prices an order or
// moves stock needs, read under the write's own lock.
func ProductsByIDTx(ctx context.Context, tx *sqlx.Tx, ids []int64) (map[int64]*catalog.Product, error) {
	in, args := sqlcore.InClause(ids)
	var rows []productRow
	if err := tx.SelectContext(ctx, &rows, tx.Rebind(productSelect+` WHERE id IN `+in), args...); err != nil {
		return nil, err
	}
	byID := make(map[int64]*catalog.Product, len(rows))
	for i := range rows {
		p := rows[i].product()
		byID[p.ID] = p
	}
	return byID, nil
}

// Product implements catalog.Store.
func (db *Catalog) Product(ctx context.Context, id int64) (*catalog.Product, error) {
	return one(db.loadProducts(ctx, productSelect+` WHERE id = ?`, id))
}

// ProductBySlug implements catalog.Store.
func (db *Catalog) ProductBySlug(ctx context.Context, slug string) (*catalog.Product, error) {
	return one(db.loadProducts(ctx, productSelect+` WHERE slug = ? AND parent_id IS NULL`, slug))
}

// Products implements catalog.Store.
func (db *Catalog) Products(ctx context.Context, ids []int64) ([]*catalog.Product, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := sqlcore.InClause(ids)
	ps, err := db.loadProducts(ctx, productSelect+` WHERE id IN `+in, args...)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*catalog.Product, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	out := make([]*catalog.Product, 0, len(ids))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// Variations implements catalog.Store.
func (db *Catalog) Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error) {
	return db.loadProductsWith(ctx, relVariations, productSelect+` WHERE parent_id = ? ORDER BY menu_order, id`, parentID)
}

// VariationsOf implements catalog.Store.
func (db *Catalog) VariationsOf(ctx context.Context, parentIDs []int64) (map[int64][]*catalog.Product, error) {
	out := map[int64][]*catalog.Product{}
	if len(parentIDs) == 0 {
		return out, nil
	}
	in, args := sqlcore.InClause(parentIDs)
	vs, err := db.loadProductsWith(ctx, relVariation, productSelect+` WHERE parent_id IN `+in+` ORDER BY parent_id, menu_order, id`, args...)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		out[v.ParentID] = append(out[v.ParentID], v)
	}
	return out, nil
}

var orderColumns = map[string]string{
	"date":       "created_at %s, id %s",
	"modified":   "updated_at %s, id %s",
	"id":         "id %s",
	"title":      "name %s, id %s",
	"slug":       "slug %s, id %s",
	"price":      "sort_price %s, id %s",
	"popularity": "total_sales %s, id %s",
	"rating":     "average_rating %s, review_count %s, id %s",
	"menu_order": "menu_order %s, name %s, id %s",
}

// QueryProducts implements catalog.Store.
func (db *Catalog) QueryProducts(ctx context.Context, q catalog.ProductQuery) ([]*catalog.Product, int, error) {
	sel, err := db.selection(ctx, q, nil)
	if err != nil || sel.empty {
		return nil, 0, err
	}
	total := -1
	var driving []int64 // the matches by the facet index, when few
	switch {
	case q.NoCount:
	case sel.plain && sel.listed && !sel.searching:
		// The whole listing: the kept count (migration 00028's triggers).
		if err := db.Read.GetContext(ctx, &total, `SELECT n FROM catalog_counts WHERE name = 'listed'`); err != nil {
			return nil, 0, fmt.Errorf("count products: %w", err)
		}
	default:
		// The kept facet index counts the listings it answers (the
		// same selection, in memory); others count in SQL.
		ok, err := db.facets(ctx, q, sel.cats, nil, false, func(ix *FacetIndex, fq *facetQuery) {
			total, driving = ix.matching(fq, facetDriveLimit(q, len(ix.slot)))
		})
		if err != nil {
			return nil, 0, err
		}
		if ok {
			break
		}
		if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*)`+sel.countCond), sel.args...); err != nil {
			return nil, 0, fmt.Errorf("count products: %w", err)
		}
	}
	ps, err := db.queryPage(ctx, q, sel, driving)
	if err != nil {
		return nil, 0, err
	}
	return ps, total, nil
}

// queryPage reads q's page of the selection sel (q's, from selection):
// driven by the ids in driving when not nil (the facet index's matches,
// few; none: an empty page), else read in the listing's order.
func (db *Catalog) queryPage(ctx context.Context, q catalog.ProductQuery, sel selection, driving []int64) ([]*catalog.Product, error) {
	where, args, listed, searching, catFrom, countCond := sel.where, sel.args, sel.listed, sel.searching, sel.catFrom, sel.countCond
	dir := "ASC"
	if strings.EqualFold(q.Order, "desc") {
		dir = "DESC"
	}
	orderBy := q.OrderBy
	if orderBy == "" || (orderBy == "relevance" && !searching) {
		orderBy = "menu_order"
		if searching {
			orderBy = "relevance"
		}
	}
	var order string
	switch {
	case orderBy == "relevance":
		// The exact name or SKU, then name matches, then matches
		// anywhere; in stock before out of stock; best-sellers first,
		// then the shop's own order.
		order = "srank, (stock_status = 'outofstock'), total_sales DESC, menu_order, name, id"
	case orderBy == "include" && len(q.Include) > 0:
		var b strings.Builder
		b.WriteString("CASE id")
		for i, id := range q.Include {
			fmt.Fprintf(&b, " WHEN %d THEN %d", id, i)
		}
		b.WriteString(" END")
		order = b.String()
	default:
		pattern, ok := orderColumns[orderBy]
		if !ok {
			return nil, fmt.Errorf("unknown orderby %q", orderBy)
		}
		n := strings.Count(pattern, "%s")
		dirs := make([]any, n)
		for i := range dirs {
			dirs[i] = dir
		}
		order = fmt.Sprintf(pattern, dirs...)
		if orderBy == "price" {
			// Products without a price go last in either direction. The
			// expression matches the products_price_asc/desc indexes.
			order = "(sort_price IS NULL), " + order
		}
	}
	perPage := q.PerPage
	if perPage <= 0 {
		perPage = 10
	}
	page := max(q.Page, 1)
	cond := countCond
	if listed && !searching && catFrom == "" && len(q.Include) == 0 && len(q.SKUs) == 0 && q.Slug == "" && q.Featured == nil && db.Engine == sqlcore.SQLite {
		if idx, ok := listedIndex[orderBy]; ok {
			// SQLite's planner prefers products_list (equality on status
			// and visibility) and sorts every listed product; the partial
			// index in the listing's order reads only the page's rows
			// (and, for other conditions, the rows it skips). PostgreSQL
			// weighs the LIMIT itself.
			cond = " FROM products INDEXED BY " + idx + " WHERE " + strings.Join(where, " AND ")
		}
	}
	if driving != nil && catFrom == "" && !searching {
		// Few matches (the facet index's, which apply the same
		// selection): they drive the page, joined and sorted, where
		// reading the listing in order would skip most of it. The
		// conditions stay, so the page is the selection's either way.
		if len(driving) == 0 {
			return nil, nil
		}
		if db.Engine == sqlcore.SQLite {
			// The ids drive the join (CROSS JOIN fixes SQLite's order;
			// with an IN list it still reads the listing index in order).
			list := make([]string, len(driving))
			for i, id := range driving {
				list[i] = strconv.FormatInt(id, 10)
			}
			cond = " FROM (SELECT value AS did FROM json_each(?)) d CROSS JOIN products ON products.id = d.did WHERE " + strings.Join(where, " AND ")
			args = append([]any{"[" + strings.Join(list, ",") + "]"}, args...)
		} else {
			in, a := sqlcore.InClause(driving)
			cond = " FROM products WHERE id IN " + in + " AND " + strings.Join(where, " AND ")
			args = append(a, args...)
		}
	}
	columns, rel := loadFor(q)
	query := columns + cond + " ORDER BY " + order + sqlcore.Limit(perPage) + " OFFSET ?"
	if db.Engine == sqlcore.Postgres && !searching {
		// The page's ids first, from the index alone, then their rows:
		// for a deep page PostgreSQL otherwise weighs fetching every
		// skipped row against sorting the whole listing, and sorts (80 ms
		// for page 200 of 10,000 products; under 1 ms this way). Every
		// order ends with the id, so the page is the same.
		query = columns + " FROM products WHERE id IN (SELECT products.id" + cond + " ORDER BY " + order + sqlcore.Limit(perPage) + " OFFSET ?) ORDER BY " + order
		// Planned with its values on every run (an unnamed statement): a
		// statement pgx prepares once gets a generic plan after five runs,
		// made without the values, and for a filtered listing (a price
		// range and a colour) that plan fetched every product in the price
		// range and sorted them, 308 ms, where the plan for the values reads
		// the listing index until the page is full, 42 ms cold (decision
		// 0123).
		args = append([]any{pgx.QueryExecModeExec}, args...)
	}
	return db.loadProductsWith(ctx, rel, query, append(args, (page-1)*perPage)...)
}

// selection is what a ProductQuery selects, as SQL: countCond is
// " FROM … WHERE …" over products (joined to search candidates or a small
// category's links when those drive the query), one row per product.
type selection struct {
	countCond string
	args      []any
	where     []string
	catFrom   string
	// listed: the shop's listing condition; plain: nothing else (the
	// total is the kept count); empty: the query can match nothing.
	listed, plain, searching, empty bool
	// cats: the categories, with their descendants when asked.
	cats []int64
}

// searchDrive is a search whose candidates were read already
// (searchHits): the ids to join, with their ranks, and q's categories
// with their descendants.
type searchDrive struct {
	cats  []int64
	ranks map[int64]int
}

// selection builds q's conditions (without its order or page). A search
// with drive joins drive's ids and ranks instead of its candidate query.
func (db *Catalog) selection(ctx context.Context, q catalog.ProductQuery, drive *searchDrive) (selection, error) {
	where := []string{"parent_id IS NULL"}
	var args []any
	// plain stays true while the query is the whole shop listing (the
	// default visibility, no other condition): its total is the kept count.
	plain := true
	add := func(cond string, a ...any) {
		where = append(where, cond)
		args = append(args, a...)
		plain = false
	}
	listed := false
	switch q.Visibility {
	case "search":
		add("status = 'publish' AND catalog_visibility IN ('visible', 'search')")
	case "any":
		add("status = 'publish'")
	case "listable":
		add("status = 'publish' AND catalog_visibility <> 'hidden'")
	case "all":
		plain = false
	default:
		where, listed = append(where, listedCond), true
	}
	if q.Type != "" {
		add("type = ?", q.Type)
	}
	var cats []int64
	if drive != nil {
		cats = drive.cats
	} else {
		var err error
		if cats, err = db.queryCategories(ctx, q); err != nil {
			return selection{}, err
		}
	}
	// A category's products, outside search: a small category drives the
	// query (its products are joined and sorted, fewer than
	// smallCategoryRows); a large one is a condition checked by primary
	// key while the listing index is read in order (listedIndex below), so
	// a page costs about its rows × catalogue / category, never a sort of
	// the whole category.
	var catFrom string
	var catArgs []any
	if len(cats) > 0 {
		in, a := sqlcore.InClause(cats)
		small := false
		if strings.TrimSpace(q.Search) == "" {
			var err error
			if small, err = db.smallCategory(ctx, in, a, q, listed); err != nil {
				return selection{}, err
			}
		}
		switch {
		case strings.TrimSpace(q.Search) != "":
			add("id IN (SELECT product_id FROM product_categories WHERE category_id IN "+in+")", a...)
		case small && db.Engine == sqlcore.Postgres:
			// The ids as an array: PostgreSQL looks them up by primary
			// key (a join would hash every listed product).
			add("id = ANY(ARRAY(SELECT product_id FROM product_categories WHERE category_id IN "+in+"))", a...)
		case small:
			catFrom, catArgs = " FROM (SELECT DISTINCT product_id AS cid FROM product_categories WHERE category_id IN "+in+") pcs CROSS JOIN products ON products.id = pcs.cid", a
			plain = false
		default:
			add("EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = products.id AND pc.category_id IN "+in+")", a...)
		}
	}
	if len(q.TagIDs) > 0 {
		ids := slices.Compact(slices.Sorted(slices.Values(q.TagIDs)))
		in, a := sqlcore.InClause(ids)
		switch q.TagOperator {
		case "not_in":
			add("id NOT IN (SELECT product_id FROM product_tags WHERE tag_id IN "+in+")", a...)
		case "and":
			add("id IN (SELECT product_id FROM product_tags WHERE tag_id IN "+in+
				" GROUP BY product_id HAVING COUNT(DISTINCT tag_id) = "+strconv.Itoa(len(ids))+")", a...)
		default:
			add("id IN (SELECT product_id FROM product_tags WHERE tag_id IN "+in+")", a...)
		}
	}
	// Search goes through the engine's full-text index (see search.go): a
	// bounded candidate set joined to products, ranked name matches first.
	// Only published, not hidden products are indexed; the Visibility
	// condition above narrows further ("search" for the shop's search).
	from, searching := " FROM products", strings.TrimSpace(q.Search) != ""
	var joinArgs []any
	switch {
	case searching && drive != nil:
		// The candidates read already (QueryProductsFaceted), as a
		// JSON object of id → rank driving the join (CROSS JOIN fixes
		// SQLite's order, as below).
		join := " CROSS JOIN "
		if db.Engine == sqlcore.Postgres {
			join = " JOIN "
		}
		from, joinArgs = " FROM ("+rankedIDs(db.Engine)+") s"+join+"products ON products.id = s.sid", []any{ranksJSON(drive.ranks)}
	case searching:
		plan, err := catalog.PlanSearch(ctx, db, q.Search, q.Synonyms)
		if err != nil {
			return selection{}, err
		}
		if len(plan.Clauses) == 0 {
			return selection{empty: true}, nil // only punctuation: nothing to look for
		}
		cand, a := db.searchCandidates(plan, strings.TrimSpace(q.Search), cats, q.SearchCandidates)
		// The candidates drive the join: SQLite's planner would otherwise
		// walk every published product and probe the candidates (CROSS
		// JOIN fixes SQLite's join order; PostgreSQL does not need it).
		join := " CROSS JOIN "
		if db.Engine == sqlcore.Postgres {
			join = " JOIN "
		}
		from, joinArgs = " FROM ("+cand+") s"+join+"products ON products.id = s.sid", a
	}
	if len(q.Include) > 0 {
		in, a := sqlcore.InClause(q.Include)
		add("id IN "+in, a...)
	}
	if len(q.Exclude) > 0 {
		in, a := sqlcore.InClause(q.Exclude)
		add("id NOT IN "+in, a...)
	}
	if len(q.SKUs) > 0 {
		in, a := sqlcore.InClause(q.SKUs)
		add("sku IN "+in+" AND sku IS NOT NULL AND sku <> ''", a...) // uses the partial SKU index
	}
	if q.Slug != "" {
		add("slug = ?", q.Slug)
	}
	if q.Featured != nil {
		add("featured = ?", *q.Featured)
	}
	if q.OnSale != nil {
		// Kept by the writes and the schedule upkeep; a parent is on sale
		// when one of its children is.
		add("on_sale = ?", *q.OnSale)
	}
	if q.MinPrice != nil {
		add("sort_price >= ?", *q.MinPrice)
	}
	if q.MaxPrice != nil {
		add("sort_price <= ?", *q.MaxPrice)
	}
	if len(q.StockStatus) > 0 {
		in, a := sqlcore.InClause(q.StockStatus)
		add("stock_status IN "+in, a...)
	}
	if cond, a := attributesCond(q.Attributes, q.AttributeRelation); cond != "" {
		add(cond, a...)
	}
	if cond := ratingsCond(q.Ratings); cond != "" {
		add(cond)
	}
	if catFrom != "" {
		from, joinArgs = catFrom, catArgs
	}
	countCond := from + " WHERE " + strings.Join(where, " AND ")
	args = append(joinArgs, args...)
	return selection{countCond: countCond, args: args, where: where, catFrom: catFrom, cats: cats,
		listed: listed, plain: plain, searching: searching}, nil
}

// listedCond is the shop's listing condition. The partial indexes of
// migration 00028 repeat it word for word: SQLite uses a partial index
// only for a query that states its condition.
const listedCond = "status = 'publish' AND catalog_visibility IN ('visible', 'catalog')"

// listedIndex names, by ordering, the partial index (00028) that reads the
// listing in that order.
var listedIndex = map[string]string{
	"menu_order": "products_listed_menu",
	"date":       "products_listed_date",
	"popularity": "products_listed_popularity",
	"rating":     "products_listed_rating",
}

// smallCategoryRows is the size under which a category's products drive
// its listing query (joined and sorted) rather than being probed while
// the ordered listing index is read.
var smallCategoryRows = 2000

// smallCategory tells whether the categories in (in, args) should drive
// the query q: they hold fewer than smallCategoryRows product links
// (reading at most that many index entries), and, on SQLite for a listing
// read in the order of a listing index, the rows before q's last one are
// not found sooner by reading that index in order. Reading it meets the
// category's products about once every listed/links rows, so the first
// page of a few rows (the related products' four) in a category that is
// not tiny costs a few dozen index entries and probes, where joining
// costs every product of the category and a sort.
func (db *Catalog) smallCategory(ctx context.Context, in string, args []any, q catalog.ProductQuery, listed bool) (bool, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM (SELECT 1 FROM product_categories WHERE category_id IN `+in+sqlcore.Limit(smallCategoryRows)+`) c`), args...)
	if err != nil {
		return false, fmt.Errorf("category size: %w", err)
	}
	if n >= smallCategoryRows {
		return false, nil
	}
	orderBy := q.OrderBy
	if orderBy == "" || orderBy == "relevance" {
		orderBy = "menu_order"
	}
	if _, ok := listedIndex[orderBy]; !ok || !listed || db.Engine != sqlcore.SQLite || n == 0 ||
		len(q.Include) > 0 || len(q.SKUs) > 0 || q.Slug != "" || q.Featured != nil {
		return true, nil
	}
	perPage := q.PerPage
	if perPage <= 0 {
		perPage = 10
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, `SELECT n FROM catalog_counts WHERE name = 'listed'`); err != nil {
		return false, fmt.Errorf("count products: %w", err)
	}
	// Rows read in order to reach the page's last ≈ its position × total / n.
	return perPage*max(q.Page, 1)*total >= n*n, nil
}

// queryCategories is q's categories, with their descendants when asked
// (nil: no category condition).
func (db *Catalog) queryCategories(ctx context.Context, q catalog.ProductQuery) ([]int64, error) {
	if len(q.CategoryIDs) == 0 {
		return nil, nil
	}
	if !q.Descendants {
		return q.CategoryIDs, nil
	}
	return db.descendants(ctx, q.CategoryIDs)
}

// rankedIDs selects (sid, srank) rows from one parameter, a JSON object
// of product id → rank (ranksJSON).
func rankedIDs(engine string) string {
	if engine == sqlcore.Postgres {
		return `SELECT key::bigint AS sid, value::int AS srank FROM jsonb_each_text(?::jsonb)`
	}
	return `SELECT CAST(key AS INTEGER) AS sid, value AS srank FROM json_each(?)`
}

// ranksJSON writes ranks as a JSON object, ids in order.
func ranksJSON(ranks map[int64]int) string {
	ids := slices.Sorted(maps.Keys(ranks))
	b := make([]byte, 0, 16*len(ids)+2)
	b = append(b, '{')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, int64(ranks[id]), 10)
	}
	return string(append(b, '}'))
}

// descendants expands category ids with all their descendants.
func (db *Catalog) descendants(ctx context.Context, ids []int64) ([]int64, error) {
	var all []struct {
		ID       int64         `db:"id"`
		ParentID sql.NullInt64 `db:"parent_id"`
	}
	if err := db.Read.SelectContext(ctx, &all, `SELECT id, parent_id FROM categories`); err != nil {
		return nil, err
	}
	children := map[int64][]int64{}
	for _, c := range all {
		if c.ParentID.Valid {
			children[c.ParentID.Int64] = append(children[c.ParentID.Int64], c.ID)
		}
	}
	seen := map[int64]bool{}
	var out []int64
	var walk func(int64)
	walk = func(id int64) {
		if seen[id] {
			return
		}
		seen[id] = true
		out = append(out, id)
		for _, c := range children[id] {
			walk(c)
		}
	}
	for _, id := range ids {
		walk(id)
	}
	return out, nil
}

type categoryRow struct {
	ID          int64          `db:"id"`
	ParentID    sql.NullInt64  `db:"parent_id"`
	Name        string         `db:"name"`
	Slug        string         `db:"slug"`
	Description string         `db:"description"`
	ImageID     sql.NullInt64  `db:"image_id"`
	MenuOrder   int            `db:"menu_order"`
	Count       int            `db:"count"`
	ImgSrc      sql.NullString `db:"img_src"`
	ImgWidth    sql.NullInt64  `db:"img_width"`
	ImgHeight   sql.NullInt64  `db:"img_height"`
	ImgAlt      sql.NullString `db:"img_alt"`
	ImgSizes    sql.NullString `db:"img_sizes"`
}

// categorySelect reads each category with its kept count (migration
// 00029's triggers): like WooCommerce, the listed products in the category
// and all its descendants, each product once (categoryCountsQuery is the
// same definition, counted).
const categorySelect = `SELECT c.id, c.parent_id, c.name, c.slug, c.description, c.image_id, c.menu_order,
	COALESCE(cn.n, 0) AS count,
	i.src AS img_src, i.width AS img_width, i.height AS img_height, i.alt AS img_alt, i.sizes AS img_sizes
	FROM categories c LEFT JOIN images i ON i.id = c.image_id LEFT JOIN category_counts cn ON cn.category_id = c.id`

func (r categoryRow) category() catalog.Category {
	c := catalog.Category{ID: r.ID, ParentID: r.ParentID.Int64, Name: r.Name, Slug: r.Slug, Description: r.Description,
		ImageID: r.ImageID.Int64, MenuOrder: r.MenuOrder, Count: r.Count}
	if r.ImgSrc.Valid {
		c.Image = &catalog.Image{ID: r.ImageID.Int64, Src: r.ImgSrc.String, Width: int(r.ImgWidth.Int64), Height: int(r.ImgHeight.Int64), Alt: r.ImgAlt.String}
		_ = json.Unmarshal([]byte(r.ImgSizes.String), &c.Image.Sizes)
	}
	return c
}

func (db *Catalog) categories(ctx context.Context, where string, args ...any) ([]catalog.Category, error) {
	out, err := sqlcore.SelectAs(ctx, db.Read, categoryRow.category, categorySelect+where+` ORDER BY c.menu_order, c.name, c.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load categories: %w", err)
	}
	return out, nil
}

// Categories implements catalog.Store.
func (db *Catalog) Categories(ctx context.Context) ([]catalog.Category, error) {
	return db.categories(ctx, "")
}

// Category implements catalog.Store.
func (db *Catalog) Category(ctx context.Context, id int64) (*catalog.Category, error) {
	return db.category(ctx, ` WHERE c.id = ?`, id)
}

// CategoryBySlug implements catalog.Store.
func (db *Catalog) CategoryBySlug(ctx context.Context, slug string) (*catalog.Category, error) {
	return db.category(ctx, ` WHERE c.slug = ?`, slug)
}

// category reads the one category where selects (catalog.ErrNotFound).
func (db *Catalog) category(ctx context.Context, where string, arg any) (*catalog.Category, error) {
	cs, err := db.categories(ctx, where, arg)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, catalog.ErrNotFound
	}
	return &cs[0], nil
}

// Tags implements catalog.Store.
// A tag's count is its listed products (published, shown in the
// catalogue), as WooCommerce counts a term's products: what its archive
// lists and what the tag sitemap needs to know.
func (db *Catalog) Tags(ctx context.Context) ([]catalog.Tag, error) {
	var out []catalog.Tag
	err := db.Read.SelectContext(ctx, &out, `SELECT t.id AS "id", t.name AS "name", t.slug AS "slug",
		(SELECT COUNT(*) FROM product_tags pt JOIN products p ON p.id = pt.product_id
			WHERE pt.tag_id = t.id AND p.parent_id IS NULL AND p.`+listedCond+`) AS "count" FROM tags t ORDER BY t.name`)
	return out, err
}

type attributeRow struct {
	ID              int64  `db:"id"`
	Name            string `db:"name"`
	Slug            string `db:"slug"`
	Type            string `db:"type"`
	OrderBy         string `db:"order_by"`
	HasArchives     bool   `db:"has_archives"`
	Count           int    `db:"count"`
	Filterable      bool   `db:"filterable"`
	FilterQueryType string `db:"filter_query_type"`
}

func (r attributeRow) attribute() catalog.Attribute { return catalog.Attribute(r) }

const attributeSelect = `SELECT a.id, a.name, a.slug, a.type, a.order_by, a.has_archives, a.filterable, a.filter_query_type,
	(SELECT COUNT(DISTINCT product_id) FROM product_attributes pa WHERE pa.attribute_id = a.id) AS count FROM attributes a`

// Attributes implements catalog.Store.
func (db *Catalog) Attributes(ctx context.Context) ([]catalog.Attribute, error) {
	return sqlcore.SelectAs(ctx, db.Read, attributeRow.attribute, attributeSelect+` ORDER BY a.name, a.id`)
}

// Attribute implements catalog.Store.
func (db *Catalog) Attribute(ctx context.Context, id int64) (*catalog.Attribute, error) {
	var r attributeRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(attributeSelect+` WHERE a.id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, catalog.ErrNotFound)
	}
	a := r.attribute()
	return &a, nil
}

const termSelect = `SELECT t.id, t.attribute_id, t.name, t.slug, t.description, t.color, t.image_url, t.menu_order,
	(SELECT COUNT(DISTINCT v.product_id) FROM product_attribute_values v WHERE v.term_id = t.id) AS count FROM attribute_terms t`

type termRow struct {
	ID          int64  `db:"id"`
	AttributeID int64  `db:"attribute_id"`
	Name        string `db:"name"`
	Slug        string `db:"slug"`
	Description string `db:"description"`
	Color       string `db:"color"`
	ImageURL    string `db:"image_url"`
	MenuOrder   int    `db:"menu_order"`
	Count       int    `db:"count"`
}

func (r termRow) term() catalog.AttrTerm { return catalog.AttrTerm(r) }

func (db *Catalog) terms(ctx context.Context, where string, args ...any) ([]catalog.AttrTerm, error) {
	out, err := sqlcore.SelectAs(ctx, db.Read, termRow.term, termSelect+where+` ORDER BY t.menu_order, t.name, t.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load terms: %w", err)
	}
	return out, nil
}

// AttributeTerms implements catalog.Store.
func (db *Catalog) AttributeTerms(ctx context.Context, attributeID int64) ([]catalog.AttrTerm, error) {
	return db.terms(ctx, ` WHERE t.attribute_id = ?`, attributeID)
}

// Reviews implements catalog.Store: approved reviews, newest first.
func (db *Catalog) Reviews(ctx context.Context, productID int64, limit int) ([]catalog.Review, error) {
	if limit <= 0 {
		limit = 50
	}
	var rows []struct {
		ID        int64        `db:"id"`
		ProductID int64        `db:"product_id"`
		Author    string       `db:"author"`
		Email     string       `db:"email"`
		Rating    int          `db:"rating"`
		Content   string       `db:"content"`
		Verified  bool         `db:"verified"`
		Approved  bool         `db:"approved"`
		CreatedAt sql.NullTime `db:"created_at"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT id, product_id, author, email, rating, content, verified, approved, created_at
		FROM reviews WHERE product_id = ? AND approved = ? ORDER BY created_at DESC, id DESC`+sqlcore.Limit(limit)), productID, true); err != nil {
		return nil, err
	}
	out := make([]catalog.Review, len(rows))
	for i, r := range rows {
		out[i] = catalog.Review{ID: r.ID, ProductID: r.ProductID, Author: r.Author, Email: r.Email, Rating: r.Rating,
			Content: r.Content, Verified: r.Verified, Approved: r.Approved, CreatedAt: r.CreatedAt.Time.UTC()}
	}
	return out, nil
}

// CountProducts implements catalog.Store.
func (db *Catalog) CountProducts(ctx context.Context) (int, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, `SELECT COUNT(*) FROM products`)
	return n, err
}

// Change is one entry of the catalogue change log.
type Change = catalog.Change

type changeRow struct {
	ID        int64  `db:"id"`
	ProductID int64  `db:"product_id"`
	Kind      string `db:"kind"`
}

func (r changeRow) change() Change { return Change{ID: r.ID, ProductID: r.ProductID, Kind: r.Kind} }

// ChangesSince returns change-log entries after id, oldest first.
func (db *Catalog) ChangesSince(ctx context.Context, id int64, limit int) ([]Change, error) {
	return sqlcore.SelectAs(ctx, db.Read, changeRow.change, `SELECT id, product_id, kind FROM catalog_changes WHERE id > ? ORDER BY id`+sqlcore.Limit(limit), id)
}

// LastChange returns the newest change-log id (0 when empty).
func (db *Catalog) LastChange(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	err := db.Read.GetContext(ctx, &id, `SELECT MAX(id) FROM catalog_changes`)
	return id.Int64, err
}

// Media returns a stored media file by path.
func (db *Catalog) Media(ctx context.Context, path string) (*catalog.MediaFile, error) {
	var m struct {
		Path        string `db:"path"`
		ContentType string `db:"content_type"`
		Data        []byte `db:"data"`
	}
	err := db.Read.GetContext(ctx, &m, db.Read.Rebind(`SELECT path, content_type, data FROM media_files WHERE path = ?`), path)
	if err != nil {
		return nil, sqlcore.NoRow(err, catalog.ErrNotFound)
	}
	return &catalog.MediaFile{Path: m.Path, ContentType: m.ContentType, Data: m.Data}, nil
}

// SitemapEntry is a product page for the sitemap: the catalogue's own
// type, so the store is the catalogue's SitemapStore as it is.
type SitemapEntry = catalog.SitemapEntry

// sitemapFrom reads the products the sitemaps list (published, not
// hidden: reachable from the catalogue or search) through the covering
// index of migration 00028, in id order; on SQLite the index is named, as
// the planner would otherwise sort through products_price_desc.
func (db *Catalog) sitemapFrom() string {
	idx := ""
	if db.Engine == sqlcore.SQLite {
		idx = " INDEXED BY products_sitemap"
	}
	return ` FROM products` + idx + ` WHERE parent_id IS NULL AND status = 'publish' AND catalog_visibility <> 'hidden'`
}

// SitemapProducts calls fn with page n (from 1) of size entries of the
// product sitemap, in id order, row by row: a page costs its own rows,
// whatever the catalogue's size (OFFSET skips index entries only).
func (db *Catalog) SitemapProducts(ctx context.Context, n, size int, fn func(SitemapEntry) error) error {
	if n < 1 || size < 1 {
		return fmt.Errorf("sitemap page %d of size %d", n, size)
	}
	rows, err := db.Read.QueryContext(ctx, db.Read.Rebind(`SELECT slug, updated_at`+db.sitemapFrom()+` ORDER BY id`+sqlcore.Limit(size)+` OFFSET ?`), (n-1)*size)
	if err != nil {
		return fmt.Errorf("sitemap products: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e SitemapEntry
		if err := rows.Scan(&e.Slug, &e.UpdatedAt); err != nil {
			return fmt.Errorf("sitemap products: %w", err)
		}
		e.UpdatedAt = e.UpdatedAt.UTC()
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SitemapPages returns, for each page of size entries of the product
// sitemap (SitemapProducts), its newest update: the sitemap index's
// lastmod. It reads the covering index once, never the product rows.
func (db *Catalog) SitemapPages(ctx context.Context, size int) ([]time.Time, error) {
	if size < 1 {
		return nil, fmt.Errorf("sitemap page size %d", size)
	}
	rows, err := db.Read.QueryContext(ctx, `SELECT updated_at`+db.sitemapFrom()+` ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("sitemap pages: %w", err)
	}
	defer rows.Close()
	var out []time.Time
	for i := 0; rows.Next(); i++ {
		var t time.Time
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("sitemap pages: %w", err)
		}
		if i%size == 0 {
			out = append(out, time.Time{})
		}
		if last := &out[len(out)-1]; t.After(*last) {
			*last = t.UTC()
		}
	}
	return out, rows.Err()
}
