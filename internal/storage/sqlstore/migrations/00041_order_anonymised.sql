-- +goose Up
-- Orders whose personal data was removed (sqlstore/anonymise.go): names,
-- addresses, email, phone, IP address, user agent and the customer's note
-- replaced by placeholders; amounts, lines and taxes kept. anonymised_at is
-- when (unix seconds), NULL for an order that still holds them: a rerun
-- skips what is set, the admin and the REST API show it. The partial index
-- serves data retention's search for orders past their time that still
-- hold personal data (internal/retention).
ALTER TABLE orders ADD COLUMN anonymised_at BIGINT;
CREATE INDEX orders_not_anonymised ON orders (created_at, id) WHERE anonymised_at IS NULL;

-- +goose Down
DROP INDEX orders_not_anonymised;
ALTER TABLE orders DROP COLUMN anonymised_at;
