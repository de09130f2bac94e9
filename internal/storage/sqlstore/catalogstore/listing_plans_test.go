package catalogstore_test

import (
	"context"
	"fmt"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestListingPagePlannedWithItsValues: on PostgreSQL a listing's page
// statement is not kept prepared, so each run is planned with its values:
// a prepared one goes to a generic plan after five runs, which for a
// filtered listing (a price range and a colour) fetched and sorted every
// product in the price range (decision 0123). Asked ten times on one
// connection, the page is the same each time and the session holds no
// prepared copy of the statement.
func TestListingPagePlannedWithItsValues(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		if db.Engine != sqlstore.Postgres {
			t.Skip("PostgreSQL's plan cache")
		}
		db.Read.SetMaxOpenConns(1)
		for i := range 30 {
			p := &catalog.Product{Type: catalog.TypeSimple, Name: fmt.Sprintf("Lamp %d", i), Status: catalog.StatusPublish, Purchasable: true,
				RegularPrice: i64(int64(100 * (i + 1))), MenuOrder: i % 7}
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		lo, hi := int64(500), int64(2500)
		var first []int64
		for i := range 10 {
			ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{MinPrice: &lo, MaxPrice: &hi, PerPage: 5, Page: 2, NoCount: true})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			if len(ids) != 5 {
				t.Fatalf("run %d: page of %d, want 5", i, len(ids))
			}
			if i == 0 {
				first = ids
			} else if len(first) != len(ids) || first[0] != ids[0] || first[4] != ids[4] {
				t.Fatalf("run %d: page %v, first %v", i, ids, first)
			}
		}
		var kept int
		if err := db.Read.GetContext(ctx, &kept, `SELECT COUNT(*) FROM pg_prepared_statements WHERE statement LIKE '%WHERE id IN (SELECT products.id FROM products%'
			AND statement NOT LIKE '%pg_prepared_statements%'`); err != nil {
			t.Fatal(err)
		}
		if kept != 0 {
			t.Errorf("the listing's page statement is kept prepared (%d), so it may run with a generic plan", kept)
		}
	})
}
