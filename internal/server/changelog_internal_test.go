package server

import (
	"net/http"
	"testing"
	"time"

	"vitrine/internal/render"
	"vitrine/internal/storage/sqlstore"
)

// A shared load keeps its answer only when no change was applied while it
// ran; the follower's skipped ids are the holes between the ids it read.
func TestPutFreshAndSkippedIDs(t *testing.T) {
	t.Parallel()
	s := &Server{cache: render.NewCache(1<<20, time.Hour)}
	page := func() *render.Page { return render.NewPage(http.StatusOK, []byte("<p>old</p>"), []string{"product:1"}) }
	s.changes.seen.Store(7)
	s.putFresh(s.cache, "/a/", page(), loadMark{version: 7})
	if _, ok := s.cache.Get("/a/"); !ok {
		t.Fatal("an answer loaded after change 7, with nothing newer applied, was not kept")
	}
	s.changes.seen.Store(8) // change 8 applied while the load ran
	s.putFresh(s.cache, "/b/", page(), loadMark{version: 7})
	if _, ok := s.cache.Get("/b/"); ok {
		t.Fatal("an answer that began before change 8 was applied was kept")
	}
	m := loadMark{version: 8, filled: s.changes.filled.Load()}
	s.changes.filled.Add(1) // a skipped id committed and applied meanwhile
	s.putFresh(s.cache, "/c/", page(), m)
	if _, ok := s.cache.Get("/c/"); ok {
		t.Fatal("an answer that began before a skipped change was applied was kept")
	}
	s.putFresh(s.cache, "/d/", page(), loadMark{version: -1, filled: s.changes.filled.Load()})
	if _, ok := s.cache.Get("/d/"); ok {
		t.Fatal("an answer whose start is unknown was kept")
	}

	var f changeFollower
	now := time.Now()
	f.skipped(10, []sqlstore.Change{{ID: 11}, {ID: 14}, {ID: 15}, {ID: 5000}}, now)
	if len(f.gaps) != 2 || f.gaps[12].IsZero() || f.gaps[13].IsZero() {
		t.Fatalf("gaps %v, want 12 and 13 (the jump to 5000 is not a gap)", f.gaps)
	}
}
