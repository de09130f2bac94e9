package server

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"vitrine/internal/render"
	"vitrine/internal/storage/sqlstore"
)

// Following the catalogue change log across instances.
//
// Every writer appends to catalog_changes in the transaction of its
// change, and each instance reads the entries after the newest id it has
// read (followChanges, and Synced before cart requests). On PostgreSQL an
// id is taken when the row is inserted, not when its transaction commits:
// two orders taking stock at once can commit ids 11 then 10, and a reader
// that saw 11 first would never ask for 10 again, so that change would
// never reach this instance's caches. The follower therefore remembers the
// ids it skipped (gaps) and asks for them again on every read for
// changeGapWait; a gap that never fills was rolled back. On SQLite there
// is one writer and ids commit in order; gaps there are rollbacks only.
//
// Caches are filled by shared loads (servePage and the other flight.Do
// users): a load that read the store before a change was committed may
// finish after the change was applied and would put a page older than the
// change back in the cache, where it stays until its max age. So a load
// first notes the newest committed change id and catches up with the log
// up to it (cacheMark; like Synced, it costs one SELECT MAX(id), and the
// catch-up only when the log moved): everything up to that id is then in
// the store and in this instance's in-memory caches the load reads.
// putFresh stores the answer unless the follower began applying a newer
// id, or a skipped id, while the load ran; such an answer is served once
// and not kept.

const (
	changeBatch           = 500             // entries per read
	changeGapWait         = 5 * time.Minute // how long a skipped id is asked for again
	changeGapMax          = 10000           // skipped ids remembered at most
	changeGapJump         = 1000            // a larger jump is not a gap (a sequence reset), not tracked
	changeStartGaps int64 = 200             // ids below the newest checked for gaps at start
)

// changeFollower is the state of the change-log reader besides the newest
// id read (Server.lastChange, which Synced reads without a lock).
type changeFollower struct {
	mu   sync.Mutex          // one reader at a time: the poller and Synced
	gaps map[int64]time.Time // skipped id → when it was first skipped

	pub    sync.RWMutex  // held to write by an invalidation, to read by putFresh
	seen   atomic.Int64  // the newest id whose invalidation began (under pub)
	filled atomic.Uint64 // batches of skipped ids applied (under pub)
}

// startChanges begins at the newest change and remembers the missing ids
// just below it: transactions still open when this instance starts.
func (s *Server) startChanges(ctx context.Context) error {
	last, err := s.db.LastChange(ctx)
	if err != nil {
		return err
	}
	f := &s.changes
	f.mu.Lock()
	defer f.mu.Unlock()
	if last > 1 {
		from := max(0, last-changeStartGaps)
		recent, err := s.db.ChangesSince(ctx, from, int(changeStartGaps))
		if err != nil {
			return err
		}
		f.skipped(from, recent, time.Now())
	}
	s.lastChange.Store(last)
	return nil
}

// applyChanges reads the change log (the gaps first, then what follows the
// newest id read) and drops what the entries touch.
func (s *Server) applyChanges(ctx context.Context) {
	f := &s.changes
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if len(f.gaps) > 0 {
		ids := make([]int64, 0, len(f.gaps))
		for id, at := range f.gaps {
			if now.Sub(at) > changeGapWait {
				delete(f.gaps, id) // rolled back
				continue
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for len(ids) > 0 {
			n := min(len(ids), changeBatch)
			found, err := s.db.ChangesIn(ctx, ids[:n])
			if err != nil {
				s.changeReadFailed(ctx, err)
				return
			}
			ids = ids[n:]
			if len(found) == 0 {
				continue
			}
			for _, c := range found {
				delete(f.gaps, c.ID)
			}
			s.log.Debug("catalogue changes committed out of order", "count", len(found), "first", found[0].ID)
			s.applyBatch(ctx, found, true)
		}
	}
	for {
		last := s.lastChange.Load()
		changes, err := s.db.ChangesSince(ctx, last, changeBatch)
		if err != nil {
			s.changeReadFailed(ctx, err)
			return
		}
		if len(changes) == 0 {
			return
		}
		f.skipped(last, changes, now)
		s.applyBatch(ctx, changes, false)
		s.lastChange.Store(changes[len(changes)-1].ID)
		if len(changes) < changeBatch {
			return
		}
	}
}

func (s *Server) changeReadFailed(ctx context.Context, err error) {
	if ctx.Err() == nil {
		s.log.Warn("read catalogue changes", "err", err)
	}
}

// applyBatch drops what changes (in id order; filled: ids skipped before)
// touch, first noting them for putFresh.
func (s *Server) applyBatch(ctx context.Context, changes []sqlstore.Change, filled bool) {
	f := &s.changes
	f.pub.Lock()
	defer f.pub.Unlock()
	if filled {
		f.filled.Add(1)
	} else if last := changes[len(changes)-1].ID; last > f.seen.Load() {
		f.seen.Store(last)
	}
	s.invalidateChanges(ctx, changes)
}

// skipped remembers the ids after `after` that changes (read in id order)
// jumped over.
func (f *changeFollower) skipped(after int64, changes []sqlstore.Change, now time.Time) {
	prev := after
	for _, c := range changes {
		if gap := c.ID - prev - 1; gap > 0 && gap <= changeGapJump {
			if f.gaps == nil {
				f.gaps = map[int64]time.Time{}
			}
			for id := prev + 1; id < c.ID && len(f.gaps) < changeGapMax; id++ {
				f.gaps[id] = now
			}
		}
		prev = max(prev, c.ID)
	}
}

// loadMark is what a shared load started from (cacheMark).
type loadMark struct {
	version int64  // the newest committed change id; -1: unknown, never store
	filled  uint64 // changeFollower.filled
}

// cacheMark is taken before a shared load that ends in putFresh: the
// newest committed change id, after catching up with the log to it.
func (s *Server) cacheMark(ctx context.Context) loadMark {
	m := loadMark{filled: s.changes.filled.Load()}
	v, err := s.db.CatalogVersion(ctx)
	if err != nil {
		m.version = -1
		return m
	}
	if v > s.lastChange.Load() {
		s.applyChanges(ctx)
	}
	m.version = v
	return m
}

// putFresh stores p under key in c unless, since m was taken, the
// follower began applying a change newer than m.version or a skipped one:
// the answer may predate that change.
func (s *Server) putFresh(c *render.Cache, key string, p *render.Page, m loadMark) {
	f := &s.changes
	f.pub.RLock()
	defer f.pub.RUnlock()
	if m.version >= 0 && f.seen.Load() <= m.version && f.filled.Load() == m.filled {
		c.Put(key, p)
	}
}
