package sqlstore

import (
	"context"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/support"
)

// Support messages (internal/support): the message and its outbox row in
// one transaction.

// InsertSupportMessage stores m and queues its mail.
func (db *DB) InsertSupportMessage(ctx context.Context, m *support.Message) (int64, error) {
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO support_messages (email, username, message, client_ip, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`), m.Email, m.Username, m.Text, m.ClientIP, m.CreatedAt.Unix()); err != nil {
			return err
		}
		ref := strconv.FormatInt(id, 10)
		return enqueueMailOnce(ctx, tx, support.KindMessage, ref, m.CreatedAt)
	})
	return id, err
}

// SupportMessage loads a message (support.ErrNotFound).
func (db *DB) SupportMessage(ctx context.Context, id int64) (*support.Message, error) {
	var r struct {
		ID        int64  `db:"id"`
		Email     string `db:"email"`
		Username  string `db:"username"`
		Message   string `db:"message"`
		ClientIP  string `db:"client_ip"`
		CreatedAt int64  `db:"created_at"`
	}
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT id, email, username, message, client_ip, created_at
		FROM support_messages WHERE id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, support.ErrNotFound)
	}
	return &support.Message{ID: r.ID, Email: r.Email, Username: r.Username, Text: r.Message, ClientIP: r.ClientIP,
		CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}, nil
}
