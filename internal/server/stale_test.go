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
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// newStaleShop is a started shop whose page cache runs on a clock the test
// moves (the stale bound is 10 s on it). It renders ahead only the pages
// asked for within the last minute, so that a page not asked for lately
// shows the request-driven re-render (by default every changed page is
// rendered ahead: TestChangedPagesRenderedAhead).
func newStaleShop(t *testing.T, db *sqlstore.DB) (*shop, *atomic.Int64) {
	t.Helper()
	var skew atomic.Int64 // nanoseconds added to the real time
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond, CacheStale: 10 * time.Second,
		CacheClock:        func() time.Time { return time.Now().Add(time.Duration(skew.Load())) },
		RenderAheadWithin: time.Minute})
	servertest.Start(t, srv)
	return &shop{t: t, db: db, srv: srv}, &skew
}

// setTeePrice saves the Mountain Line Tee (a simple product) with a new regular price (minor units).
func setTeePrice(t *testing.T, db *sqlstore.DB, cents int64) {
	t.Helper()
	editProduct(t, db, "mountain-line-tee", func(p *catalog.Product) { p.RegularPrice, p.SalePrice = &cents, nil })
}

// TestChangedPageServedStaleWhileRendered: a page asked for in the last
// minute is rendered again right after a price change, and requests get the
// old page (marked stale) until then; a page not asked for lately is
// answered stale by the next request, which starts one background render;
// either way the page renders once per change and then shows the new
// price. A stale page is not served past the bound, and a change that
// removes the page (a draft) drops it at once.
func TestChangedPageServedStaleWhileRendered(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s, skew := newStaleShop(t, db)
		const tee = "/product/mountain-line-tee/"
		staled := func() float64 { return metricValue(t, s, "vitrine_page_cache_staled") }
		ahead := func() float64 { return metricValue(t, s, "vitrine_page_renders_ahead_total") }
		// untilNew asks for the page until it shows want, fresh from the
		// cache; meanwhile every answer must be the old page, stale.
		untilNew := func(old, want string) {
			t.Helper()
			eventually(t, "the page showing "+want, func() bool {
				r := s.get(tee)
				b := body(t, r)
				switch r.Header.Get("X-Cache") {
				case "stale":
					if !strings.Contains(b, old) {
						t.Fatalf("a stale answer without the old price %s", old)
					}
					return false
				case "hit":
					return strings.Contains(b, want)
				}
				t.Fatalf("while re-rendering: X-Cache %q (a request rendered)", r.Header.Get("X-Cache"))
				return false
			})
		}

		// reprice sets the tee's price and waits until the change marks
		// its page stale.
		reprice := func(cents int64, change string) {
			t.Helper()
			marked := staled()
			setTeePrice(t, db, cents)
			eventually(t, change+" marking the page stale", func() bool { return staled() > marked })
		}

		// The seeded price, cached (no change pending).
		s.get(tee)
		if r := s.get(tee); r.Header.Get("X-Cache") != "hit" || !strings.Contains(body(t, r), "$30.00") {
			t.Fatalf("the page is not cached at the seeded price: X-Cache %q", r.Header.Get("X-Cache"))
		}

		// Asked for just now: rendered ahead, once.
		before, aheadBefore := s.renders(), ahead()
		reprice(5678, "the change")
		untilNew("$30.00", "$56.78")
		if n := s.renders() - before; n != 1 {
			t.Errorf("a change to a page asked for lately rendered it %d times, want once", n)
		}
		if n := ahead() - aheadBefore; n != 1 {
			t.Errorf("%v pages rendered ahead, want 1", n)
		}

		// Not asked for in the last minute: the next request gets it
		// stale and starts the one render.
		skew.Add(int64(2 * time.Minute))
		before, aheadBefore = s.renders(), ahead()
		reprice(6789, "the second change")
		r := s.get(tee)
		b := body(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("X-Cache") != "stale" || !strings.Contains(b, "$56.78") || strings.Contains(b, "$67.89") {
			t.Fatalf("first GET after the change: %d, X-Cache %q, old price %v, new price %v; want 200, stale, the old page",
				r.StatusCode, r.Header.Get("X-Cache"), strings.Contains(b, "$56.78"), strings.Contains(b, "$67.89"))
		}
		untilNew("$56.78", "$67.89")
		if n := s.renders() - before; n != 1 {
			t.Errorf("the change and its stale answers rendered the page %d times, want once", n)
		}
		if n := ahead() - aheadBefore; n != 0 {
			t.Errorf("a page not asked for lately was rendered ahead (%v)", n)
		}

		// The bound: a page stale for longer than 10 s is not answered;
		// the request renders the new one.
		skew.Add(int64(2 * time.Minute))
		reprice(7890, "the third change")
		skew.Add(int64(10*time.Second + time.Millisecond))
		r = s.get(tee)
		if b := body(t, r); r.Header.Get("X-Cache") != "miss" || !strings.Contains(b, "$78.90") {
			t.Errorf("past the bound: X-Cache %q, new price %v; want a miss showing the new price", r.Header.Get("X-Cache"), strings.Contains(b, "$78.90"))
		}

		// A draft is gone at once: never answered stale.
		if r := s.get(tee); r.Header.Get("X-Cache") != "hit" {
			t.Fatalf("the page is not cached: X-Cache %q", r.Header.Get("X-Cache"))
		}
		p, err := db.ProductBySlug(context.Background(), "mountain-line-tee")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetProductStatus(context.Background(), []int64{p.ID}, catalog.StatusDraft, nil); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the draft's page gone", func() bool {
			r := s.get(tee)
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

// changesApplied waits until the change follower has read every change
// committed so far (tests that count cache hits after writes need it now
// that a page loaded while a change is read is stored stale): it saves a
// product in a category of its own, a "product" change, and waits until its
// cached page is marked stale. The log is read in order.
func changesApplied(t *testing.T, srv *server.Server, db *sqlstore.DB) {
	t.Helper()
	const marker = "/product/everyday-crew-socks/"
	s := &shop{t: t, db: db, srv: srv}
	eventually(t, "the marker page cached", func() bool { return s.get(marker).Header.Get("X-Cache") == "hit" })
	marked := metricValue(t, s, "vitrine_page_cache_staled")
	editProduct(t, db, "everyday-crew-socks", func(*catalog.Product) {}) // saved as it is: a change
	eventually(t, "the changes applied", func() bool { return metricValue(t, s, "vitrine_page_cache_staled") > marked })
}

// TestChangedPagesRenderedAhead: after a product is saved, its page and
// its category's listing are rendered again with no request asking, though
// neither was asked for in the last two minutes (by default every page a
// change marks stale is rendered ahead): the first request that is not
// answered the old page stale is a hit showing the new price, never a
// miss, and every render since the save was one ahead of requests.
func TestChangedPagesRenderedAhead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		var skew atomic.Int64 // nanoseconds added to the real time
		srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
			CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond, CacheStale: time.Minute,
			CacheClock: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
		servertest.Start(t, srv)
		s := &shop{t: t, db: db, srv: srv}
		const tee, shirts = "/product/mountain-line-tee/", "/product-category/clothing/t-shirts/"
		for _, path := range []string{tee, shirts} {
			s.get(path)
			if r := s.get(path); r.Header.Get("X-Cache") != "hit" || !strings.Contains(body(t, r), "Mountain Line Tee") {
				t.Fatalf("%s is not cached showing the tee: X-Cache %q", path, r.Header.Get("X-Cache"))
			}
		}
		skew.Add(int64(2 * time.Minute))
		ahead := func() float64 { return metricValue(t, s, "vitrine_page_renders_ahead_total") }
		renders, aheadBefore := s.renders(), ahead()

		setTeePrice(t, db, 5678)
		eventuallyWithin(t, 10*time.Second, "both pages rendered ahead", func() bool { return ahead() >= aheadBefore+2 })
		for _, path := range []string{tee, shirts} {
			eventuallyWithin(t, 10*time.Second, path+" showing the new price", func() bool {
				r := s.get(path)
				b := body(t, r)
				switch r.Header.Get("X-Cache") {
				case "stale": // its render ahead not stored yet
					if strings.Contains(b, "$56.78") {
						t.Fatalf("%s: a stale answer with the new price", path)
					}
					return false
				case "hit":
					if !strings.Contains(b, "$56.78") {
						t.Fatalf("%s: a hit without the new price", path)
					}
					return true
				}
				t.Fatalf("%s: X-Cache %q after the change (a request rendered it)", path, r.Header.Get("X-Cache"))
				return false
			})
		}
		if n, a := s.renders()-renders, ahead()-aheadBefore; float64(n) != a {
			t.Errorf("%d renders since the save, %v of them ahead of requests; want all ahead", n, a)
		}
	})
}
