package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// newStaleShop is a started shop whose page cache runs on a clock the test
// moves (the stale bound is 10 s on it).
func newStaleShop(t *testing.T, db *sqlstore.DB) (*shop, *atomic.Int64) {
	t.Helper()
	var skew atomic.Int64 // nanoseconds added to the real time
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond, CacheStale: 10 * time.Second,
		CacheClock: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return &shop{t: t, db: db, srv: srv}, &skew
}

// setTotePrice saves the Mountain Line Tee (a simple product) with a new regular price (minor units).
func setTotePrice(t *testing.T, db *sqlstore.DB, cents int64) {
	t.Helper()
	ctx := context.Background()
	tote, err := db.ProductBySlug(ctx, "mountain-line-tee")
	if err != nil {
		t.Fatal(err)
	}
	tote.RegularPrice, tote.SalePrice = &cents, nil
	if _, err := db.SaveProduct(ctx, tote, nil); err != nil {
		t.Fatal(err)
	}
}

// TestChangedPageServedStaleWhileRendered: after a price change the next
// request gets the old page at once, marked stale, while one background
// render replaces it; the new price shows after that render; a change
// that removes the page (a draft) drops it at once; and a stale page is
// not served past the bound.
func TestChangedPageServedStaleWhileRendered(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, skew := newStaleShop(t, db)
		const tote = "/product/mountain-line-tee/"
		staled := func() float64 { return metricValue(t, s, "vitrine_page_cache_staled") }

		setTotePrice(t, db, 4321)
		eventually(t, "the first price", func() bool { return strings.Contains(body(t, s.get(tote)), "$43.21") })
		if r := s.get(tote); r.Header.Get("X-Cache") != "hit" {
			t.Fatalf("tote page not cached: X-Cache %q", r.Header.Get("X-Cache"))
		}

		// A price change: stale once the change log is read, then fresh.
		before, marked := s.renders(), staled()
		setTotePrice(t, db, 5678)
		eventually(t, "the change marking the page stale", func() bool { return staled() > marked })
		r := s.get(tote)
		b := body(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("X-Cache") != "stale" || !strings.Contains(b, "$43.21") || strings.Contains(b, "$56.78") {
			t.Fatalf("first GET after the change: %d, X-Cache %q, old price %v, new price %v; want 200, stale, the old page",
				r.StatusCode, r.Header.Get("X-Cache"), strings.Contains(b, "$43.21"), strings.Contains(b, "$56.78"))
		}
		var stales int
		eventually(t, "the re-rendered page", func() bool {
			r := s.get(tote)
			b := body(t, r)
			switch r.Header.Get("X-Cache") {
			case "stale":
				stales++
				if !strings.Contains(b, "$43.21") {
					t.Fatal("a stale answer that is not the old page")
				}
				return false
			case "hit":
				return strings.Contains(b, "$56.78")
			}
			t.Fatalf("while re-rendering: X-Cache %q (a request rendered)", r.Header.Get("X-Cache"))
			return false
		})
		if n := s.renders() - before; n != 1 {
			t.Errorf("the change and %d more stale answers rendered the page %d times, want once", stales, n)
		}

		// The bound: a page stale for longer than 10 s is not answered;
		// the request renders the new one.
		marked = staled()
		setTotePrice(t, db, 6789)
		eventually(t, "the second change marking the page stale", func() bool { return staled() > marked })
		skew.Add(int64(10*time.Second + time.Millisecond))
		r = s.get(tote)
		if b := body(t, r); r.Header.Get("X-Cache") != "miss" || !strings.Contains(b, "$67.89") {
			t.Errorf("past the bound: X-Cache %q, new price %v; want a miss showing the new price", r.Header.Get("X-Cache"), strings.Contains(b, "$67.89"))
		}

		// A draft is gone at once: never answered stale.
		if r := s.get(tote); r.Header.Get("X-Cache") != "hit" {
			t.Fatalf("tote page not cached: X-Cache %q", r.Header.Get("X-Cache"))
		}
		p, err := db.ProductBySlug(context.Background(), "mountain-line-tee")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetProductStatus(context.Background(), []int64{p.ID}, catalog.StatusDraft, nil); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the draft's page gone", func() bool {
			r := s.get(tote)
			switch r.Header.Get("X-Cache") {
			case "hit":
				return false
			case "stale":
				t.Fatal("a product made a draft was answered stale")
			}
			return r.StatusCode == http.StatusNotFound
		})
	})
}
