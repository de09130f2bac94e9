-- +goose Up
-- The upkeep deletes the webhook queue's rows done for a week: by their
-- creation time, without reading the whole queue.
CREATE INDEX webhook_queue_created ON webhook_queue (created_at);

-- +goose Down
DROP INDEX webhook_queue_created;
