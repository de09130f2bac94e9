-- +goose Up
-- Tax rates moved in from WooCommerce are remembered by their old ids too
-- (kind 'tax'): a re-run links them instead of adding them again. The
-- kinds are a CHECK, so the table is rebuilt with the new list.
CREATE TABLE legacy_ids_next (
    kind        TEXT NOT NULL CHECK (kind IN ('product', 'variation', 'category', 'tag', 'attribute', 'term',
                                              'customer', 'order', 'refund', 'review', 'coupon', 'page', 'media', 'tax')),
    old_id      BIGINT NOT NULL,
    new_id      BIGINT NOT NULL,
    old_path    TEXT NOT NULL DEFAULT '',
    digest      TEXT NOT NULL DEFAULT '',
    imported_at BIGINT NOT NULL,
    PRIMARY KEY (kind, old_id)
);
INSERT INTO legacy_ids_next (kind, old_id, new_id, old_path, digest, imported_at)
    SELECT kind, old_id, new_id, old_path, digest, imported_at FROM legacy_ids;
DROP TABLE legacy_ids;
ALTER TABLE legacy_ids_next RENAME TO legacy_ids;
CREATE INDEX legacy_ids_path ON legacy_ids (old_path);
CREATE INDEX legacy_ids_new ON legacy_ids (kind, new_id);

-- +goose Down
CREATE TABLE legacy_ids_prev (
    kind        TEXT NOT NULL CHECK (kind IN ('product', 'variation', 'category', 'tag', 'attribute', 'term',
                                              'customer', 'order', 'refund', 'review', 'coupon', 'page', 'media')),
    old_id      BIGINT NOT NULL,
    new_id      BIGINT NOT NULL,
    old_path    TEXT NOT NULL DEFAULT '',
    digest      TEXT NOT NULL DEFAULT '',
    imported_at BIGINT NOT NULL,
    PRIMARY KEY (kind, old_id)
);
INSERT INTO legacy_ids_prev (kind, old_id, new_id, old_path, digest, imported_at)
    SELECT kind, old_id, new_id, old_path, digest, imported_at FROM legacy_ids WHERE kind <> 'tax';
DROP TABLE legacy_ids;
ALTER TABLE legacy_ids_prev RENAME TO legacy_ids;
CREATE INDEX legacy_ids_path ON legacy_ids (old_path);
CREATE INDEX legacy_ids_new ON legacy_ids (kind, new_id);
