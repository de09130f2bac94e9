package sqlstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// A page of the customers' list (GET /wc/v3/customers) costs the same
// number of statements whatever its size: the count, the page's ids, the
// users with their aggregates and the page's addresses. It was three more
// statements per row.
func TestCustomersPageStatements(t *testing.T) {
	for _, engine := range storetest.Engines(t) {
		t.Run(strings.ToLower(engine), func(t *testing.T) {
			ctx := context.Background()
			var c sqlstore.Counter
			db, err := sqlstore.OpenCounted(ctx, storetest.DSN(t, engine), nil, &c)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			const n = 30
			for i := range n {
				id := newUser(t, db, fmt.Sprintf("c%02d@example.com", i))
				if err := db.SetProfile(ctx, id, account.Profile{FirstName: fmt.Sprintf("First%02d", i), LastName: "Last",
					DisplayName: fmt.Sprintf("Customer %02d", i)}); err != nil {
					t.Fatal(err)
				}
				if i%2 == 0 {
					home := cart.Address{FirstName: "F", City: fmt.Sprintf("City%02d", i), Country: "US"}
					if err := db.SaveAddress(ctx, id, account.AddressBilling, home, orderNow); err != nil {
						t.Fatal(err)
					}
					if err := db.SaveAddress(ctx, id, account.AddressShipping, home, orderNow); err != nil {
						t.Fatal(err)
					}
				}
			}
			svc := &account.Service{Store: db, Now: db.Now}
			page := func(limit int) ([]*account.Customer, int64) {
				t.Helper()
				before := c.Count()
				got, total, err := svc.Customers(ctx, account.CustomerQuery{OrderBy: "id", Limit: limit})
				if err != nil || total != n || len(got) != min(limit, n) {
					t.Fatalf("page of %d: %v, total %d, %d rows", limit, err, total, len(got))
				}
				return got, c.Count().Sub(before).Statements
			}
			_, small := page(2)
			rows, big := page(n)
			if small != big || big > 4 {
				t.Errorf("statements: %d for 2 rows, %d for %d rows; want the same, at most 4", small, big, n)
			}
			for i, r := range rows {
				wantCity := ""
				if i%2 == 0 {
					wantCity = fmt.Sprintf("City%02d", i)
				}
				if r.Email != fmt.Sprintf("c%02d@example.com", i) || r.FirstName != fmt.Sprintf("First%02d", i) ||
					r.Billing.City != wantCity || r.Shipping.City != wantCity || (wantCity != "" && !r.ModifiedAt.Equal(orderNow)) {
					t.Errorf("row %d: %+v", i, r)
				}
			}
		})
	}
}
