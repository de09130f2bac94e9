package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Settings saved in the admin (internal/settings).

// ChangeSettings is the catalog_changes kind of a settings save: every
// instance reloads the settings and purges its cached pages.
const ChangeSettings = "settings"

// Setting implements settings.Store.
func (db *DB) Setting(ctx context.Context, name string) ([]byte, int64, time.Time, error) {
	var r struct {
		Value     string `db:"value"`
		Version   int64  `db:"version"`
		UpdatedAt int64  `db:"updated_at"`
	}
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT value, version, updated_at FROM shop_settings WHERE name = ?`), name)
	if err != nil {
		return nil, 0, time.Time{}, sqlcore.NoRow(err, settings.ErrNotFound)
	}
	return []byte(r.Value), r.Version, time.Unix(r.UpdatedAt, 0).UTC(), nil
}

// PutSetting implements settings.Store: a compare-and-set on the version.
func (db *DB) PutSetting(ctx context.Context, name string, raw []byte, base int64, at time.Time) (int64, error) {
	version := base + 1
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var res sql.Result
		var err error
		if base == 0 {
			res, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO shop_settings (name, value, version, updated_at) VALUES (?, ?, 1, ?)
				ON CONFLICT (name) DO NOTHING`), name, string(raw), at.Unix())
		} else {
			res, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE shop_settings SET value = ?, version = version + 1, updated_at = ?
				WHERE name = ? AND version = ?`), string(raw), at.Unix(), name, base)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return settings.ErrStale
		}
		return db.RecordChange(ctx, tx, 0, ChangeSettings)
	})
	if err != nil {
		return 0, err
	}
	return version, nil
}
