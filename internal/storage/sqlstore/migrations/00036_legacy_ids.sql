-- +goose Up
-- What a shop that moved in from WooCommerce had, by its old ids
-- (internal/wcimport): each imported object's new id, the path its old
-- permalink answered on, and a digest of the source's record as last
-- imported. A re-run updates by old id instead of duplicating and skips
-- what did not change; an old link resolves to its new page.
CREATE TABLE legacy_ids (
    kind        TEXT NOT NULL CHECK (kind IN ('product', 'variation', 'category', 'tag', 'attribute', 'term',
                                              'customer', 'order', 'refund', 'review', 'coupon', 'page', 'media')),
    old_id      BIGINT NOT NULL,
    new_id      BIGINT NOT NULL,
    old_path    TEXT NOT NULL DEFAULT '',  -- the old permalink's path ("/product/hoodie/"); '' when none
    digest      TEXT NOT NULL DEFAULT '',  -- hex SHA-256 of the source's record as imported
    imported_at BIGINT NOT NULL,           -- unix seconds
    PRIMARY KEY (kind, old_id)
);
CREATE INDEX legacy_ids_path ON legacy_ids (old_path);
CREATE INDEX legacy_ids_new ON legacy_ids (kind, new_id);

-- A migration's progress per resource, so an interrupted run resumes after
-- the last page it finished. A run that completes a resource deletes its row.
CREATE TABLE import_progress (
    source     TEXT NOT NULL,     -- the old shop's origin ("https://old-shop.example")
    resource   TEXT NOT NULL,     -- "products", "customers", "orders", …
    pages_done INTEGER NOT NULL,  -- pages of 100 finished, in the source's order
    updated_at BIGINT NOT NULL,   -- unix seconds
    PRIMARY KEY (source, resource)
);

-- +goose Down
DROP TABLE import_progress;
DROP TABLE legacy_ids;
