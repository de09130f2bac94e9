-- +goose Up
-- Analytics (internal/analytics): every order as the reports count it,
-- kept apart from the orders so a report reads a narrow, dated table and
-- its cost follows the period asked, not every order ever placed.
--
-- analytics_dirty is the follower's queue: a trigger on orders and
-- order_refunds marks the order in the writer's own transaction (placing,
-- a status change, a refund, a cancellation, deleting, anonymising, an
-- import: every path that writes an order), bumping version. The follower
-- (sqlstore/analytics.go, run before each report and by the upkeep loop)
-- recomputes the order's rows from the order itself and removes the mark
-- only if version is still the one it read, so a write it raced is
-- recomputed next time. Existing orders are marked here: the follower
-- backfills them.
CREATE TABLE analytics_dirty (
    order_id BIGINT PRIMARY KEY,
    version  BIGINT NOT NULL
);
INSERT INTO analytics_dirty (order_id, version) SELECT id, 1 FROM orders;

-- One row per order (refund_id 0) and per completed refund (its own id;
-- amounts negative, dated when the refund was made). Amounts are minor
-- units of the shop's base currency, converted at the order's stored rate;
-- net = total - tax - shipping. customer is 'u<id>' for an account,
-- 'g<email>' for a guest. returning_customer is 1 when the customer had
-- an earlier order.
CREATE TABLE analytics_orders (
    order_id           BIGINT NOT NULL,
    refund_id          BIGINT NOT NULL,
    created_at         BIGINT NOT NULL,
    status             TEXT NOT NULL,
    customer           TEXT NOT NULL,
    returning_customer INTEGER NOT NULL,
    currency           TEXT NOT NULL,
    rate               TEXT NOT NULL,
    items              BIGINT NOT NULL,
    gross              BIGINT NOT NULL,
    tax                BIGINT NOT NULL,
    shipping           BIGINT NOT NULL,
    discount           BIGINT NOT NULL,
    net                BIGINT NOT NULL,
    PRIMARY KEY (order_id, refund_id)
);
-- A period's rows, every column the stats read (an index-only scan).
CREATE INDEX analytics_orders_date ON analytics_orders
    (created_at, status, refund_id, customer, returning_customer, items, gross, tax, shipping, discount, net, order_id);

-- One row per order line and per refunded line (negative quantity and net).
CREATE TABLE analytics_lines (
    order_id     BIGINT NOT NULL,
    refund_id    BIGINT NOT NULL,
    position     INTEGER NOT NULL,
    created_at   BIGINT NOT NULL,
    status       TEXT NOT NULL,
    product_id   BIGINT NOT NULL,
    variation_id BIGINT NOT NULL,
    quantity     BIGINT NOT NULL,
    net          BIGINT NOT NULL,
    PRIMARY KEY (order_id, refund_id, position)
);
CREATE INDEX analytics_lines_date ON analytics_lines
    (created_at, status, product_id, variation_id, quantity, net, order_id, refund_id);
CREATE INDEX analytics_lines_product ON analytics_lines (product_id, created_at);

-- One row per coupon an order used: its discount in the base currency.
CREATE TABLE analytics_coupons (
    order_id   BIGINT NOT NULL,
    position   INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    status     TEXT NOT NULL,
    coupon_id  BIGINT NOT NULL,
    code       TEXT NOT NULL,
    discount   BIGINT NOT NULL,
    PRIMARY KEY (order_id, position)
);
CREATE INDEX analytics_coupons_date ON analytics_coupons (created_at, status, coupon_id, discount, order_id);

-- @begin sqlite
-- +goose StatementBegin
CREATE TRIGGER analytics_orders_insert AFTER INSERT ON orders BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (NEW.id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER analytics_orders_update AFTER UPDATE ON orders BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (NEW.id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER analytics_orders_delete AFTER DELETE ON orders BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (OLD.id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER analytics_refunds_insert AFTER INSERT ON order_refunds BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (NEW.order_id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER analytics_refunds_update AFTER UPDATE ON order_refunds BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (NEW.order_id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER analytics_refunds_delete AFTER DELETE ON order_refunds BEGIN
    INSERT INTO analytics_dirty (order_id, version) VALUES (OLD.order_id, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
END;
-- +goose StatementEnd
-- @end sqlite
-- @begin postgres
-- +goose StatementBegin
CREATE FUNCTION analytics_mark() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    oid BIGINT;
BEGIN
    IF TG_TABLE_NAME = 'orders' THEN
        IF TG_OP = 'DELETE' THEN oid := OLD.id; ELSE oid := NEW.id; END IF;
    ELSE
        IF TG_OP = 'DELETE' THEN oid := OLD.order_id; ELSE oid := NEW.order_id; END IF;
    END IF;
    INSERT INTO analytics_dirty (order_id, version) VALUES (oid, 1)
        ON CONFLICT (order_id) DO UPDATE SET version = analytics_dirty.version + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER analytics_orders_mark AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION analytics_mark();
CREATE TRIGGER analytics_refunds_mark AFTER INSERT OR UPDATE OR DELETE ON order_refunds
    FOR EACH ROW EXECUTE FUNCTION analytics_mark();
-- @end postgres

-- +goose Down
-- @begin sqlite
DROP TRIGGER analytics_refunds_delete;
DROP TRIGGER analytics_refunds_update;
DROP TRIGGER analytics_refunds_insert;
DROP TRIGGER analytics_orders_delete;
DROP TRIGGER analytics_orders_update;
DROP TRIGGER analytics_orders_insert;
-- @end sqlite
-- @begin postgres
DROP TRIGGER analytics_refunds_mark ON order_refunds;
DROP TRIGGER analytics_orders_mark ON orders;
DROP FUNCTION analytics_mark();
-- @end postgres
DROP TABLE analytics_coupons;
DROP TABLE analytics_lines;
DROP TABLE analytics_orders;
DROP TABLE analytics_dirty;
