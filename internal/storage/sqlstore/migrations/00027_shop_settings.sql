-- +goose Up
-- Settings staff save in the admin (internal/settings): named JSON
-- documents with a version for optimistic concurrency. A shop that never
-- saved runs on its flags (no row).
CREATE TABLE shop_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,   -- JSON
    version    INTEGER NOT NULL,                     -- @sqlite
    version    BIGINT NOT NULL,                      -- @postgres
    updated_at INTEGER NOT NULL     -- unix seconds  -- @sqlite
    updated_at BIGINT NOT NULL     -- unix seconds   -- @postgres
);

-- +goose Down
DROP TABLE shop_settings;
