-- +goose Up
-- The admin's moderation queue and contact inbox.
--
-- A review's staff reply lives on the review row: one reply per review,
-- replaced when edited, shown under the review on the product page once the
-- review is approved. (WooCommerce stores replies as child comments; the
-- storefront shows one answer from the shop per review, and a reply on the
-- row keeps it out of every count, average and uniqueness rule that reads
-- reviews.) reply_author and reply_user_id record the staff member who
-- wrote it; the storefront shows the shop's name.
ALTER TABLE reviews ADD COLUMN reply TEXT NOT NULL DEFAULT '';
ALTER TABLE reviews ADD COLUMN reply_author TEXT NOT NULL DEFAULT '';
ALTER TABLE reviews ADD COLUMN reply_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL;  -- @sqlite
ALTER TABLE reviews ADD COLUMN reply_user_id BIGINT REFERENCES users (id) ON DELETE SET NULL;   -- @postgres
ALTER TABLE reviews ADD COLUMN reply_at TIMESTAMP;                                              -- @sqlite
ALTER TABLE reviews ADD COLUMN reply_at TIMESTAMPTZ;                                            -- @postgres

-- Replies to contact messages, sent by mail through the outbox (kind
-- contact_reply, ref = id, written in the same transaction). to_email is
-- the sender's address as the form gave it, fixed when the reply was
-- written.
CREATE TABLE contact_replies (
    id            INTEGER PRIMARY KEY,                                                     -- @sqlite
    id            BIGSERIAL PRIMARY KEY,                                                   -- @postgres
    submission_id INTEGER NOT NULL REFERENCES contact_submissions (id) ON DELETE CASCADE,  -- @sqlite
    submission_id BIGINT NOT NULL REFERENCES contact_submissions (id) ON DELETE CASCADE,   -- @postgres
    user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,                        -- @sqlite
    user_id       BIGINT REFERENCES users (id) ON DELETE SET NULL,                         -- @postgres
    author        TEXT NOT NULL,
    to_email      TEXT NOT NULL,
    subject       TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_at    INTEGER NOT NULL    -- unix seconds  -- @sqlite
    created_at    BIGINT NOT NULL    -- unix seconds   -- @postgres
);
CREATE INDEX contact_replies_submission ON contact_replies (submission_id);
-- The inbox lists by status, newest first.
CREATE INDEX contact_submissions_status ON contact_submissions (status, created_at);

-- +goose Down
DROP INDEX contact_submissions_status;
DROP TABLE contact_replies;
ALTER TABLE reviews DROP COLUMN reply_at;
ALTER TABLE reviews DROP COLUMN reply_user_id;
ALTER TABLE reviews DROP COLUMN reply_author;
ALTER TABLE reviews DROP COLUMN reply;
