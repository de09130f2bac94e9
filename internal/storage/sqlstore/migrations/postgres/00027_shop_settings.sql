-- +goose Up
-- Settings staff save in the admin (internal/settings): named JSON
-- documents with a version for optimistic concurrency. A shop that never
-- saved runs on its flags (no row).
CREATE TABLE shop_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,   -- JSON
    version    BIGINT NOT NULL,
    updated_at BIGINT NOT NULL     -- unix seconds
);

-- +goose Down
DROP TABLE shop_settings;
