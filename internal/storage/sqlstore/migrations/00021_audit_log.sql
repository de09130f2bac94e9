-- +goose Up
-- The admin's audit log (internal/audit): one row per admin write, never
-- updated. actor_name is the name at the time (accounts may be renamed or
-- deleted later; their entries stay, so no foreign key).
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,                  -- @sqlite
    id         BIGSERIAL PRIMARY KEY,                -- @postgres
    at         INTEGER NOT NULL,    -- unix seconds  -- @sqlite
    at         BIGINT NOT NULL,    -- unix seconds   -- @postgres
    actor_id   INTEGER NOT NULL,                     -- @sqlite
    actor_id   BIGINT NOT NULL,                      -- @postgres
    actor_name TEXT NOT NULL,
    action     TEXT NOT NULL,
    object     TEXT NOT NULL DEFAULT '',
    object_id  INTEGER NOT NULL DEFAULT 0,  -- @sqlite
    object_id  BIGINT NOT NULL DEFAULT 0,   -- @postgres
    summary    TEXT NOT NULL DEFAULT '',
    client_ip  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_object ON audit_log (object, object_id, id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, id);

-- +goose Down
DROP TABLE audit_log;
