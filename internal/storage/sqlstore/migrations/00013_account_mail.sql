-- +goose Up
-- Account mails (internal/account, rendered at send time by the outbox).
-- A link's token is kept only as its SHA-256 for lookups; the mail needs the
-- token itself, so the row also keeps it sealed (AES-256-GCM under a key
-- derived from the shop's secret, bound to the row's hash) until the link
-- is used, when it is blanked. The outbox ref is the row's hash.
ALTER TABLE password_resets ADD COLUMN sealed_token TEXT NOT NULL DEFAULT '';
ALTER TABLE email_verifications ADD COLUMN sealed_token TEXT NOT NULL DEFAULT '';

-- Notices about a change to an account ("your password was changed", "your
-- email was changed"), with the address captured when it was queued: an
-- email change is told to the old address. The outbox ref is the id.
CREATE TABLE account_notices (
    id         INTEGER PRIMARY KEY,                                       -- @sqlite
    id         BIGSERIAL PRIMARY KEY,                                     -- @postgres
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    kind       TEXT NOT NULL,
    email      TEXT NOT NULL,
    new_email  TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX account_notices_user ON account_notices (user_id);

-- +goose Down
DROP TABLE account_notices;
ALTER TABLE email_verifications DROP COLUMN sealed_token;
ALTER TABLE password_resets DROP COLUMN sealed_token;
