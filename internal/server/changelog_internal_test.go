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
	s := &Server{cache: render.NewCache(1<<20, time.Hour)}
	page := func() *render.Page { return render.NewPage(http.StatusOK, []byte("<p>old</p>"), []string{"product:1"}) }
	e := s.cacheEpoch()
	s.putFresh(s.cache, "/a/", page(), e)
	if _, ok := s.cache.Get("/a/"); !ok {
		t.Fatal("an answer with no change applied meanwhile was not kept")
	}
	e = s.cacheEpoch()
	s.changes.epoch.Add(1) // what applyBatch does before it invalidates
	s.putFresh(s.cache, "/b/", page(), e)
	if _, ok := s.cache.Get("/b/"); ok {
		t.Fatal("an answer that began before an applied change was kept")
	}

	var f changeFollower
	now := time.Now()
	f.skipped(10, []sqlstore.Change{{ID: 11}, {ID: 14}, {ID: 15}, {ID: 5000}}, now)
	if len(f.gaps) != 2 || f.gaps[12].IsZero() || f.gaps[13].IsZero() {
		t.Fatalf("gaps %v, want 12 and 13 (the jump to 5000 is not a gap)", f.gaps)
	}
}
