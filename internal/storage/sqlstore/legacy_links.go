package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
	"vitrine/internal/oldlinks"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Old links (oldlinks.Store): the imported objects an old permalink or
// an old id names, and the few reads that say where such an object is now.

type oldLinkRow struct {
	Kind    string `db:"kind"`
	NewID   int64  `db:"new_id"`
	OldPath string `db:"old_path"`
}

func (r oldLinkRow) old() oldlinks.Old {
	return oldlinks.Old{Kind: r.Kind, NewID: r.NewID, OldPath: r.OldPath}
}

// OldLinkByPath implements oldlinks.Store. A variation recorded with its
// product's path never takes that path from the product; otherwise the
// latest import wins, as in LegacyByPath.
func (db *DB) OldLinkByPath(ctx context.Context, path string) (oldlinks.Old, bool, error) {
	if path == "" {
		return oldlinks.Old{}, false, nil
	}
	var r oldLinkRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT kind, new_id, old_path FROM legacy_ids
		WHERE old_path = ? AND kind IN ('product', 'variation', 'category', 'tag', 'page')
		ORDER BY CASE kind WHEN 'variation' THEN 1 ELSE 0 END, imported_at DESC, kind LIMIT 1`), path)
	return oldLink(r, err)
}

// OldLinkByID implements oldlinks.Store. WordPress's posts (products,
// variations, pages) share one id sequence, so at most one kind matches
// an id from one shop; the order only settles a mix of imports.
func (db *DB) OldLinkByID(ctx context.Context, kinds []string, oldID int64) (oldlinks.Old, bool, error) {
	if len(kinds) == 0 {
		return oldlinks.Old{}, false, nil
	}
	args := make([]any, 0, len(kinds)+1)
	args = append(args, oldID)
	for _, k := range kinds {
		args = append(args, k)
	}
	var r oldLinkRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT kind, new_id, old_path FROM legacy_ids
		WHERE old_id = ? AND kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)
		ORDER BY imported_at DESC, kind LIMIT 1`), args...)
	return oldLink(r, err)
}

func oldLink(r oldLinkRow, err error) (oldlinks.Old, bool, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return oldlinks.Old{}, false, nil
	}
	if err != nil {
		return oldlinks.Old{}, false, err
	}
	return r.old(), true, nil
}

// ContentPageByID implements oldlinks.Store.
func (db *DB) ContentPageByID(ctx context.Context, id int64) (contentpage.Page, error) {
	var r contentPageRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+contentPageColumns+` FROM content_pages WHERE id = ?`), id)
	if err != nil {
		return contentpage.Page{}, sqlcore.NoRow(err, contentpage.ErrNotFound)
	}
	return r.page(), nil
}

// TagSlugByID implements oldlinks.Store.
func (db *DB) TagSlugByID(ctx context.Context, id int64) (string, bool, error) {
	var slug string
	err := db.Read.GetContext(ctx, &slug, db.Read.Rebind(`SELECT slug FROM tags WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return slug, err == nil, err
}

// TagExists implements oldlinks.Store.
func (db *DB) TagExists(ctx context.Context, slug string) (bool, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM tags WHERE slug = ?`), slug)
	return n > 0, err
}

// OldLinkProduct implements oldlinks.Store.
func (db *DB) OldLinkProduct(ctx context.Context, id int64) (oldlinks.Product, error) {
	var r struct {
		ID       int64         `db:"id"`
		ParentID sql.NullInt64 `db:"parent_id"`
		Slug     string        `db:"slug"`
		Status   string        `db:"status"`
		Active   bool          `db:"active"`
	}
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT id, parent_id, slug, status, active FROM products WHERE id = ?`), id)
	if err != nil {
		return oldlinks.Product{}, sqlcore.NoRow(err, catalog.ErrNotFound)
	}
	p := oldlinks.Product{ID: r.ID, ParentID: r.ParentID.Int64, Slug: r.Slug, Status: r.Status, Active: r.Active}
	if p.ParentID != 0 {
		err = db.Read.SelectContext(ctx, &p.Attributes, db.Read.Rebind(`SELECT name AS "name", value AS "value"
			FROM variation_attributes WHERE variation_id = ? ORDER BY name`), id)
	}
	return p, err
}
