package sqlstore

import (
	"context"
	"time"

	"vitrine/internal/account"
)

// SetUserCreated dates an account moved in from another shop
// (internal/wcimport) from its registration there; account.ErrNoUser for
// an unknown id.
func (db *DB) SetUserCreated(ctx context.Context, id int64, at time.Time) error {
	ok, err := db.ExecOne(ctx, `UPDATE users SET created_at = ? WHERE id = ?`, at.UTC().Unix(), id)
	if err != nil {
		return err
	}
	if !ok {
		return account.ErrNoUser
	}
	return nil
}
