-- +goose Up
-- Analytics item rollups (decision 0122): each hour's row of
-- analytics_hours (00052) also holds, packed, what the leaderboards and
-- the products, variations, categories and coupons reports sum:
--
-- items: per product, variation and order status, the line facts' items
--   and net (refunded lines included, negative), the orders placed
--   (counted on an order's first own line of the product, never on a
--   refund's), the same per variation, and how many line facts there are;
-- coupon_sums: per coupon id, code and status, the amount discounted,
--   the orders (counted on an order's first use of the coupon id) and the
--   uses;
-- customer_sums: per customer (analytics_names) and status, the orders,
--   the spend (net, refunds negative) and the order facts.
--
-- NULL is an hour not built yet: the follower builds such hours from the
-- facts (a few weeks a batch, hours in order) and a report reads an
-- unbuilt hour's facts instead, so the backfill is neither a re-marking of
-- every order nor a wait.
ALTER TABLE analytics_hours ADD COLUMN items BLOB;        -- @sqlite
ALTER TABLE analytics_hours ADD COLUMN coupon_sums BLOB;  -- @sqlite
ALTER TABLE analytics_hours ADD COLUMN customer_sums BLOB; -- @sqlite
ALTER TABLE analytics_hours ADD COLUMN items BYTEA;       -- @postgres
ALTER TABLE analytics_hours ADD COLUMN coupon_sums BYTEA; -- @postgres
ALTER TABLE analytics_hours ADD COLUMN customer_sums BYTEA; -- @postgres
CREATE INDEX analytics_hours_unbuilt ON analytics_hours (hour) WHERE items IS NULL;

-- The refunds' lines of a period: a product's orders count an order
-- refunded in the period that was placed before it (its refund's lines
-- are dated by the refund).
CREATE INDEX analytics_lines_refunds ON analytics_lines (created_at, status, product_id, variation_id, order_id) WHERE refund_id <> 0;

-- +goose Down
DROP INDEX analytics_lines_refunds;
DROP INDEX analytics_hours_unbuilt;
ALTER TABLE analytics_hours DROP COLUMN customer_sums;
ALTER TABLE analytics_hours DROP COLUMN coupon_sums;
ALTER TABLE analytics_hours DROP COLUMN items;
