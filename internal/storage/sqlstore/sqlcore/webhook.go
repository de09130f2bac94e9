package sqlcore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
)

// EnqueueWebhooksTx queues topic's event about resource id for every
// active webhook of the topic, inside tx, the transaction of the change
// (internal/webhook): it commits or rolls back with the change, so no
// committed change loses its deliveries. One INSERT … SELECT through the
// webhooks' topic index; a shop without webhooks writes nothing.
func EnqueueWebhooksTx(ctx context.Context, tx *sqlx.Tx, topic string, id int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO webhook_queue (webhook_id, topic, resource_id, created_at, next_attempt_at)
		SELECT id, ?, ?, ?, ? FROM webhooks WHERE topic = ? AND status = 'active'`), topic, id, now.Unix(), now.Unix(), topic)
	return err
}
