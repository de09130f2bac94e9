package catalogstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/media"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The media library (internal/media.Library): attachments are rows of
// images (migration 00026 adds WordPress's attachment fields), their files
// rows of media_files.

type attachmentRow struct {
	imageRow
	Title      string `db:"title"`
	MimeType   string `db:"mime_type"`
	UploadedAt int64  `db:"uploaded_at"`
	AuthorID   int64  `db:"author_id"`
	Pending    bool   `db:"pending"`
}

const attachmentCols = `id, src, width, height, alt, caption, name, sizes, title, mime_type, uploaded_at, author_id, pending`

func (r attachmentRow) attachment() media.Attachment {
	a := media.Attachment{
		Image: r.image(),
		Title: r.Title, MimeType: r.MimeType, AuthorID: r.AuthorID, Pending: r.Pending,
	}
	if r.UploadedAt > 0 {
		a.Uploaded = time.Unix(r.UploadedAt, 0).UTC()
	}
	return a
}

// AddAttachment implements media.LibraryStore.
func (db *Catalog) AddAttachment(ctx context.Context, a *media.Attachment, file catalog.MediaFile) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO media_files (path, content_type, data, created_at) VALUES (?, ?, ?, ?)`),
			file.Path, file.ContentType, file.Data, db.Now()); err != nil {
			return fmt.Errorf("store media %s: %w", file.Path, err)
		}
		sizes, _ := json.Marshal(nonNilSizes(a.Sizes))
		return tx.GetContext(ctx, &a.ID, tx.Rebind(`INSERT INTO images (src, width, height, alt, caption, name, sizes, title, mime_type, uploaded_at, author_id, pending)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			a.Src, a.Width, a.Height, a.Alt, a.Caption, a.Name, string(sizes), a.Title, a.MimeType, a.Uploaded.Unix(), a.AuthorID, a.Pending)
	})
}

// Attachment implements media.LibraryStore.
func (db *Catalog) Attachment(ctx context.Context, id int64) (*media.Attachment, error) {
	var r attachmentRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+attachmentCols+` FROM images WHERE id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, catalog.ErrNotFound)
	}
	a := r.attachment()
	return &a, nil
}

// Attachments implements media.LibraryStore.
func (db *Catalog) Attachments(ctx context.Context, q media.Query) ([]media.Attachment, int, error) {
	var where []string
	var args []any
	if q.Search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(q.Search)) + "%"
		where = append(where, `(lower(title) LIKE ? ESCAPE '\' OR lower(name) LIKE ? ESCAPE '\' OR lower(alt) LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like)
	}
	if len(q.IncludeIDs) > 0 {
		where = append(where, "id IN (?"+strings.Repeat(", ?", len(q.IncludeIDs)-1)+")")
		for _, id := range q.IncludeIDs {
			args = append(args, id)
		}
	}
	if q.OnlyUploadedBy != 0 {
		where, args = append(where, "author_id = ?"), append(args, q.OnlyUploadedBy)
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*) FROM images`+cond), args...); err != nil {
		return nil, 0, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	out, err := sqlcore.SelectAs(ctx, db.Read, attachmentRow.attachment, `SELECT `+attachmentCols+` FROM images`+cond+` ORDER BY id DESC`+sqlcore.Limit(limit)+` OFFSET ?`,
		append(args, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// SetAttachmentSizes implements media.LibraryStore.
func (db *Catalog) SetAttachmentSizes(ctx context.Context, id int64, sizes []catalog.ImageSize, files []catalog.MediaFile) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, m := range files {
			q := `INSERT INTO media_files (path, content_type, data, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (path) DO UPDATE SET content_type = excluded.content_type, data = excluded.data`
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), m.Path, m.ContentType, m.Data, db.Now()); err != nil {
				return fmt.Errorf("store media %s: %w", m.Path, err)
			}
		}
		raw, _ := json.Marshal(nonNilSizes(sizes))
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE images SET sizes = ?, pending = ? WHERE id = ?`), string(raw), false, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		return db.recordImageChange(ctx, tx, id)
	})
}

// UpdateAttachment implements media.LibraryStore.
func (db *Catalog) UpdateAttachment(ctx context.Context, a *media.Attachment) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE images SET title = ?, alt = ?, caption = ? WHERE id = ?`), a.Title, a.Alt, a.Caption, a.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalog.ErrNotFound
		}
		return db.recordImageChange(ctx, tx, a.ID)
	})
}

// DeleteAttachment implements media.LibraryStore.
func (db *Catalog) DeleteAttachment(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var r attachmentRow
		err := tx.GetContext(ctx, &r, tx.Rebind(`SELECT `+attachmentCols+` FROM images WHERE id = ?`), id)
		if err != nil {
			return sqlcore.NoRow(err, catalog.ErrNotFound)
		}
		// Recorded before the links go: the pages that showed it.
		if err := db.recordImageChange(ctx, tx, id); err != nil {
			return err
		}
		a := r.attachment()
		for _, src := range append([]string{a.Src}, sizeSrcs(a.Sizes)...) {
			p, ok := strings.CutPrefix(src, "/media/")
			if !ok {
				continue
			}
			// A file another image row still names (an import's shared
			// URL) stays.
			var others int
			if err := tx.GetContext(ctx, &others, tx.Rebind(`SELECT COUNT(*) FROM images WHERE id <> ? AND src = ?`), id, src); err != nil {
				return err
			}
			if others > 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM media_files WHERE path = ?`), p); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM product_images WHERE image_id = ?`), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE categories SET image_id = NULL WHERE image_id = ?`), id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM images WHERE id = ?`), id)
		return err
	})
}

func sizeSrcs(s []catalog.ImageSize) []string {
	out := make([]string, len(s))
	for i, z := range s {
		out[i] = z.Src
	}
	return out
}

// recordImageChange records a change to every product showing the image
// (a variation's parent too: its page shows the variation's image) and to
// the menus when a category shows it.
func (db *Catalog) recordImageChange(ctx context.Context, tx *sqlx.Tx, imageID int64) error {
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, tx.Rebind(`SELECT DISTINCT x.id FROM (
			SELECT p.id FROM product_images pi JOIN products p ON p.id = pi.product_id WHERE pi.image_id = ?
			UNION SELECT p.parent_id FROM product_images pi JOIN products p ON p.id = pi.product_id WHERE pi.image_id = ? AND p.parent_id IS NOT NULL
		) x ORDER BY x.id`), imageID, imageID); err != nil {
		return err
	}
	for _, id := range ids {
		if err := db.RecordChange(ctx, tx, id, "product"); err != nil {
			return err
		}
	}
	var cats int
	if err := tx.GetContext(ctx, &cats, tx.Rebind(`SELECT COUNT(*) FROM categories WHERE image_id = ?`), imageID); err != nil {
		return err
	}
	if cats > 0 {
		return db.RecordChange(ctx, tx, 0, "taxonomy")
	}
	return nil
}

// MediaBytes implements media.LibraryStore: the bytes of every stored
// file (length() reads a blob's size from its row header, octet_length a
// TOASTed bytea's from its pointer: no content is read).
func (db *Catalog) MediaBytes(ctx context.Context) (int64, error) {
	q := `SELECT COALESCE(SUM(length(data)), 0) FROM media_files`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT COALESCE(SUM(octet_length(data)), 0)::bigint FROM media_files`
	}
	var n int64
	err := db.Read.GetContext(ctx, &n, q)
	return n, err
}
