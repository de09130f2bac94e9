package wcimport

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sync"
	"time"

	"vitrine/internal/storage/sqlstore"
)

// LegacyStore keeps the old ids (sqlstore.DB is the real one).
type LegacyStore interface {
	LegacyByOldID(ctx context.Context, kind string, oldID int64) (sqlstore.Legacy, bool, error)
	PutLegacy(ctx context.Context, l sqlstore.Legacy) error
	LegacyIDs(ctx context.Context, kind string) (map[int64]int64, error)
	ImportPagesDone(ctx context.Context, source, resource string) (int, error)
	SetImportPagesDone(ctx context.Context, source, resource string, pages int, at time.Time) error
}

// Deps are what a run writes with: the legacy ids, and each part's own
// writers (CatalogueDeps in catalogue.go, HistoryDeps in history.go).
type Deps struct {
	Legacy    LegacyStore
	Catalogue CatalogueDeps
	History   HistoryDeps
	Now       func() time.Time
	// Analyze, when set, refreshes the store's planner statistics
	// (sqlstore.DB.Analyze: PostgreSQL's, which autovacuum updates too late
	// during a bulk load); a run calls it as the store grows.
	Analyze func(ctx context.Context) error
}

// A resource is one kind of record a run moves: where it is read, and how
// one record is imported. A refused record's reason is the error's text
// when the error is a refusal (refuse); any other error stops the run.
type resource struct {
	name  string     // as in the report: "products", "customers", …
	path  string     // relative to /wp-json/: "wc/v3/products"
	query url.Values // extra query ("status=any" and the like)
	one   func(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error)
	// finish, when set, runs once every page is read (a second pass:
	// links between records that may point forward), before the
	// resource's progress is cleared.
	finish func(ctx context.Context, r *Run) error
	// optional: WordPress's own API (wp/v2), which a shop may lock down or
	// switch off for keys; a refusal of its listing (401, 403, 404) skips
	// the resource with a warning instead of stopping the run.
	optional bool
}

// refusal is an error that refuses one record without stopping the run.
type refusal struct{ name, reason string }

func (e *refusal) Error() string { return e.reason }

// refuse refuses the record known to the owner as name (its name, SKU,
// e-mail or number) for reason.
func refuse(name, reason string) error { return &refusal{name: name, reason: reason} }

// Run is one migration from one source.
type Run struct {
	deps   Deps
	src    Source
	source string // the old shop's origin, as the progress table keys it
	dry    bool

	mu     sync.Mutex
	dryIDs map[string]map[int64]int64 // a dry run's would-be ids, by kind and old id

	opts    Options
	report  Report
	resumed map[string]int // pages an earlier, unfinished run had finished, by resource
	analyze int            // records written when the next Deps.Analyze is due
	cat     catalogueState // the catalogue's run state (catalogue.go)
}

// resources are every resource a run moves, in the order they run.
func (r *Run) resources() []resource {
	return append(r.catalogueResources(), r.historyResources()...)
}

// digest is the hex SHA-256 of a source record: a re-run compares it with
// the one recorded at the last import and skips an unchanged record.
func digest(raw json.RawMessage) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// seen reports whether a record of kind with oldID was imported before:
// its new id, and whether raw is unchanged since.
func (r *Run) seen(ctx context.Context, kind string, oldID int64, raw json.RawMessage) (newID int64, unchanged bool, err error) {
	if r.dry {
		r.mu.Lock()
		id := r.dryIDs[kind][oldID]
		r.mu.Unlock()
		if id != 0 {
			return id, false, nil
		}
	}
	l, ok, err := r.deps.Legacy.LegacyByOldID(ctx, kind, oldID)
	if err != nil || !ok {
		return 0, false, err
	}
	return l.NewID, raw != nil && l.Digest == digest(raw), nil
}

// newID is the id in this shop of an object of kind imported as oldID,
// 0 when none was (a dry run counts what it would have written).
func (r *Run) newID(ctx context.Context, kind string, oldID int64) (int64, error) {
	id, _, err := r.seen(ctx, kind, oldID, nil)
	return id, err
}

// remember records an imported object: its new id, the path of its old
// permalink ("" when none) and the digest of raw. A dry run writes
// nothing; it keeps a stand-in id so later records that link to this one
// count as they would.
func (r *Run) remember(ctx context.Context, kind string, oldID, newID int64, oldPath string, raw json.RawMessage) error {
	if r.dry {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.dryIDs == nil {
			r.dryIDs = map[string]map[int64]int64{}
		}
		if r.dryIDs[kind] == nil {
			r.dryIDs[kind] = map[int64]int64{}
		}
		if newID == 0 {
			newID = -oldID
		}
		r.dryIDs[kind][oldID] = newID
		return nil
	}
	return r.deps.Legacy.PutLegacy(ctx, sqlstore.Legacy{
		Kind: kind, OldID: oldID, NewID: newID, OldPath: oldPath, Digest: digest(raw),
		ImportedAt: r.deps.Now().Unix(),
	})
}
