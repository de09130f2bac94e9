-- +goose Up
-- A search page ordered by relevance breaks ties by sales counts, which
-- orders change without a catalogue change: the page's candidates (up to
-- about 2,000) have their counts read by id each time (decision 0134).
-- This index holds the two columns alone, a few pages at 100,000
-- products, where each read through the table's rows lands on a page of
-- its own.
CREATE INDEX products_sales_by_id ON products (id, total_sales);          -- @sqlite
CREATE INDEX products_sales_by_id ON products (id) INCLUDE (total_sales); -- @postgres

-- +goose Down
DROP INDEX products_sales_by_id;
