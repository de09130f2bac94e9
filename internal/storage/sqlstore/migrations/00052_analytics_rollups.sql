-- +goose Up
-- Analytics rollups (decision 0115): what a stats report sums, kept by UTC
-- hour by the same follower that rebuilds the order facts (00049), in the
-- same transaction, as the difference between an order's old facts and
-- its new ones. A report over whole hours reads these instead of the
-- facts; a period's partial hours at its ends are read from the facts.

-- The order facts' sums by UTC hour (the hour's first second), the
-- order's status and whether its customer was returning.
CREATE TABLE analytics_hours (
    hour               BIGINT NOT NULL,
    status             TEXT NOT NULL,
    returning_customer INTEGER NOT NULL,
    orders             BIGINT NOT NULL,
    items              BIGINT NOT NULL,
    order_items        BIGINT NOT NULL,
    gross              BIGINT NOT NULL,
    tax                BIGINT NOT NULL,
    shipping           BIGINT NOT NULL,
    discount           BIGINT NOT NULL,
    net                BIGINT NOT NULL,
    order_net          BIGINT NOT NULL,
    refund_net         BIGINT NOT NULL,
    PRIMARY KEY (hour, status, returning_customer)
);

-- Customers by number, so an hour's customers are a list of small
-- integers ('u<id>' and 'g<email>' as the facts write them).
CREATE TABLE analytics_customers (
    no       INTEGER PRIMARY KEY,   -- @sqlite
    no       BIGSERIAL PRIMARY KEY, -- @postgres
    customer TEXT NOT NULL UNIQUE
);

-- Who bought in an hour (kind 1: customer numbers, from the order and
-- refund facts; kind 2: product ids, from the order lines), each member
-- with the order's status and returning flag and how many facts carry
-- it, packed (sqlstore/analytics_rollup.go): distinct counts over any
-- whole hours are exact, read from a few thousand short rows.
CREATE TABLE analytics_hour_sets (
    hour    BIGINT NOT NULL,
    kind    INTEGER NOT NULL,
    members BLOB NOT NULL,  -- @sqlite
    members BYTEA NOT NULL, -- @postgres
    PRIMARY KEY (hour, kind)
);

-- The rollups are built by the follower from the orders: the facts are
-- rebuilt (every order marked again), as decision 0111 rebuilds them.
DELETE FROM analytics_coupons;
DELETE FROM analytics_lines;
DELETE FROM analytics_orders;
INSERT INTO analytics_dirty (order_id, version) SELECT id, 1 FROM orders WHERE true
    ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;

-- +goose Down
DROP TABLE analytics_hour_sets;
DROP TABLE analytics_customers;
DROP TABLE analytics_hours;
