-- +goose Up
-- The search index: one row per published product that is not hidden
-- (shop and Store API search both read it; each adds its visibility filter), rowid = product id. The text
-- is folded in Go (catalog.FoldSearch: no accents, lower case, words split
-- on anything but letters and digits) and kept in step by SaveProduct in the
-- same transaction as the product; the tokenizer's own diacritics folding is
-- then a no-op kept for safety. prefix='1 2 3 4' keeps prefix indexes for
-- one- to four-character prefixes: what live search types first, and a
-- last word of one letter ("classic cotton t") would otherwise merge the
-- doclists of every word starting with it (a common 4-letter stem such as
-- "wash", matching "wash" and "washed", cost 20 ms at 100,000 products
-- without its prefix index).
-- Existing products are indexed by sqlstore.(*DB).Migrate when it finds the
-- index empty and searchable products in the store (the folding is Go code).
CREATE VIRTUAL TABLE products_fts USING fts5(
    name, sku, body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '1 2 3 4'
);

-- +goose Down
DROP TABLE products_fts;
