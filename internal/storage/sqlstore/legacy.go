package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// What a shop moved in from WooCommerce had, by its old ids (tables
// legacy_ids and import_progress; internal/wcimport writes them, the
// storefront's old links read them).

// Legacy is one imported object: its kind ("product", "category", …), its
// id in the old shop and in this one, the path its old permalink answered
// on, and the digest of the source's record as last imported.
type Legacy struct {
	Kind       string `db:"kind"`
	OldID      int64  `db:"old_id"`
	NewID      int64  `db:"new_id"`
	OldPath    string `db:"old_path"`
	Digest     string `db:"digest"`
	ImportedAt int64  `db:"imported_at"`
}

// LegacyByOldID reads an imported object by its old id; ok is false when
// nothing of that kind and id was imported.
func (db *DB) LegacyByOldID(ctx context.Context, kind string, oldID int64) (l Legacy, ok bool, err error) {
	err = db.Read.GetContext(ctx, &l, db.Read.Rebind(`SELECT kind, old_id, new_id, old_path, digest, imported_at
		FROM legacy_ids WHERE kind = ? AND old_id = ?`), kind, oldID)
	if errors.Is(err, sql.ErrNoRows) {
		return Legacy{}, false, nil
	}
	return l, err == nil, err
}

// LegacyByPath reads the imported object whose old permalink answered on
// path ("/product/hoodie/"); ok is false when none did. Paths are unique in
// the old shop; were two recorded, the latest import wins.
func (db *DB) LegacyByPath(ctx context.Context, path string) (l Legacy, ok bool, err error) {
	if path == "" {
		return Legacy{}, false, nil
	}
	err = db.Read.GetContext(ctx, &l, db.Read.Rebind(`SELECT kind, old_id, new_id, old_path, digest, imported_at
		FROM legacy_ids WHERE old_path = ? ORDER BY imported_at DESC, kind LIMIT 1`), path)
	if errors.Is(err, sql.ErrNoRows) {
		return Legacy{}, false, nil
	}
	return l, err == nil, err
}

// PutLegacy records an imported object (an upsert by kind and old id).
func (db *DB) PutLegacy(ctx context.Context, l Legacy) error {
	if l.ImportedAt == 0 {
		l.ImportedAt = db.Now().Unix()
	}
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`INSERT INTO legacy_ids (kind, old_id, new_id, old_path, digest, imported_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, old_id) DO UPDATE SET new_id = excluded.new_id, old_path = excluded.old_path,
			digest = excluded.digest, imported_at = excluded.imported_at`),
		l.Kind, l.OldID, l.NewID, l.OldPath, l.Digest, l.ImportedAt)
	return err
}

// LegacyIDs maps every imported object of a kind from its old id to its
// new one (a run loads a kind's map once instead of a query per link).
func (db *DB) LegacyIDs(ctx context.Context, kind string) (map[int64]int64, error) {
	rows, err := db.Read.QueryContext(ctx, db.Read.Rebind(`SELECT old_id, new_id FROM legacy_ids WHERE kind = ?`), kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int64]int64{}
	for rows.Next() {
		var o, n int64
		if err := rows.Scan(&o, &n); err != nil {
			return nil, err
		}
		m[o] = n
	}
	return m, rows.Err()
}

// ImportPagesDone reads how many pages of a resource an unfinished run
// from source finished (0 when none is unfinished).
func (db *DB) ImportPagesDone(ctx context.Context, source, resource string) (int, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT pages_done FROM import_progress WHERE source = ? AND resource = ?`), source, resource)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// SetImportPagesDone records that a run from source finished pages of a
// resource; 0 deletes the record (the resource is complete).
func (db *DB) SetImportPagesDone(ctx context.Context, source, resource string, pages int, at time.Time) error {
	if pages <= 0 {
		_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM import_progress WHERE source = ? AND resource = ?`), source, resource)
		return err
	}
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`INSERT INTO import_progress (source, resource, pages_done, updated_at)
		VALUES (?, ?, ?, ?)
		ON CONFLICT (source, resource) DO UPDATE SET pages_done = excluded.pages_done, updated_at = excluded.updated_at`),
		source, resource, pages, at.Unix())
	return err
}
