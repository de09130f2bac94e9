-- +goose Up
-- A customer's orders and saved addresses (internal/account, customer.go).
-- customer_id is NULL for a guest's order; deleting the account makes its
-- orders guest orders again (ON DELETE SET NULL, and DeleteUser says so too).
ALTER TABLE orders ADD COLUMN customer_id INTEGER REFERENCES users (id) ON DELETE SET NULL;  -- @sqlite
ALTER TABLE orders ADD COLUMN customer_id BIGINT REFERENCES users (id) ON DELETE SET NULL;   -- @postgres
-- My account's orders table: a customer's orders, newest first.
CREATE INDEX orders_customer ON orders (customer_id, id) WHERE customer_id IS NOT NULL;
-- Linking a guest's orders once an email is verified.
CREATE INDEX orders_guest_email ON orders (lower(billing_email)) WHERE customer_id IS NULL;

-- first_name and last_name: the account details form (display_name exists).
ALTER TABLE users ADD COLUMN first_name TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN last_name TEXT NOT NULL DEFAULT '';

-- Saved addresses: one billing and one shipping per customer, each the
-- JSON of a cart.Address (the checkout's address object), validated by the
-- checkout's rules before it is stored.
CREATE TABLE customer_addresses (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    kind       TEXT NOT NULL CHECK (kind IN ('billing', 'shipping')),
    address    TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- +goose Down
DROP TABLE customer_addresses;
ALTER TABLE users DROP COLUMN last_name;
ALTER TABLE users DROP COLUMN first_name;
DROP INDEX orders_guest_email;
DROP INDEX orders_customer;
ALTER TABLE orders DROP COLUMN customer_id;
