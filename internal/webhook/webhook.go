// Package webhook is the shop's webhooks, in WooCommerce's terms: a
// webhook sends a topic's events (order.created, product.updated,
// coupon.deleted, customer.created …) to a delivery URL, each body signed with the
// webhook's secret (X-WC-Webhook-Signature: base64 HMAC-SHA256).
//
// Events are queued in the store in the transaction of the change they
// report (sqlcore.EnqueueWebhooksTx: one row per active webhook of the
// topic), so a change that committed is delivered even if the process
// dies right after. A Worker on every instance claims due rows with a
// lease (as the mail outbox does), builds the resource's current REST v3
// JSON, posts it and records the attempt in the delivery log. A failed
// attempt is retried with a growing delay; 5 failed attempts in a row
// disable the webhook, and staff are told by mail (KindDisabled).
//
// Delivery URLs that resolve to loopback, private, link-local or other
// internal addresses are refused when a webhook is saved and again at
// dial time (the address actually connected to), unless AllowPrivate.
// Redirects are never followed and an attempt gives up after 5 s.
//
// The package speaks no incoming HTTP: internal/adminapi serves the
// /wp-json/wc/v3/webhooks routes with the Service.
package webhook

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Statuses of a webhook, as WooCommerce spells them.
const (
	StatusActive   = "active"
	StatusPaused   = "paused"
	StatusDisabled = "disabled"
)

// APIVersion is the only payload version: the REST API v3's JSON.
const APIVersion = "wp_api_v3"

// TopicPing is the queue's topic of the ping sent when an active webhook
// is created: a form body webhook_id=<id>, no X-WC-Webhook headers.
const TopicPing = "ping"

// MaxFailures consecutive failed deliveries disable a webhook
// (WooCommerce's default).
const MaxFailures = 5

// Topics are the topics the shop raises, with the WordPress hook names
// WooCommerce lists for each (the "hooks" field).
var Topics = map[string][]string{
	"order.created":    {"woocommerce_new_order"},
	"order.updated":    {"woocommerce_process_shop_order_meta", "woocommerce_update_order", "woocommerce_order_refunded"},
	"order.deleted":    {"wp_trash_post"},
	"product.created":  {"woocommerce_process_product_meta", "woocommerce_new_product", "woocommerce_new_product_variation"},
	"product.updated":  {"woocommerce_process_product_meta", "woocommerce_update_product", "woocommerce_update_product_variation"},
	"product.deleted":  {"wp_trash_post"},
	"product.restored": {"untrashed_post"},
	"coupon.created":   {"woocommerce_process_shop_coupon_meta", "woocommerce_new_coupon"},
	"coupon.updated":   {"woocommerce_process_shop_coupon_meta", "woocommerce_update_coupon"},
	"coupon.deleted":   {"wp_trash_post"},
	// Customers: accounts whose role is customer (sqlcore.EnqueueCustomerWebhooksTx).
	"customer.created": {"user_register", "woocommerce_created_customer", "woocommerce_new_customer"},
	"customer.updated": {"profile_update", "woocommerce_update_customer"},
	"customer.deleted": {"delete_user"},
}

// Split is a topic's resource and event: "order.created" → order, created.
func Split(topic string) (resource, event string) {
	resource, event, _ = strings.Cut(topic, ".")
	return resource, event
}

// Hook is a stored webhook.
type Hook struct {
	ID           int64
	Name         string
	Status       string
	Topic        string
	DeliveryURL  string
	Secret       string `json:"-"`
	APIVersion   string
	FailureCount int
	UserID       int64
	CreatedAt    time.Time
	ModifiedAt   time.Time // zero: never changed
}

// Delivery is a claimed row of the queue with its webhook.
type Delivery struct {
	ID         int64
	Topic      string
	ResourceID int64
	Attempts   int // including this one
	CreatedAt  time.Time
	Hook       Hook
}

// LogEntry is one attempt in the delivery log.
type LogEntry struct {
	ID              int64
	WebhookID       int64
	QueueID         int64
	DeliveryID      string
	Topic           string
	At              time.Time
	RequestURL      string
	RequestHeaders  map[string]string
	RequestBodySize int
	ResponseCode    int // 0: no answer
	ResponseError   string
	Duration        time.Duration
}

// Store keeps webhooks, their queue and their log (sqlstore.DB).
type Store interface {
	// InsertWebhook stores h and, when ping, queues its ping in the same
	// transaction.
	InsertWebhook(ctx context.Context, h *Hook, ping bool, now time.Time) (int64, error)
	Webhook(ctx context.Context, id int64) (*Hook, error) // ErrNotFound
	// Webhooks lists webhooks oldest first, those in status if set.
	Webhooks(ctx context.Context, status string) ([]Hook, error)
	// UpdateWebhook saves h's name, status, topic, URL, secret and
	// failure count (ErrNotFound). A webhook leaving "active" gives up its
	// queued deliveries.
	UpdateWebhook(ctx context.Context, h *Hook, now time.Time) error
	DeleteWebhook(ctx context.Context, id int64) error // ErrNotFound
	// ClaimWebhookDeliveries claims up to limit due rows for lease.
	ClaimWebhookDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Delivery, error)
	// WebhookDelivered records a delivered attempt of the current claim:
	// the row is done, the webhook's failure count back to 0, the log
	// entry kept (the webhook's last keep).
	WebhookDelivered(ctx context.Context, d Delivery, e LogEntry, keep int, now time.Time) error
	// WebhookFailed records a failed attempt of the current claim: the
	// webhook's failure count grows by one; at maxFailures the webhook is
	// disabled, its queued rows given up and a KindDisabled mail queued
	// (disabled reports it); else the row is due again at next, or given
	// up when giveUp.
	WebhookFailed(ctx context.Context, d Delivery, e LogEntry, next time.Time, giveUp bool, maxFailures, keep int, now time.Time) (disabled bool, err error)
	// DropWebhookDelivery gives up a claimed row without an attempt (its
	// webhook is no longer active, its resource is gone).
	DropWebhookDelivery(ctx context.Context, d Delivery, reason string, now time.Time) error
	// WebhookLog lists a webhook's attempts, newest first, at most limit.
	WebhookLog(ctx context.Context, webhookID int64, limit int) ([]LogEntry, error)
	// DeleteDoneWebhookDeliveries deletes the queue's delivered and
	// given-up rows created before before (their attempts stay in the log).
	DeleteDoneWebhookDeliveries(ctx context.Context, before time.Time) (int64, error)
}

// QueueRetention is how long delivered and given-up rows stay in the
// queue (the delivery log keeps the attempts).
const QueueRetention = 7 * 24 * time.Hour

// Errors.
var (
	ErrNotFound = errors.New("webhook: not found")
	// ErrGone is the payload's answer when the resource no longer exists:
	// the delivery is dropped.
	ErrGone = errors.New("webhook: the resource is gone")
)

// InputError is a refused field: Param names it (WooCommerce's), Code is
// the woocommerce_rest_… code.
type InputError struct {
	Param, Code, Message string
}

func (e *InputError) Error() string { return e.Message }
