-- +goose Up
-- Invitations to set a password, mailed to customers moved in from another
-- shop without one (internal/account/invite.go): one row per customer, its
-- latest invitation. The link itself is an ordinary lost-password link
-- (password_resets, a longer lifetime); token_hash names it, and its mail
-- is the outbox row of kind account_invitation whose ref is that hash.
CREATE TABLE account_invitations (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    token_hash TEXT NOT NULL,       -- the latest link (gone from password_resets once used or expired)
    invited_at BIGINT NOT NULL,     -- unix seconds: when it was queued
    due_at     BIGINT NOT NULL,     -- unix seconds: when its mail is due (spread to a rate)
    times      INTEGER NOT NULL DEFAULT 1  -- invitations sent in all
);

-- +goose Down
DROP TABLE account_invitations;
