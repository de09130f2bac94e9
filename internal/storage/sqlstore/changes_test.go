package sqlstore_test

import (
	"context"
	"testing"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// ChangesIn answers the entries among the ids asked for that exist, in id
// order, and nothing for ids that never committed.
func TestChangesIn(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		db := storetest.OpenDSN(t, dsn)
		ctx := context.Background()
		_, _, mug := fixture(t, db)
		last, err := db.LastChange(ctx)
		if err != nil || last == 0 {
			t.Fatalf("LastChange = %d %v", last, err)
		}
		// A change that is rolled back leaves its id unused (a gap).
		raw := storetest.OpenRaw(t, dsn)
		tx, err := raw.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		var gap int64
		if err := tx.Get(&gap, tx.Rebind(`INSERT INTO catalog_changes (product_id, kind, at) VALUES (?, 'product', CURRENT_TIMESTAMP) RETURNING id`), mug.ID); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		p, _ := db.Product(ctx, mug.ID)
		p.Name = "Mug, renamed"
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		newest, _ := db.LastChange(ctx)
		got, err := db.ChangesIn(ctx, []int64{newest, gap, last, newest + 100})
		if err != nil || len(got) != 2 || got[0].ID != last || got[1].ID != newest || got[1].ProductID != mug.ID {
			t.Fatalf("ChangesIn = %+v %v (last %d, gap %d, newest %d)", got, err, last, gap, newest)
		}
		if db.Engine == sqlstore.Postgres && newest <= gap {
			t.Errorf("PostgreSQL reused the rolled-back id %d", gap)
		}
		if got, err := db.ChangesIn(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("ChangesIn(nil) = %+v %v", got, err)
		}
	})
}
