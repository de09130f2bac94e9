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

// EnqueueCustomerWebhooksTx queues a customer.created, customer.updated or
// customer.deleted event (topic) about user id, inside tx, when the account
// is a customer (staff accounts are not announced; a deletion queues before
// the row goes). A customer.updated is not queued for a webhook that still
// holds an untried customer.updated of the same customer: the body is
// built at delivery, so that event carries this change too (one use case,
// such as a customer edited in the admin, writes several times and sends
// one event).
func EnqueueCustomerWebhooksTx(ctx context.Context, tx *sqlx.Tx, topic string, id int64, now time.Time) error {
	q := `INSERT INTO webhook_queue (webhook_id, topic, resource_id, created_at, next_attempt_at)
		SELECT w.id, ?, ?, ?, ? FROM webhooks w
		WHERE w.topic = ? AND w.status = 'active'
		  AND EXISTS (SELECT 1 FROM users u WHERE u.id = ? AND u.role = 'customer')`
	args := []any{topic, id, now.Unix(), now.Unix(), topic, id}
	if topic == "customer.updated" {
		q += `
		  AND NOT EXISTS (SELECT 1 FROM webhook_queue p WHERE p.webhook_id = w.id AND p.resource_id = ?
		      AND p.topic = 'customer.updated' AND p.attempts = 0
		      AND p.delivered_at IS NULL AND p.failed_at IS NULL)`
		args = append(args, id)
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(q), args...)
	return err
}
