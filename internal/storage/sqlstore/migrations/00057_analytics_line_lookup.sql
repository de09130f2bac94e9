-- +goose Up
-- Analytics line facts with WooCommerce's product lookup figures
-- (decision 0130): each line fact of analytics_lines (00049) also holds
-- its own tax, its share of the order's shipping and of the shipping's
-- tax (split over the order's lines by quantity) and its coupon discount
-- (subtotal less total); a refunded line its own tax (negative). A
-- line's gross is net + tax + shipping + shipping_tax. The item rollups
-- (00056) sum them too, in a longer entry.
ALTER TABLE analytics_lines ADD COLUMN tax BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analytics_lines ADD COLUMN shipping_tax BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analytics_lines ADD COLUMN shipping BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analytics_lines ADD COLUMN coupon BIGINT NOT NULL DEFAULT 0;
-- A period's lines, every column the item reports read (an index-only
-- scan, as before).
DROP INDEX analytics_lines_date;
CREATE INDEX analytics_lines_date ON analytics_lines
    (created_at, status, product_id, variation_id, quantity, net, order_id, refund_id, tax, shipping_tax, shipping, coupon);

-- Every order is marked for the follower, which recomputes its facts;
-- every hour's item sums are unbuilt (their entries' layout changed): an
-- hour a recomputed order touches is built from its facts then, the
-- others by the follower's backfill once no order is marked, and a
-- report reads an unbuilt hour's facts meanwhile.
UPDATE analytics_hours SET items = NULL, coupon_sums = NULL, customer_sums = NULL;
INSERT INTO analytics_dirty (order_id, version) SELECT id, 1 FROM orders WHERE true
    ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;

-- +goose Down
UPDATE analytics_hours SET items = NULL, coupon_sums = NULL, customer_sums = NULL;
DROP INDEX analytics_lines_date;
CREATE INDEX analytics_lines_date ON analytics_lines
    (created_at, status, product_id, variation_id, quantity, net, order_id, refund_id);
ALTER TABLE analytics_lines DROP COLUMN coupon;
ALTER TABLE analytics_lines DROP COLUMN shipping;
ALTER TABLE analytics_lines DROP COLUMN shipping_tax;
ALTER TABLE analytics_lines DROP COLUMN tax;
