-- +goose Up
-- Customer and staff accounts (internal/account). Times are unix seconds.
-- Secrets handed to clients (session, reset and remember-device tokens,
-- recovery codes) are stored only as their SHA-256, hex.
CREATE TABLE users (
    id                INTEGER PRIMARY KEY,    -- @sqlite
    id                BIGSERIAL PRIMARY KEY,  -- @postgres
    email             TEXT NOT NULL UNIQUE,   -- case-folded
    username          TEXT UNIQUE,            -- case-folded; NULL when none
    display_name      TEXT NOT NULL DEFAULT '',
    role              TEXT NOT NULL DEFAULT 'customer'
                      CHECK (role IN ('customer', 'shop_manager', 'administrator')),
    password_hash     TEXT NOT NULL,          -- argon2id PHC string
    email_verified_at BIGINT,
    created_at        BIGINT NOT NULL,
    totp_secret       TEXT,                   -- active second factor (base32)
    totp_pending      TEXT,                   -- enrolled, not yet confirmed
    totp_last_step    BIGINT NOT NULL DEFAULT 0 -- newest 30 s step accepted
);

-- Server-side login sessions, shared by every instance.
CREATE TABLE account_sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL              -- absolute end
);
CREATE INDEX account_sessions_user ON account_sessions (user_id);
CREATE INDEX account_sessions_expires ON account_sessions (expires_at);

-- Lost-password links: single use, short-lived.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX password_resets_user ON password_resets (user_id);

-- Email verification links: single use, bound to the address they were
-- sent to (a later email change makes them void).
CREATE TABLE email_verifications (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    email      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX email_verifications_user ON email_verifications (user_id);

-- Two-factor recovery codes, single use.
CREATE TABLE recovery_codes (
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    code_hash TEXT NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

-- "Remember this device" tokens for the second factor.
CREATE TABLE remembered_devices (
    id         INTEGER PRIMARY KEY,    -- @sqlite
    id         BIGSERIAL PRIMARY KEY,  -- @postgres
    token_hash TEXT NOT NULL UNIQUE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- @sqlite
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,   -- @postgres
    label      TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX remembered_devices_user ON remembered_devices (user_id);

-- +goose Down
DROP TABLE remembered_devices;
DROP TABLE recovery_codes;
DROP TABLE email_verifications;
DROP TABLE password_resets;
DROP TABLE account_sessions;
DROP TABLE users;
