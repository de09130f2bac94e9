-- +goose Up
-- An order in the shopper's currency: orders.currency is what
-- every amount of the order is in; currency_rate the rate used (units of
-- currency for one unit of base_currency, an exact decimal as text, "1"
-- for an order in the base currency) and base_currency the shop's base
-- when it was placed. Orders placed before keep '1' and their own currency.
ALTER TABLE orders ADD COLUMN currency_rate TEXT NOT NULL DEFAULT '1';
ALTER TABLE orders ADD COLUMN base_currency TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE orders DROP COLUMN base_currency;
ALTER TABLE orders DROP COLUMN currency_rate;
