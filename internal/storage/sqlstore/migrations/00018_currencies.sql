-- +goose Up
-- Multi-currency (internal/currency). The base currency (the
-- shop's --currency) is not stored: its rate is always 1. A rate is an
-- exact decimal kept as text ("0.9202171713": units of code for 1 unit of
-- base_code); amounts are minor units of the row's currency.
CREATE TABLE currencies (
    code          TEXT PRIMARY KEY,       -- ISO 4217
    base_code     TEXT NOT NULL,          -- the base the rate is against
    decimals      INTEGER NOT NULL CHECK (decimals BETWEEN 0 AND 4),
    symbol        TEXT NOT NULL,
    position      TEXT NOT NULL CHECK (position IN ('left', 'right', 'left_space', 'right_space')),
    thousand_sep  TEXT NOT NULL,
    decimal_sep   TEXT NOT NULL,
    rate          TEXT NOT NULL,
    rate_date     TEXT NOT NULL,          -- YYYY-MM-DD
    rounding      TEXT NOT NULL CHECK (rounding IN ('none', 'nearest', 'up', 'down')),
    step          INTEGER NOT NULL CHECK (step > 0),   -- minor units              -- @sqlite
    step          BIGINT NOT NULL CHECK (step > 0),   -- minor units               -- @postgres
    ending        INTEGER NOT NULL DEFAULT 0,          -- minor units, below step  -- @sqlite
    ending        BIGINT NOT NULL DEFAULT 0,          -- minor units, below step   -- @postgres
    enabled       BOOLEAN NOT NULL DEFAULT TRUE,
    sort_order    INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL                     -- unix seconds  -- @sqlite
    updated_at    BIGINT NOT NULL                     -- unix seconds   -- @postgres
);

-- Every rate ever recorded (imports and rates set by hand). Importing the
-- same file again replaces its rows instead of adding copies.
CREATE TABLE currency_rates (
    id           INTEGER PRIMARY KEY,    -- @sqlite
    id           BIGSERIAL PRIMARY KEY,  -- @postgres
    code         TEXT NOT NULL,
    base_code    TEXT NOT NULL,
    rate         TEXT NOT NULL,
    rate_date    TEXT NOT NULL,          -- YYYY-MM-DD the rate is for
    source       TEXT NOT NULL,          -- ecb, csv or manual
    recorded_at  INTEGER NOT NULL,          -- unix seconds  -- @sqlite
    recorded_at  BIGINT NOT NULL,          -- unix seconds   -- @postgres
    UNIQUE (code, base_code, rate_date, source)
);
CREATE INDEX currency_rates_code_date ON currency_rates (code, base_code, rate_date);

-- Fixed prices: a product's (or variation's) prices set by hand in a
-- currency, which win over conversion. sale NULL: the sale price, if the
-- product is on sale, is converted.
CREATE TABLE product_currency_prices (
    product_id  INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,  -- @sqlite
    product_id  BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,   -- @postgres
    code        TEXT NOT NULL,
    regular     INTEGER NOT NULL CHECK (regular > 0),  -- @sqlite
    regular     BIGINT NOT NULL CHECK (regular > 0),   -- @postgres
    sale        INTEGER CHECK (sale > 0),              -- @sqlite
    sale        BIGINT CHECK (sale > 0),               -- @postgres
    PRIMARY KEY (product_id, code)
);

-- +goose Down
DROP TABLE product_currency_prices;
DROP TABLE currency_rates;
DROP TABLE currencies;
