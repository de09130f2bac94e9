-- +goose Up
-- The shop's content pages (internal/contentpage): about, shipping,
-- returns, terms, served at /<slug>/. body is HTML sanitized by
-- internal/richtext on every write; status is publish or draft. A change
-- is also written to catalog_changes (kind "pages") so every running
-- server drops the pages whose footer links them.
CREATE TABLE content_pages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- @sqlite
    id          BIGSERIAL PRIMARY KEY,              -- @postgres
    slug        TEXT NOT NULL UNIQUE,
    title       TEXT NOT NULL,
    body        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('publish', 'draft')),
    updated_at  INTEGER NOT NULL     -- unix seconds  -- @sqlite
    updated_at  BIGINT NOT NULL      -- unix seconds  -- @postgres
);

-- +goose Down
DROP TABLE content_pages;
