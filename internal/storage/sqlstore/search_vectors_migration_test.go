package sqlstore_test

import (
	"context"
	"slices"
	"testing"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestSearchVectorsMigrationKeepsAnswers: migration 00057, applied to a
// store whose search index holds a catalogue (rolled back to the stored
// vector columns, then migrated again), keeps every search's answer:
// the index's rows are carried over in their order, and the vectors are
// the indexes' own.
func TestSearchVectorsMigrationKeepsAnswers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		storetest.SearchCatalogue(t, db, 600, 11)
		before := storetest.SearchAnswers(t, db, 0)
		if err := db.MigrateDownToForTest(ctx, 56); err != nil {
			t.Fatalf("roll back to the stored vectors: %v", err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate again: %v", err)
		}
		if after := storetest.SearchAnswers(t, db, 0); !slices.Equal(after, before) {
			for i := range min(len(after), len(before)) {
				if after[i] != before[i] {
					t.Errorf("after the migration:\n now %s\n was %s", after[i], before[i])
				}
			}
			t.Fatalf("%d answers, %d before", len(after), len(before))
		}
	})
}
