-- +goose Up
-- Orders. An order is written in one transaction with its lines, its meta
-- (order attribution and others) and its checkout attempt, while the cart it
-- came from is emptied and stock is taken. Money is integer minor units of
-- the order's currency; times are unix seconds so both engines compare them
-- the same way. payment_state and the provider columns are the wallet's
-- recovery points (none, wallet_order_created, approved, capture_requested,
-- paid, failed).
CREATE TABLE orders (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id                   BIGSERIAL PRIMARY KEY,              -- @postgres
    order_key            TEXT NOT NULL UNIQUE,
    status               TEXT NOT NULL,
    currency             TEXT NOT NULL,
    prices_include_tax   INTEGER NOT NULL DEFAULT 0,      -- @sqlite
    prices_include_tax   BOOLEAN NOT NULL DEFAULT FALSE,  -- @postgres
    billing              TEXT NOT NULL DEFAULT '{}', -- JSON address
    shipping             TEXT NOT NULL DEFAULT '{}', -- JSON address
    billing_email        TEXT NOT NULL DEFAULT '',
    customer_note        TEXT NOT NULL DEFAULT '',
    payment_method       TEXT NOT NULL DEFAULT '',
    payment_method_title TEXT NOT NULL DEFAULT '',
    transaction_id       TEXT NOT NULL DEFAULT '',
    shipping_lines       TEXT NOT NULL DEFAULT '[]', -- JSON
    tax_lines            TEXT NOT NULL DEFAULT '[]', -- JSON
    items_subtotal       BIGINT NOT NULL,
    items_tax            BIGINT NOT NULL,
    shipping_total       BIGINT NOT NULL,
    shipping_tax         BIGINT NOT NULL,
    discount_total       BIGINT NOT NULL DEFAULT 0,
    total_tax            BIGINT NOT NULL,
    total                BIGINT NOT NULL CHECK (total >= 0),
    cart_session         TEXT NOT NULL DEFAULT '',
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL,
    paid_at              BIGINT,
    payment_state        TEXT NOT NULL DEFAULT 'none',
    provider_order_id    TEXT NOT NULL DEFAULT '',
    provider_request_id  TEXT NOT NULL DEFAULT '',
    capture_id           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX orders_payment_state ON orders (payment_state, updated_at);
CREATE INDEX orders_provider_order ON orders (provider_order_id) WHERE provider_order_id <> '';
-- A session's own orders (the wallet's open orders, by status).
CREATE INDEX orders_cart_session ON orders (cart_session, status);

CREATE TABLE order_lines (
    order_id     BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    product_id   BIGINT NOT NULL,
    variation_id BIGINT NOT NULL DEFAULT 0,
    name         TEXT NOT NULL,
    sku          TEXT NOT NULL DEFAULT '',
    attributes   TEXT NOT NULL DEFAULT '[]', -- JSON [{attribute, value}] as shown
    quantity     BIGINT NOT NULL CHECK (quantity > 0),
    unit_price   BIGINT NOT NULL,
    subtotal     BIGINT NOT NULL,
    subtotal_tax BIGINT NOT NULL,
    total        BIGINT NOT NULL,
    total_tax    BIGINT NOT NULL,
    PRIMARY KEY (order_id, position)
);

CREATE TABLE order_meta (
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    meta_key TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (order_id, meta_key)
);

-- Idempotency keys: one row per (scope, key); a replay with the same request
-- hash returns order_id, a different hash is refused.
CREATE TABLE checkout_attempts (
    scope        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    order_id     BIGINT REFERENCES orders (id) ON DELETE CASCADE,
    status       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX checkout_attempts_recent ON checkout_attempts (scope, request_hash, created_at);

-- Provider webhook events already handled (dedupe by event id).
CREATE TABLE webhook_events (
    event_id    TEXT PRIMARY KEY,
    received_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE webhook_events;
DROP TABLE checkout_attempts;
DROP TABLE order_meta;
DROP TABLE order_lines;
DROP TABLE orders;
