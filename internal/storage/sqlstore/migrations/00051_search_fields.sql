-- +goose Up
-- Search ranks by where a query matches: the name, then the SKU, the
-- categories, the attribute values, the short description, and last the
-- description with the tag names (catalog.SearchDoc). The index gets a
-- column per tier; on PostgreSQL the document vector covers them all. The
-- index is emptied, so sqlstore.(*DB).Migrate rebuilds it (the folding is
-- Go code), vocabulary included.
-- @begin sqlite
DROP TABLE products_fts;
CREATE VIRTUAL TABLE products_fts USING fts5(
    name, sku, cats, attrs, short, body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '1 2 3 4'
);
-- @end sqlite
-- @begin postgres
DELETE FROM product_search;
DROP INDEX product_search_doc;
ALTER TABLE product_search DROP COLUMN doc_tsv;
ALTER TABLE product_search
    ADD COLUMN cats TEXT NOT NULL DEFAULT '',
    ADD COLUMN attrs TEXT NOT NULL DEFAULT '',
    ADD COLUMN short TEXT NOT NULL DEFAULT '';
ALTER TABLE product_search ADD COLUMN doc_tsv TSVECTOR GENERATED ALWAYS AS (
    strip(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))
    || search_prefixes(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))) STORED;
CREATE INDEX product_search_doc ON product_search USING GIN (doc_tsv);
-- @end postgres

-- +goose Down
-- @begin sqlite
DROP TABLE products_fts;
CREATE VIRTUAL TABLE products_fts USING fts5(
    name, sku, body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '1 2 3 4'
);
-- @end sqlite
-- @begin postgres
DELETE FROM product_search;
DROP INDEX product_search_doc;
ALTER TABLE product_search DROP COLUMN doc_tsv;
ALTER TABLE product_search DROP COLUMN cats, DROP COLUMN attrs, DROP COLUMN short;
ALTER TABLE product_search ADD COLUMN doc_tsv TSVECTOR GENERATED ALWAYS AS (
    strip(to_tsvector('simple', name || ' ' || sku || ' ' || body))
    || search_prefixes(to_tsvector('simple', name || ' ' || sku || ' ' || body))) STORED;
CREATE INDEX product_search_doc ON product_search USING GIN (doc_tsv);
-- @end postgres
