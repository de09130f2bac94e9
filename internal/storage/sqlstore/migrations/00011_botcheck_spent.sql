-- +goose Up
-- Bot-check (ALTCHA) payloads already accepted, so each is accepted once:
-- one row per spent challenge, named by its signature (the HMAC of the
-- challenge, unique per issued challenge), kept until the challenge
-- expires (after which the payload is refused as expired anyway). Spending
-- is one INSERT … ON CONFLICT DO NOTHING: of two concurrent uses on any
-- instance exactly one inserts. Rows past their expiry are deleted
-- periodically.
CREATE TABLE botcheck_spent (
    signature  TEXT PRIMARY KEY, -- hex HMAC-SHA-256 of the challenge
    expires_at BIGINT NOT NULL   -- unix seconds: the challenge's expiry
);
CREATE INDEX botcheck_spent_expires ON botcheck_spent (expires_at);

-- +goose Down
DROP TABLE botcheck_spent;
