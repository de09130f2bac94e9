package catalogstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/richtext"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// productColumns are the products table's writable columns, in the order
// productValues returns them.
var productColumns = []string{
	"parent_id", "type", "name", "slug", "sku", "status", "catalog_visibility", "featured",
	"short_description", "description", "regular_price", "sale_price", "sale_from", "sale_to", "sort_price", "on_sale",
	"manage_stock", "stock_quantity", "stock_status", "backorders", "low_stock_amount",
	"weight", "length", "width", "height", "min_qty", "max_qty", "step", "sold_individually",
	"purchasable", "visible", "active", "pre_order", "pre_order_at", "pre_order_label",
	"menu_order", "external_url", "button_text", "tax_status", "tax_class",
	"average_rating", "review_count", "total_sales", "updated_at", "publish_at",
}

// shopComputed are the product columns the shop keeps itself: total_sales
// (placed and cancelled orders), average_rating and review_count (approved
// reviews). A new product starts from the values it is saved with (0 from
// an import); an update leaves them as they are. Stock is not among them:
// the stock a CSV or an edit carries is the owner's count and is written
// (orders then move it from there).
var shopComputed = map[string]bool{"total_sales": true, "average_rating": true, "review_count": true}

// sortPrice is the price listings sort and filter by: the price a shopper
// pays at now (the sale price while a sale applies, else the regular
// price). A scheduled sale's start and end move it through the schedule
// upkeep (ApplySchedules), so it is never older than one upkeep pass.
func sortPrice(p *catalog.Product, now time.Time) *int64 {
	if price, ok := p.Price(now); ok {
		return &price
	}
	return nil
}

func productValues(p *catalog.Product, now time.Time) []any {
	step := p.Step
	if step < 1 {
		step = 1
	}
	return []any{
		sqlcore.NullID(p.ParentID), p.Type, p.Name, p.Slug, sqlcore.NullString(p.SKU), p.Status, p.CatalogVisibility, p.Featured,
		p.ShortDescription, p.Description, sqlcore.NullInt(p.RegularPrice), sqlcore.NullInt(p.SalePrice), sqlcore.NullTime(p.SaleFrom), sqlcore.NullTime(p.SaleTo), sqlcore.NullInt(sortPrice(p, now)), p.SaleActive(now),
		p.ManageStock, sqlcore.NullInt(p.StockQuantity), p.StockStatus, p.Backorders, sqlcore.NullInt(p.LowStockAmount),
		p.Weight, p.Length, p.Width, p.Height, p.MinQty, p.MaxQty, step, p.SoldIndividually,
		p.Purchasable, p.Visible, p.Active, p.PreOrder, sqlcore.NullTime(p.PreOrderAt), p.PreOrderLabel,
		p.MenuOrder, p.ExternalURL, p.ButtonText, p.TaxStatus, p.TaxClass,
		p.AverageRating, p.ReviewCount, p.TotalSales, now, sqlcore.NullTime(p.PublishAt),
	}
}

func defaults(p *catalog.Product) {
	if p.Status == "" {
		p.Status = catalog.StatusPublish
	}
	if p.CatalogVisibility == "" {
		p.CatalogVisibility = catalog.VisibilityVisible
	}
	if p.StockStatus == "" {
		p.StockStatus = catalog.StockInStock
	}
	if p.Backorders == "" {
		p.Backorders = catalog.BackordersNo
	}
	if p.TaxStatus == "" {
		p.TaxStatus = "taxable"
	}
}

// SaveProduct implements catalog.Writer.
func (db *Catalog) SaveProduct(ctx context.Context, p *catalog.Product, variations []*catalog.Product) (created bool, err error) {
	if p.Type == catalog.TypeVariation {
		return false, errors.New("save a variation through its parent")
	}
	if strings.TrimSpace(p.Name) == "" {
		return false, errors.New("product has no name")
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		created, err = db.saveProduct(ctx, tx, p, variations)
		return err
	})
	return created, err
}

// ProductSave is one product and its variations for SaveProducts.
type ProductSave struct {
	Product    *catalog.Product
	Variations []*catalog.Product
}

// SaveProducts saves many products as SaveProduct does each, in one
// transaction (bulk loads: one commit, one sync, instead of one per
// product). It stops at the first error and saves none of them then.
func (db *Catalog) SaveProducts(ctx context.Context, items []ProductSave) error {
	for _, it := range items {
		if it.Product.Type == catalog.TypeVariation {
			return errors.New("save a variation through its parent")
		}
		if strings.TrimSpace(it.Product.Name) == "" {
			return errors.New("product has no name")
		}
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		for i, it := range items {
			if _, err := db.saveProduct(ctx, tx, it.Product, it.Variations); err != nil {
				return fmt.Errorf("product %d (%s): %w", i+1, it.Product.Name, err)
			}
		}
		return nil
	})
}

// saveProduct is SaveProduct inside the caller's transaction.
func (db *Catalog) saveProduct(ctx context.Context, tx *sqlx.Tx, p *catalog.Product, variations []*catalog.Product) (created bool, err error) {
	id, err := db.findProduct(ctx, tx, p.ID, p.SKU, "")
	if err != nil {
		return false, err
	}
	if id == 0 && p.SKU == "" {
		// No SKU: the slug is the natural key (an import of a shop
		// without SKUs must stay idempotent too).
		slug := p.Slug
		if slug == "" {
			slug = catalog.Slugify(p.Name)
		}
		if id, err = db.findProduct(ctx, tx, 0, "", slug); err != nil {
			return false, err
		}
	}
	p.ID = id
	return db.storeProduct(ctx, tx, p, variations)
}

// storeProduct writes a parent product whose row is known (p.ID set, or 0
// for a new one) with its relations and variations, refreshes its search
// entry and appends to the change log; the admin's creates and edits come
// here directly, without the import's matching by SKU and slug.
func (db *Catalog) storeProduct(ctx context.Context, tx *sqlx.Tx, p *catalog.Product, variations []*catalog.Product) (created bool, err error) {
	now := db.Now()
	p.ParentID = 0
	defaults(p)
	if p.Slug == "" && p.ID != 0 {
		// A renamed product keeps its URL.
		if err := tx.GetContext(ctx, &p.Slug, tx.Rebind(`SELECT slug FROM products WHERE id = ?`), p.ID); err != nil {
			return false, err
		}
	}
	if p.Slug == "" {
		p.Slug = catalog.Slugify(p.Name)
	}
	if p.Slug, err = db.uniqueSlug(ctx, tx, p.Slug, p.ID); err != nil {
		return false, err
	}
	created = p.ID == 0
	kind := "product_listed"
	if !created {
		if kind, err = db.changeKind(ctx, tx, p); err != nil {
			return false, err
		}
	}
	if err := db.writeProduct(ctx, tx, p, now); err != nil {
		return false, err
	}
	if err := db.writeRelations(ctx, tx, p); err != nil {
		return false, err
	}
	for i, v := range variations {
		v.ParentID = p.ID
		v.Type = catalog.TypeVariation
		if v.Name == "" {
			v.Name = p.Name
		}
		if v.MenuOrder == 0 {
			v.MenuOrder = i + 1
		}
		defaults(v)
		if err := db.saveVariation(ctx, tx, v, now); err != nil {
			return false, fmt.Errorf("variation %d (%s): %w", i+1, v.SKU, err)
		}
	}
	if p.Type == catalog.TypeVariable || p.Type == catalog.TypeGrouped {
		if err := db.refreshParentPrice(ctx, tx, p.ID); err != nil {
			return false, err
		}
	}
	// The search index follows in the same transaction; a change
	// of the searched text can change which search results show it.
	changed, err := db.indexProduct(ctx, tx, p.ID)
	if err != nil {
		return false, err
	}
	if changed {
		kind = "product_listed"
	}
	topic := "product.updated"
	if created {
		topic = "product.created"
	}
	if err := sqlcore.EnqueueWebhooksTx(ctx, tx, topic, p.ID, now); err != nil {
		return false, err
	}
	return created, db.RecordChange(ctx, tx, p.ID, kind)
}

// changeKind tells whether an update can change which listings show the
// product ("product_listed": publication, visibility, categories, tags,
// featured)
// or only what its own pages show ("product").
func (db *Catalog) changeKind(ctx context.Context, tx *sqlx.Tx, p *catalog.Product) (string, error) {
	var old struct {
		Status     string `db:"status"`
		Visibility string `db:"catalog_visibility"`
		Featured   bool   `db:"featured"`
	}
	if err := tx.GetContext(ctx, &old, tx.Rebind(`SELECT status, catalog_visibility, featured FROM products WHERE id = ?`), p.ID); err != nil {
		return "", err
	}
	if old.Status != p.Status || old.Visibility != p.CatalogVisibility || old.Featured != p.Featured {
		return "product_listed", nil
	}
	var cats []int64
	if err := tx.SelectContext(ctx, &cats, tx.Rebind(`SELECT category_id FROM product_categories WHERE product_id = ? ORDER BY category_id`), p.ID); err != nil {
		return "", err
	}
	want := map[int64]bool{}
	for _, c := range p.Categories {
		want[c.ID] = true
	}
	if len(want) != len(cats) {
		return "product_listed", nil
	}
	for _, c := range cats {
		if !want[c] {
			return "product_listed", nil
		}
	}
	// Tags too: a tag's archive lists the products carrying it.
	var tags []int64
	if err := tx.SelectContext(ctx, &tags, tx.Rebind(`SELECT tag_id FROM product_tags WHERE product_id = ? ORDER BY tag_id`), p.ID); err != nil {
		return "", err
	}
	wantTags := map[int64]bool{}
	for _, t := range p.Tags {
		wantTags[t.ID] = true
	}
	if len(wantTags) != len(tags) {
		return "product_listed", nil
	}
	for _, t := range tags {
		if !wantTags[t] {
			return "product_listed", nil
		}
	}
	return "product", nil
}

func (db *Catalog) findProduct(ctx context.Context, tx *sqlx.Tx, id int64, sku, slug string) (int64, error) {
	var q string
	var arg any
	switch {
	case id > 0:
		q, arg = `SELECT id FROM products WHERE id = ?`, id
	case sku != "":
		// The SKU index is partial (non-empty SKUs); SQLite uses it only
		// when the query repeats its condition.
		q, arg = `SELECT id FROM products WHERE sku = ? AND sku IS NOT NULL AND sku <> ''`, sku
	case slug != "":
		q, arg = `SELECT id FROM products WHERE slug = ? AND parent_id IS NULL`, slug
	default:
		return 0, nil
	}
	var found int64
	err := tx.GetContext(ctx, &found, tx.Rebind(q), arg)
	if errors.Is(err, sql.ErrNoRows) {
		if id > 0 && sku != "" {
			return db.findProduct(ctx, tx, 0, sku, "")
		}
		return 0, nil
	}
	return found, err
}

func (db *Catalog) uniqueSlug(ctx context.Context, tx *sqlx.Tx, slug string, id int64) (string, error) {
	if slug == "" {
		slug = "product"
	}
	base := slug
	for n := 2; ; n++ {
		var other int64
		err := tx.GetContext(ctx, &other, tx.Rebind(`SELECT id FROM products WHERE slug = ? AND parent_id IS NULL AND id <> ?`), slug, id)
		if errors.Is(err, sql.ErrNoRows) {
			return slug, nil
		}
		if err != nil {
			return "", err
		}
		slug = fmt.Sprintf("%s-%d", base, n)
	}
}

func (db *Catalog) writeProduct(ctx context.Context, tx *sqlx.Tx, p *catalog.Product, now time.Time) error {
	// Rich text is stored sanitized, whoever writes it (import, seed,
	// admin): the one policy is internal/richtext's.
	p.ShortDescription, p.Description = richtext.Sanitize(p.ShortDescription), richtext.Sanitize(p.Description)
	vals := productValues(p, now)
	if p.ID == 0 {
		cols := append([]string{"created_at"}, productColumns...)
		created := p.CreatedAt
		if created.IsZero() {
			created = now
		}
		args := append([]any{created.UTC()}, vals...)
		q := `INSERT INTO products (` + strings.Join(cols, ", ") + `) VALUES (` + sqlcore.Placeholders(len(cols)) + `) RETURNING id`
		if err := tx.GetContext(ctx, &p.ID, tx.Rebind(q), args...); err != nil {
			if sqlcore.UniqueViolation(err) {
				return fmt.Errorf("%w: SKU %q is already used by another product", catalog.ErrSKUTaken, p.SKU)
			}
			return fmt.Errorf("insert product: %w", err)
		}
		return nil
	}
	// An update (a re-import, an edit) never touches what the shop
	// computed itself: sales counted by orders, the rating and count kept
	// by the reviews.
	// An admin save's count goes through writeStock (stock_edit.go), as
	// a difference to the stored one; an import's is written as it is.
	set := make([]string, 0, len(productColumns)+1)
	args := make([]any, 0, len(vals)+1)
	for i, c := range productColumns {
		if shopComputed[c] || c == "stock_quantity" && p.StockEdit != nil {
			continue
		}
		set = append(set, c+" = ?")
		args = append(args, vals[i])
	}
	if p.StockEdit == nil {
		set = append(set, "stock_moves = 0")
	}
	// Every write makes a new version: an admin edit based on the one
	// before is refused (catalog.ErrStale), whoever wrote in between.
	set = append(set, "version = version + 1")
	q := `UPDATE products SET ` + strings.Join(set, ", ") + ` WHERE id = ?`
	if _, err := tx.ExecContext(ctx, tx.Rebind(q), append(args, p.ID)...); err != nil {
		if sqlcore.UniqueViolation(err) {
			return fmt.Errorf("%w: SKU %q is already used by another product", catalog.ErrSKUTaken, p.SKU)
		}
		return fmt.Errorf("update product %d: %w", p.ID, err)
	}
	if p.StockEdit != nil {
		return db.writeStock(ctx, tx, p)
	}
	return nil
}

// writeCategories links the product to exactly its categories, deleting
// and adding only the links that change: each link added or removed for a
// listed product updates the kept category counts (migration 00029's
// triggers), so a save that keeps the categories writes no count row and
// takes no lock on one.
func (db *Catalog) writeCategories(ctx context.Context, tx *sqlx.Tx, p *catalog.Product) error {
	var have []int64
	if err := tx.SelectContext(ctx, &have, tx.Rebind(`SELECT category_id FROM product_categories WHERE product_id = ?`), p.ID); err != nil {
		return fmt.Errorf("read categories: %w", err)
	}
	want := dedupeTerms(p.Categories)
	keep := make(map[int64]bool, len(want))
	for _, c := range want {
		keep[c.ID] = true
	}
	var gone []int64
	had := make(map[int64]bool, len(have))
	for _, id := range have {
		had[id] = true
		if !keep[id] {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		in, args := sqlcore.InClause(gone)
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM product_categories WHERE product_id = ? AND category_id IN `+in), append([]any{p.ID}, args...)...); err != nil {
			return fmt.Errorf("unlink categories: %w", err)
		}
	}
	for _, c := range want {
		if had[c.ID] {
			continue
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)`), p.ID, c.ID); err != nil {
			return fmt.Errorf("link category %d: %w", c.ID, err)
		}
	}
	return nil
}

// writeRelations replaces a product's images, terms, attributes, links and
// meta with what p carries.
func (db *Catalog) writeRelations(ctx context.Context, tx *sqlx.Tx, p *catalog.Product) error {
	for _, table := range []string{"product_tags", "product_attribute_values", "product_attributes", "product_links", "product_meta"} {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM `+table+` WHERE product_id = ?`), p.ID); err != nil {
			return fmt.Errorf("clear %s: %w", table, err)
		}
	}
	if err := db.writeImages(ctx, tx, p); err != nil {
		return err
	}
	if err := db.writeCategories(ctx, tx, p); err != nil {
		return err
	}
	for _, t := range dedupeTerms(p.Tags) {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_tags (product_id, tag_id) VALUES (?, ?)`), p.ID, t.ID); err != nil {
			return fmt.Errorf("link tag %d: %w", t.ID, err)
		}
	}
	for i, a := range p.Attributes {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_attributes (product_id, position, attribute_id, name, visible, variation) VALUES (?, ?, ?, ?, ?, ?)`),
			p.ID, i, sqlcore.NullID(a.AttributeID), a.Name, a.Visible, a.Variation); err != nil {
			return fmt.Errorf("attribute %q: %w", a.Name, err)
		}
		for j, v := range a.Values {
			value := v.Name
			if value == "" {
				value = v.Slug
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_attribute_values (product_id, position, value_pos, term_id, value) VALUES (?, ?, ?, ?, ?)`),
				p.ID, i, j, sqlcore.NullID(v.TermID), value); err != nil {
				return fmt.Errorf("attribute %q value %q: %w", a.Name, value, err)
			}
		}
	}
	links := []struct {
		kind string
		ids  []int64
	}{{"child", p.Children}, {"upsell", p.Upsells}, {"crosssell", p.CrossSells}}
	for _, l := range links {
		seen := map[int64]bool{}
		for i, id := range l.ids {
			if id == p.ID || seen[id] {
				continue
			}
			seen[id] = true
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_links (product_id, kind, linked_id, position) VALUES (?, ?, ?, ?)`), p.ID, l.kind, id, i); err != nil {
				return fmt.Errorf("link %s %d: %w", l.kind, id, err)
			}
		}
	}
	keys := make([]string, 0, len(p.Meta))
	for k := range p.Meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_meta (product_id, meta_key, value) VALUES (?, ?, ?)`), p.ID, k, p.Meta[k]); err != nil {
			return fmt.Errorf("meta %q: %w", k, err)
		}
	}
	return nil
}

func dedupeTerms(ts []catalog.Term) []catalog.Term {
	seen := map[int64]bool{}
	out := ts[:0:0]
	for _, t := range ts {
		if t.ID != 0 && !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	return out
}

// writeImages stores images that have no id yet (reusing a row with the
// same src) and links them in order.
func (db *Catalog) writeImages(ctx context.Context, tx *sqlx.Tx, p *catalog.Product) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM product_images WHERE product_id = ?`), p.ID); err != nil {
		return err
	}
	seen := map[int64]bool{}
	pos := 0
	for i := range p.Images {
		img := &p.Images[i]
		if img.ID == 0 {
			if err := db.insertImage(ctx, tx, img); err != nil {
				return err
			}
		}
		if seen[img.ID] {
			continue
		}
		seen[img.ID] = true
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_images (product_id, image_id, position) VALUES (?, ?, ?)`), p.ID, img.ID, pos); err != nil {
			return fmt.Errorf("link image %d: %w", img.ID, err)
		}
		pos++
	}
	return nil
}

func (db *Catalog) insertImage(ctx context.Context, tx *sqlx.Tx, img *catalog.Image) error {
	if img.Src == "" {
		return errors.New("image has no src")
	}
	var id int64
	err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM images WHERE src = ? ORDER BY id LIMIT 1`), img.Src)
	if err == nil {
		img.ID = id
		// Keep what the row knows (sizes, dimensions) unless we know more.
		if img.Width > 0 || img.Alt != "" || len(img.Sizes) > 0 {
			return db.updateImage(ctx, tx, img)
		}
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	sizes, _ := json.Marshal(nonNilSizes(img.Sizes))
	return tx.GetContext(ctx, &img.ID, tx.Rebind(`INSERT INTO images (src, width, height, alt, caption, name, sizes) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		img.Src, img.Width, img.Height, img.Alt, img.Caption, img.Name, string(sizes))
}

func (db *Catalog) updateImage(ctx context.Context, tx *sqlx.Tx, img *catalog.Image) error {
	sizes, _ := json.Marshal(nonNilSizes(img.Sizes))
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE images SET src = ?, width = ?, height = ?, alt = ?, caption = ?, name = ?, sizes = ? WHERE id = ?`),
		img.Src, img.Width, img.Height, img.Alt, img.Caption, img.Name, string(sizes), img.ID)
	return err
}

func nonNilSizes(s []catalog.ImageSize) []catalog.ImageSize {
	if s == nil {
		return []catalog.ImageSize{}
	}
	return s
}

// saveVariation upserts one variation: matched by id, then SKU, then the
// same attribute combination under the same parent.
func (db *Catalog) saveVariation(ctx context.Context, tx *sqlx.Tx, v *catalog.Product, now time.Time) error {
	id, err := db.findProduct(ctx, tx, v.ID, v.SKU, "")
	if err != nil {
		return err
	}
	if id != 0 {
		var parent sql.NullInt64
		if err := tx.GetContext(ctx, &parent, tx.Rebind(`SELECT parent_id FROM products WHERE id = ?`), id); err != nil {
			return err
		}
		if parent.Int64 != v.ParentID {
			if v.SKU != "" {
				return fmt.Errorf("%w: SKU %q belongs to another product", catalog.ErrSKUTaken, v.SKU)
			}
			id = 0
		}
	}
	if id == 0 {
		if id, err = db.variationByAttributes(ctx, tx, v); err != nil {
			return err
		}
	}
	v.ID = id
	if v.Slug == "" {
		v.Slug = catalog.Slugify(v.Name)
	}
	if err := db.writeProduct(ctx, tx, v, now); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM variation_attributes WHERE variation_id = ?`), v.ID); err != nil {
		return err
	}
	for _, a := range v.Variation {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO variation_attributes (variation_id, name, value) VALUES (?, ?, ?)`), v.ID, a.Name, a.Value); err != nil {
			return fmt.Errorf("variation attribute %q: %w", a.Name, err)
		}
	}
	if err := db.writeImages(ctx, tx, v); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM product_meta WHERE product_id = ?`), v.ID); err != nil {
		return err
	}
	for k, val := range v.Meta {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO product_meta (product_id, meta_key, value) VALUES (?, ?, ?)`), v.ID, k, val); err != nil {
			return err
		}
	}
	return nil
}

func (db *Catalog) variationByAttributes(ctx context.Context, tx *sqlx.Tx, v *catalog.Product) (int64, error) {
	var rows []struct {
		ID    int64  `db:"variation_id"`
		Name  string `db:"name"`
		Value string `db:"value"`
	}
	err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT va.variation_id, va.name, va.value FROM variation_attributes va
		JOIN products p ON p.id = va.variation_id WHERE p.parent_id = ? ORDER BY va.variation_id`), v.ParentID)
	if err != nil {
		return 0, err
	}
	want := attrKey(v.Variation)
	if want == "" {
		return 0, nil
	}
	have := map[int64][]catalog.VariationAttr{}
	var order []int64
	for _, r := range rows {
		if _, ok := have[r.ID]; !ok {
			order = append(order, r.ID)
		}
		have[r.ID] = append(have[r.ID], catalog.VariationAttr{Name: r.Name, Value: r.Value})
	}
	for _, id := range order {
		if attrKey(have[id]) == want {
			return id, nil
		}
	}
	return 0, nil
}

func attrKey(as []catalog.VariationAttr) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.Name + "=" + a.Value
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// refreshParentPrice sets a variable or grouped product's sort price to its
// lowest child price, and marks it on sale when a child is, so price
// sorting and the on-sale filter need no join.
func (db *Catalog) refreshParentPrice(ctx context.Context, tx *sqlx.Tx, id int64) error {
	const children = `FROM products c
		WHERE ((c.parent_id = ? AND c.status = 'publish' AND c.active = ?)
		   OR c.id IN (SELECT linked_id FROM product_links WHERE product_id = ? AND kind = 'child'))`
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET
		sort_price = (SELECT MIN(c.sort_price) `+children+`),
		on_sale = EXISTS (SELECT 1 `+children+` AND c.on_sale = ?)
	WHERE id = ?`), id, true, id, id, true, id, true, id)
	return err
}

// EnsureCategoryPath implements catalog.Writer.
func (db *Catalog) EnsureCategoryPath(ctx context.Context, path []string) (int64, int, error) {
	var id int64
	created := 0
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		id, created = 0, 0
		for _, name := range path {
			name = strings.TrimSpace(name)
			if name == "" {
				return errors.New("empty category name")
			}
			var found int64
			var err error
			if id == 0 {
				err = tx.GetContext(ctx, &found, tx.Rebind(`SELECT id FROM categories WHERE parent_id IS NULL AND name = ?`), name)
			} else {
				err = tx.GetContext(ctx, &found, tx.Rebind(`SELECT id FROM categories WHERE parent_id = ? AND name = ?`), id, name)
			}
			if err == nil {
				id = found
				continue
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			slug, err := db.uniqueTermSlug(ctx, tx, "categories", catalog.Slugify(name))
			if err != nil {
				return err
			}
			if err := tx.GetContext(ctx, &found, tx.Rebind(`INSERT INTO categories (parent_id, name, slug) VALUES (?, ?, ?) RETURNING id`), sqlcore.NullID(id), name, slug); err != nil {
				return fmt.Errorf("create category %q: %w", name, err)
			}
			id = found
			created++
		}
		if created > 0 {
			return db.RecordChange(ctx, tx, 0, "taxonomy")
		}
		return nil
	})
	return id, created, err
}

func (db *Catalog) uniqueTermSlug(ctx context.Context, tx *sqlx.Tx, table, slug string) (string, error) {
	if slug == "" {
		slug = "term"
	}
	base := slug
	for n := 2; ; n++ {
		var one int
		err := tx.GetContext(ctx, &one, tx.Rebind(`SELECT 1 FROM `+table+` WHERE slug = ?`), slug)
		if errors.Is(err, sql.ErrNoRows) {
			return slug, nil
		}
		if err != nil {
			return "", err
		}
		slug = fmt.Sprintf("%s-%d", base, n)
	}
}

// SetCategoryDetails updates a category's description, order and image
// (seeding and admin).
func (db *Catalog) SetCategoryDetails(ctx context.Context, id int64, description string, menuOrder int, imageID int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE categories SET description = ?, menu_order = ?, image_id = ? WHERE id = ?`),
			richtext.Sanitize(description), menuOrder, sqlcore.NullID(imageID), id); err != nil {
			return err
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// EnsureTag implements catalog.Writer.
func (db *Catalog) EnsureTag(ctx context.Context, name string) (int64, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return 0, errors.New("empty tag name")
	}
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM tags WHERE name = ?`), name)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		slug, err := db.uniqueTermSlug(ctx, tx, "tags", catalog.Slugify(name))
		if err != nil {
			return err
		}
		return tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO tags (name, slug) VALUES (?, ?) RETURNING id`), name, slug)
	})
	return id, err
}

// EnsureAttribute implements catalog.Writer.
func (db *Catalog) EnsureAttribute(ctx context.Context, a catalog.Attribute) (catalog.Attribute, error) {
	if a.Slug == "" {
		a.Slug = catalog.Slugify(a.Name)
	}
	a.Slug = strings.TrimPrefix(a.Slug, "pa_")
	if a.Slug == "" {
		return a, errors.New("attribute has no name")
	}
	if a.Name == "" {
		a.Name = a.Slug
	}
	if a.Type == "" {
		a.Type = catalog.SwatchSelect
	}
	if a.OrderBy == "" {
		a.OrderBy = "menu_order"
	}
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var existing struct {
			ID   int64  `db:"id"`
			Name string `db:"name"`
			Type string `db:"type"`
		}
		err := tx.GetContext(ctx, &existing, tx.Rebind(`SELECT id, name, type FROM attributes WHERE slug = ?`), a.Slug)
		if err == nil {
			a.ID = existing.ID
			if a.Type == catalog.SwatchSelect && existing.Type != catalog.SwatchSelect {
				a.Type = existing.Type // an import must not undo the shop's swatch choice
			}
			if a.Type == existing.Type {
				return nil
			}
			if _, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE attributes SET type = ? WHERE id = ?`), a.Type, a.ID); err != nil {
				return err
			}
			// The swatch type shows in the listing filters (kept with
			// the facet index until a taxonomy change).
			return db.RecordChange(ctx, tx, 0, "taxonomy")
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := tx.GetContext(ctx, &a.ID, tx.Rebind(`INSERT INTO attributes (name, slug, type, order_by, has_archives) VALUES (?, ?, ?, ?, ?) RETURNING id`),
			a.Name, a.Slug, a.Type, a.OrderBy, a.HasArchives); err != nil {
			return err
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
	return a, err
}

// EnsureTerm implements catalog.Writer.
func (db *Catalog) EnsureTerm(ctx context.Context, t catalog.AttrTerm) (catalog.AttrTerm, error) {
	if t.Slug == "" {
		t.Slug = catalog.Slugify(t.Name)
	}
	if t.Slug == "" || t.AttributeID == 0 {
		return t, errors.New("term needs a name and an attribute")
	}
	if t.Name == "" {
		t.Name = t.Slug
	}
	// A term created or changed records a taxonomy change: the listing
	// filters show every term (kept with the facet index until one).
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var id int64
		err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM attribute_terms WHERE attribute_id = ? AND slug = ?`), t.AttributeID, t.Slug)
		if err == nil {
			t.ID = id
			res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE attribute_terms SET
				color = CASE WHEN ? <> '' THEN ? ELSE color END,
				image_url = CASE WHEN ? <> '' THEN ? ELSE image_url END,
				description = CASE WHEN ? <> '' THEN ? ELSE description END,
				menu_order = CASE WHEN ? <> 0 THEN ? ELSE menu_order END
				WHERE id = ? AND ((? <> '' AND color <> ?) OR (? <> '' AND image_url <> ?) OR (? <> '' AND description <> ?) OR (? <> 0 AND menu_order <> ?))`),
				t.Color, t.Color, t.ImageURL, t.ImageURL, t.Description, t.Description, t.MenuOrder, t.MenuOrder, id,
				t.Color, t.Color, t.ImageURL, t.ImageURL, t.Description, t.Description, t.MenuOrder, t.MenuOrder)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return err // unchanged
			}
			return db.RecordChange(ctx, tx, 0, "taxonomy")
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := tx.GetContext(ctx, &t.ID, tx.Rebind(`INSERT INTO attribute_terms (attribute_id, name, slug, description, color, image_url, menu_order) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			t.AttributeID, t.Name, t.Slug, t.Description, t.Color, t.ImageURL, t.MenuOrder); err != nil {
			return err
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
	return t, err
}

// SaveImage implements catalog.Writer.
func (db *Catalog) SaveImage(ctx context.Context, img *catalog.Image, media []catalog.MediaFile) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, m := range media {
			q := `INSERT INTO media_files (path, content_type, data, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (path) DO UPDATE SET content_type = excluded.content_type, data = excluded.data`
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), m.Path, m.ContentType, m.Data, db.Now()); err != nil {
				return fmt.Errorf("store media %s: %w", m.Path, err)
			}
		}
		if img.ID != 0 {
			return db.updateImage(ctx, tx, img)
		}
		return db.insertImage(ctx, tx, img)
	})
}

// ProductIDBySKU implements catalog.Writer.
func (db *Catalog) ProductIDBySKU(ctx context.Context, sku string) (int64, error) {
	var id int64
	err := db.Read.GetContext(ctx, &id, db.Read.Rebind(`SELECT id FROM products WHERE sku = ? AND sku IS NOT NULL AND sku <> ''`), sku)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, catalog.ErrNotFound
	}
	return id, err
}
