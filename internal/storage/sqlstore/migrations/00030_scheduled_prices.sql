-- +goose Up
-- Scheduled sales take effect at their time, not when someone next edits
-- the product. on_sale is whether the sale price applies as of the last
-- evaluation (a write, or the schedule upkeep's pass at a sale's start or
-- end), and sort_price follows it: the price listings sort and filter by
-- is the price a shopper pays. A parent (variable, grouped) is on sale when
-- one of its children is. The upkeep finds the products whose stored state
-- disagrees with the clock through the partial index below (products with
-- sale dates only), and flips each with a conditional UPDATE, so that every
-- change happens once however many instances run the pass.
ALTER TABLE products ADD COLUMN on_sale INTEGER NOT NULL DEFAULT 0;      -- @sqlite
ALTER TABLE products ADD COLUMN on_sale BOOLEAN NOT NULL DEFAULT FALSE;  -- @postgres
UPDATE products SET on_sale = 1                                          -- @sqlite
UPDATE products SET on_sale = TRUE                                       -- @postgres
    WHERE sale_price IS NOT NULL AND (regular_price IS NULL OR sale_price < regular_price);
UPDATE products SET on_sale = 1                                                                                -- @sqlite
UPDATE products SET on_sale = TRUE                                                                             -- @postgres
    WHERE on_sale = 0 AND id IN (SELECT parent_id FROM products WHERE parent_id IS NOT NULL AND on_sale = 1);  -- @sqlite
    WHERE NOT on_sale AND id IN (SELECT parent_id FROM products WHERE parent_id IS NOT NULL AND on_sale);      -- @postgres
CREATE INDEX products_sale_dates ON products (id) WHERE sale_from IS NOT NULL OR sale_to IS NOT NULL;
CREATE INDEX products_pre_orders ON products (pre_order_at) WHERE pre_order = 1;  -- @sqlite
CREATE INDEX products_pre_orders ON products (pre_order_at) WHERE pre_order;      -- @postgres

-- +goose Down
DROP INDEX products_pre_orders;
DROP INDEX products_sale_dates;
ALTER TABLE products DROP COLUMN on_sale;
