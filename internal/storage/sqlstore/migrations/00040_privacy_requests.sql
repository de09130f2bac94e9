-- +goose Up
-- Privacy requests (internal/privacy): a person's request for an export of
-- their data or for its erasure, made by the customer from My account or by
-- staff for any address. kind is export or erase; status moves
-- pending (mailed, awaiting the person's confirmation) -> confirmed (an
-- erasure awaiting staff approval) -> completed, never back. Only the
-- SHA-256 of each mailed link's token is kept (confirm_hash,
-- download_hash); the token itself is sealed beside it for the mail
-- (internal/account's Sealer) and blanked once used. export_zip is the
-- built export, kept until its link expires. email is the person's
-- address until an erasure completes, then blanked: the request's row
-- keeps no personal data, only its counts (result, JSON).
CREATE TABLE privacy_requests (
    id               INTEGER PRIMARY KEY,    -- @sqlite
    id               BIGSERIAL PRIMARY KEY,  -- @postgres
    kind             TEXT NOT NULL CHECK (kind IN ('export', 'erase')),
    email            TEXT NOT NULL,          -- case-folded; '' once erased
    user_id          INTEGER REFERENCES users (id) ON DELETE SET NULL,  -- @sqlite
    user_id          BIGINT REFERENCES users (id) ON DELETE SET NULL,   -- @postgres
    source           TEXT NOT NULL,          -- customer or staff
    requested_by     BIGINT NOT NULL DEFAULT 0,  -- the account that asked (staff or the customer)
    status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'completed')),
    confirm_hash     TEXT NOT NULL UNIQUE,
    confirm_sealed   TEXT NOT NULL DEFAULT '',
    confirm_expires  BIGINT NOT NULL,        -- unix seconds
    confirmed_at     BIGINT,
    download_hash    TEXT UNIQUE,
    download_sealed  TEXT NOT NULL DEFAULT '',
    download_expires BIGINT,
    downloaded_at    BIGINT,
    export_zip       BLOB,                   -- @sqlite
    export_zip       BYTEA,                  -- @postgres
    approved_by      BIGINT NOT NULL DEFAULT 0,
    result           TEXT NOT NULL DEFAULT '',  -- JSON counts of an erasure
    created_at       BIGINT NOT NULL,        -- unix seconds
    completed_at     BIGINT
);
-- One open request of each kind per address: a second is refused.
CREATE UNIQUE INDEX privacy_requests_open ON privacy_requests (kind, email) WHERE status <> 'completed';
CREATE INDEX privacy_requests_created ON privacy_requests (created_at);

-- +goose Down
DROP TABLE privacy_requests;
