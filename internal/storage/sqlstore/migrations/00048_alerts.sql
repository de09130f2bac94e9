-- +goose Up
-- Back-in-stock and price-drop alerts (internal/alerts).
--
-- stock_alerts: a person waiting for one item (a simple product or one
-- variation: product_id is the row whose stock they wait for). A guest's
-- alert is pending until the mailed confirmation link is opened (only the
-- link token's SHA-256 is kept, its seal beside it for the mail, blanked
-- once used); a customer's is waiting at once. status moves
-- pending -> waiting -> sent, or to unsubscribed; sent is set by the one
-- conditional UPDATE that queues the alert's mail, so across instances an
-- alert is mailed once.
CREATE TABLE stock_alerts (
    id              INTEGER PRIMARY KEY,    -- @sqlite
    id              BIGSERIAL PRIMARY KEY,  -- @postgres
    product_id      BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    email           TEXT NOT NULL,          -- case-folded
    user_id         BIGINT NOT NULL DEFAULT 0,  -- the customer; 0 for a guest
    status          TEXT NOT NULL CHECK (status IN ('pending', 'waiting', 'sent', 'unsubscribed')),
    confirm_hash    TEXT UNIQUE,
    confirm_sealed  TEXT NOT NULL DEFAULT '',
    confirm_expires BIGINT NOT NULL DEFAULT 0,  -- unix seconds
    created_at      BIGINT NOT NULL,
    confirmed_at    BIGINT,
    sent_at         BIGINT
);
-- One open alert per address and item: a second subscription is the first.
CREATE UNIQUE INDEX stock_alerts_open ON stock_alerts (product_id, email) WHERE status IN ('pending', 'waiting');
CREATE INDEX stock_alerts_item ON stock_alerts (product_id, status, id);
CREATE INDEX stock_alerts_email ON stock_alerts (email);

-- stock_restocks: an item that came back in stock, queued by the trigger
-- below in the transaction of the write that restocked it, whatever wrote
-- it (the admin, an import, a refund's restock, the REST API, a stock
-- edit). The alerts worker drains it. claimed_until leases a row to one
-- instance while it queues the mails.
CREATE TABLE stock_restocks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- @postgres
    product_id    BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL DEFAULT 0
);

-- price_checks: an item whose price fell (sort_price, kept by every write
-- and by the schedule pass at a sale's start), queued by the trigger below.
CREATE TABLE price_checks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- @postgres
    product_id BIGINT NOT NULL
);

-- A customer's choices (My account): mail me when a wishlisted item is back
-- in stock, or drops in price.
CREATE TABLE alert_prefs (
    user_id       BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    back_in_stock INTEGER NOT NULL DEFAULT 0,      -- @sqlite
    back_in_stock BOOLEAN NOT NULL DEFAULT FALSE,  -- @postgres
    price_drop    INTEGER NOT NULL DEFAULT 0       -- @sqlite
    price_drop    BOOLEAN NOT NULL DEFAULT FALSE   -- @postgres
);

-- A customer due a price-drop mail (since: unix seconds), and the last price
-- mailed about per item (the next drop is measured from it), and the days a
-- digest went (one a day).
CREATE TABLE price_drop_due (
    user_id BIGINT PRIMARY KEY,
    since   BIGINT NOT NULL
);
CREATE TABLE price_drop_mailed (
    user_id    BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    price      BIGINT NOT NULL,
    PRIMARY KEY (user_id, product_id)
);
CREATE TABLE price_drop_days (
    user_id BIGINT NOT NULL,
    day     TEXT NOT NULL,   -- YYYY-MM-DD in UTC
    drops   TEXT NOT NULL,   -- JSON: the drops the digest lists
    PRIMARY KEY (user_id, day)
);

-- @begin sqlite
-- +goose StatementBegin
CREATE TRIGGER stock_restock AFTER UPDATE OF stock_status ON products
    WHEN OLD.stock_status = 'outofstock' AND NEW.stock_status <> 'outofstock'
BEGIN
    INSERT INTO stock_restocks (product_id) VALUES (NEW.id);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER price_check AFTER UPDATE OF sort_price ON products
    WHEN NEW.sort_price < OLD.sort_price
BEGIN
    INSERT INTO price_checks (product_id) VALUES (NEW.id);
END;
-- +goose StatementEnd
-- @end sqlite
-- @begin postgres
-- +goose StatementBegin
CREATE FUNCTION stock_restock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stock_restocks (product_id) VALUES (NEW.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER stock_restock AFTER UPDATE OF stock_status ON products FOR EACH ROW
    WHEN (OLD.stock_status = 'outofstock' AND NEW.stock_status <> 'outofstock')
    EXECUTE FUNCTION stock_restock();
-- +goose StatementBegin
CREATE FUNCTION price_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO price_checks (product_id) VALUES (NEW.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER price_check AFTER UPDATE OF sort_price ON products FOR EACH ROW
    WHEN (NEW.sort_price < OLD.sort_price)
    EXECUTE FUNCTION price_check();
-- @end postgres

-- +goose Down
-- @begin sqlite
DROP TRIGGER price_check;
DROP TRIGGER stock_restock;
-- @end sqlite
-- @begin postgres
DROP TRIGGER price_check ON products;
DROP FUNCTION price_check();
DROP TRIGGER stock_restock ON products;
DROP FUNCTION stock_restock();
-- @end postgres
DROP TABLE price_drop_days;
DROP TABLE price_drop_mailed;
DROP TABLE price_drop_due;
DROP TABLE alert_prefs;
DROP TABLE price_checks;
DROP TABLE stock_restocks;
DROP TABLE stock_alerts;
