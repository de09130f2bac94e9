package sqlstore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/contentpage"
	"vitrine/internal/richtext"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The shop's content pages (contentpage.Store). Every write sanitizes the
// body with internal/richtext and appends a "pages" row to
// catalog_changes in the same transaction: the running servers drop their
// cached pages (each one's footer links the published pages) within a
// poll.

type contentPageRow struct {
	ID        int64  `db:"id"`
	Slug      string `db:"slug"`
	Title     string `db:"title"`
	Body      string `db:"body"`
	Status    string `db:"status"`
	UpdatedAt int64  `db:"updated_at"`
}

func (r contentPageRow) page() contentpage.Page {
	return contentpage.Page{ID: r.ID, Slug: r.Slug, Title: r.Title, Body: r.Body, Status: r.Status,
		UpdatedAt: time.Unix(r.UpdatedAt, 0).UTC()}
}

const contentPageColumns = `id, slug, title, body, status, updated_at`

// ContentPage implements contentpage.Store.
func (db *DB) ContentPage(ctx context.Context, slug string) (contentpage.Page, error) {
	var r contentPageRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+contentPageColumns+` FROM content_pages WHERE slug = ?`), slug)
	if err != nil {
		return contentpage.Page{}, sqlcore.NoRow(err, contentpage.ErrNotFound)
	}
	return r.page(), nil
}

// ContentPages implements contentpage.Store.
func (db *DB) ContentPages(ctx context.Context) ([]contentpage.Page, error) {
	return sqlcore.SelectAs(ctx, db.Read, contentPageRow.page, `SELECT `+contentPageColumns+` FROM content_pages ORDER BY slug`)
}

// PutContentPage implements contentpage.Store: an upsert by slug.
func (db *DB) PutContentPage(ctx context.Context, p contentpage.Page) (contentpage.Page, error) {
	body := richtext.Sanitize(p.Body)
	var r contentPageRow
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &r, tx.Rebind(`INSERT INTO content_pages (slug, title, body, status, updated_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (slug) DO UPDATE SET title = excluded.title, body = excluded.body, status = excluded.status,
				updated_at = excluded.updated_at
			RETURNING `+contentPageColumns), p.Slug, p.Title, body, p.Status, p.UpdatedAt.Unix()); err != nil {
			return err
		}
		return db.RecordChange(ctx, tx, 0, ChangePages)
	})
	if err != nil {
		return contentpage.Page{}, err
	}
	return r.page(), nil
}

// DeleteContentPage implements contentpage.Store.
func (db *DB) DeleteContentPage(ctx context.Context, slug string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM content_pages WHERE slug = ?`), slug)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return contentpage.ErrNotFound
		}
		return db.RecordChange(ctx, tx, 0, ChangePages)
	})
}

// ChangePages is the catalog_changes kind of a content page write.
const ChangePages = "pages"
