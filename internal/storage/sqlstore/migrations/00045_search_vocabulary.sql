-- +goose Up
-- Typo-tolerant search, the same way on both engines (decision 0104).
--
-- search_words is the vocabulary of the search index: every folded word
-- (catalog.FoldSearch) of a product's name and body, without digits (SKUs
-- are matched exactly, never corrected). search_word_deletes holds, for
-- each vocabulary word, the strings made by deleting one character (words
-- of 4 letters) or up to two (5 or more): a query word's own deletions
-- looked up here give every vocabulary word within the allowed edit
-- distance (catalog.TypoDistance), which Go then checks exactly. Both are
-- filled as products are indexed, in the same transaction, and never
-- shrink: a word no product uses any more only yields a correction that
-- matches nothing. The primary keys are byte-ordered ("C" collation on
-- PostgreSQL), so a prefix is one index range.
CREATE TABLE search_words (
    word TEXT PRIMARY KEY                 -- @sqlite
    word TEXT COLLATE "C" PRIMARY KEY     -- @postgres
);
CREATE TABLE search_word_deletes (
    del  TEXT NOT NULL,                   -- @sqlite
    word TEXT NOT NULL,                   -- @sqlite
    del  TEXT COLLATE "C" NOT NULL,       -- @postgres
    word TEXT COLLATE "C" NOT NULL,       -- @postgres
    PRIMARY KEY (del, word)
);
-- Searches that found nothing, counted per folded query, for the admin's
-- list. No shopper, session or address is kept; the table is bounded by
-- the store (catalog.SearchMissesMax rows, the least asked dropped).
CREATE TABLE search_misses (
    query     TEXT PRIMARY KEY,
    n         BIGINT NOT NULL DEFAULT 1,
    last_seen BIGINT NOT NULL
);
CREATE INDEX search_misses_top ON search_misses (n DESC, last_seen DESC);
-- The vocabulary is filled from the index: emptying the index makes
-- sqlstore.(*DB).Migrate rebuild it, words included.
DELETE FROM products_fts;     -- @sqlite
DELETE FROM product_search;   -- @postgres

-- +goose Down
DROP TABLE search_misses;
DROP TABLE search_word_deletes;
DROP TABLE search_words;
