-- +goose Up
-- Webhooks (internal/webhook), in WooCommerce's terms: a topic
-- (order.created …), a delivery URL, a secret that signs each body, a
-- status (active, paused, disabled) and the count of consecutive failed
-- deliveries (5 disable the webhook).
CREATE TABLE webhooks (
    id            INTEGER PRIMARY KEY,                                     -- @sqlite
    id            BIGSERIAL PRIMARY KEY,                                   -- @postgres
    name          TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('active', 'paused', 'disabled')),
    topic         TEXT NOT NULL,
    delivery_url  TEXT NOT NULL,
    secret        TEXT NOT NULL,
    api_version   TEXT NOT NULL DEFAULT 'wp_api_v3',
    failure_count INTEGER NOT NULL DEFAULT 0,
    user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,       -- @sqlite
    user_id       BIGINT REFERENCES users (id) ON DELETE SET NULL,        -- @postgres
    created_at    BIGINT NOT NULL,  -- unix seconds
    modified_at   BIGINT            -- unix seconds; NULL: never changed
);
-- An event finds its webhooks by topic (one INSERT … SELECT in the
-- transaction of the change).
CREATE INDEX webhooks_topic ON webhooks (topic, status);

-- The delivery queue, shared by every instance: one row per event and
-- webhook, written in the transaction of the change it reports, claimed
-- with a lease like the mail outbox (attempts and next_attempt_at checked
-- by a conditional UPDATE). topic 'ping' is the ping sent on creation.
CREATE TABLE webhook_queue (
    id              INTEGER PRIMARY KEY,                                               -- @sqlite
    id              BIGSERIAL PRIMARY KEY,                                             -- @postgres
    webhook_id      INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,      -- @sqlite
    webhook_id      BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,       -- @postgres
    topic           TEXT NOT NULL,
    resource_id     BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    delivered_at    BIGINT,
    failed_at       BIGINT,
    last_error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX webhook_queue_due ON webhook_queue (next_attempt_at, id) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX webhook_queue_hook ON webhook_queue (webhook_id);

-- The delivery log: one row per attempt, the last few per webhook.
CREATE TABLE webhook_log (
    id                INTEGER PRIMARY KEY,                                             -- @sqlite
    id                BIGSERIAL PRIMARY KEY,                                           -- @postgres
    webhook_id        INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,    -- @sqlite
    webhook_id        BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,     -- @postgres
    queue_id          BIGINT NOT NULL,
    delivery_id       TEXT NOT NULL,    -- X-WC-Webhook-Delivery-ID
    topic             TEXT NOT NULL,
    at                BIGINT NOT NULL,  -- unix seconds
    request_url       TEXT NOT NULL,
    request_headers   TEXT NOT NULL,    -- JSON object
    request_body_size INTEGER NOT NULL,
    response_code     INTEGER NOT NULL, -- 0: no answer
    response_error    TEXT NOT NULL DEFAULT '',
    duration_ms       INTEGER NOT NULL
);
CREATE INDEX webhook_log_hook ON webhook_log (webhook_id, id);

-- +goose Down
DROP TABLE webhook_log;
DROP TABLE webhook_queue;
DROP TABLE webhooks;
