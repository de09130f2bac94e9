-- +goose Up
-- Contact-form submissions (internal/contact). The mail outbox row (kind
-- contact_message, ref = id) is written in the same transaction; the
-- renderer reads the values and files from here at send time. field_values is a
-- JSON object of the form's fields (name -> list of values); status is the
-- inbox state ("new"; the admin inbox of a later issue moves it on).
CREATE TABLE contact_submissions (
    id             INTEGER PRIMARY KEY,    -- @sqlite
    id             BIGSERIAL PRIMARY KEY,  -- @postgres
    form_id        INTEGER NOT NULL,       -- @sqlite
    form_id        BIGINT NOT NULL,        -- @postgres
    unit_tag       TEXT NOT NULL,
    container_post INTEGER NOT NULL DEFAULT 0,  -- @sqlite
    container_post BIGINT NOT NULL DEFAULT 0,   -- @postgres
    field_values   TEXT NOT NULL,   -- JSON
    client_ip      TEXT NOT NULL,
    user_agent     TEXT NOT NULL,   -- at most 500 bytes
    user_id        INTEGER REFERENCES users (id) ON DELETE SET NULL,  -- @sqlite
    user_id        BIGINT REFERENCES users (id) ON DELETE SET NULL,   -- @postgres
    status         TEXT NOT NULL DEFAULT 'new',
    created_at     INTEGER NOT NULL    -- unix seconds  -- @sqlite
    created_at     BIGINT NOT NULL    -- unix seconds   -- @postgres
);
CREATE INDEX contact_submissions_created ON contact_submissions (created_at);

-- Uploaded files, kept in the database: never in a directory the web
-- server serves or could execute from. content is set to NULL (purged_at
-- set) once the retention period ends; name, type and size stay with the
-- submission. mime is the type found in the content, not the client's.
CREATE TABLE contact_files (
    id            INTEGER PRIMARY KEY,                                                     -- @sqlite
    id            BIGSERIAL PRIMARY KEY,                                                   -- @postgres
    submission_id INTEGER NOT NULL REFERENCES contact_submissions (id) ON DELETE CASCADE,  -- @sqlite
    submission_id BIGINT NOT NULL REFERENCES contact_submissions (id) ON DELETE CASCADE,   -- @postgres
    field         TEXT NOT NULL,
    name          TEXT NOT NULL,   -- sanitised
    mime          TEXT NOT NULL,
    size          INTEGER NOT NULL,                                       -- @sqlite
    size          BIGINT NOT NULL,                                        -- @postgres
    content       BLOB,                                                   -- @sqlite
    content       BYTEA,                                                  -- @postgres
    created_at    INTEGER NOT NULL,   -- unix seconds, as its submission  -- @sqlite
    created_at    BIGINT NOT NULL,   -- unix seconds, as its submission   -- @postgres
    purged_at     INTEGER                                                 -- @sqlite
    purged_at     BIGINT                                                  -- @postgres
);
CREATE INDEX contact_files_submission ON contact_files (submission_id);
CREATE INDEX contact_files_unpurged ON contact_files (created_at) WHERE purged_at IS NULL;

-- +goose Down
DROP TABLE contact_files;
DROP TABLE contact_submissions;
