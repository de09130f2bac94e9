-- +goose Up
-- The mail outbox. A message is recorded here in the same transaction as the
-- change it reports (an order placed, an order paid), as a kind and the id it
-- is about; the sender renders it from the stored data when it sends, and
-- retries with backoff until the SMTP server takes it. dedupe_key makes
-- recording idempotent: the same event never queues two messages.
-- A worker claims a due row by adding one to attempts and moving
-- next_attempt_at forward by a lease, conditional on the values it read, so
-- two workers (two server instances) never send one row at once; a row
-- whose worker died is due again when the lease ends (sqlstore/outbox.go).
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id              BIGSERIAL PRIMARY KEY,              -- @postgres
    dedupe_key      TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL,
    ref             TEXT NOT NULL,
    created_at      BIGINT NOT NULL, -- unix seconds
    next_attempt_at BIGINT NOT NULL, -- unix seconds
    attempts        INTEGER NOT NULL DEFAULT 0, -- sends started (claims)
    sent_at         BIGINT,          -- unix seconds; NULL until sent
    failed_at       BIGINT,          -- unix seconds; set when retries are given up
    last_error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- +goose Down
DROP TABLE mail_outbox;
