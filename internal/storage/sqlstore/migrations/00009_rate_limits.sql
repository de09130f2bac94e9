-- +goose Up
-- Request counters shared by every instance (checkout rate limiting): one
-- row per bucket (key) holding its current fixed window, which starts at the
-- first hit after the previous window ended, and how many hits it counted.
-- A hit is one INSERT … ON CONFLICT DO UPDATE … RETURNING, so concurrent
-- hits on any instance are counted exactly. Rows whose window ended
-- (expires_at) are deleted periodically.
CREATE TABLE rate_limits (
    bucket       TEXT PRIMARY KEY, -- e.g. checkout:s:<session id>
    window_start BIGINT NOT NULL, -- unix seconds
    hits         INTEGER NOT NULL,
    expires_at   BIGINT NOT NULL  -- unix seconds: the window's end
);
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);

-- +goose Down
DROP TABLE rate_limits;
