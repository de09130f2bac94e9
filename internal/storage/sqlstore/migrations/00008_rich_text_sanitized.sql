-- +goose Up
-- Rich text (product, variation and category descriptions) is sanitized on
-- write from this version on. Applying this version marks the one pass that
-- sanitizes what was stored before: Migrate runs it in Go right after (the
-- sanitizer has no SQL form; sqlstore/richtext_pass.go).
SELECT 1;
