-- +goose Up
-- Scheduled backups (internal/backup): one row per slot of the schedule
-- (slot_key is the slot's start in unix seconds), written by whichever
-- instance first sees the slot come, and claimed with a lease like the
-- mail outbox and the webhook queue (attempts and next_attempt_at checked
-- by a conditional UPDATE), so one instance of several takes it. A row
-- whose instance died is due again when the lease ends. done_at, file and
-- size record the archive written; the newest done row is what /metrics
-- and the admin show.
CREATE TABLE backup_runs (
    id              INTEGER PRIMARY KEY,                    -- @sqlite
    id              BIGSERIAL PRIMARY KEY,                  -- @postgres
    slot_key        BIGINT NOT NULL UNIQUE,  -- unix seconds
    created_at      BIGINT NOT NULL,         -- unix seconds
    next_attempt_at BIGINT NOT NULL,         -- unix seconds
    attempts        INTEGER NOT NULL DEFAULT 0,
    done_at         BIGINT,                  -- unix seconds; NULL until written
    failed_at       BIGINT,                  -- unix seconds; set when retries are given up
    last_error      TEXT NOT NULL DEFAULT '',
    file            TEXT NOT NULL DEFAULT '', -- the archive's name in the backup folder
    size            BIGINT NOT NULL DEFAULT 0 -- its bytes
);
CREATE INDEX backup_runs_due ON backup_runs (next_attempt_at) WHERE done_at IS NULL AND failed_at IS NULL;
CREATE INDEX backup_runs_done ON backup_runs (done_at) WHERE done_at IS NOT NULL;

-- +goose Down
DROP TABLE backup_runs;
