package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The seeded shop read 30 and 400 days after its seed: every sale it
// seeded has ended and its pre-order is released, and the prices listings
// sort and filter by, the on-sale filter and the pages agree with the
// prices shown, on a running instance (its minute pass) and on one started
// then (its start-up pass).
func TestShopClockMovedAhead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		clock := storetest.NewClock(seedTime)
		cfg := server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour,
			ChangePoll: 10 * time.Millisecond, Now: clock.Now}
		running := newServer(t, db, "", 1, cfg)
		servertest.Start(t, running)
		ctx := context.Background()

		// As seeded: its three scheduled sales on, the olive hoodie on
		// pre-order.
		scheduled := []string{"Half-zip Fleece", "Pocket Tee", "Striped Lightweight Scarf"}
		onSale := checkSchedules(t, running, "as seeded")
		for _, name := range scheduled {
			if !slices.Contains(onSale, name) {
				t.Fatalf("as seeded, %s is not on sale: %v", name, onSale)
			}
		}
		if !strings.Contains(visitorGet(running, "/product/everyday-hoodie/").body, `"is_pre_order":"yes"`) {
			t.Fatal("as seeded, the olive hoodie is not on pre-order")
		}
		// Warm the caches with the seeded prices.
		for _, path := range []string{"/shop/", "/shop/?orderby=price", api + "/products?on_sale=true&per_page=100"} {
			visitorGet(running, path)
		}

		// 30 days on: the running instance's minute pass applies the
		// schedules, and every instance drops what it cached.
		clock.Add(30 * 24 * time.Hour)
		if n := running.ScheduleUpkeep(ctx); n < 4 {
			t.Errorf("the pass 30 days on changed %d products, want the three sales and the pre-order", n)
		}
		if err := waitFor(time.Now().Add(10*time.Second), func() bool {
			return !strings.Contains(visitorGet(running, api+"/products?on_sale=true&per_page=100").body, "Half-zip Fleece")
		}); err != nil {
			t.Fatalf("the cached on-sale list was not dropped: %v: %.2000s", err, visitorGet(running, api+"/products?on_sale=true&per_page=100").body)
		}
		ended := func(when string, got []string) {
			t.Helper()
			for _, name := range scheduled {
				if slices.Contains(got, name) {
					t.Errorf("%s, %s is still on sale", when, name)
				}
			}
			if len(got) != len(onSale)-len(scheduled) {
				t.Errorf("%s, on sale: %v; as seeded: %v", when, got, onSale)
			}
		}
		ended("30 days on", checkSchedules(t, running, "30 days on"))
		if strings.Contains(visitorGet(running, "/product/everyday-hoodie/").body, `"is_pre_order":"yes"`) {
			t.Error("30 days on, the olive hoodie is still on pre-order")
		}
		if n := running.ScheduleUpkeep(ctx); n != 0 {
			t.Errorf("a second pass changed %d products", n)
		}

		// 400 days on: an instance started then serves the same shop.
		clock.Add(370 * 24 * time.Hour)
		later := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20,
			CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
		servertest.Start(t, later)
		for _, srv := range []*server.Server{later, running} {
			ended("400 days on", checkSchedules(t, srv, "400 days on"))
		}
		// The fleece's sale ended: a cart pays its regular price.
		shopper := (&shop{t: t, db: db, srv: later}).client()
		shopper.do("GET", cartAPI, "")
		fleece := (&shop{t: t, db: db, srv: later}).productID("half-zip-fleece")
		if a := shopper.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, fleece)); a.status != 201 ||
			!strings.Contains(a.raw, `"total_items":"7200"`) {
			t.Errorf("400 days on, the fleece added at %d: %.600s", a.status, a.raw)
		}
	})
}

// checkSchedules checks that srv's Store API sorts and filters by the
// prices it shows and that its pages render, and returns the names of the
// products it lists as on sale.
func checkSchedules(t *testing.T, srv *server.Server, when string) []string {
	t.Helper()
	var all []apiProduct
	get := func(path string) []apiProduct {
		t.Helper()
		a := visitorGet(srv, path)
		if a.status != 200 {
			t.Fatalf("%s: %s answered %d", when, path, a.status)
		}
		var ps []apiProduct
		if err := json.Unmarshal([]byte(a.body), &ps); err != nil {
			t.Fatalf("%s: %s: %v", when, path, err)
		}
		return ps
	}
	all = get(api + "/products?orderby=price&order=asc&per_page=100")
	if len(all) != 38 {
		t.Errorf("%s: %d products listed, want 38", when, len(all))
	}
	for i := 1; i < len(all); i++ {
		if atoi(all[i].Prices.Price) < atoi(all[i-1].Prices.Price) {
			t.Errorf("%s: by price, %s (%s) comes after %s (%s)", when, all[i].Name, all[i].Prices.Price, all[i-1].Name, all[i-1].Prices.Price)
		}
	}
	desc := get(api + "/products?orderby=price&order=desc&per_page=100")
	for i := 1; i < len(desc); i++ {
		if atoi(desc[i].Prices.Price) > atoi(desc[i-1].Prices.Price) {
			t.Errorf("%s: by price descending, %s (%s) comes after %s (%s)", when, desc[i].Name, desc[i].Prices.Price, desc[i-1].Name, desc[i-1].Prices.Price)
		}
	}
	var want, got []string
	for _, p := range all {
		if p.OnSale {
			want = append(want, p.Name)
		}
		if p.Type == "simple" {
			// The price filter finds a product at the price it shows.
			price := p.Prices.Price
			found := false
			for _, q := range get(api + "/products?per_page=100&min_price=" + price + "&max_price=" + price) {
				found = found || q.ID == p.ID
			}
			if !found {
				t.Errorf("%s: %s is not found at its price %s", when, p.Name, price)
			}
		}
	}
	for _, p := range get(api + "/products?on_sale=true&per_page=100") {
		got = append(got, p.Name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, "|") != strings.Join(got, "|") {
		t.Errorf("%s: on_sale=true lists %v, the products shown on sale are %v", when, got, want)
	}
	for _, path := range []string{"/", "/shop/", "/shop/?orderby=price", "/product/everyday-hoodie/", "/product/half-zip-fleece/"} {
		if a := visitorGet(srv, path); a.status != 200 {
			t.Errorf("%s: %s answered %d", when, path, a.status)
		}
	}
	return got
}
