-- +goose Up
-- An order's fees (WooCommerce's fee_lines: a gift wrap, a payment
-- surcharge), as JSON [{"name", "tax_status", "total", "total_tax"}] in
-- the order's minor units. The shop's own checkout adds none; orders moved
-- in from WooCommerce keep theirs (internal/wcimport), so their parts
-- still add up to their total.
ALTER TABLE orders ADD COLUMN fee_lines TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE orders DROP COLUMN fee_lines;
