-- +goose Up
-- The admin's product editing (internal/catalog/admin.go).
-- version counts the writes of a product through the admin: an edit names
-- the version it was based on and is refused when another one came in
-- between (optimistic concurrency). publish_at is when a scheduled product
-- (status 'future') goes live.
ALTER TABLE products ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
ALTER TABLE products ADD COLUMN publish_at TIMESTAMP;    -- @sqlite
ALTER TABLE products ADD COLUMN publish_at TIMESTAMPTZ;  -- @postgres
CREATE INDEX products_scheduled ON products (publish_at) WHERE status = 'future';

-- +goose Down
DROP INDEX products_scheduled;
ALTER TABLE products DROP COLUMN publish_at;
ALTER TABLE products DROP COLUMN version;
