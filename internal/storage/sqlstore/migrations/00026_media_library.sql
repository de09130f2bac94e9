-- +goose Up
-- The media library (internal/media.Library): images uploaded in
-- the admin are rows of images, like imported ones, with what WordPress's
-- attachments carry besides. uploaded_at is unix seconds (0 for images
-- imported or seeded before); pending is true between the upload's
-- original being stored and its sizes being made (create-image-subsizes).
ALTER TABLE images ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE images ADD COLUMN mime_type TEXT NOT NULL DEFAULT '';
ALTER TABLE images ADD COLUMN uploaded_at INTEGER NOT NULL DEFAULT 0;  -- @sqlite
ALTER TABLE images ADD COLUMN uploaded_at BIGINT NOT NULL DEFAULT 0;   -- @postgres
ALTER TABLE images ADD COLUMN author_id INTEGER NOT NULL DEFAULT 0;    -- @sqlite
ALTER TABLE images ADD COLUMN author_id BIGINT NOT NULL DEFAULT 0;     -- @postgres
ALTER TABLE images ADD COLUMN pending BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE images DROP COLUMN pending;
ALTER TABLE images DROP COLUMN author_id;
ALTER TABLE images DROP COLUMN uploaded_at;
ALTER TABLE images DROP COLUMN mime_type;
ALTER TABLE images DROP COLUMN title;
