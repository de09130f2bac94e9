-- +goose Up
-- The search index: one row per published product that is not hidden
-- (shop and Store API search both read it; each adds its visibility filter). The text is folded in Go
-- (catalog.FoldSearch: no accents, lower case, words split on anything but
-- letters and digits), so the 'simple' configuration (no stemming, no stop
-- words) and no unaccent extension are needed, and both engines see the
-- same words. SaveProduct keeps it in step in the same transaction as the
-- product. Existing products are indexed by sqlstore.(*DB).Migrate when it
-- finds the index empty and searchable products in the store.
CREATE TABLE product_search (
    product_id BIGINT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    sku        TEXT NOT NULL,
    body       TEXT NOT NULL,
    name_tsv   TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', name)) STORED,
    doc_tsv    TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', name || ' ' || sku || ' ' || body)) STORED
);
CREATE INDEX product_search_name ON product_search USING GIN (name_tsv);
CREATE INDEX product_search_doc ON product_search USING GIN (doc_tsv);

-- +goose Down
DROP TABLE IF EXISTS product_search;
