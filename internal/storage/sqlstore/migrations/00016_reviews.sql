-- +goose Up
-- Reviews written by shoppers (internal/review). status is the moderation
-- state, as WooCommerce's review statuses: approved, hold, spam, trash; the
-- older approved flag stays and always equals status = 'approved' (the
-- catalogue's reads use it). user_id is the reviewer's account (NULL for a
-- guest); client_ip is kept for moderation. rating may be 0: a review
-- without stars, when the shop does not require ratings (it counts in
-- review_count but not in average_rating, as in WooCommerce).
-- @begin sqlite
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt.
CREATE TABLE reviews_new (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    author     TEXT NOT NULL,
    email      TEXT NOT NULL DEFAULT '',
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 0 AND 5),
    content    TEXT NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0,
    approved   INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    status     TEXT NOT NULL DEFAULT 'approved' CHECK (status IN ('approved', 'hold', 'spam', 'trash')),
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    client_ip  TEXT NOT NULL DEFAULT ''
);
INSERT INTO reviews_new (id, product_id, author, email, rating, content, verified, approved, created_at, status)
    SELECT id, product_id, author, email, rating, content, verified, approved, created_at, CASE WHEN approved THEN 'approved' ELSE 'hold' END FROM reviews;
DROP TABLE reviews;
ALTER TABLE reviews_new RENAME TO reviews;
CREATE INDEX reviews_product ON reviews (product_id, created_at);
-- @end sqlite
-- @begin postgres
ALTER TABLE reviews DROP CONSTRAINT reviews_rating_check;
ALTER TABLE reviews ADD CONSTRAINT reviews_rating_check CHECK (rating BETWEEN 0 AND 5);
ALTER TABLE reviews ADD COLUMN status TEXT NOT NULL DEFAULT 'approved'
    CHECK (status IN ('approved', 'hold', 'spam', 'trash'));
UPDATE reviews SET status = CASE WHEN approved THEN 'approved' ELSE 'hold' END;
ALTER TABLE reviews ADD COLUMN user_id BIGINT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE reviews ADD COLUMN client_ip TEXT NOT NULL DEFAULT '';
-- @end postgres
-- One review per product per email, whatever its status (a trashed or spam
-- review still counts, so a refused reviewer cannot simply try again).
CREATE UNIQUE INDEX reviews_product_email ON reviews (product_id, lower(email)) WHERE email <> '';
-- The Store API's listing: approved reviews by date.
CREATE INDEX reviews_status_created ON reviews (status, created_at);

-- The rating histogram of the approved reviews, kept with average_rating
-- and review_count in the transaction that changes a review.
ALTER TABLE products ADD COLUMN rating_1 INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN rating_1 BIGINT NOT NULL DEFAULT 0;   -- @postgres
ALTER TABLE products ADD COLUMN rating_2 INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN rating_2 BIGINT NOT NULL DEFAULT 0;   -- @postgres
ALTER TABLE products ADD COLUMN rating_3 INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN rating_3 BIGINT NOT NULL DEFAULT 0;   -- @postgres
ALTER TABLE products ADD COLUMN rating_4 INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN rating_4 BIGINT NOT NULL DEFAULT 0;   -- @postgres
ALTER TABLE products ADD COLUMN rating_5 INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE products ADD COLUMN rating_5 BIGINT NOT NULL DEFAULT 0;   -- @postgres
UPDATE products SET
    rating_1 = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'approved' AND r.rating = 1),
    rating_2 = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'approved' AND r.rating = 2),
    rating_3 = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'approved' AND r.rating = 3),
    rating_4 = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'approved' AND r.rating = 4),
    rating_5 = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'approved' AND r.rating = 5);

-- +goose Down
ALTER TABLE products DROP COLUMN rating_5;
ALTER TABLE products DROP COLUMN rating_4;
ALTER TABLE products DROP COLUMN rating_3;
ALTER TABLE products DROP COLUMN rating_2;
ALTER TABLE products DROP COLUMN rating_1;
DROP INDEX reviews_status_created;
DROP INDEX reviews_product_email;
-- @begin sqlite
CREATE TABLE reviews_old (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    author     TEXT NOT NULL,
    email      TEXT NOT NULL DEFAULT '',
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    content    TEXT NOT NULL,
    verified   INTEGER NOT NULL DEFAULT 0,
    approved   INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO reviews_old SELECT id, product_id, author, email, rating, content, verified, approved, created_at FROM reviews WHERE rating > 0;
DROP TABLE reviews;
ALTER TABLE reviews_old RENAME TO reviews;
CREATE INDEX reviews_product ON reviews (product_id, created_at);
-- @end sqlite
-- @begin postgres
ALTER TABLE reviews DROP COLUMN client_ip;
ALTER TABLE reviews DROP COLUMN user_id;
ALTER TABLE reviews DROP COLUMN status;
DELETE FROM reviews WHERE rating = 0;
ALTER TABLE reviews DROP CONSTRAINT reviews_rating_check;
ALTER TABLE reviews ADD CONSTRAINT reviews_rating_check CHECK (rating BETWEEN 1 AND 5);
-- @end postgres
