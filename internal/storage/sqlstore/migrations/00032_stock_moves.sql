-- +goose Up
-- stock_moves counts the times orders took or returned a product's stock
-- since its count was last written by a versioned save (an admin edit, an
-- import), which sets it back to 0. Orders do not make a new version, so an
-- admin save that names a count without the count its form was loaded with
-- is written only while stock_moves is 0: the sales since the version it
-- is based on are never overwritten (sqlstore/stock_edit.go).
ALTER TABLE products ADD COLUMN stock_moves INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN stock_moves BIGINT NOT NULL DEFAULT 0;   -- @postgres

-- +goose Down
ALTER TABLE products DROP COLUMN stock_moves;
