package storefront

import (
	"container/heap"
	"math"
	"runtime"
	"strings"
	"sync"
	"time"

	"vitrine/internal/render"
)

// Render ahead: after a catalogue change, every cached page the change
// marks stale is rendered again in the background, so that the next
// shopper gets the new page instead of the stale one, and no shopper waits
// for a render. The pages wait in one queue, deduplicated by page key, in
// priority order (aheadRank); a few workers take them, within a budget of
// render time per second, so that a bulk import does not starve the
// shoppers' own renders. Requests never wait for the queue: a queued page
// is answered stale until its turn (docs/decisions, "Render ahead").

// Ranks of a page to render ahead; lower is rendered first, and within a
// rank the page asked for most recently first.
const (
	aheadOwnPage = iota // the changed product's own page (and its review pages)
	aheadListing        // a category or tag listing showing it
	aheadHome           // the home page
	aheadOther          // the rest: search results, the shop page, other products' pages listing it (related, upsells)
)

// aheadRank ranks a page for a change naming changed, from what the cache
// kept of it: its key and the tags it was stored with. A product's page
// (its key under /product/) carries its own product's tag first
// (pages.Loader.Product); a category or tag listing carries "category:N"
// or "tag:N"; search results are keyed "/?s=...".
func aheadRank(key string, tags []string, changed map[string]bool) int {
	switch {
	case strings.HasPrefix(key, "/product/") && len(tags) > 0 && changed[tags[0]]:
		return aheadOwnPage
	case key == "/":
		return aheadHome
	case strings.HasPrefix(key, "/?"):
		return aheadOther
	}
	for _, t := range tags {
		if strings.HasPrefix(t, "category:") || strings.HasPrefix(t, "tag:") {
			return aheadListing
		}
	}
	return aheadOther
}

// aheadJob is a page waiting to be rendered ahead.
type aheadJob struct {
	r    render.Refresh
	load loadFunc
	rank int
	n    uint64 // when it was queued: first in, first out among equals
}

// aheadJobs is the queue's heap: rank, then the most recently asked for,
// then the first queued.
type aheadJobs []*aheadJob

func (h aheadJobs) Len() int { return len(h) }
func (h aheadJobs) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if !a.r.LastHit.Equal(b.r.LastHit) {
		return a.r.LastHit.After(b.r.LastHit)
	}
	return a.n < b.n
}
func (h aheadJobs) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *aheadJobs) Push(x any)   { *h = append(*h, x.(*aheadJob)) }
func (h *aheadJobs) Pop() any {
	old := *h
	j := old[len(old)-1]
	*h = old[:len(old)-1]
	return j
}

// aheadQueue is the pages to render ahead and the workers rendering them.
// Workers are started when pages are queued and end when the queue is
// empty: an idle shop runs none.
type aheadQueue struct {
	mu      sync.Mutex
	idle    sync.Cond // signalled when the last worker ends (tests)
	jobs    aheadJobs
	queued  map[string]*aheadJob
	n       uint64
	workers int // at most this many at once
	running int
	skipped uint64
	budget  aheadBudget
}

// push queues jobs (a job for a page already queued replaces it, at the
// better rank) and returns how many workers to start.
func (q *aheadQueue) push(jobs []*aheadJob) (start int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, j := range jobs {
		if old := q.queued[j.r.Key]; old != nil {
			// The cache handed the page out again (it was replaced
			// meanwhile): the newer entry is the one to render.
			old.r, old.load, old.rank = j.r, j.load, min(old.rank, j.rank)
			heap.Fix(&q.jobs, q.index(old))
			continue
		}
		q.n++
		j.n = q.n
		q.queued[j.r.Key] = j
		heap.Push(&q.jobs, j)
	}
	for q.running < q.workers && q.running < len(q.jobs) {
		q.running++
		start++
	}
	return start
}

// index is j's place in the heap (q.mu held; only for a page handed out
// again, which is rare).
func (q *aheadQueue) index(j *aheadJob) int {
	for i, x := range q.jobs {
		if x == j {
			return i
		}
	}
	return -1
}

// next takes the first page, or ends the calling worker (nil) when there
// is none.
func (q *aheadQueue) next() *aheadJob {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) == 0 {
		q.running--
		if q.running == 0 {
			q.idle.Broadcast()
		}
		return nil
	}
	j := heap.Pop(&q.jobs).(*aheadJob)
	delete(q.queued, j.r.Key)
	return j
}

// wait blocks until no worker runs (tests).
func (q *aheadQueue) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.running > 0 {
		q.idle.Wait()
	}
}

// AheadStats are the render-ahead queue's length and the queued pages
// skipped because the cache dropped or replaced them before their turn.
func (pg *Pages) AheadStats() (queued int, skipped uint64) {
	q := &pg.ahead
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs), q.skipped
}

// aheadBudget bounds the render time render-ahead spends per second of
// wall time: rate seconds of rendering per second (1: one core's worth).
// A worker spends what its render took (load, render and compression, as
// wall time: a render that waited for a VM busy with a shopper's counts
// too, so render-ahead yields more when the shop is busy) and waits before
// the next render while the budget is overspent. The allowance builds up
// at rate and is capped at one second's worth: an idle spell banks no
// burst.
type aheadBudget struct {
	mu    sync.Mutex
	rate  float64 // <= 0: no budget
	avail float64 // seconds of rendering; negative: overspent
	at    time.Time
	now   func() time.Time
	sleep func(time.Duration)
}

// refill adds the allowance since the last call (b.mu held).
func (b *aheadBudget) refill() {
	now := b.now()
	if b.at.IsZero() {
		b.avail = b.rate
	} else if d := now.Sub(b.at); d > 0 {
		b.avail = min(b.rate, b.avail+d.Seconds()*b.rate)
	}
	b.at = now
}

// wait returns once the budget is not overspent.
func (b *aheadBudget) wait() {
	if b.rate <= 0 {
		return
	}
	for {
		b.mu.Lock()
		b.refill()
		debt := -b.avail
		b.mu.Unlock()
		if debt <= 0 {
			return
		}
		b.sleep(time.Duration(math.Ceil(debt / b.rate * float64(time.Second))))
	}
}

// spend counts a render of d against the budget.
func (b *aheadBudget) spend(d time.Duration) {
	if b.rate <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.avail -= d.Seconds()
}

// initAhead sets the queue up from the deps' settings.
func (pg *Pages) initAhead() {
	half := runtime.GOMAXPROCS(0) / 2
	q := &pg.ahead
	q.idle.L = &q.mu
	q.queued = map[string]*aheadJob{}
	q.workers = pg.d.AheadWorkers
	if q.workers <= 0 {
		q.workers = max(1, half)
	}
	q.budget.rate = pg.d.AheadCPU
	if q.budget.rate == 0 {
		q.budget.rate = max(0.5, float64(half))
	}
	q.budget.now = time.Now // the real clock, whatever the shop's (tests move that one)
	q.budget.sleep = time.Sleep
}

// StaleAndRenderAhead marks the pages tagged with tags stale and queues
// them to be rendered again ahead of requests: every page the change marks
// (or, with AheadWithin, those asked for within it), in aheadRank's order.
// It does not wait for the renders.
func (pg *Pages) StaleAndRenderAhead(tags []string) {
	within := pg.d.AheadWithin
	if within <= 0 {
		within = math.MaxInt64
	}
	_, stale := pg.d.Cache.StaleHot(within, math.MaxInt, tags...)
	if len(stale) == 0 {
		return
	}
	changed := make(map[string]bool, len(tags))
	for _, t := range tags {
		changed[t] = true
	}
	jobs := make([]*aheadJob, 0, len(stale))
	for _, r := range stale {
		load, ok := r.Src.(loadFunc)
		if !ok {
			pg.d.Cache.RevalidateFailed(r.Key)
			continue
		}
		jobs = append(jobs, &aheadJob{r: r, load: load, rank: aheadRank(r.Key, r.Tags, changed)})
	}
	pg.startAhead(jobs)
}

// startAhead queues jobs and starts the workers they need.
func (pg *Pages) startAhead(jobs []*aheadJob) {
	for range pg.ahead.push(jobs) {
		go pg.aheadWorker()
	}
}

// aheadWorker renders queued pages until the queue is empty. A page the
// cache dropped or replaced before its turn is skipped; a page a change
// marked stale again while it was rendered is queued again.
func (pg *Pages) aheadWorker() {
	q := &pg.ahead
	for j := q.next(); j != nil; j = q.next() {
		q.budget.wait()
		if !pg.d.Cache.Pending(j.r) {
			q.mu.Lock()
			q.skipped++
			q.mu.Unlock()
			continue
		}
		pg.d.RenderedAhead()
		start := q.budget.now()
		p, seq := pg.rerender(j.r.Key, j.load)
		q.budget.spend(q.budget.now().Sub(start))
		if p == nil {
			continue
		}
		if again, ok := pg.d.Cache.PutRenderedAhead(j.r.Key, p, seq); ok {
			pg.startAhead([]*aheadJob{{r: again, load: j.load, rank: j.rank}})
		}
	}
}
