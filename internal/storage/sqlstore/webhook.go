package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/webhook"
)

// Webhooks, their delivery queue and log (webhook.Store). The queue is
// claimed as the mail outbox is (outbox.go): a cheap read of due rows,
// then per row a conditional UPDATE on the attempts and next attempt time
// read, which adds an attempt and moves the row a lease ahead; of two
// instances reading one row, one updates it and the other skips it.
// (id, attempts) identifies the claim: an outcome is recorded only while
// it is current.

var _ webhook.Store = (*DB)(nil)

const webhookColumns = `id, name, status, topic, delivery_url, secret, api_version, failure_count, user_id, created_at, modified_at`

type webhookRow struct {
	ID           int64         `db:"id"`
	Name         string        `db:"name"`
	Status       string        `db:"status"`
	Topic        string        `db:"topic"`
	DeliveryURL  string        `db:"delivery_url"`
	Secret       string        `db:"secret"`
	APIVersion   string        `db:"api_version"`
	FailureCount int           `db:"failure_count"`
	UserID       sql.NullInt64 `db:"user_id"`
	CreatedAt    int64         `db:"created_at"`
	ModifiedAt   sql.NullInt64 `db:"modified_at"`
}

func (r webhookRow) hook() webhook.Hook {
	h := webhook.Hook{ID: r.ID, Name: r.Name, Status: r.Status, Topic: r.Topic, DeliveryURL: r.DeliveryURL, Secret: r.Secret,
		APIVersion: r.APIVersion, FailureCount: r.FailureCount, UserID: r.UserID.Int64, CreatedAt: sqlcore.UnixUTC(r.CreatedAt)}
	if r.ModifiedAt.Valid {
		h.ModifiedAt = sqlcore.UnixUTC(r.ModifiedAt.Int64)
	}
	return h
}

// InsertWebhook stores h, and its ping when ping.
func (db *DB) InsertWebhook(ctx context.Context, h *webhook.Hook, ping bool, now time.Time) (int64, error) {
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO webhooks (name, status, topic, delivery_url, secret, api_version, failure_count, user_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING id`),
			h.Name, h.Status, h.Topic, h.DeliveryURL, h.Secret, h.APIVersion, sqlcore.NullID(h.UserID), h.CreatedAt.Unix()); err != nil {
			return err
		}
		if !ping {
			return nil
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO webhook_queue (webhook_id, topic, resource_id, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)`),
			id, webhook.TopicPing, id, now.Unix(), now.Unix())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("insert webhook: %w", err)
	}
	return id, nil
}

// Webhook loads one (webhook.ErrNotFound).
func (db *DB) Webhook(ctx context.Context, id int64) (*webhook.Hook, error) {
	var r webhookRow
	err := db.Write.GetContext(ctx, &r, db.Write.Rebind(`SELECT `+webhookColumns+` FROM webhooks WHERE id = ?`), id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, webhook.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	h := r.hook()
	return &h, nil
}

// Webhooks lists them oldest first, those in status if set.
func (db *DB) Webhooks(ctx context.Context, status string) ([]webhook.Hook, error) {
	q, args := `SELECT `+webhookColumns+` FROM webhooks`, []any{}
	if status != "" {
		q, args = q+` WHERE status = ?`, append(args, status)
	}
	return sqlcore.SelectAs(ctx, db.Write, webhookRow.hook, q+` ORDER BY id`, args...)
}

// UpdateWebhook saves h; leaving "active" gives up its queued rows.
func (db *DB) UpdateWebhook(ctx context.Context, h *webhook.Hook, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhooks SET name = ?, status = ?, topic = ?, delivery_url = ?, secret = ?, failure_count = ?, modified_at = ?
			WHERE id = ?`), h.Name, h.Status, h.Topic, h.DeliveryURL, h.Secret, h.FailureCount, now.Unix(), h.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return webhook.ErrNotFound
		}
		if h.Status != webhook.StatusActive {
			return giveUpQueuedTx(ctx, tx, h.ID, "the webhook is "+h.Status, now)
		}
		return nil
	})
}

func giveUpQueuedTx(ctx context.Context, tx *sqlx.Tx, webhookID int64, reason string, now time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_queue SET failed_at = ?, last_error = ?
		WHERE webhook_id = ? AND delivered_at IS NULL AND failed_at IS NULL`), now.Unix(), reason, webhookID)
	return err
}

// DeleteWebhook deletes one with its queue and log.
func (db *DB) DeleteWebhook(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		// Explicit deletes: SQLite enforces ON DELETE CASCADE only with
		// foreign keys on.
		for _, q := range []string{`DELETE FROM webhook_log WHERE webhook_id = ?`, `DELETE FROM webhook_queue WHERE webhook_id = ?`} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), id); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM webhooks WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return webhook.ErrNotFound
		}
		return nil
	})
}

type queueRow struct {
	ID         int64  `db:"q_id"`
	Topic      string `db:"q_topic"`
	ResourceID int64  `db:"resource_id"`
	Attempts   int    `db:"attempts"`
	CreatedAt  int64  `db:"q_created_at"`
}

// ClaimWebhookDeliveries claims up to limit due rows (see the top), each
// with its webhook as it is now.
func (db *DB) ClaimWebhookDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]webhook.Delivery, error) {
	return claimDue(ctx, db, webhookQueue, now, lease, limit, func(tx *sqlx.Tx, r claimedRow) (webhook.Delivery, error) {
		var h webhookRow
		if err := tx.GetContext(ctx, &h, tx.Rebind(`SELECT `+webhookColumns+` FROM webhooks WHERE id = ?`), r.WebhookID); err != nil {
			return webhook.Delivery{}, err
		}
		return webhook.Delivery{ID: r.ID, Topic: r.Topic, ResourceID: r.ResourceID, Attempts: r.Attempts,
			CreatedAt: sqlcore.UnixUTC(r.CreatedAt), Hook: h.hook()}, nil
	})
}

// webhookQueue is the webhook queue as a lease queue (claimDue).
var webhookQueue = leaseQueue{name: "webhooks", table: "webhook_queue", done: "delivered_at",
	returning: "id AS q_id, topic AS q_topic, resource_id, attempts, created_at AS q_created_at, webhook_id"}

// claimedRow is a claimed queue row with its webhook's id.
type claimedRow struct {
	queueRow
	WebhookID int64 `db:"webhook_id"`
}

// insertLogTx records an attempt and keeps the webhook's last keep.
func insertLogTx(ctx context.Context, tx *sqlx.Tx, e webhook.LogEntry, keep int) error {
	headers, _ := json.Marshal(e.RequestHeaders)
	// INSERT … SELECT from the webhook: nothing when it was deleted while
	// the attempt ran.
	if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO webhook_log (webhook_id, queue_id, delivery_id, topic, at, request_url, request_headers,
			request_body_size, response_code, response_error, duration_ms) SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM webhooks WHERE id = ?`),
		e.QueueID, e.DeliveryID, e.Topic, e.At.Unix(), e.RequestURL, string(headers), e.RequestBodySize,
		e.ResponseCode, truncateError(e.ResponseError), e.Duration.Milliseconds(), e.WebhookID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM webhook_log WHERE webhook_id = ? AND id <= (
		SELECT id FROM webhook_log WHERE webhook_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`), e.WebhookID, e.WebhookID, keep)
	return err
}

// WebhookDelivered records a delivered attempt.
func (db *DB) WebhookDelivered(ctx context.Context, d webhook.Delivery, e webhook.LogEntry, keep int, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_queue SET delivered_at = ?, failed_at = NULL, last_error = '' WHERE id = ? AND delivered_at IS NULL`),
			now.Unix(), d.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhooks SET failure_count = 0 WHERE id = ? AND failure_count <> 0`), d.Hook.ID); err != nil {
			return err
		}
		return insertLogTx(ctx, tx, e, keep)
	})
}

// WebhookFailed records a failed attempt (webhook.Store).
func (db *DB) WebhookFailed(ctx context.Context, d webhook.Delivery, e webhook.LogEntry, next time.Time, giveUp bool, maxFailures, keep int, now time.Time) (disabled bool, err error) {
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		disabled = false
		var failedAt any
		if giveUp {
			failedAt = now.Unix()
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_queue SET next_attempt_at = ?, last_error = ?, failed_at = ?
			WHERE id = ? AND attempts = ? AND delivered_at IS NULL AND failed_at IS NULL`),
			next.Unix(), truncateError(e.ResponseError), failedAt, d.ID, d.Attempts)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // the claim is no longer current
		}
		if err := insertLogTx(ctx, tx, e, keep); err != nil {
			return err
		}
		var count int
		if err := tx.GetContext(ctx, &count, tx.Rebind(`UPDATE webhooks SET failure_count = failure_count + 1 WHERE id = ? RETURNING failure_count`), d.Hook.ID); err != nil {
			return sqlcore.NoRow(err, nil)
		}
		if count < maxFailures {
			return nil
		}
		res, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE webhooks SET status = ?, modified_at = ? WHERE id = ? AND status = ?`),
			webhook.StatusDisabled, now.Unix(), d.Hook.ID, webhook.StatusActive)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		disabled = true
		if err := giveUpQueuedTx(ctx, tx, d.Hook.ID, "the webhook is disabled", now); err != nil {
			return err
		}
		ref := strconv.FormatInt(d.Hook.ID, 10)
		return sqlcore.EnqueueMailTx(ctx, tx, webhook.KindDisabled, ref, webhook.KindDisabled+":"+ref+":"+strconv.FormatInt(now.Unix(), 10), now)
	})
	return disabled, err
}

// DropWebhookDelivery gives up a claimed row without an attempt.
func (db *DB) DropWebhookDelivery(ctx context.Context, d webhook.Delivery, reason string, now time.Time) error {
	return db.Exec(ctx, `UPDATE webhook_queue SET failed_at = ?, last_error = ? WHERE id = ? AND attempts = ? AND delivered_at IS NULL AND failed_at IS NULL`,
		now.Unix(), truncateError(reason), d.ID, d.Attempts)
}

type webhookLogRow struct {
	ID              int64  `db:"id"`
	WebhookID       int64  `db:"webhook_id"`
	QueueID         int64  `db:"queue_id"`
	DeliveryID      string `db:"delivery_id"`
	Topic           string `db:"topic"`
	At              int64  `db:"at"`
	RequestURL      string `db:"request_url"`
	RequestHeaders  string `db:"request_headers"`
	RequestBodySize int    `db:"request_body_size"`
	ResponseCode    int    `db:"response_code"`
	ResponseError   string `db:"response_error"`
	DurationMS      int64  `db:"duration_ms"`
}

func (r webhookLogRow) entry() webhook.LogEntry {
	e := webhook.LogEntry{ID: r.ID, WebhookID: r.WebhookID, QueueID: r.QueueID, DeliveryID: r.DeliveryID, Topic: r.Topic, At: sqlcore.UnixUTC(r.At),
		RequestURL: r.RequestURL, RequestBodySize: r.RequestBodySize, ResponseCode: r.ResponseCode, ResponseError: r.ResponseError,
		Duration: time.Duration(r.DurationMS) * time.Millisecond}
	_ = json.Unmarshal([]byte(r.RequestHeaders), &e.RequestHeaders)
	return e
}

// WebhookLog lists a webhook's attempts, newest first.
func (db *DB) WebhookLog(ctx context.Context, webhookID int64, limit int) ([]webhook.LogEntry, error) {
	return sqlcore.SelectAs(ctx, db.Write, webhookLogRow.entry, `SELECT id, webhook_id, queue_id, delivery_id, topic, at, request_url, request_headers,
		request_body_size, response_code, response_error, duration_ms FROM webhook_log WHERE webhook_id = ? ORDER BY id DESC`+sqlcore.Limit(limit), webhookID)
}

// DeleteDoneWebhookDeliveries deletes delivered and given-up queue rows
// created before before.
func (db *DB) DeleteDoneWebhookDeliveries(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM webhook_queue WHERE created_at < ? AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)`), before.Unix())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
