package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sync/errgroup"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Every migration, as rendered for each engine, applies, rolls back to an
// empty database and applies again to the same schema.
func TestMigrationsApplyRollBackAndReapply(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		raw := storetest.OpenRaw(t, dsn)
		schema := func() []string {
			q := `SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master
				WHERE name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version'`
			if !strings.HasPrefix(dsn, "sqlite:") {
				q = `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '')
					FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'goose_db_version'
					UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> 'goose_db_version'
					UNION ALL SELECT 'trigger ' || event_object_table || '.' || trigger_name || ' ' || event_manipulation
					FROM information_schema.triggers WHERE trigger_schema = current_schema()`
			}
			var rows []string
			if err := raw.SelectContext(ctx, &rows, q); err != nil {
				t.Fatal(err)
			}
			slices.Sort(rows)
			return rows
		}
		migrated := schema()
		if len(migrated) == 0 {
			t.Fatal("no schema after Migrate")
		}
		if err := db.MigrateDownToForTest(ctx, 0); err != nil {
			t.Fatalf("roll back every migration: %v", err)
		}
		if left := schema(); len(left) > 0 {
			t.Errorf("rolled back to nothing, the database still holds:\n%s", strings.Join(left, "\n"))
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate again: %v", err)
		}
		if err := db.Ready(ctx); err != nil {
			t.Fatalf("ready after migrating again: %v", err)
		}
		if again := schema(); !slices.Equal(again, migrated) {
			t.Errorf("schema after rolling back and migrating again differs:\n%s\nwas\n%s", strings.Join(again, "\n"), strings.Join(migrated, "\n"))
		}
	})
}

// Instances starting at once on one empty database migrate it one at a
// time: every one starts, and every migration is applied exactly once. On
// PostgreSQL the lock is the schema's, so a store in another schema of the
// same database migrates meanwhile.
func TestMigrationsAtOnce(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		const instances = 4
		dbs := make([]*sqlstore.DB, instances)
		for i := range dbs {
			db, err := sqlstore.Open(ctx, dsn, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			dbs[i] = db
		}
		var other *sqlstore.DB
		if !strings.HasPrefix(dsn, "sqlite:") {
			var err error
			if other, err = sqlstore.Open(ctx, storetest.DSN(t, sqlstore.Postgres), nil); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
		}
		var g errgroup.Group
		for _, db := range append(dbs, other) {
			if db != nil {
				g.Go(func() error { return db.Migrate(ctx) })
			}
		}
		if err := g.Wait(); err != nil {
			t.Fatalf("migrating at once: %v", err)
		}
		var applied []int64
		raw := storetest.OpenRaw(t, dsn)
		if err := raw.SelectContext(ctx, &applied, `SELECT version_id FROM goose_db_version WHERE version_id > 0 ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(applied) == 0 || len(slices.Compact(slices.Clone(applied))) != len(applied) {
			t.Errorf("migrations applied: %v", applied)
		}
		for _, db := range append(dbs, other) {
			if db != nil {
				if err := db.Ready(ctx); err != nil {
					t.Errorf("an instance is not ready: %v", err)
				}
			}
		}
	})
}
