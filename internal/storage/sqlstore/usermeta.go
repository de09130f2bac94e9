package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// Per-user settings (table user_meta), shared by every instance
// (usermeta.Store).

// UserMeta reads one setting of a user; ok is false when it was never set.
func (db *DB) UserMeta(ctx context.Context, userID int64, key string) (value string, ok bool, err error) {
	err = db.Read.GetContext(ctx, &value, db.Read.Rebind(`SELECT meta_value FROM user_meta WHERE user_id = ? AND meta_key = ?`), userID, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// SetUserMeta writes one setting of a user (an upsert). A user that does
// not exist is a foreign-key error.
func (db *DB) SetUserMeta(ctx context.Context, userID int64, key, value string) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`INSERT INTO user_meta (user_id, meta_key, meta_value) VALUES (?, ?, ?)
		ON CONFLICT (user_id, meta_key) DO UPDATE SET meta_value = excluded.meta_value`), userID, key, value)
	return err
}
