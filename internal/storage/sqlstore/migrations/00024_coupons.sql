-- +goose Up
-- Coupons (internal/coupon). Codes are stored normalized (trimmed, lower
-- case) and unique. Fixed amounts and the minimum spend are minor units of
-- the base currency; a percentage is in thousandths of a percent. Limits
-- of 0 mean none. The restriction lists are JSON arrays of ids.
CREATE TABLE coupons (
    id                          INTEGER PRIMARY KEY,    -- @sqlite
    id                          BIGSERIAL PRIMARY KEY,  -- @postgres
    code                        TEXT NOT NULL UNIQUE,
    description                 TEXT NOT NULL DEFAULT '',
    discount_type               TEXT NOT NULL,
    amount                      BIGINT NOT NULL DEFAULT 0,
    date_expires                BIGINT,          -- unix seconds; NULL: never
    minimum_amount              BIGINT NOT NULL DEFAULT 0,
    usage_limit                 BIGINT NOT NULL DEFAULT 0,
    usage_limit_per_user        BIGINT NOT NULL DEFAULT 0,
    usage_count                 BIGINT NOT NULL DEFAULT 0,
    individual_use              INTEGER NOT NULL DEFAULT 0,      -- @sqlite
    individual_use              BOOLEAN NOT NULL DEFAULT FALSE,  -- @postgres
    product_ids                 TEXT NOT NULL DEFAULT '[]',
    excluded_product_ids        TEXT NOT NULL DEFAULT '[]',
    product_categories          TEXT NOT NULL DEFAULT '[]',
    excluded_product_categories TEXT NOT NULL DEFAULT '[]',
    created_at                  BIGINT NOT NULL,
    updated_at                  BIGINT NOT NULL
);

-- The coupons an order used, written in the order's transaction: the
-- code and discount as they were (the coupon may be edited or deleted
-- later), and who used it, for per-customer limits.
CREATE TABLE order_coupons (
    order_id      INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,  -- @sqlite
    order_id      BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,   -- @postgres
    position      INTEGER NOT NULL,
    coupon_id     INTEGER REFERENCES coupons (id) ON DELETE SET NULL,  -- @sqlite
    coupon_id     BIGINT REFERENCES coupons (id) ON DELETE SET NULL,   -- @postgres
    code          TEXT NOT NULL,
    discount_type TEXT NOT NULL,
    discount      BIGINT NOT NULL,
    discount_tax  BIGINT NOT NULL,
    customer_id   BIGINT NOT NULL DEFAULT 0,
    email         TEXT NOT NULL DEFAULT '',
    -- 1 once a cancellation gave the use back (usage_count went down, and
    -- the order no longer counts toward the customer's limit).
    released      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id, position)
);
CREATE INDEX order_coupons_customer ON order_coupons (coupon_id, customer_id);
CREATE INDEX order_coupons_email ON order_coupons (coupon_id, email);

ALTER TABLE orders ADD COLUMN discount_tax BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE orders DROP COLUMN discount_tax;
DROP TABLE order_coupons;
DROP TABLE coupons;
