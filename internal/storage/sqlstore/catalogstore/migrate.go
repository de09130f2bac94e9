package catalogstore

import (
	"context"
	"fmt"
	"time"
)

// The catalogue's one-time work after migrations, which SQL alone cannot
// do: sqlstore.Migrate calls these.

// MigrationApplied runs the work that follows migration version, once,
// when Migrate has just applied it.
func (db *Catalog) MigrationApplied(ctx context.Context, version int64) error {
	if version != richTextVersion {
		return nil
	}
	start := time.Now()
	n, err := db.sanitizeStoredRichText(ctx)
	if err != nil {
		return err
	}
	db.Log.Info("stored rich text sanitized", "changed", n, "duration", time.Since(start))
	return nil
}

// BuildSearchIndexIfEmpty indexes existing products when the index is
// empty but the store has published, not hidden products (right after the
// search migration). The index holds text folded in Go, so SQL cannot fill
// it.
func (db *Catalog) BuildSearchIndexIfEmpty(ctx context.Context) error {
	need, err := db.searchIndexNeedsBuild(ctx)
	if err != nil {
		return fmt.Errorf("check search index: %w", err)
	}
	if !need {
		return nil
	}
	start := time.Now()
	n, err := db.ReindexSearch(ctx)
	if err != nil {
		return err
	}
	db.Log.Info("search index built", "products", n, "duration", time.Since(start))
	return nil
}
