package catalogstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/richtext"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The admin's catalogue writes (catalog.AdminStore). Like the import's,
// each is one transaction that appends to catalog_changes, so every
// running server drops exactly the cached pages that show the product.

var _ catalog.AdminStore = (*Catalog)(nil)

var adminOrder = map[string]string{
	"date":     "created_at %s, id %s",
	"modified": "updated_at %s, id %s",
	"title":    "name %s, id %s",
	"price":    "sort_price %s, id %s",
	"sku":      "sku %s, id %s",
	"id":       "id %s",
}

// AdminProducts implements catalog.AdminStore. Unlike the shop's search,
// it finds unpublished products too (a plain substring match: the admin's
// list is small next to the shop's traffic).
func (db *Catalog) AdminProducts(ctx context.Context, q catalog.AdminQuery) ([]*catalog.Product, int, error) {
	where := []string{"parent_id IS NULL"}
	var args []any
	add := func(cond string, a ...any) {
		where = append(where, cond)
		args = append(args, a...)
	}
	switch q.Status {
	case "":
		add("status <> 'trash'")
	case "any":
	default:
		add("status = ?", q.Status)
	}
	if q.Type != "" {
		add("type = ?", q.Type)
	}
	if q.StockStatus != "" {
		add("stock_status = ?", q.StockStatus)
	}
	if q.CategoryID != 0 {
		add("id IN (SELECT product_id FROM product_categories WHERE category_id = ?)", q.CategoryID)
	}
	if q.Search != "" {
		like := "%" + sqlcore.LikeEscape(strings.ToLower(q.Search)) + "%"
		add(`(LOWER(name) LIKE ? ESCAPE '\' OR LOWER(COALESCE(sku, '')) LIKE ? ESCAPE '\'
			OR id IN (SELECT parent_id FROM products WHERE parent_id IS NOT NULL AND LOWER(COALESCE(sku, '')) LIKE ? ESCAPE '\'))`, like, like, like)
	}
	cond := " FROM products WHERE " + strings.Join(where, " AND ")
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*)`+cond), args...); err != nil {
		return nil, 0, fmt.Errorf("count products: %w", err)
	}
	dir := "DESC"
	if q.Order == "asc" {
		dir = "ASC"
	}
	orderBy := adminOrder[q.OrderBy]
	if orderBy == "" {
		orderBy = adminOrder["date"]
	}
	order := strings.ReplaceAll(orderBy, "%s", dir)
	ps, err := db.loadProductsWith(ctx, relImages|relTerms, productSelect+strings.TrimPrefix(cond, " FROM products")+
		" ORDER BY "+order+sqlcore.Limit(q.PerPage)+" OFFSET ?", append(args, (q.Page-1)*q.PerPage)...)
	return ps, total, err
}

// AdminStatusCounts implements catalog.AdminStore.
func (db *Catalog) AdminStatusCounts(ctx context.Context) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, `SELECT status, COUNT(*) AS n FROM products WHERE parent_id IS NULL GROUP BY status`); err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// CreateProduct implements catalog.AdminStore.
func (db *Catalog) CreateProduct(ctx context.Context, p *catalog.Product, variations []*catalog.Product) error {
	p.ID = 0
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := db.storeProduct(ctx, tx, p, variations)
		return err
	})
}

// UpdateProduct implements catalog.AdminStore. The version check is the
// transaction's first write, so of two edits based on one version only the
// first gets through: on PostgreSQL the second waits for the row's lock
// and then finds the version moved; on SQLite writes take turns.
func (db *Catalog) UpdateProduct(ctx context.Context, p *catalog.Product, variations []*catalog.Product, deleteVariations []int64, base int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET version = version WHERE id = ? AND parent_id IS NULL AND version = ?`), p.ID, base)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			err := tx.GetContext(ctx, &one, tx.Rebind(`SELECT 1 FROM products WHERE id = ? AND parent_id IS NULL`), p.ID)
			if err != nil {
				return sqlcore.NoRow(err, catalog.ErrNotFound)
			}
			return catalog.ErrStale
		}
		if len(deleteVariations) > 0 {
			in, args := sqlcore.InClause(deleteVariations)
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM products WHERE parent_id = ? AND id IN `+in), append([]any{p.ID}, args...)...); err != nil {
				return err
			}
		}
		// An admin save never writes back the stock count it loaded:
		// rows it names without a stock edit keep theirs.
		if p.StockEdit == nil {
			p.StockEdit = &catalog.StockEdit{}
		}
		for _, v := range variations {
			if v.ID != 0 && v.StockEdit == nil {
				v.StockEdit = &catalog.StockEdit{}
			}
		}
		_, err = db.storeProduct(ctx, tx, p, variations)
		return err
	})
}

// SetProductStatus implements catalog.AdminStore.
func (db *Catalog) SetProductStatus(ctx context.Context, ids []int64, status string, publishAt *time.Time) (int, error) {
	var was string // the status of the product being changed, before
	return db.changeProducts(ctx, ids, func(tx *sqlx.Tx, id int64) (sql.Result, error) {
		was = ""
		if err := tx.GetContext(ctx, &was, tx.Rebind(`SELECT status FROM products WHERE id = ? AND parent_id IS NULL`), id); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		return tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET status = ?, publish_at = ?, version = version + 1, updated_at = ?
				WHERE id = ? AND parent_id IS NULL AND status <> ?`), status, sqlcore.NullTime(publishAt), db.Now(), id, status)
	}, func(ctx context.Context, tx *sqlx.Tx, id int64) error {
		// Moving to the trash is WooCommerce's product.deleted (deleting
		// from the trash later raises nothing more); out of it, product.restored.
		topic := "product.updated"
		switch {
		case status == "trash":
			topic = "product.deleted"
		case was == "trash":
			topic = "product.restored"
		}
		if err := sqlcore.EnqueueWebhooksTx(ctx, tx, topic, id, time.Now()); err != nil {
			return err
		}
		return db.reindex(ctx, tx, id)
	})
}

// DeleteProducts implements catalog.AdminStore.
func (db *Catalog) DeleteProducts(ctx context.Context, ids []int64) (int, error) {
	return db.changeProducts(ctx, ids, func(tx *sqlx.Tx, id int64) (sql.Result, error) {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM products WHERE parent_id = ?`), id); err != nil {
			return nil, err
		}
		return tx.ExecContext(ctx, tx.Rebind(`DELETE FROM products WHERE id = ? AND parent_id IS NULL`), id)
	}, db.unindex)
}

// PublishDue implements catalog.AdminStore.
func (db *Catalog) PublishDue(ctx context.Context, now time.Time) (int, error) {
	var ids []int64
	if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM products WHERE status = 'future' AND publish_at <= ? AND parent_id IS NULL`), now.UTC()); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	return db.changeProducts(ctx, ids, func(tx *sqlx.Tx, id int64) (sql.Result, error) {
		// Only if still scheduled: an edit may have moved it since.
		return tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET status = 'publish', publish_at = NULL, version = version + 1, updated_at = ?
				WHERE id = ? AND status = 'future' AND publish_at <= ?`), db.Now(), id, now.UTC())
	}, db.reindexUpdated)
}

// changeProducts runs change on each of ids in one transaction; for each
// product it changed (a row affected), it brings the search index in step
// with after and records the listing change. It answers how many changed.
func (db *Catalog) changeProducts(ctx context.Context, ids []int64, change func(tx *sqlx.Tx, id int64) (sql.Result, error), after func(ctx context.Context, tx *sqlx.Tx, id int64) error) (int, error) {
	n := 0
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		n = 0
		for _, id := range ids {
			res, err := change(tx, id)
			if err != nil {
				return err
			}
			if k, _ := res.RowsAffected(); k == 0 {
				continue
			}
			n++
			if err := after(ctx, tx, id); err != nil {
				return err
			}
			if err := db.RecordChange(ctx, tx, id, "product_listed"); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// reindexUpdated is reindex for a product changed in place, whose
// product.updated webhooks it queues (internal/webhook).
func (db *Catalog) reindexUpdated(ctx context.Context, tx *sqlx.Tx, id int64) error {
	if err := sqlcore.EnqueueWebhooksTx(ctx, tx, "product.updated", id, time.Now()); err != nil {
		return err
	}
	return db.reindex(ctx, tx, id)
}

// reindex brings the search index in step with the product's row.
func (db *Catalog) reindex(ctx context.Context, tx *sqlx.Tx, id int64) error {
	_, err := db.indexProduct(ctx, tx, id)
	return err
}

// saleActiveSQL is catalog.Product.SaleActive as an SQL condition on a
// products row, at the time bound to its two placeholders.
const saleActiveSQL = `(sale_price IS NOT NULL AND (regular_price IS NULL OR sale_price < regular_price)
	AND (sale_from IS NULL OR sale_from <= ?) AND (sale_to IS NULL OR sale_to > ?))`

// ApplySchedules implements catalog.AdminStore. Every change is a
// conditional UPDATE (the stored state still disagrees with now), so
// instances that run the pass at the same time change each row once and
// record each product's change once: the second finds nothing to do.
func (db *Catalog) ApplySchedules(ctx context.Context, now time.Time) (int, error) {
	now = now.UTC()
	var sales, releases []int64
	if err := db.Read.SelectContext(ctx, &sales, db.Read.Rebind(`SELECT id FROM products
		WHERE (sale_from IS NOT NULL OR sale_to IS NOT NULL) AND on_sale <> `+saleActiveSQL+` ORDER BY id`), now, now); err != nil {
		return 0, fmt.Errorf("sales due: %w", err)
	}
	if err := db.Read.SelectContext(ctx, &releases, db.Read.Rebind(`SELECT id FROM products
		WHERE pre_order = ? AND pre_order_at <= ? ORDER BY id`), true, now); err != nil {
		return 0, fmt.Errorf("pre-orders due: %w", err)
	}
	if len(sales)+len(releases) == 0 {
		return 0, nil
	}
	n := 0
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		n = 0
		touched := map[int64]bool{} // the products whose pages change
		var order []int64
		touch := func(id int64) error {
			// The product itself, or its parent when it is a variation, and
			// the grouped products that list it.
			var top int64
			if err := tx.GetContext(ctx, &top, tx.Rebind(`SELECT COALESCE(parent_id, id) FROM products WHERE id = ?`), id); err != nil {
				return err
			}
			var groups []int64
			if err := tx.SelectContext(ctx, &groups, tx.Rebind(`SELECT product_id FROM product_links WHERE linked_id = ? AND kind = 'child'`), top); err != nil {
				return err
			}
			for _, p := range append([]int64{top}, groups...) {
				if !touched[p] {
					touched[p] = true
					order = append(order, p)
				}
			}
			return nil
		}
		for _, id := range sales {
			// No version bump: nothing was edited, only the price that
			// applies moved.
			res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET on_sale = `+saleActiveSQL+`,
				sort_price = CASE WHEN `+saleActiveSQL+` THEN sale_price ELSE regular_price END
				WHERE id = ? AND on_sale <> `+saleActiveSQL), now, now, now, now, id, now, now)
			if err != nil {
				return fmt.Errorf("apply sale of %d: %w", id, err)
			}
			if k, _ := res.RowsAffected(); k > 0 {
				if err := touch(id); err != nil {
					return err
				}
			}
		}
		for _, id := range releases {
			// The release date has come: the product is sold as any other
			// (WooCommerce Pre-Orders completes it). A version bump: an
			// editor opened before would put the pre-order back.
			res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET pre_order = ?, version = version + 1, updated_at = ?
				WHERE id = ? AND pre_order = ? AND pre_order_at <= ?`), false, db.Now(), id, true, now)
			if err != nil {
				return fmt.Errorf("release pre-order %d: %w", id, err)
			}
			if k, _ := res.RowsAffected(); k > 0 {
				if err := touch(id); err != nil {
					return err
				}
			}
		}
		for _, id := range order {
			var typ string
			if err := tx.GetContext(ctx, &typ, tx.Rebind(`SELECT type FROM products WHERE id = ?`), id); err != nil {
				return err
			}
			if typ == string(catalog.TypeVariable) || typ == string(catalog.TypeGrouped) {
				if err := db.refreshParentPrice(ctx, tx, id); err != nil {
					return err
				}
			}
			if err := db.RecordChange(ctx, tx, id, "product_listed"); err != nil {
				return err
			}
		}
		n = len(order)
		return nil
	})
	return n, err
}

// SaveCategory implements catalog.AdminStore.
func (db *Catalog) SaveCategory(ctx context.Context, c *catalog.Category) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		desc := richtext.Sanitize(c.Description)
		var err error
		if c.ID == 0 {
			err = tx.GetContext(ctx, &c.ID, tx.Rebind(`INSERT INTO categories (parent_id, name, slug, description, image_id, menu_order) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`),
				sqlcore.NullID(c.ParentID), c.Name, c.Slug, desc, sqlcore.NullID(c.ImageID), c.MenuOrder)
		} else {
			var old string
			if old, err = db.storedName(ctx, tx, "categories", c.ID); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE categories SET parent_id = ?, name = ?, slug = ?, description = ?, image_id = ?, menu_order = ? WHERE id = ?`),
				sqlcore.NullID(c.ParentID), c.Name, c.Slug, desc, sqlcore.NullID(c.ImageID), c.MenuOrder, c.ID)
			if err == nil && old != "" && old != c.Name {
				err = db.reindexLinked(ctx, tx, "categories", c.ID)
			}
		}
		if err != nil {
			return fmt.Errorf("save category: %w", err)
		}
		c.Description = desc
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// DeleteCategory implements catalog.AdminStore.
func (db *Catalog) DeleteCategory(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var parent sql.NullInt64
		err := tx.GetContext(ctx, &parent, tx.Rebind(`SELECT parent_id FROM categories WHERE id = ?`), id)
		if err != nil {
			return sqlcore.NoRow(err, catalog.ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE categories SET parent_id = ? WHERE parent_id = ?`), sqlcore.NullID(parent.Int64), id); err != nil {
			return err
		}
		// Its products' search rows hold its name: read them before the
		// links go, index them again after.
		products, err := db.linkedProducts(ctx, tx, "categories", id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM categories WHERE id = ?`), id); err != nil {
			return err
		}
		for _, p := range products {
			if err := db.reindex(ctx, tx, p); err != nil {
				return err
			}
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// SaveTag implements catalog.AdminStore.
func (db *Catalog) SaveTag(ctx context.Context, t *catalog.Tag) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if t.ID == 0 {
			err = tx.GetContext(ctx, &t.ID, tx.Rebind(`INSERT INTO tags (name, slug) VALUES (?, ?) RETURNING id`), t.Name, t.Slug)
		} else {
			var old string
			if old, err = db.storedName(ctx, tx, "tags", t.ID); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE tags SET name = ?, slug = ? WHERE id = ?`), t.Name, t.Slug, t.ID)
			if err == nil && old != "" && old != t.Name {
				err = db.reindexLinked(ctx, tx, "tags", t.ID)
			}
		}
		if err != nil {
			return fmt.Errorf("save tag: %w", err)
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// DeleteTag implements catalog.AdminStore.
func (db *Catalog) DeleteTag(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var products []int64
		if err := tx.SelectContext(ctx, &products, tx.Rebind(`SELECT product_id FROM product_tags WHERE tag_id = ?`), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM tags WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		// Tag names are searched: the products it named are indexed again.
		for _, p := range products {
			if _, err := db.indexProduct(ctx, tx, p); err != nil {
				return err
			}
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// SetAttributeType implements catalog.AdminStore.
func (db *Catalog) SetAttributeType(ctx context.Context, id int64, swatch string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE attributes SET type = ? WHERE id = ?`), swatch, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// SetAttributeFilter implements catalog.AdminStore.
func (db *Catalog) SetAttributeFilter(ctx context.Context, id int64, filterable bool, queryType string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE attributes SET filterable = ?, filter_query_type = ? WHERE id = ?`), filterable, queryType, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

// UpdateTerm implements catalog.AdminStore.
func (db *Catalog) UpdateTerm(ctx context.Context, t catalog.AttrTerm) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		old, err := db.storedName(ctx, tx, "attribute_terms", t.ID)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE attribute_terms SET name = ?, color = ?, image_url = ?, menu_order = ? WHERE id = ? AND attribute_id = ?`),
			t.Name, t.Color, t.ImageURL, t.MenuOrder, t.ID, t.AttributeID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		if old != t.Name {
			if err := db.reindexLinked(ctx, tx, "attribute_terms", t.ID); err != nil {
				return err
			}
		}
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	})
}

type imageRow struct {
	ID      int64  `db:"id"`
	Src     string `db:"src"`
	Width   int    `db:"width"`
	Height  int    `db:"height"`
	Alt     string `db:"alt"`
	Caption string `db:"caption"`
	Name    string `db:"name"`
	Sizes   string `db:"sizes"`
}

func (r imageRow) image() catalog.Image {
	img := catalog.Image{ID: r.ID, Src: r.Src, Width: r.Width, Height: r.Height, Alt: r.Alt, Caption: r.Caption, Name: r.Name}
	_ = json.Unmarshal([]byte(r.Sizes), &img.Sizes)
	return img
}

const imageSelect = `SELECT id, src, width, height, alt, caption, name, sizes FROM images`

// Images implements catalog.AdminStore. An upload whose sizes are not
// made yet (pending, internal/media) is not offered, nor accepted.
func (db *Catalog) Images(ctx context.Context, search string, limit int) ([]catalog.Image, error) {
	if search == "" {
		return sqlcore.SelectAs(ctx, db.Read, imageRow.image, imageSelect+` WHERE pending = ? ORDER BY id DESC`+sqlcore.Limit(limit), false)
	}
	like := "%" + sqlcore.LikeEscape(strings.ToLower(search)) + "%"
	return sqlcore.SelectAs(ctx, db.Read, imageRow.image, imageSelect+` WHERE pending = ? AND (LOWER(name) LIKE ? ESCAPE '\' OR LOWER(src) LIKE ? ESCAPE '\' OR LOWER(alt) LIKE ? ESCAPE '\') ORDER BY id DESC`+sqlcore.Limit(limit), false, like, like, like)
}

// ImageByID implements catalog.AdminStore.
func (db *Catalog) ImageByID(ctx context.Context, id int64) (*catalog.Image, error) {
	return db.oneImage(ctx, ` WHERE id = ? AND pending = ?`, id)
}

// ImageBySrc implements catalog.AdminStore.
func (db *Catalog) ImageBySrc(ctx context.Context, src string) (*catalog.Image, error) {
	return db.oneImage(ctx, ` WHERE src = ? AND pending = ? ORDER BY id LIMIT 1`, src)
}

func (db *Catalog) oneImage(ctx context.Context, cond string, arg any) (*catalog.Image, error) {
	var r imageRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(imageSelect+cond), arg, false)
	if err != nil {
		return nil, sqlcore.NoRow(err, catalog.ErrNotFound)
	}
	img := r.image()
	return &img, nil
}
