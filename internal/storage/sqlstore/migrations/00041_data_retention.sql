-- +goose Up
-- Data retention (internal/retention) and the removal of an order's
-- personal data (sqlstore/anonymise.go).
--
-- orders.anonymised_at is when the order's personal data was removed
-- (unix seconds), NULL while it holds it: names, addresses, email, phone,
-- IP address, user agent and the customer's note replaced by
-- placeholders, amounts, lines and taxes kept. A rerun skips an order
-- where it is set; the admin and the REST API show it. The partial index
-- serves retention's search for orders past their time that still hold
-- personal data.
ALTER TABLE orders ADD COLUMN anonymised_at BIGINT;
CREATE INDEX orders_not_anonymised ON orders (created_at, id) WHERE anonymised_at IS NULL;

-- users.last_login_at is the account's newest log-in (unix seconds), NULL
-- before the first one since this migration: with its newest order and its
-- sessions, what tells an inactive account.
ALTER TABLE users ADD COLUMN last_login_at BIGINT;

-- Retention runs: one row per slot (slot_key: the slot's start in unix
-- seconds; an hour's, or a follow-up's when a run's batch was full),
-- written by whichever instance first sees it due and claimed with a
-- lease like the scheduled backups, so one instance of several runs it.
-- A row whose instance died is due again when the lease ends. done_at and
-- summary record what the run did (counts only, never personal data).
CREATE TABLE retention_runs (
    id              INTEGER PRIMARY KEY,                    -- @sqlite
    id              BIGSERIAL PRIMARY KEY,                  -- @postgres
    slot_key        BIGINT NOT NULL UNIQUE,  -- unix seconds
    created_at      BIGINT NOT NULL,         -- unix seconds
    next_attempt_at BIGINT NOT NULL,         -- unix seconds
    attempts        INTEGER NOT NULL DEFAULT 0,
    done_at         BIGINT,                  -- unix seconds; NULL until done
    failed_at       BIGINT,                  -- unix seconds; set when retries are given up
    last_error      TEXT NOT NULL DEFAULT '',
    summary         TEXT NOT NULL DEFAULT '' -- JSON counts of what the run changed
);
CREATE INDEX retention_runs_due ON retention_runs (next_attempt_at) WHERE done_at IS NULL AND failed_at IS NULL;
CREATE INDEX retention_runs_done ON retention_runs (done_at) WHERE done_at IS NOT NULL;

-- +goose Down
DROP TABLE retention_runs;
ALTER TABLE users DROP COLUMN last_login_at;
DROP INDEX orders_not_anonymised;
ALTER TABLE orders DROP COLUMN anonymised_at;
