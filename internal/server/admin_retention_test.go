package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/retention"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Data retention through the real server: the admin API reads and saves
// the policy (staff only; bad input and a stale save change nothing), and
// the upkeep loop of two instances on one store takes each run once.
func TestAdminRetention(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clock := storetest.NewClock(seedTime)
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", Now: clock.Now})
		const path = "/wp-json/vitrine/v1/admin/retention"
		type answer struct {
			retention.Policy
			Version int64 `json:"version"`
			LastRun *struct {
				At string `json:"at"`
				retention.Result
			} `json:"last_run"`
		}
		read := func() answer {
			t.Helper()
			a := f.as("Mia", "GET", path, "")
			var got answer
			if err := json.Unmarshal([]byte(a.body), &got); a.status != 200 || err != nil {
				t.Fatalf("get: %d %s", a.status, a.body)
			}
			return got
		}
		if got := read(); got.Policy != (retention.Policy{}) || got.Version != 0 || got.LastRun != nil {
			t.Fatalf("defaults: %+v", got)
		}
		f.wantStaffOnly([]adminCall{{"GET", path, ""}, {"PUT", path, `{"version":0,"guest_order_months":6}`}})

		// Bad input: the field named, nothing saved.
		for _, c := range []struct{ body, field, code string }{
			{`{"version":0,"guest_order_months":-1}`, "guest_order_months", "rest_invalid_param"},
			{`{"version":0,"inactive_account_months":1201}`, "inactive_account_months", "rest_invalid_param"},
			{`{"guest_order_months":6}`, "version", "rest_invalid_param"},
			{`{"version":0,"failed_order_months":"six"}`, "", "rest_invalid_json"},
			{`[1]`, "", "rest_invalid_json"},
		} {
			a := f.as("Mia", "PUT", path, c.body)
			wantError(t, c.body, a, 400, c.code)
			if c.field != "" && a.json(t)["data"].(map[string]any)["params"].(map[string]any)[c.field] == nil {
				t.Errorf("%s: %s does not name %s", c.body, a.body, c.field)
			}
		}
		if got := read(); got.Policy != (retention.Policy{}) || got.Version != 0 {
			t.Fatalf("a refused save changed the policy: %+v", got)
		}

		a := f.as("Mia", "PUT", path, `{"version":0,"guest_order_months":6,"failed_order_months":3}`)
		if a.status != 200 {
			t.Fatalf("save: %d %s", a.status, a.body)
		}
		if got := read(); got.Policy != (retention.Policy{GuestOrderMonths: 6, FailedOrderMonths: 3}) || got.Version != 1 {
			t.Fatalf("saved: %+v", got)
		}
		if es := f.audits("retention"); len(es) != 1 || es[0].Action != "retention.update" ||
			es[0].Summary != "Data retention: guest orders kept → 6 months, cancelled and failed orders kept → 3 months" {
			t.Fatalf("activity log: %+v", es)
		}
		stale := f.as("Mia", "PUT", path, `{"version":0,"guest_order_months":1}`)
		wantError(t, "stale save", stale, 409, "vitrine_settings_stale")
		if got := read(); got.GuestOrderMonths != 6 {
			t.Fatalf("a stale save changed the policy: %+v", got)
		}

		// A guest's completed order, placed at seedTime.
		price, stock := int64(2500), int64(10)
		lamp := &catalog.Product{Type: catalog.TypeSimple, Name: "Retention Lamp", Slug: "retention-lamp", RegularPrice: &price,
			ManageStock: true, StockQuantity: &stock, Purchasable: true, Status: "publish"}
		addr := checkout.Address{FirstName: "Gus", LastName: "Guest", Address1: "9 Elm St", City: "Sacramento", State: "CA", Postcode: "95814",
			Country: "US", Email: "gus@example.com", Phone: "5550100999"}
		o := placeStoreOrder(t, db, lamp, 1, "t_retention_0000000000000000001", checkout.Customer{Billing: addr, Shipping: addr}, nil)
		if a := f.as("Mia", "PUT", fmt.Sprintf("/wp-json/wc/v3/orders/%d", o.ID), `{"status":"completed"}`); a.status != 200 {
			t.Fatalf("complete: %d %s", a.status, a.body)
		}

		// Two instances on the store tick their upkeep together.
		other := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Now: clock.Now})
		tick := func() (ran, anonymised int) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for _, s := range []*server.Server{f.srv, other} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, res, err := s.RetentionUpkeep(ctx)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					defer mu.Unlock()
					if r {
						ran++
					}
					anonymised += res.GuestOrdersAnonymised
				}()
			}
			wg.Wait()
			return ran, anonymised
		}
		// A day short of six months: one run, nothing due.
		clock.Set(retention.Cutoff(seedTime, -6).Add(-24 * time.Hour))
		if ran, n := tick(); ran != 1 || n != 0 {
			t.Fatalf("a day early: %d ran, %d anonymised", ran, n)
		}
		// Six months on, the next hour's run anonymises it, once.
		clock.Set(retention.Cutoff(seedTime, -6).Add(time.Hour))
		if ran, n := tick(); ran != 1 || n != 1 {
			t.Fatalf("six months on: %d ran, %d anonymised", ran, n)
		}
		got, err := db.Order(ctx, o.ID)
		if err != nil || got.AnonymisedAt == nil || got.Billing.Email != sqlstore.AnonymisedEmail || got.Total != o.Total {
			t.Fatalf("order after the run: %+v, %v", got, err)
		}
		if ran, _ := tick(); ran != 0 {
			t.Fatalf("%d instances ran again within the hour", ran)
		}
		es := f.audits("retention")
		if len(es) != 2 || es[0].Action != "retention.run" || es[0].Summary != "1 guest order anonymised." || es[0].ActorName != retention.ActorName {
			t.Fatalf("activity log: %+v", es)
		}
		at, summary, ok, err := db.LastRetentionRun(ctx)
		if err != nil || !ok || at.IsZero() || summary == "" {
			t.Fatalf("last run: %v %q %v %v", at, summary, ok, err)
		}
	})
}
