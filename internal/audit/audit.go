// Package audit is the admin's audit log: who changed what, and when, for
// every write made through the admin API. Entries are appended,
// never edited; the admin lists them newest first, filtered by object or
// actor.
//
// The admin API records an entry for each write that succeeded (a 2xx
// answer to a POST, PUT, PATCH or DELETE), after the write: the handler
// names the object and says what changed (adminapi.Note); a handler that
// says nothing still gets an entry with its method and path. An entry that
// cannot be stored is logged, and the write stands: the log is the
// owner's record, not a lock on the shop.
package audit

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/clock"
)

// Entry is one admin write.
type Entry struct {
	ID int64 `json:"id"`
	// At is when the write was answered.
	At time.Time `json:"date"`
	// ActorID and ActorName are the staff member who made it (the name as
	// it was then: an account renamed or deleted later keeps its entries).
	// The shop's own work (data retention's runs) has ActorID 0 and a
	// name that says what did it.
	ActorID   int64  `json:"actor_id"`
	ActorName string `json:"actor_name"`
	// Action is a dotted verb, e.g. "product.update", "order.refund".
	Action string `json:"action"`
	// Object and ObjectID name what was changed ("product", 42).
	Object   string `json:"object"`
	ObjectID int64  `json:"object_id"`
	// Summary is one line for people ("Price 12.00 → 10.00").
	Summary string `json:"summary"`
	// ClientIP is the address the request came from.
	ClientIP string `json:"client_ip"`
}

// Filter narrows a listing. Zero values match everything.
type Filter struct {
	Object   string
	ObjectID int64
	ActorID  int64
	// Before is the cursor: only entries with a smaller ID (the next page
	// after the last entry seen).
	Before int64
	Limit  int // 1..100, default 50
}

// Store keeps the log.
type Store interface {
	AppendAudit(ctx context.Context, e *Entry) (int64, error)
	ListAudit(ctx context.Context, f Filter) ([]Entry, error)
}

// ErrInvalid is an entry without an actor (a staff id, or a name for the
// shop's own work) or an action.
var ErrInvalid = errors.New("audit: an entry needs an actor and an action")

// Service appends and lists entries.
type Service struct {
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
}

// Limits on what one entry keeps.
const (
	maxAction  = 64
	maxObject  = 32
	maxSummary = 500
	maxName    = 100
)

// Record appends e, stamping its time. Long text is cut, not refused.
func (s *Service) Record(ctx context.Context, e Entry) (int64, error) {
	if e.ActorID < 0 || (e.ActorID == 0 && strings.TrimSpace(e.ActorName) == "") || strings.TrimSpace(e.Action) == "" {
		return 0, ErrInvalid
	}
	if e.At.IsZero() {
		e.At = s.now()
	}
	e.Action = clip(e.Action, maxAction)
	e.Object = clip(e.Object, maxObject)
	e.Summary = clip(e.Summary, maxSummary)
	e.ActorName = clip(e.ActorName, maxName)
	id, err := s.Store.AppendAudit(ctx, &e)
	if err != nil && s.Log != nil {
		s.Log.Error("audit: record", "action", e.Action, "object", e.Object, "id", e.ObjectID, "err", err)
	}
	return id, err
}

// List returns entries newest first.
func (s *Service) List(ctx context.Context, f Filter) ([]Entry, error) {
	if f.Limit <= 0 || f.Limit > 100 {
		f.Limit = 50
	}
	return s.Store.ListAudit(ctx, f)
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

// clip cuts s to at most n bytes on a rune boundary, with an ellipsis.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
