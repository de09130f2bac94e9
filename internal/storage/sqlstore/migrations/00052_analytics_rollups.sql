-- +goose Up
-- Analytics rollups (decision 0115): what a stats report sums and counts,
-- kept by UTC hour by the same follower that rebuilds the order facts
-- (00049), in the same transaction, as the difference between an order's
-- old facts and its new ones. A report over whole hours reads these
-- instead of the facts; a period's partial hours at its ends are read
-- from the facts.

-- Customers and coupons by number, so an hour's are a list of small
-- integers: customers as the facts write them ('u<id>', 'g<email>'),
-- coupons as 'c<coupon id>|<code>' (counted distinct by both).
CREATE TABLE analytics_names (
    no   INTEGER PRIMARY KEY,   -- @sqlite
    no   BIGSERIAL PRIMARY KEY, -- @postgres
    name TEXT NOT NULL UNIQUE
);

-- One row per UTC hour (its first second) with orders in it, packed
-- (sqlstore/analytics_rollup.go): sums, the order facts' sums (orders,
-- items, the orders' items, gross, tax, shipping, discount, net, the
-- orders' net, the refunds' net) by status and returning flag;
-- customers, the customers' numbers; products, the order lines' product
-- ids; coupons, the coupons used, by number: each member with its
-- order's status and returning flag and how many facts carry it. A
-- 90-day report reads 2,160 short rows.
CREATE TABLE analytics_hours (
    hour      BIGINT NOT NULL PRIMARY KEY,
    sums      BLOB NOT NULL,  -- @sqlite
    customers BLOB NOT NULL,  -- @sqlite
    products  BLOB NOT NULL,  -- @sqlite
    coupons   BLOB NOT NULL   -- @sqlite
    sums      BYTEA NOT NULL, -- @postgres
    customers BYTEA NOT NULL, -- @postgres
    products  BYTEA NOT NULL, -- @postgres
    coupons   BYTEA NOT NULL  -- @postgres
) WITHOUT ROWID;            -- @sqlite
);                          -- @postgres

-- The rollups are built by the follower from the orders: the facts are
-- rebuilt (every order marked again), as decision 0111 rebuilds them.
DELETE FROM analytics_coupons;
DELETE FROM analytics_lines;
DELETE FROM analytics_orders;
INSERT INTO analytics_dirty (order_id, version) SELECT id, 1 FROM orders WHERE true
    ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;

-- +goose Down
DROP TABLE analytics_hours;
DROP TABLE analytics_names;
