-- +goose Up
-- Listings sorted by price, in both directions, read in index order instead
-- of sorting every product: status is the equality prefix, products without
-- a price go last, and catalogue visibility is in the index so rows are
-- filtered (and a deep page's skipped rows passed over) without reading the
-- table. The ORDER BY in QueryProducts matches these expressions exactly.
CREATE INDEX products_price_asc ON products (status, (sort_price IS NULL), sort_price, id, catalog_visibility) WHERE parent_id IS NULL;
CREATE INDEX products_price_desc ON products (status, (sort_price IS NULL), sort_price DESC, id DESC, catalog_visibility) WHERE parent_id IS NULL;

-- +goose Down
DROP INDEX products_price_desc;            -- @sqlite
DROP INDEX IF EXISTS products_price_desc;  -- @postgres
DROP INDEX products_price_asc;             -- @sqlite
DROP INDEX IF EXISTS products_price_asc;   -- @postgres
