-- +goose Up
-- Wishlists (internal/wishlist): the products a shopper keeps for later.
-- A list belongs either to a guest's session (session_key, named by a
-- cookie the way the cart's session is) or to a customer (customer_id, the
-- users row the cart's customer session names); logging in merges the
-- guest's list into the customer's and deletes the guest's. A guest's list
-- expires 30 days after its last write (expires_at, unix seconds, compared
-- in SQL the same way on both engines); a customer's never (NULL).
-- share_token is the SHA-256 (hex) of the token in the list's shared link,
-- as other mailed or shared links keep only a hash; the owner may turn
-- sharing off (share_enabled false) or renew the link (a new hash: the old
-- link then names nothing). Times are unix seconds.
CREATE TABLE wishlists (
    id            INTEGER PRIMARY KEY,    -- @sqlite
    id            BIGSERIAL PRIMARY KEY,  -- @postgres
    session_key   TEXT UNIQUE,
    customer_id   INTEGER UNIQUE REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    customer_id   BIGINT UNIQUE REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    share_token   TEXT UNIQUE,
    share_enabled INTEGER NOT NULL DEFAULT 0,        -- @sqlite
    share_enabled BOOLEAN NOT NULL DEFAULT FALSE,    -- @postgres
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    expires_at    BIGINT,
    CHECK (session_key IS NOT NULL OR customer_id IS NOT NULL)
);
CREATE INDEX wishlists_expires ON wishlists (expires_at) WHERE expires_at IS NOT NULL;

-- The items of a list: a product, or one variation of it (variation_id 0
-- for none), with its price when added in the shop's minor units (as
-- cart_lines.unit_price). product_id is not a foreign key, as in the cart:
-- an item whose product is gone or unpublished is left out when read.
CREATE TABLE wishlist_items (
    wishlist_id  INTEGER NOT NULL REFERENCES wishlists (id) ON DELETE CASCADE,  -- @sqlite
    wishlist_id  BIGINT NOT NULL REFERENCES wishlists (id) ON DELETE CASCADE,   -- @postgres
    product_id   BIGINT NOT NULL,
    variation_id BIGINT NOT NULL DEFAULT 0,
    price_added  BIGINT NOT NULL,
    added_at     BIGINT NOT NULL,
    PRIMARY KEY (wishlist_id, product_id, variation_id)
);
-- How many lists hold a product (or one of its variations): the admin's
-- counts, and the alerts that read who wishes for what.
CREATE INDEX wishlist_items_product ON wishlist_items (product_id, variation_id);

-- +goose Down
DROP TABLE wishlist_items;
DROP TABLE wishlists;
