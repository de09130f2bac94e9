-- +goose Up
-- Orders in the shop admin: notes, refunds, and the units of
-- each line put back in stock.
--
-- order_lines.restocked counts the units of a line already put back (by a
-- cancellation, a refund that restocks, the hold-stock release or the
-- wallet's abandoned-order cancel). Every stock restore adds to it under
-- the order's row lock and restores only what is left, so no path restores
-- a unit twice. Lines of orders cancelled before this migration had all
-- their units put back already.
ALTER TABLE order_lines ADD COLUMN restocked BIGINT NOT NULL DEFAULT 0;
UPDATE order_lines SET restocked = quantity WHERE order_id IN (SELECT id FROM orders WHERE status = 'cancelled');

-- Notes on an order (WooCommerce's order notes): private to the staff, or
-- to the customer (who is mailed them). added_by is the staff account,
-- NULL for the shop's own notes (a status change, a refund); author is the
-- name at the time.
CREATE TABLE order_notes (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id            BIGSERIAL PRIMARY KEY,              -- @postgres
    order_id      BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    note          TEXT NOT NULL,
    customer_note INTEGER NOT NULL DEFAULT 0,      -- @sqlite
    customer_note BOOLEAN NOT NULL DEFAULT FALSE,  -- @postgres
    added_by      BIGINT,
    author        TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE INDEX order_notes_order ON order_notes (order_id, id);

-- Refunds. A refund is pending while its payment provider is asked
-- (the amount is reserved: what is left to refund counts pending and
-- completed refunds), then completed (the provider's refund id kept) or
-- failed. Manual refunds (offline methods) are completed at once.
-- (order_id, idem_key) makes a double submit one refund; request_hash is
-- what it asked, so a key reused for another refund is refused.
-- provider_request_id is the PayPal-Request-Id every attempt sends.
-- lines is the JSON of [{"line": position, "quantity", "total"}].
CREATE TABLE order_refunds (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id                  BIGSERIAL PRIMARY KEY,              -- @postgres
    order_id            BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    idem_key            TEXT NOT NULL,
    request_hash        TEXT NOT NULL,
    amount              BIGINT NOT NULL CHECK (amount > 0),
    reason              TEXT NOT NULL DEFAULT '',
    method              TEXT NOT NULL, -- 'manual', or the gateway refunded through
    status              TEXT NOT NULL, -- pending, completed, failed
    provider_refund_id  TEXT NOT NULL DEFAULT '',
    provider_request_id TEXT NOT NULL DEFAULT '',
    lines               TEXT NOT NULL DEFAULT '[]',
    restock             INTEGER NOT NULL DEFAULT 0,      -- @sqlite
    restock             BOOLEAN NOT NULL DEFAULT FALSE,  -- @postgres
    refunded_by         BIGINT,
    author              TEXT NOT NULL DEFAULT '',
    error               TEXT NOT NULL DEFAULT '',
    created_at          BIGINT NOT NULL,
    completed_at        BIGINT,
    UNIQUE (order_id, idem_key)
);

-- The admin's order list: newest first, by status.
CREATE INDEX orders_status_id ON orders (status, id);

-- +goose Down
DROP INDEX orders_status_id;
DROP TABLE order_refunds;
DROP TABLE order_notes;
ALTER TABLE order_lines DROP COLUMN restocked;
