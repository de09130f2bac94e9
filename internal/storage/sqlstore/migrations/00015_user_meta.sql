-- +goose Up
-- Small per-user settings that are not part of the account itself (as
-- WordPress keeps them in user meta): today the coming-soon banner's
-- "dismissed" flag, later other storefront preferences. One row per user
-- and key; rows go with their user.
CREATE TABLE user_meta (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    meta_key   TEXT NOT NULL,
    meta_value TEXT NOT NULL,
    PRIMARY KEY (user_id, meta_key)
);

-- +goose Down
DROP TABLE user_meta;
