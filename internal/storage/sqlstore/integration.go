package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/integration"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// REST API keys and their spent OAuth nonces (tables api_keys and
// api_key_nonces), shared by every instance (integration.Store).

var _ integration.Store = (*DB)(nil)

const apiKeyColumns = `id, user_id, description, permissions, consumer_key, consumer_secret, truncated_key, created_at, last_access`

type apiKeyRow struct {
	ID           int64         `db:"id"`
	UserID       int64         `db:"user_id"`
	Description  string        `db:"description"`
	Permissions  string        `db:"permissions"`
	KeyHash      string        `db:"consumer_key"`
	Secret       string        `db:"consumer_secret"`
	TruncatedKey string        `db:"truncated_key"`
	CreatedAt    int64         `db:"created_at"`
	LastAccess   sql.NullInt64 `db:"last_access"`
}

func (r *apiKeyRow) key() integration.Key {
	k := integration.Key{ID: r.ID, UserID: r.UserID, Description: r.Description, Permissions: integration.Permission(r.Permissions),
		KeyHash: r.KeyHash, Secret: r.Secret, TruncatedKey: r.TruncatedKey, CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}
	if r.LastAccess.Valid {
		k.LastAccess = time.Unix(r.LastAccess.Int64, 0).UTC()
	}
	return k
}

// InsertAPIKey stores a new key.
func (db *DB) InsertAPIKey(ctx context.Context, k *integration.Key) (int64, error) {
	var id int64
	err := db.Write.GetContext(ctx, &id, db.Write.Rebind(`INSERT INTO api_keys
		(user_id, description, permissions, consumer_key, consumer_secret, truncated_key, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		k.UserID, k.Description, string(k.Permissions), k.KeyHash, k.Secret, k.TruncatedKey, k.CreatedAt.Unix())
	return id, err
}

// APIKeys lists keys oldest first, one user's when userID > 0.
func (db *DB) APIKeys(ctx context.Context, userID int64) ([]integration.Key, error) {
	q, args := `SELECT `+apiKeyColumns+` FROM api_keys`, []any{}
	if userID > 0 {
		q, args = q+` WHERE user_id = ?`, append(args, userID)
	}
	var rows []apiKeyRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q+` ORDER BY id`), args...); err != nil {
		return nil, err
	}
	out := make([]integration.Key, len(rows))
	for i := range rows {
		out[i] = rows[i].key()
	}
	return out, nil
}

// APIKeyByHash loads a key by its consumer key's hash
// (integration.ErrNoKey). Nothing caches it: a key revoked on any
// instance is gone for the next request.
func (db *DB) APIKeyByHash(ctx context.Context, hash string) (*integration.Key, error) {
	var r apiKeyRow
	if err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE consumer_key = ?`), hash); err != nil {
		return nil, sqlcore.NoRow(err, integration.ErrNoKey)
	}
	k := r.key()
	return &k, nil
}

// DeleteAPIKey deletes a key and its spent nonces.
func (db *DB) DeleteAPIKey(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM api_key_nonces WHERE key_id = ?`), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM api_keys WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return integration.ErrNoKey
		}
		return nil
	})
}

// TouchAPIKey notes the key's last access at at, unless it is already
// after notBefore.
func (db *DB) TouchAPIKey(ctx context.Context, id int64, at, notBefore time.Time) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE api_keys SET last_access = ?
		WHERE id = ? AND (last_access IS NULL OR last_access <= ?)`), at.Unix(), id, notBefore.Unix())
	return err
}

// SpendOAuthNonce records a key's nonce until expires; of concurrent
// calls for one nonce, on any instance, exactly one reports true.
func (db *DB) SpendOAuthNonce(ctx context.Context, keyID int64, nonceHash string, expires time.Time) (bool, error) {
	var first bool
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO api_key_nonces (key_id, nonce_hash, expires_at) VALUES (?, ?, ?)
			ON CONFLICT (key_id, nonce_hash) DO NOTHING`), keyID, nonceHash, expires.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	return first, err
}

// DeleteSpentOAuthNonces deletes the nonces that expired before before.
func (db *DB) DeleteSpentOAuthNonces(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM api_key_nonces WHERE expires_at < ?`), before.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RateLimitCount reads a rate-limit counter without counting: its hits in
// the window running at now and the window's end (0 hits when none runs).
func (db *DB) RateLimitCount(ctx context.Context, key string, now time.Time) (int, time.Time, error) {
	var row struct {
		Hits    int   `db:"hits"`
		Expires int64 `db:"expires_at"`
	}
	err := db.Read.GetContext(ctx, &row, db.Read.Rebind(`SELECT hits, expires_at FROM rate_limits WHERE bucket = ? AND expires_at > ?`), key, now.Unix())
	if err != nil {
		if err = sqlcore.NoRow(err, nil); err != nil {
			return 0, time.Time{}, err
		}
		return 0, time.Time{}, nil
	}
	return row.Hits, time.Unix(row.Expires, 0).UTC(), nil
}
