-- +goose Up
-- REST API keys (internal/integration), kept as WooCommerce keeps them:
-- the consumer key only as its HMAC-SHA256 keyed "wc-api" (hex), the
-- secret as is (OAuth 1.0a signatures are checked with it), the key's
-- last 7 characters for lists. A key acts as its user; it goes with them.
CREATE TABLE api_keys (
    id              INTEGER PRIMARY KEY,                                        -- @sqlite
    id              BIGSERIAL PRIMARY KEY,                                      -- @postgres
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    description     TEXT NOT NULL,
    permissions     TEXT NOT NULL CHECK (permissions IN ('read', 'write', 'read_write')),
    consumer_key    TEXT NOT NULL UNIQUE,   -- hex HMAC-SHA256("wc-api", ck_…)
    consumer_secret TEXT NOT NULL,          -- cs_…
    truncated_key   TEXT NOT NULL,          -- the key's last 7 characters
    created_at      BIGINT NOT NULL,        -- unix seconds
    last_access     BIGINT                  -- unix seconds, written at most once a minute; NULL: never used
);
CREATE INDEX api_keys_user ON api_keys (user_id);

-- OAuth 1.0a nonces already accepted, per key, so each is accepted once on
-- every instance: spending is one INSERT … ON CONFLICT DO NOTHING. A row is
-- kept until its timestamp leaves the 15-minute window (expires_at), after
-- which the request is refused for its timestamp anyway; the upkeep loop
-- deletes rows past it.
CREATE TABLE api_key_nonces (
    key_id     INTEGER NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,  -- @sqlite
    key_id     BIGINT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,   -- @postgres
    nonce_hash TEXT NOT NULL,    -- hex SHA-256 of oauth_nonce
    expires_at BIGINT NOT NULL,  -- unix seconds: oauth_timestamp + 15 minutes
    PRIMARY KEY (key_id, nonce_hash)
);
CREATE INDEX api_key_nonces_expires ON api_key_nonces (expires_at);

-- +goose Down
DROP TABLE api_key_nonces;
DROP TABLE api_keys;
