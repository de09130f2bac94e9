-- +goose Up
-- Nothing to do on SQLite: PostgreSQL's 00004 adds short-prefix lexemes to
-- its search columns; FTS5's prefix indexes ('1 2 3 4', migration 00002)
-- already answer one- to four-character prefixes from an index of their own.
SELECT 1;

-- +goose Down
SELECT 1;
