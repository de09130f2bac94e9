package storefront

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// aheadRig is Pages on a page cache of its own, with an engine that
// records the pages it renders (in order) and can hold them (gate).
type aheadRig struct {
	t     *testing.T
	cache *render.Cache
	pg    *Pages
	clock time.Time // the cache's clock

	mu       sync.Mutex
	order    []string       // the pages rendered, in order
	versions map[string]int // loads per page: the page shows its version
	running  int            // renders running now
	most     int            // the most renders running at once
	gates    map[string]chan struct{}
	onRender func(url string) // called in each render (the budget test's clock)
}

func newAheadRig(t *testing.T, workers int, cpu float64) *aheadRig {
	t.Helper()
	x := &aheadRig{t: t, clock: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC),
		versions: map[string]int{}, gates: map[string]chan struct{}{}}
	x.cache = render.NewCache(16<<20, time.Hour)
	x.cache.SetStaleFor(time.Hour)
	x.cache.SetClock(func() time.Time { x.mu.Lock(); defer x.mu.Unlock(); return x.clock })
	x.pg = NewPages(PagesDeps{Cache: x.cache, Engine: x, AheadWorkers: workers, AheadCPU: cpu,
		Live: func() *Live { return &Live{} }, Log: slog.New(slog.DiscardHandler)})
	return x
}

// Render is the engine: it records url, waits at url's gate if it has one,
// and shows the page's data.
func (x *aheadRig) Render(_ context.Context, url string, data []byte) (string, error) {
	x.mu.Lock()
	x.order = append(x.order, url)
	x.running++
	x.most = max(x.most, x.running)
	gate, on := x.gates[url], x.onRender
	x.mu.Unlock()
	if on != nil {
		on(url)
	}
	if gate != nil {
		<-gate
	}
	x.mu.Lock()
	x.running--
	x.mu.Unlock()
	return "<main>" + string(data) + "</main>", nil
}

// cached stores a page under key with tags, rendered from its loader, and
// moves the cache's clock on a second (so the pages' last requests differ).
func (x *aheadRig) cached(key string, tags ...string) {
	x.t.Helper()
	load := loadFunc(func(context.Context, string) (*pages.Result, error) {
		x.mu.Lock()
		x.versions[key]++
		v := x.versions[key]
		x.mu.Unlock()
		return &pages.Result{Status: http.StatusOK, Data: fmt.Sprintf("%s v%d", key, v), Tags: tags}, nil
	})
	x.cache.PutFrom(key, render.NewPage(http.StatusOK, []byte(key+" v0"), tags), load, x.cache.Seq())
	x.tick()
}

// asked is a request for key (its last request is now), then a tick.
func (x *aheadRig) asked(key string) {
	x.t.Helper()
	if _, state, _ := x.cache.Lookup(key); state != render.Fresh {
		x.t.Fatalf("%s: %v, want fresh", key, state)
	}
	x.tick()
}

func (x *aheadRig) tick() {
	x.mu.Lock()
	x.clock = x.clock.Add(time.Second)
	x.mu.Unlock()
}

// hold makes the renders of url wait until the returned func is called.
func (x *aheadRig) hold(url string) (release func()) {
	gate := make(chan struct{})
	x.mu.Lock()
	x.gates[url] = gate
	x.mu.Unlock()
	return sync.OnceFunc(func() { close(gate) })
}

// waitRunning waits until url's render has started n times.
func (x *aheadRig) waitRendered(url string, n int) {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for x.count(url) < n {
		if time.Now().After(deadline) {
			x.t.Fatalf("%s not rendered %d times", url, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// count is how many times url was rendered.
func (x *aheadRig) count(url string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := 0
	for _, u := range x.order {
		if u == url {
			n++
		}
	}
	return n
}

// fresh reports whether key is cached fresh, showing want.
func (x *aheadRig) fresh(key, want string) bool {
	p, state, _ := x.cache.Lookup(key)
	return state == render.Fresh && strings.Contains(string(p.HTML), want)
}

// TestRenderAheadOrder: a change renders every cached page it marks stale,
// asked for lately or not, one worker in priority order: the product's own
// page, the category and tag listings showing it (the one asked for last
// first), the home page, then the rest (search results, another product's
// page listing it as related, the shop page), recent first. Pages the
// change does not name are left alone.
func TestRenderAheadOrder(t *testing.T) {
	x := newAheadRig(t, 1, -1)
	x.cached("/", "product:1", "product:2", "listing")
	x.cached("/?s=tee&post_type=product", "product:1", "listing")
	x.cached("/product/hoodie/", "product:2", "product:1") // the tee as related
	x.cached("/product-tag/summer/", "product:1", "listing", "tag:4")
	x.cached("/product-category/shirts/", "product:1", "product:3", "listing", "category:5")
	x.cached("/shop/", "product:3", "product:1", "listing")
	x.cached("/product/tee/", "product:1", "product:2")
	x.cached("/product/socks/", "product:3")
	// Asked for lately: the search page after the other product's page, the
	// tag listing after the category one.
	x.asked("/product-category/shirts/")
	x.asked("/product/hoodie/")
	x.asked("/product-tag/summer/")
	x.asked("/?s=tee&post_type=product")
	x.tick()

	x.pg.StaleAndRenderAhead([]string{"product:1", "stock:1", "reviews"})
	x.pg.ahead.wait()

	want := []string{"/product/tee/", "/product-tag/summer/", "/product-category/shirts/", "/",
		"/?s=tee&post_type=product", "/product/hoodie/", "/shop/"}
	if strings.Join(x.order, " ") != strings.Join(want, " ") {
		t.Errorf("rendered ahead in the order\n%q\nwant\n%q", x.order, want)
	}
	for _, key := range want {
		if !x.fresh(key, " v1") {
			t.Errorf("%s is not its new version, fresh", key)
		}
	}
	if !x.fresh("/product/socks/", "v0") {
		t.Error("a page the change does not name was touched")
	}
}

// TestAheadRank: what the cache kept of a page ranks it.
func TestAheadRank(t *testing.T) {
	changed := map[string]bool{"product:1": true}
	for _, c := range []struct {
		key  string
		tags []string
		want int
	}{
		{"/product/tee/", []string{"product:1"}, aheadOwnPage},
		{"/product/tee/comment-page-2/", []string{"product:1"}, aheadOwnPage},
		{"/product/hoodie/", []string{"product:2", "product:1"}, aheadOther},
		{"/product-category/shirts/", []string{"product:1", "listing", "category:5"}, aheadListing},
		{"/product-category/shirts/page/2/?orderby=price", []string{"product:1", "listing", "category:5"}, aheadListing},
		{"/product-tag/summer/", []string{"product:1", "listing", "tag:4"}, aheadListing},
		{"/", []string{"product:1", "listing"}, aheadHome},
		{"/?s=tee&post_type=product&product_cat=shirts", []string{"product:1", "listing", "category:5"}, aheadOther},
		{"/shop/", []string{"product:1", "listing"}, aheadOther},
	} {
		if got := aheadRank(c.key, c.tags, changed); got != c.want {
			t.Errorf("%s: rank %d, want %d", c.key, got, c.want)
		}
	}
}

// TestRenderAheadWorkersBound: with 3 workers, 3 pages render at once and
// never more, however many are queued.
func TestRenderAheadWorkersBound(t *testing.T) {
	x := newAheadRig(t, 3, -1)
	var releases []func()
	for i := range 12 {
		key := fmt.Sprintf("/product-category/c%d/", i)
		x.cached(key, "product:1", "listing", fmt.Sprintf("category:%d", i))
		releases = append(releases, x.hold(key))
	}
	x.pg.StaleAndRenderAhead([]string{"product:1"})
	deadline := time.Now().Add(10 * time.Second)
	for {
		x.mu.Lock()
		running := x.running
		x.mu.Unlock()
		if running == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d renders running, want 3 at once", running)
		}
		time.Sleep(time.Millisecond)
	}
	if queued, _ := x.pg.AheadStats(); queued != 9 {
		t.Errorf("%d pages queued, want 9", queued)
	}
	for _, release := range releases {
		release()
	}
	x.pg.ahead.wait()
	if len(x.order) != 12 || x.most != 3 {
		t.Errorf("%d pages rendered, at most %d at once; want 12, at most 3", len(x.order), x.most)
	}
}

// TestRenderAheadBudget: the workers may spend half a core's time: each
// render takes a second (on the budget's clock, moved by the renders and
// the waits, never the wall's), so past the first half second's allowance
// the worker waits a second after each render: one second of rendering per
// two of wall time. With no budget it never waits.
func TestRenderAheadBudget(t *testing.T) {
	for _, c := range []struct {
		cpu       float64
		wantSlept time.Duration
	}{{0.5, 5 * time.Second}, {-1, 0}} {
		x := newAheadRig(t, 1, c.cpu)
		var mu sync.Mutex
		now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
		var slept time.Duration
		b := &x.pg.ahead.budget
		b.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		b.sleep = func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now, slept = now.Add(d), slept+d }
		x.onRender = func(string) { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second) }
		for i := range 6 {
			x.cached(fmt.Sprintf("/product/p%d/", i), "product:1")
		}
		x.pg.StaleAndRenderAhead([]string{"product:1"})
		x.pg.ahead.wait()
		// A wait before each render but the first (the allowance covers
		// half of it), none after the last.
		if len(x.order) != 6 || slept != c.wantSlept {
			t.Errorf("budget %v cores: %d pages rendered, waited %v; want 6, %v", c.cpu, len(x.order), slept, c.wantSlept)
		}
	}
}

// TestRenderAheadDedup: a page queued by two changes renders once; a
// request for a queued page gets it stale and starts no render; a page
// dropped from the cache before its turn is skipped; a change that comes
// while a page is rendered has it rendered again (stored stale meanwhile,
// never fresh with the older content).
func TestRenderAheadDedup(t *testing.T) {
	x := newAheadRig(t, 1, -1)
	x.cached("/product/busy/", "product:9")
	x.cached("/product/tee/", "product:1")
	x.cached("/product/gone/", "product:2")
	release := x.hold("/product/busy/")
	x.pg.StaleAndRenderAhead([]string{"product:9"})
	x.waitRendered("/product/busy/", 1) // the one worker is held

	x.pg.StaleAndRenderAhead([]string{"product:1", "product:2"})
	x.pg.StaleAndRenderAhead([]string{"product:1"})
	if queued, _ := x.pg.AheadStats(); queued != 2 {
		t.Errorf("two changes to the tee and one to the other page: %d queued, want 2", queued)
	}
	w := httptest.NewRecorder()
	x.pg.servePage(w, httptest.NewRequest(http.MethodGet, "/product/tee/", nil), "/product/tee/",
		func(context.Context, string) (*pages.Result, error) {
			t.Fatal("a request loaded a queued page")
			return nil, nil
		})
	if got := w.Header().Get("X-Cache"); got != "stale" || !strings.Contains(w.Body.String(), "/product/tee/ v0") {
		t.Errorf("a request for a queued page: X-Cache %q; want the old page, stale", got)
	}
	x.cache.Invalidate("product:2")
	release()
	x.pg.ahead.wait()
	if n := x.count("/product/tee/"); n != 1 {
		t.Errorf("the tee rendered %d times, want once", n)
	}
	if n := x.count("/product/gone/"); n != 0 {
		t.Errorf("a page dropped before its turn rendered %d times", n)
	}
	if _, skipped := x.pg.AheadStats(); skipped != 1 {
		t.Errorf("%d pages skipped, want 1", skipped)
	}
	if !x.fresh("/product/tee/", "/product/tee/ v1") {
		t.Error("the tee is not its new version, fresh")
	}

	// A change during the render: rendered again, the second time with
	// what the change made.
	release = x.hold("/product/tee/")
	x.pg.StaleAndRenderAhead([]string{"product:1"})
	x.waitRendered("/product/tee/", 2)
	x.pg.StaleAndRenderAhead([]string{"product:1"}) // while it renders v2
	if _, state, refresh := x.cache.Lookup("/product/tee/"); state != render.Stale || refresh {
		t.Errorf("during the render: %v, refresh %v; want stale, no request told to render", state, refresh)
	}
	x.mu.Lock()
	delete(x.gates, "/product/tee/")
	x.mu.Unlock()
	release()
	x.pg.ahead.wait()
	if n := x.count("/product/tee/"); n != 3 {
		t.Errorf("a change during its render: the tee rendered %d times in all, want 3", n)
	}
	if !x.fresh("/product/tee/", "/product/tee/ v3") {
		t.Error("the tee is not the version loaded after the last change, fresh")
	}
}

// TestAheadQueueReplaces: a page handed out again while queued (the cache
// replaced it meanwhile) is queued once, as the newer entry, at the better
// of the two ranks.
func TestAheadQueueReplaces(t *testing.T) {
	q := &aheadQueue{queued: map[string]*aheadJob{}} // no workers: the test takes the pages
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	q.push([]*aheadJob{
		{r: render.Refresh{Key: "/a/", LastHit: at}, rank: aheadOther},
		{r: render.Refresh{Key: "/b/", LastHit: at}, rank: aheadHome},
	})
	q.push([]*aheadJob{{r: render.Refresh{Key: "/a/", Src: "newer", LastHit: at}, rank: aheadListing}})
	if len(q.jobs) != 2 {
		t.Fatalf("%d pages queued, want 2", len(q.jobs))
	}
	if j := q.next(); j.r.Key != "/a/" || j.r.Src != "newer" || j.rank != aheadListing {
		t.Errorf("first: %s (%v) at rank %d; want /a/, the newer entry, as a listing", j.r.Key, j.r.Src, j.rank)
	}
	if j := q.next(); j.r.Key != "/b/" {
		t.Errorf("second: %s, want /b/", j.r.Key)
	}
}
