-- +goose Up
-- Server-side carts. A session is a guest's cart ("t_" + 30 hex) with its
-- customer data (addresses, chosen shipping rate) as JSON; lines are keyed by
-- the cart line key (md5 of product, variation and options). Expired
-- sessions are deleted with their lines (DeleteExpiredCarts).
CREATE TABLE cart_sessions (
    id         TEXT PRIMARY KEY,
    customer   TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMP NOT NULL,    -- @sqlite
    created_at TIMESTAMPTZ NOT NULL,  -- @postgres
    updated_at TIMESTAMP NOT NULL,    -- @sqlite
    updated_at TIMESTAMPTZ NOT NULL,  -- @postgres
    expires_at BIGINT NOT NULL -- unix seconds: compared in SQL the same way on both engines
);
CREATE INDEX cart_sessions_expires ON cart_sessions (expires_at);

CREATE TABLE cart_lines (
    session_id   TEXT NOT NULL REFERENCES cart_sessions (id) ON DELETE CASCADE,
    line_key     TEXT NOT NULL,
    product_id   BIGINT NOT NULL,
    variation_id BIGINT NOT NULL DEFAULT 0,
    attributes   TEXT NOT NULL DEFAULT '[]',
    quantity     BIGINT NOT NULL CHECK (quantity > 0),
    unit_price   BIGINT NOT NULL,
    position     INTEGER NOT NULL,
    PRIMARY KEY (session_id, line_key)
);

-- Server-wide settings, such as the secret that signs session cookies,
-- Cart-Tokens and nonces, shared by every instance on one store.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE settings;
DROP TABLE cart_lines;
DROP TABLE cart_sessions;
