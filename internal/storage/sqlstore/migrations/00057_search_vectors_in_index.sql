-- +goose Up
-- PostgreSQL's search vectors live in their GIN indexes only (decision
-- 0123). The table kept them as stored columns, and with every lexeme's
-- one- to eight-character prefixes (00004) the document vector made a row
-- about 2.2 kB, kept whole in the heap (toast_tuple_target 8160): a
-- search reads a candidate's row for its id and its field ranks, so 1,000
-- candidates read about 900 heap pages, and 100,000 products (238 MB)
-- did not stay in shared buffers. The indexes are now on the vectors as
-- expressions of the text columns (search_vector), the same lexemes as the
-- columns held, so the matches and their order are unchanged; a row is its
-- folded text (about 350 bytes for the generated catalogue), and a
-- search reads it without the vectors. The index is never rechecked
-- against the row for these queries (plain &, | and prefix lexemes), so
-- the vectors are computed only when a row is written.
--
-- The table is copied in its heap order (a common word's candidates are
-- the first SearchCandidates in that order, as before) and renamed.
-- search_vector uses only pg_catalog's functions, so it computes the same
-- under any search_path. The indexes' columns keep no statistics: with
-- them the planner read the table in order for a common word ("wash",
-- 71,000 matches), computing the vector row by row (0.65 ms a row);
-- without, it always asks the index.
-- SQLite's FTS5 index is unchanged.
-- @begin postgres
-- +goose StatementBegin
CREATE FUNCTION search_vector(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT pg_catalog.strip(v) || pg_catalog.array_to_tsvector(ARRAY(
        SELECT DISTINCT pg_catalog.left(l, k) || '*'
        FROM pg_catalog.unnest(pg_catalog.tsvector_to_array(v)) AS l, pg_catalog.generate_series(1, 8) AS k
        WHERE pg_catalog.char_length(l) >= k))
    FROM pg_catalog.to_tsvector('pg_catalog.simple', t) AS v
$$;
-- +goose StatementEnd
CREATE TABLE product_search_v (
    product_id BIGINT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    sku        TEXT NOT NULL,
    cats       TEXT NOT NULL DEFAULT '',
    attrs      TEXT NOT NULL DEFAULT '',
    short      TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL
);
INSERT INTO product_search_v (product_id, name, sku, cats, attrs, short, body)
    SELECT product_id, name, sku, cats, attrs, short, body FROM product_search ORDER BY ctid;
DROP TABLE product_search;
ALTER TABLE product_search_v RENAME TO product_search;
ALTER TABLE product_search RENAME CONSTRAINT product_search_v_pkey TO product_search_pkey;
ALTER TABLE product_search RENAME CONSTRAINT product_search_v_product_id_fkey TO product_search_product_id_fkey;
-- No parallel scans: a search reads at most a few thousand short rows,
-- and workers would hand back a common word's first candidates in no
-- fixed order.
ALTER TABLE product_search SET (parallel_workers = 0);
CREATE INDEX product_search_name ON product_search USING GIN (search_vector(name));
CREATE INDEX product_search_doc ON product_search USING GIN (
    search_vector(name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body));
ALTER INDEX product_search_name ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX product_search_doc ALTER COLUMN 1 SET STATISTICS 0;
ANALYZE product_search;
-- @end postgres

-- +goose Down
-- @begin postgres
ALTER TABLE product_search RESET (parallel_workers);
DROP INDEX product_search_name;
DROP INDEX product_search_doc;
ALTER TABLE product_search SET (toast_tuple_target = 8160);
ALTER TABLE product_search
    ADD COLUMN name_tsv TSVECTOR GENERATED ALWAYS AS (
        strip(to_tsvector('simple', name)) || search_prefixes(to_tsvector('simple', name))) STORED,
    ADD COLUMN doc_tsv TSVECTOR GENERATED ALWAYS AS (
        strip(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))
        || search_prefixes(to_tsvector('simple', name || ' ' || sku || ' ' || cats || ' ' || attrs || ' ' || short || ' ' || body))) STORED;
CREATE INDEX product_search_name ON product_search USING GIN (name_tsv);
CREATE INDEX product_search_doc ON product_search USING GIN (doc_tsv);
DROP FUNCTION search_vector(text);
-- @end postgres
